/*
 * template.c: compiles and evaluates the template subset described in
 * template.h.
 *
 * A template compiles to an array of elements; each element is a literal
 * (a run of text), a reference (a name, an optional default and a context
 * index) or a call of a template function (db/template-func.c). This file
 * finds where a call ends and splits it into words. Invariant: a compiled
 * template owns all its strings and never changes, so evaluation only reads
 * it and needs no lock; evaluation appends to the caller's buffer and
 * allocates nothing else.
 */
#include "db/template.h"
#include "db/template-func.h"
#include "db/database.h"

#include <string.h>

typedef enum
{
  ELEMENT_LITERAL,
  ELEMENT_REFERENCE,
  ELEMENT_CALL,
} ElementKind;

typedef struct _TemplateElement
{
  ElementKind kind;
  gchar *text;          /* literal text, or the referenced name */
  gsize text_length;
  gchar *default_value; /* ${name:-default}; NULL without `:-` */
  guint context_index;  /* ${name}@N, $(call)@N */
  gboolean pinned;      /* written with @N (a call then sees that message alone) */
  PdbTemplateCall *call;  /* ELEMENT_CALL */
} TemplateElement;

struct _PdbTemplate
{
  PdbTypeHint type_hint;
  GArray *elements;     /* of TemplateElement */
  guint max_context_index;
  gboolean reads_context;
  gboolean stateful;
};

static const struct
{
  const gchar *name;
  PdbTypeHint hint;
} type_hint_names[] =
{
  { "string", PDB_TYPE_HINT_STRING },
  { "literal", PDB_TYPE_HINT_LITERAL },
  { "boolean", PDB_TYPE_HINT_BOOLEAN },
  { "int", PDB_TYPE_HINT_INT32 },
  { "int32", PDB_TYPE_HINT_INT32 },
  { "int64", PDB_TYPE_HINT_INT64 },
  { "double", PDB_TYPE_HINT_DOUBLE },
  { "float", PDB_TYPE_HINT_DOUBLE },
  { "datetime", PDB_TYPE_HINT_DATETIME },
  { "list", PDB_TYPE_HINT_LIST },
  { "json", PDB_TYPE_HINT_JSON },
  { "null", PDB_TYPE_HINT_NULL },
};

gboolean
pdb_type_hint_parse(const gchar *name, gssize length, PdbTypeHint *hint)
{
  gsize len = length < 0 ? strlen(name) : (gsize) length;

  for (gsize i = 0; i < G_N_ELEMENTS(type_hint_names); i++)
    {
      if (strlen(type_hint_names[i].name) == len && memcmp(type_hint_names[i].name, name, len) == 0)
        {
          *hint = type_hint_names[i].hint;
          return TRUE;
        }
    }
  return FALSE;
}

const gchar *
pdb_type_hint_to_string(PdbTypeHint hint)
{
  switch (hint)
    {
    case PDB_TYPE_HINT_NONE:
    case PDB_TYPE_HINT_STRING:
      return "string";
    case PDB_TYPE_HINT_LITERAL:
      return "literal";
    case PDB_TYPE_HINT_BOOLEAN:
      return "boolean";
    case PDB_TYPE_HINT_INT32:
      return "int32";
    case PDB_TYPE_HINT_INT64:
      return "int64";
    case PDB_TYPE_HINT_DOUBLE:
      return "double";
    case PDB_TYPE_HINT_DATETIME:
      return "datetime";
    case PDB_TYPE_HINT_LIST:
      return "list";
    case PDB_TYPE_HINT_JSON:
      return "json";
    case PDB_TYPE_HINT_NULL:
      return "null";
    }
  return "string";
}

PdbValueType
pdb_type_hint_to_value_type(PdbTypeHint hint)
{
  switch (hint)
    {
    case PDB_TYPE_HINT_INT32:
    case PDB_TYPE_HINT_INT64:
      return PDB_VALUE_INT64;
    case PDB_TYPE_HINT_DOUBLE:
      return PDB_VALUE_DOUBLE;
    default:
      return PDB_VALUE_STRING;
    }
}

static void
element_clear(gpointer data)
{
  TemplateElement *e = data;

  g_free(e->text);
  g_free(e->default_value);
  pdb_template_call_free(e->call);
}

static void
add_literal(PdbTemplate *tmpl, const gchar *text, gsize length)
{
  if (length == 0)
    return;

  /* Merge with a previous literal so that `a$$b` is one element. */
  if (tmpl->elements->len > 0)
    {
      TemplateElement *last = &g_array_index(tmpl->elements, TemplateElement, tmpl->elements->len - 1);
      if (last->kind == ELEMENT_LITERAL)
        {
          last->text = g_realloc(last->text, last->text_length + length + 1);
          memcpy(last->text + last->text_length, text, length);
          last->text_length += length;
          last->text[last->text_length] = '\0';
          return;
        }
    }

  TemplateElement e = { ELEMENT_LITERAL, g_strndup(text, length), length, NULL, 0, FALSE, NULL };
  g_array_append_val(tmpl->elements, e);
}

static void
add_reference(PdbTemplate *tmpl, const gchar *name, gsize length, gchar *default_value, guint index)
{
  /* 3.38: `$_` is the CONTEXT_ID macro (which $(map) and $(filter) set to
   * the element) */
  if (length == 1 && name[0] == '_')
    name = PDB_TEMPLATE_CONTEXT_ID, length = strlen(PDB_TEMPLATE_CONTEXT_ID);

  TemplateElement e = { ELEMENT_REFERENCE, g_strndup(name, length), length, default_value, index, FALSE, NULL };

  g_array_append_val(tmpl->elements, e);
  if (index > tmpl->max_context_index)
    tmpl->max_context_index = index;
  if (index > 0)
    tmpl->reads_context = TRUE;
}

static void
add_call(PdbTemplate *tmpl, PdbTemplateCall *call)
{
  TemplateElement e = { ELEMENT_CALL, NULL, 0, NULL, 0, FALSE, call };

  g_array_append_val(tmpl->elements, e);
  tmpl->max_context_index = MAX(tmpl->max_context_index, pdb_template_call_get_max_context_index(call));
  if (pdb_template_call_reads_context(call))
    tmpl->reads_context = TRUE;
  if (pdb_template_call_is_stateful(call))
    tmpl->stateful = TRUE;
}

static gboolean
is_name_char(gchar c)
{
  return g_ascii_isalnum(c) || c == '_';
}

/* Parses `${...}` starting at @p (which points at `{`); returns the position
 * after the reference, or NULL with @error set. @start is the template text,
 * for error positions. */
static const gchar *
compile_braced(PdbTemplate *tmpl, const gchar *start, const gchar *p, GError **error)
{
  const gchar *name = p + 1;
  const gchar *close = strchr(name, '}');

  if (!close)
    {
      g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_TEMPLATE,
                  "'}' is missing after '${' at position %d; write '${name}'",
                  (gint) (p - 1 - start));
      return NULL;
    }

  const gchar *colon = memchr(name, ':', close - name);
  gchar *default_value = NULL;
  const gchar *name_end = close;

  if (colon)
    {
      if (colon[1] != '-')
        {
          g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_TEMPLATE,
                      "unknown substitution '%.*s' at position %d; only '${name:-default}' is supported",
                      (gint) (close - colon), colon, (gint) (colon - start));
          return NULL;
        }
      default_value = g_strndup(colon + 2, close - (colon + 2));
      name_end = colon;
    }

  add_reference(tmpl, name, name_end - name, default_value, 0);
  (void) start;
  return close + 1;
}

/* What follows a `${...}` or `$(...)` (3.38): `@@` is a literal `@`, `@N`
 * (digits) makes the element look N messages back, any other `@` stays
 * literal text. Returns the position after what it took. */
static const gchar *
compile_after_element(PdbTemplate *tmpl, const gchar *p, const gchar *end)
{
  if (p >= end || *p != '@')
    return p;
  if (p + 1 < end && p[1] == '@')
    {
      add_literal(tmpl, "@", 1);
      return p + 2;
    }
  if (p + 1 >= end || !g_ascii_isdigit(p[1]) || tmpl->elements->len == 0)
    return p;

  TemplateElement *e = &g_array_index(tmpl->elements, TemplateElement, tmpl->elements->len - 1);
  guint64 index = 0;
  for (p++; p < end && g_ascii_isdigit(*p); p++)
    index = MIN(index * 10 + (guint64) (*p - '0'), PDB_TEMPLATE_MAX_CONTEXT_INDEX);
  e->context_index = (guint) index;
  e->pinned = TRUE;
  tmpl->max_context_index = MAX(tmpl->max_context_index, e->context_index);
  if (index > 0)
    tmpl->reads_context = TRUE;
  return p;
}

static gboolean
is_blank(gchar c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The closing quote for the quote at @p, or NULL (there are no escapes
 * inside quotes). */
static const gchar *
quote_end(const gchar *p, const gchar *end)
{
  const gchar *close = memchr(p + 1, *p, end - (p + 1));

  return close;
}

/* The `)` that closes the `(` at @open: a backslash hides the next byte,
 * quotes hide everything up to their closing quote. Returns NULL with
 * @error set (positions relative to @text). */
static const gchar *
call_end(const gchar *text, const gchar *open, const gchar *end, GError **error)
{
  gint depth = 0;

  for (const gchar *q = open; q < end; q++)
    {
      if (*q == '\\')
        q++;
      else if (*q == '"' || *q == '\'')
        {
          const gchar *close = quote_end(q, end);

          if (!close)
            {
              g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_TEMPLATE,
                          "the quote at position %d is not closed inside '$(' at position %d",
                          (gint) (q - text), (gint) (open - 1 - text));
              return NULL;
            }
          q = close;
        }
      else if (*q == '(')
        depth++;
      else if (*q == ')' && --depth == 0)
        return q;
    }
  g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_TEMPLATE,
              "')' is missing for '$(' at position %d; write '$(function arguments...)'",
              (gint) (open - 1 - text));
  return NULL;
}

/* Appends the parenthesised group at @p to @word as written, except that
 * `\x` outside quotes becomes x (as 3.38 does: `$(echo $(length a\ b))`
 * is "1 1"); returns the position after the group. call_end() has
 * checked that it closes. */
static const gchar *
copy_group(GString *word, const gchar *p, const gchar *end)
{
  gint depth = 0;

  while (p < end)
    {
      if (*p == '\\' && p + 1 < end)
        {
          g_string_append_c(word, p[1]);
          p += 2;
          continue;
        }
      if (*p == '"' || *p == '\'')
        {
          const gchar *close = quote_end(p, end);

          g_string_append_len(word, p, close + 1 - p);
          p = close + 1;
          continue;
        }
      if (*p == '(')
        depth++;
      else if (*p == ')')
        depth--;
      g_string_append_c(word, *p++);
      if (depth == 0)
        break;
    }
  return p;
}

/* Splits the inside of a call (call_end() has checked the quotes and
 * parentheses) into words: blanks separate them, quotes are removed,
 * `\x` is x, a parenthesised group keeps its quotes (copy_group()). */
static GPtrArray *
split_words(const gchar *p, const gchar *end)
{
  GPtrArray *words = g_ptr_array_new_with_free_func(g_free);

  for (;;)
    {
      while (p < end && is_blank(*p))
        p++;
      if (p >= end)
        break;

      GString *word = g_string_new(NULL);
      while (p < end && !is_blank(*p))
        {
          if (*p == '\\' && p + 1 < end)
            {
              g_string_append_c(word, p[1]);
              p += 2;
            }
          else if (*p == '"' || *p == '\'')
            {
              const gchar *close = quote_end(p, end);

              g_string_append_len(word, p + 1, close - (p + 1));
              p = close + 1;
            }
          else if (*p == '(')
            p = copy_group(word, p, end);
          else
            g_string_append_c(word, *p++);
        }
      g_ptr_array_add(words, g_string_free(word, FALSE));
    }
  g_ptr_array_add(words, NULL);
  return words;
}

/* Compiles the call `$(...)` whose `(` is at @open; returns the position
 * after its `)`, or NULL with @error set. */
static const gchar *
compile_call(PdbTemplate *tmpl, const gchar *text, const gchar *open, const gchar *end, GError **error)
{
  const gchar *close = call_end(text, open, end, error);

  if (!close)
    return NULL;

  GPtrArray *words = split_words(open + 1, close);
  if (words->len == 1)
    {
      /* `$()` expands to nothing and, as in 3.38, takes the literal text
       * written since the previous reference or call with it (`x$()y` is "y") */
      if (tmpl->elements->len > 0
          && g_array_index(tmpl->elements, TemplateElement, tmpl->elements->len - 1).kind == ELEMENT_LITERAL)
        g_array_set_size(tmpl->elements, tmpl->elements->len - 1);
      g_ptr_array_free(words, TRUE);
      return close + 1;
    }

  GError *call_error = NULL;
  PdbTemplateCall *call = pdb_template_call_new(g_ptr_array_index(words, 0), (const gchar *const *) words->pdata + 1,
                                                &call_error);
  if (!call)
    {
      g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_TEMPLATE, "%s (the call at position %d)",
                  call_error->message, (gint) (open - 1 - text));
      g_error_free(call_error);
    }
  else
    add_call(tmpl, call);
  g_ptr_array_free(words, TRUE);
  return call ? close + 1 : NULL;
}

static gboolean
compile_body(PdbTemplate *tmpl, const gchar *text, const gchar *end, GError **error)
{
  const gchar *p = text;
  const gchar *literal_start = text;

  while (p < end)
    {
      if (*p != '$')
        {
          p++;
          continue;
        }

      add_literal(tmpl, literal_start, p - literal_start);
      const gchar *next = p + 1;

      if (next < end && *next == '$')
        {
          add_literal(tmpl, "$", 1);
          p = next + 1;
        }
      else if (next < end && *next == '{')
        {
          p = compile_braced(tmpl, text, next, error);
          if (!p)
            return FALSE;
          p = compile_after_element(tmpl, p, end);
        }
      else if (next < end && *next == '(')
        {
          p = compile_call(tmpl, text, next, end, error);
          if (!p)
            return FALSE;
          p = compile_after_element(tmpl, p, end);
        }
      else if (next < end && is_name_char(*next))
        {
          const gchar *name_end = next;
          while (name_end < end && is_name_char(*name_end))
            name_end++;
          add_reference(tmpl, next, name_end - next, NULL, 0);
          p = name_end;
        }
      else
        {
          /* A `$` that starts nothing stays literal (`a$`, `$-x`, `$.x`). */
          add_literal(tmpl, "$", 1);
          p = next;
        }
      literal_start = p;
    }
  add_literal(tmpl, literal_start, p - literal_start);
  return TRUE;
}

/* Recognises `type(inner)`; returns FALSE with @error for an unknown type,
 * TRUE otherwise, setting *inner_start and *inner_end to the part to compile. */
static gboolean
split_type_hint(PdbTemplate *tmpl, const gchar *text, const gchar **inner_start,
                const gchar **inner_end, GError **error)
{
  const gchar *sp = text;

  *inner_start = text;
  *inner_end = text + strlen(text);

  if (!(g_ascii_isalpha(text[0]) || text[0] == '_'))
    return TRUE;
  while (is_name_char(*sp))
    sp++;
  while (*sp == ' ' || *sp == '\t')
    sp++;
  if (*sp != '(')
    return TRUE;

  const gchar *close = strrchr(sp, ')');
  if (!close || close[1] != '\0')
    return TRUE;

  if (!pdb_type_hint_parse(text, sp - text, &tmpl->type_hint))
    {
      g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_TEMPLATE,
                  "unknown type '%.*s' in type hinting; write one of " PDB_TYPE_HINT_NAMES
                  ", or write the value without parentheses",
                  (gint) (sp - text), text);
      return FALSE;
    }
  *inner_start = sp + 1;
  *inner_end = close;
  return TRUE;
}

PdbTemplate *
pdb_template_compile(const gchar *text, gboolean with_type_hint, GError **error)
{
  PdbTemplate *tmpl = g_new0(PdbTemplate, 1);
  const gchar *start = text;
  const gchar *end = text + strlen(text);

  tmpl->elements = g_array_new(FALSE, TRUE, sizeof(TemplateElement));
  g_array_set_clear_func(tmpl->elements, element_clear);

  if (with_type_hint && !split_type_hint(tmpl, text, &start, &end, error))
    {
      pdb_template_free(tmpl);
      return NULL;
    }
  if (!compile_body(tmpl, start, end, error))
    {
      pdb_template_free(tmpl);
      return NULL;
    }
  return tmpl;
}

void
pdb_template_free(PdbTemplate *tmpl)
{
  if (!tmpl)
    return;
  g_array_free(tmpl->elements, TRUE);
  g_free(tmpl);
}

PdbTypeHint
pdb_template_get_type_hint(const PdbTemplate *tmpl)
{
  return tmpl->type_hint;
}

guint
pdb_template_get_max_context_index(const PdbTemplate *tmpl)
{
  return tmpl->max_context_index;
}

gboolean
pdb_template_reads_context(const PdbTemplate *tmpl)
{
  return tmpl->reads_context;
}

gboolean
pdb_template_is_stateful(const PdbTemplate *tmpl)
{
  return tmpl->stateful;
}

gboolean
pdb_template_is_literal(const PdbTemplate *tmpl)
{
  for (guint i = 0; i < tmpl->elements->len; i++)
    if (g_array_index(tmpl->elements, TemplateElement, i).kind != ELEMENT_LITERAL)
      return FALSE;
  return TRUE;
}

const gchar pdb_template_no_message[] = "";

/* The number of messages in the correlation context (1 without one). */
static guint64
context_length(PdbTemplateLookupFunc lookup, gpointer user_data)
{
  gssize length = -1;
  const gchar *text = lookup ? lookup("", PDB_TEMPLATE_CONTEXT_LENGTH_INDEX, &length, user_data) : NULL;
  guint64 n = 0;

  if (!text)
    return 1;
  if (length < 0)
    length = strlen(text);
  for (gssize i = 0; i < length && g_ascii_isdigit(text[i]) && n < G_MAXUINT; i++)
    n = n * 10 + (guint64) (text[i] - '0');
  return n ? n : 1;
}

/* TRUE when @lookup answers for a correlation context. */
static gboolean
context_known(PdbTemplateLookupFunc lookup, gpointer user_data)
{
  gssize length = -1;

  return lookup && lookup("", PDB_TEMPLATE_CONTEXT_LENGTH_INDEX, &length, user_data) != NULL;
}

void
pdb_template_append(const PdbTemplate *tmpl, PdbTemplateLookupFunc lookup,
                    gpointer user_data, GString *out)
{
  for (guint i = 0; i < tmpl->elements->len; i++)
    {
      const TemplateElement *e = &g_array_index(tmpl->elements, TemplateElement, i);

      if (e->kind == ELEMENT_LITERAL)
        {
          g_string_append_len(out, e->text, e->text_length);
          continue;
        }
      if (e->pinned && e->context_index > 0 && e->context_index >= context_length(lookup, user_data))
        continue;   /* before the context: nothing, not even the default */
      if (e->kind == ELEMENT_CALL)
        {
          if (e->pinned)
            pdb_template_call_append_at(e->call, e->context_index, lookup, user_data, out);
          else
            pdb_template_call_append(e->call, lookup, user_data, out);
          continue;
        }

      gssize length = -1;
      const gchar *value = lookup ? lookup(e->text, e->context_index, &length, user_data) : NULL;

      if (value == pdb_template_no_message)
        continue;

      /* CONTEXT_ID in a correlation context whose lookup does not know the
       * macro: the id the message was classified into */
      if (!value && strcmp(e->text, PDB_TEMPLATE_CONTEXT_ID) == 0 && context_known(lookup, user_data))
        {
          length = -1;
          value = lookup(".classifier.context_id", e->context_index, &length, user_data);
        }

      if (value && length < 0)
        length = strlen(value);
      if ((!value || length == 0) && e->default_value)
        g_string_append(out, e->default_value);
      else if (value)
        g_string_append_len(out, value, length);
    }
}

/*
 * template.c: compiles and evaluates the template subset described in
 * template.h.
 *
 * A template compiles to an array of elements; each element is a literal
 * (a run of text) or a reference (a name, an optional default and a context
 * index). Invariant: a compiled template owns all its strings and never
 * changes, so evaluation only reads it and needs no lock.
 */
#include "db/template.h"
#include "db/database.h"

#include <string.h>

typedef enum
{
  ELEMENT_LITERAL,
  ELEMENT_REFERENCE,
} ElementKind;

typedef struct _TemplateElement
{
  ElementKind kind;
  gchar *text;          /* literal text, or the referenced name */
  gsize text_length;
  gchar *default_value; /* ${name:-default}; NULL without `:-` */
  guint context_index;  /* ${name}@N */
} TemplateElement;

struct _PdbTemplate
{
  PdbTypeHint type_hint;
  GArray *elements;     /* of TemplateElement */
  guint max_context_index;
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

  TemplateElement e = { ELEMENT_LITERAL, g_strndup(text, length), length, NULL, 0 };
  g_array_append_val(tmpl->elements, e);
}

static void
add_reference(PdbTemplate *tmpl, const gchar *name, gsize length, gchar *default_value, guint index)
{
  TemplateElement e = { ELEMENT_REFERENCE, g_strndup(name, length), length, default_value, index };

  g_array_append_val(tmpl->elements, e);
  if (index > tmpl->max_context_index)
    tmpl->max_context_index = index;
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

  p = close + 1;
  guint index = 0;
  if (p[0] == '@' && g_ascii_isdigit(p[1]))
    {
      p++;
      while (g_ascii_isdigit(*p))
        {
          index = index * 10 + (guint) (*p - '0');
          if (index > 1000000)
            {
              g_free(default_value);
              g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_TEMPLATE,
                          "context index after '@' is too large at position %d", (gint) (p - start));
              return NULL;
            }
          p++;
        }
    }
  add_reference(tmpl, name, name_end - name, default_value, index);
  return p;
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
        }
      else if (next < end && *next == '(')
        {
          g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_TEMPLATE,
                      "template functions '$(...)' are not supported (position %d)",
                      (gint) (p - text));
          return FALSE;
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
pdb_template_is_literal(const PdbTemplate *tmpl)
{
  for (guint i = 0; i < tmpl->elements->len; i++)
    if (g_array_index(tmpl->elements, TemplateElement, i).kind != ELEMENT_LITERAL)
      return FALSE;
  return TRUE;
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

      gssize length = -1;
      const gchar *value = lookup ? lookup(e->text, e->context_index, &length, user_data) : NULL;

      if (value && length < 0)
        length = strlen(value);
      if ((!value || length == 0) && e->default_value)
        g_string_append(out, e->default_value);
      else if (value)
        g_string_append_len(out, value, length);
    }
}

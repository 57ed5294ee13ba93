/*
 * template-func-list.c: syslog-ng 3.38 lists and the functions of the basic
 * set that read or write them, with the results pdbtool 3.38 gives.
 *
 * A list is text: elements separated by `,`. Reading (pdb_tf_list_scan):
 * every argument is a list; empty unquoted elements are skipped (`""` is an
 * empty element); an element that
 * starts with `"` or `'` is quoted: up to the same quote, where `\b \f \n
 * \r \t \\` and backslash-quote are escapes and any other `\x` stays `\x`,
 * and the element must end right after the quote; otherwise (an unclosed
 * quote, text after it) the element is the raw text up to and including the
 * next `,`. An unquoted element runs to the next `,`, blanks included.
 * Writing: db/list-repr.h.
 *
 *   $(list-concat L...)       the elements of all lists, as one list
 *   $(list-append L E...)     L as is, then each E as one element
 *   $(list-head L...)         the first element (decoded)
 *   $(list-nth N L...)        element N (from 0; negative from the end); N is
 *                             a whole number, cut to 32 bits as 3.38 does
 *   $(list-tail L...)         all but the first element
 *   $(list-slice F:L L...)    elements F (inclusive) to L (exclusive); either
 *                             may be left out or negative; cut to 32 bits
 *   $(list-count L...)        the number of elements
 *   $(list-search [--mode M] [--start-index N] PATTERN L...)  the index of
 *                             the first element from N on that matches PATTERN
 *                             as written (M: literal, prefix, substring, glob,
 *                             pcre); PATTERN must still compile as a template
 *   $(explode SEP S...)       each S split at every SEP, as a list
 *   $(implode SEP L...)       the elements of the lists joined by SEP
 */
#include "db/template-func-private.h"
#include "db/list-repr.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <string.h>

/* ---- writing ---- */

void
pdb_tf_list_separate(GString *out, gsize start)
{
  if (out->len > start && out->str[out->len - 1] != ',')
    g_string_append_c(out, ',');
}

/* ---- reading ---- */

static gchar
unescape(gchar c, gchar quote, GString *value)
{
  switch (c)
    {
    case 'b': return '\b';
    case 'f': return '\f';
    case 'n': return '\n';
    case 'r': return '\r';
    case 't': return '\t';
    case '\\': return '\\';
    default:
      if (c != quote)
        g_string_append_c(value, '\\');
      return c;
    }
}

/* Decodes the element at @p (not at a `,`) into @value; returns where the
 * next one starts. */
static const gchar *
decode_element(const gchar *p, const gchar *end, GString *value)
{
  const gchar *start = p;

  g_string_truncate(value, 0);
  if (*p != '"' && *p != '\'')
    {
      const gchar *comma = memchr(p, ',', end - p);
      const gchar *stop = comma ? comma : end;
      g_string_append_len(value, p, stop - p);
      return comma ? comma + 1 : end;
    }

  gchar quote = *p++;
  while (p < end && *p != quote)
    {
      if (*p == '\\' && p + 1 < end)
        {
          g_string_append_c(value, unescape(p[1], quote, value));
          p += 2;
        }
      else
        g_string_append_c(value, *p++);
    }
  if (p < end && (p + 1 == end || p[1] == ','))
    return p + 1 == end ? end : p + 2;

  /* malformed: the raw text up to and including the next `,` */
  const gchar *comma = p < end ? memchr(p, ',', end - p) : NULL;
  const gchar *stop = comma ? comma + 1 : end;
  g_string_truncate(value, 0);
  g_string_append_len(value, start, stop - start);
  return stop;
}

void
pdb_tf_list_scan(GPtrArray *values, guint from, PdbTfListEach each, gpointer user_data)
{
  GString *element = g_string_new(NULL);

  for (guint i = from; i < values->len; i++)
    {
      const GString *list = g_ptr_array_index(values, i);
      /* 3.38 reads NUL-terminated strings */
      const gchar *p = list->str, *end = list->str + strlen(list->str);

      while (p < end)
        {
          if (*p == ',')
            {
              p++;
              continue;
            }
          p = decode_element(p, end, element);
          if (!each(element->str, element->len, user_data))
            goto done;
        }
    }
done:
  g_string_free(element, TRUE);
}

/* ---- the functions ---- */

typedef struct
{
  GString *out;
  gsize start;
  gint64 index;       /* of the element being looked at */
  gint64 first, last; /* slice bounds; nth: first == the index wanted */
  gboolean raw;       /* nth: the element decoded, not as a list */
  const gchar *separator;  /* implode */
} Collect;

static gboolean
collect_slice(const gchar *element, gsize length, gpointer user_data)
{
  Collect *c = user_data;
  gint64 i = c->index++;

  if (i >= c->last)
    return FALSE;
  if (i < c->first)
    return TRUE;
  if (c->raw)
    {
      g_string_append_len(c->out, element, length);
      return FALSE;
    }
  if (c->separator)
    {
      if (i > 0)
        g_string_append(c->out, c->separator);
      g_string_append_len(c->out, element, length);
      return TRUE;
    }
  pdb_tf_list_separate(c->out, c->start);
  pdb_list_append_element(c->out, element, length);
  return TRUE;
}

static gboolean
count_element(const gchar *element, gsize length, gpointer user_data)
{
  (void) element;
  (void) length;
  (*(gint64 *) user_data)++;
  return TRUE;
}

static gint64
list_count(GPtrArray *values, guint from)
{
  gint64 n = 0;

  pdb_tf_list_scan(values, from, count_element, &n);
  return n;
}

/* Elements [first, last) of the lists values[from..] (3.38: int indexes,
 * negative ones counted from the end). */
static void
append_slice(GString *out, GPtrArray *values, guint from, gint32 first, gint32 last, gboolean raw)
{
  Collect c = { out, out->len, 0, first, last, raw, NULL };

  if (values->len <= from)
    return;
  if (first < 0 || last < 0)
    {
      gint64 n = list_count(values, from);
      c.first = first < 0 ? first + n : first;
      c.last = last < 0 ? last + n : last;
    }
  pdb_tf_list_scan(values, from, collect_slice, &c);
}

/* the elements of all the arguments as one list, from element @first on */
static void
append_args_from(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out, gint32 first)
{
  GPtrArray *v = pdb_tf_expand_args(call, env);

  append_slice(out, v, 0, first, G_MAXINT32, FALSE);
  pdb_tf_free_values(v);
}

static void
eval_list_concat(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  append_args_from(call, env, out, 0);
}

static void
eval_list_append(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  gsize start = out->len;

  if (call->args->len == 0)
    return;
  pdb_tf_append_arg(call, 0, env, out);
  GPtrArray *v = pdb_tf_expand_args(call, env);
  for (guint i = 1; i < v->len; i++)
    {
      GString *e = g_ptr_array_index(v, i);
      pdb_tf_list_separate(out, start);
      pdb_list_append_element(out, e->str, e->len);
    }
  pdb_tf_free_values(v);
}

/* (gint) of a 64-bit number, as 3.38 passes list indexes. */
static gint32
to_int32(gint64 n)
{
  return (gint32) (guint32) (guint64) n;
}

static void
eval_list_head(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  GPtrArray *v = pdb_tf_expand_args(call, env);

  append_slice(out, v, 0, 0, 1, TRUE);
  pdb_tf_free_values(v);
}

static void
eval_list_nth(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  GPtrArray *v = pdb_tf_expand_args(call, env);
  gint64 n;

  if (v->len >= 2 && pdb_tf_parse_dec(((GString *) g_ptr_array_index(v, 0))->str, &n))
    {
      gint32 i = to_int32(n);
      if (i < 0)
        i = (gint32) (i + list_count(v, 1));
      if (i >= 0 && i < G_MAXINT32)
        append_slice(out, v, 1, i, i + 1, TRUE);
    }
  pdb_tf_free_values(v);
}

static void
eval_list_tail(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  append_args_from(call, env, out, 1);
}

static void
eval_list_slice(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  GPtrArray *v = pdb_tf_expand_args(call, env);
  gint64 first = 0, last = G_MAXINT32;

  if (v->len >= 1)
    {
      gchar *spec = g_strdup(((GString *) g_ptr_array_index(v, 0))->str);
      gchar *colon = strchr(spec, ':');
      gboolean ok;

      if (colon)
        *colon = '\0';
      ok = (!spec[0] || pdb_tf_parse_dec(spec, &first)) && (!colon || !colon[1] || pdb_tf_parse_dec(colon + 1, &last));
      if (ok)
        append_slice(out, v, 1, to_int32(first), to_int32(last), FALSE);
      g_free(spec);
    }
  pdb_tf_free_values(v);
}

static void
eval_list_count(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  GPtrArray *v = pdb_tf_expand_args(call, env);

  g_string_append_printf(out, "%" G_GINT64_FORMAT, list_count(v, 0));
  pdb_tf_free_values(v);
}

/* ---- list-search ---- */

enum { SEARCH_LITERAL, SEARCH_PREFIX, SEARCH_SUBSTRING, SEARCH_GLOB, SEARCH_PCRE };
static const gchar *const search_modes[] = { "literal", "prefix", "substring", "glob", "pcre", NULL };

void
pdb_tf_free_regex(gpointer regex)
{
  if (regex)
    pcre2_code_free(regex);
}

static gboolean
prepare_list_search(PdbTemplateCall *call, const gchar *name, const gchar *const *words, GError **error)
{
  gchar *mode = NULL;
  gint start_index = 0;
  GOptionEntry entries[] =
  {
    { "mode", 0, 0, G_OPTION_ARG_STRING, &mode, NULL, NULL },
    { "start-index", 0, 0, G_OPTION_ARG_INT, &start_index, NULL, NULL },
    { NULL }
  };
  gchar **rest = pdb_tf_parse_options(name, words, entries, error);
  gboolean ok = FALSE;

  if (!rest)
    goto done;
  call->mode = SEARCH_LITERAL;
  if (mode && !g_strv_contains(search_modes, mode))
    {
      pdb_tf_set_error(error, "$(list-search) Invalid list-search mode: %s. Valid modes are: "
                       "literal, prefix, substring, glob, pcre", mode);
      goto done;
    }
  for (gint m = 0; mode && search_modes[m]; m++)
    if (strcmp(mode, search_modes[m]) == 0)
      call->mode = m;
  if (!rest[0])
    {
      pdb_tf_set_error(error, "$(list-search) Pattern is missing. Usage: $(list-search [options] <pattern> ${list})");
      goto done;
    }
  if (!rest[1])
    {
      pdb_tf_set_error(error, "$(list-search) List is missing. Usage: $(list-search [options] <pattern> ${list}");
      goto done;
    }
  call->number = start_index;
  call->text = g_string_new(rest[0]);
  if (call->mode == SEARCH_PCRE)
    {
      gint code;
      PCRE2_SIZE offset;
      call->regex = pcre2_compile((PCRE2_SPTR) rest[0], PCRE2_ZERO_TERMINATED, 0, &code, &offset, NULL);
      if (!call->regex)
        {
          pdb_tf_set_error(error, "$(list-search) Failed to prepare pattern: %s", rest[0]);
          goto done;
        }
    }
  /* as 3.38: every argument compiles (the pattern too, though it is used
   * as written); the lists are all the arguments after the pattern */
  ok = pdb_tf_compile_words(call, name, (const gchar *const *) rest, -1, error);
done:
  g_strfreev(rest);
  g_free(mode);
  return ok;
}

typedef struct
{
  const PdbTemplateCall *call;
  gint64 skip;
  gint64 index;
  gboolean found;
  pcre2_match_data *match;
} Search;

static gboolean
element_matches(const PdbTemplateCall *call, const gchar *element, gsize length, pcre2_match_data *match)
{
  const GString *pattern = call->text;

  switch (call->mode)
    {
    case SEARCH_PREFIX:
      return length >= pattern->len && memcmp(element, pattern->str, pattern->len) == 0;
    case SEARCH_SUBSTRING:
      return strstr(element, pattern->str) != NULL;
    case SEARCH_GLOB:
      return g_pattern_match_simple(pattern->str, element);
    case SEARCH_PCRE:
      return pcre2_match(call->regex, (PCRE2_SPTR) element, length, 0, 0, match, NULL) >= 0;
    default:
      return strcmp(element, pattern->str) == 0;
    }
}

static gboolean
search_element(const gchar *element, gsize length, gpointer user_data)
{
  Search *s = user_data;

  if (s->skip > 0)
    {
      s->skip--;
      return TRUE;
    }
  if (element_matches(s->call, element, length, s->match))
    {
      s->found = TRUE;
      return FALSE;
    }
  s->index++;
  return TRUE;
}

static void
eval_list_search(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  GPtrArray *v = pdb_tf_expand_args(call, env);
  Search s = { call, call->number, call->number, FALSE, NULL };

  if (call->regex)
    s.match = pcre2_match_data_create_from_pattern(call->regex, NULL);
  pdb_tf_list_scan(v, 1, search_element, &s);
  if (s.found)
    g_string_append_printf(out, "%" G_GINT64_FORMAT, s.index);
  if (s.match)
    pcre2_match_data_free(s.match);
  pdb_tf_free_values(v);
}

/* ---- explode, implode ---- */

static void
eval_explode(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  GPtrArray *v = pdb_tf_expand_args(call, env);
  gsize start = out->len;

  if (v->len >= 1)
    {
      const gchar *separator = ((GString *) g_ptr_array_index(v, 0))->str;

      for (guint i = 1; i < v->len; i++)
        {
          const gchar *text = ((GString *) g_ptr_array_index(v, i))->str;
          /* 3.38 crashes on an empty separator; here the text is one element */
          gchar **parts = separator[0] ? g_strsplit(text, separator, -1) : g_strsplit(text, "\x01\x02", 1);

          for (gchar **p = parts; *p; p++)
            {
              pdb_tf_list_separate(out, start);
              pdb_list_append_element(out, *p, strlen(*p));
            }
          g_strfreev(parts);
        }
    }
  pdb_tf_free_values(v);
}

static void
eval_implode(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  GPtrArray *v = pdb_tf_expand_args(call, env);

  if (v->len >= 1)
    {
      Collect c = { out, out->len, 0, 0, G_MAXINT64, FALSE, ((GString *) g_ptr_array_index(v, 0))->str };
      pdb_tf_list_scan(v, 1, collect_slice, &c);
    }
  pdb_tf_free_values(v);
}

const PdbTfDef pdb_tf_list_functions[] =
{
  { "list-concat", NULL, eval_list_concat, FALSE },
  { "list-append", NULL, eval_list_append, FALSE },
  { "list-head", NULL, eval_list_head, FALSE },
  { "list-nth", NULL, eval_list_nth, FALSE },
  { "list-tail", NULL, eval_list_tail, FALSE },
  { "list-slice", NULL, eval_list_slice, FALSE },
  { "list-count", NULL, eval_list_count, FALSE },
  { "list-search", prepare_list_search, eval_list_search, FALSE },
  { "explode", NULL, eval_explode, FALSE },
  { "implode", NULL, eval_implode, FALSE },
  { NULL, NULL, NULL, FALSE },
};

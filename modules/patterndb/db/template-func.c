/*
 * template-func.c: the template functions of syslog-ng 3.38 that pattern
 * databases use, with the results pdbtool 3.38 gives (checked one by one:
 * tests/differential/db/template-func.xml and tests/unit/test-db-template.c).
 *
 *   $(context-length)         messages in the correlation context (1 outside one)
 *   $(echo A...)              the arguments, joined by one blank
 *   $(lowercase A...)         joined, then lower case (UTF-8: "ÄB" -> "äb")
 *   $(uppercase A...)         joined, then upper case (UTF-8: "straße" -> "STRASSE")
 *   $(length A...)            the byte length of each argument, joined by blanks
 *   $(substr S START [LEN])   bytes of S from START (negative: from the end) for
 *                             LEN bytes (negative: up to LEN bytes before the end);
 *                             START/LEN must be whole numbers, else empty
 *   $(strip A...)             each argument without leading/trailing white space;
 *                             those left empty are dropped; joined by blanks
 *   $(sanitize [opts] A...)   each argument with control characters (< 0x20) and
 *                             `/` replaced by `_`, joined by `/`; options
 *                             --ctrl-chars/-c, --no-ctrl-chars/-C,
 *                             --invalid-chars/-i CHARS, --replacement/-r CHAR
 *   $(replace-delimiter OLD NEW S)  every byte of S that is in OLD becomes NEW's
 *                             first byte
 *   $(if (COND) THEN ELSE)    THEN when COND holds, else ELSE; COND is a
 *                             filter expression (db/filter-expr.h) over the
 *                             values the template reads
 * A call with the wrong number of arguments gives an empty result, as in 3.38
 * (which logs an error per message). Where 3.38 would write a NUL byte (an
 * empty replacement), the result ends there, as 3.38's output does.
 *
 * Invariant: a compiled call is immutable. Evaluation appends the arguments
 * to the output buffer itself and rewrites that tail in place, so it
 * allocates nothing beyond growing the buffer (except case mapping of
 * non-ASCII text, which uses glib's UTF-8 functions).
 */
#include "db/template-func.h"
#include "db/database.h"
#include "db/filter-expr.h"

#include <stdlib.h>
#include <string.h>

typedef enum
{
  FUNC_CONTEXT_LENGTH,
  FUNC_ECHO,
  FUNC_LOWERCASE,
  FUNC_UPPERCASE,
  FUNC_LENGTH,
  FUNC_SUBSTR,
  FUNC_STRIP,
  FUNC_SANITIZE,
  FUNC_REPLACE_DELIMITER,
  FUNC_IF,
} FuncId;

static const struct
{
  const gchar *name;
  FuncId id;
} functions[] =
{
  { "context-length", FUNC_CONTEXT_LENGTH },
  { "echo", FUNC_ECHO },
  { "lowercase", FUNC_LOWERCASE },
  { "uppercase", FUNC_UPPERCASE },
  { "length", FUNC_LENGTH },
  { "substr", FUNC_SUBSTR },
  { "strip", FUNC_STRIP },
  { "sanitize", FUNC_SANITIZE },
  { "replace-delimiter", FUNC_REPLACE_DELIMITER },
  { "if", FUNC_IF },
};

struct _PdbTemplateCall
{
  FuncId id;
  GPtrArray *args;        /* of PdbTemplate* ($(if): THEN and ELSE) */
  PdbFilterExpr *cond;    /* $(if) */
  /* sanitize */
  gboolean ctrl_chars;
  gchar *invalid_chars;
  gchar replacement;
};

void
pdb_template_call_free(PdbTemplateCall *call)
{
  if (!call)
    return;
  if (call->args)
    g_ptr_array_free(call->args, TRUE);
  g_free(call->invalid_chars);
  pdb_filter_expr_free(call->cond);
  g_free(call);
}

/* sanitize's options (taken anywhere before `--`, as GOption does); the
 * other words are added to @args (borrowed). */
static gboolean
parse_sanitize_options(PdbTemplateCall *call, const gchar *const *words, GPtrArray *args, GError **error)
{
  gboolean options_done = FALSE;

  for (guint i = 0; words[i]; i++)
    {
      const gchar *w = words[i];
      const gchar *value = NULL;
      gboolean takes_value = FALSE;
      gchar which;

      if (options_done || w[0] != '-' || w[1] == '\0')
        {
          g_ptr_array_add(args, (gpointer) w);
          continue;
        }
      if (strcmp(w, "--") == 0)
        {
          options_done = TRUE;
          continue;
        }
      if (strcmp(w, "--ctrl-chars") == 0 || strcmp(w, "-c") == 0)
        which = 'c';
      else if (strcmp(w, "--no-ctrl-chars") == 0 || strcmp(w, "-C") == 0)
        which = 'C';
      else if (strcmp(w, "--invalid-chars") == 0 || strcmp(w, "-i") == 0)
        which = 'i', takes_value = TRUE;
      else if (g_str_has_prefix(w, "--invalid-chars="))
        which = 'i', value = w + strlen("--invalid-chars=");
      else if (strcmp(w, "--replacement") == 0 || strcmp(w, "-r") == 0)
        which = 'r', takes_value = TRUE;
      else if (g_str_has_prefix(w, "--replacement="))
        which = 'r', value = w + strlen("--replacement=");
      else
        {
          g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_TEMPLATE,
                      "$(sanitize): unknown option '%s'; write --ctrl-chars, --no-ctrl-chars, "
                      "--invalid-chars CHARS or --replacement CHAR", w);
          return FALSE;
        }
      if (takes_value)
        {
          if (!words[i + 1])
            {
              g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_TEMPLATE,
                          "$(sanitize): option '%s' needs a value", w);
              return FALSE;
            }
          value = words[++i];
        }
      switch (which)
        {
        case 'c':
          call->ctrl_chars = TRUE;
          break;
        case 'C':
          call->ctrl_chars = FALSE;
          break;
        case 'i':
          g_free(call->invalid_chars);
          call->invalid_chars = g_strdup(value);
          break;
        default:
          call->replacement = value[0];
          break;
        }
    }
  return TRUE;
}

PdbTemplateCall *
pdb_template_call_new(const gchar *name, const gchar *const *words, GError **error)
{
  PdbTemplateCall *call;
  gsize i;

  for (i = 0; i < G_N_ELEMENTS(functions); i++)
    if (strcmp(functions[i].name, name) == 0)
      break;
  if (i == G_N_ELEMENTS(functions))
    {
      g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_TEMPLATE,
                  "unknown template function '%s'; supported: " PDB_TEMPLATE_FUNCTION_NAMES, name);
      return NULL;
    }

  call = g_new0(PdbTemplateCall, 1);
  call->id = functions[i].id;
  call->args = g_ptr_array_new_with_free_func((GDestroyNotify) pdb_template_free);
  call->ctrl_chars = TRUE;
  call->invalid_chars = g_strdup("/");
  call->replacement = '_';

  GPtrArray *words_left = g_ptr_array_new();
  if (call->id == FUNC_CONTEXT_LENGTH)
    {
      /* 3.38 ignores its arguments without compiling them:
       * `$(context-length $(nosuch))` loads and is 1 */
    }
  else if (call->id == FUNC_SANITIZE)
    {
      if (!parse_sanitize_options(call, words, words_left, error))
        goto fail;
    }
  else if (call->id == FUNC_IF)
    {
      if (!words[0] || !words[1] || !words[2] || words[3])
        {
          g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_TEMPLATE,
                      "$(if) requires three arguments: (condition) then else");
          goto fail;
        }
      GError *cond_error = NULL;
      call->cond = pdb_filter_expr_compile(words[0], &cond_error);
      if (!call->cond)
        {
          g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_TEMPLATE, "$(if): %s", cond_error->message);
          g_error_free(cond_error);
          goto fail;
        }
      g_ptr_array_add(words_left, (gpointer) words[1]);
      g_ptr_array_add(words_left, (gpointer) words[2]);
    }
  else
    for (guint w = 0; words[w]; w++)
      g_ptr_array_add(words_left, (gpointer) words[w]);

  for (guint w = 0; w < words_left->len; w++)
    {
      const gchar *word = g_ptr_array_index(words_left, w);
      GError *arg_error = NULL;
      PdbTemplate *arg = pdb_template_compile(word, FALSE, &arg_error);

      if (!arg)
        {
          g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_TEMPLATE,
                      "argument '%s' of $(%s): %s", word, name, arg_error->message);
          g_error_free(arg_error);
          goto fail;
        }
      g_ptr_array_add(call->args, arg);
    }
  g_ptr_array_free(words_left, TRUE);
  return call;

fail:
  g_ptr_array_free(words_left, TRUE);
  pdb_template_call_free(call);
  return NULL;
}

guint
pdb_template_call_get_max_context_index(const PdbTemplateCall *call)
{
  guint max = 0;
  gboolean reads_context = FALSE;

  for (guint i = 0; i < call->args->len; i++)
    max = MAX(max, pdb_template_get_max_context_index(g_ptr_array_index(call->args, i)));
  pdb_filter_expr_scan(call->cond, &reads_context, &max);
  return max;
}

gboolean
pdb_template_call_reads_context(const PdbTemplateCall *call)
{
  gboolean reads_context = call->id == FUNC_CONTEXT_LENGTH;
  guint max = 0;

  pdb_filter_expr_scan(call->cond, &reads_context, &max);
  if (reads_context)
    return TRUE;
  for (guint i = 0; i < call->args->len; i++)
    if (pdb_template_reads_context(g_ptr_array_index(call->args, i)))
      return TRUE;
  return FALSE;
}

/* ---- evaluation: everything happens at the tail of @out ---- */

static void
append_arg(const PdbTemplateCall *call, guint i, PdbTemplateLookupFunc lookup,
           gpointer user_data, GString *out)
{
  pdb_template_append(g_ptr_array_index(call->args, i), lookup, user_data, out);
}

static void
append_joined(const PdbTemplateCall *call, const gchar *separator, PdbTemplateLookupFunc lookup,
              gpointer user_data, GString *out)
{
  for (guint i = 0; i < call->args->len; i++)
    {
      if (i > 0)
        g_string_append(out, separator);
      append_arg(call, i, lookup, user_data, out);
    }
}

static void
append_unsigned(GString *out, guint64 n)
{
  gchar digits[24];
  gint pos = sizeof(digits);

  do
    {
      digits[--pos] = (gchar) ('0' + n % 10);
      n /= 10;
    }
  while (n);
  g_string_append_len(out, digits + pos, sizeof(digits) - pos);
}

/* Moves out->str[from, out->len) to @to and cuts the buffer there. */
static void
move_tail(GString *out, gsize to, gsize from)
{
  gsize n = out->len - from;

  memmove(out->str + to, out->str + from, n);
  g_string_truncate(out, to + n);
}

static void
change_case(GString *out, gsize start, gboolean upper)
{
  gboolean ascii = TRUE;

  for (gsize i = start; i < out->len && ascii; i++)
    ascii = !(out->str[i] & 0x80);
  if (ascii)
    {
      for (gsize i = start; i < out->len; i++)
        out->str[i] = upper ? g_ascii_toupper(out->str[i]) : g_ascii_tolower(out->str[i]);
      return;
    }
  gchar *mapped = upper ? g_utf8_strup(out->str + start, out->len - start)
                        : g_utf8_strdown(out->str + start, out->len - start);
  g_string_truncate(out, start);
  g_string_append(out, mapped);
  g_free(mapped);
}

/* A whole number as 3.38's substr() accepts it: leading blanks and a sign,
 * digits, nothing after them. */
static gboolean
parse_whole(const gchar *text, glong *value)
{
  gchar *end;

  if (!*text)
    return FALSE;
  *value = strtol(text, &end, 10);
  return end != text && *end == '\0';
}

static void
eval_substr(const PdbTemplateCall *call, PdbTemplateLookupFunc lookup, gpointer user_data,
            GString *out, gsize base)
{
  glong start, length = 0;
  gsize text_end, number;
  gboolean has_length = call->args->len == 3;

  if (call->args->len != 2 && call->args->len != 3)
    return;
  append_arg(call, 0, lookup, user_data, out);
  text_end = out->len;

  number = out->len;
  append_arg(call, 1, lookup, user_data, out);
  gboolean ok = parse_whole(out->str + number, &start);
  g_string_truncate(out, number);
  if (ok && has_length)
    {
      append_arg(call, 2, lookup, user_data, out);
      ok = parse_whole(out->str + number, &length);
      g_string_truncate(out, number);
    }

  glong text_length = (glong) (text_end - base);
  if (ok && start < 0)
    start += text_length;
  if (!ok || start < 0 || start >= text_length)
    {
      g_string_truncate(out, base);
      return;
    }
  glong end = text_length;
  if (has_length)
    end = length < 0 ? text_length + length : MIN(text_length, start + length);
  if (end <= start)
    {
      g_string_truncate(out, base);
      return;
    }
  g_string_truncate(out, base + end);
  move_tail(out, base, base + start);
}

static gboolean
is_space(gchar c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static void
eval_strip(const PdbTemplateCall *call, PdbTemplateLookupFunc lookup, gpointer user_data,
           GString *out, gsize base)
{
  for (guint i = 0; i < call->args->len; i++)
    {
      gsize mark = out->len;

      if (out->len > base)
        g_string_append_c(out, ' ');
      gsize start = out->len;
      append_arg(call, i, lookup, user_data, out);
      gsize a = start, b = out->len;
      while (a < b && is_space(out->str[a]))
        a++;
      while (b > a && is_space(out->str[b - 1]))
        b--;
      if (a == b)
        {
          g_string_truncate(out, mark);
          continue;
        }
      g_string_truncate(out, b);
      move_tail(out, start, a);
    }
}

/* Replaces in out->str[start, out->len) each byte @pick selects by @with; an
 * empty replacement ends the text at the first such byte (3.38 writes a NUL). */
static void
replace_bytes(GString *out, gsize start, gboolean ctrl_chars, const gchar *set, gsize set_length,
              gchar with)
{
  for (gsize i = start; i < out->len; i++)
    {
      guchar c = (guchar) out->str[i];

      if ((ctrl_chars && c < 0x20) || (set_length && memchr(set, c, set_length)))
        {
          if (!with)
            {
              g_string_truncate(out, i);
              return;
            }
          out->str[i] = with;
        }
    }
}

static void
eval_sanitize(const PdbTemplateCall *call, PdbTemplateLookupFunc lookup, gpointer user_data,
              GString *out, gsize base)
{
  gsize set_length = strlen(call->invalid_chars);

  for (guint i = 0; i < call->args->len; i++)
    {
      if (i > 0)
        g_string_append_c(out, '/');
      gsize start = out->len;
      append_arg(call, i, lookup, user_data, out);
      gsize end = out->len;
      replace_bytes(out, start, call->ctrl_chars, call->invalid_chars, set_length, call->replacement);
      if (out->len < end)
        return;
    }
  (void) base;
}

static void
eval_replace_delimiter(const PdbTemplateCall *call, PdbTemplateLookupFunc lookup, gpointer user_data,
                       GString *out, gsize base)
{
  if (call->args->len != 3)
    return;
  append_arg(call, 0, lookup, user_data, out);
  gsize new_at = out->len;
  append_arg(call, 1, lookup, user_data, out);
  gsize text_at = out->len;
  append_arg(call, 2, lookup, user_data, out);

  /* the delimiter set is out->str[base, new_at); the text is moved over it
   * only after the replacement, so the set stays readable meanwhile */
  gchar with = new_at < text_at ? out->str[new_at] : '\0';
  gsize set_length = new_at - base;

  for (gsize i = text_at; i < out->len; i++)
    if (set_length && memchr(out->str + base, out->str[i], set_length))
      {
        if (!with)
          {
            g_string_truncate(out, i);
            break;
          }
        out->str[i] = with;
      }
  move_tail(out, base, text_at);
}

void
pdb_template_call_append(const PdbTemplateCall *call, PdbTemplateLookupFunc lookup,
                         gpointer user_data, GString *out)
{
  gsize base = out->len;

  switch (call->id)
    {
    case FUNC_CONTEXT_LENGTH:
      {
        gssize length = -1;
        const gchar *value = lookup ? lookup("", PDB_TEMPLATE_CONTEXT_LENGTH_INDEX, &length, user_data) : NULL;

        if (!value)
          g_string_append_c(out, '1');
        else
          g_string_append_len(out, value, length < 0 ? (gssize) strlen(value) : length);
        return;
      }
    case FUNC_ECHO:
      append_joined(call, " ", lookup, user_data, out);
      return;
    case FUNC_LOWERCASE:
    case FUNC_UPPERCASE:
      append_joined(call, " ", lookup, user_data, out);
      change_case(out, base, call->id == FUNC_UPPERCASE);
      return;
    case FUNC_LENGTH:
      for (guint i = 0; i < call->args->len; i++)
        {
          if (i > 0)
            g_string_append_c(out, ' ');
          gsize start = out->len;
          append_arg(call, i, lookup, user_data, out);
          gsize n = out->len - start;
          g_string_truncate(out, start);
          append_unsigned(out, n);
        }
      return;
    case FUNC_SUBSTR:
      eval_substr(call, lookup, user_data, out, base);
      return;
    case FUNC_STRIP:
      eval_strip(call, lookup, user_data, out, base);
      return;
    case FUNC_SANITIZE:
      eval_sanitize(call, lookup, user_data, out, base);
      return;
    case FUNC_REPLACE_DELIMITER:
      eval_replace_delimiter(call, lookup, user_data, out, base);
      return;
    case FUNC_IF:
      {
        PdbFilterSubject subject = { lookup, NULL, user_data };

        append_arg(call, pdb_filter_expr_eval(call->cond, &subject) ? 0 : 1, lookup, user_data, out);
        return;
      }
    }
}

/*
 * template-func-string.c: the text functions of the 3.38 basic set, with the
 * results pdbtool 3.38 gives (tests/differential/test-template-funcs.sh asks it
 * for each):
 *
 *   $(echo A...)              the arguments, joined by one blank
 *   $(lowercase A...)         each argument in lower case (UTF-8), joined by blanks
 *   $(uppercase A...)         each argument in upper case (UTF-8), joined by blanks
 *   $(length A...)            the byte length of each argument, joined by blanks
 *   $(substr S START [LEN])   bytes of S from START (negative: from the end) for
 *                             LEN bytes (negative: up to LEN bytes before the end);
 *                             START/LEN are whole decimal numbers, else empty;
 *                             64-bit arithmetic wraps as in 3.38
 *                             (`$(substr abcdef -9223372036854775808)` is abcdef)
 *   $(strip A...)             each argument without leading/trailing white space;
 *                             those left empty are dropped; joined by blanks
 *   $(sanitize [opts] A...)   each argument with control characters (< 0x20) and
 *                             `/` replaced by `_`, joined by `/`; options
 *                             --ctrl-chars/-c, --no-ctrl-chars/-C,
 *                             --invalid-chars/-i CHARS, --replacement/-r CHAR
 *   $(replace-delimiter OLD NEW S)  every byte of S that is in OLD becomes NEW's
 *                             first byte
 *   $(padding S WIDTH [PAD])  S after WIDTH - len(S) bytes of PAD repeated (blanks
 *                             by default); WIDTH is a literal decimal number
 *   $(binary N...)            the bytes N (literal numbers: decimal, 0x hex, 0 octal,
 *                             at most 255)
 *   $(indent-multi-line A...) joined by blanks, a tab after each newline not
 *                             followed by one
 *   $(base64-encode A...)     the concatenation, base64 encoded
 *   $(url-encode A...)        each argument percent-encoded (all but A-Za-z0-9-_.~),
 *                             concatenated
 *   $(url-decode A...)        each argument percent-decoded (an invalid one gives
 *                             nothing), concatenated
 *   $(basename P) $(dirname P)  as glib's g_path_get_basename/dirname of the first
 *                             argument
 *   $(env NAME...)            the environment variables that are set, joined by blanks
 * A call with the wrong number of arguments gives an empty result, as in 3.38
 * (which logs an error per message). Where 3.38 would write a NUL byte, the
 * result ends there, as 3.38's output does.
 */
#include "db/template-func-private.h"

#include <stdlib.h>
#include <string.h>

static void
append_joined(const PdbTemplateCall *call, const gchar *separator, const PdbTfEnv *env, GString *out)
{
  for (guint i = 0; i < call->args->len; i++)
    {
      if (i > 0)
        g_string_append(out, separator);
      pdb_tf_append_arg(call, i, env, out);
    }
}

/* Cuts @out at the first NUL at or after @start. */
static void
end_at_nul(GString *out, gsize start)
{
  const gchar *nul = memchr(out->str + start, '\0', out->len - start);

  if (nul)
    g_string_truncate(out, nul - out->str);
}

static void
eval_echo(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  append_joined(call, " ", env, out);
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

static void
eval_lowercase(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  gsize start = out->len;

  append_joined(call, " ", env, out);
  change_case(out, start, FALSE);
}

static void
eval_uppercase(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  gsize start = out->len;

  append_joined(call, " ", env, out);
  change_case(out, start, TRUE);
}

/* Appends each argument, @separator between two, and calls @each with the
 * offset where the argument starts; stops after an @each that returns FALSE. */
typedef gboolean (*PdbTfArgEdit)(const PdbTemplateCall *call, GString *out, gsize start);

static void
append_each_arg(const PdbTemplateCall *call, gchar separator, const PdbTfEnv *env, GString *out,
                PdbTfArgEdit each)
{
  for (guint i = 0; i < call->args->len; i++)
    {
      if (i > 0)
        g_string_append_c(out, separator);
      gsize start = out->len;
      pdb_tf_append_arg(call, i, env, out);
      if (!each(call, out, start))
        return;
    }
}

static gboolean
replace_by_length(const PdbTemplateCall *call, GString *out, gsize start)
{
  gsize n = out->len - start;

  g_string_truncate(out, start);
  g_string_append_printf(out, "%" G_GSIZE_FORMAT, n);
  return TRUE;
}

static void
eval_length(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  append_each_arg(call, ' ', env, out, replace_by_length);
}

/* 64-bit arithmetic that wraps, as 3.38's does on the machines it runs on. */
static gint64
wrap_neg(gint64 a)
{
  return (gint64) (0 - (guint64) a);
}

static gint64
wrap_add(gint64 a, gint64 b)
{
  return (gint64) ((guint64) a + (guint64) b);
}

/* The part of a text of @total bytes that $(substr) takes; FALSE for none. */
static gboolean
substr_range(gint64 total, gint64 start, gint64 len, gint64 *from, gint64 *count)
{
  if (len < 0 && wrap_neg(len) > total)
    return FALSE;
  if (len > total)
    len = total;
  if (start >= total || (start < 0 && wrap_neg(start) > total))
    return FALSE;
  if (len < 0 && ((start < 0 && start > len) || (start >= 0 && wrap_add(wrap_add(len, total), wrap_neg(start)) < 0)))
    return FALSE;
  if (start < 0)
    {
      start = wrap_add(start, total);
      if (start < 0)
        start = 0;
    }
  if (len < 0)
    {
      len = wrap_add(wrap_add(total, wrap_neg(start)), len);
      if (len < 0)
        return FALSE;
    }
  if (start >= total)
    return FALSE;
  if (wrap_add(start, len) > total)
    len = total - start;
  *from = start;
  *count = len;
  return len > 0;
}

static void
eval_substr(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  if (call->args->len != 2 && call->args->len != 3)
    return;

  GPtrArray *v = pdb_tf_expand_args(call, env);
  GString *text = g_ptr_array_index(v, 0);
  gint64 start, len = (gint64) text->len, from, count;

  if (pdb_tf_parse_dec(((GString *) g_ptr_array_index(v, 1))->str, &start)
      && (v->len < 3 || pdb_tf_parse_dec(((GString *) g_ptr_array_index(v, 2))->str, &len))
      && substr_range((gint64) text->len, start, len, &from, &count))
    g_string_append_len(out, text->str + from, count);
  pdb_tf_free_values(v);
}

static gboolean
is_space(gchar c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static void
eval_strip(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  gsize base = out->len;

  for (guint i = 0; i < call->args->len; i++)
    {
      gsize mark = out->len;

      if (out->len > base)
        g_string_append_c(out, ' ');
      gsize start = out->len;
      pdb_tf_append_arg(call, i, env, out);
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
      memmove(out->str + start, out->str + a, b - a);
      g_string_truncate(out, start + (b - a));
    }
}

/* Replaces in out->str[start, out->len) each byte in @set (or a control
 * character with @ctrl_chars) by @with; an empty replacement ends the text
 * at the first such byte (3.38 writes a NUL). */
static gboolean
replace_bytes(GString *out, gsize start, gboolean ctrl_chars, const gchar *set, gsize set_length, gchar with)
{
  for (gsize i = start; i < out->len; i++)
    {
      guchar c = (guchar) out->str[i];

      if ((ctrl_chars && c < 0x20) || (set_length && memchr(set, c, set_length)))
        {
          if (!with)
            {
              g_string_truncate(out, i);
              return FALSE;
            }
          out->str[i] = with;
        }
    }
  return TRUE;
}

static gboolean
prepare_sanitize(PdbTemplateCall *call, const gchar *name, const gchar *const *words, GError **error)
{
  gboolean ctrl_chars = TRUE;
  gchar *invalid_chars = NULL, *replacement = NULL;
  GOptionEntry entries[] =
  {
    { "ctrl-chars", 'c', 0, G_OPTION_ARG_NONE, &ctrl_chars, NULL, NULL },
    { "no-ctrl-chars", 'C', G_OPTION_FLAG_REVERSE, G_OPTION_ARG_NONE, &ctrl_chars, NULL, NULL },
    { "invalid-chars", 'i', 0, G_OPTION_ARG_STRING, &invalid_chars, NULL, NULL },
    { "replacement", 'r', 0, G_OPTION_ARG_STRING, &replacement, NULL, NULL },
    { NULL }
  };
  gchar **rest = pdb_tf_parse_options(name, words, entries, error);
  gboolean ok = rest != NULL;

  if (ok)
    {
      call->ctrl_chars = ctrl_chars;
      call->text = g_string_new(invalid_chars ? invalid_chars : "/");
      call->replacement = replacement ? replacement[0] : '_';
      ok = pdb_tf_compile_words(call, name, (const gchar *const *) rest, -1, error);
    }
  g_strfreev(rest);
  g_free(invalid_chars);
  g_free(replacement);
  return ok;
}

static gboolean
sanitize_arg(const PdbTemplateCall *call, GString *out, gsize start)
{
  return replace_bytes(out, start, call->ctrl_chars, call->text->str, call->text->len, call->replacement);
}

static void
eval_sanitize(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  append_each_arg(call, '/', env, out, sanitize_arg);
}

static void
eval_replace_delimiter(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  if (call->args->len != 3)
    return;

  GPtrArray *v = pdb_tf_expand_args(call, env);
  GString *set = g_ptr_array_index(v, 0), *with = g_ptr_array_index(v, 1), *text = g_ptr_array_index(v, 2);
  gsize start = out->len;

  /* 3.38 works on NUL-terminated copies: each stops at its first NUL */
  g_string_append(out, text->str);
  replace_bytes(out, start, FALSE, set->str, strlen(set->str), with->str[0]);
  pdb_tf_free_values(v);
}

static gboolean
prepare_padding(PdbTemplateCall *call, const gchar *name, const gchar *const *words, GError **error)
{
  if (!words[0] || !words[1])
    {
      pdb_tf_set_error(error, "$(padding) Not enough arguments, usage $(padding <input> <width> [padding string])");
      return FALSE;
    }
  if (!pdb_tf_parse_dec(words[1], &call->number))
    {
      pdb_tf_set_error(error, "Padding template function requires a number as second argument!");
      return FALSE;
    }
  call->text = g_string_new(words[2] && words[2][0] ? words[2] : " ");
  return pdb_tf_compile_words(call, name, words, 1, error);
}

static void
eval_padding(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  GString *text = g_string_new(NULL);

  pdb_tf_append_arg(call, 0, env, text);
  /* a width beyond int or below 0 crashes or misbehaves in 3.38: the text alone */
  if (call->number >= 0 && call->number <= G_MAXINT && text->len < (guint64) call->number)
    {
      gsize pad = (gsize) call->number - text->len;

      for (gsize i = 0; i < pad; i++)
        g_string_append_c(out, call->text->str[i % call->text->len]);
    }
  g_string_append_len(out, text->str, text->len);
  g_string_free(text, TRUE);
}

static gboolean
prepare_binary(PdbTemplateCall *call, const gchar *name, const gchar *const *words, GError **error)
{
  if (!words[0])
    {
      pdb_tf_set_error(error, "$(binary) Incorrect parameters, usage $(binary <number> <number> ...)");
      return FALSE;
    }
  call->text = g_string_new(NULL);
  for (guint i = 0; words[i]; i++)
    {
      gchar *end;
      gint64 n = g_ascii_strtoll(words[i], &end, 0);

      if (end == words[i] || *end)
        {
          const gchar *base = words[i][0] == '0' ? (words[i][1] == 'x' ? "hex" : "oct") : "dec";
          pdb_tf_set_error(error, "$(binary) template function requires list of dec/hex/oct numbers as "
                           "arguments, unable to parse %s as a %s number", words[i], base);
          return FALSE;
        }
      if (n > 0xFF)
        {
          pdb_tf_set_error(error, "$(binary) template function only supports 8 bit values as characters, "
                           "%" G_GINT64_FORMAT " is above 255", n);
          return FALSE;
        }
      g_string_append_c(call->text, (gchar) n);
    }
  (void) name;
  return TRUE;
}

static void
eval_binary(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  gsize start = out->len;

  (void) env;
  g_string_append_len(out, call->text->str, call->text->len);
  end_at_nul(out, start);
}

static void
eval_indent_multi_line(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  gsize start = out->len;

  append_joined(call, " ", env, out);
  for (gsize i = start; i < out->len; i++)
    if (out->str[i] == '\n' && (i + 1 >= out->len || out->str[i + 1] != '\t'))
      g_string_insert_c(out, i + 1, '\t');
}

static void
eval_base64_encode(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  GString *all = g_string_new(NULL);

  append_joined(call, "", env, all);
  gchar *encoded = g_base64_encode((const guchar *) all->str, all->len);
  g_string_append(out, encoded);
  g_free(encoded);
  g_string_free(all, TRUE);
}

static void
eval_url_encode(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  GPtrArray *v = pdb_tf_expand_args(call, env);

  for (guint i = 0; i < v->len; i++)
    {
      gchar *escaped = g_uri_escape_string(((GString *) g_ptr_array_index(v, i))->str, NULL, FALSE);
      g_string_append(out, escaped);
      g_free(escaped);
    }
  pdb_tf_free_values(v);
}

/* Appends @text percent-decoded as glib's g_uri_unescape_string() does
 * (which 3.38 uses): a `%` not followed by two hex digits, or one that
 * encodes NUL, makes the whole text invalid and nothing is appended. Done
 * here, not with glib: on invalid input glib translates an error message,
 * and its first gettext call can deadlock inside syslog-ng's worker threads. */
static void
append_url_decoded(GString *out, const gchar *text)
{
  gsize start = out->len;

  for (const gchar *p = text; *p; p++)
    {
      if (*p != '%')
        {
          g_string_append_c(out, *p);
          continue;
        }
      gint hi = g_ascii_xdigit_value(p[1]);
      gint lo = hi < 0 ? -1 : g_ascii_xdigit_value(p[2]);
      if (lo < 0 || (hi == 0 && lo == 0))
        {
          g_string_truncate(out, start);
          return;
        }
      g_string_append_c(out, (gchar) (hi * 16 + lo));
      p += 2;
    }
}

static void
eval_url_decode(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  GPtrArray *v = pdb_tf_expand_args(call, env);

  for (guint i = 0; i < v->len; i++)
    append_url_decoded(out, ((GString *) g_ptr_array_index(v, i))->str);
  pdb_tf_free_values(v);
}

static void
eval_path_part(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out, gboolean base)
{
  /* 3.38 crashes without an argument; here it is empty */
  if (call->args->len == 0)
    return;
  GString *path = g_string_new(NULL);
  pdb_tf_append_arg(call, 0, env, path);
  gchar *part = base ? g_path_get_basename(path->str) : g_path_get_dirname(path->str);
  g_string_append(out, part);
  g_free(part);
  g_string_free(path, TRUE);
}

static void
eval_basename(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  eval_path_part(call, env, out, TRUE);
}

static void
eval_dirname(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  eval_path_part(call, env, out, FALSE);
}

static void
eval_env(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  GPtrArray *v = pdb_tf_expand_args(call, env);
  gsize start = out->len;

  for (guint i = 0; i < v->len; i++)
    {
      const gchar *value = g_getenv(((GString *) g_ptr_array_index(v, i))->str);

      if (!value)
        continue;
      if (out->len > start)
        g_string_append_c(out, ' ');
      g_string_append(out, value);
    }
  pdb_tf_free_values(v);
}

const PdbTfDef pdb_tf_string_functions[] =
{
  { "echo", NULL, eval_echo, FALSE },
  { "lowercase", NULL, eval_lowercase, FALSE },
  { "uppercase", NULL, eval_uppercase, FALSE },
  { "length", NULL, eval_length, FALSE },
  { "substr", NULL, eval_substr, FALSE },
  { "strip", NULL, eval_strip, FALSE },
  { "sanitize", prepare_sanitize, eval_sanitize, FALSE },
  { "replace-delimiter", NULL, eval_replace_delimiter, FALSE },
  { "padding", prepare_padding, eval_padding, FALSE },
  { "binary", prepare_binary, eval_binary, FALSE },
  { "indent-multi-line", NULL, eval_indent_multi_line, FALSE },
  { "base64-encode", NULL, eval_base64_encode, FALSE },
  { "url-encode", NULL, eval_url_encode, FALSE },
  { "url-decode", NULL, eval_url_decode, FALSE },
  { "basename", NULL, eval_basename, FALSE },
  { "dirname", NULL, eval_dirname, FALSE },
  { "env", NULL, eval_env, FALSE },
  { NULL, NULL, NULL, FALSE },
};

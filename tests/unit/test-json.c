/*
 * test-json.c: the JSON writer always produces valid JSON, and the flat
 * object reader takes well-formed objects and refuses everything else
 * without reading past the buffer.
 */
#include <criterion/criterion.h>
#include <string.h>
#include "tool/json.h"

typedef struct { const char *input; gssize len; const char *expected; } EscapeRow;

Test(json, escapes_strings)
{
  static const EscapeRow rows[] =
  {
    { "plain", -1, "\"plain\"" },
    { "q\"b\\", -1, "\"q\\\"b\\\\\"" },
    { "a\nb\tc\r", -1, "\"a\\nb\\tc\\r\"" },
    { "nul\0x", 5, "\"nul\\u0000x\"" },
    { "\x01\x1f", -1, "\"\\u0001\\u001f\"" },
    { "caf\xc3\xa9", -1, "\"caf\xc3\xa9\"" },
    { "bad\xff" "end", -1, "\"bad\xef\xbf\xbd" "end\"" },
    { "cut\xc3", -1, "\"cut\xef\xbf\xbd\"" },
    { "\xf0\x9f\x98\x80", -1, "\"\xf0\x9f\x98\x80\"" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS(rows); i++)
    {
      GString *out = g_string_new(NULL);
      pdb_json_append_string(out, rows[i].input, rows[i].len);
      cr_expect_str_eq(out->str, rows[i].expected, "row %zu: escaped %s", i, out->str);
      cr_expect(g_utf8_validate(out->str, out->len, NULL), "row %zu: output is valid UTF-8", i);
      g_string_free(out, TRUE);
    }
}

static void
collect(const gchar *name, const gchar *value, gsize len, gpointer user_data)
{
  GString *s = user_data;
  g_string_append_printf(s, "%s=", name);
  g_string_append_len(s, value, len);
  g_string_append_c(s, ';');
}

typedef struct { const char *input; gboolean ok; const char *members; } ParseRow;

Test(json, parses_flat_objects)
{
  static const ParseRow rows[] =
  {
    { "{}", TRUE, "" },
    { " { \"a\" : \"b\" } ", TRUE, "a=b;" },
    { "{\"msg\":\" x\\ny\",\"n\":12,\"o\":{\"k\":[1,2,{\"z\":null}]},\"t\":true,\"p\":\"q\"}", TRUE, "msg= x\ny;p=q;" },
    { "{\"u\":\"\\u00e9\\ud83d\\ude00\\ud800\"}", TRUE, "u=\xc3\xa9\xf0\x9f\x98\x80\xef\xbf\xbd;" },
    { "{\"$!\":null,\"programname\":\"sshd\"}", TRUE, "programname=sshd;" },  /* null is skipped */
    { "", FALSE, NULL },
    { "[]", FALSE, NULL },
    { "{\"a\":\"b\"", FALSE, NULL },
    { "{\"a\" \"b\"}", FALSE, NULL },
    { "{\"a\":\"b\",}", FALSE, NULL },
    { "{\"a\":\"b\"} trailing", FALSE, NULL },
    { "{\"a\":\"\\x\"}", FALSE, NULL },
    { "{\"a\":\"ctl\x01\"}", FALSE, NULL },
    { "{\"a\":tru}", FALSE, NULL },
    { "{\"a\":\"\\u12\"}", FALSE, NULL },
  };
  for (gsize i = 0; i < G_N_ELEMENTS(rows); i++)
    {
      GString *got = g_string_new(NULL);
      gboolean ok = pdb_json_parse_object(rows[i].input, strlen(rows[i].input), collect, got);
      cr_expect_eq(ok, rows[i].ok, "row %zu (%s): parse result %d", i, rows[i].input, ok);
      if (rows[i].ok && ok)
        cr_expect_str_eq(got->str, rows[i].members, "row %zu: members %s", i, got->str);
      g_string_free(got, TRUE);
    }
}

Test(json, bounded_nesting_and_no_overread)
{
  GString *deep = g_string_new("{\"a\":");
  for (int i = 0; i < 10000; i++)
    g_string_append_c(deep, '[');
  g_string_append_c(deep, '}');
  GString *ignored = g_string_new(NULL);
  cr_expect_not(pdb_json_parse_object(deep->str, deep->len, collect, ignored), "deep nesting is refused");

  /* A string that would only end past the given length. */
  const char text[] = "{\"a\":\"abc\"}";
  cr_expect_not(pdb_json_parse_object(text, 8, collect, ignored), "truncated buffer is refused");
  g_string_free(deep, TRUE);
  g_string_free(ignored, TRUE);
}

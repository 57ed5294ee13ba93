/*
 * test-db-filter.c: the filter expressions of db/filter-expr.h (action
 * conditions, $(if), `match -F`), one row per (expression, result) over a
 * fixed message, and the expressions 3.38 refuses, each with the column.
 *
 * Every row was asked of pdbtool 3.38 (an action with the row as its
 * condition, or `match -F`); tests/differential/test-filters.sh runs the
 * functions against pdbtool itself.
 */
#include "db/filter-expr.h"

#include <criterion/criterion.h>
#include <string.h>
#include <unistd.h>

/* HOST=host1 PROGRAM=sshd PID=123 MESSAGE="Accepted password for bob"
 * user=bob n=10 (and n=9 one message back), PRI 38 (auth.info), tags
 * secevt and .classifier.system; the context has two messages */
static const gchar *
lookup(const gchar *name, guint index, gssize *length, gpointer user_data)
{
  static const gchar *const values[][2] =
  {
    { "HOST", "host1" }, { "PROGRAM", "sshd" }, { "PID", "123" },
    { "MESSAGE", "Accepted password for bob" }, { "user", "bob" }, { "n", "10" },
    { "PRI", "38" }, { "TAGS", ".classifier.system,secevt" }, { "big", "4294967297" },
    { "huge", "99999999999999999999" }, { "neg", "-2147483649" }, { "sp", " \t+12x" },
  };

  (void) user_data;
  *length = -1;
  /* a context of two messages: ${name}@1 exists */
  if (index == PDB_TEMPLATE_CONTEXT_LENGTH_INDEX)
    return "2";
  if (index == 1 && strcmp(name, "n") == 0)
    return "9";
  if (index != 0)
    return NULL;
  for (gsize i = 0; i < G_N_ELEMENTS(values); i++)
    if (strcmp(values[i][0], name) == 0)
      return values[i][1];
  return NULL;
}

static gboolean
has_tag(const gchar *tag, gpointer user_data)
{
  (void) user_data;
  return strcmp(tag, "secevt") == 0 || strcmp(tag, ".classifier.system") == 0;
}

typedef struct
{
  const gchar *expression;
  gboolean expected;
} Row;

static const Row rows[] =
{
  /* tags() */
  { "tags(\"secevt\")", TRUE }, { "tags(\"net\")", FALSE }, { "tags(net, secevt)", TRUE }, { "tags()", FALSE },
  /* match() and friends */
  { "match(\"bob\" value(\"user\"))", TRUE }, { "match(\"^bob$\" value(\"$user\"))", TRUE },
  { "match(\"x\" value(\"unset\"))", FALSE }, { "match(\"^$\" value(\"unset\"))", TRUE },
  { "match(\"^sshd\\\\[123\\\\]: Accepted\")", TRUE }, { "match(\"^Accepted\")", FALSE },
  { "match(\"^\\d\")", FALSE }, { "match(\"^d\" value(\"n\"))", FALSE }, { "match(\"^\\\\d\" value(\"n\"))", TRUE },
  { "match(\"^1\" template(\"${n}\"))", TRUE }, { "match(\"^9$\" template(\"${n}@1\"))", TRUE },
  { "match(\"1\" template(\"${n}\") value(\"user\"))", FALSE },
  { "program(\"ssh\")", TRUE }, { "program(\"^ssh$\")", FALSE }, { "host(\"HOST1\" flags(ignore-case))", TRUE },
  { "host(\"HOST1\" flags(icase))", TRUE }, { "host(\"HOST1\")", FALSE },
  { "message(\"password\" type(\"string\"))", FALSE }, { "message(\"password\" type(string) flags(substring))", TRUE },
  { "message(\"Accepted\" type(\"string\") flags(prefix))", TRUE },
  { "message(\"ACCEPTED password FOR bob\" type(string) flags(ignore_case))", TRUE },
  { "match(\"ob\" value(user) type(string) flags(substring prefix))", FALSE },
  { "program(\"s*d\" type(\"glob\"))", TRUE }, { "program(\"s?d\" type(\"glob\"))", FALSE },
  { "program(\"S*D\" type(glob) flags(ignore-case))", FALSE }, { "source(\"\")", TRUE }, { "source(\"^$\")", FALSE }, { "source(\"^$\" type(pcre))", TRUE },
  { "match(\"bob\" value(\"user\") type(posix))", TRUE },
  /* level() and facility(): PRI 38 is auth.info */
  { "level(info)", TRUE }, { "level(INFO)", TRUE }, { "priority(\"info\")", TRUE }, { "severity(info)", TRUE },
  { "level(err..notice)", FALSE }, { "level(debug..notice)", TRUE }, { "level(notice, err)", FALSE },
  { "facility(auth)", TRUE }, { "facility(user auth)", TRUE }, { "facility(kern..daemon)", FALSE },
  { "facility(security)", FALSE }, { "facility(4)", TRUE }, { "facility(0x4)", TRUE }, { "facility(1)", FALSE },
  /* netmask(): no SOURCEIP, so 127.0.0.1 and ::1 */
  { "netmask(127.0.0.1/8)", TRUE }, { "netmask(\"127.0.0.1/255.0.0.0\")", TRUE }, { "netmask(10.0.0.0/8)", FALSE },
  { "netmask(\"127.1\")", TRUE }, { "netmask(\"x/0\")", TRUE }, { "netmask(\"127.0.0.1/40\")", TRUE },
  { "netmask(\"128.0.0.1/-1\")", FALSE }, { "netmask6(\"::1/128\")", TRUE }, { "netmask6(\"::1\")", TRUE },
  { "netmask6(\"::/0\")", FALSE }, { "netmask6(\"x\")", FALSE }, { "not netmask6(\"x\")", TRUE },
  /* comparisons: numeric as atoi() */
  { "\"$n\" > \"9\"", TRUE }, { "\"$n\" gt \"9\"", FALSE }, { "\"${n}@1\" == \"9\"", TRUE },
  { "\"yes\" == \"no\"", TRUE }, { "\"${big}\" == \"1\"", TRUE }, { "\"4294967296\" == \"0\"", TRUE },
  { "\"${huge}\" == \"-1\"", TRUE }, { "\"-99999999999999999999\" == \"0\"", TRUE },
  { "\"${neg}\" == \"2147483647\"", TRUE }, { "\"${sp}\" == \"12\"", TRUE }, { "\"\" == \"0\"", TRUE },
  { "\"9223372036854775808\" == \"0\"", FALSE }, { "\"2147483648\" < \"0\"", TRUE },
  { "\"\\v7\" == \"7\"", TRUE }, { "\"\\f7\" == \"7\"", FALSE }, { "\"\\x41\" eq \"A\"", TRUE }, { "\"\\q\" eq \"q\"", TRUE },
  { "\"ab\" lt \"abc\"", TRUE }, { "\"b\" lt \"ab\"", FALSE }, { "\"a\" le \"a\"", TRUE }, { "\"a\" ne \"a\"", FALSE },
  { "user == bob", TRUE }, { "$n == 10", TRUE },
  /* type-aware when a number or a cast is there */
  { "5 == \"5.5\"", FALSE }, { "\"5\" == \"5.5\"", TRUE }, { "int(\"abc\") == \"0\"", FALSE },
  { "string(\"10\") < \"9\"", TRUE }, { "0x10 == 16", TRUE }, { "1.50 eq \"1.50\"", TRUE }, { "5k == 5000", TRUE },
  { "1kib == 1024", TRUE }, { "010 == 8", TRUE }, { "int(\"0x10\") == 16", TRUE }, { "int(\"010\") == 10", TRUE },
  { "int(\" 5\") == 5", TRUE }, { "int(\"5 \") == 5", FALSE }, { "int(\"nan\") != 1", TRUE },
  { "int(\"\") == 0", FALSE }, { "boolean(\"TRUE\") == 1", TRUE }, { "boolean(\"yes\") == 1", FALSE },
  { "datetime(\"1.5\") == 1500", TRUE }, { "datetime(\"-1.5\") == -500", TRUE },
  { "datetime(\"1.1234567891\") == 1123", TRUE }, { "datetime(\"1.-5\") == 950", TRUE },
  { "datetime(\"1e300\") > 1", FALSE }, { "datetime(\"9223372036854775807\") == -1000", TRUE },
  { "double(\"1e400\") > 1", FALSE }, { "netmask6(\"::1/4294967424\")", TRUE },
  { "netmask(\"128.0.0.1/4294967295\")", FALSE }, { "facility(4294967297)", FALSE }, { "null(\"x\") != 0", TRUE }, { "null(\"x\") < 1", TRUE },
  { "list(\"a,b\") == \"a,b\"", FALSE }, { "int(\"5\") === 5", FALSE }, { "5 === 5", TRUE },
  { "int(\"5\") !== \"5\"", TRUE }, { "\"5\" === \"5\"", TRUE }, { "int (\"5\") == 5", TRUE },
  /* the boolean grammar; what follows a complete expression is ignored */
  { "not tags(\"secevt\")", FALSE }, { "not not tags(\"secevt\")", TRUE },
  { "tags(\"secevt\") or program(\"cron\") and tags(\"net\")", TRUE },
  { "(tags(\"secevt\") or program(\"cron\")) and tags(\"net\")", FALSE },
  { "not tags(\"net\") and tags(\"secevt\")", TRUE }, { "tags('secevt');", TRUE },
  { "tags(\"secevt\"); tags(\"net\")", FALSE }, { "tags(\"secevt\") ;; tags(\"secevt\")", TRUE },
  { "tags(\"secevt\") OR tags(\"net\")", TRUE }, { "tags(\"net\") OR tags(\"secevt\")", FALSE },
  { "tags(\"secevt\") junk", TRUE }, { "tags(\"secevt\") \"unterminated", TRUE }, { "tags(\"secevt\") )", TRUE },
  { "\"a\" == \"b\" == \"c\"", TRUE }, { "tags(\"secevt\")\n# comment\n", TRUE },
};

Test(filter_expr, evaluates_like_pdbtool)
{
  PdbFilterSubject subject = { lookup, has_tag, NULL };
  PdbFilterSubject by_tags_macro = { lookup, NULL, NULL };

  for (gsize i = 0; i < G_N_ELEMENTS(rows); i++)
    {
      GError *error = NULL;
      PdbFilterExpr *f = pdb_filter_expr_compile(rows[i].expression, &error);

      cr_expect_not_null(f, "'%s' does not compile: %s", rows[i].expression, error ? error->message : "");
      if (!f)
        {
          g_clear_error(&error);
          continue;
        }
      cr_expect_eq(pdb_filter_expr_eval(f, &subject), rows[i].expected, "'%s' should be %s",
                   rows[i].expression, rows[i].expected ? "true" : "false");
      cr_expect_eq(pdb_filter_expr_eval(f, &by_tags_macro), rows[i].expected, "'%s' (tags from TAGS)",
                   rows[i].expression);
      pdb_filter_expr_free(f);
    }
}

Test(filter_expr, in_list_reads_lines_as_3_38)
{
  gchar *dir = g_dir_make_tmp("pdb-filter-XXXXXX", NULL);
  gchar *file = g_build_filename(dir, "list", NULL);
  gchar *text = g_strdup_printf("in-list(\"%s\" value(\"user\"))", file);
  gchar *missing = g_strdup_printf("in-list(\"%s.none\" user)", file);
  PdbFilterSubject subject = { lookup, has_tag, NULL };
  static const struct { const gchar *content; gboolean expected; } files[] =
  {
    { "al\nbob\n", TRUE }, { "bob", FALSE } /* loses its last byte: "bo" */, { "bobx", TRUE },
    { "bob\r\n", FALSE }, { " bob\n", FALSE }, { "\n\nbob\n\n", TRUE }, { "", FALSE },
  };

  for (gsize i = 0; i < G_N_ELEMENTS(files); i++)
    {
      PdbFilterExpr *f;

      g_file_set_contents(file, files[i].content, -1, NULL);
      f = pdb_filter_expr_compile(text, NULL);
      cr_assert_not_null(f);
      cr_expect_eq(pdb_filter_expr_eval(f, &subject), files[i].expected, "list %zu", i);
      pdb_filter_expr_free(f);
    }
  GError *error = NULL;
  cr_expect_null(pdb_filter_expr_compile(missing, &error));
  cr_expect(error && strstr(error->message, "column 9: in-list(): cannot open"), "%s", error ? error->message : "");
  g_clear_error(&error);
  unlink(file);
  rmdir(dir);
  g_free(missing);
  g_free(text);
  g_free(file);
  g_free(dir);
}

static const struct { const gchar *expression; const gchar *error_part; } bad_rows[] =
{
  { "", "column 1: expected a filter function or a comparison" },
  { "#x", "column 1: expected a filter function or a comparison, found a comment without an end of line" },
  /* 3.38 crashes while loading these: a comment must end with a newline */
  { "tags(\"secevt\") #", "column 16: expected an end of line after the comment" },
  { "tags(\"secevt\") and # x", "found a comment without an end of line" },
  { "( # x", "found a comment without an end of line" },
  { "tags(\"a\"", "expected a tag or ')'" },
  { "match(\"(\" value(\"x\"))", "column 7: the regular expression '(' does not compile" },
  { "tags(\"a\") and", "column 14: expected a filter function" },
  { "tags(\"a\") or junk", "column 18: expected a comparison operator" },
  { "tags(\"vip\") ; junk", "expected a comparison operator" },
  { "NOT tags(\"x\")", "column 5: expected a comparison operator" },
  { "Tags(\"x\")", "column 1: unknown type 'Tags'" },
  { "nosuch(5) == 5", "unknown type 'nosuch'" },
  { "match(\"a\" value(\"x\") bogus(1))", "expected value(), template(), type(), flags() or ')'" },
  { "program(\"a\" value(\"x\"))", "expected type(), flags() or ')'" },
  { "match(\"a\" type(\"nosuch\"))", "unknown matcher type 'nosuch'" },
  { "match(\"a\" flags(\"dup-names\"))", "unknown matcher flag 'dup-names'" },
  { "match(\"a\" value(\"(x)\"))", "value() takes a value name" },
  { "level(6)", "column 7: expected a string or a word" },
  { "level(nosuch)", "column 7: unknown level 'nosuch'" },
  { "level()", "expected a string or a word" },
  { "level(info..)", "column 13: expected a string or a word" },
  { "facility(1, 2)", "column 13: expected ')' after the facility code" },
  { "facility(user..2)", "column 16: expected a string or a word" },
  { "facility(audit)", "unknown facility 'audit'" },
  { "filter(f_x)", "named filter" },
  { "5==5", "column 5: expected a comparison operator" },
  { "\"a\" <> \"b\"", "column 5: expected a comparison operator" },
  { "1. == 1", "column 2: expected a comparison operator" },
  { ".5 == 0.5", "column 1: expected a filter function" },
  { "99999999999999999999 == 1", "column 1: expected a filter function" },
  { "int(${n}) == 1", "column 6: expected ')' after the cast" },
  { "\"a\" \"b\" eq \"ab\"", "column 5: expected a comparison operator" },
  { "tags(\"unterminated)", "expected a tag or ')'" },
  { "\"$(nosuch)\" == \"1\"", "column 1: the template '$(nosuch)' does not compile" },
};

Test(filter_expr, rejects_what_3_38_rejects_with_a_column)
{
  for (gsize i = 0; i < G_N_ELEMENTS(bad_rows); i++)
    {
      GError *error = NULL;
      PdbFilterExpr *f = pdb_filter_expr_compile(bad_rows[i].expression, &error);

      cr_expect_null(f, "'%s' should not compile", bad_rows[i].expression);
      cr_expect(error && strstr(error->message, bad_rows[i].error_part),
                "'%s': error '%s' should mention '%s'", bad_rows[i].expression,
                error ? error->message : "(none)", bad_rows[i].error_part);
      pdb_filter_expr_free(f);
      g_clear_error(&error);
    }
}

Test(filter_expr, warns_where_3_38_warns)
{
  static const struct { const gchar *expression; const gchar *warning; } warn_rows[] =
  {
    { "match(\"x\")", "column 7: match() without value()" },
    { "tags(\"a\") or match(\"x\" value(\"$user\"))", "column 30: value names in filters need no '$'" },
    { "in-list(\"/dev/null\" \"$user\")", "column 21: value names in filters need no '$'" },
    { "match(\"x\" value(\"user\") type(posix))", "column 30: posix regular expressions are read as pcre" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS(warn_rows); i++)
    {
      PdbFilterExpr *f = pdb_filter_expr_compile(warn_rows[i].expression, NULL);
      const GPtrArray *w = pdb_filter_expr_get_warnings(f);

      cr_assert_not_null(f, "%s", warn_rows[i].expression);
      cr_expect(w && w->len == 1 && strstr(g_ptr_array_index(w, 0), warn_rows[i].warning),
                "'%s': warning '%s' should mention '%s'", warn_rows[i].expression,
                w && w->len ? (const gchar *) g_ptr_array_index(w, 0) : "(none)", warn_rows[i].warning);
      pdb_filter_expr_free(f);
    }
  PdbFilterExpr *quiet = pdb_filter_expr_compile("match(\"x\" value(\"user\")) and message(\"y\")", NULL);

  cr_expect_null(pdb_filter_expr_get_warnings(quiet));
  pdb_filter_expr_free(quiet);
}

/* Random token soup: every text compiles or fails with an error, and what
 * compiles evaluates (ASan/UBSan builds check memory and arithmetic). */
Test(filter_expr, random_texts_compile_or_fail_cleanly)
{
  static const gchar *const pieces[] =
  {
    "match(", "program(", "host(", "message(", "source(", "tags(", "level(", "facility(", "netmask(",
    "netmask6(", "in-list(", "filter(", "value(", "template(", "type(", "flags(", "int(", "datetime(",
    "boolean(", "null(", "(", ")", ";", ",", " and ", " or ", " not ", "..", "==", "!=", "<", ">=", "===",
    " eq ", " lt ", "\"${n}\"", "\"${n}@1\"", "'x'", "\"\\x4\"", "\"", "'", "#", "\n", "info", "err",
    "user", "local7", "pcre", "glob", "string", "ignore-case", "prefix", "substring", "\"^b.*\"", "\"[\"",
    "\"::1/128\"", "\"127.0.0.1/-1\"", "4294967297", "-0x1F", "5k", "1.5", "99999999999999999999",
    "$user", "\"$(length ${n})\"", "\"/dev/null\"", " ", "\t", "@", "{",
  };
  PdbFilterSubject subject = { lookup, has_tag, NULL };
  GRand *rand = g_rand_new_with_seed(20261204);
  guint compiled = 0;

  for (guint i = 0; i < 20000; i++)
    {
      GString *text = g_string_new(NULL);
      guint n = g_rand_int_range(rand, 1, 12);
      GError *error = NULL;
      PdbFilterExpr *f;

      /* half of them start with an expression of the table above */
      if (g_rand_boolean(rand))
        g_string_append(text, rows[g_rand_int_range(rand, 0, G_N_ELEMENTS(rows))].expression);
      for (guint k = 0; k < n; k++)
        g_string_append(text, pieces[g_rand_int_range(rand, 0, G_N_ELEMENTS(pieces))]);
      f = pdb_filter_expr_compile(text->str, &error);
      cr_assert((f != NULL) != (error != NULL), "'%s': a filter or an error", text->str);
      if (f)
        {
          compiled++;
          pdb_filter_expr_eval(f, &subject);
        }
      pdb_filter_expr_free(f);
      g_clear_error(&error);
      g_string_free(text, TRUE);
    }
  g_rand_free(rand);
  cr_expect(compiled > 2000, "only %u random texts compiled", compiled);
}

Test(filter_expr, msghdr_from_values)
{
  GString *out = g_string_new(NULL);

  pdb_filter_append_msghdr(lookup, NULL, out);
  cr_expect_str_eq(out->str, "sshd[123]: ");
  g_string_free(out, TRUE);
}

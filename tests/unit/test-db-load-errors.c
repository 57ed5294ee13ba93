/*
 * test-db-load-errors.c: files the loader refuses or must survive
 * (db/loader*.c): a table of broken files whose errors must name
 * file:line:column (columns computed from a marker text in the row, so a
 * row says "the error points at <bogus" rather than a bare number),
 * malformed XML, versions, I/O errors, billion laughs, every truncation
 * and mutations of a file. Rows marked [pdbtool] were checked with
 * Debian's pdbtool 3.38.1.
 */
#include "test-db-common.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

TestSuite(load_errors, .init = test_tmpdir_setup, .fini = test_tmpdir_teardown);

#define STR_AT(array, i) ((const gchar *) g_ptr_array_index((array), (i)))
#define RULESET(rules) "<ruleset name='p' id='rs'><pattern>p</pattern><rules>" rules "</rules></ruleset>"
#define RULE(attrs, body) "<rule id='a' " attrs "><patterns><pattern>foo</pattern></patterns>" body "</rule>"
#define DB4_OPEN "<patterndb version='4' pub_date='2024-01-01'>"
#define DB4(body) DB4_OPEN body "</patterndb>"

typedef struct
{
  const gchar *xml;
  const gchar *marker;     /* the error's column is where this text starts... */
  gint marker_offset;      /* ...plus this */
  gint code;
  const gchar *message;    /* the text after "file:line:column: " */
} BrokenRow;

static const BrokenRow broken_rows[] =
{
  { "<bogus version='4'/>", "<bogus", 0, PDB_DB_ERROR_STRUCTURE,
    "unknown element <bogus> at the top level, expected <patterndb>" },
  { DB4("<bogus/>"), "<bogus", 0, PDB_DB_ERROR_STRUCTURE,
    "unknown element <bogus> inside <patterndb>, expected one of <ruleset>" },
  { DB4("<ruleset><program/></ruleset>"), "<program", 0, PDB_DB_ERROR_STRUCTURE,
    "unknown element <program> inside <ruleset>, expected one of <pattern>, <patterns>, <rules>, "
    "<description>, <url>, <urls>" },
  { DB4(RULESET(RULE("", "<bogus/>"))), "<bogus", 0, PDB_DB_ERROR_STRUCTURE,
    "unknown element <bogus> inside <rule>, expected one of <patterns>, <pattern>, <description>, "
    "<urls>, <url>, <tags>, <tag>, <values>, <value>, <examples>, <actions>" },
  /* [pdbtool] <example> and <action> need their containers. */
  { DB4(RULESET(RULE("", "<example/>"))), "<example", 0, PDB_DB_ERROR_STRUCTURE,
    "unknown element <example> inside <rule>, expected one of <patterns>, <pattern>, <description>, "
    "<urls>, <url>, <tags>, <tag>, <values>, <value>, <examples>, <actions>" },
  { DB4(RULESET(RULE("", "<actions><message/></actions>"))), "<message", 0, PDB_DB_ERROR_STRUCTURE,
    "unknown element <message> inside <actions>, expected one of <action>" },
  { DB4(RULESET(RULE("", "<actions><action><message><pattern>x</pattern></message></action></actions>"))),
    "<pattern>x", 0, PDB_DB_ERROR_STRUCTURE,
    "unknown element <pattern> inside <message>, expected one of <values>, <value>, <tags>, <tag>" },
  { DB4(RULESET(RULE("", "<description>d<b>x</b></description>"))), "<b>", 0, PDB_DB_ERROR_STRUCTURE,
    "unknown element <b> inside <description>, expected text only" },
  { DB4(RULESET(RULE("", "<examples><test_message>m</test_message></examples>"))), "<test_message", 0,
    PDB_DB_ERROR_STRUCTURE, "unknown element <test_message> inside <examples>, expected one of <example>" },
  /* Text where none is expected. The position is where the text ends. */
  { DB4("<ruleset><pattern>p</pattern><rules>hello<rule id='a'/></rules></ruleset>"), "hello", 5,
    PDB_DB_ERROR_STRUCTURE, "unexpected text 'hello' inside <rules>, expected only elements" },
  { DB4("x" "<ruleset/>"), "x<ruleset", 1, PDB_DB_ERROR_STRUCTURE,
    "unexpected text 'x' inside <patterndb>, expected only elements" },
  /* Attributes. */
  { DB4(RULESET("<rule class='c'/>")), "<rule ", 0, PDB_DB_ERROR_STRUCTURE,
    "<rule> has no id attribute; add id='...' (a unique name)" },
  { DB4(RULESET(RULE("context-scope='session'", ""))), "<rule ", 0, PDB_DB_ERROR_STRUCTURE,
    "unknown context-scope 'session', expected one of process, program, host, global" },
  { DB4(RULESET(RULE("", "<actions><action trigger='now'/></actions>"))), "<action ", 0, PDB_DB_ERROR_STRUCTURE,
    "unknown action trigger 'now' in rule 'a', expected one of match, timeout" },
  { DB4(RULESET(RULE("", "<actions><action><message inherit-mode='all'/></action></actions>"))), "<message", 0,
    PDB_DB_ERROR_STRUCTURE, "unknown inherit-mode 'all' in rule 'a', expected one of none, last-message, context" },
  { DB4(RULESET(RULE("", "<actions><action><message inherit-properties='maybe'/></action></actions>"))),
    "<message", 0, PDB_DB_ERROR_STRUCTURE,
    "unknown inherit-properties 'maybe' in rule 'a', expected one of TRUE, FALSE, context" },
  { DB4(RULESET(RULE("", "<values><value>x</value></values>"))), "<value>", 0, PDB_DB_ERROR_STRUCTURE,
    "<value> has no name attribute in rule 'a'; add name='...'" },
  { DB4(RULESET(RULE("", "<examples><example><test_values><test_value>x</test_value></test_values></example></examples>"))),
    "<test_value>", 0, PDB_DB_ERROR_STRUCTURE, "<test_value> has no name attribute in rule 'a'; add name='...'" },
  { DB4(RULESET(RULE("", "<actions><action><create-context><message/></create-context></action></actions>"))),
    "<create-context", 0, PDB_DB_ERROR_STRUCTURE,
    "<create-context> has no context-id attribute in rule 'a'; add context-id='...'" },
  /* Templates: [pdbtool] 3.38 fails the whole database for a(b). */
  { DB4(RULESET(RULE("", "<values><value name='v'>a(b)</value></values>"))), "<value ", 0, PDB_DB_ERROR_TEMPLATE,
    "rule 'a': value 'v': template 'a(b)' does not compile: unknown type 'a' in type hinting; write one of "
    PDB_TYPE_HINT_NAMES ", or write the value without parentheses" },
  { DB4(RULESET(RULE("context-id='${x'", ""))), "<rule ", 0, PDB_DB_ERROR_TEMPLATE,
    "rule 'a': context-id: template '${x' does not compile: '}' is missing after '${' at position 0; write '${name}'" },
  /* Versions: [pdbtool] 1 and non-numbers are too old, 7 too new (3.38: 6 too). */
  { "<patterndb version='1' pub_date='x'></patterndb>", "<patterndb", 0, PDB_DB_ERROR_STRUCTURE,
    "patterndb version '1' is too old (versions 2 to 6 are supported); convert the file with `patterndb merge`" },
  { "<patterndb version='abc' pub_date='x'></patterndb>", "<patterndb", 0, PDB_DB_ERROR_STRUCTURE,
    "patterndb version 'abc' is too old (versions 2 to 6 are supported); convert the file with `patterndb merge`" },
  { "<patterndb version='7' pub_date='x'></patterndb>", "<patterndb", 0, PDB_DB_ERROR_STRUCTURE,
    "patterndb version '7' is too new (versions 2 to 6 are supported)" },
  /* [pdbtool] a later alias that belongs to another ruleset. */
  { DB4("<ruleset name='A' id='A'><patterns><pattern>a</pattern></patterns></ruleset>"
        "<ruleset name='E' id='E'><patterns><pattern>b</pattern><pattern>a</pattern></patterns></ruleset>"),
    "<pattern>a</pattern></patterns></ruleset></patterndb>", 0, PDB_DB_ERROR_STRUCTURE,
    "Joining rulesets with mismatching program name sets: program 'a' already selects ruleset 'A' (%s:1), "
    "but this ruleset starts with program 'b'" },
  /* Entities are never expanded: a declared one is an error like an undeclared one. */
  { "<!DOCTYPE patterndb [<!ENTITY a 'x'>]>" DB4("<ruleset><pattern>&a;</pattern></ruleset>"),
    "</pattern>", 0, PDB_DB_ERROR_XML, "Entity 'a' not defined" },
};

static gchar *
expected_error(const BrokenRow *row, const gchar *path)
{
  const gchar *marker = strstr(row->xml, row->marker);
  cr_assert_not_null(marker, "marker '%s' not in the row", row->marker);
  gint column = (gint) (marker - row->xml) + 1 + row->marker_offset;
  gchar *message = strstr(row->message, "%s") ? g_strdup_printf(row->message, path) : g_strdup(row->message);
  gchar *expected = g_strdup_printf("%s:1:%d: %s", path, column, message);

  g_free(message);
  return expected;
}

Test(load_errors, broken_files_name_file_line_column)
{
  for (gsize i = 0; i < G_N_ELEMENTS(broken_rows); i++)
    {
      const BrokenRow *row = &broken_rows[i];
      gchar *name = g_strdup_printf("broken-%zu.xml", i);
      gchar *path = write_file(name, row->xml);
      GPtrArray *warnings = g_ptr_array_new_with_free_func(g_free);
      PdbLoadOptions options = options_collecting(warnings);
      GError *error = NULL;
      PdbDatabase *db = pdb_database_load(path, &options, &error);

      cr_expect_null(db, "row %zu: %s should not load", i, row->xml);
      pdb_database_unref(db);
      if (error)
        {
          gchar *expected = expected_error(row, path);
          cr_expect_str_eq(error->message, expected, "row %zu: %s\n  got:      %s\n  expected: %s",
                           i, row->xml, error->message, expected);
          cr_expect_eq(error->code, row->code, "row %zu: code %d, expected %d", i, error->code, row->code);
          g_free(expected);
        }
      else
        cr_expect_fail("row %zu: no error", i);
      g_clear_error(&error);
      g_ptr_array_unref(warnings);
      g_free(path);
      g_free(name);
    }
}

Test(load_errors, malformed_xml_reports_libxml_position)
{
  gchar *path = write_file("m.xml", "<patterndb version='4'>\n<ruleset>\n</patterndb>\n");
  GError *error = NULL;
  PdbDatabase *db = pdb_database_load(path, NULL, &error);
  gchar *prefix = g_strdup_printf("%s:3:", path);

  cr_assert_null(db);
  cr_assert_not_null(error);
  cr_expect_eq(error->code, PDB_DB_ERROR_XML);
  cr_expect(g_str_has_prefix(error->message, prefix), "got: %s", error->message);
  cr_expect(strstr(error->message, "ruleset") != NULL, "got: %s", error->message);
  g_error_free(error);
  g_free(prefix);
  g_free(path);
}

typedef struct
{
  const gchar *root;
  const gchar *version;      /* NULL: must fail */
  const gchar *warning;      /* expected warning text after "file:1:1: ", or NULL */
} VersionRow;

Test(load_errors, accepted_versions)
{
  static const VersionRow rows[] =
  {
    { "<patterndb version='2' pub_date='d'>", "2", NULL },
    { "<patterndb version='3' pub_date='d'>", "3", NULL },
    { "<patterndb version='4' pub_date='d'>", "4", NULL },
    { "<patterndb version='5' pub_date='d'>", "5", NULL },
    { "<patterndb version='6' pub_date='d'>", "6", NULL },
    { "<patterndb version='5x' pub_date='d'>", "5x", NULL },   /* atoi, as 3.38 */
    /* [pdbtool] "patterndb version is unspecified, assuming v4 format" */
    { "<patterndb pub_date='d'>", "4",
      "patterndb version is unspecified, assuming v4 format; add version='4' to <patterndb>" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS(rows); i++)
    {
      gchar *xml = g_strconcat(rows[i].root, "<ruleset><pattern>p</pattern></ruleset></patterndb>", NULL);
      gchar *path = write_file("v.xml", xml);
      GPtrArray *warnings = g_ptr_array_new_with_free_func(g_free);
      PdbLoadOptions options = options_collecting(warnings);
      GError *error = NULL;
      PdbDatabase *db = pdb_database_load(path, &options, &error);

      cr_expect_not_null(db, "row %zu %s: %s", i, rows[i].root, error ? error->message : "");
      if (db)
        cr_expect_str_eq(pdb_database_get_version(db), rows[i].version, "row %zu", i);
      if (rows[i].warning)
        {
          gchar *expected = g_strdup_printf("%s:1:1: %s", path, rows[i].warning);
          cr_expect_eq(warnings->len, 1, "row %zu: one warning", i);
          if (warnings->len)
            cr_expect_str_eq(STR_AT(warnings, 0), expected, "row %zu", i);
          g_free(expected);
        }
      else
        cr_expect_eq(warnings->len, 0, "row %zu: no warning", i);
      pdb_database_unref(db);
      g_clear_error(&error);
      g_ptr_array_unref(warnings);
      g_free(path);
      g_free(xml);
    }
}

/* [pdbtool] 3.38 loads an unknown type= of <value> and ignores it. */
Test(load_errors, unknown_value_type_is_a_warning)
{
  gchar *path = write_file("t.xml", DB4(RULESET(RULE("", "<values><value name='v' type='integer'>1</value></values>"))));
  GPtrArray *warnings = g_ptr_array_new_with_free_func(g_free);
  PdbLoadOptions options = options_collecting(warnings);
  GError *error = NULL;
  PdbDatabase *db = pdb_database_load(path, &options, &error);

  cr_assert_not_null(db, "%s", error ? error->message : "");
  const PdbRule *rule = pdb_database_find_rule(db, "a");
  const PdbValueDef *value = g_ptr_array_index(rule->values, 0);
  cr_expect_null(value->type);
  cr_expect_eq(value->value_type, PDB_VALUE_STRING);
  cr_assert_eq(warnings->len, 1);
  cr_expect(strstr(STR_AT(warnings, 0), "value 'v': unknown type 'integer' is ignored") != NULL, "%s",
            STR_AT(warnings, 0));
  cr_expect(strstr(STR_AT(warnings, 0), "t.xml:1:") != NULL, "%s", STR_AT(warnings, 0));
  pdb_database_unref(db);
  g_ptr_array_unref(warnings);
  g_free(path);
}

Test(load_errors, io_errors_name_the_path)
{
  gchar *missing = g_build_filename(test_tmpdir, "missing.xml", NULL);
  gchar *empty = write_file("empty.xml", "");
  gchar *big = g_build_filename(test_tmpdir, "big.xml", NULL);
  GError *error = NULL;

  cr_expect_null(pdb_database_load(missing, NULL, &error));
  cr_assert_not_null(error);
  gchar *expected = g_strdup_printf("%s: cannot open pattern database: No such file or directory", missing);
  cr_expect_str_eq(error->message, expected);
  cr_expect_eq(error->code, PDB_DB_ERROR_IO);
  g_free(expected);
  g_clear_error(&error);

  cr_expect_null(pdb_database_load(empty, NULL, &error));
  cr_assert_not_null(error);
  expected = g_strdup_printf("%s: the file is empty, expected a <patterndb> document", empty);
  cr_expect_str_eq(error->message, expected);
  g_free(expected);
  g_clear_error(&error);

  /* A sparse file just over the limit is refused before it is read. */
  int fd = open(big, O_CREAT | O_WRONLY | O_TRUNC, 0600);
  cr_assert_geq(fd, 0);
  cr_assert_eq(ftruncate(fd, (off_t) 256 * 1024 * 1024 + 1), 0);
  close(fd);
  cr_expect_null(pdb_database_load(big, NULL, &error));
  cr_assert_not_null(error);
  expected = g_strdup_printf("%s: file is 268435457 bytes, larger than the 256 MiB limit "
                             "for a pattern database file", big);
  cr_expect_str_eq(error->message, expected);
  cr_expect_eq(error->code, PDB_DB_ERROR_IO);
  g_free(expected);
  g_clear_error(&error);

  cr_expect_null(pdb_database_load("/dev/null", NULL, &error));
  cr_assert_not_null(error);
  cr_expect_str_eq(error->message, "/dev/null: not a regular file");
  g_clear_error(&error);

  g_free(missing);
  g_free(empty);
  g_free(big);
}

Test(load_errors, billion_laughs_is_refused_quickly)
{
  GString *xml = g_string_new("<?xml version='1.0'?>\n<!DOCTYPE patterndb [\n<!ENTITY l0 'ha'>\n");
  for (gint i = 1; i < 10; i++)
    g_string_append_printf(xml, "<!ENTITY l%d '&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;'>\n",
                           i, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1);
  g_string_append(xml, "]>\n<patterndb version='4' pub_date='&l9;'><ruleset><pattern>&l9;</pattern></ruleset></patterndb>\n");
  gchar *path = write_file("lol.xml", xml->str);
  GError *error = NULL;
  gint64 start = g_get_monotonic_time();

  cr_expect_null(pdb_database_load(path, NULL, &error));
  cr_expect_lt(g_get_monotonic_time() - start, G_USEC_PER_SEC, "no expansion happens");
  cr_assert_not_null(error);
  cr_expect(g_str_has_prefix(error->message, path), "got: %s", error->message);
  g_clear_error(&error);
  g_string_free(xml, TRUE);
  g_free(path);
}

Test(load_errors, every_truncation_fails_cleanly)
{
  /* Cut full-v6.xml at every byte: each prefix is refused with an error
   * that names the file (and, under ASan, without leaks or bad reads). */
  gchar *source = g_build_filename(PDB_TEST_DATA_DIR, "full-v6.xml", NULL);
  gchar *contents = NULL;
  gsize length = 0;

  cr_assert(g_file_get_contents(source, &contents, &length, NULL));
  const gchar *end = g_strrstr(contents, "</patterndb>");
  cr_assert_not_null(end);
  gsize complete = (gsize) (end - contents) + strlen("</patterndb>");
  gchar *path = g_build_filename(test_tmpdir, "cut.xml", NULL);

  for (gsize cut = 0; cut < complete; cut += 7)
    {
      GError *error = NULL;
      cr_assert(g_file_set_contents(path, contents, cut, NULL));
      PdbDatabase *db = pdb_database_load(path, NULL, &error);
      cr_expect_null(db, "a file cut at %zu bytes should not load", cut);
      pdb_database_unref(db);
      cr_expect(error && g_str_has_prefix(error->message, path), "cut at %zu: %s", cut,
                error ? error->message : "no error");
      g_clear_error(&error);
    }
  g_free(path);
  g_free(contents);
  g_free(source);
}

Test(load_errors, bad_program_pattern_is_a_warning)
{
  const gchar *xml = DB4("<ruleset name='rs' id='rs'><pattern>p@FOO:x@</pattern>"
                         "<rules><rule id='a'><pattern>m</pattern></rule></rules></ruleset>");
  gchar *path = write_file("prog.xml", xml);
  GPtrArray *warnings = g_ptr_array_new_with_free_func(g_free);
  PdbLoadOptions options = options_collecting(warnings);
  GError *error = NULL;
  PdbDatabase *db = pdb_database_load(path, &options, &error);

  cr_assert_not_null(db, "%s", error ? error->message : "");
  cr_assert_eq(warnings->len, 1);
  /* The engine points at the '@' of @FOO:x@, inside the pattern text. */
  gint column = (gint) (strstr(xml, "@FOO") - xml) + 1;
  gchar *prefix = g_strdup_printf("%s:1:%d: ruleset 'rs': program pattern 'p@FOO:x@': ", path, column);
  cr_expect(g_str_has_prefix(STR_AT(warnings, 0), prefix), "got: %s\nexpected: %s...", STR_AT(warnings, 0), prefix);
  cr_expect(strstr(STR_AT(warnings, 0), "FOO") != NULL);
  g_free(prefix);
  pdb_database_unref(db);
  g_ptr_array_unref(warnings);
  g_free(path);
}

/* A rule keeps each pattern's place (the first inline in the rule, more in
 * an array that grows): warnings about its 1st, 3rd, 4th and 5th pattern
 * name their own line and the column of the offending '@' (a duplicate:
 * where its text starts). */
Test(load_errors, every_pattern_of_a_rule_keeps_its_place)
{
  const gchar *lines[] =
  {
    DB4_OPEN "<ruleset name='rs' id='rs'><pattern>p</pattern><rules><rule id='a'><patterns>",
    "  <pattern>one @bad</pattern>",
    "  <pattern>two</pattern>",
    "   <pattern>three @x</pattern>",
    "<pattern>two</pattern>",
    "    <pattern>four @@ @y</pattern>",
    "</patterns></rule></rules></ruleset></patterndb>",
  };
  struct { gint line; const gchar *marker; const gchar *text; } want[] =
  {
    { 2, "@bad", "rule 'a': " }, { 4, "@x", "rule 'a': " }, { 5, "two", "rule 'a': " },
    { 6, "@y", "rule 'a': " },
  };
  gchar *xml = g_strjoinv("\n", (gchar **) (const gchar *[]) { lines[0], lines[1], lines[2], lines[3], lines[4],
                                                                   lines[5], lines[6], NULL });
  gchar *path = write_file("places.xml", xml);
  GPtrArray *warnings = g_ptr_array_new_with_free_func(g_free);
  PdbLoadOptions options = options_collecting(warnings);
  GError *error = NULL;
  PdbDatabase *db = pdb_database_load(path, &options, &error);

  cr_assert_not_null(db, "%s", error ? error->message : "");
  cr_assert_eq(warnings->len, G_N_ELEMENTS(want), "%s", join_warnings(warnings));
  for (gsize i = 0; i < G_N_ELEMENTS(want); i++)
    {
      const gchar *line = lines[want[i].line - 1];
      gint column = (gint) (strstr(line, want[i].marker) - line) + 1;
      gchar *prefix = g_strdup_printf("%s:%d:%d: %s", path, want[i].line, column, want[i].text);

      cr_expect(g_str_has_prefix(STR_AT(warnings, i), prefix), "got: %s\nexpected: %s...",
                STR_AT(warnings, i), prefix);
      g_free(prefix);
    }
  cr_expect(strstr(STR_AT(warnings, 2), "duplicate pattern 'two'") != NULL, "%s", STR_AT(warnings, 2));
  pdb_database_unref(db);
  g_ptr_array_unref(warnings);
  g_free(path);
  g_free(xml);
}

Test(load_errors, many_rules_load_without_quadratic_work)
{
  /* 20,000 rules in 200 rulesets; a quadratic step would take minutes. */
  GString *xml = g_string_new("<patterndb version='4' pub_date='2024-01-01'>\n");
  for (gint r = 0; r < 200; r++)
    {
      g_string_append_printf(xml, "<ruleset name='p%d' id='p%d'><pattern>p%d</pattern><rules>\n", r, r, r);
      for (gint i = 0; i < 100; i++)
        g_string_append_printf(xml, "<rule id='r%d-%d' class='c'><patterns><pattern>event %d from @IPv4:ip@ "
                               "user @ESTRING:user: @port @NUMBER:port@</pattern></patterns><tags><tag>t</tag>"
                               "</tags><values><value name='u'>$user</value></values></rule>\n", r, i, i);
      g_string_append(xml, "</rules></ruleset>\n");
    }
  g_string_append(xml, "</patterndb>\n");
  gchar *path = write_file("many.xml", xml->str);
  gint64 start = g_get_monotonic_time();
  PdbDatabase *db = pdb_database_load(path, NULL, NULL);
  gdouble seconds = (g_get_monotonic_time() - start) / (gdouble) G_USEC_PER_SEC;

  cr_assert_not_null(db);
  cr_expect_eq(pdb_database_get_rules(db)->len, 20000);
  cr_expect_lt(seconds, 10.0, "20,000 rules took %.2f s", seconds);
  pdb_database_unref(db);
  g_string_free(xml, TRUE);
  g_free(path);
}

Test(load_errors, mutated_files_load_or_fail_cleanly)
{
  /* Random byte changes in full-v6.xml: each result is a database or an
   * error naming the file; under ASan, nothing else. */
  gchar *source = g_build_filename(PDB_TEST_DATA_DIR, "full-v6.xml", NULL);
  gchar *contents = NULL;
  gsize length = 0;
  static const gchar bytes[] = "<>/='\"&;@$ {}()xX\n";
  GRand *rand = g_rand_new_with_seed(338);
  gchar *path = g_build_filename(test_tmpdir, "mutated.xml", NULL);

  cr_assert(g_file_get_contents(source, &contents, &length, NULL));
  for (gint i = 0; i < 400; i++)
    {
      gchar *copy = g_memdup2(contents, length);
      gint changes = g_rand_int_range(rand, 1, 4);
      for (gint c = 0; c < changes; c++)
        copy[g_rand_int_range(rand, 0, (gint32) length)] = bytes[g_rand_int_range(rand, 0, sizeof(bytes) - 1)];
      cr_assert(g_file_set_contents(path, copy, length, NULL));

      GError *error = NULL;
      GPtrArray *warnings = g_ptr_array_new_with_free_func(g_free);
      PdbLoadOptions options = options_collecting(warnings);
      PdbDatabase *db = pdb_database_load(path, &options, &error);
      if (db)
        cr_expect_null(error, "mutation %d: loaded and set an error", i);
      else
        cr_expect(error && g_str_has_prefix(error->message, path), "mutation %d: %s", i,
                  error ? error->message : "no error");
      pdb_database_unref(db);
      g_clear_error(&error);
      g_ptr_array_unref(warnings);
      g_free(copy);
    }
  g_rand_free(rand);
  g_free(path);
  g_free(contents);
  g_free(source);
}

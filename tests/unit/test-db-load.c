/*
 * test-db-load.c: loading one patterndb file (db/loader.c).
 *
 * Every element and attribute of tests/data/db/full-v6.xml, the accepted
 * and rejected versions, and a table of broken files whose errors must name
 * file:line:column. Columns are computed from a marker text in the row, so
 * a row says "the error points at <bogus" rather than a bare number.
 * Rows marked [pdbtool] were checked with Debian's pdbtool 3.38.1.
 */
#include "test-db-common.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

TestSuite(load, .init = test_tmpdir_setup, .fini = test_tmpdir_teardown);

static PdbDatabase *
load_data_file(const gchar *name, GPtrArray *warnings)
{
  gchar *path = g_build_filename(PDB_TEST_DATA_DIR, name, NULL);
  PdbLoadOptions options = options_collecting(warnings);
  GError *error = NULL;
  PdbDatabase *db = pdb_database_load(path, &options, &error);

  cr_assert_not_null(db, "%s: %s", path, error ? error->message : "");
  g_free(path);
  return db;
}

static const PdbRuleset *
ruleset_named(PdbDatabase *db, const gchar *name)
{
  const GPtrArray *rulesets = pdb_database_get_rulesets(db);

  for (guint i = 0; i < rulesets->len; i++)
    {
      const PdbRuleset *ruleset = g_ptr_array_index(rulesets, i);
      if (g_strcmp0(ruleset->name, name) == 0)
        return ruleset;
    }
  cr_assert_fail("no ruleset named %s", name);
  return NULL;
}

#define STR_AT(array, i) ((const gchar *) g_ptr_array_index((array), (i)))

Test(load, full_file_header_and_rulesets)
{
  GPtrArray *warnings = g_ptr_array_new_with_free_func(g_free);
  PdbDatabase *db = load_data_file("full-v6.xml", warnings);

  cr_expect_eq(warnings->len, 0, "no warnings expected");
  cr_expect_str_eq(pdb_database_get_version(db), "6");
  cr_expect_str_eq(pdb_database_get_pub_date(db), "2024-05-01");
  cr_expect_eq(pdb_database_get_files(db)->len, 1);
  cr_expect(g_str_has_suffix(STR_AT(pdb_database_get_files(db), 0), "full-v6.xml"));

  const PdbRuleset *sshd = ruleset_named(db, "sshd");
  cr_expect_str_eq(sshd->id, "rs-sshd");
  cr_expect_str_eq(sshd->description, "OpenSSH server");
  cr_assert_eq(sshd->urls->len, 2);
  cr_expect_str_eq(STR_AT(sshd->urls, 0), "https://www.openssh.com/");
  cr_expect_str_eq(STR_AT(sshd->urls, 1), "https://man.openbsd.org/sshd");
  cr_assert_eq(sshd->program_patterns->len, 2);
  cr_expect_str_eq(STR_AT(sshd->program_patterns, 0), "sshd");
  cr_expect_str_eq(STR_AT(sshd->program_patterns, 1), "ssh2d");
  cr_expect_eq(sshd->rules->len, 2);
  cr_expect_eq(sshd->location.line, 5);
  cr_expect_eq(sshd->location.column, 3);

  /* The ruleset without <pattern> is the catch-all. */
  const PdbRuleset *any = pdb_database_get_catch_all_ruleset(db);
  cr_assert_not_null(any);
  cr_expect_str_eq(any->name, "fallback");
  cr_expect_eq(any->program_patterns->len, 0);
  cr_expect_eq(any->rules->len, 1);

  cr_expect_eq(pdb_database_get_rules(db)->len, 3);
  pdb_database_unref(db);
  g_ptr_array_unref(warnings);
}

Test(load, full_file_rule)
{
  GPtrArray *warnings = g_ptr_array_new_with_free_func(g_free);
  PdbDatabase *db = load_data_file("full-v6.xml", warnings);
  const PdbRule *rule = pdb_database_find_rule(db, "r-accept");

  cr_assert_not_null(rule);
  cr_expect_str_eq(rule->class_name, "system");
  cr_expect_str_eq(rule->class_tag, ".classifier.system");
  cr_expect_str_eq(rule->provider, "test");
  cr_expect_str_eq(rule->context_id, "ssh-$user");
  cr_expect_not_null(rule->context_id_template);
  cr_expect_eq(rule->context_timeout, 30, "context-timeout is read with strtol base 0 (0x1e)");
  cr_expect_eq(rule->context_scope, PDB_SCOPE_HOST);
  cr_expect_str_eq(rule->description, "A user logged in");
  cr_assert_eq(rule->urls->len, 1);
  cr_expect_str_eq(STR_AT(rule->urls, 0), "https://example.org/accept");
  cr_expect_eq(rule->location.line, 16);
  cr_expect_eq(rule->location.column, 7);
  cr_expect(g_str_has_suffix(rule->location.file, "full-v6.xml"));

  cr_assert_eq(rule->patterns->len, 2);
  cr_expect_str_eq(STR_AT(rule->patterns, 0),
                   "Accepted @ESTRING:method: @for @ESTRING:user: @from @ANYSTRING:rest@");
  cr_assert_not_null(rule->pattern_places);
  /* [pdbtool] dump shows a pattern at the column after its text, plus one. */
  const PdbLocation *location = &rule->pattern_places[0].at;
  cr_expect_eq(location->line, 22);
  cr_expect_eq(location->column, 89);

  cr_assert_eq(rule->tags->len, 2);
  cr_expect_str_eq(STR_AT(rule->tags, 0), "usracct");
  cr_expect_str_eq(STR_AT(rule->tags, 1), "secevt");

  static const struct
  {
    const gchar *name;
    const gchar *text;
    const gchar *type;
    PdbValueType value_type;
  } values[] =
  {
    { "usracct.type", "login", NULL, PDB_VALUE_STRING },
    { "usracct.username", "${user}@0", "string", PDB_VALUE_STRING },
    { "port", "$port", "int64", PDB_VALUE_INT64 },
    { "weight", "double(1.5)", NULL, PDB_VALUE_DOUBLE },
  };
  cr_assert_eq(rule->values->len, G_N_ELEMENTS(values));
  for (gsize i = 0; i < G_N_ELEMENTS(values); i++)
    {
      const PdbValueDef *value = g_ptr_array_index(rule->values, i);
      cr_expect_str_eq(value->name, values[i].name, "value %zu", i);
      cr_expect_str_eq(value->template_text, values[i].text, "value %zu", i);
      cr_expect_eq(g_strcmp0(value->type, values[i].type), 0, "value %zu type %s", i, value->type);
      cr_expect_eq(value->value_type, values[i].value_type, "value %zu value type", i);
      cr_expect_not_null(value->compiled, "value %zu", i);
    }

  pdb_database_unref(db);
  g_ptr_array_unref(warnings);
}

Test(load, full_file_examples)
{
  GPtrArray *warnings = g_ptr_array_new_with_free_func(g_free);
  PdbDatabase *db = load_data_file("full-v6.xml", warnings);
  const PdbRule *rule = pdb_database_find_rule(db, "r-accept");

  cr_assert_eq(rule->examples->len, 2);
  const PdbExample *example = g_ptr_array_index(rule->examples, 0);
  cr_expect_str_eq(example->program, "sshd");
  cr_expect_str_eq(example->message, "Accepted password for bob from 10.0.0.1 port 22 ssh2");
  cr_expect_eq(example->location.line, 37);
  cr_assert_eq(example->test_values->len, 2);
  const PdbTestValue *tv = g_ptr_array_index(example->test_values, 0);
  cr_expect_str_eq(tv->name, "user");
  cr_expect_str_eq(tv->value, "bob");
  cr_expect_null(tv->type);
  tv = g_ptr_array_index(example->test_values, 1);
  cr_expect_str_eq(tv->name, "method");
  cr_expect_str_eq(tv->type, "string");

  example = g_ptr_array_index(rule->examples, 1);
  cr_expect_null(example->program, "an example without program is kept; `test` skips it");
  cr_expect_eq(example->test_values->len, 0);

  pdb_database_unref(db);
  g_ptr_array_unref(warnings);
}

Test(load, full_file_actions)
{
  GPtrArray *warnings = g_ptr_array_new_with_free_func(g_free);
  PdbDatabase *db = load_data_file("full-v6.xml", warnings);
  const PdbRule *rule = pdb_database_find_rule(db, "r-accept");

  cr_assert_eq(rule->actions->len, 3);

  const PdbAction *action = g_ptr_array_index(rule->actions, 0);
  cr_expect_eq(action->trigger, PDB_TRIGGER_MATCH);
  cr_expect_str_eq(action->condition, "\"${user}\" == \"root\"");
  cr_expect_eq(action->rate_count, 2);
  cr_expect_eq(action->rate_period, 60);
  cr_expect(action->has_message);
  cr_expect_not(action->creates_context);
  cr_expect_eq(action->message.inherit_mode, PDB_INHERIT_CONTEXT);
  cr_assert_eq(action->message.values->len, 1);
  cr_expect_str_eq(((PdbValueDef *) g_ptr_array_index(action->message.values, 0))->name, "MESSAGE");
  cr_assert_eq(action->message.tags->len, 1);
  cr_expect_str_eq(STR_AT(action->message.tags, 0), "alert");
  cr_expect_eq(action->location.line, 48);

  action = g_ptr_array_index(rule->actions, 1);
  cr_expect_eq(action->trigger, PDB_TRIGGER_TIMEOUT);
  cr_expect_null(action->condition);
  cr_expect_eq(action->rate_count, 0);
  cr_expect_not(action->has_message);
  cr_expect(action->creates_context);
  cr_expect_str_eq(action->create_context_id, "after-$user");
  cr_expect_not_null(action->create_context_id_template);
  cr_expect_eq(action->create_context_timeout, 60);
  cr_expect_eq(action->create_context_scope, PDB_SCOPE_GLOBAL);
  cr_expect_eq(action->message.inherit_mode, PDB_INHERIT_LAST_MESSAGE, "inherit-properties=TRUE");
  cr_assert_eq(action->message.values->len, 1, "a <value> directly inside <message>");
  cr_expect_str_eq(((PdbValueDef *) g_ptr_array_index(action->message.values, 0))->name, "stage");
  cr_assert_eq(action->message.tags->len, 1, "a <tag> directly inside <message>");

  action = g_ptr_array_index(rule->actions, 2);
  cr_expect_eq(action->rate_count, 5);
  cr_expect_eq(action->rate_period, 1, "rate N means N per second");
  cr_expect_eq(action->message.inherit_mode, PDB_INHERIT_CONTEXT, "inherit-properties=context");

  pdb_database_unref(db);
  g_ptr_array_unref(warnings);
}

Test(load, rule_children_without_containers)
{
  /* [pdbtool] 3.38 accepts <pattern>, <tag>, <value> and <url> directly in <rule>. */
  GPtrArray *warnings = g_ptr_array_new_with_free_func(g_free);
  PdbDatabase *db = load_data_file("full-v6.xml", warnings);
  const PdbRule *rule = pdb_database_find_rule(db, "r-direct");

  cr_assert_not_null(rule);
  cr_expect_str_eq(rule->class_name, "auth");
  cr_assert_eq(rule->patterns->len, 1);
  cr_expect_str_eq(STR_AT(rule->patterns, 0), "direct @STRING:word@");
  cr_assert_eq(rule->tags->len, 1);
  cr_expect_str_eq(STR_AT(rule->tags, 0), "direct-tag");
  cr_assert_eq(rule->values->len, 1);
  cr_assert_eq(rule->urls->len, 1);

  const PdbRule *any = pdb_database_find_rule(db, "r-any");
  cr_assert_not_null(any);
  cr_expect_str_eq(any->class_name, "system", "class defaults to system");
  cr_expect_str_eq(any->class_tag, ".classifier.system");
  cr_expect_str_eq(any->provider, "test");
  cr_expect_null(any->context_id);
  cr_expect_eq(any->context_scope, PDB_SCOPE_PROCESS);
  pdb_database_unref(db);
  g_ptr_array_unref(warnings);
}

/* ---- small databases from strings ------------------------------------- */

#define RULESET(rules) "<ruleset name='p' id='rs'><pattern>p</pattern><rules>" rules "</rules></ruleset>"
#define RULE(attrs, body) "<rule id='a' " attrs "><patterns><pattern>foo</pattern></patterns>" body "</rule>"
#define DB4(body) "<patterndb version='4' pub_date='2024-01-01'>" body "</patterndb>"

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
  { DB4(RULESET(RULE("", "<values><value name='v' type='integer'>1</value></values>"))), "<value ", 0,
    PDB_DB_ERROR_STRUCTURE, "rule 'a': value 'v': unknown type 'integer', expected one of " PDB_TYPE_HINT_NAMES },
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

Test(load, broken_files_name_file_line_column)
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

Test(load, malformed_xml_reports_libxml_position)
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

Test(load, accepted_versions)
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

Test(load, entities_and_cdata_decode)
{
  gchar *path = write_file("e.xml",
                           "<patterndb version='4' pub_date='a&amp;b'><ruleset name='x&lt;y' id='r'>"
                           "<pattern>p</pattern><rules>"
                           "<rule id='a&amp;b&#38;c&amp;#38;' class='c&quot;'><patterns>"
                           "<pattern><![CDATA[x<y]]>&amp;&#65;</pattern></patterns></rule>"
                           "</rules></ruleset></patterndb>");
  GError *error = NULL;
  PdbDatabase *db = pdb_database_load(path, NULL, &error);

  cr_assert_not_null(db, "%s", error ? error->message : "");
  cr_expect_str_eq(pdb_database_get_pub_date(db), "a&b");
  const PdbRule *rule = g_ptr_array_index(pdb_database_get_rules(db), 0);
  cr_expect_str_eq(rule->id, "a&b&c&#38;");
  cr_expect_str_eq(rule->class_name, "c\"");
  /* as 3.38: a CDATA section gives nothing and ends a piece of text, each
   * piece a pattern of its own */
  cr_assert_eq(rule->patterns->len, 2);
  cr_expect_str_eq(STR_AT(rule->patterns, 0), "");
  cr_expect_str_eq(STR_AT(rule->patterns, 1), "&A");
  cr_expect_str_eq(ruleset_named(db, "x<y")->id, "r");
  pdb_database_unref(db);
  g_free(path);
}

Test(load, pattern_text_is_verbatim)
{
  /* Leading and trailing blanks of a <pattern> are significant. */
  gchar *path = write_file("w.xml", DB4(RULESET("<rule id='a'><patterns><pattern>  two  spaces </pattern>"
                                                "</patterns></rule>")));
  PdbDatabase *db = pdb_database_load(path, NULL, NULL);

  cr_assert_not_null(db);
  const PdbRule *rule = pdb_database_find_rule(db, "a");
  cr_expect_str_eq(STR_AT(rule->patterns, 0), "  two  spaces ");
  pdb_database_unref(db);
  g_free(path);
}

Test(load, class_tag_is_cut_at_31_bytes)
{
  /* [pdbtool] class abcdefghijklmnopqrstuvwxyz -> tag .classifier.abcdefghijklmnopqrs */
  gchar *path = write_file("c.xml", DB4(RULESET(RULE("class='abcdefghijklmnopqrstuvwxyz'", ""))));
  PdbDatabase *db = pdb_database_load(path, NULL, NULL);

  cr_assert_not_null(db);
  const PdbRule *rule = pdb_database_find_rule(db, "a");
  cr_expect_str_eq(rule->class_name, "abcdefghijklmnopqrstuvwxyz");
  cr_expect_str_eq(rule->class_tag, ".classifier.abcdefghijklmnopqrs");
  cr_expect_eq(strlen(rule->class_tag), 31);
  pdb_database_unref(db);
  g_free(path);
}

Test(load, context_timeout_and_duplicate_ids)
{
  gchar *path = write_file("t.xml",
                           DB4(RULESET("<rule id='a' context-timeout='010'><pattern>x</pattern></rule>"
                                       "<rule id='a' context-timeout='12s'><pattern>y</pattern></rule>")));
  GPtrArray *warnings = g_ptr_array_new_with_free_func(g_free);
  PdbLoadOptions options = options_collecting(warnings);
  PdbDatabase *db = pdb_database_load(path, &options, NULL);

  cr_assert_not_null(db, "duplicate rule ids are not a load error (3.38 leaves them to the XSD)");
  const GPtrArray *rules = pdb_database_get_rules(db);
  cr_assert_eq(rules->len, 2);
  cr_expect_eq(((PdbRule *) g_ptr_array_index(rules, 0))->context_timeout, 8, "strtol base 0: 010 is octal");
  cr_expect_eq(((PdbRule *) g_ptr_array_index(rules, 1))->context_timeout, 12);
  cr_expect_eq(pdb_database_find_rule(db, "a"), g_ptr_array_index(rules, 0), "the first rule with an id wins");
  cr_assert_eq(warnings->len, 1, "a timeout with trailing text warns");
  cr_expect(strstr(STR_AT(warnings, 0), "context-timeout '12s' is not a whole number, using 12") != NULL,
            "got: %s", STR_AT(warnings, 0));
  pdb_database_unref(db);
  g_ptr_array_unref(warnings);
  g_free(path);
}

Test(load, merged_rulesets_and_aliases)
{
  /* [pdbtool] T1/T3/T5: same first pattern merges, a new alias joins, a first
   * pattern that is another ruleset's alias merges into that ruleset. */
  gchar *path = write_file("j.xml", DB4(
                             "<ruleset name='A' id='A'><patterns><pattern>a</pattern><pattern>b</pattern></patterns>"
                             "<rules><rule id='ra'><pattern>one</pattern></rule></rules></ruleset>"
                             "<ruleset name='B' id='B'><patterns><pattern>a</pattern></patterns>"
                             "<rules><rule id='rb'><pattern>two</pattern></rule></rules></ruleset>"
                             "<ruleset name='D' id='D'><patterns><pattern>a</pattern><pattern>d</pattern></patterns>"
                             "<rules><rule id='rd'><pattern>three</pattern></rule></rules></ruleset>"
                             "<ruleset name='E' id='E'><rules><rule id='re'><pattern>four</pattern></rule></rules>"
                             "<pattern>b</pattern></ruleset>"));
  GError *error = NULL;
  PdbDatabase *db = pdb_database_load(path, NULL, &error);

  cr_assert_not_null(db, "%s", error ? error->message : "");
  const PdbRuleset *a = ruleset_named(db, "A");
  cr_expect_eq(pdb_database_get_rulesets(db)->len, 2, "ruleset A and the catch-all");
  cr_assert_eq(a->program_patterns->len, 3);
  cr_expect_str_eq(STR_AT(a->program_patterns, 0), "a");
  cr_expect_str_eq(STR_AT(a->program_patterns, 1), "b");
  cr_expect_str_eq(STR_AT(a->program_patterns, 2), "d");
  cr_assert_eq(a->rules->len, 4);
  static const gchar *const ids[] = { "ra", "rb", "rd", "re" };
  for (guint i = 0; i < 4; i++)
    cr_expect_str_eq(((PdbRule *) g_ptr_array_index(a->rules, i))->id, ids[i], "rule %u", i);
  pdb_database_unref(db);
  g_free(path);
}

Test(load, catch_all_exists_with_any_ruleset)
{
  /* [pdbtool] with any ruleset, an unmatched program is "unknown"; with none, untouched. */
  gchar *with = write_file("with.xml", DB4("<ruleset><pattern>p</pattern></ruleset>"));
  gchar *without = write_file("without.xml", DB4(""));
  PdbDatabase *db = pdb_database_load(with, NULL, NULL);

  cr_assert_not_null(db);
  cr_expect_not_null(pdb_database_get_catch_all_ruleset(db));
  pdb_database_unref(db);

  db = pdb_database_load(without, NULL, NULL);
  cr_assert_not_null(db);
  cr_expect_null(pdb_database_get_catch_all_ruleset(db));
  cr_expect_eq(pdb_database_get_rulesets(db)->len, 0);
  pdb_database_unref(db);
  g_free(with);
  g_free(without);
}

Test(load, capture_prefix_applies_to_value_names)
{
  gchar *path = write_file("p.xml", DB4(RULESET(RULE("", "<values><value name='v'>x</value></values>"
                                                     "<actions><action><message><value name='m'>y</value>"
                                                     "</message></action></actions>"))));
  PdbLoadOptions options = { 0 };
  options.capture_prefix = "pfx.";
  PdbDatabase *db = pdb_database_load(path, &options, NULL);

  cr_assert_not_null(db);
  const PdbRule *rule = pdb_database_find_rule(db, "a");
  cr_expect_str_eq(((PdbValueDef *) g_ptr_array_index(rule->values, 0))->name, "pfx.v");
  const PdbAction *action = g_ptr_array_index(rule->actions, 0);
  cr_expect_str_eq(((PdbValueDef *) g_ptr_array_index(action->message.values, 0))->name, "pfx.m");
  cr_expect_str_eq(rule->class_tag, ".classifier.system", "the prefix never touches .classifier.*");
  pdb_database_unref(db);
  g_free(path);
}

Test(load, pattern_problems_are_warnings_naming_rule_and_position)
{
  /* [pdbtool] duplicates, unknown parsers and a stray '@' only log; the rest loads. */
  const gchar *xml = DB4(RULESET("<rule id='r1'><pattern>dup</pattern></rule>"
                                 "<rule id='r2'><pattern>dup</pattern></rule>"
                                 "<rule id='r3'><pattern>x @IPV4:ip@</pattern></rule>"
                                 "<rule id='r4'><pattern>mail me@host</pattern></rule>"
                                 "<rule id='r5'><pattern>fine</pattern></rule>"));
  gchar *path = write_file("w.xml", xml);
  GPtrArray *warnings = g_ptr_array_new_with_free_func(g_free);
  PdbLoadOptions options = options_collecting(warnings);
  GError *error = NULL;
  PdbDatabase *db = pdb_database_load(path, &options, &error);

  cr_assert_not_null(db, "%s", error ? error->message : "");
  cr_assert_eq(pdb_database_get_rules(db)->len, 5);
  gchar *all = join_warnings(warnings);
  cr_assert_eq(warnings->len, 3, "warnings:\n%s", all);

  /* The engine's message follows "file:line:column: rule 'ID': ", where the
   * position is inside the pattern's text (first..last+1). */
  static const struct
  {
    const gchar *rule;
    const gchar *pattern;
    const gchar *explains;      /* a word of the engine's explanation */
  } rows[] =
  {
    { "r2", "dup</pattern></rule><rule id='r3'>", "duplicate" },
    { "r3", "x @IPV4:ip@", "IPV4" },
    { "r4", "mail me@host", "@@" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS(rows); i++)
    {
      const gchar *warning = STR_AT(warnings, i);
      const gchar *at = strstr(xml, rows[i].pattern);
      gint first = (gint) (at - xml) + 1;
      gint last = first + (gint) (strchr(rows[i].pattern, '<') ? strchr(rows[i].pattern, '<') - rows[i].pattern
                                                               : (gssize) strlen(rows[i].pattern));
      gchar *file_prefix = g_strdup_printf("%s:1:", path);
      gchar *rule_part = g_strdup_printf(": rule '%s': ", rows[i].rule);
      gint column = 0;

      cr_expect(g_str_has_prefix(warning, file_prefix), "row %zu: '%s' should start with '%s'", i, warning, file_prefix);
      if (g_str_has_prefix(warning, file_prefix))
        column = atoi(warning + strlen(file_prefix));
      cr_expect(column >= first && column <= last, "row %zu: column %d outside the pattern (%d..%d): %s",
                i, column, first, last, warning);
      const gchar *rest = strstr(warning, rule_part);
      cr_expect_not_null(rest, "row %zu: '%s' should contain '%s'", i, warning, rule_part);
      if (rest)
        {
          rest += strlen(rule_part);
          cr_expect(!g_str_has_prefix(rest, path), "row %zu: the location is not repeated: %s", i, warning);
          cr_expect(strstr(rest, rows[i].explains) != NULL, "row %zu: '%s' should explain with '%s'",
                    i, warning, rows[i].explains);
        }
      g_free(file_prefix);
      g_free(rule_part);
    }
  g_free(all);
  pdb_database_unref(db);
  g_ptr_array_unref(warnings);
  g_free(path);
}

Test(load, io_errors_name_the_path)
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

Test(load, billion_laughs_is_refused_quickly)
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

Test(load, every_truncation_fails_cleanly)
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

Test(load, bad_program_pattern_is_a_warning)
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

Test(load, many_rules_load_without_quadratic_work)
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

Test(load, mutated_files_load_or_fail_cleanly)
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

Test(load, action_keeps_the_last_kind)
{
  /* [pdbtool] 3.38 loads an <action> with <message> and <create-context>
   * and keeps the kind of the last one */
  GPtrArray *warnings = g_ptr_array_new_with_free_func(g_free);
  PdbLoadOptions options = options_collecting(warnings);
  gchar *path = write_file("k.xml", DB4(RULESET(RULE("", "<actions><action><message><tag>m</tag></message>"
                                                         "<create-context context-id='x'/></action></actions>"))));
  PdbDatabase *db = pdb_database_load(path, &options, NULL);

  cr_assert_not_null(db);
  const PdbRule *rule = pdb_database_find_rule(db, "a");
  const PdbAction *action = g_ptr_array_index(rule->actions, 0);
  cr_expect(action->creates_context);
  cr_expect_not(action->has_message);
  cr_expect_eq(action->message.tags->len, 0, "the tags of the earlier <message> are dropped");
  cr_expect_str_eq(action->create_context_id, "x");
  cr_assert_eq(warnings->len, 1);
  cr_expect(strstr(g_ptr_array_index(warnings, 0), "keeps the last kind"), "%s",
            (const gchar *) g_ptr_array_index(warnings, 0));
  pdb_database_unref(db);
  g_ptr_array_unref(warnings);
  g_free(path);
}

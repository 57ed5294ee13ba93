/*
 * test-db-load.c: loading one patterndb file (db/loader*.c).
 *
 * Every element and attribute of tests/data/db/full-v6.xml, entities and
 * CDATA, verbatim pattern text, class tags, merged rulesets, the capture
 * prefix, pattern problems as warnings, program patterns, many rules
 * (across the database's rule blocks), an action with both kinds. What the loader refuses is in
 * test-db-load-errors.c. Rows marked [pdbtool] were checked with Debian's
 * pdbtool 3.38.1.
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

  cr_assert_eq(rule->n_patterns, 2);
  cr_expect_str_eq(rule->pattern_places[0].text,
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
  cr_assert_eq(rule->n_patterns, 1);
  cr_expect_str_eq(rule->pattern_places[0].text, "direct @STRING:word@");
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
  cr_assert_eq(rule->n_patterns, 2);
  cr_expect_str_eq(rule->pattern_places[0].text, "");
  cr_expect_str_eq(rule->pattern_places[1].text, "&A");
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
  cr_expect_str_eq(rule->pattern_places[0].text, "  two  spaces ");
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

/* Rules live in blocks of PDB_RULE_BLOCK and keep their first pattern
 * inline: across several blocks every rule keeps its index, its patterns
 * in file order and its place in the id index (the first of an id wins). */
Test(load, rules_across_blocks_keep_order_patterns_and_ids)
{
  const guint count = 3 * 128 + 7;
  GString *xml = g_string_new("<patterndb version='4' pub_date='2024-01-01'>"
                              "<ruleset name='p' id='rs'><pattern>p</pattern><rules>");

  for (guint i = 0; i < count; i++)
    {
      g_string_append_printf(xml, "<rule id='r%u'><patterns>", i % 300);
      for (guint k = 0; k <= i % 3; k++)
        g_string_append_printf(xml, "<pattern>rule %u pattern %u @NUMBER:n%u@</pattern>", i, k, k);
      g_string_append(xml, "</patterns></rule>");
    }
  g_string_append(xml, "</rules></ruleset></patterndb>");
  gchar *path = write_file("blocks.xml", xml->str);
  PdbDatabase *db = pdb_database_load(path, NULL, NULL);

  cr_assert_not_null(db);
  const GPtrArray *rules = pdb_database_get_rules(db);
  cr_assert_eq(rules->len, count);
  for (guint i = 0; i < count; i++)
    {
      const PdbRule *rule = g_ptr_array_index(rules, i);
      gchar *id = g_strdup_printf("r%u", i % 300);

      cr_expect_eq(rule->index, i);
      cr_expect_str_eq(rule->id, id);
      cr_assert_eq(rule->n_patterns, i % 3 + 1, "rule %u", i);
      for (guint k = 0; k < rule->n_patterns; k++)
        {
          gchar *text = g_strdup_printf("rule %u pattern %u @NUMBER:n%u@", i, k, k);
          cr_expect_str_eq(rule->pattern_places[k].text, text);
          g_free(text);
        }
      cr_expect(rule->pattern_places[0].at.line > 0);
      cr_expect_eq(pdb_database_find_rule(db, id), g_ptr_array_index(rules, i % 300),
                   "the first rule with id %s wins", id);
      g_free(id);
    }
  pdb_database_unref(db);
  g_string_free(xml, TRUE);
  g_free(path);
}

/*
 * test-db-name-registry.c: the names and tags a database mentions, in the
 * order the loader meets them (db/name-registry.h). The tool numbers
 * values in this order, which is the order `match` prints them in; the
 * golden and differential tests compare that output with pdbtool 3.38.
 */
#include "test-db-common.h"

TestSuite(name_registry, .init = test_tmpdir_setup, .fini = test_tmpdir_teardown);

static PdbDatabase *
load_recording(const gchar *path)
{
  PdbLoadOptions options = { 0 };
  GError *error = NULL;
  PdbDatabase *db;

  options.record_names = TRUE;
  db = pdb_database_load(path, &options, &error);
  cr_assert_not_null(db, "%s: %s", path, error ? error->message : "");
  cr_assert_not_null(pdb_database_get_name_registry(db));
  return db;
}

static gchar *
joined(const GPtrArray *strings)
{
  GString *out = g_string_new(NULL);

  for (guint i = 0; i < strings->len; i++)
    g_string_append_printf(out, "%s%s", i ? " " : "", (const gchar *) g_ptr_array_index(strings, i));
  return g_string_free(out, FALSE);
}

static void
expect_order(const PdbDatabase *db, const gchar *names, const gchar *tags)
{
  const PdbNameRegistry *registry = pdb_database_get_name_registry(db);
  gchar *got_names = joined(pdb_name_registry_get_names(registry));
  gchar *got_tags = joined(pdb_name_registry_get_tags(registry));

  cr_expect_str_eq(got_names, names);
  cr_expect_str_eq(got_tags, tags);
  g_free(got_names);
  g_free(got_tags);
}

#define HEAD "<?xml version='1.0'?>\n<patterndb version='4' pub_date='2026-01-01'>\n"

/* context-id when <rule> opens, then <value>s and the action's condition
 * and message as read; a ruleset's capture names when it closes; program
 * patterns at the end; every name once, where it was met first. */
Test(name_registry, one_file_in_load_order)
{
  gchar *path = write_file("db.xml", HEAD
    "<ruleset name='r1' id='r1'><pattern>prog1</pattern><rules>\n"
    " <rule id='a' class='system' context-id='$ctx'>\n"
    "  <patterns><pattern>first @ESTRING:p1: @@@ @NUMBER:p2@</pattern></patterns>\n"
    "  <tags><tag>t1</tag></tags>\n"
    "  <values><value name='v1'>${vref:-x} $p1</value></values>\n"
    "  <actions><action condition='\"${cond}\" == \"1\" and tags(\"ct\")'>\n"
    "   <message><values><value name='m'>$mref</value></values><tags><tag>mt</tag></tags></message>\n"
    "  </action></actions>\n"
    " </rule>\n"
    "</rules></ruleset>\n"
    "<ruleset name='r2' id='r2'><pattern>@STRING:progcap@</pattern><rules>\n"
    " <rule id='b' class='violation'><patterns><pattern>second @ANYSTRING:p3@</pattern></patterns>\n"
    "  <tags><tag>t1</tag></tags>\n"
    "  <values><value name='v2'>$p1 $later</value></values></rule>\n"
    "</rules></ruleset>\n"
    "</patterndb>\n");
  PdbDatabase *db = load_recording(path);

  expect_order(db, "ctx vref p1 cond mref p2 later p3 progcap",
               ".classifier.system t1 ct mt .classifier.violation");
  pdb_database_unref(db);
  g_free(path);
}

/* Files of a directory load in path order: a name first met in the second
 * file comes after every name of the first, and one met again keeps its
 * place; a ruleset merged into an earlier one still registers at its own
 * closing tag. */
Test(name_registry, merged_files)
{
  write_file("dir/1.xml", HEAD
    "<ruleset name='r' id='r'><pattern>p</pattern><rules>\n"
    " <rule id='a'><patterns><pattern>a @ESTRING:x: @</pattern></patterns></rule>\n"
    "</rules></ruleset></patterndb>\n");
  write_file("dir/2.xml", HEAD
    "<ruleset name='r' id='r'><pattern>p</pattern><rules>\n"
    " <rule id='b'><patterns><pattern>b @ESTRING:y: @ @ESTRING:x: @</pattern></patterns>\n"
    "  <values><value name='v'>$z</value></values></rule>\n"
    "</rules></ruleset></patterndb>\n");
  gchar *dir = g_build_filename(test_tmpdir, "dir", NULL);
  PdbDatabase *db = load_recording(dir);

  expect_order(db, "x z y", ".classifier.system");
  pdb_database_unref(db);
  g_free(dir);
}

/* The loader takes a ruleset's capture names from the engine's parse of
 * each pattern (each shared parser once); a pattern the engine refuses
 * (an unknown parser type, a duplicate) still registers its names, read
 * from its text, in their place. */
Test(name_registry, names_of_refused_patterns_keep_their_place)
{
  gchar *path = write_file("db.xml", HEAD
    "<ruleset name='r' id='r'><pattern>p</pattern><rules>\n"
    " <rule id='a'><patterns><pattern>a @ESTRING:x: @ @NUMBER:n@</pattern></patterns></rule>\n"
    " <rule id='b'><patterns><pattern>b @NOSUCH:bad@ @ESTRING:after: @</pattern></patterns></rule>\n"
    " <rule id='c'><patterns><pattern>c @ESTRING:x: @ @NUMBER:m@ @NUMBER::@ @NUMBER@</pattern>"
    "</patterns></rule>\n"
    " <rule id='d'><patterns><pattern>a @ESTRING:x: @ @NUMBER:n@</pattern>"
    "<pattern>d @ESTRING:late: @</pattern></patterns></rule>\n"
    " <rule id='e'><patterns><pattern>e @ESTRING:dup:x@ @NUMBER:n@</pattern></patterns></rule>\n"
    "</rules></ruleset>\n"
    "<ruleset name='s' id='s'><pattern>q</pattern><rules>\n"
    " <rule id='f'><patterns><pattern>f @NUMBER:n@ @ESTRING:x: @ @QSTRING:q:'@</pattern></patterns></rule>\n"
    "</rules></ruleset></patterndb>\n");
  GPtrArray *warnings = g_ptr_array_new_with_free_func(g_free);
  PdbLoadOptions options = { 0 };
  GError *error = NULL;

  options.record_names = TRUE;
  options.warning = collect_warning;
  options.warning_data = warnings;
  PdbDatabase *db = pdb_database_load(path, &options, &error);
  cr_assert_not_null(db, "%s", error ? error->message : "");
  /* rule b's pattern and rule d's first pattern were refused */
  cr_expect_eq(warnings->len, 2);
  expect_order(db, "x n bad after m late dup q", ".classifier.system");
  pdb_database_unref(db);
  g_ptr_array_unref(warnings);
  g_free(path);
}

/* Without record_names the database keeps no registry (the daemon). */
Test(name_registry, off_by_default)
{
  gchar *path = write_file("db.xml", HEAD
    "<ruleset name='r' id='r'><rules><rule id='a'><patterns><pattern>a @ESTRING:x: @</pattern>"
    "</patterns></rule></rules></ruleset></patterndb>\n");
  GError *error = NULL;
  PdbDatabase *db = pdb_database_load(path, NULL, &error);

  cr_assert_not_null(db);
  cr_expect_null(pdb_database_get_name_registry(db));
  pdb_database_unref(db);
  g_free(path);
}

/* The registry on its own: pattern and template scanning. */
Test(name_registry, scanners)
{
  PdbNameRegistry *registry = pdb_name_registry_new();
  gchar *got;

  pdb_name_registry_add_pattern(registry, "@@ @NUMBER@ @ESTRING:a: @ @PCRE:b:[0-9]+@ @ESTRING:c");
  pdb_name_registry_add_template(registry, "$(echo ${d}) ${e:-$f} $$ $_g ${a}");
  pdb_name_registry_add_name(registry, "h", -1);
  pdb_name_registry_add_name(NULL, "ignored", -1);
  got = joined(pdb_name_registry_get_names(registry));
  /* a default after ":-" is literal text, not a reference */
  cr_expect_str_eq(got, "a b d e _g h");
  g_free(got);
  pdb_name_registry_free(registry);
}

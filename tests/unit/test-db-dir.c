/*
 * test-db-dir.c: loading a directory or a glob into one database
 * (db/database.c): which files, in which order, and errors that name the
 * file they come from.
 */
#include "test-db-common.h"

#include <unistd.h>

TestSuite(dir, .init = test_tmpdir_setup, .fini = test_tmpdir_teardown);

/* A file with one ruleset for @program and one rule @id matching "m @id". */
static gchar *
db_file(const gchar *program, const gchar *id)
{
  return g_strdup_printf("<patterndb version='4' pub_date='2024-01-01'><ruleset name='%s' id='rs-%s'>"
                         "<pattern>%s</pattern><rules><rule id='%s'><pattern>m %s</pattern></rule>"
                         "</rules></ruleset></patterndb>", program, id, program, id, id);
}

static void
put(const gchar *name, const gchar *program, const gchar *id)
{
  gchar *xml = db_file(program, id);
  g_free(write_file(name, xml));
  g_free(xml);
}

static gchar *
files_relative(PdbDatabase *db)
{
  const GPtrArray *files = pdb_database_get_files(db);
  GString *out = g_string_new(NULL);
  gsize skip = strlen(test_tmpdir) + 1;

  for (guint i = 0; i < files->len; i++)
    {
      const gchar *file = g_ptr_array_index(files, i);
      g_string_append_printf(out, "%s%s", i ? " " : "", strlen(file) > skip ? file + skip : file);
    }
  return g_string_free(out, FALSE);
}

Test(dir, directory_loads_every_xml_and_pdb_sorted_by_path)
{
  put("b.xml", "b", "rb");
  put("a/z.xml", "az", "raz");
  put("a/y.pdb", "ay", "ray");
  put("a/deeper/x.xml", "ax", "rax");
  put("c.pdb", "c", "rc");
  put("ignored.txt", "i", "ri");
  put(".hidden.xml", "h", "rh");
  put(".git/config.xml", "g", "rg");
  put("B.xml", "B", "rB");   /* strcmp: upper case sorts first */

  GError *error = NULL;
  PdbDatabase *db = pdb_database_load(test_tmpdir, NULL, &error);
  cr_assert_not_null(db, "%s", error ? error->message : "");

  gchar *files = files_relative(db);
  cr_expect_str_eq(files, "B.xml a/deeper/x.xml a/y.pdb a/z.xml b.xml c.pdb");
  g_free(files);

  /* Rules keep the load order. */
  const GPtrArray *rules = pdb_database_get_rules(db);
  static const gchar *const ids[] = { "rB", "rax", "ray", "raz", "rb", "rc" };
  cr_assert_eq(rules->len, G_N_ELEMENTS(ids));
  for (guint i = 0; i < rules->len; i++)
    cr_expect_str_eq(((PdbRule *) g_ptr_array_index(rules, i))->id, ids[i], "rule %u", i);

  /* Every file's rules classify. */
  PdbResult result;
  pdb_result_init(&result);
  pdb_database_classify(db, "ay", 2, "m ray", 5, &result);
  cr_expect_eq(result.kind, PDB_RESULT_MATCH);
  cr_expect_str_eq(result.rule ? result.rule->id : "", "ray");
  pdb_result_clear(&result);
  pdb_database_unref(db);
}

Test(dir, same_program_in_two_files_merges)
{
  put("one.xml", "sshd", "r1");
  put("two.xml", "sshd", "r2");
  PdbDatabase *db = pdb_database_load(test_tmpdir, NULL, NULL);

  cr_assert_not_null(db);
  const PdbRuleset *ruleset = pdb_database_find_ruleset(db, "sshd", 4);
  cr_assert_not_null(ruleset);
  cr_expect_eq(ruleset->rules->len, 2);
  cr_expect_str_eq(ruleset->name, "sshd");
  cr_expect(g_str_has_suffix(ruleset->location.file, "one.xml"), "the first file's ruleset is kept");

  PdbResult result;
  pdb_result_init(&result);
  pdb_database_classify(db, "sshd", 4, "m r2", 4, &result);
  cr_expect_str_eq(result.rule ? result.rule->id : "", "r2");
  pdb_result_clear(&result);
  pdb_database_unref(db);
}

Test(dir, glob_loads_matches_sorted)
{
  put("x/2.xml", "p2", "r2");
  put("x/10.xml", "p10", "r10");
  put("x/skip.pdb", "ps", "rs");
  put("y/1.xml", "p1", "r1");
  gchar *pattern = g_build_filename(test_tmpdir, "*", "*.xml", NULL);
  GError *error = NULL;
  PdbDatabase *db = pdb_database_load(pattern, NULL, &error);

  cr_assert_not_null(db, "%s", error ? error->message : "");
  gchar *files = files_relative(db);
  cr_expect_str_eq(files, "x/10.xml x/2.xml y/1.xml");
  g_free(files);
  pdb_database_unref(db);

  /* A glob that names a directory expands it like a directory. */
  g_free(pattern);
  pattern = g_build_filename(test_tmpdir, "[y]", NULL);
  db = pdb_database_load(pattern, NULL, &error);
  cr_assert_not_null(db, "%s", error ? error->message : "");
  files = files_relative(db);
  cr_expect_str_eq(files, "y/1.xml");
  g_free(files);
  pdb_database_unref(db);
  g_free(pattern);
}

Test(dir, errors_name_the_file_or_path)
{
  GError *error = NULL;

  /* A broken file in a directory: the error names that file, and nothing loads. */
  put("a.xml", "a", "ra");
  gchar *bad = write_file("b.xml", "<patterndb version='4'><bogus/></patterndb>");
  cr_expect_null(pdb_database_load(test_tmpdir, NULL, &error));
  cr_assert_not_null(error);
  gchar *expected = g_strdup_printf("%s:1:24: unknown element <bogus> inside <patterndb>, expected one of <ruleset>",
                                    bad);
  cr_expect_str_eq(error->message, expected);
  g_free(expected);
  g_clear_error(&error);

  /* Warnings name their file too. */
  g_unlink(bad);
  gchar *dup = write_file("c.xml", "<patterndb version='4' pub_date='x'><ruleset><pattern>a</pattern><rules>"
                          "<rule id='dup'><pattern>m ra</pattern></rule></rules></ruleset></patterndb>");
  GPtrArray *warnings = g_ptr_array_new_with_free_func(g_free);
  PdbLoadOptions options = options_collecting(warnings);
  PdbDatabase *db = pdb_database_load(test_tmpdir, &options, &error);
  cr_assert_not_null(db, "%s", error ? error->message : "");
  cr_assert_eq(warnings->len, 1);
  cr_expect(g_str_has_prefix(g_ptr_array_index(warnings, 0), dup), "got: %s",
            (gchar *) g_ptr_array_index(warnings, 0));
  cr_expect(strstr(g_ptr_array_index(warnings, 0), "rule 'dup'") != NULL);
  pdb_database_unref(db);
  g_ptr_array_unref(warnings);
  g_free(dup);
  g_free(bad);

  /* A directory without pattern files. */
  gchar *empty = g_build_filename(test_tmpdir, "empty", NULL);
  g_mkdir(empty, 0700);
  g_free(write_file("empty/notes.txt", "x"));
  cr_expect_null(pdb_database_load(empty, NULL, &error));
  cr_assert_not_null(error);
  expected = g_strdup_printf("%s: directory holds no pattern database file (*.xml or *.pdb)", empty);
  cr_expect_str_eq(error->message, expected);
  cr_expect_eq(error->code, PDB_DB_ERROR_IO);
  g_free(expected);
  g_clear_error(&error);

  /* A glob that matches nothing. */
  gchar *glob = g_build_filename(test_tmpdir, "*.nothing", NULL);
  cr_expect_null(pdb_database_load(glob, NULL, &error));
  cr_assert_not_null(error);
  expected = g_strdup_printf("%s: no file matches this pattern", glob);
  cr_expect_str_eq(error->message, expected);
  g_free(expected);
  g_clear_error(&error);

  /* A missing path without glob characters. */
  gchar *missing = g_build_filename(test_tmpdir, "no", "such", NULL);
  cr_expect_null(pdb_database_load(missing, NULL, &error));
  cr_assert_not_null(error);
  expected = g_strdup_printf("%s: cannot open pattern database: No such file or directory", missing);
  cr_expect_str_eq(error->message, expected);
  g_free(expected);
  g_clear_error(&error);

  g_free(empty);
  g_free(glob);
  g_free(missing);
}

Test(dir, symlink_loops_are_walked_once)
{
  put("d/a.xml", "a", "ra");
  gchar *link = g_build_filename(test_tmpdir, "d", "loop", NULL);
  cr_assert_eq(symlink("..", link), 0);
  PdbDatabase *db = pdb_database_load(test_tmpdir, NULL, NULL);

  cr_assert_not_null(db);
  gchar *files = files_relative(db);
  cr_expect_str_eq(files, "d/a.xml");
  g_free(files);
  pdb_database_unref(db);
  g_unlink(link);
  g_free(link);
}

/* pdb_database_list_files() lists what pdb_database_load() would read, in
 * the same order, without reading it (a broken file is listed, not
 * refused); pdb_database_load_files() loads exactly that list. */
Test(dir, list_files_is_what_load_reads)
{
  put("b.xml", "b", "rb");
  put("a/sub/z.xml", "az", "raz");
  put("a/y.pdb", "ay", "ray");
  g_free(write_file("a/sub/broken.xml", "<patterndb"));

  GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
  GError *error = NULL;
  cr_assert(pdb_database_list_files(test_tmpdir, files, &error), "%s", error ? error->message : "");
  GString *listed = g_string_new(NULL);
  for (guint i = 0; i < files->len; i++)
    g_string_append_printf(listed, "%s%s", i ? " " : "",
                           (const gchar *) g_ptr_array_index(files, i) + strlen(test_tmpdir) + 1);
  cr_assert_str_eq(listed->str, "a/sub/broken.xml a/sub/z.xml a/y.pdb b.xml");

  PdbDatabase *db = pdb_database_load_files(files, NULL, &error);
  cr_assert_null(db, "the broken file fails the load of the list");
  cr_assert(strstr(error->message, "broken.xml") != NULL, "%s", error->message);
  g_clear_error(&error);

  g_free(g_ptr_array_steal_index(files, 0));
  db = pdb_database_load_files(files, NULL, &error);
  cr_assert_not_null(db, "%s", error ? error->message : "");
  gchar *loaded = files_relative(db);
  cr_assert_str_eq(loaded, "a/sub/z.xml a/y.pdb b.xml");
  g_free(loaded);
  pdb_database_unref(db);

  gchar *glob = g_build_filename(test_tmpdir, "*.xml", NULL);
  g_ptr_array_set_size(files, 0);
  cr_assert(pdb_database_list_files(glob, files, &error), "%s", error ? error->message : "");
  cr_assert_eq(files->len, 1);
  cr_assert(g_str_has_suffix(g_ptr_array_index(files, 0), "/b.xml"));
  g_free(glob);

  gchar *none = g_build_filename(test_tmpdir, "*.none", NULL);
  g_ptr_array_set_size(files, 0);
  cr_assert_not(pdb_database_list_files(none, files, &error), "a glob without matches means no file");
  cr_assert(strstr(error->message, "no file matches") != NULL, "%s", error->message);
  g_clear_error(&error);
  g_free(none);
  g_string_free(listed, TRUE);
  g_ptr_array_unref(files);
}

static gchar *
list_relative(const gchar *const *paths, GError **error)
{
  GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
  gchar *listed = NULL;

  if (pdb_database_list_paths(paths, files, error))
    {
      GString *out = g_string_new(NULL);
      for (guint i = 0; i < files->len; i++)
        g_string_append_printf(out, "%s%s", i ? " " : "",
                               (const gchar *) g_ptr_array_index(files, i) + strlen(test_tmpdir) + 1);
      listed = g_string_free(out, FALSE);
    }
  g_ptr_array_unref(files);
  return listed;
}

/* file() with several paths (the bundled library and the user's folder):
 * path after path, each file once, an empty folder allowed among others,
 * a missing path or all empty refused. */
Test(dir, several_paths)
{
  put("lib/z.xml", "z", "rz");
  put("lib/a.xml", "a", "ra");
  put("mine/m.xml", "m", "rm");
  gchar *lib = g_build_filename(test_tmpdir, "lib", NULL);
  gchar *mine = g_build_filename(test_tmpdir, "mine", NULL);
  gchar *empty = g_build_filename(test_tmpdir, "empty", NULL);
  gchar *missing = g_build_filename(test_tmpdir, "missing", NULL);
  gchar *again = g_build_filename(test_tmpdir, "mine/again.xml", NULL);
  gchar *target = g_build_filename(test_tmpdir, "lib/a.xml", NULL);
  cr_assert_eq(g_mkdir(empty, 0755), 0);
  cr_assert_eq(symlink(target, again), 0);
  GError *error = NULL;

  const gchar *both[] = { mine, lib, empty, NULL };
  gchar *listed = list_relative(both, &error);
  cr_assert_str_eq(listed, "mine/again.xml mine/m.xml lib/z.xml", "%s", error ? error->message : "");
  g_free(listed);

  const gchar *with_missing[] = { lib, missing, NULL };
  cr_assert_null(list_relative(with_missing, &error));
  cr_assert(strstr(error->message, "missing") != NULL, "%s", error->message);
  g_clear_error(&error);

  const gchar *all_empty[] = { empty, empty, NULL };
  cr_assert_null(list_relative(all_empty, &error));
  cr_assert(strstr(error->message, "none of these paths") != NULL, "%s", error->message);
  g_clear_error(&error);

  const gchar *one_empty[] = { empty, NULL };
  cr_assert_null(list_relative(one_empty, &error), "one empty folder alone stays an error");
  cr_assert(strstr(error->message, "holds no pattern database file") != NULL, "%s", error->message);
  g_clear_error(&error);
  g_free(lib); g_free(mine); g_free(empty); g_free(missing); g_free(again); g_free(target);
}

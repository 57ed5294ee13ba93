/*
 * test-db-schema.c: XSD validation in process (db/schema.c): versions 4
 * and 5 against syslog-ng's schemas, version 6 against ours
 * (contrib/xsd/patterndb-6.xsd), and errors that name file:line.
 */
#include "test-db-common.h"
#include "db/schema.h"

TestSuite(schema, .init = test_tmpdir_setup, .fini = test_tmpdir_teardown);

static gchar *
data_path(const gchar *name)
{
  return g_build_filename(PDB_TEST_DATA_DIR, name, NULL);
}

Test(schema, sniffs_the_version)
{
  static const struct
  {
    const gchar *xml;
    gint version;
  } rows[] =
  {
    { "<?xml version='1.0'?>\n<!-- c -->\n<patterndb version='5' pub_date='x'/>", 5 },
    { "<patterndb pub_date='x'/>", 4 },
    { "<patterndb version='6'><ruleset/></patterndb>", 6 },
  };

  for (gsize i = 0; i < G_N_ELEMENTS(rows); i++)
    {
      gchar *path = write_file("v.xml", rows[i].xml);
      cr_expect_eq(pdb_schema_sniff_version(path, NULL), rows[i].version, "row %zu", i);
      g_free(path);
    }
}

Test(schema, valid_files_validate)
{
  static const gchar *const files[] = { "valid-v4.xml", "valid-v5.xml", "valid-v6.xml" };

  if (!g_file_test("/usr/share/syslog-ng/xsd/patterndb-5.xsd", G_FILE_TEST_EXISTS) && !g_getenv("PDB_XSD_DIR"))
    cr_skip_test("syslog-ng's XSD files are not installed");
  for (gsize i = 0; i < G_N_ELEMENTS(files); i++)
    {
      gchar *path = data_path(files[i]);
      GError *error = NULL;

      cr_expect(pdb_schema_validate_file(path, &error), "%s: %s", files[i], error ? error->message : "");
      g_clear_error(&error);

      /* Through the loader as well. */
      PdbLoadOptions options = { 0 };
      options.validate_schema = TRUE;
      PdbDatabase *db = pdb_database_load(path, &options, &error);
      cr_expect_not_null(db, "%s: %s", files[i], error ? error->message : "");
      pdb_database_unref(db);
      g_clear_error(&error);
      g_free(path);
    }
}

Test(schema, invalid_file_names_file_and_line)
{
  gchar *path = data_path("invalid-v6.xml");
  GError *error = NULL;

  cr_expect_not(pdb_schema_validate_file(path, &error));
  cr_assert_not_null(error);
  cr_expect_eq(error->code, PDB_DB_ERROR_SCHEMA);
  gchar *provider = g_strdup_printf("%s:9: Element 'rule': The attribute 'provider' is required but missing.", path);
  cr_expect(strstr(error->message, provider) != NULL, "got: %s", error->message);
  cr_expect(strstr(error->message, "patterndb-6.xsd") != NULL, "names the schema: %s", error->message);
  g_clear_error(&error);

  /* The same file loads without validation, and fails with it. */
  PdbDatabase *db = pdb_database_load(path, NULL, &error);
  cr_expect_not_null(db, "%s", error ? error->message : "");
  pdb_database_unref(db);
  g_clear_error(&error);

  PdbLoadOptions options = { 0 };
  options.validate_schema = TRUE;
  cr_expect_null(pdb_database_load(path, &options, &error));
  cr_assert_not_null(error);
  cr_expect(strstr(error->message, provider) != NULL, "got: %s", error->message);
  g_clear_error(&error);
  g_free(provider);
  g_free(path);
}

Test(schema, v6_type_attribute_is_checked)
{
  gchar *path = write_file("t.xml",
                           "<patterndb version='6' pub_date='2024-01-01'>\n"
                           "<ruleset name='a' id='a'><rules><rule provider='p' id='r'>\n"
                           "<patterns><pattern>x</pattern></patterns>\n"
                           "<values><value name='v' type='integer'>1</value></values>\n"
                           "</rule></rules></ruleset></patterndb>\n");
  GError *error = NULL;

  cr_expect_not(pdb_schema_validate_file(path, &error));
  cr_assert_not_null(error);
  gchar *line = g_strdup_printf("%s:4: Element 'value', attribute 'type'", path);
  cr_expect(strstr(error->message, line) != NULL, "got: %s", error->message);
  g_clear_error(&error);
  g_free(line);
  g_free(path);
}

Test(schema, xsd_directory_from_environment)
{
  GError *error = NULL;

  g_setenv("PDB_XSD_DIR", test_tmpdir, TRUE);
  g_free(write_file("patterndb-9.xsd", "<xs:schema xmlns:xs='http://www.w3.org/2001/XMLSchema'/>"));
  gchar *found = pdb_schema_find_xsd(9, &error);
  gchar *expected = g_build_filename(test_tmpdir, "patterndb-9.xsd", NULL);
  cr_expect_str_eq(found ? found : "", expected);
  g_free(found);
  g_free(expected);

  cr_expect_null(pdb_schema_find_xsd(42, &error));
  cr_assert_not_null(error);
  cr_expect(strstr(error->message, "no schema patterndb-42.xsd for patterndb version 42") != NULL,
            "got: %s", error->message);
  cr_expect(strstr(error->message, test_tmpdir) != NULL, "lists the directories searched: %s", error->message);
  g_clear_error(&error);
  g_unsetenv("PDB_XSD_DIR");

  /* Our own v6 schema is found in the source tree or the installed directory. */
  found = pdb_schema_find_xsd(6, &error);
  cr_expect_not_null(found, "%s", error ? error->message : "");
  g_clear_error(&error);
  g_free(found);
}

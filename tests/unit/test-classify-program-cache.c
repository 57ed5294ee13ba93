/*
 * test-classify-program-cache.c: the per-thread cache of program lookups
 * in pdb_database_classify() (classify.c) must never change an answer.
 *
 * Program names repeat, alternate, carry captures (never cached), are
 * longer than a cache key, collide in the cache, and the database is
 * reloaded with other answers for the same names (a new tree, possibly at
 * the address of the old one): every classification must give what the
 * database says, whether the PdbResult is reused or fresh.
 */
#include "test-db-common.h"

TestSuite(program_cache, .init = test_tmpdir_setup, .fini = test_tmpdir_teardown);

#define DB(alpha_rule) \
  "<patterndb version='4' pub_date='2024-01-01'>\n" \
  "<ruleset name='a' id='rs-a'><patterns><pattern>alpha</pattern></patterns><rules>\n" \
  " <rule id='" alpha_rule "' class='system'><patterns><pattern>hello</pattern></patterns></rule>\n" \
  "</rules></ruleset>\n" \
  "<ruleset name='b' id='rs-b'><patterns><pattern>beta</pattern>" \
  "<pattern>a-very-long-program-name-of-more-than-32-bytes</pattern></patterns><rules>\n" \
  " <rule id='b1' class='system'><patterns><pattern>hello</pattern></patterns></rule>\n" \
  "</rules></ruleset>\n" \
  "<ruleset name='c' id='rs-c'><patterns><pattern>svc@NUMBER:n@</pattern></patterns><rules>\n" \
  " <rule id='c1' class='system'><patterns><pattern>hello</pattern></patterns></rule>\n" \
  "</rules></ruleset>\n" \
  "</patterndb>\n"

static PdbDatabase *
load(const gchar *xml)
{
  gchar *path = write_file("db.xml", xml);
  PdbLoadOptions options = { 0 };
  GError *error = NULL;
  PdbDatabase *db = pdb_database_load(path, &options, &error);

  cr_assert_not_null(db, "%s", error ? error->message : "");
  g_free(path);
  return db;
}

typedef struct
{
  const gchar *program;
  const gchar *rule;       /* NULL: no ruleset for the name (PDB_RESULT_UNKNOWN, as pdbtool) */
  const gchar *capture;    /* the program capture's value, or NULL for none */
} Row;

/* "alpha" is mapped to @alpha_rule; everything else is the same in both databases. */
static void
check_rows(PdbDatabase *db, const gchar *alpha_rule, PdbResult *reused)
{
  const Row rows[] =
  {
    { "alpha", alpha_rule, NULL },
    { "beta", "b1", NULL },
    { "alpha", alpha_rule, NULL },
    { "svc12", "c1", "12" },
    { "svc7", "c1", "7" },
    { "svc7", "c1", "7" },
    { "gamma", NULL, NULL },
    { "alpha", alpha_rule, NULL },
    { "a-very-long-program-name-of-more-than-32-bytes", "b1", NULL },
    { "a-very-long-program-name-of-more-than-32-bytes", "b1", NULL },
    { "", NULL, NULL },
    { "beta", "b1", NULL },
    { "gamma", NULL, NULL },
  };

  for (gsize i = 0; i < G_N_ELEMENTS(rows); i++)
    {
      const Row *row = &rows[i];
      PdbResult fresh;

      pdb_result_init(&fresh);
      for (gint pass = 0; pass < 2; pass++)
        {
          PdbResult *result = pass == 0 ? reused : &fresh;

          pdb_database_classify(db, row->program, strlen(row->program), "hello", 5, result);
          if (!row->rule)
            {
              cr_expect_eq(result->kind, PDB_RESULT_UNKNOWN, "row %zu '%s' pass %d: kind %d, want unknown",
                           i, row->program, pass, result->kind);
              continue;
            }
          cr_expect_eq(result->kind, PDB_RESULT_MATCH, "row %zu '%s' pass %d: kind %d, want a match",
                       i, row->program, pass, result->kind);
          if (result->kind == PDB_RESULT_MATCH)
            cr_expect_str_eq(result->rule->id, row->rule, "row %zu '%s' pass %d", i, row->program, pass);
          cr_expect_eq(result->program_match.n_captures, row->capture ? 1u : 0u,
                       "row %zu '%s' pass %d: %u program captures", i, row->program, pass,
                       result->program_match.n_captures);
          if (row->capture && result->program_match.n_captures == 1)
            {
              const PdbCapture *c = &result->program_match.captures[0];
              gchar *value = g_strndup(row->program + c->offset, c->length);

              cr_expect_str_eq(value, row->capture, "row %zu '%s' pass %d", i, row->program, pass);
              g_free(value);
            }
        }
      pdb_result_clear(&fresh);
    }
}

Test(program_cache, answers_follow_the_database)
{
  PdbResult result;

  pdb_result_init(&result);
  for (gint round = 0; round < 4; round++)
    {
      /* a reload: the old database is gone before the new one is built */
      const gchar *alpha_rule = round % 2 ? "a2" : "a1";
      PdbDatabase *db = load(round % 2 ? DB("a2") : DB("a1"));

      check_rows(db, alpha_rule, &result);
      check_rows(db, alpha_rule, &result);
      pdb_database_unref(db);
    }
  pdb_result_clear(&result);
}

/* Many names in turn (more than the cache holds), each checked twice. */
Test(program_cache, many_names_collide_without_confusion)
{
  GString *xml = g_string_new("<patterndb version='4' pub_date='2024-01-01'>\n");
  PdbResult result;
  PdbDatabase *db;

  for (gint i = 0; i < 600; i++)
    g_string_append_printf(xml, "<ruleset name='p%d' id='rs%d'><patterns><pattern>prog%d</pattern></patterns>"
                           "<rules><rule id='r%d' class='system'><patterns><pattern>hello</pattern>"
                           "</patterns></rule></rules></ruleset>\n", i, i, i, i);
  g_string_append(xml, "</patterndb>\n");
  db = load(xml->str);
  g_string_free(xml, TRUE);
  pdb_result_init(&result);
  for (gint round = 0; round < 3; round++)
    for (gint k = 0; k < 600; k++)
      {
        gint i = (k * 7919 + round * 13) % 600;
        gchar *program = g_strdup_printf("prog%d", i);
        gchar *want = g_strdup_printf("r%d", i);

        pdb_database_classify(db, program, strlen(program), "hello", 5, &result);
        cr_assert_eq(result.kind, PDB_RESULT_MATCH, "%s: kind %d", program, result.kind);
        cr_assert_str_eq(result.rule->id, want, "%s", program);
        g_free(program);
        g_free(want);
      }
  pdb_result_clear(&result);
  pdb_database_unref(db);
}

/*
 * test-lint.c: the lint checks that claim a proof are never wrong.
 *
 * Random small rulesets (literals and parsers over the bytes "ab1 ") are
 * written to a file, loaded and linted. Then every message of up to 7
 * bytes over that alphabet is classified:
 *   - a pattern reported "shadowed" must never be the winner (complete or
 *     prefix match) of any message;
 *   - a pattern reported "parser-follow" must never match anything, alone
 *     in a tree of its own.
 * The run must find some of each (else the test proves nothing), and a
 * few hand-written cases pin the expected findings.
 */
#include <criterion/criterion.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "db/database.h"
#include "lint/lint.h"

static const gchar *const pieces[] =
{
  "a", "b", " ", "1", "a b", "@STRING:x@", "@STRING:y@", "@NUMBER:n@", "@ANYSTRING:r@",
  "@ESTRING:e: @", "@SET:s:ab@", "@NLSTRING:l@",
};

static gchar *
write_db(GPtrArray *patterns, gchar **dir_out)
{
  GString *xml = g_string_new("<?xml version='1.0'?>\n<patterndb version='4' pub_date='2026-01-01'>\n"
                              "<ruleset name='t' id='t'><patterns><pattern>t</pattern></patterns><rules>\n");
  gchar *dir = g_dir_make_tmp("pdb-lint-XXXXXX", NULL);
  gchar *path = g_build_filename(dir, "db.xml", NULL);

  for (guint i = 0; i < patterns->len; i++)
    g_string_append_printf(xml, "<rule provider='t' id='r%u' class='c'><patterns><pattern>%s</pattern></patterns></rule>\n",
                           i, (const gchar *) g_ptr_array_index(patterns, i));
  g_string_append(xml, "</rules></ruleset></patterndb>\n");
  cr_assert(g_file_set_contents(path, xml->str, -1, NULL));
  g_string_free(xml, TRUE);
  *dir_out = dir;
  return path;
}

static void
ignore_warning(const gchar *message G_GNUC_UNUSED, gpointer user_data G_GNUC_UNUSED)
{
}

/* Calls @func on every string of length 1..@max over @alphabet. */
static void
enumerate(const gchar *alphabet, guint max, void (*func)(const gchar *, gsize, gpointer), gpointer data)
{
  gsize n = strlen(alphabet);
  gchar buf[16];
  guint idx[16];

  for (guint len = 1; len <= max; len++)
    {
      memset(idx, 0, sizeof(idx));
      for (;;)
        {
          for (guint k = 0; k < len; k++)
            buf[k] = alphabet[idx[k]];
          func(buf, len, data);
          guint k = 0;
          while (k < len && ++idx[k] == n)
            idx[k++] = 0;
          if (k == len)
            break;
        }
    }
}

typedef struct
{
  const PdbRuleset *rs;
  GHashTable *shadowed;     /* rule id -> the finding's message */
  GPtrArray *dead;          /* of PdbRadix*: one per parser-follow pattern */
  GPtrArray *dead_texts;
} Check;

static void
check_message(const gchar *msg, gsize len, gpointer data)
{
  Check *c = data;
  PdbMatch m;

  pdb_match_init(&m);
  if (pdb_radix_lookup(c->rs->messages, msg, len, &m))
    {
      const PdbRule *winner = m.value;
      const gchar *why = g_hash_table_lookup(c->shadowed, winner->id);

      cr_assert_null(why, "rule %s (%s) was reported shadowed (%s) but wins '%.*s' (%s match)",
                     winner->id, (const gchar *) winner->pattern_places[0].text, why,
                     (int) len, msg, m.complete ? "complete" : "prefix");
    }
  pdb_match_clear(&m);
  for (guint i = 0; i < c->dead->len; i++)
    {
      pdb_match_init(&m);
      cr_assert_not(pdb_radix_lookup(g_ptr_array_index(c->dead, i), msg, len, &m),
                    "pattern '%s' was reported as never matching but matches '%.*s'",
                    (const gchar *) g_ptr_array_index(c->dead_texts, i), (int) len, msg);
      pdb_match_clear(&m);
    }
}

/* Lints @patterns (one rule each, r0, r1, ...), checks every claim against
 * every short message; returns the findings (caller frees). */
static GPtrArray *
lint_and_verify(GPtrArray *patterns, guint *n_shadowed, guint *n_dead)
{
  gchar *dir, *path = write_db(patterns, &dir);
  PdbLoadOptions options = { .warning = ignore_warning };
  GError *error = NULL;
  PdbDatabase *db = pdb_database_load(path, &options, &error);
  GPtrArray *findings = g_ptr_array_new_with_free_func((GDestroyNotify) pdb_lint_finding_free);
  Check c = { NULL, g_hash_table_new(g_str_hash, g_str_equal), g_ptr_array_new_with_free_func((GDestroyNotify) pdb_radix_free),
              g_ptr_array_new() };

  cr_assert_not_null(db, "load: %s", error ? error->message : "?");
  pdb_lint_database(db, findings);
  c.rs = pdb_database_find_ruleset(db, "t", 1);
  cr_assert_not_null(c.rs);
  for (guint i = 0; i < findings->len; i++)
    {
      const PdbLintFinding *f = g_ptr_array_index(findings, i);
      const gchar *id = g_ptr_array_index(f->rule_ids, 0);

      if (strcmp(f->kind, "shadowed") == 0)
        {
          g_hash_table_insert(c.shadowed, (gpointer) id, f->message);
          (*n_shadowed)++;
        }
      else if (strcmp(f->kind, "parser-follow") == 0)
        {
          const PdbRule *rule = pdb_database_find_rule(db, id);
          PdbRadix *alone = pdb_radix_new();
          const gchar *text = rule->pattern_places[0].text;

          cr_assert(pdb_radix_insert(alone, text, (gpointer) rule, NULL, NULL));
          pdb_radix_freeze(alone);
          g_ptr_array_add(c.dead, alone);
          g_ptr_array_add(c.dead_texts, (gpointer) text);
          (*n_dead)++;
        }
    }
  enumerate("ab1 ", 7, check_message, &c);

  g_hash_table_destroy(c.shadowed);
  g_ptr_array_unref(c.dead);
  g_ptr_array_unref(c.dead_texts);
  pdb_database_unref(db);
  g_unlink(path);
  g_rmdir(dir);
  g_free(path);
  g_free(dir);
  return findings;
}

Test(lint, random_rulesets_claims_hold)
{
  GRand *rand = g_rand_new_with_seed(20261203);
  guint n_shadowed = 0, n_dead = 0;

  for (guint round = 0; round < 120; round++)
    {
      GPtrArray *patterns = g_ptr_array_new_with_free_func(g_free);
      guint n_rules = g_rand_int_range(rand, 2, 7);

      for (guint r = 0; r < n_rules; r++)
        {
          GString *p = g_string_new(NULL);
          guint n = g_rand_int_range(rand, 1, 5);

          for (guint k = 0; k < n; k++)
            g_string_append(p, pieces[g_rand_int_range(rand, 0, G_N_ELEMENTS(pieces))]);
          g_ptr_array_add(patterns, g_string_free(p, FALSE));
        }
      g_ptr_array_unref(lint_and_verify(patterns, &n_shadowed, &n_dead));
      g_ptr_array_unref(patterns);
    }
  g_rand_free(rand);
  cr_log_info("%u shadowed, %u parser-follow findings verified", n_shadowed, n_dead);
  cr_assert_gt(n_shadowed, 10, "only %u shadowed findings: the property was hardly exercised", n_shadowed);
  cr_assert_gt(n_dead, 10, "only %u parser-follow findings: the property was hardly exercised", n_dead);
}

/* Table: patterns in load order, then the expected "kind:rule" findings
 * (errors of the pattern checks only), sorted. */
static const struct
{
  const gchar *patterns[4];
  const gchar *expected;
} cases[] =
{
  { { "a @STRING:x@ b", "a @STRING:y@ b" }, "shadowed:r1" },
  { { "a @STRING:y@ b", "a @STRING:x@ b" }, "shadowed:r1" },
  { { "a @ANYSTRING:r@", "a @NUMBER:n@ b" }, "shadowed:r1" },
  { { "a @NUMBER:n@ b", "a @ANYSTRING:r@" }, "" },               /* r0 wins on "a 1 b", r1 elsewhere */
  { { "a b", "a @STRING:x@" }, "" },                              /* literal first */
  { { "a @STRING:x@", "a b" }, "" },
  { { "a b", "a b" }, "shadowed:r1" },                            /* identical: the loader keeps r0 */
  { { "a @STRING:x@ b", "a @ESTRING:e: @b" }, "" },               /* different parsers: not provable */
  { { "a @STRING:x@b" }, "parser-follow:r0" },
  { { "a @NUMBER:n@1" }, "parser-follow:r0" },
  { { "@ANYSTRING:r@ a" }, "parser-follow:r0" },
  { { "a @STRING:x@ b", "a @NUMBER:n@1" }, "parser-follow:r1" },
};

Test(lint, pattern_findings_table)
{
  for (guint i = 0; i < G_N_ELEMENTS(cases); i++)
    {
      GPtrArray *patterns = g_ptr_array_new();
      guint n_shadowed = 0, n_dead = 0;
      GString *got = g_string_new(NULL);

      for (guint k = 0; k < 4 && cases[i].patterns[k]; k++)
        g_ptr_array_add(patterns, (gpointer) cases[i].patterns[k]);
      GPtrArray *findings = lint_and_verify(patterns, &n_shadowed, &n_dead);
      for (guint f = 0; f < findings->len; f++)
        {
          const PdbLintFinding *finding = g_ptr_array_index(findings, f);

          if (finding->severity != PDB_LINT_ERROR)
            continue;
          g_string_append_printf(got, "%s%s:%s", got->len ? " " : "", finding->kind,
                                 (const gchar *) g_ptr_array_index(finding->rule_ids, 0));
        }
      cr_expect_str_eq(got->str, cases[i].expected, "row %u (%s | %s): got '%s', expected '%s'", i,
                       cases[i].patterns[0], cases[i].patterns[1] ? cases[i].patterns[1] : "",
                       got->str, cases[i].expected);
      g_string_free(got, TRUE);
      g_ptr_array_unref(findings);
      g_ptr_array_unref(patterns);
    }
}

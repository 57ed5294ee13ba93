/*
 * test-radix-region.c: trees frozen together into one block of memory
 * (pdb_radix_freeze_together(), radix-region.c), as a database does.
 *
 * - Big trees frozen together answer every lookup exactly like the same
 *   trees built and frozen alone; their blobs lie in one region, in order,
 *   without overlap, the first one on a 2 MiB boundary.
 * - The region lives while any of its trees does: freeing the trees one by
 *   one in a scrambled order leaves the others working (ASan checks the
 *   memory in the sanitizer build).
 * - On two threads (pdb_radix_freeze_together_on()) the trees are cut into
 *   two runs, each in a region of its own, with the same records.
 * - Small trees are not worth a region: their blobs are malloc()ed.
 */
#include "test-engine.h"
#include "engine/radix-node.h"

#define N_TREES 6
#define N_PATTERNS 6000       /* per tree: together well over REGION_MIN of bound */
#define REGION_MIN ((gsize) 2 * 1024 * 1024)   /* below the default, to keep the test quick */

static const gchar *const words[] = { "alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta" };

/* Pattern @i of tree @t (distinct within a tree); its matching input in @input. */
static gchar *
pattern_of(gint t, gint i, gchar **input)
{
  const gchar *w1 = words[i % 8], *w2 = words[(i / 8) % 8], *w3 = words[(i / 64) % 8];

  switch (i % 4)
    {
    case 0:
      *input = g_strdup_printf("t%d %s %s %s event %d user bob from 10.1.2.3", t, w1, w2, w3, i);
      return g_strdup_printf("t%d %s %s %s event %d user @ESTRING:u: @from @IPv4:ip@", t, w1, w2, w3, i);
    case 1:
      *input = g_strdup_printf("t%d %s %s %s count=%d port 4242 done", t, w1, w2, w3, i);
      return g_strdup_printf("t%d %s %s %s count=%d port @NUMBER:port@ done", t, w1, w2, w3, i);
    case 2:
      *input = g_strdup_printf("t%d %s %s %s job %d said 'hello there'", t, w1, w2, w3, i);
      return g_strdup_printf("t%d %s %s %s job %d said @QSTRING:q:'@", t, w1, w2, w3, i);
    default:
      *input = g_strdup_printf("t%d %s %s %s plain message number %d", t, w1, w2, w3, i);
      return g_strdup_printf("t%d %s %s %s plain message number %d", t, w1, w2, w3, i);
    }
}

static void
fill(PdbRadix *radix, gint t)
{
  for (gint i = 0; i < N_PATTERNS; i++)
    {
      gchar *input;
      gchar *pattern = pattern_of(t, i, &input);
      GError *error = NULL;

      cr_assert(pdb_radix_insert(radix, pattern, GINT_TO_POINTER(i + 1), NULL, &error),
                "tree %d pattern %d '%s': %s", t, i, pattern, error ? error->message : "?");
      g_free(pattern);
      g_free(input);
    }
}

/* Every pattern's input, a near miss and a prefix give the same answers. */
static void
expect_same_answers(const PdbRadix *alone, const PdbRadix *together, gint t)
{
  for (gint i = 0; i < N_PATTERNS; i += 7)
    {
      gchar *input;
      g_free(pattern_of(t, i, &input));
      gsize length = strlen(input);
      const gsize lengths[] = { length, length / 2, length - 1 };

      for (gsize k = 0; k < G_N_ELEMENTS(lengths); k++)
        {
          gchar *a = te_lookup_len(alone, input, lengths[k]);
          gchar *b = te_lookup_len(together, input, lengths[k]);

          cr_expect_str_eq(b, a, "tree %d, '%.*s'", t, (int) lengths[k], input);
          if (k == 0)
            cr_expect(g_str_has_prefix(a, "r") && strstr(a, "complete"), "tree %d, '%s': %s", t, input, a);
          g_free(a);
          g_free(b);
        }
      g_free(input);
    }
}

/* Freezes N_TREES big trees together on @threads threads and compares
 * them with the same trees frozen alone; returns where the run that has a
 * region of its own starts (0: one region for all). */
static gint
check_frozen_together(guint threads)
{
  PdbRadix *alone[N_TREES], *together[N_TREES];
  gint second_run = 0;

  for (gint t = 0; t < N_TREES; t++)
    {
      alone[t] = pdb_radix_new();
      fill(alone[t], t);
      pdb_radix_freeze(alone[t]);
      together[t] = pdb_radix_new();
      fill(together[t], t);
    }
  gsize bound = 0;
  for (gint t = 0; t < N_TREES; t++)
    bound += together[t]->blob_bound;
  cr_assert_geq(bound, REGION_MIN, "the test needs trees big enough for a region");
  pdb_radix_freeze_together_above(together, N_TREES, REGION_MIN, threads);

  cr_assert_not_null(together[0]->region, "trees this big share a region");
  cr_expect_eq((gsize) together[0]->blob % (2 * 1024 * 1024), 0, "the region starts on a 2 MiB boundary");
  for (gint t = 0; t < N_TREES; t++)
    {
      cr_expect(together[t]->frozen);
      cr_assert_not_null(together[t]->region, "tree %d", t);
      if (t && together[t]->region != together[t - 1]->region)
        {
          cr_expect_eq(second_run, 0, "at most two regions (tree %d)", t);
          second_run = t;
          cr_expect_eq((gsize) together[t]->blob % (2 * 1024 * 1024), 0, "tree %d starts a region", t);
        }
      else if (t)
        cr_expect_geq(together[t]->blob, together[t - 1]->blob + together[t - 1]->blob_size,
                      "tree %d starts after tree %d ends", t, t - 1);
      cr_expect_eq(together[t]->blob_size, alone[t]->blob_size, "tree %d: same records", t);
      cr_expect(memcmp(together[t]->blob, alone[t]->blob, alone[t]->blob_size) == 0,
                "tree %d: byte for byte the same records", t);
      expect_same_answers(alone[t], together[t], t);
    }

  /* freed in a scrambled order: the others keep working until the last */
  const gint order[N_TREES] = { 3, 0, 5, 1, 4, 2 };
  for (gint k = 0; k < N_TREES; k++)
    {
      pdb_radix_free(together[order[k]]);
      together[order[k]] = NULL;
      for (gint t = 0; t < N_TREES; t++)
        if (together[t] && t == order[(k + 1) % N_TREES])
          expect_same_answers(alone[t], together[t], t);
    }
  for (gint t = 0; t < N_TREES; t++)
    pdb_radix_free(alone[t]);
  return second_run;
}

Test(radix_region, frozen_together_answers_like_alone)
{
  cr_expect_eq(check_frozen_together(1), 0, "one thread: one region");
}

/* Two threads: two runs of about equal size (the trees are alike: 3 and 3),
 * each in a region of its own, every record the same. */
Test(radix_region, frozen_on_two_threads_answers_like_alone)
{
  cr_expect_eq(check_frozen_together(2), N_TREES / 2, "two threads: the second run starts half-way");
}

Test(radix_region, small_trees_use_malloc)
{
  static const gchar *const a[] = { "user @STRING:u@ logged in", "session closed", NULL };
  PdbRadix *trees[2];

  trees[0] = pdb_radix_new();
  trees[1] = pdb_radix_new();
  for (gint t = 0; t < 2; t++)
    for (gint i = 0; a[i]; i++)
      cr_assert(pdb_radix_insert(trees[t], a[i], GINT_TO_POINTER(i + 1), NULL, NULL));
  pdb_radix_freeze_together(trees, 2);
  for (gint t = 0; t < 2; t++)
    {
      cr_expect_null(trees[t]->region, "a few records are not worth a 2 MiB region");
      gchar *r = te_lookup(trees[t], "user bob logged in");
      cr_expect_str_eq(r, "r1 complete u=bob");
      g_free(r);
    }
  /* freezing again changes nothing */
  pdb_radix_freeze_together(trees, 2);
  gchar *r = te_lookup(trees[1], "session closed");
  cr_expect_str_eq(r, "r2 complete");
  g_free(r);
  pdb_radix_free(trees[1]);
  pdb_radix_free(trees[0]);
}

/* A tree below the default threshold, frozen alone, is malloc()ed too. */
Test(radix_region, below_the_threshold_no_region)
{
  PdbRadix *tree = pdb_radix_new();
  PdbRadix *reference = pdb_radix_new();

  fill(tree, 2);
  fill(reference, 2);
  cr_assert_lt(tree->blob_bound, PDB_BLOB_REGION_MIN);
  pdb_radix_freeze(tree);
  pdb_radix_freeze_together_above(&reference, 1, 1, 1);
  cr_expect_null(tree->region, "below PDB_BLOB_REGION_MIN the blob is malloc()ed");
  cr_expect_not_null(reference->region, "with a threshold of 1 byte even one tree gets a region");
  expect_same_answers(reference, tree, 2);
  pdb_radix_free(tree);
  pdb_radix_free(reference);
}

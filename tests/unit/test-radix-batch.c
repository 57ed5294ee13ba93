/*
 * test-radix-batch.c: pdb_radix_lookup_many() (engine/radix-batch.c) gives
 * every job exactly what pdb_radix_lookup() gives it alone: the same value,
 * kind of match, length, captures (in order), label and step count (so the
 * walk visited the same nodes in the same order), whatever the group
 * around it. Each case also states the expected result of some inputs, so
 * that a batch and a single lookup that were both wrong would fail. Every
 * batch runs twice: interleaving every tree (pdb_radix_lookup_many_above()
 * with 0) and through the public function (small trees one at a time).
 */
#include "test-engine.h"
#include "engine/radix-node.h"

/* A result with everything a walk decides: rendered, plus steps and label. */
static gchar *
_render_full(const gchar *input, const PdbMatch *m, gboolean found)
{
  gchar *base = te_render(input, m, found);
  gchar *full = g_strdup_printf("%s steps=%" G_GUINT64_FORMAT " label=%.*s", base, m->steps,
                                m->label ? (int) m->label_length : 4, m->label ? m->label : "none");

  g_free(base);
  return full;
}

static gchar *
_single(const PdbRadix *radix, const gchar *input, gsize length)
{
  PdbMatch m;
  gboolean found;
  gchar *r;

  pdb_match_init(&m);
  found = pdb_radix_lookup(radix, input, length, &m);
  r = _render_full(input, &m, found);
  pdb_match_clear(&m);
  return r;
}

/* Runs @n jobs (tree @trees[i % n_trees], input @inputs[i % n_inputs]) in
 * one batch, checks each against the single lookup, returns the renderings. */
static GPtrArray *
_batch_check_once(PdbRadix *const *trees, guint n_trees, const gchar *const *inputs, const gsize *lengths,
                  guint n_inputs, guint n, gboolean interleave_all)
{
  PdbLookupJob *jobs = g_new0(PdbLookupJob, n);
  PdbMatch *matches = g_new(PdbMatch, n);
  GPtrArray *out = g_ptr_array_new_with_free_func(g_free);

  for (guint i = 0; i < n; i++)
    {
      pdb_match_init(&matches[i]);
      jobs[i].radix = trees[i % n_trees];
      jobs[i].input = inputs[i % n_inputs];
      jobs[i].length = lengths[i % n_inputs];
      jobs[i].match = &matches[i];
      jobs[i].found = 12345;   /* must be overwritten */
    }
  if (interleave_all)
    pdb_radix_lookup_many_above(jobs, n, 0);
  else
    pdb_radix_lookup_many(jobs, n);
  for (guint i = 0; i < n; i++)
    {
      gchar *got, *want;

      if (!jobs[i].radix)
        {
          cr_assert_eq(jobs[i].found, FALSE, "job %u without a tree", i);
          g_ptr_array_add(out, g_strdup("no tree"));
          continue;
        }
      cr_assert(jobs[i].found == TRUE || jobs[i].found == FALSE, "job %u: found not set", i);
      got = _render_full(jobs[i].input, &matches[i], jobs[i].found);
      want = _single(jobs[i].radix, jobs[i].input, jobs[i].length);
      cr_assert_str_eq(got, want, "job %u (input %u of %u, tree %u): batch '%s', single '%s'",
                       i, i % n_inputs, n_inputs, i % n_trees, got, want);
      g_free(want);
      g_ptr_array_add(out, got);
    }
  for (guint i = 0; i < n; i++)
    pdb_match_clear(&matches[i]);
  g_free(matches);
  g_free(jobs);
  return out;
}

static GPtrArray *
_batch_check(PdbRadix *const *trees, guint n_trees, const gchar *const *inputs, const gsize *lengths,
             guint n_inputs, guint n)
{
  GPtrArray *pub = _batch_check_once(trees, n_trees, inputs, lengths, n_inputs, n, FALSE);
  GPtrArray *all = _batch_check_once(trees, n_trees, inputs, lengths, n_inputs, n, TRUE);

  for (guint i = 0; i < n; i++)
    cr_assert_str_eq(g_ptr_array_index(pub, i), g_ptr_array_index(all, i), "job %u", i);
  g_ptr_array_free(pub, TRUE);
  return all;
}

static GPtrArray *
_batch_strings(PdbRadix *radix, const gchar *const *inputs, guint n)
{
  gsize *lengths = g_new(gsize, n);
  GPtrArray *r;

  for (guint i = 0; i < n; i++)
    lengths[i] = strlen(inputs[i]);
  r = _batch_check(&radix, 1, inputs, lengths, n, n);
  g_free(lengths);
  return r;
}

/* The radix-node.h example: literal before parser, backtracking out of a parser. */
static const gchar *const backtrack_patterns[] =
{
  "user @STRING:u@ logged in",
  "user root logged in",
  "user @STRING:u@ logged out",
  "user @ESTRING:x: @x",
  "user @ESTRING:y: @@ANYSTRING:rest@",
  "service @ESTRING:svc: @started",
  "service @ESTRING:svc: @stopped after @NUMBER:secs@ s",
  "service ",
  "line\nbreak @NUMBER:n@",
  NULL
};

Test(radix_batch, batch_of_one)
{
  PdbRadix *radix = te_build(backtrack_patterns);
  const gchar *in[] = { "user root logged out" };
  GPtrArray *r = _batch_strings(radix, in, 1);

  cr_assert_str_eq(g_ptr_array_index(r, 0), "r3 complete u=root steps=7 label=none");
  g_ptr_array_free(r, TRUE);
  pdb_radix_free(radix);
}

Test(radix_batch, backtracking_and_prefix_matches)
{
  PdbRadix *radix = te_build(backtrack_patterns);
  const gchar *in[] =
  {
    "user root logged in",            /* literal wins */
    "user root logged out",           /* literal fails deep, parser path after */
    "user bob logged in",
    "user bob x",                     /* STRING fails below, ESTRING matches */
    "user bob zzz",                   /* ESTRING:x fails below, the next ESTRING */
    "service ntpd stopped after 12 s",
    "service ntpd started",
    "service ntpd crashed",           /* only the prefix "service " */
    "service ",
    "line\r\nbreak 7",                /* CRLF input, LF key */
    "user",                           /* input ends inside a key */
    "nothing at all",
  };
  GPtrArray *r = _batch_strings(radix, in, G_N_ELEMENTS(in));

  cr_assert(g_str_has_prefix(g_ptr_array_index(r, 0), "r2 complete "));
  cr_assert(g_str_has_prefix(g_ptr_array_index(r, 1), "r3 complete u=root "));
  cr_assert(g_str_has_prefix(g_ptr_array_index(r, 3), "r4 complete x=bob "));
  cr_assert(g_str_has_prefix(g_ptr_array_index(r, 4), "r5 complete y=bob rest=zzz "));
  cr_assert(g_str_has_prefix(g_ptr_array_index(r, 5), "r7 complete svc=ntpd secs=#12 "));
  cr_assert(g_str_has_prefix(g_ptr_array_index(r, 7), "r8 prefix:8 "));
  cr_assert(g_str_has_prefix(g_ptr_array_index(r, 8), "r8 complete "));
  cr_assert(g_str_has_prefix(g_ptr_array_index(r, 9), "r9 complete n=#7 "));
  cr_assert(g_str_has_prefix(g_ptr_array_index(r, 10), "none "));
  cr_assert(g_str_has_prefix(g_ptr_array_index(r, 11), "none "));
  g_ptr_array_free(r, TRUE);
  pdb_radix_free(radix);
}

Test(radix_batch, more_jobs_than_a_group_and_shared_inputs)
{
  PdbRadix *radix = te_build(backtrack_patterns);
  const gchar *in[] = { "user root logged in", "user bob zzz", "service a stopped after 1 s", "x" };
  gsize lengths[G_N_ELEMENTS(in)];

  for (guint i = 0; i < G_N_ELEMENTS(in); i++)
    lengths[i] = strlen(in[i]);
  /* 1, a group, a group and one, several groups, an odd count */
  guint counts[] = { 1, PDB_LOOKUP_GROUP - 1, PDB_LOOKUP_GROUP, PDB_LOOKUP_GROUP + 1, 5 * PDB_LOOKUP_GROUP + 3 };
  for (guint c = 0; c < G_N_ELEMENTS(counts); c++)
    g_ptr_array_free(_batch_check(&radix, 1, in, lengths, G_N_ELEMENTS(in), counts[c]), TRUE);
  pdb_radix_lookup_many(NULL, 0);   /* nothing to do */
  pdb_radix_free(radix);
}

Test(radix_batch, jobs_on_different_trees_and_without_a_tree)
{
  static const gchar *const other[] = { "user @NUMBER:id@ logged in", "x", "@ANYSTRING:all@", NULL };
  PdbRadix *trees[3] = { te_build(backtrack_patterns), te_build(other), NULL };
  const gchar *in[] = { "user 42 logged in", "x", "user root logged in", "" , "user bob x" };
  gsize lengths[G_N_ELEMENTS(in)];
  GPtrArray *r;

  for (guint i = 0; i < G_N_ELEMENTS(in); i++)
    lengths[i] = strlen(in[i]);
  r = _batch_check(trees, 3, in, lengths, G_N_ELEMENTS(in), 60);
  /* job 1: tree 1, "x" */
  cr_assert(g_str_has_prefix(g_ptr_array_index(r, 1), "r2 complete "), "%s", (gchar *) g_ptr_array_index(r, 1));
  cr_assert_str_eq(g_ptr_array_index(r, 2), "no tree");
  g_ptr_array_free(r, TRUE);
  pdb_radix_free(trees[0]);
  pdb_radix_free(trees[1]);
}

Test(radix_batch, empty_and_huge_messages)
{
  static const gchar *const patterns[] = { "a", "a@ANYSTRING:rest@", "@ESTRING:k:=@=@NUMBER:v@", NULL };
  PdbRadix *radix = te_build(patterns);
  gsize huge_length = 4 * 1024 * 1024;
  gchar *huge = g_malloc(huge_length);
  gchar *kv = g_malloc(huge_length);
  const gchar *in[4];
  gsize lengths[4];
  GPtrArray *r;

  memset(huge, 'a', huge_length);
  memset(kv, 'k', huge_length);
  memcpy(kv + huge_length - 4, "=123", 4);
  in[0] = "";
  lengths[0] = 0;
  in[1] = huge;
  lengths[1] = huge_length;
  in[2] = kv;
  lengths[2] = huge_length;
  in[3] = "a";
  lengths[3] = 1;
  r = _batch_check(&radix, 1, in, lengths, 4, 4 * PDB_LOOKUP_GROUP + 2);
  cr_assert(g_str_has_prefix(g_ptr_array_index(r, 0), "none "));
  cr_assert(g_str_has_prefix(g_ptr_array_index(r, 3), "r1 complete "));
  g_ptr_array_free(r, TRUE);
  g_free(huge);
  g_free(kv);
  pdb_radix_free(radix);
}

/* Captures past PDB_MATCH_INLINE_CAPTURES (heap storage) and a failed
 * deep path that pushed and popped them before the winner. */
Test(radix_batch, many_captures)
{
  GString *p1 = g_string_new(NULL), *p2 = g_string_new(NULL), *msg = g_string_new(NULL);
  const gchar *patterns[3];
  PdbRadix *radix;
  GPtrArray *r;
  const gchar *in[2];

  for (guint i = 0; i < 40; i++)
    {
      g_string_append_printf(p1, "f%u=@NUMBER:n%u@ ", i, i);
      g_string_append_printf(p2, "f%u=@ESTRING:s%u: @", i, i);
      g_string_append_printf(msg, "f%u=%u ", i, i);
    }
  g_string_append(p1, "end");
  g_string_append(p2, "fin");
  patterns[0] = p1->str;
  patterns[1] = p2->str;
  patterns[2] = NULL;
  radix = te_build(patterns);
  in[0] = g_strdup_printf("%sfin", msg->str);
  in[1] = g_strdup_printf("%send", msg->str);
  r = _batch_strings(radix, in, 2);
  cr_assert(g_str_has_prefix(g_ptr_array_index(r, 0), "r2 complete s0=0 "));
  cr_assert(g_str_has_prefix(g_ptr_array_index(r, 1), "r1 complete n0=#0 "));
  g_ptr_array_free(r, TRUE);
  g_free((gchar *) in[0]);
  g_free((gchar *) in[1]);
  g_string_free(p1, TRUE);
  g_string_free(p2, TRUE);
  g_string_free(msg, TRUE);
  pdb_radix_free(radix);
}

/* A tree bigger than PDB_PREFETCH_MIN_BLOB (the prefetching walk), with
 * labels, many literal levels and parsers below them. */
static const gchar *
_label(gpointer value, gsize *length)
{
  static gchar labels[30000][8];
  gint i = GPOINTER_TO_INT(value);

  *length = g_snprintf(labels[i % 30000], 8, "L%d", i);
  return labels[i % 30000];
}

Test(radix_batch, big_tree_with_labels)
{
  PdbRadix *radix = pdb_radix_new();
  GPtrArray *inputs = g_ptr_array_new_with_free_func(g_free);
  gsize *lengths;
  PdbRadixStats stats;
  GPtrArray *r;

  pdb_radix_set_label_func(radix, _label);
  for (gint i = 0; i < 20000; i++)
    {
      gchar *p = g_strdup_printf("svc%d event %d %s @NUMBER:n@ done @ESTRING:who: @now", i % 97, i,
                                 i % 3 ? "ok" : "failed");
      cr_assert(pdb_radix_insert(radix, p, GINT_TO_POINTER(i + 1), NULL, NULL));
      g_free(p);
    }
  cr_assert(pdb_radix_insert(radix, "svc1 event @ANYSTRING:any@", GINT_TO_POINTER(20001), NULL, NULL));
  pdb_radix_freeze(radix);
  pdb_radix_get_stats(radix, &stats);
  cr_assert_geq(stats.bytes, 256 * 1024);
  for (gint i = 0; i < 3000; i++)
    {
      gint rule = (i * 7919) % 20000;
      switch (i % 4)
        {
        case 0: /* matches its rule */
          g_ptr_array_add(inputs, g_strdup_printf("svc%d event %d %s %d done bob now", rule % 97, rule,
                                                  rule % 3 ? "ok" : "failed", i));
          break;
        case 1: /* fails deep: the catch-all of svc1, or nothing */
          g_ptr_array_add(inputs, g_strdup_printf("svc%d event %d %s x done", rule % 97, rule,
                                                  rule % 3 ? "ok" : "failed"));
          break;
        case 2: /* a prefix of a key */
          g_ptr_array_add(inputs, g_strdup_printf("svc%d eve", rule % 97));
          break;
        default:
          g_ptr_array_add(inputs, g_strdup_printf("svc1 event %d", i));
        }
    }
  lengths = g_new(gsize, inputs->len);
  for (guint i = 0; i < inputs->len; i++)
    lengths[i] = strlen(g_ptr_array_index(inputs, i));
  r = _batch_check(&radix, 1, (const gchar *const *) inputs->pdata, lengths, inputs->len, inputs->len);
  /* input 0: rule 0 is "svc0 event 0 failed @NUMBER:n@ done @ESTRING:who: @now" */
  cr_assert_str_eq(g_ptr_array_index(r, 0), "r1 complete n=#0 who=bob steps=10 label=L1");
  cr_assert(g_str_has_prefix(g_ptr_array_index(r, 3), "r20001 complete any=3 "), "%s", (gchar *) g_ptr_array_index(r, 3));
  g_ptr_array_free(r, TRUE);
  g_free(lengths);
  g_ptr_array_free(inputs, TRUE);
  pdb_radix_free(radix);
}

/* Forced parser steps (a node whose only way on is one parser child):
 * captures pushed on the way down stay on a match, on a prefix match
 * found below, and are dropped when the walk fails further down. */
Test(radix_batch, forced_parser_steps)
{
  static const gchar *const patterns[] =
  {
    "k @NUMBER:x@ v",
    "k @NUMBER:x@ v @NUMBER:y@ end",
    "q @IPv4:ip@ @ESTRING:user: @logged @QSTRING:what:'@",
    "m @ESTRING:a:,@@ESTRING:b:,@@ESTRING:c:,@@ESTRING:d:,@@ESTRING:e:,@@ESTRING:f:,@@ESTRING:g:,@@ESTRING:h:,@"
    "@ESTRING:i:,@@ESTRING:j:,@@ESTRING:k:,@@ESTRING:l:,@@ESTRING:m:,@@ESTRING:n:,@@ESTRING:o:,@@ESTRING:p:,@"
    "@ESTRING:q:,@@ESTRING:r:,@end",
    NULL
  };
  PdbRadix *radix = te_build(patterns);
  const gchar *in[] =
  {
    "k 12 v",
    "k 12 v 7 end",
    "k 12 v 7 nope",                  /* prefix: r1 with x only */
    "k 12 w",                          /* fails after the capture */
    "k x",                             /* the parser refuses */
    "q 10.0.0.1 bob logged 'in'",
    "q 10.0.0.1 bob logged in",
    "m 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,end",   /* more captures than inline */
  };
  GPtrArray *r = _batch_strings(radix, in, G_N_ELEMENTS(in));

  cr_assert(g_str_has_prefix(g_ptr_array_index(r, 0), "r1 complete x=#12 "), "%s", (gchar *) g_ptr_array_index(r, 0));
  cr_assert(g_str_has_prefix(g_ptr_array_index(r, 1), "r2 complete x=#12 y=#7 "));
  cr_assert(g_str_has_prefix(g_ptr_array_index(r, 2), "r1 prefix:6 x=#12 "), "%s", (gchar *) g_ptr_array_index(r, 2));
  cr_assert(g_str_has_prefix(g_ptr_array_index(r, 3), "none "));
  cr_assert(g_str_has_prefix(g_ptr_array_index(r, 4), "none "));
  cr_assert(g_str_has_prefix(g_ptr_array_index(r, 5), "r3 complete ip=10.0.0.1 user=bob what=in "));
  cr_assert(g_str_has_prefix(g_ptr_array_index(r, 6), "none "));
  cr_assert(g_str_has_prefix(g_ptr_array_index(r, 7), "r4 complete a=1 b=2 "));
  g_ptr_array_free(r, TRUE);
  pdb_radix_free(radix);
}

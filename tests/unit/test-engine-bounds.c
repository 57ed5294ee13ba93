/*
 * test-engine-bounds.c: the work bound of radix-node.h ("THE BOUND ON
 * WORK"): every node is visited at most once per lookup, so
 *
 *     steps <= nodes + parser_nodes        (steps = node visits + parser calls)
 *
 * whatever the database and the message. Each case builds a pathological
 * tree, runs messages that force a full search (no match, or a match found
 * last), checks the bound with the tree's own statistics, and checks that
 * the search really was exhaustive (steps close to the bound), so that the
 * bound is not met by accident. No wall-clock measurements.
 */
#include "test-engine.h"

typedef struct
{
  PdbRadix *radix;
  PdbRadixStats stats;
} Tree;

static void
_tree_from(Tree *t, GPtrArray *patterns)
{
  t->radix = pdb_radix_new();
  for (guint i = 0; i < patterns->len; i++)
    {
      GError *error = NULL;
      cr_assert(pdb_radix_insert(t->radix, g_ptr_array_index(patterns, i), GINT_TO_POINTER(i + 1), NULL, &error),
                "pattern %u '%s': %s", i, (gchar *) g_ptr_array_index(patterns, i), error ? error->message : "");
    }
  pdb_radix_freeze(t->radix);
  pdb_radix_get_stats(t->radix, &t->stats);
}

/* Looks @message up and checks the bound; returns the steps. */
static guint64
_check(const Tree *t, const gchar *what, const gchar *message, gsize length, gint expected_value)
{
  PdbMatch m;
  guint64 bound = t->stats.nodes + t->stats.parser_nodes;

  pdb_match_init(&m);
  gboolean found = pdb_radix_lookup(t->radix, message, length, &m);
  cr_expect_eq(found ? GPOINTER_TO_INT(m.value) : 0, expected_value, "%s: value %d, expected %d", what,
               found ? GPOINTER_TO_INT(m.value) : 0, expected_value);
  cr_expect_leq(m.steps, bound, "%s: %" G_GUINT64_FORMAT " steps > bound %" G_GUINT64_FORMAT
                " (%zu nodes, %zu parser nodes)", what, m.steps, bound, t->stats.nodes, t->stats.parser_nodes);
  cr_log_info("%s: %zu nodes, %zu parser nodes, %" G_GUINT64_FORMAT " steps (bound %" G_GUINT64_FORMAT ")",
              what, t->stats.nodes, t->stats.parser_nodes, m.steps, bound);
  guint64 steps = m.steps;
  pdb_match_clear(&m);
  return steps;
}

/*
 * Depth 7, 3 parser alternatives per level that all accept the same word
 * (@STRING:aN@, @STRING:bN@, @ESTRING:cN: @ are distinct nodes), every
 * combination a pattern ending in "END": 3^7 = 2187 patterns. A naive
 * backtracker over patterns would try 2187 x 7 parser runs on a message
 * that ends in "XXX"; the tree visits each node once.
 */
Test(engine_bounds, deep_nesting_with_alternatives)
{
  const gint depth = 7;
  GPtrArray *patterns = g_ptr_array_new_with_free_func(g_free);
  gint total = 1;

  for (gint i = 0; i < depth; i++)
    total *= 3;
  for (gint combo = 0; combo < total; combo++)
    {
      GString *p = g_string_new("");
      gint c = combo;
      for (gint level = 0; level < depth; level++, c /= 3)
        {
          switch (c % 3)
            {
            case 0: g_string_append_printf(p, "@STRING:a%d@ ", level); break;
            case 1: g_string_append_printf(p, "@STRING:b%d@ ", level); break;
            default: g_string_append_printf(p, "@ESTRING:c%d: @", level); break;
            }
        }
      g_string_append(p, "END");
      g_ptr_array_add(patterns, g_string_free(p, FALSE));
    }
  Tree t;
  _tree_from(&t, patterns);

  const gchar *miss = "w w w w w w w XXX";
  guint64 steps = _check(&t, "deep nesting, no match", miss, strlen(miss), 0);
  cr_expect_geq(steps, t.stats.nodes / 2, "the search was not exhaustive: %" G_GUINT64_FORMAT, steps);

  /* words STRING cannot take whole: only the all-ESTRING pattern (the last
   * alternative at every level) matches, after nearly everything was tried */
  const gchar *first = "w w w w w w w END";
  _check(&t, "deep nesting, first pattern", first, strlen(first), 1);
  const gchar *last = "w-w w-w w-w w-w w-w w-w w-w END";
  steps = _check(&t, "deep nesting, last pattern", last, strlen(last), total);
  cr_expect_geq(steps, (guint64) depth * 3, "%" G_GUINT64_FORMAT, steps);
  pdb_radix_free(t.radix);
  g_ptr_array_free(patterns, TRUE);
}

/* 5000 parser children at one node, each followed by its own literal. */
Test(engine_bounds, thousands_of_parser_children)
{
  const gint n = 5000;
  GPtrArray *patterns = g_ptr_array_new_with_free_func(g_free);

  for (gint i = 0; i < n; i++)
    g_ptr_array_add(patterns, g_strdup_printf("x @%s:v%d@ end%d", i % 2 ? "STRING" : "ESTRING:", i,
                                              i));
  /* ESTRING needs a delimiter: "@ESTRING::v@" would be the name ":v"; write it properly */
  for (gint i = 0; i < n; i += 2)
    {
      g_free(g_ptr_array_index(patterns, i));
      g_ptr_array_index(patterns, i) = g_strdup_printf("x @ESTRING:v%d: @end%d", i, i);
    }
  Tree t;
  _tree_from(&t, patterns);
  cr_expect_geq(t.stats.parser_nodes, (gsize) n);

  const gchar *miss = "x abc end-nothing";
  guint64 steps = _check(&t, "5000 parser children, no match", miss, strlen(miss), 0);
  cr_expect_geq(steps, (guint64) n, "every parser must have been tried");

  gchar *last = g_strdup_printf("x abc end%d", n - 1);
  _check(&t, "5000 parser children, last one matches", last, strlen(last), n);
  g_free(last);
  pdb_radix_free(t.radix);
  g_ptr_array_free(patterns, TRUE);
}

/*
 * Messages made only of delimiters: a chain of 300 "@ESTRING:eN: @" levels
 * with SET and OPTIONALSET alternatives (ending in '!') at each level, and
 * a 64 KiB message of spaces. The SETs swallow every space and then fail,
 * each ESTRING consumes one space, the tree is deep, and the message never
 * reaches a value.
 */
Test(engine_bounds, only_delimiters)
{
  const gint depth = 300;
  GPtrArray *patterns = g_ptr_array_new_with_free_func(g_free);
  GString *prefix = g_string_new("");

  for (gint level = 0; level < depth; level++)
    {
      g_ptr_array_add(patterns, g_strdup_printf("%s@SET:s%d: @!", prefix->str, level));
      g_ptr_array_add(patterns, g_strdup_printf("%s@OPTIONALSET:o%d: @!", prefix->str, level));
      g_string_append_printf(prefix, "@ESTRING:e%d: @", level);
      g_ptr_array_add(patterns, g_strdup_printf("%s#", prefix->str));
    }
  Tree t;
  _tree_from(&t, patterns);

  const gsize size = 64 * 1024;
  gchar *spaces = g_malloc(size);
  memset(spaces, ' ', size);
  guint64 steps = _check(&t, "64 KiB of spaces, no match", spaces, size, 0);
  cr_expect_geq(steps, (guint64) depth * 3, "the chain was not explored: %" G_GUINT64_FORMAT, steps);

  /* the deepest pattern matches when the message ends in '#' right after 300 spaces */
  memset(spaces, ' ', depth);
  spaces[depth] = '#';
  _check(&t, "300 spaces then '#'", spaces, depth + 1, depth * 3);
  g_free(spaces);
  g_string_free(prefix, TRUE);
  pdb_radix_free(t.radix);
  g_ptr_array_free(patterns, TRUE);
}

/* A catastrophic regex fails at the PCRE match limit instead of hanging. */
Test(engine_bounds, catastrophic_pcre)
{
  GPtrArray *patterns = g_ptr_array_new_with_free_func(g_free);
  g_ptr_array_add(patterns, g_strdup("r @PCRE:v:(a|aa)+(b|bb)+$@"));
  g_ptr_array_add(patterns, g_strdup("r @PCRE:v:(x+x+)+y@"));
  Tree t;
  _tree_from(&t, patterns);

  GString *m = g_string_new("r ");
  for (gint i = 0; i < 5000; i++)
    g_string_append_c(m, 'x');
  _check(&t, "catastrophic regex", m->str, m->len, 0);
  g_string_free(m, TRUE);
  pdb_radix_free(t.radix);
  g_ptr_array_free(patterns, TRUE);
}

/* A pattern of 100,000 parsers (200,000 nodes): insert, freeze, match, dump
 * and free all work without recursing once per node (that would overflow
 * the stack). */
Test(engine_bounds, very_long_pattern)
{
  const gint elements = 100000;
  GString *pattern = g_string_new("");
  GString *message = g_string_new("");
  GPtrArray *patterns = g_ptr_array_new_with_free_func(g_free);

  for (gint i = 0; i < elements; i++)
    {
      g_string_append(pattern, i % 2 ? "@NUMBER@," : "@STRING@;");
      g_string_append(message, i % 2 ? "12," : "ab;");
    }
  g_ptr_array_add(patterns, g_string_free(pattern, FALSE));
  /* a sibling that branches at the very end, to force real backtracking */
  g_ptr_array_add(patterns, g_strconcat(g_ptr_array_index(patterns, 0), "END", NULL));
  Tree t;
  _tree_from(&t, patterns);
  cr_expect_geq(t.stats.nodes, (gsize) 2 * elements);

  _check(&t, "200,000-node pattern", message->str, message->len, 1);
  g_string_append(message, "EN");
  _check(&t, "200,000-node pattern, prefix", message->str, message->len, 1);

  pdb_radix_free(t.radix);

  /* dump output indents by depth, so it is quadratic in the depth: 2,000 nodes */
  gchar *short_pattern = g_strndup(g_ptr_array_index(patterns, 0), 9 * 1000);
  PdbRadix *shallow = pdb_radix_new();
  cr_assert(pdb_radix_insert(shallow, short_pattern, GINT_TO_POINTER(1), NULL, NULL));
  pdb_radix_freeze(shallow);
  GString *dump = g_string_new("");
  pdb_radix_dump(shallow, dump, NULL, NULL);
  cr_expect(strstr(dump->str, "[2000]\t") != NULL, "the deepest node is dumped");
  g_string_free(dump, TRUE);
  pdb_radix_free(shallow);
  g_free(short_pattern);

  /* unfrozen trees are freed iteratively too */
  PdbRadix *unfrozen = pdb_radix_new();
  cr_assert(pdb_radix_insert(unfrozen, g_ptr_array_index(patterns, 0), GINT_TO_POINTER(1), NULL, NULL));
  pdb_radix_free(unfrozen);
  g_string_free(message, TRUE);
  g_ptr_array_free(patterns, TRUE);
}

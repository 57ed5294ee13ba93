/*
 * lint-shadow.c: rules that can never win.
 *
 * THE METHOD (sound, deliberately incomplete: no false positives)
 * For two patterns A and B of different rules in one ruleset, take the
 * longest common token prefix (the same path from the root of the tree).
 *   1. The sequences are equal: the later one was refused as a duplicate,
 *      so it never matches; the earlier one takes every message.
 *   2. They part with two parser tokens PA and PB, both children of the
 *      same node. Parser children are tried in insertion order, so if the
 *      node of PB was created before the node of PA, the search visits
 *      PB's whole subtree before PA's. If moreover covers(A', B') holds for
 *      the rests A' = PA..., B' = PB..., then every message on which A's
 *      path reaches its end (completely or as a prefix) also has a path
 *      through B's subtree that ends no later, so the lookup settles inside
 *      PB's subtree and A never wins.
 * covers(A', B') holds when, token by token, the two are the same byte or
 * parsers of the same type and parameter (they consume exactly the same
 * bytes; only the capture name differs), or when B' reaches a final
 * @ANYSTRING@ while A' still has tokens (A' then needs at least one more
 * byte, and @ANYSTRING@ takes any non-empty rest). Since the search
 * backtracks over every child, the existence of such a path is enough,
 * whatever other rules hang in PB's subtree.
 * Literal-versus-parser partings are never reported: literals are tried
 * first, and a literal token covering all of a parser is not provable here.
 */
#include "lint/lint-private.h"

#include <string.h>

static gboolean
token_same_node(const LintToken *a, const LintToken *b)
{
  if (!a->parser != !b->parser)
    return FALSE;
  if (!a->parser)
    return a->byte == b->byte;
  return pdb_parser_equal(a->parser, b->parser);
}

static gboolean
token_same_bytes(const LintToken *a, const LintToken *b)
{
  if (!a->parser != !b->parser)
    return FALSE;
  if (!a->parser)
    return a->byte == b->byte;
  return a->parser->kind == b->parser->kind && g_strcmp0(a->parser->param, b->parser->param) == 0;
}

static gboolean
covers(const GArray *a, guint i, const GArray *b, guint j)
{
  for (;; i++, j++)
    {
      if (j == b->len)
        return i == a->len;
      const LintToken *tb = &g_array_index(b, LintToken, j);
      if (tb->parser && tb->parser->kind == PDB_PARSER_ANYSTRING && j + 1 == b->len)
        return i < a->len;
      if (i == a->len)
        return FALSE;
      if (!token_same_bytes(&g_array_index(a, LintToken, i), tb))
        return FALSE;
    }
}

/* The index (insertion order) of the first pattern that created the node
 * "@p's first @depth tokens, then @last": the position of that parser among
 * its siblings. */
static guint
node_creator(GPtrArray *patterns, const LintPattern *p, guint depth, const LintToken *last)
{
  for (guint n = 0; n < patterns->len; n++)
    {
      const LintPattern *q = g_ptr_array_index(patterns, n);
      guint k;

      if (q->tokens->len <= depth)
        continue;
      for (k = 0; k < depth; k++)
        if (!token_same_node(&g_array_index(q->tokens, LintToken, k), &g_array_index(p->tokens, LintToken, k)))
          break;
      if (k == depth && token_same_node(&g_array_index(q->tokens, LintToken, depth), last))
        return n;
    }
  return G_MAXUINT;
}

static void
report(GPtrArray *findings, GHashTable *shadowed, const LintPattern *a, const LintPattern *b,
       const gchar *how)
{
  PdbLocation loc;
  const PdbRule *rules[] = { a->rule, b->rule, NULL };
  const PdbLocation *bl = &b->rule->pattern_places[b->index].start;

  pdb_lint_pattern_location(a, 0, &loc);
  pdb_lint_add(findings, PDB_LINT_ERROR, "shadowed", &loc, rules,
               "pattern %u of rule '%s' can never win: %s pattern %u of rule '%s' (%s:%d:%d) takes every message it matches",
               a->index + 1, a->rule->id, how, b->index + 1, b->rule->id,
               bl->file ? bl->file : "<unknown>", bl->line, bl->column);
  g_hash_table_add(shadowed, pdb_lint_pair_key(a->rule, b->rule));
}

void
pdb_lint_check_shadowing(const PdbRuleset *rs G_GNUC_UNUSED, GPtrArray *patterns,
                         GPtrArray *findings, GHashTable *shadowed)
{
  for (guint ia = 0; ia < patterns->len; ia++)
    {
      const LintPattern *a = g_ptr_array_index(patterns, ia);

      for (guint ib = 0; ib < patterns->len; ib++)
        {
          const LintPattern *b = g_ptr_array_index(patterns, ib);
          guint d = 0;

          if (a->rule == b->rule || a->tokens->len == 0 || b->tokens->len == 0)
            continue;
          /* cheap filter: both start with the same byte, or both with a parser */
          const LintToken *fa = &g_array_index(a->tokens, LintToken, 0);
          const LintToken *fb = &g_array_index(b->tokens, LintToken, 0);
          if (!fa->parser != !fb->parser || (!fa->parser && fa->byte != fb->byte))
            continue;

          while (d < a->tokens->len && d < b->tokens->len
                 && token_same_node(&g_array_index(a->tokens, LintToken, d), &g_array_index(b->tokens, LintToken, d)))
            d++;
          if (d == a->tokens->len && d == b->tokens->len)
            {
              if (ib < ia)
                {
                  report(findings, shadowed, a, b, "the identical");
                  break;
                }
              continue;
            }
          if (d == a->tokens->len || d == b->tokens->len)
            continue;
          const LintToken *pa = &g_array_index(a->tokens, LintToken, d);
          const LintToken *pb = &g_array_index(b->tokens, LintToken, d);
          if (!pa->parser || !pb->parser || !covers(a->tokens, d, b->tokens, d))
            continue;
          if (node_creator(patterns, b, d, pb) < node_creator(patterns, a, d, pa))
            {
              report(findings, shadowed, a, b, "the earlier");
              break;
            }
        }
    }
}

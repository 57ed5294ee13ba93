/*
 * patternize.c: grouping by program, support selection, XML output.
 *
 * Invariant: every usable line added is in exactly one group (by program)
 * and, after clustering, in exactly one cluster of its group; a cluster
 * is written at most once, in the first round whose threshold it reaches.
 */
#include "mining/patternize.h"
#include "mining/pdb-writer.h"
#include "engine/radix.h"

#include <string.h>

typedef struct
{
  gchar *program;              /* NULL: catch-all */
  PdbMiner *miner;
  GPtrArray *messages;         /* of gchar*, by line id */
} Group;

typedef struct
{
  Group *group;
  const PdbMiningCluster *cluster;
  gboolean selected;
} Candidate;

struct _PdbPatternizer
{
  PdbPatternizeOptions options;
  GHashTable *groups;          /* program ("" for catch-all) -> Group* */
  guint n_lines;
  guint n_skipped;
};

void
pdb_patternize_options_init(PdbPatternizeOptions *options)
{
  options->support = -1.0;
  options->iterate_outliers = FALSE;
  options->samples = 1;
  pdb_mining_options_init(&options->mining);
  options->pattern.named_parsers = FALSE;
  options->pattern.delimiters = PDB_MINING_DEFAULT_DELIMITERS;
}

static void
group_free(gpointer p)
{
  Group *g = p;
  g_free(g->program);
  pdb_miner_free(g->miner);
  g_ptr_array_free(g->messages, TRUE);
  g_free(g);
}

PdbPatternizer *
pdb_patternizer_new(const PdbPatternizeOptions *options)
{
  PdbPatternizer *p = g_new0(PdbPatternizer, 1);
  if (options)
    p->options = *options;
  else
    pdb_patternize_options_init(&p->options);
  p->groups = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, group_free);
  return p;
}

void
pdb_patternizer_free(PdbPatternizer *p)
{
  if (!p)
    return;
  g_hash_table_destroy(p->groups);
  g_free(p);
}

gboolean
pdb_patternize_message_is_usable(const gchar *message, gsize length)
{
  if (length == 0 || !g_utf8_validate(message, length, NULL))
    return FALSE;
  gboolean any = FALSE;
  for (gsize i = 0; i < length; i++)
    {
      guchar c = (guchar) message[i];
      if ((c < 0x20 && c != '\t') || c == 0x7f)
        return FALSE;
      if (c != ' ' && c != '\t')
        any = TRUE;
    }
  return any;
}

gboolean
pdb_patternizer_add(PdbPatternizer *p, const gchar *program, gsize program_length,
                    const gchar *message, gsize message_length)
{
  if (!pdb_patternize_message_is_usable(message, message_length) ||
      (program && program_length > 0 && !pdb_patternize_message_is_usable(program, program_length)))
    {
      p->n_skipped++;
      return FALSE;
    }
  gchar *key = program ? g_strndup(program, program_length) : g_strdup("");
  Group *g = g_hash_table_lookup(p->groups, key);
  if (!g)
    {
      g = g_new0(Group, 1);
      g->program = (program && program_length) ? g_strdup(key) : NULL;
      g->miner = pdb_miner_new(&p->options.mining);
      g->messages = g_ptr_array_new_with_free_func(g_free);
      g_hash_table_insert(p->groups, key, g);
    }
  else
    g_free(key);

  g_ptr_array_add(g->messages, g_strndup(message, message_length));
  pdb_miner_add_message(g->miner, message, message_length);
  p->n_lines++;
  return TRUE;
}

guint
pdb_patternizer_get_n_lines(const PdbPatternizer *p)
{
  return p->n_lines;
}

guint
pdb_patternizer_get_n_skipped(const PdbPatternizer *p)
{
  return p->n_skipped;
}

typedef struct
{
  guint self;
  gint other;        /* first other rule (index) that matches, -1 if none */
} ConflictProbe;

static void
probe_match(gpointer value, gpointer user_data)
{
  ConflictProbe *probe = user_data;
  guint idx = GPOINTER_TO_UINT(value) - 1;
  if (idx != probe->self && probe->other < 0)
    probe->other = (gint) idx;
}

/*
 * A general pattern (ESTRING, ANYSTRING) can also match the examples of a
 * more specific one; 3.38 picks the specific one (literal first) but
 * `test` reports a conflict. Such a specific rule is folded into the
 * general one (its support added), until no example matches two rules.
 * Returns the number of rules folded.
 */
static guint
fold_conflicting_rules(GPtrArray *patterns, GArray *supports, const gchar *const *messages, guint samples)
{
  guint folded = 0;
  gboolean changed = TRUE;
  while (changed && patterns->len > 1)
    {
      changed = FALSE;
      PdbRadix *radix = pdb_radix_new();
      for (guint i = 0; i < patterns->len; i++)
        {
          const PdbMiningPattern *pat = g_ptr_array_index(patterns, i);
          GError *error = NULL;
          if (!pdb_radix_insert(radix, pat->text, GUINT_TO_POINTER(i + 1), NULL, &error))
            g_clear_error(&error);   /* a duplicate: the first one is kept, as when loading */
        }
      pdb_radix_freeze(radix);

      /* one round: find every rule with an example another rule matches */
      gint *target = g_new(gint, patterns->len);
      for (guint i = 0; i < patterns->len; i++)
        {
          const PdbMiningPattern *pat = g_ptr_array_index(patterns, i);
          GArray *examples = pdb_mining_pick_examples(pat, messages, samples);
          target[i] = -1;
          for (guint e = 0; e < examples->len && target[i] < 0; e++)
            {
              guint line = g_array_index(pat->matching, guint, g_array_index(examples, guint, e));
              ConflictProbe probe = { i, -1 };
              pdb_radix_foreach_complete_match(radix, messages[line], strlen(messages[line]), probe_match, &probe);
              target[i] = probe.other;
            }
          g_array_free(examples, TRUE);
        }
      pdb_radix_free(radix);

      /* fold k into target[k] unless the target itself is folded into a
       * third rule (that chain is resolved in the next round); of two
       * rules that match each other's examples the later one is folded */
      gboolean *removed = g_new0(gboolean, patterns->len);
      for (guint i = patterns->len; i > 0; i--)
        {
          guint k = i - 1;
          gint t = target[k];
          if (t < 0 || removed[t] || (target[t] >= 0 && !(target[t] == (gint) k && (gint) k > t)))
            continue;
          g_array_index(supports, guint, t) += g_array_index(supports, guint, k);
          pdb_mining_pattern_free(g_ptr_array_index(patterns, k));
          g_ptr_array_index(patterns, k) = NULL;
          removed[k] = TRUE;
          changed = TRUE;
          folded++;
        }
      g_free(removed);
      g_free(target);
      for (guint i = patterns->len; i > 0; i--)
        if (!g_ptr_array_index(patterns, i - 1))
          {
            g_ptr_array_remove_index(patterns, i - 1);
            g_array_remove_index(supports, i - 1);
          }
    }
  return folded;
}

static gint
compare_groups(gconstpointer a, gconstpointer b)
{
  const Group *x = *(const Group *const *) a;
  const Group *y = *(const Group *const *) b;
  return g_strcmp0(x->program, y->program);
}

/* Marks the candidates that reach the support threshold, round by round. */
static void
select_candidates(PdbPatternizer *p, GArray *cands)
{
  guint base = p->n_lines;
  if (p->options.support < 0.0)
    {
      for (guint i = 0; i < cands->len; i++)
        g_array_index(cands, Candidate, i).selected = TRUE;
      return;
    }
  while (base > 0)
    {
      gdouble threshold = p->options.support * base / 100.0;
      guint selected_now = 0, rest = 0;
      for (guint i = 0; i < cands->len; i++)
        {
          Candidate *c = &g_array_index(cands, Candidate, i);
          if (c->selected)
            continue;
          if ((gdouble) c->cluster->members->len >= threshold)
            {
              c->selected = TRUE;
              selected_now++;
            }
          else
            rest += c->cluster->members->len;
        }
      if (!p->options.iterate_outliers || selected_now == 0)
        break;
      base = rest;
    }
}

guint
pdb_patternizer_write(PdbPatternizer *p, GString *out, const gchar *version, const gchar *pub_date)
{
  GPtrArray *groups = g_ptr_array_new();
  GHashTableIter it;
  gpointer value;
  g_hash_table_iter_init(&it, p->groups);
  while (g_hash_table_iter_next(&it, NULL, &value))
    g_ptr_array_add(groups, value);
  g_ptr_array_sort(groups, compare_groups);

  GArray *cands = g_array_new(FALSE, FALSE, sizeof(Candidate));
  for (guint i = 0; i < groups->len; i++)
    {
      Group *g = g_ptr_array_index(groups, i);
      const GPtrArray *clusters = pdb_miner_finish(g->miner);
      for (guint c = 0; c < clusters->len; c++)
        {
          Candidate cand = { g, g_ptr_array_index(clusters, c), FALSE };
          g_array_append_val(cands, cand);
        }
    }
  select_candidates(p, cands);

  guint n_rules = 0;
  pdb_mining_xml_begin(out, version, pub_date);
  guint ci = 0;
  for (guint i = 0; i < groups->len; i++)
    {
      Group *g = g_ptr_array_index(groups, i);
      const gchar *program = g->program ? g->program : "patternize";
      const gchar *const *messages = (const gchar *const *) g->messages->pdata;
      GPtrArray *patterns = g_ptr_array_new_with_free_func((GDestroyNotify) pdb_mining_pattern_free);
      GArray *supports = g_array_new(FALSE, FALSE, sizeof(guint));
      GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);   /* text -> index + 1 */

      for (; ci < cands->len && g_array_index(cands, Candidate, ci).group == g; ci++)
        {
          Candidate *c = &g_array_index(cands, Candidate, ci);
          if (!c->selected)
            continue;
          PdbMiningPattern *pat = pdb_mining_pattern_build(g->miner, c->cluster, messages,
                                                           &p->options.pattern);
          guint support = c->cluster->members->len;
          guint prev = GPOINTER_TO_UINT(g_hash_table_lookup(seen, pat->text));
          if (prev)
            {
              /* two clusters, one pattern: one rule with both supports */
              g_array_index(supports, guint, prev - 1) += support;
              pdb_mining_pattern_free(pat);
              continue;
            }
          g_ptr_array_add(patterns, pat);
          g_array_append_val(supports, support);
          g_hash_table_insert(seen, pat->text, GUINT_TO_POINTER(patterns->len));
        }

      fold_conflicting_rules(patterns, supports, messages, p->options.samples);
      if (patterns->len > 0)
        {
          pdb_mining_xml_begin_ruleset(out, program, g->program);
          for (guint r = 0; r < patterns->len; r++)
            pdb_mining_xml_rule(out, program, g_ptr_array_index(patterns, r),
                                g_array_index(supports, guint, r), messages, p->options.samples);
          pdb_mining_xml_end_ruleset(out);
          n_rules += patterns->len;
        }
      g_hash_table_destroy(seen);
      g_array_free(supports, TRUE);
      g_ptr_array_free(patterns, TRUE);
    }
  pdb_mining_xml_end(out);

  g_array_free(cands, TRUE);
  g_ptr_array_free(groups, TRUE);
  return n_rules;
}

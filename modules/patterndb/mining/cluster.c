/*
 * cluster.c: Drain-style clustering with masking and low-cardinality splits.
 *
 * Invariant: every line id added is a member of exactly one cluster, both
 * while clustering (in the prefix tree's leaves) and after
 * pdb_miner_finish() (in the final, split clusters). A cluster's template
 * has the member's token count, and a non-wildcard key at a position means
 * every member has exactly that key there.
 */
#include "mining/cluster.h"

#include <string.h>

typedef struct _TreeNode
{
  GHashTable *children;   /* key (owned) -> TreeNode*; NULL on leaves */
  GPtrArray *clusters;    /* of PdbMiningCluster* (borrowed from miner->working) */
} TreeNode;

struct _PdbMiner
{
  PdbMiningOptions options;
  GArray *lines;          /* of PdbMiningTokens */
  GHashTable *by_length;  /* GUINT_TO_POINTER(n + 1) -> TreeNode* */
  GPtrArray *working;     /* of PdbMiningCluster*: the clusters while adding */
  GPtrArray *final;       /* of PdbMiningCluster*: after finish */
};

void
pdb_mining_options_init(PdbMiningOptions *options)
{
  options->similarity = 0.6;
  options->prefix_depth = 2;
  options->split_max_values = 3;
}

static TreeNode *
tree_node_new(void)
{
  TreeNode *node = g_new0(TreeNode, 1);
  return node;
}

static void
tree_node_free(gpointer p)
{
  TreeNode *node = p;
  if (node->children)
    g_hash_table_destroy(node->children);
  if (node->clusters)
    g_ptr_array_free(node->clusters, TRUE);
  g_free(node);
}

static PdbMiningCluster *
cluster_new(guint n_slots)
{
  PdbMiningCluster *c = g_new0(PdbMiningCluster, 1);
  c->n_slots = n_slots;
  c->template_keys = g_new0(gchar *, n_slots + 1);
  c->members = g_array_new(FALSE, FALSE, sizeof(guint));
  return c;
}

static void
cluster_free(gpointer p)
{
  PdbMiningCluster *c = p;
  g_strfreev(c->template_keys);
  g_array_free(c->members, TRUE);
  g_free(c);
}

PdbMiner *
pdb_miner_new(const PdbMiningOptions *options)
{
  PdbMiner *m = g_new0(PdbMiner, 1);
  if (options)
    m->options = *options;
  else
    pdb_mining_options_init(&m->options);
  m->lines = g_array_new(FALSE, FALSE, sizeof(PdbMiningTokens));
  m->by_length = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, tree_node_free);
  m->working = g_ptr_array_new_with_free_func(cluster_free);
  return m;
}

void
pdb_miner_free(PdbMiner *miner)
{
  if (!miner)
    return;
  for (guint i = 0; i < miner->lines->len; i++)
    pdb_mining_tokens_clear(&g_array_index(miner->lines, PdbMiningTokens, i));
  g_array_free(miner->lines, TRUE);
  g_hash_table_destroy(miner->by_length);
  g_ptr_array_free(miner->working, TRUE);
  if (miner->final)
    g_ptr_array_free(miner->final, TRUE);
  g_free(miner);
}

const PdbMiningTokens *
pdb_miner_get_tokens(const PdbMiner *miner, guint line_id)
{
  g_assert(line_id < miner->lines->len);
  return &g_array_index(miner->lines, PdbMiningTokens, line_id);
}

guint
pdb_miner_get_n_lines(const PdbMiner *miner)
{
  return miner->lines->len;
}

/* Walks (and grows) the prefix tree down to the leaf for @t. */
static TreeNode *
find_leaf(PdbMiner *m, const PdbMiningTokens *t)
{
  gpointer len_key = GUINT_TO_POINTER(t->n_tokens + 1);
  TreeNode *node = g_hash_table_lookup(m->by_length, len_key);
  if (!node)
    {
      node = tree_node_new();
      g_hash_table_insert(m->by_length, len_key, node);
    }

  guint depth = MIN(m->options.prefix_depth, t->n_tokens);
  for (guint i = 0; i < depth; i++)
    {
      const gchar *key = t->tokens[i].key;
      if (pdb_mining_key_has_wildcard(key))
        key = PDB_MINING_WILDCARD;
      if (!node->children)
        node->children = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, tree_node_free);
      TreeNode *child = g_hash_table_lookup(node->children, key);
      if (!child)
        {
          child = tree_node_new();
          g_hash_table_insert(node->children, g_strdup(key), child);
        }
      node = child;
    }
  if (!node->clusters)
    node->clusters = g_ptr_array_new();
  return node;
}

/* Share of the informative positions where the template has the token's
 * key: a position where the template is a wildcard and the token a masked
 * variable says nothing either way and is left out, so a message whose
 * keys equal the template everywhere has similarity 1 however many
 * variables it has; a template wildcard against a word counts as unequal.
 * @n_wild: wildcard positions of the template. */
static gdouble
similarity(const PdbMiningCluster *c, const PdbMiningTokens *t, guint *n_wild)
{
  guint same = 0, wild = 0, both_variable = 0;
  for (guint i = 0; i < c->n_slots; i++)
    {
      if (pdb_mining_key_is_wildcard(c->template_keys[i]))
        {
          wild++;
          if (pdb_mining_key_is_wildcard(t->tokens[i].key))
            both_variable++;
        }
      else if (strcmp(c->template_keys[i], t->tokens[i].key) == 0)
        same++;
    }
  *n_wild = wild;
  guint informative = c->n_slots - both_variable;
  return informative ? (gdouble) same / informative : 1.0;
}

guint
pdb_miner_add(PdbMiner *miner, PdbMiningTokens *tokens)
{
  g_return_val_if_fail(miner->final == NULL, 0);

  guint id = miner->lines->len;
  g_array_append_val(miner->lines, *tokens);
  tokens->tokens = NULL;
  tokens->n_tokens = 0;
  const PdbMiningTokens *t = pdb_miner_get_tokens(miner, id);

  TreeNode *leaf = find_leaf(miner, t);
  PdbMiningCluster *best = NULL;
  gdouble best_sim = -1.0;
  guint best_wild = 0;
  for (guint i = 0; i < leaf->clusters->len; i++)
    {
      PdbMiningCluster *c = g_ptr_array_index(leaf->clusters, i);
      guint wild;
      gdouble sim = similarity(c, t, &wild);
      if (sim > best_sim || (sim == best_sim && wild > best_wild))
        {
          best = c;
          best_sim = sim;
          best_wild = wild;
        }
    }

  if (best && best_sim >= miner->options.similarity)
    {
      for (guint i = 0; i < best->n_slots; i++)
        if (!pdb_mining_key_is_wildcard(best->template_keys[i]) &&
            strcmp(best->template_keys[i], t->tokens[i].key) != 0)
          {
            g_free(best->template_keys[i]);
            best->template_keys[i] = g_strdup(PDB_MINING_WILDCARD);
          }
    }
  else
    {
      best = cluster_new(t->n_tokens);
      for (guint i = 0; i < t->n_tokens; i++)
        best->template_keys[i] = g_strdup(t->tokens[i].key);
      g_ptr_array_add(miner->working, best);
      g_ptr_array_add(leaf->clusters, best);
    }
  g_array_append_val(best->members, id);
  return id;
}

guint
pdb_miner_add_message(PdbMiner *miner, const gchar *message, gsize length)
{
  PdbMiningTokens t;
  pdb_mining_tokenize(message, length, &t);
  return pdb_miner_add(miner, &t);
}

static const gchar *
member_key(const PdbMiner *m, GArray *members, guint k, guint pos)
{
  guint id = g_array_index(members, guint, k);
  return pdb_miner_get_tokens(m, id)->tokens[pos].key;
}

/* A cluster of @members whose template is recomputed from their keys. */
static PdbMiningCluster *
cluster_from_members(const PdbMiner *m, guint n_slots, GArray *members)
{
  PdbMiningCluster *c = cluster_new(n_slots);
  g_array_append_vals(c->members, members->data, members->len);
  for (guint pos = 0; pos < n_slots; pos++)
    {
      const gchar *first = member_key(m, members, 0, pos);
      gboolean same = TRUE;
      for (guint k = 1; k < members->len && same; k++)
        same = strcmp(first, member_key(m, members, k, pos)) == 0;
      c->template_keys[pos] = g_strdup(same ? first : PDB_MINING_WILDCARD);
    }
  return c;
}

/* A value with a dot names a thing (host, file, class, package) rather
 * than one of a few states: "name=com.android.phone", "a.example.com".
 * For key=value tokens only the value counts; trailing ",;:" are ignored. */
static gboolean
key_names_a_thing(const gchar *key)
{
  const gchar *eq = strchr(key, '=');
  const gchar *v = (eq && eq > key) ? eq + 1 : key;
  gsize len = strlen(v);
  while (len > 0 && strchr(",;:", v[len - 1]))
    len--;
  return memchr(v, '.', len) != NULL;
}

/* The first variable position whose values are 2..max words without a
 * wildcard and without a dot, or -1. */
static gint
find_split_position(const PdbMiner *m, const PdbMiningCluster *c)
{
  guint max = m->options.split_max_values;
  if (max < 2)
    return -1;
  for (guint pos = 0; pos < c->n_slots; pos++)
    {
      if (!pdb_mining_key_is_wildcard(c->template_keys[pos]))
        continue;
      const gchar *distinct[max + 1];
      guint n_distinct = 0;
      gboolean ok = TRUE;
      for (guint k = 0; k < c->members->len && ok; k++)
        {
          const gchar *key = member_key(m, c->members, k, pos);
          if (pdb_mining_key_has_wildcard(key) || key_names_a_thing(key))
            {
              ok = FALSE;
              break;
            }
          guint d;
          for (d = 0; d < n_distinct; d++)
            if (strcmp(distinct[d], key) == 0)
              break;
          if (d == n_distinct)
            {
              if (n_distinct == max)
                ok = FALSE;
              else
                distinct[n_distinct++] = key;
            }
        }
      if (ok && n_distinct >= 2)
        return (gint) pos;
    }
  return -1;
}

static void
split_into(const PdbMiner *m, PdbMiningCluster *c, GPtrArray *out)
{
  gint pos = find_split_position(m, c);
  if (pos < 0)
    {
      g_ptr_array_add(out, c);
      return;
    }

  /* group members by their key at pos, in order of first appearance */
  GPtrArray *groups = g_ptr_array_new();
  GPtrArray *group_keys = g_ptr_array_new();
  for (guint k = 0; k < c->members->len; k++)
    {
      const gchar *key = member_key(m, c->members, k, (guint) pos);
      guint g;
      for (g = 0; g < group_keys->len; g++)
        if (strcmp(g_ptr_array_index(group_keys, g), key) == 0)
          break;
      if (g == group_keys->len)
        {
          g_ptr_array_add(group_keys, (gpointer) key);
          g_ptr_array_add(groups, g_array_new(FALSE, FALSE, sizeof(guint)));
        }
      g_array_append_val((GArray *) g_ptr_array_index(groups, g), g_array_index(c->members, guint, k));
    }

  for (guint g = 0; g < groups->len; g++)
    {
      GArray *members = g_ptr_array_index(groups, g);
      split_into(m, cluster_from_members(m, c->n_slots, members), out);
      g_array_free(members, TRUE);
    }
  g_ptr_array_free(groups, TRUE);
  g_ptr_array_free(group_keys, TRUE);
  cluster_free(c);
}

static gint
compare_clusters(gconstpointer a, gconstpointer b)
{
  const PdbMiningCluster *x = *(const PdbMiningCluster *const *) a;
  const PdbMiningCluster *y = *(const PdbMiningCluster *const *) b;
  if (x->members->len != y->members->len)
    return x->members->len > y->members->len ? -1 : 1;
  guint fx = g_array_index(x->members, guint, 0);
  guint fy = g_array_index(y->members, guint, 0);
  return fx < fy ? -1 : (fx > fy ? 1 : 0);
}

/* Two templates of one length that agree wherever neither has a
 * wildcard, and share at least one literal position. */
static gboolean
templates_compatible(const PdbMiningCluster *a, const PdbMiningCluster *b)
{
  guint shared = 0;
  for (guint i = 0; i < a->n_slots; i++)
    {
      gboolean wa = pdb_mining_key_is_wildcard(a->template_keys[i]);
      gboolean wb = pdb_mining_key_is_wildcard(b->template_keys[i]);
      if (wa || wb)
        continue;
      if (strcmp(a->template_keys[i], b->template_keys[i]) != 0)
        return FALSE;
      shared++;
    }
  return shared > 0;
}

static gint
compare_uint(gconstpointer a, gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;
  return x < y ? -1 : (x > y ? 1 : 0);
}

/* Moves @from's members into @into and generalises @into's template. */
static void
merge_cluster(PdbMiningCluster *into, PdbMiningCluster *from)
{
  for (guint i = 0; i < into->n_slots; i++)
    if (strcmp(into->template_keys[i], from->template_keys[i]) != 0)
      {
        g_free(into->template_keys[i]);
        into->template_keys[i] = g_strdup(PDB_MINING_WILDCARD);
      }
  g_array_append_vals(into->members, from->members->data, from->members->len);
  g_array_sort(into->members, compare_uint);
  g_array_set_size(from->members, 0);
}

/*
 * Clusters that the prefix tree kept apart (a variable among the leading
 * tokens, or a template that became general only later) but whose
 * templates differ only where one of them has a wildcard are one event.
 * Quadratic per token count, so only done for up to MERGE_LIMIT clusters
 * of a length, in one pass.
 */
#define MERGE_LIMIT 1000

static void
merge_compatible_clusters(PdbMiner *m)
{
  GHashTable *by_len = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
                                             (GDestroyNotify) g_ptr_array_unref);
  for (guint i = 0; i < m->working->len; i++)
    {
      PdbMiningCluster *c = g_ptr_array_index(m->working, i);
      gpointer key = GUINT_TO_POINTER(c->n_slots + 1);
      GPtrArray *group = g_hash_table_lookup(by_len, key);
      if (!group)
        {
          group = g_ptr_array_new();
          g_hash_table_insert(by_len, key, group);
        }
      g_ptr_array_add(group, c);
    }

  GHashTableIter it;
  gpointer value;
  g_hash_table_iter_init(&it, by_len);
  while (g_hash_table_iter_next(&it, NULL, &value))
    {
      GPtrArray *group = value;
      if (group->len < 2 || group->len > MERGE_LIMIT)
        continue;
      /* one pass: a cluster absorbs every later compatible one (its
       * template only gets more general, so it is compared as it grows) */
      for (guint a = 0; a < group->len; a++)
        {
          PdbMiningCluster *ca = g_ptr_array_index(group, a);
          if (ca->members->len == 0)
            continue;
          for (guint b = a + 1; b < group->len; b++)
            {
              PdbMiningCluster *cb = g_ptr_array_index(group, b);
              if (cb->members->len != 0 && templates_compatible(ca, cb))
                merge_cluster(ca, cb);
            }
        }
    }
  g_hash_table_destroy(by_len);

  /* drop the emptied clusters (the working array owns them) */
  for (guint i = m->working->len; i > 0; i--)
    {
      PdbMiningCluster *c = g_ptr_array_index(m->working, i - 1);
      if (c->members->len == 0)
        g_ptr_array_remove_index(m->working, i - 1);
    }
}

const GPtrArray *
pdb_miner_finish(PdbMiner *miner)
{
  if (miner->final)
    return miner->final;

  g_hash_table_remove_all(miner->by_length);
  merge_compatible_clusters(miner);

  miner->final = g_ptr_array_new_with_free_func(cluster_free);
  /* take the working clusters over: they are either kept or split */
  g_ptr_array_set_free_func(miner->working, NULL);
  for (guint i = 0; i < miner->working->len; i++)
    split_into(miner, g_ptr_array_index(miner->working, i), miner->final);
  g_ptr_array_set_size(miner->working, 0);

  g_ptr_array_sort(miner->final, compare_clusters);
  return miner->final;
}

/*
 * cluster.h: grouping log messages into event templates.
 *
 * The algorithm is Drain (He et al., ICWS 2017) with improvements:
 *
 *   token count --> first leading tokens --> leaf: list of clusters
 *        |               (variable-looking tokens go to a "<*>" child)
 *        v
 *   the message joins the most similar cluster of its leaf (share of
 *   positions whose tokens are equal, leaving out positions where both
 *   the template and the message have a variable; ties to the more
 *   general template)
 *   if the similarity reaches the threshold, else starts a new cluster;
 *   the cluster's template turns positions that differ into "<*>".
 *
 * Improvements: tokens are masked before clustering (tokenize.h: numbers,
 * addresses, ids, key=value values, dates, empty brackets "()"), runs of variable tokens
 * collapse to one (variable-length lists), clusters whose templates differ
 * only where one of them has "<*>" are merged (the tree routes a leading
 * variable apart from a leading word), and when clustering is done,
 * a variable position that took only a few distinct word values (no
 * digits, no dots: not host, file or class names) is treated as part of
 * the event: the cluster is split by it
 * ("from NEW to UNASSIGNED" and "from UNASSIGNED to ASSIGNED" are two
 * events, "session opened for user <*>" with many users is one).
 *
 * Ownership: the miner owns the tokens added to it and the clusters it
 * returns; everything is freed by pdb_miner_free().
 */
#ifndef PDB_MINING_CLUSTER_H
#define PDB_MINING_CLUSTER_H

#include "mining/tokenize.h"

G_BEGIN_DECLS

typedef struct _PdbMiningOptions
{
  gdouble similarity;       /* join threshold, 0..1 (default 0.6, chosen leave-one-system-out) */
  guint prefix_depth;       /* leading tokens used to route in the tree (default 2) */
  guint split_max_values;   /* split a variable position with 2..N word values (default 3; 0 = never) */
} PdbMiningOptions;

void pdb_mining_options_init(PdbMiningOptions *options);

typedef struct _PdbMiningCluster
{
  guint n_slots;
  gchar **template_keys;    /* n_slots keys; PDB_MINING_WILDCARD where members differ */
  GArray *members;          /* of guint: line ids in input order */
} PdbMiningCluster;

typedef struct _PdbMiner PdbMiner;

PdbMiner *pdb_miner_new(const PdbMiningOptions *options);
void pdb_miner_free(PdbMiner *miner);

/* Adds one message; takes over the contents of @tokens (left empty).
 * Returns the line id (0, 1, 2 ... in call order). */
guint pdb_miner_add(PdbMiner *miner, PdbMiningTokens *tokens);
/* Convenience: tokenizes and adds. */
guint pdb_miner_add_message(PdbMiner *miner, const gchar *message, gsize length);

const PdbMiningTokens *pdb_miner_get_tokens(const PdbMiner *miner, guint line_id);
guint pdb_miner_get_n_lines(const PdbMiner *miner);

/*
 * Ends clustering and returns the clusters (of PdbMiningCluster*, owned by
 * the miner), largest first (ties: earliest first member first). Every line
 * is in exactly one cluster. No adds afterwards.
 */
const GPtrArray *pdb_miner_finish(PdbMiner *miner);

G_END_DECLS

#endif

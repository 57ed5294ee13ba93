/*
 * radix-batch.c: bulk lookups with interleaved walks (group prefetching),
 * pdb_radix_lookup_many() of radix.h.
 *
 * On a tree bigger than the caches nearly every record a walk visits is a
 * memory miss, and one walk cannot start its next load before the current
 * one has arrived. So up to PDB_LOOKUP_GROUP walks are kept in flight:
 * each one is advanced by one record, its next record is prefetched, and
 * the loop moves on to the next walk; when it comes back the record is
 * (more likely) in cache, and the misses of the walks overlap.
 *
 * Invariant (what makes every result exactly pdb_radix_lookup()'s): a walk
 * is advanced here only through FORCED nodes, those where the one-at-a-
 * time search (THE MATCHING ORDER, radix-node.h) has no alternative left
 * to fall back on: a narrow literal node without a value and without
 * parser children, whose key matches and whose next input byte selects a
 * literal child. There the single lookup continues in that child in the
 * same frame, with no capture, no partial candidate and nothing to
 * backtrack to; so its outcome is the child's visit alone. At the first
 * node that is not forced (a parser child, a value, a mismatch, the end
 * of the input, a CRLF-aware or wide key) the walk is handed to
 * pdb_radix_lookup_from() at that node with the steps counted so far,
 * which performs the rest of the search (backtracking included) exactly
 * as the single lookup would from there. The walks of different jobs
 * share nothing but the read-only trees.
 *
 * A tree smaller than PDB_PREFETCH_MIN_BLOB that is not part of a big
 * database (a shared blob region, PDB_BLOB_REGION_MIN) stays in cache: its
 * jobs are looked up one at a time (interleaving them only cost
 * instructions: about 10% more per message at 100 rules, cachegrind). In
 * a big database every tree is interleaved, however small: its records
 * compete for the caches with all the others.
 */
#include "engine/radix-node.h"

#include <string.h>

typedef struct
{
  PdbLookupJob *job;
  guint32 node;            /* the record to visit next */
  gsize offset;            /* the input offset it is visited at */
  guint64 steps;           /* nodes passed so far */
  gboolean prefetch_tail;  /* the tree is big: prefetch the lines after a record, as the single lookup does */
} Walk;

static inline void
_prefetch_record(const Walk *w)
{
  const guchar *record = w->job->radix->blob + w->node;

  __builtin_prefetch(record);
  if (w->prefetch_tail)
    __builtin_prefetch(record + PDB_CACHE_LINE);
}

/* One forced step (see the invariant above): TRUE if the walk moved to a
 * child, FALSE if the node must be visited by the full search. */
static inline gboolean
_step(Walk *w)
{
  const PdbRadix *r = w->job->radix;
  const PdbFrozenNode *n = pdb_frozen_node(r, w->node);
  const guchar *in = (const guchar *) w->job->input;
  gsize len = w->job->length;
  const guchar *key, *first;
  gsize key_length, pos, cpos;
  gint k;
  guchar c;

  if ((n->flags & (PDB_NODE_WIDE | PDB_NODE_KEY_HAS_LF | PDB_NODE_HAS_VALUE)) || n->n_parser || !n->n_literal)
    return FALSE;
  key = (const guchar *) (n + 1);
  key_length = n->key_length;
  if (len - w->offset < key_length || !pdb_bytes_equal(in + w->offset, key, key_length))
    return FALSE;
  pos = w->offset + key_length;
  if (pos == len)
    return FALSE;
  cpos = pos;
  c = in[pos];
  if (c == '\r' && pos + 1 < len && in[pos + 1] == '\n')
    {
      cpos++;
      c = '\n';
    }
  first = key + key_length;
  k = pdb_frozen_literal_child(n, first, c);
  if (k < 0)
    return FALSE;
  w->node = pdb_frozen_children_after(first, n->n_literal)[k];
  w->offset = cpos;
  w->steps++;
  return TRUE;
}

/* Starts @job: TRUE if it is a walk to interleave, FALSE if it was done at
 * once (no tree, a small tree, or one the single lookup refuses). */
static gboolean
_start(PdbLookupJob *job, Walk *w, gsize min_blob)
{
  const PdbRadix *r = job->radix;

  if (!r)
    {
      job->found = FALSE;
      return FALSE;
    }
  if (!r->frozen || job->length > G_MAXUINT32 || (r->blob_size < min_blob && !r->region))
    {
      /* the single lookup says what is wrong (or that nothing matches) */
      job->found = pdb_radix_lookup(r, job->input, job->length, job->match);
      return FALSE;
    }
  w->job = job;
  w->node = 0;
  w->offset = 0;
  w->steps = 0;
  w->prefetch_tail = r->blob_size >= PDB_PREFETCH_MIN_BLOB;
  _prefetch_record(w);
  return TRUE;
}

static inline void
_finish(Walk *w)
{
  PdbLookupJob *job = w->job;

  job->found = pdb_radix_lookup_from(job->radix, job->input, job->length, job->match,
                                     w->node, w->offset, w->steps);
}

void
pdb_radix_lookup_many(PdbLookupJob *jobs, gsize n_jobs)
{
  pdb_radix_lookup_many_above(jobs, n_jobs, PDB_PREFETCH_MIN_BLOB);
}

void
pdb_radix_lookup_many_above(PdbLookupJob *jobs, gsize n_jobs, gsize min_blob)
{
  Walk walks[PDB_LOOKUP_GROUP];
  guint active = 0;
  gsize next = 0;

  for (;;)
    {
      while (active < PDB_LOOKUP_GROUP && next < n_jobs)
        if (_start(&jobs[next++], &walks[active], min_blob))
          active++;
      if (active == 0)
        return;
      for (guint i = 0; i < active;)
        {
          if (_step(&walks[i]))
            {
              _prefetch_record(&walks[i]);
              i++;
              continue;
            }
          /* not forced: the rest of this walk is the single search; its
           * slot takes the next job, or the last walk */
          _finish(&walks[i]);
          while (next < n_jobs && !_start(&jobs[next], &walks[i], min_blob))
            next++;
          if (next < n_jobs)
            {
              next++;
              i++;
            }
          else
            walks[i] = walks[--active];
        }
    }
}

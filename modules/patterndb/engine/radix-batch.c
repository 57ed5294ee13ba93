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
 * to fall back on: a narrow node without a value and without a CRLF-aware
 * key, whose key matches, and then either its next input byte selects a
 * literal child and it has no parser child, or no literal child takes
 * that byte, it has exactly one parser child, and that parser accepts the
 * input there. In both cases the single lookup continues in that child in
 * the same frame (the parser's capture pushed), with no partial candidate
 * and nothing to backtrack to; so its outcome is the child's visit alone,
 * with the captures of the path so far. At the first
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

/* The forced step through a node's only parser child (no literal child
 * takes the next byte): the start-set filter, the parse and the capture
 * as the single search does them. FALSE (nothing changed) if the node
 * must be visited by the full search. */
static inline gboolean
_step_parser(Walk *w, const PdbFrozenNode *n, const guchar *first, gsize pos)
{
  const PdbRadix *r = w->job->radix;
  const guchar *in = (const guchar *) w->job->input;
  PdbMatch *m = w->job->match;
  const guint32 *pchildren, *pindex;
  const PdbParser *parser;
  PdbParseResult res;
  guint32 packed;

  if (n->n_parser != 1 || m->n_captures == m->capacity)
    return FALSE;
  pchildren = pdb_frozen_children_after(first, n->n_literal) + n->n_literal;
  pindex = pchildren + 1;
  packed = pindex[0];
  if (!pdb_byte_set_has(pdb_child_parser_starts(r, packed), in[pos]))
    return FALSE;
  parser = &r->parser_table[pdb_child_parser_index(packed)].parser;
  if (!parser->parse(parser, in + pos, w->job->length - pos, &res))
    return FALSE;
  if (parser->capture_name)
    {
      PdbCapture *c = &m->captures[m->n_captures++];

      c->name = parser->capture_name;
      c->offset = pos + res.value_offset;
      c->length = res.value_length;
      c->type = parser->value_type;
    }
  w->node = pchildren[0];
  w->offset = pos + res.consumed;
  w->steps += 2;   /* the node's visit and the parser's call */
  return TRUE;
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

  if ((n->flags & (PDB_NODE_WIDE | PDB_NODE_KEY_HAS_LF | PDB_NODE_HAS_VALUE)) || n->n_parser > 1
      || (n->n_parser == 0 && n->n_literal == 0))
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
  k = n->n_literal ? pdb_frozen_literal_child(n, first, c) : -1;
  if (k >= 0)
    {
      if (n->n_parser)
        return FALSE;
      w->node = pdb_frozen_children_after(first, n->n_literal)[k];
      w->offset = cpos;
      w->steps++;
      return TRUE;
    }
  return _step_parser(w, n, first, pos);
}

static inline gboolean
_interleaves(const PdbRadix *r, gsize min_blob)
{
  return r->frozen && (r->blob_size >= min_blob || r->region);
}

gboolean
pdb_radix_lookup_many_interleaves(const PdbRadix *radix)
{
  return radix && _interleaves(radix, PDB_PREFETCH_MIN_BLOB);
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
  if (!_interleaves(r, min_blob) || job->length > G_MAXUINT32)
    {
      /* the single lookup says what is wrong (or that nothing matches) */
      job->found = pdb_radix_lookup(r, job->input, job->length, job->match);
      return FALSE;
    }
  w->job = job;
  job->match->n_captures = 0;
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

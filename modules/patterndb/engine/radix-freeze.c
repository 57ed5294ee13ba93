/*
 * radix-freeze.c: turns the build-time tree into the compact, immutable
 * blob of node records that lookups walk (THE FROZEN LAYOUT in
 * radix-node.h).
 *
 * Invariant: after pdb_radix_freeze() every node is one record in
 * depth-first pre-order (a subtree is one contiguous byte range, and a
 * node's first child follows it directly), carrying its key, its value
 * and, for each child, the child's offset and first byte or parser index;
 * the tree's distinct parsers (its parser cache) are in parsers and, by
 * value with their start sets, in parser_table (cache-line aligned); the
 * distinct start sets (at most 255) are in start_sets; parser_nodes is in
 * pre-order (sorted by offset); the build tree, its arena and the cache
 * are gone. Nothing changes afterwards.
 */
#include "engine/radix-node.h"

#include <string.h>

typedef struct _Freezer
{
  PdbRadix *radix;
  guint32 n_parser_nodes;  /* written so far */
  guint8 *set_ids;         /* of each parser: its index in start_sets, or PDB_START_SET_OWN */
} Freezer;

/* Key lengths and parser counts that do not fit the u16 fields. */
static gboolean
_is_wide(const PdbBuildNode *b)
{
  return b->key_length > PDB_NODE_NARROW_MAX || b->n_pchildren > PDB_NODE_NARROW_MAX;
}

static gsize
_record_size(const PdbBuildNode *b)
{
  /* parser nodes have no key; records start at multiples of 4, so the
   * padding before the child offsets is computed from the record start */
  gsize size = sizeof(PdbFrozenNode) + (_is_wide(b) ? 2 * sizeof(guint32) : 0)
               + b->key_length + b->n_children;

  size = (size + 3) & ~(gsize) 3;
  size += sizeof(guint32) * ((gsize) b->n_children + 2 * (gsize) b->n_pchildren);
  size += b->has_value ? sizeof(gpointer) : 0;
  size += b->label ? 1 + b->label_length : 0;
  return (size + 3) & ~(gsize) 3;
}

typedef struct
{
  PdbBuildNode *node;
  guint32 slot;            /* blob offset of the parent's child slot, or PDB_NO_NODE for the root */
  guint32 parent_slot;     /* blob offset of the parent's parser-index slot (parser nodes) or
                              of its first-byte slot for this child (literal nodes but the root) */
} Pending;

/* Writes @b's record at @offset (@location: a parser node's, else NULL);
 * its child slots are filled when the children are written. Returns the
 * record size. */
static gsize
_write_record(Freezer *f, const PdbBuildNode *b, guint32 offset, guint32 parser_index,
              const PdbLocation *location)
{
  PdbRadix *r = f->radix;
  PdbFrozenNode *n = (PdbFrozenNode *) (r->blob + offset);
  gsize size = _record_size(b);

  g_assert(offset + size <= r->blob_bound);
  memset(n, 0, size);
  n->n_literal = b->n_children;
  if (_is_wide(b))
    {
      guint32 wide[2] = { b->key_length, b->n_pchildren };

      n->flags |= PDB_NODE_WIDE;
      memcpy(n + 1, wide, sizeof(wide));
    }
  else
    {
      n->n_parser = (guint16) b->n_pchildren;
      n->key_length = (guint16) b->key_length;
    }
  if (b->has_value)
    {
      n->flags |= PDB_NODE_HAS_VALUE;
      memcpy((guchar *) (pdb_frozen_child_parsers(n) + b->n_pchildren), &b->value, sizeof(gpointer));
      r->n_values++;
      if (b->label)
        {
          guchar *dest = (guchar *) pdb_frozen_label(n);

          n->flags |= PDB_NODE_HAS_LABEL;
          dest[0] = b->label_length;
          memcpy(dest + 1, b->label, b->label_length);
        }
    }
  if (location)
    {
      PdbParserNode *pn = &r->parser_nodes[f->n_parser_nodes];

      pn->location = *location;
      pn->parser = parser_index;
      pn->offset = offset;
      f->n_parser_nodes++;
      n->flags |= PDB_NODE_IS_PARSER;
    }
  else
    {
      memcpy((guchar *) pdb_frozen_key(n), b->key, b->key_length);
      if (memchr(b->key, '\n', b->key_length))
        n->flags |= PDB_NODE_KEY_HAS_LF;
    }
  /* the first bytes of the literal children are written by each child
   * (_write_blob), which reads its key anyway: reading them here would
   * visit every child twice, the first time a cache miss */
  g_assert(pdb_frozen_record_size(n) == size);
  return size;
}

/* Pre-order, iteratively (trees are as deep as their longest pattern). */
static void
_write_blob(Freezer *f)
{
  PdbRadix *r = f->radix;
  gsize capacity = 64, depth = 0;
  Pending *stack = g_new(Pending, capacity);
  gsize end = 0;
  guint32 count = 0;

  stack[depth++] = (Pending) { r->root, PDB_NO_NODE, PDB_NO_NODE };
  while (depth)
    {
      Pending p = stack[--depth];
      guint32 offset = end;
      guint32 parser_index = PDB_NO_PARSER;

      /* the build nodes lie scattered: ask early for what this node's
       * record and its children's entries will read */
      __builtin_prefetch(p.node->children);
      if (p.node->label)
        __builtin_prefetch(p.node->label);

      if (p.node->parser)
        {
          parser_index = p.node->parser->table_index;
          guint32 packed = ((guint32) f->set_ids[parser_index] << PDB_PARSER_INDEX_BITS) | parser_index;
          memcpy(r->blob + p.parent_slot, &packed, sizeof(guint32));
        }
      else if (p.parent_slot != PDB_NO_NODE)
        r->blob[p.parent_slot] = (guchar) p.node->key[0];
      if (p.slot != PDB_NO_NODE)
        memcpy(r->blob + p.slot, &offset, sizeof(guint32));
      PdbLocation location = { p.node->parser ? p.node->file : NULL, p.node->line, p.node->column };
      end += _write_record(f, p.node, offset, parser_index, p.node->parser ? &location : NULL);
      count++;

      if (depth + p.node->n_children + p.node->n_pchildren > capacity)
        {
          capacity = MAX(capacity * 2, depth + p.node->n_children + p.node->n_pchildren);
          stack = g_renew(Pending, stack, capacity);
        }

      /* children in reverse, so that the first child is written next */
      const PdbFrozenNode *n = pdb_frozen_node(r, offset);
      guint32 slots = (guint32) ((const guchar *) pdb_frozen_children(n) - r->blob);
      guint32 pslots = (guint32) ((const guchar *) pdb_frozen_child_parsers(n) - r->blob);
      guint32 firsts = (guint32) ((const guchar *) pdb_frozen_first_bytes(n) - r->blob);
      for (guint32 c = p.node->n_pchildren; c > 0; c--)
        {
          stack[depth++] = (Pending) { pdb_build_pchild(p.node, c - 1),
                                       slots + 4 * (p.node->n_children + c - 1), pslots + 4 * (c - 1) };
          __builtin_prefetch(stack[depth - 1].node);
        }
      for (guint32 c = p.node->n_children; c > 0; c--)
        {
          stack[depth++] = (Pending) { p.node->children[c - 1], slots + 4 * (c - 1), firsts + c - 1 };
          __builtin_prefetch(p.node->children[c - 1]);
        }
    }
  g_assert(end <= r->blob_bound && count == r->n_nodes && f->n_parser_nodes == r->n_parser_nodes);
  r->blob_size = end;
  g_free(stack);
}

const PdbParserNode *
pdb_frozen_parser_node(const PdbRadix *r, const PdbFrozenNode *n)
{
  guint32 offset = (guint32) ((const guchar *) n - r->blob);
  guint32 lo = 0, hi = r->n_parser_nodes;

  if (!(n->flags & PDB_NODE_IS_PARSER))
    return NULL;
  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;

      if (r->parser_nodes[mid].offset < offset)
        lo = mid + 1;
      else
        hi = mid;
    }
  g_assert(lo < r->n_parser_nodes && r->parser_nodes[lo].offset == offset);
  return &r->parser_nodes[lo];
}

guint32
pdb_frozen_any_value(const PdbRadix *r, guint32 offset)
{
  /* pre-order: the subtree is the records from @offset on until every
   * child announced by a record has been passed */
  guint64 pending = 1;

  while (pending)
    {
      const PdbFrozenNode *n = pdb_frozen_node(r, offset);

      if (n->flags & PDB_NODE_HAS_VALUE)
        return offset;
      pending += (guint64) n->n_literal + pdb_frozen_n_parser(n) - 1;
      offset += (guint32) pdb_frozen_record_size(n);
    }
  return PDB_NO_NODE;
}

static guint
_byte_set_hash(gconstpointer p)
{
  const PdbByteSet *set = p;
  guint h = 0;

  for (guint i = 0; i < G_N_ELEMENTS(set->bits); i++)
    h = h * 31 + set->bits[i];
  return h;
}

static gboolean
_byte_set_equal(gconstpointer a, gconstpointer b)
{
  return memcmp(a, b, sizeof(PdbByteSet)) == 0;
}

/* The distinct parsers are the cache's: each gets a table entry (and a
 * reference of the frozen tree) and remembers its index for _write_blob().
 * Equal start sets get one entry in start_sets while there are at most
 * 255 distinct ones; the parsers whose set did not fit use their own. */
static void
_take_parsers(Freezer *f)
{
  PdbRadix *r = f->radix;
  GHashTableIter iter;
  gpointer parser;
  guint32 i = 0;
  GHashTable *sets = g_hash_table_new(_byte_set_hash, _byte_set_equal);

  r->n_parsers = g_hash_table_size(r->parser_cache);
  if (r->n_parsers > PDB_PARSER_INDEX_MASK + 1)
    g_error("patterndb: the pattern tree has %u distinct parsers; at most %u are supported",
            r->n_parsers, PDB_PARSER_INDEX_MASK + 1);
  r->parsers = g_new(PdbParser *, MAX(r->n_parsers, 1));
  r->parser_table = g_aligned_alloc(MAX(r->n_parsers, 1), sizeof(PdbFrozenParser), PDB_CACHE_LINE);
  r->start_sets = g_new(PdbByteSet, PDB_START_SET_OWN);
  r->n_start_sets = 0;
  f->set_ids = g_new(guint8, MAX(r->n_parsers, 1));
  g_hash_table_iter_init(&iter, r->parser_cache);
  while (g_hash_table_iter_next(&iter, NULL, &parser))
    {
      PdbParser *p = parser;
      gpointer id;

      p->table_index = i;
      r->parsers[i] = pdb_parser_ref(p);
      r->parser_table[i].parser = *p;
      if (p->param && strlen(p->param) < PDB_FROZEN_PARAM_INLINE)
        {
          strcpy(r->parser_table[i].param_copy, p->param);
          r->parser_table[i].parser.param = r->parser_table[i].param_copy;
        }
      pdb_parser_start_set(p, &r->parser_table[i].starts);
      if (g_hash_table_lookup_extended(sets, &r->parser_table[i].starts, NULL, &id))
        f->set_ids[i] = (guint8) GPOINTER_TO_UINT(id);
      else if (r->n_start_sets < PDB_START_SET_OWN)
        {
          r->start_sets[r->n_start_sets] = r->parser_table[i].starts;
          g_hash_table_insert(sets, &r->start_sets[r->n_start_sets], GUINT_TO_POINTER(r->n_start_sets));
          f->set_ids[i] = (guint8) r->n_start_sets++;
        }
      else
        f->set_ids[i] = PDB_START_SET_OWN;
      i++;
    }
  g_hash_table_destroy(sets);
}

/* 1, 2, ...: never 0, not repeated within 2^32 freezes. */
static guint32
_next_serial(void)
{
  static gint counter;
  guint32 serial;

  do
    serial = (guint32) g_atomic_int_add(&counter, 1) + 1;
  while (serial == 0);
  return serial;
}

guint32
pdb_radix_get_serial(const PdbRadix *radix)
{
  return radix->serial;
}

/* Writes @r's blob into @region when it fits there, else into memory of
 * its own. The blob is written in one walk into room for blob_bound bytes
 * (counted while building); the pages past its end are never touched. */
static void
_freeze_one(PdbRadix *r, PdbBlobRegion *region)
{
  Freezer f = { r, 0, NULL };

  if (r->blob_bound > G_MAXUINT32)
    g_error("patterndb: the pattern tree may need %" G_GSIZE_FORMAT " bytes; at most 4 GiB are supported",
            r->blob_bound);
  _take_parsers(&f);
  r->blob = region ? pdb_blob_region_reserve(region, r->blob_bound) : NULL;
  if (r->blob)
    r->region = region;
  else
    r->blob = g_malloc(r->blob_bound);
  r->parser_nodes = g_new(PdbParserNode, MAX(r->n_parser_nodes, 1));
  _write_blob(&f);
  if (r->region)
    pdb_blob_region_keep(r->region, r->blob, r->blob_size);
  else
    r->blob = g_realloc(r->blob, MAX(r->blob_size, 1));
  g_free(f.set_ids);

  pdb_radix_release_build(r);
  r->serial = _next_serial();
  r->frozen = TRUE;
}

void
pdb_radix_freeze(PdbRadix *r)
{
  pdb_radix_freeze_together(&r, 1);
}

void
pdb_radix_freeze_together(PdbRadix *const *trees, guint n_trees)
{
  pdb_radix_freeze_together_above(trees, n_trees, PDB_BLOB_REGION_MIN, 1);
}

void
pdb_radix_freeze_together_on(PdbRadix *const *trees, guint n_trees, guint threads)
{
  pdb_radix_freeze_together_above(trees, n_trees, PDB_BLOB_REGION_MIN, threads);
}

PdbBlobRegion *
pdb_radix_block_new(gsize capacity)
{
  return capacity >= PDB_BLOB_REGION_MIN ? pdb_blob_region_new(capacity) : NULL;
}

void
pdb_radix_freeze_in(PdbRadix *radix, PdbBlobRegion *block)
{
  if (!radix->frozen)
    _freeze_one(radix, block);
}

void
pdb_radix_block_done(PdbBlobRegion *block)
{
  if (!block)
    return;
  pdb_blob_region_trim(block);
  pdb_blob_region_unref(block);
}

gsize
pdb_radix_get_blob_bound(const PdbRadix *radix)
{
  return radix->frozen ? 0 : radix->blob_bound + PDB_BLOB_REGION_ALIGN;
}

/* A run of trees frozen into one region (NULL: each into its own memory). */
typedef struct
{
  PdbRadix *const *trees;
  guint n_trees;
  gsize bound;             /* the sum of their blob bounds, aligned */
  gboolean own_region;
} FreezeShare;

static gsize
_share_bound(PdbRadix *const *trees, guint n_trees)
{
  gsize total = 0;

  for (guint i = 0; i < n_trees; i++)
    total += pdb_radix_get_blob_bound(trees[i]);
  return total;
}

static gpointer
_freeze_share(gpointer data)
{
  const FreezeShare *share = data;
  PdbBlobRegion *region = share->own_region ? pdb_blob_region_new(share->bound) : NULL;

  for (guint i = 0; i < share->n_trees; i++)
    pdb_radix_freeze_in(share->trees[i], region);
  pdb_radix_block_done(region);
  return NULL;
}

void
pdb_radix_freeze_together_above(PdbRadix *const *trees, guint n_trees, gsize region_min, guint threads)
{
  gsize total = _share_bound(trees, n_trees);
  FreezeShare whole = { trees, n_trees, total, total >= region_min };

  if (threads < 2 || !whole.own_region || n_trees < 2)
    {
      _freeze_share(&whole);
      return;
    }

  /* two runs of about equal bounds, each with a region of its own: the
   * second on a thread of its own (trees share nothing while freezing) */
  guint split = 1;
  gsize first = pdb_radix_get_blob_bound(trees[0]);

  while (split < n_trees - 1 && first < total / 2)
    first += _share_bound(trees + split++, 1);
  FreezeShare head = { trees, split, first, TRUE };
  FreezeShare tail = { trees + split, n_trees - split, total - first, TRUE };
  GThread *thread = g_thread_new("pdb-freeze", _freeze_share, &tail);

  _freeze_share(&head);
  g_thread_join(thread);
}

void
pdb_radix_free_frozen(PdbRadix *r)
{
  for (guint32 i = 0; i < r->n_parsers; i++)
    pdb_parser_free(r->parsers[i]);
  g_free(r->parsers);
  g_aligned_free(r->parser_table);
  g_free(r->start_sets);
  g_free(r->parser_nodes);
  if (r->region)
    pdb_blob_region_unref(r->region);
  else
    g_free(r->blob);
  r->region = NULL;
  r->parsers = NULL;
  r->parser_table = NULL;
  r->start_sets = NULL;
  r->n_start_sets = 0;
  r->parser_nodes = NULL;
  r->blob = NULL;
  r->n_parsers = r->n_parser_nodes = r->n_nodes = 0;
  r->blob_size = 0;
}

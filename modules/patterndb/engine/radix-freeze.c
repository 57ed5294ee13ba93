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
 * value with their start sets, in parser_table; the build tree, its arena
 * and the cache are gone. Nothing changes afterwards.
 */
#include "engine/radix-node.h"

#include <string.h>

typedef struct _Freezer
{
  PdbRadix *radix;
  guint32 n_parser_nodes;  /* written so far */
} Freezer;

/* The label stored with @b's value (radix.h), or NULL. */
static const gchar *
_label(const PdbRadix *r, const PdbBuildNode *b, gsize *length)
{
  const gchar *label;

  if (!b->has_value || !r->label_func)
    return NULL;
  label = r->label_func(b->value, length);
  return label && *length <= PDB_RADIX_MAX_LABEL ? label : NULL;
}

static gsize
_record_size(const PdbRadix *r, const PdbBuildNode *b)
{
  gsize label_length = 0;

  /* parser nodes have no key; records start at multiples of 4, so the
   * padding before the child offsets is computed from the record start */
  gsize size = sizeof(PdbFrozenNode) + b->key_length + b->n_children;

  size = (size + 3) & ~(gsize) 3;
  size += sizeof(guint32) * ((gsize) b->n_children + 2 * (gsize) b->n_pchildren);
  size += b->has_value ? sizeof(gpointer) : 0;
  size += _label(r, b, &label_length) ? 1 + label_length : 0;
  return (size + 3) & ~(gsize) 3;
}

typedef struct
{
  PdbBuildNode *node;
  guint32 slot;            /* blob offset of the parent's child slot, or PDB_NO_NODE for the root */
  guint32 parser_slot;     /* blob offset of the parent's parser-index slot (parser nodes) */
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
  gsize size = _record_size(r, b);
  gsize label_length = 0;
  const gchar *label = _label(r, b, &label_length);

  memset(n, 0, size);
  n->n_literal = b->n_children;
  n->n_parser = b->n_pchildren;
  n->any_value = PDB_NO_NODE;
  n->info = PDB_NO_PARSER;
  n->key_length = b->key_length;
  if (b->has_value)
    {
      n->flags |= PDB_NODE_HAS_VALUE;
      memcpy((guchar *) (pdb_frozen_child_parsers(n) + n->n_parser), &b->value, sizeof(gpointer));
      r->n_values++;
      if (label)
        {
          guchar *dest = (guchar *) pdb_frozen_label(n);

          n->flags |= PDB_NODE_HAS_LABEL;
          dest[0] = (guchar) label_length;
          memcpy(dest + 1, label, label_length);
        }
    }
  if (location)
    {
      PdbParserNode *pn = &r->parser_nodes[f->n_parser_nodes];

      pn->location = *location;
      pn->parser = parser_index;
      n->info = f->n_parser_nodes++;
    }
  else
    {
      memcpy((guchar *) pdb_frozen_key(n), b->key, b->key_length);
      if (memchr(b->key, '\n', b->key_length))
        n->flags |= PDB_NODE_KEY_HAS_LF;
    }
  guchar *first = (guchar *) pdb_frozen_first_bytes(n);
  for (guint32 c = 0; c < b->n_children; c++)
    first[c] = (guchar) b->children[c]->key[0];
  return size;
}

/* Pre-order, iteratively (trees are as deep as their longest pattern). */
static void
_write_blob(Freezer *f, guint32 *order)
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

      if (p.node->parser)
        {
          parser_index = p.node->parser->table_index;
          memcpy(r->blob + p.parser_slot, &parser_index, sizeof(guint32));
        }
      if (p.slot != PDB_NO_NODE)
        memcpy(r->blob + p.slot, &offset, sizeof(guint32));
      PdbLocation location = { p.node->parser ? p.node->file : NULL, p.node->line, p.node->column };
      end += _write_record(f, p.node, offset, parser_index, p.node->parser ? &location : NULL);
      order[count++] = offset;

      if (depth + p.node->n_children + p.node->n_pchildren > capacity)
        {
          capacity = MAX(capacity * 2, depth + p.node->n_children + p.node->n_pchildren);
          stack = g_renew(Pending, stack, capacity);
        }

      /* children in reverse, so that the first child is written next */
      const PdbFrozenNode *n = pdb_frozen_node(r, offset);
      guint32 slots = (guint32) ((const guchar *) pdb_frozen_children(n) - r->blob);
      guint32 pslots = (guint32) ((const guchar *) pdb_frozen_child_parsers(n) - r->blob);
      for (guint32 c = p.node->n_pchildren; c > 0; c--)
        {
          stack[depth++] = (Pending) { pdb_build_pchild(p.node, c - 1),
                                       slots + 4 * (p.node->n_children + c - 1), pslots + 4 * (c - 1) };
        }
      for (guint32 c = p.node->n_children; c > 0; c--)
        {
          stack[depth++] = (Pending) { p.node->children[c - 1], slots + 4 * (c - 1), PDB_NO_NODE };
        }
    }
  g_assert(end == r->blob_size && count == r->n_nodes && f->n_parser_nodes == r->n_parser_nodes);
  g_free(stack);
}

/* Size of the blob and number of nodes, before writing. */
static void
_measure(PdbRadix *r)
{
  gsize capacity = 64, depth = 0;
  PdbBuildNode **stack = g_new(PdbBuildNode *, capacity);

  stack[depth++] = r->root;
  while (depth)
    {
      PdbBuildNode *b = stack[--depth];

      r->blob_size += _record_size(r, b);
      r->n_nodes++;
      r->n_parser_nodes += b->parser != NULL;
      if (depth + b->n_children + b->n_pchildren > capacity)
        {
          capacity = MAX(capacity * 2, depth + b->n_children + b->n_pchildren);
          stack = g_renew(PdbBuildNode *, stack, capacity);
        }
      for (guint32 c = 0; c < (guint32) b->n_children + b->n_pchildren; c++)
        stack[depth++] = b->children[c];
    }
  g_free(stack);
  if (r->blob_size > G_MAXUINT32)
    g_error("patterndb: the pattern tree needs %" G_GSIZE_FORMAT " bytes; at most 4 GiB are supported",
            r->blob_size);
}

/* Reverse pre-order visits children before parents: remember one node
 * with a value in each subtree, for explaining non-matches. */
static void
_fill_any_value(PdbRadix *r, const guint32 *order)
{
  for (gint64 i = (gint64) r->n_nodes - 1; i >= 0; i--)
    {
      PdbFrozenNode *n = (PdbFrozenNode *) (r->blob + order[i]);
      const guint32 *children = pdb_frozen_children(n);
      guint32 count = (guint32) n->n_literal + n->n_parser;

      if (n->flags & PDB_NODE_HAS_VALUE)
        n->any_value = order[i];
      for (guint32 c = 0; c < count && n->any_value == PDB_NO_NODE; c++)
        n->any_value = pdb_frozen_node(r, children[c])->any_value;
    }
}

/* The distinct parsers are the cache's: each gets a table entry (and a
 * reference of the frozen tree) and remembers its index for _write_blob(). */
static void
_take_parsers(PdbRadix *r)
{
  GHashTableIter iter;
  gpointer parser;
  guint32 i = 0;

  r->n_parsers = g_hash_table_size(r->parser_cache);
  r->parsers = g_new(PdbParser *, MAX(r->n_parsers, 1));
  r->parser_table = g_new(PdbFrozenParser, MAX(r->n_parsers, 1));
  g_hash_table_iter_init(&iter, r->parser_cache);
  while (g_hash_table_iter_next(&iter, NULL, &parser))
    {
      PdbParser *p = parser;

      p->table_index = i;
      r->parsers[i] = pdb_parser_ref(p);
      r->parser_table[i].parser = *p;
      pdb_parser_start_set(p, &r->parser_table[i].starts);
      i++;
    }
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

void
pdb_radix_freeze(PdbRadix *r)
{
  Freezer f = { r, 0 };
  guint32 *order;

  if (r->frozen)
    return;
  _take_parsers(r);
  _measure(r);
  r->blob = g_malloc(r->blob_size);
  r->parser_nodes = g_new(PdbParserNode, MAX(r->n_parser_nodes, 1));
  order = g_new(guint32, r->n_nodes);
  _write_blob(&f, order);
  _fill_any_value(r, order);
  g_free(order);

  pdb_radix_release_build(r);
  r->serial = _next_serial();
  r->frozen = TRUE;
}

void
pdb_radix_free_frozen(PdbRadix *r)
{
  for (guint32 i = 0; i < r->n_parsers; i++)
    pdb_parser_free(r->parsers[i]);
  g_free(r->parsers);
  g_free(r->parser_table);
  g_free(r->parser_nodes);
  g_free(r->blob);
  r->parsers = NULL;
  r->parser_table = NULL;
  r->parser_nodes = NULL;
  r->blob = NULL;
  r->n_parsers = r->n_parser_nodes = r->n_nodes = 0;
  r->blob_size = 0;
}

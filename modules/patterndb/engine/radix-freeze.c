/*
 * radix-freeze.c: turns the build-time tree into the compact, immutable
 * arrays that lookups walk (layout in radix-node.h).
 *
 * Invariant: after pdb_radix_freeze() the children of every node are
 * contiguous in nodes[] (literal children sorted by first byte, then parser
 * children in insertion order), keys are in one pool, parsers are owned by
 * radix->parsers, and the build tree is gone. Nothing changes afterwards.
 */
#include "engine/radix-node.h"

#include <string.h>

typedef struct _Freezer
{
  PdbRadix *radix;
  PdbBuildNode **order;    /* build nodes in breadth-first order */
  guint32 n_order, order_capacity;
  GByteArray *keys;
  GPtrArray *parsers;
} Freezer;

static guint
_n_literal(const PdbBuildNode *n)
{
  return n->n_children;
}

static guint
_n_parser(const PdbBuildNode *n)
{
  return n->n_pchildren;
}

/* A plain doubling array: GPtrArray's add is several times dearer here. */
static inline void
_order_push(Freezer *f, PdbBuildNode *node)
{
  if (G_UNLIKELY(f->n_order == f->order_capacity))
    {
      f->order_capacity = f->order_capacity ? f->order_capacity * 2 : 64;
      f->order = g_renew(PdbBuildNode *, f->order, f->order_capacity);
    }
  f->order[f->n_order++] = node;
}

/* Breadth-first: a node's children are appended together, so they are contiguous. */
static void
_order_nodes(Freezer *f)
{
  _order_push(f, f->radix->root);
  for (guint i = 0; i < f->n_order; i++)
    {
      PdbBuildNode *n = f->order[i];

      for (guint c = 0; c < _n_literal(n); c++)
        _order_push(f, n->children[c]);
      for (guint c = 0; c < _n_parser(n); c++)
        _order_push(f, n->pchildren[c]);
    }
}

static void
_fill_node(Freezer *f, guint32 index, guint32 *next_child)
{
  PdbRadix *r = f->radix;
  PdbBuildNode *b = f->order[index];
  PdbFrozenNode *n = &r->nodes[index];

  n->key_offset = f->keys->len;
  n->key_length = b->key ? b->key_length : 0;
  if (n->key_length)
    g_byte_array_append(f->keys, (const guint8 *) b->key, n->key_length);
  r->first_bytes[index] = n->key_length ? (guchar) b->key[0] : 0;
  if (n->key_length && memchr(b->key, '\n', n->key_length))
    n->flags |= PDB_NODE_KEY_HAS_LF;

  n->children = *next_child;
  n->n_literal = _n_literal(b);
  n->n_parser = _n_parser(b);
  *next_child += n->n_literal + n->n_parser;

  n->parser = PDB_NO_PARSER;
  if (b->parser)
    {
      n->parser = f->parsers->len;
      g_ptr_array_add(f->parsers, b->parser);
      b->parser = NULL;
    }
  if (b->has_value)
    {
      n->flags |= PDB_NODE_HAS_VALUE;
      n->value = b->value;
      r->n_values++;
    }
}

/* Post-order over the BFS array (children have larger indices): remember
 * one node with a value in each subtree, for explaining non-matches. */
static void
_fill_any_value(PdbRadix *r)
{
  for (gint64 i = (gint64) r->n_nodes - 1; i >= 0; i--)
    {
      PdbFrozenNode *n = &r->nodes[i];

      r->any_value[i] = (n->flags & PDB_NODE_HAS_VALUE) ? (guint32) i : G_MAXUINT32;
      for (guint32 c = 0; c < (guint32) n->n_literal + n->n_parser && r->any_value[i] == G_MAXUINT32; c++)
        r->any_value[i] = r->any_value[n->children + c];
    }
}

void
pdb_radix_freeze(PdbRadix *r)
{
  Freezer f = { r, NULL, 0, 0, g_byte_array_new(), g_ptr_array_new() };
  guint32 next_child = 1;

  if (r->frozen)
    return;
  _order_nodes(&f);
  r->n_nodes = f.n_order;
  r->nodes = g_new0(PdbFrozenNode, r->n_nodes);
  r->first_bytes = g_new0(guchar, r->n_nodes);
  r->any_value = g_new(guint32, r->n_nodes);
  for (guint32 i = 0; i < r->n_nodes; i++)
    _fill_node(&f, i, &next_child);
  g_assert(next_child == r->n_nodes);
  _fill_any_value(r);

  r->keys_length = f.keys->len;
  r->keys = g_byte_array_free(f.keys, FALSE);
  /* An empty pool comes back as NULL; lookups add offsets to it (UB on NULL). */
  if (!r->keys)
    r->keys = g_new0(guchar, 1);
  r->n_parsers = f.parsers->len;
  r->parsers = (PdbParser **) g_ptr_array_free(f.parsers, FALSE);
  g_free(f.order);

  /* the parsers now belong to r->parsers */
  g_ptr_array_set_size(r->build_parsers, 0);
  pdb_radix_release_build(r);
  r->frozen = TRUE;
}

void
pdb_radix_free_frozen(PdbRadix *r)
{
  for (guint32 i = 0; i < r->n_parsers; i++)
    pdb_parser_free(r->parsers[i]);
  g_free(r->parsers);
  g_free(r->nodes);
  g_free(r->first_bytes);
  g_free(r->keys);
  g_free(r->any_value);
  r->parsers = NULL;
  r->nodes = NULL;
  r->first_bytes = NULL;
  r->keys = NULL;
  r->any_value = NULL;
  r->n_parsers = r->n_nodes = 0;
}

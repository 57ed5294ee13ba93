/*
 * radix-dump.c: pdbtool's `dump` layout of a frozen tree, and statistics.
 *
 *   [0]\t''
 *   [1]\t  'user '
 *   [2]\t    'root logged in' rule_id='r2'
 *   [2]\t    @STRING:u@ [file.xml:3:88]''
 *
 * One line per node, depth-first: "[depth]", a TAB, two spaces per level,
 * the literal key in quotes or "@TYPE:name@ [file:line:col]''" (name
 * "None" when unnamed; IPvANY shows as IP, OPTIONALSET as UNKNOWN), a space,
 * then whatever the describe callback appends for a node with a value.
 * Literal children come first, in 3.38's order (signed first byte), then
 * parser children in insertion order.
 *
 * Invariant: read-only; the output depends only on the tree.
 */
#include "engine/radix-node.h"

#include <string.h>

static void
_dump_line(const PdbRadix *r, guint32 index, guint depth, GString *out,
           PdbRadixDescribeFunc describe, gpointer user_data)
{
  const PdbFrozenNode *n = pdb_frozen_node(r, index);
  const PdbParser *p = pdb_frozen_node_parser(r, n);

  g_string_append_printf(out, "[%u]\t%*s", depth, (int) depth * 2, "");
  if (p)
    {
      const PdbLocation *loc = &pdb_frozen_parser_node(r, n)->location;

      g_string_append_printf(out, "@%s:%s@ [%s:%d:%d]''", pdb_parser_display_type(p),
                             p->capture_name ? p->capture_name : "None",
                             loc->file ? loc->file : "", loc->line, loc->column);
    }
  else
    {
      g_string_append_c(out, '\'');
      g_string_append_len(out, (const gchar *) pdb_frozen_key(n), pdb_frozen_key_length(n));
      g_string_append_c(out, '\'');
    }
  g_string_append_c(out, ' ');
  if ((n->flags & PDB_NODE_HAS_VALUE) && describe)
    describe(pdb_frozen_value(n), out, user_data);
  g_string_append_c(out, '\n');
}

typedef struct
{
  guint32 index;
  guint depth;
} DumpItem;

/* Depth-first with an explicit stack (trees can be deep): children are
 * pushed in reverse so that they come out in dump order. */
static void
_dump_tree(const PdbRadix *r, GString *out, PdbRadixDescribeFunc describe, gpointer user_data)
{
  GArray *stack = g_array_new(FALSE, FALSE, sizeof(DumpItem));
  DumpItem root = { 0, 0 };

  g_array_append_val(stack, root);
  while (stack->len)
    {
      DumpItem item = g_array_index(stack, DumpItem, stack->len - 1);
      const PdbFrozenNode *n = pdb_frozen_node(r, item.index);
      const guint32 *children = pdb_frozen_children(n);
      const guchar *first = pdb_frozen_first_bytes(n);

      g_array_set_size(stack, stack->len - 1);
      _dump_line(r, item.index, item.depth, out, describe, user_data);

      /* output order: literal children by signed first byte (3.38: bytes >=
       * 0x80 first), then parser children in insertion order */
      for (guint32 c = pdb_frozen_n_parser(n); c > 0; c--)
        {
          DumpItem child = { children[n->n_literal + c - 1], item.depth + 1 };
          g_array_append_val(stack, child);
        }
      for (gint round = 1; round >= 0; round--)
        for (guint32 c = n->n_literal; c > 0; c--)
          {
            gboolean high = first[c - 1] >= 0x80;
            if (high == (round == 0))
              {
                DumpItem child = { children[c - 1], item.depth + 1 };
                g_array_append_val(stack, child);
              }
          }
    }
  g_array_free(stack, TRUE);
}

void
pdb_radix_dump(const PdbRadix *radix, GString *out, PdbRadixDescribeFunc describe_value,
               gpointer user_data)
{
  g_return_if_fail(radix->frozen);
  _dump_tree(radix, out, describe_value, user_data);
}

void
pdb_radix_get_stats(const PdbRadix *r, PdbRadixStats *stats)
{
  memset(stats, 0, sizeof(*stats));
  g_return_if_fail(r->frozen);
  stats->nodes = r->n_nodes;
  stats->parser_nodes = r->n_parser_nodes;
  stats->values = r->n_values;
  stats->bytes = sizeof(*r) + r->blob_size + r->n_parser_nodes * sizeof(PdbParserNode)
                 + r->n_start_sets * sizeof(PdbByteSet)
                 + r->n_parsers * (sizeof(PdbParser *) + 2 * sizeof(PdbParser) + sizeof(PdbByteSet));
}

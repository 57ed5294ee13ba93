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
_dump_node(const PdbRadix *r, guint32 index, guint depth, GString *out,
           PdbRadixDescribeFunc describe, gpointer user_data)
{
  const PdbFrozenNode *n = &r->nodes[index];

  g_string_append_printf(out, "[%u]\t%*s", depth, (int) depth * 2, "");
  if (n->parser != PDB_NO_PARSER)
    {
      const PdbParser *p = r->parsers[n->parser];

      g_string_append_printf(out, "@%s:%s@ [%s:%d:%d]''", pdb_parser_display_type(p),
                             p->capture_name ? p->capture_name : "None",
                             p->location.file ? p->location.file : "", p->location.line,
                             p->location.column);
    }
  else
    {
      g_string_append_c(out, '\'');
      g_string_append_len(out, (const gchar *) r->keys + n->key_offset, n->key_length);
      g_string_append_c(out, '\'');
    }
  g_string_append_c(out, ' ');
  if ((n->flags & PDB_NODE_HAS_VALUE) && describe)
    describe(n->value, out, user_data);
  g_string_append_c(out, '\n');

  /* 3.38 sorts literal children by signed char: bytes >= 0x80 first */
  for (gint round = 0; round < 2; round++)
    for (guint32 c = 0; c < n->n_literal; c++)
      {
        gboolean high = r->first_bytes[n->children + c] >= 0x80;
        if (high == (round == 0))
          _dump_node(r, n->children + c, depth + 1, out, describe, user_data);
      }
  for (guint32 c = 0; c < n->n_parser; c++)
    _dump_node(r, n->children + n->n_literal + c, depth + 1, out, describe, user_data);
}

void
pdb_radix_dump(const PdbRadix *radix, GString *out, PdbRadixDescribeFunc describe_value,
               gpointer user_data)
{
  g_return_if_fail(radix->frozen);
  _dump_node(radix, 0, 0, out, describe_value, user_data);
}

void
pdb_radix_get_stats(const PdbRadix *r, PdbRadixStats *stats)
{
  memset(stats, 0, sizeof(*stats));
  g_return_if_fail(r->frozen);
  stats->nodes = r->n_nodes;
  stats->parser_nodes = r->n_parsers;
  stats->values = r->n_values;
  stats->bytes = sizeof(*r) + r->n_nodes * (sizeof(PdbFrozenNode) + 1 + sizeof(guint32))
                 + r->keys_length + r->n_parsers * (sizeof(PdbParser *) + sizeof(PdbParser));
}

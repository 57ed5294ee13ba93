/*
 * tree-walk.h: visit a radix tree's parser nodes and values in pdbtool's
 * order (depth first, literal children before parser children), for
 * `dump` and `dictionary`.
 *
 * The engine exposes its tree only through pdb_radix_dump(); this walker
 * reads that dump, so the order is exactly the order `dump` prints.
 */
#ifndef PDB_TOOL_TREE_WALK_H
#define PDB_TOOL_TREE_WALK_H

#include "engine/radix.h"

G_BEGIN_DECLS

typedef struct _PdbTreeVisitor
{
  /* a parser node and its capture name ("" when unnamed) */
  void (*parser)(const gchar *type, const gchar *name, gpointer user_data);
  /* a node with a value */
  void (*value)(gpointer value, gpointer user_data);
} PdbTreeVisitor;

void pdb_tool_walk_tree(const PdbRadix *radix, const PdbTreeVisitor *visitor, gpointer user_data);

G_END_DECLS

#endif

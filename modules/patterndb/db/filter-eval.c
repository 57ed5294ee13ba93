/*
 * filter-eval.c: evaluates, scans and frees the trees of filter-node.h, and
 * reads the subject's values (filter-expr.h says what it provides).
 *
 * Invariant: `and` and `or` evaluate their right side only when the left
 * side does not decide (3.38 does the same), so a function with side
 * effects in 3.38 (none here) would run as often.
 */
#include "db/filter-node.h"

#include <string.h>

PdbFilterNode *
pdb_filter_node_new_func(const PdbFilterFuncOps *ops, gpointer data)
{
  PdbFilterNode *n = g_new0(PdbFilterNode, 1);

  n->kind = PDB_FILTER_NODE_FUNC;
  n->ops = ops;
  n->data = data;
  return n;
}

void
pdb_filter_node_free(PdbFilterNode *node)
{
  if (!node)
    return;
  pdb_filter_node_free(node->left);
  pdb_filter_node_free(node->right);
  if (node->ops && node->data)
    node->ops->free(node->data);
  g_free(node);
}

gboolean
pdb_filter_node_eval(const PdbFilterNode *node, const PdbFilterSubject *subject)
{
  switch (node->kind)
    {
    case PDB_FILTER_NODE_AND:
      return pdb_filter_node_eval(node->left, subject) && pdb_filter_node_eval(node->right, subject);
    case PDB_FILTER_NODE_OR:
      return pdb_filter_node_eval(node->left, subject) || pdb_filter_node_eval(node->right, subject);
    case PDB_FILTER_NODE_NOT:
      return !pdb_filter_node_eval(node->left, subject);
    case PDB_FILTER_NODE_FUNC:
      return node->ops->eval(node->data, subject);
    }
  return FALSE;
}

void
pdb_filter_node_scan(const PdbFilterNode *node, gboolean *reads_context, guint *max_index)
{
  if (!node)
    return;
  pdb_filter_node_scan(node->left, reads_context, max_index);
  pdb_filter_node_scan(node->right, reads_context, max_index);
  if (node->ops && node->ops->scan)
    node->ops->scan(node->data, reads_context, max_index);
}

void
pdb_filter_node_refs(const PdbFilterNode *node, PdbFilterRefFunc func, gpointer user_data)
{
  if (!node)
    return;
  pdb_filter_node_refs(node->left, func, user_data);
  pdb_filter_node_refs(node->right, func, user_data);
  if (node->ops && node->ops->refs)
    node->ops->refs(node->data, func, user_data);
}

const gchar *
pdb_filter_subject_get(const PdbFilterSubject *subject, const gchar *name, gssize *length)
{
  gssize len = -1;
  const gchar *v = subject->lookup ? subject->lookup(name, 0, &len, subject->user_data) : NULL;

  if (!v)
    {
      *length = 0;
      return "";
    }
  *length = len < 0 ? (gssize) strlen(v) : len;
  return v;
}

void
pdb_filter_append_msghdr(PdbTemplateLookupFunc lookup, gpointer user_data, GString *out)
{
  PdbFilterSubject s = { lookup, NULL, user_data };
  gssize len;
  const gchar *v;

  if (lookup)
    {
      gssize probe = -1;

      if (lookup("LEGACY_MSGHDR", 0, &probe, user_data))
        {
          v = pdb_filter_subject_get(&s, "LEGACY_MSGHDR", &len);
          g_string_append_len(out, v, len);
          return;
        }
    }
  v = pdb_filter_subject_get(&s, "PROGRAM", &len);
  if (!len)
    return;
  g_string_append_len(out, v, len);
  v = pdb_filter_subject_get(&s, "PID", &len);
  if (len)
    {
      g_string_append_c(out, '[');
      g_string_append_len(out, v, len);
      g_string_append_c(out, ']');
    }
  g_string_append(out, ": ");
}

/*
 * expr-cond.h: comparisons of templates with not/and/or, the subset of
 * syslog-ng's filter language that action conditions
 * (correlation/condition.h) and the template function $(if) use:
 *
 *   "tmpl" OP "tmpl"     OP: == != < > <= >= compare numerically, as 3.38
 *                        does (both sides converted like atoi(), so
 *                        "yes" == "no" is true); eq ne lt gt le ge compare
 *                        the strings (strcmp)
 *   not E, E and E, E or E, ( E )   `not` binds tightest, then `and`, then `or`
 *
 * A "tmpl" is a double- or single-quoted template (db/template.h).
 * Anything else fails to compile with the column and what was expected.
 */
#ifndef PDB_DB_EXPR_COND_H
#define PDB_DB_EXPR_COND_H

#include "db/template.h"

G_BEGIN_DECLS

typedef struct _PdbExprCond PdbExprCond;

PdbExprCond *pdb_expr_cond_compile(const gchar *text, GError **error);
void pdb_expr_cond_free(PdbExprCond *cond);

/* @lookup resolves the templates' names (and $(context-length)). */
gboolean pdb_expr_cond_eval(const PdbExprCond *cond, PdbTemplateLookupFunc lookup, gpointer lookup_data);

/* ORs into *reads_context and MAXes into *max_index what the operands'
 * templates need from a correlation context. */
void pdb_expr_cond_scan(const PdbExprCond *cond, gboolean *reads_context, guint *max_index);

G_END_DECLS

#endif

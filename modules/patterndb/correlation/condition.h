/*
 * condition.h: the `condition` attribute of a patterndb <action>, a small
 * subset of syslog-ng's filter language evaluated over a correlation
 * context (or over the triggering message alone when the rule has none).
 *
 *   "tmpl" OP "tmpl"     OP: == != < > <= >= compare numerically, as 3.38
 *                        does (both sides converted like atoi(), so
 *                        "yes" == "no" is true); eq ne lt gt le ge compare
 *                        the strings (strcmp)
 *   not E, E and E, E or E, ( E )   `not` binds tightest, then `and`, then `or`
 *
 * A "tmpl" is a double- or single-quoted string holding a template (see
 * db/template.h; `${name}@N` looks N messages back from the last message
 * of the context, and template functions work, $(context-length) being
 * the number of messages in the context).
 * Anything else fails to compile with the column and what was expected.
 */
#ifndef PDB_CORRELATION_CONDITION_H
#define PDB_CORRELATION_CONDITION_H

#include "db/template.h"

G_BEGIN_DECLS

typedef struct _PdbCondition PdbCondition;

PdbCondition *pdb_condition_compile(const gchar *text, GError **error);
void pdb_condition_free(PdbCondition *cond);

/* @lookup resolves template names (index 0 = the newest message); @context_length
 * is what $(context-length) expands to. */
gboolean pdb_condition_eval(const PdbCondition *cond, PdbTemplateLookupFunc lookup,
                            gpointer lookup_data, guint context_length);

G_END_DECLS

#endif

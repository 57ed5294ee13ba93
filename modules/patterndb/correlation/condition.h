/*
 * condition.h: the `condition` attribute of a patterndb <action>, evaluated
 * over a correlation context (or over the triggering message alone when the
 * rule has none). The language is db/expr-cond.h: quoted templates compared
 * with == != < > <= >= (numerically, as 3.38) or eq ne lt gt le ge, joined
 * by not, and, or and parentheses. In the templates `${name}@N` looks N
 * messages back from the last message of the context and $(context-length)
 * is the number of messages in it.
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

/*
 * template-func.h: the template functions `$(name arg...)` of db/template.h
 * (internal to db/template.c; not part of the library's interface).
 *
 * template.c finds where a call ends and splits it into words; this file
 * knows the functions: it compiles the words of one call (options first
 * consumed, the rest compiled as templates) and appends the call's result.
 */
#ifndef PDB_DB_TEMPLATE_FUNC_H
#define PDB_DB_TEMPLATE_FUNC_H

#include "db/template.h"

G_BEGIN_DECLS

typedef struct _PdbTemplateCall PdbTemplateCall;

/*
 * Compiles a call of @name with the (already unquoted) @words (NULL-terminated,
 * may be empty; borrowed). Returns NULL with @error set for an unknown function, an
 * unknown option or an argument that does not compile.
 */
PdbTemplateCall *pdb_template_call_new(const gchar *name, const gchar *const *words, GError **error);
void pdb_template_call_free(PdbTemplateCall *call);

/* The largest ${name}@N among the arguments. */
guint pdb_template_call_get_max_context_index(const PdbTemplateCall *call);
/* TRUE when the call needs the correlation context ($(context-length), or an
 * argument that does). */
gboolean pdb_template_call_reads_context(const PdbTemplateCall *call);

/* TRUE for $(iterate) or a call with such an argument. */
gboolean pdb_template_call_is_stateful(const PdbTemplateCall *call);

/* Appends the result to @out. */
void pdb_template_call_append(const PdbTemplateCall *call, PdbTemplateLookupFunc lookup,
                              gpointer user_data, GString *out);

/* As pdb_template_call_append() for `$(...)@N`: the call sees only the
 * message @back messages before the newest one. */
void pdb_template_call_append_at(const PdbTemplateCall *call, guint back, PdbTemplateLookupFunc lookup,
                                 gpointer user_data, GString *out);

G_END_DECLS

#endif

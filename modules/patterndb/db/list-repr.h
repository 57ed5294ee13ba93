/*
 * list-repr.h: how syslog-ng 3.38 writes one element of a list (the
 * $(list-*) functions' output, the TAGS macro): an empty element is `""`;
 * one without quotes, `,`, blanks (space, \t \n \r \b \f) and `\` is
 * written as it is; one with `"` and no `'` goes in single quotes, any
 * other in double quotes with `"` escaped; inside the quotes \b \f \n \r \t
 * and `\` are escaped, other control characters are written \xHH.
 */
#ifndef PDB_DB_LIST_REPR_H
#define PDB_DB_LIST_REPR_H

#include <glib.h>

G_BEGIN_DECLS

/* Appends @value (@length bytes) to @out as one list element. */
void pdb_list_append_element(GString *out, const gchar *value, gsize length);

G_END_DECLS

#endif

/*
 * filter.h: the syslog-ng filter expressions `patterndb match -F` accepts.
 *
 * Supported (the ones pdbtool users write):
 *   tags("t1" "t2" ...)            the message has any of these tags
 *   match("re" [value("NAME")])    regex on a value; without value():
 *                                  on "$MSGHDR$MESSAGE", as 3.38 does
 *   program("re"), host("re"), message("re")
 *   options inside those: type(pcre|string|glob), flags(ignore-case)
 *   and, or, not, ( ... )          `not` binds tighter than `and`,
 *                                  `and` tighter than `or`
 * Anything else is a compile error that names the column.
 */
#ifndef PDB_TOOL_FILTER_H
#define PDB_TOOL_FILTER_H

#include "tool/message.h"

G_BEGIN_DECLS

#define PDB_TOOL_FILTER_FUNCTIONS "tags(), match() with value(), program(), host(), message(); and, or, not, parentheses; type(pcre|string|glob) and flags(ignore-case)"

typedef struct _PdbToolFilter PdbToolFilter;

PdbToolFilter *pdb_tool_filter_compile(const gchar *expression, GError **error);
void pdb_tool_filter_free(PdbToolFilter *filter);

/* @scratch is a buffer the filter may use (for $MSGHDR$MESSAGE). */
gboolean pdb_tool_filter_eval(const PdbToolFilter *filter, PdbToolMessage *msg, GString *scratch);

/* The "$MSGHDR" macro: LEGACY_MSGHDR, or "PROGRAM[PID]: " built from the values. */
void pdb_tool_append_msghdr(PdbToolMessage *msg, GString *out);

G_END_DECLS

#endif

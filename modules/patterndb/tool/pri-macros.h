/*
 * pri-macros.h: syslog-ng 3.38's macros of a message's priority for the
 * templates of `patterndb match`: $PRI, $FACILITY, $FACILITY_NUM,
 * $SEVERITY / $LEVEL / $PRIORITY, $SEVERITY_NUM / $LEVEL_NUM, $TAG (the
 * priority in two hex digits) and $BSDTAG (severity digit, facility letter).
 */
#ifndef PDB_TOOL_PRI_MACROS_H
#define PDB_TOOL_PRI_MACROS_H

#include <glib.h>

G_BEGIN_DECLS

/* The priority of a message made without one (user.notice), as 3.38's
 * generated messages have. */
#define PDB_TOOL_DEFAULT_PRI 13

/* Appends the text of macro @name for priority @pri; FALSE when @name is
 * not one of these macros (nothing appended). */
gboolean pdb_tool_pri_macro_append(const gchar *name, gint pri, GString *out);

G_END_DECLS

#endif

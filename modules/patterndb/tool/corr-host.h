/*
 * corr-host.h: the correlation host of `patterndb match`: contexts keep
 * snapshots (correlation/nv-message.h) that carry their header time, and
 * date macros in action templates ($ISODATE, ${S_UNIXTIME}@1 ...) are
 * formatted from the time of the message they name, as pdbtool 3.38 does.
 */
#ifndef PDB_TOOL_CORR_HOST_H
#define PDB_TOOL_CORR_HOST_H

#include "correlation/nv-message.h"
#include "tool/date-macros.h"

G_BEGIN_DECLS

extern const PdbCorrelationHost pdb_tool_correlation_host;

/* The priority of a snapshot: its own, else PDB_TOOL_DEFAULT_PRI. */
gint pdb_tool_snapshot_pri(PdbNvMessage *msg);

/* The stamp of a snapshot as a tool time: its own, else the wall clock. */
void pdb_tool_snapshot_time(PdbNvMessage *msg, PdbToolTime *out);

G_END_DECLS

#endif

/*
 * nv-message.h: a reference-counted snapshot of a log message (name-value
 * pairs with their types, and tags), for hosts that have no message object
 * of their own to keep in a correlation context (the command-line tool,
 * the unit tests). pdb_nv_message_host is the PdbCorrelationHost for it.
 *
 * A message may carry its own time (the header stamp it was read with):
 * a copy made for an inherit mode keeps it, and a message made for
 * inherit-mode none gets the newest context message's (copy_time), as
 * syslog-ng 3.38 stamps generated messages. The snapshot only keeps the
 * time; a host that prints date macros formats it (pdb_nv_message_host
 * answers no macro itself).
 */
#ifndef PDB_CORRELATION_NV_MESSAGE_H
#define PDB_CORRELATION_NV_MESSAGE_H

#include "correlation/correlation.h"

G_BEGIN_DECLS

typedef struct _PdbNvMessage PdbNvMessage;

/* A point in time and the UTC offset it is shown in. */
typedef struct _PdbNvTime
{
  gint64 sec;
  gint32 usec;
  gint32 gmtoff;   /* seconds east of UTC */
} PdbNvTime;

PdbNvMessage *pdb_nv_message_new(void);
PdbNvMessage *pdb_nv_message_ref(PdbNvMessage *msg);
void pdb_nv_message_unref(PdbNvMessage *msg);

/* Replaces the value in place (keeps its position) or appends it. As in
 * syslog-ng's LogMessage, writing PROGRAM or PID drops LEGACY_MSGHDR (the
 * header those were parsed from no longer matches them). */
void pdb_nv_message_set(PdbNvMessage *msg, const gchar *name, const gchar *value, gssize length,
                        PdbValueType type);
/* Appends a value whose name @msg does not have yet (no lookup: for
 * building a snapshot from a store whose names are unique). */
void pdb_nv_message_add(PdbNvMessage *msg, const gchar *name, const gchar *value, gssize length,
                        PdbValueType type);
/* The value stays valid until @msg is changed or freed. */
const gchar *pdb_nv_message_get(PdbNvMessage *msg, const gchar *name, gssize *length);
/* Removes @name (the others keep their order). */
void pdb_nv_message_unset(PdbNvMessage *msg, const gchar *name);
void pdb_nv_message_set_stamp(PdbNvMessage *msg, const PdbNvTime *stamp);
/* The syslog priority; -1 (the default) when the message has none. */
void pdb_nv_message_set_pri(PdbNvMessage *msg, gint pri);
gint pdb_nv_message_get_pri(PdbNvMessage *msg);
/* FALSE when the message has no time of its own (@stamp is untouched). */
gboolean pdb_nv_message_get_stamp(PdbNvMessage *msg, PdbNvTime *stamp);
void pdb_nv_message_set_tag(PdbNvMessage *msg, const gchar *tag);
void pdb_nv_message_clear_tag(PdbNvMessage *msg, const gchar *tag);
gboolean pdb_nv_message_has_tag(PdbNvMessage *msg, const gchar *tag);

typedef void (*PdbNvValueFunc)(const gchar *name, const gchar *value, gsize length,
                               PdbValueType type, gpointer user_data);
/* In the order the names were first set. */
void pdb_nv_message_foreach(PdbNvMessage *msg, PdbNvValueFunc func, gpointer user_data);

/* Tags in the order they were set. */
const GPtrArray *pdb_nv_message_get_tags(PdbNvMessage *msg);

extern const PdbMessageOps pdb_nv_message_ops;
extern const PdbCorrelationHost pdb_nv_message_host;

G_END_DECLS

#endif

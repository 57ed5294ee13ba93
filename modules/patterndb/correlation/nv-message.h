/*
 * nv-message.h: a reference-counted snapshot of a log message (name-value
 * pairs with their types, and tags), for hosts that have no message object
 * of their own to keep in a correlation context (the command-line tool,
 * the unit tests). pdb_nv_message_host is the PdbCorrelationHost for it.
 */
#ifndef PDB_CORRELATION_NV_MESSAGE_H
#define PDB_CORRELATION_NV_MESSAGE_H

#include "correlation/correlation.h"

G_BEGIN_DECLS

typedef struct _PdbNvMessage PdbNvMessage;

PdbNvMessage *pdb_nv_message_new(void);
PdbNvMessage *pdb_nv_message_ref(PdbNvMessage *msg);
void pdb_nv_message_unref(PdbNvMessage *msg);

/* Replaces the value in place (keeps its position) or appends it. As in
 * syslog-ng's LogMessage, writing PROGRAM or PID drops LEGACY_MSGHDR (the
 * header those were parsed from no longer matches them). */
void pdb_nv_message_set(PdbNvMessage *msg, const gchar *name, const gchar *value, gssize length,
                        PdbValueType type);
const gchar *pdb_nv_message_get(PdbNvMessage *msg, const gchar *name, gssize *length);
/* Removes @name (the others keep their order). */
void pdb_nv_message_unset(PdbNvMessage *msg, const gchar *name);
void pdb_nv_message_set_tag(PdbNvMessage *msg, const gchar *tag);
void pdb_nv_message_clear_tag(PdbNvMessage *msg, const gchar *tag);
gboolean pdb_nv_message_has_tag(PdbNvMessage *msg, const gchar *tag);

typedef void (*PdbNvValueFunc)(const gchar *name, const gchar *value, gsize length,
                               PdbValueType type, gpointer user_data);
/* In the order the names were first set. */
void pdb_nv_message_foreach(PdbNvMessage *msg, PdbNvValueFunc func, gpointer user_data);
/* The message's PRI, which ops.get answers as "PRI" (not a value: foreach
 * and pdb_nv_message_get do not list it); copied by the host's create(). */
void pdb_nv_message_set_pri(PdbNvMessage *msg, gint pri);

/* Tags in the order they were set. */
const GPtrArray *pdb_nv_message_get_tags(PdbNvMessage *msg);

extern const PdbMessageOps pdb_nv_message_ops;
extern const PdbCorrelationHost pdb_nv_message_host;

G_END_DECLS

#endif

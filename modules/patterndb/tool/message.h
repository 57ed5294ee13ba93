/*
 * message.h: the log message of the command-line tool, a name-value store
 * with tags, reused from one message to the next.
 *
 * pdbtool prints a message's values in the order syslog-ng numbers value
 * names (its "handles"): the built-in names first (HOST, MESSAGE, PROGRAM,
 * PID, MSGID, LEGACY_MSGHDR ...), then the classifier names, then every
 * name in the order the process first met it: the names a database
 * mentions while it loads, then names set while messages are processed.
 * Tags are printed in the order their names were first met. This store
 * keeps the same numbering, so `patterndb match` prints the same lines in
 * the same order.
 *
 * After the first few messages nothing is allocated any more: values live
 * in per-name buffers that are overwritten, and a message generation
 * counter says which of them belong to the current message.
 */
#ifndef PDB_TOOL_MESSAGE_H
#define PDB_TOOL_MESSAGE_H

#include "db/database.h"

#include <stdio.h>

G_BEGIN_DECLS

typedef struct _PdbToolMessage PdbToolMessage;

PdbToolMessage *pdb_tool_message_new(void);
void pdb_tool_message_free(PdbToolMessage *msg);

/* Forgets every value and tag of the current message (keeps the numbering). */
void pdb_tool_message_reset(PdbToolMessage *msg);

/* Numbers the names and tags @db mentions, in the order 3.38's loader meets them. */
void pdb_tool_message_register_database(PdbToolMessage *msg, const PdbDatabase *db);
/* Numbers the names and tags a -F filter mentions (pdbtool compiles it
 * before it loads the database, so they come first). */
void pdb_tool_message_register_filter(PdbToolMessage *msg, const struct _PdbFilterExpr *filter);
void pdb_tool_message_register_name(PdbToolMessage *msg, const gchar *name, gssize length);
void pdb_tool_message_register_tag(PdbToolMessage *msg, const gchar *tag);

/*
 * Where the numbering stands: how many names and tags have a number
 * (handles and tag ids are 1 to that count, in the order they were given).
 * `match --threads` keeps each worker's store numbered exactly as a prefix
 * of the main thread's: a worker forgets the numbers a line made it give
 * (pdb_tool_message_forget_after, which also forgets the current
 * message), leaves the line to the main thread, and later registers the
 * names the main thread numbered, in its order.
 */
typedef struct
{
  guint names;
  guint tags;
} PdbToolMessageMark;

PdbToolMessageMark pdb_tool_message_mark(const PdbToolMessage *msg);
gboolean pdb_tool_message_marks_equal(PdbToolMessageMark a, PdbToolMessageMark b);
void pdb_tool_message_forget_after(PdbToolMessage *msg, PdbToolMessageMark mark);
/* The name of a handle, the tag of an id; NULL when out of range. */
const gchar *pdb_tool_message_name(const PdbToolMessage *msg, guint handle);
const gchar *pdb_tool_message_tag_name(const PdbToolMessage *msg, guint id);

/* The handles of the built-in names, fixed for every store. */
#define PDB_TOOL_MATCH_VALUES 256
enum
{
  PDB_TOOL_HANDLE_HOST = 1,
  PDB_TOOL_HANDLE_HOST_FROM,
  PDB_TOOL_HANDLE_MESSAGE,
  PDB_TOOL_HANDLE_PROGRAM,
  PDB_TOOL_HANDLE_PID,
  PDB_TOOL_HANDLE_MSGID,
  PDB_TOOL_HANDLE_SOURCE,
  PDB_TOOL_HANDLE_LEGACY_MSGHDR,
  PDB_TOOL_HANDLE_MATCH_0,              /* "0" .. "255": regex match values */
  PDB_TOOL_HANDLE_CONTEXT_ID = PDB_TOOL_HANDLE_MATCH_0 + 256,
  PDB_TOOL_HANDLE_CLASS,
  PDB_TOOL_HANDLE_RULE_ID,
};

/* For the built-in handles above (.SDATA.* names are set by name). */
void pdb_tool_message_set_handle(PdbToolMessage *msg, guint handle, const gchar *value,
                                 gssize length, PdbValueType type);
/* Unsets "0".."255" (before a regex stores its groups, as 3.38 does). */
void pdb_tool_message_clear_matches(PdbToolMessage *msg);
void pdb_tool_message_set(PdbToolMessage *msg, const gchar *name, gssize name_length,
                          const gchar *value, gssize length, PdbValueType type);
/* NULL when unset; *length is set. */
const gchar *pdb_tool_message_get(PdbToolMessage *msg, const gchar *name, gssize *length);
gboolean pdb_tool_message_get_type(PdbToolMessage *msg, const gchar *name, PdbValueType *type);
void pdb_tool_message_set_tag(PdbToolMessage *msg, const gchar *tag);
void pdb_tool_message_clear_tag(PdbToolMessage *msg, const gchar *tag);
gboolean pdb_tool_message_has_tag(PdbToolMessage *msg, const gchar *tag);

/* Every value set in the current message, then every tag, in pdbtool's order
 * (for the correlation snapshots of `match`). Either function may be NULL. */
typedef void (*PdbToolValueFunc)(const gchar *name, const gchar *value, gsize length, PdbValueType type,
                                 gpointer user_data);
typedef void (*PdbToolTagFunc)(const gchar *tag, gpointer user_data);
void pdb_tool_message_foreach(PdbToolMessage *msg, PdbToolValueFunc value_func, PdbToolTagFunc tag_func,
                              gpointer user_data);

/*
 * Macros for the templates of <value>s: pdb_result_apply() reads names
 * through pdb_tool_message_ops, which asks @func first when one is set
 * (NULL: not a macro, the stored value is looked up). NULL @func removes it.
 */
typedef const gchar *(*PdbToolMacroFunc)(const gchar *name, gssize *length, gpointer user_data);
/* The PRI of the current message (13 until set): the message ops answer
 * "PRI" with it, and "TAGS" with the tags, when no value has those names. */
void pdb_tool_message_set_pri(PdbToolMessage *msg, gint pri);
/* The values set so far came from the line's header: in $SDATA, their
 * .SDATA.* ones keep their order, later ones go where 3.38 puts them
 * (message-sdata.h). Forgotten by pdb_tool_message_reset(). */
void pdb_tool_message_end_header(PdbToolMessage *msg);
/* The names of the values set in the current message, each followed by a
 * NUL (PDB_TEMPLATE_VALUE_NAMES); the buffer lives until the next call. */
const gchar *pdb_tool_message_value_names(PdbToolMessage *msg, gssize *length);
/* Appends $SDATA: the message's .SDATA.* values as 3.38 prints them. */
void pdb_tool_message_format_sdata(PdbToolMessage *msg, GString *out);
void pdb_tool_message_set_macro_func(PdbToolMessage *msg, PdbToolMacroFunc func, gpointer user_data);

/* The adapter handed to pdb_result_apply(). */
extern const PdbMessageOps pdb_tool_message_ops;

/* "NAME=value" lines in pdbtool's order, then "TAGS=a,b" (no blank line). */
void pdb_tool_message_format_values(PdbToolMessage *msg, GString *out);
/* Comma-separated tags in pdbtool's order. */
void pdb_tool_message_format_tags(PdbToolMessage *msg, GString *out);
/* One JSON object: class, rule_id, tags, values (numbers typed). No newline. */
void pdb_tool_message_format_json(PdbToolMessage *msg, GString *out);

G_END_DECLS

#endif

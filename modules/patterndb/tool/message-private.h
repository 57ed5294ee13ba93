/*
 * message-private.h: the layout of the tool's name-value store, shared by
 * the files that implement it (message.c: names, values, tags;
 * message-format.c: the outputs). Nothing outside those files includes it.
 *
 * Invariant (kept by message.c): set_handles and set_tags hold exactly the
 * handles and tag ids set in the current message, each once, in the order
 * set until an output sorts them; slots[h - 1].stamp == stamp exactly for
 * those handles.
 */
#ifndef PDB_TOOL_MESSAGE_PRIVATE_H
#define PDB_TOOL_MESSAGE_PRIVATE_H

#include "tool/message.h"
#include "tool/message-sdata.h"
#include "tool/pointer-cache.h"

/* A growable array of handles: pushing is the hot path of every value. */
typedef struct
{
  guint *data;
  guint len;
  guint cap;
} UintStack;

/* A value: its own NUL-terminated buffer, reused from message to message. */
typedef struct
{
  gchar *str;
  gsize len;
  gsize cap;             /* bytes allocated at str, NUL included */
  PdbValueType type;
  guint32 stamp;
  gboolean sdata;        /* the name is a .SDATA.* one (a part of $SDATA) */
} Slot;

struct _PdbToolMessage
{
  GHashTable *handles;   /* name -> handle + 1; keys are the strings in `names` */
  GPtrArray *names;      /* handle -> name (owned) */
  GArray *slots;         /* handle -> Slot */
  UintStack set_handles; /* handles set in this message, in any order */
  guint header_end;      /* set_handles[0 .. header_end) were set by the line's header */
  gboolean sdata_set;    /* a .SDATA.* value is set in this message */
  PdbSdataOrder sdata_order; /* pdb_tool_message_format_sdata()'s scratch */
  GHashTable *tag_ids;   /* tag -> id + 1 */
  GPtrArray *tag_names;  /* id -> tag (owned) */
  GArray *tag_stamps;    /* id -> guint32 */
  UintStack set_tags;    /* ids set in this message */
  guint32 stamp;
  /* pointer -> handle cache for names passed by the database layer, whose
   * strings live as long as the database: a hit is confirmed with strcmp,
   * so a reused transient buffer can never get a wrong handle */
  PointerCache name_cache;
  PointerCache tag_cache;
  PdbToolMacroFunc macro_func;   /* asked first by ops_get (date macros) */
  gpointer macro_data;
  gint pri;              /* the line's PRI, answered as "PRI" by ops_get */
  GString *macro_text;   /* ops_get's answer to "PRI" and "TAGS" */
  GString *names_text;   /* pdb_tool_message_value_names()'s answer */
};

/* Sorts the set handles and tags by number (first-met order of names). */
void pdb_tool_message_sort_set(PdbToolMessage *msg);

#endif

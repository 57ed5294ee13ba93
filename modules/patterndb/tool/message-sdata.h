/*
 * message-sdata.h: the order of a message's structured-data values
 * (.SDATA.ID.PARAM names) and the $SDATA text made from them, as
 * pdbtool 3.38 keeps and prints them.
 *
 * 3.38 keeps a list of the message's .SDATA.* names, in which a name
 * enters when it is first set in the message (setting it again changes
 * the value, not the place):
 *   - while the header of a line is read (its RFC 5424 structured data,
 *     the Cisco "123: " and "*" / "." marks), at the end;
 *   - later (a rule's captures and <value>s), right after the last name
 *     that starts with the new name up to its last '.', or first when
 *     there is none (a byte prefix, not a whole SD-ID).
 * $SDATA prints the list in order: a name is split at its last '.' into
 * SD-ID and parameter (a name without a '.' after ".SDATA." is an SD-ID
 * alone), neighbours with the same SD-ID share one "[ID ...]" element,
 * and '"', '\' and ']' in values are escaped with a backslash.
 *
 * The list holds handles of the tool's message store (message.c); names
 * are looked up in its handle -> name array.
 */
#ifndef PDB_TOOL_MESSAGE_SDATA_H
#define PDB_TOOL_MESSAGE_SDATA_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint *handles;
  guint len;
  guint cap;
} PdbSdataOrder;

/* TRUE when @name (NUL-terminated) is a structured-data name. */
gboolean pdb_sdata_is_name(const gchar *name);

/* Enters @handle, new in the message; @names maps handle h to names[h - 1]. */
void pdb_sdata_order_insert(PdbSdataOrder *order, guint handle, const GPtrArray *names,
                            gboolean header);

typedef const gchar *(*PdbSdataValueFunc)(guint handle, gsize *length, gpointer user_data);

/* Appends $SDATA to @out. */
void pdb_sdata_order_format(const PdbSdataOrder *order, const GPtrArray *names,
                            PdbSdataValueFunc value, gpointer user_data, GString *out);

void pdb_sdata_order_clear(PdbSdataOrder *order);

G_END_DECLS

#endif

/*
 * message-ops.h: PdbMessageOps backed by a syslog-ng LogMessage, so that
 * pdb_result_apply() writes classification results straight into it.
 */
#ifndef PDB_SNG_MESSAGE_OPS_H
#define PDB_SNG_MESSAGE_OPS_H

#include "loaded-db.h"
#include "logmsg/logmsg.h"
#include "template/templates.h"

/*
 * What the ops write into: @msg must be writable. @program and @message
 * are the buffers given to pdb_database_classify(); when @program_handle
 * or @message_handle is not 0 the buffer is exactly that value of @msg
 * (and stays valid for the whole call), so captures from it are stored as
 * indirect values (offset and length, no copy).
 */
typedef struct _PdbSngMessage
{
  LogMessage *msg;
  const PdbSngDb *db;
  const gchar *program;
  gsize program_length;
  NVHandle program_handle;
  const gchar *message;
  gsize message_length;
  NVHandle message_handle;
  /* for macros ($DATE, $SOURCEIP ...) in <value> templates */
  const LogTemplateOptions *template_options;
} PdbSngMessage;

extern const PdbMessageOps pdb_sng_message_ops;

/* The engine's value type closest to syslog-ng's @type (int32 and int64:
 * INT64, double: DOUBLE, anything else: STRING). */
PdbValueType pdb_sng_value_type_from(LogMessageValueType type);

#endif

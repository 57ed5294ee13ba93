/*
 * match-header.c: what a line's header, parsed by syslog-line.c, sets in
 * the message of `match -f`: HOST, MESSAGE, PROGRAM, PID, MSGID,
 * LEGACY_MSGHDR and the structured data (the Cisco sequence id and time
 * quality, RFC 5424's SD-PARAMs as .SDATA.ID.PARAM), or, for a line 3.38
 * cannot parse, the "Error processing log message" record it makes of it.
 */
#include "tool/match.h"

#include <string.h>

#define TIME_QUALITY_NAME ".SDATA.timeQuality.isSynced"

static void
set_slice(PdbToolMessage *msg, guint handle, PdbSlice s)
{
  if (s.data)
    pdb_tool_message_set_handle(msg, handle, s.data, s.length, PDB_VALUE_STRING);
}

static void
set_sd_param(const gchar *name, gsize name_length, const gchar *value, gsize value_length,
             gpointer user_data)
{
  Matcher *m = user_data;
  gchar buf[256];

  if (name_length + 8 > sizeof(buf))
    return;
  memcpy(buf, ".SDATA.", 7);
  memcpy(buf + 7, name, name_length);
  pdb_tool_message_set(m->msg, buf, name_length + 7, value, value_length, PDB_VALUE_STRING);
}

/* The structured data of a line's header, in 3.38's order: the sequence
 * id first ($SDATA prints it so), then the time quality, then RFC 5424's. */
static void
set_header_sdata(Matcher *m, const PdbSyslogLine *l)
{
  if (l->sequence_id.data)
    pdb_tool_message_set(m->msg, ".SDATA.meta.sequenceId", -1, l->sequence_id.data, l->sequence_id.length,
                         PDB_VALUE_STRING);
  if (l->time_quality >= 0)
    pdb_tool_message_set(m->msg, TIME_QUALITY_NAME, -1, l->time_quality ? "1" : "0", 1, PDB_VALUE_STRING);
  if (l->sdata.data)
    pdb_syslog_line_foreach_sd_param(l->sdata, m->sd_name, m->sd_value, set_sd_param, m);
  pdb_tool_message_end_header(m->msg);
}

void
pdb_match_set_error_record(Matcher *m, const gchar *line, gsize length, const PdbSyslogLine *l)
{
  gsize split = l->error_position >= 0 ? MIN((gsize) l->error_position, length) : 0;

  g_string_assign(m->error_text, "Error processing log message: ");
  g_string_append_len(m->error_text, line, split);
  if (l->error_position >= 0)
    g_string_append(m->error_text, ">@<");
  g_string_append_len(m->error_text, line + split, length - split);
  pdb_tool_message_set_handle(m->msg, PDB_TOOL_HANDLE_HOST, "", 0, PDB_VALUE_STRING);
  pdb_tool_message_set_handle(m->msg, PDB_TOOL_HANDLE_MESSAGE, m->error_text->str, m->error_text->len,
                              PDB_VALUE_STRING);
  pdb_tool_message_set_handle(m->msg, PDB_TOOL_HANDLE_PROGRAM, "syslog-ng", -1, PDB_VALUE_STRING);
  pdb_tool_message_set_handle(m->msg, PDB_TOOL_HANDLE_PID, m->pid_text, -1, PDB_VALUE_STRING);
}

void
pdb_match_set_header(Matcher *m, const PdbSyslogLine *l)
{
  static const gchar empty[] = "";

  set_slice(m->msg, PDB_TOOL_HANDLE_HOST, l->host);
  pdb_tool_message_set_handle(m->msg, PDB_TOOL_HANDLE_MESSAGE, l->message.data ? l->message.data : empty,
                              l->message.length, PDB_VALUE_STRING);
  set_slice(m->msg, PDB_TOOL_HANDLE_PROGRAM, l->program);
  set_slice(m->msg, PDB_TOOL_HANDLE_PID, l->pid);
  set_slice(m->msg, PDB_TOOL_HANDLE_MSGID, l->msgid);
  set_slice(m->msg, PDB_TOOL_HANDLE_LEGACY_MSGHDR, l->legacy_msghdr);
  if (l->sequence_id.data || l->time_quality >= 0 || l->sdata.data)
    set_header_sdata(m, l);
}

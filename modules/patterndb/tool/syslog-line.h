/*
 * syslog-line.h: split one log line into HOST, PROGRAM, PID, MESSAGE ...
 * the way `pdbtool match -f` (syslog-ng 3.38's syslog-format parser) does.
 *
 * The parser never copies and never allocates: every field is a slice of
 * the input line (pointer + length), and any byte sequence is accepted
 * (NULs included; the caller decides where lines end). Unset fields have
 * data == NULL; a set but empty field has data != NULL and length 0.
 *
 * Formats, tried in this order after an optional <PRI>:
 *   RFC 5424  `1 TIMESTAMP HOST APP PROCID MSGID SD [MSG]` (when the line
 *             continues with "1 " right after the PRI, or ends in that
 *             "1": refused); as 3.38, a blank may stand for the 'T' of
 *             TIMESTAMP, the line may end after MSGID's blank, a blank
 *             there is no SD, a '[' ending the line after SD is dropped,
 *             and an unescaped ']' in an SD value is refused
 *   RFC 3164  `[seq: ][*|.][DATE ]HOST ]prog[pid]: msg`, DATE being
 *             `Mmm dd hh:mm:ss[.frac][:]`, `Mmm dd hh:mm:ss yyyy`,
 *             `Mmm dd yyyy hh:mm:ss` or ISO 8601 (`T` or blank between the
 *             date and the time). The quirks of 3.38 are kept on purpose
 *             (see tests/unit/test-tool-syslog-line.c, one row per quirk).
 * A line that cannot be parsed (a bad <PRI>, a broken RFC 5424 header) is
 * reported with parse_error and error_position, and the caller builds the
 * "Error processing log message" record 3.38 produces.
 */
#ifndef PDB_TOOL_SYSLOG_LINE_H
#define PDB_TOOL_SYSLOG_LINE_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct _PdbSlice
{
  const gchar *data;   /* NULL: unset */
  gsize length;
} PdbSlice;

typedef struct _PdbSyslogLine
{
  gboolean parse_error;
  gssize error_position;     /* where 3.38 puts its ">@<" marker; -1: no marker */
  gint pri;                  /* 13 (user.notice) when the line has none */
  gboolean rfc5424;
  PdbSlice host;
  PdbSlice program;
  PdbSlice pid;
  PdbSlice msgid;
  PdbSlice legacy_msghdr;    /* RFC 3164 only: "prog[pid]: " as it was written */
  PdbSlice message;
  PdbSlice sdata;            /* RFC 5424 structured data, raw ("[a b=\"c\"]...");
                              * $SDATA is rebuilt from the values (message-sdata.h) */
  gint time_quality;         /* RFC 3164 '*' (0) or '.' (1) before the date; -1: none */
  PdbSlice sequence_id;      /* RFC 3164 "123: " before the date */
  PdbSlice stamp;            /* the header's date as written, without a ':' after it;
                              * unset when there is none (RFC 5424 "-") */
} PdbSyslogLine;

/* Parses @line (@length bytes, no line terminator). Always fills @out. */
void pdb_syslog_line_parse(const gchar *line, gsize length, PdbSyslogLine *out);

/*
 * Only PROGRAM and MESSAGE, for the usual line without <PRI>
 * ("Mmm dd hh:mm:ss host prog[pid]: msg"): the same slices as
 * pdb_syslog_line_parse() gives, without filling the rest. FALSE (nothing
 * set) for any other line: then call pdb_syslog_line_parse().
 */
gboolean pdb_syslog_line_program_message(const gchar *line, gsize length,
                                         PdbSlice *program, PdbSlice *message);

/*
 * Calls @func for every SD-PARAM of a structured-data slice accepted by
 * pdb_syslog_line_parse(): @name is "SDID.PARAM" (or just "SDID" for an
 * element without parameters, with an empty value), @value unescaped.
 * @scratch is reused; the strings passed to @func live until the next call.
 */
typedef void (*PdbSdParamFunc)(const gchar *name, gsize name_length,
                               const gchar *value, gsize value_length,
                               gpointer user_data);
void pdb_syslog_line_foreach_sd_param(PdbSlice sdata, GString *scratch_name,
                                      GString *scratch_value, PdbSdParamFunc func,
                                      gpointer user_data);

G_END_DECLS

#endif

/*
 * date-macros.h: syslog-ng 3.38's date and time macros for the templates
 * of `patterndb match` (${ISODATE}, ${S_YEAR}, ${R_UNIXTIME} ...).
 *
 * A macro is a family prefix and a field: no prefix or S_ is the message's
 * own time (its header stamp), R_ the time it was received, C_ the current
 * time and P_ the time it was processed (for the tool the last three are
 * the wall clock). The fields are those of 3.38: ISODATE, DATE, FULLDATE,
 * STAMP, YEAR, YEAR_DAY, MONTH, MONTH_WEEK, MONTH_NAME, MONTH_ABBREV, DAY,
 * HOUR, HOUR12, AMPM, MIN, SEC, MSEC, USEC, UNIXTIME, TZ, TZOFFSET,
 * WEEKDAY, WEEK_DAY, WEEK_DAY_ABBREV, WEEK_DAY_NAME, WEEK, ISOWEEK.
 *
 * A time is seconds since the epoch, microseconds and the UTC offset it is
 * shown in: the stamp's own offset when its text has one, else the local
 * time zone (TZ) at that moment. Nothing here allocates but the caller's
 * GString.
 */
#ifndef PDB_TOOL_DATE_MACROS_H
#define PDB_TOOL_DATE_MACROS_H

#include "tool/syslog-line.h"

G_BEGIN_DECLS

typedef struct _PdbToolTime
{
  gint64 sec;
  gint32 usec;
  gint32 gmtoff;   /* seconds east of UTC the time is shown in */
} PdbToolTime;

typedef enum
{
  PDB_TOOL_TIME_STAMP,      /* no prefix, S_ */
  PDB_TOOL_TIME_RECEIVED,   /* R_ */
  PDB_TOOL_TIME_CURRENT,    /* C_ */
  PDB_TOOL_TIME_PROCESSED,  /* P_ */
} PdbToolTimeFamily;

/* Opaque field number of a macro, > 0. */
typedef gint PdbToolDateField;

/* The wall clock, shown in the local time zone. */
void pdb_tool_time_now(PdbToolTime *out);

/*
 * The time of a header stamp (PdbSyslogLine.stamp): ISO 8601 with its
 * offset (none: local time), or BSD `Mmm dd hh:mm:ss` in local time with
 * 3.38's year guess against @now_sec (a December stamp in January is last
 * year's, a January stamp in December next year's). Out-of-range fields
 * carry over as mktime() does (Feb 30 is Mar 1 or 2). FALSE when @stamp is
 * unset or not a stamp; @out is then untouched.
 */
gboolean pdb_tool_time_from_stamp(PdbSlice stamp, gint64 now_sec, PdbToolTime *out);

/* TRUE when @name is a date macro; sets its family and field. */
gboolean pdb_tool_date_macro_parse(const gchar *name, PdbToolTimeFamily *family, PdbToolDateField *field);

/* Appends the text of @field for @t, as 3.38 prints it. */
void pdb_tool_date_macro_append(PdbToolDateField field, const PdbToolTime *t, GString *out);

G_END_DECLS

#endif

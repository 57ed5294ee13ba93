/*
 * date-macros.c: the date and time macros of `patterndb match` templates
 * (see date-macros.h).
 *
 * Invariant: a PdbToolTime is shown exactly as its own offset says: the
 * broken-down fields are taken from UTC after adding gmtoff, so the local
 * time zone only matters when a time is made (mktime/localtime for stamps
 * without an offset and for the wall clock), never when it is printed.
 * Stamps come from the header parser (syslog-line.c), which has already
 * checked their shape; this file still checks each byte it reads.
 */
#include "tool/date-macros.h"

#include <string.h>
#include <time.h>

enum
{
  F_ISODATE = 1, F_DATE, F_FULLDATE, F_STAMP, F_YEAR, F_YEAR_DAY, F_MONTH, F_MONTH_WEEK,
  F_MONTH_NAME, F_MONTH_ABBREV, F_DAY, F_HOUR, F_HOUR12, F_AMPM, F_MIN, F_SEC, F_MSEC,
  F_USEC, F_UNIXTIME, F_TZ, F_TZOFFSET, F_WEEKDAY, F_WEEK_DAY, F_WEEK_DAY_ABBREV,
  F_WEEK_DAY_NAME, F_WEEK, F_ISOWEEK,
};

static const struct
{
  const gchar *name;
  gint field;
} fields[] =
{
  { "ISODATE", F_ISODATE }, { "DATE", F_DATE }, { "FULLDATE", F_FULLDATE },
  { "STAMP", F_STAMP }, { "YEAR", F_YEAR }, { "YEAR_DAY", F_YEAR_DAY },
  { "MONTH", F_MONTH }, { "MONTH_WEEK", F_MONTH_WEEK }, { "MONTH_NAME", F_MONTH_NAME },
  { "MONTH_ABBREV", F_MONTH_ABBREV }, { "DAY", F_DAY }, { "HOUR", F_HOUR },
  { "HOUR12", F_HOUR12 }, { "AMPM", F_AMPM }, { "MIN", F_MIN }, { "SEC", F_SEC },
  { "MSEC", F_MSEC }, { "USEC", F_USEC }, { "UNIXTIME", F_UNIXTIME }, { "TZ", F_TZ },
  { "TZOFFSET", F_TZOFFSET }, { "WEEKDAY", F_WEEKDAY }, { "WEEK_DAY", F_WEEK_DAY },
  { "WEEK_DAY_ABBREV", F_WEEK_DAY_ABBREV }, { "WEEK_DAY_NAME", F_WEEK_DAY_NAME },
  { "WEEK", F_WEEK }, { "ISOWEEK", F_ISOWEEK },
};

static const gchar *const month_abbrev[] =
{
  "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
};
static const gchar *const month_name[] =
{
  "January", "February", "March", "April", "May", "June", "July", "August", "September",
  "October", "November", "December",
};
static const gchar *const day_abbrev[] = { "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat" };
static const gchar *const day_name[] =
{
  "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
};

gboolean
pdb_tool_date_macro_parse(const gchar *name, PdbToolTimeFamily *family, PdbToolDateField *field)
{
  PdbToolTimeFamily f = PDB_TOOL_TIME_STAMP;

  if (name[0] && name[1] == '_')
    {
      switch (name[0])
        {
        case 'S': f = PDB_TOOL_TIME_STAMP; break;
        case 'R': f = PDB_TOOL_TIME_RECEIVED; break;
        case 'C': f = PDB_TOOL_TIME_CURRENT; break;
        case 'P': f = PDB_TOOL_TIME_PROCESSED; break;
        default: return FALSE;
        }
      name += 2;
    }
  for (gsize i = 0; i < G_N_ELEMENTS(fields); i++)
    if (strcmp(name, fields[i].name) == 0)
      {
        *family = f;
        *field = fields[i].field;
        return TRUE;
      }
  return FALSE;
}

static gint32
local_offset(gint64 sec)
{
  time_t t = (time_t) sec;
  struct tm tm;

  if (!localtime_r(&t, &tm))
    return 0;
  return (gint32) tm.tm_gmtoff;
}

void
pdb_tool_time_now(PdbToolTime *out)
{
  gint64 us = g_get_real_time();

  out->sec = us / G_USEC_PER_SEC;
  out->usec = (gint32) (us % G_USEC_PER_SEC);
  out->gmtoff = local_offset(out->sec);
}

/* ---- reading a stamp ---- */

typedef struct
{
  const gchar *s;
  gsize len;
  gsize pos;
} Reader;

/* Exactly @n digits at the reader; -1 (and no move) otherwise. */
static gint
read_digits(Reader *r, gsize n)
{
  gint v = 0;

  if (r->len - r->pos < n)
    return -1;
  for (gsize i = 0; i < n; i++)
    {
      gchar c = r->s[r->pos + i];

      if (!g_ascii_isdigit(c))
        return -1;
      v = v * 10 + (c - '0');
    }
  r->pos += n;
  return v;
}

static gboolean
read_char(Reader *r, gchar c)
{
  if (r->pos < r->len && r->s[r->pos] == c)
    {
      r->pos++;
      return TRUE;
    }
  return FALSE;
}

/* "hh:mm:ss" */
static gboolean
read_clock(Reader *r, struct tm *tm)
{
  tm->tm_hour = read_digits(r, 2);
  if (tm->tm_hour < 0 || !read_char(r, ':'))
    return FALSE;
  tm->tm_min = read_digits(r, 2);
  if (tm->tm_min < 0 || !read_char(r, ':'))
    return FALSE;
  tm->tm_sec = read_digits(r, 2);
  return tm->tm_sec >= 0;
}

/* ".ddd": microseconds from the first six digits (more are dropped). */
static gint32
read_fraction(Reader *r)
{
  gint32 usec = 0;
  gint n = 0;

  if (!read_char(r, '.'))
    return 0;
  while (r->pos < r->len && g_ascii_isdigit(r->s[r->pos]))
    {
      if (n < 6)
        {
          usec = usec * 10 + (r->s[r->pos] - '0');
          n++;
        }
      r->pos++;
    }
  for (; n < 6; n++)
    usec *= 10;
  return usec;
}

/* Days from 1970-01-01 to y-m-d of the proleptic Gregorian calendar (m 1..12). */
static gint64
days_from_civil(gint64 y, gint m, gint d)
{
  y -= m <= 2;
  gint64 era = (y >= 0 ? y : y - 399) / 400;
  gint64 yoe = y - era * 400;
  gint64 doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  gint64 doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;

  return era * 146097 + doe - 719468;
}

/* @tm (year, month and day may be out of range) at UTC offset @gmtoff. */
static gint64
seconds_at_offset(const struct tm *tm, gint32 gmtoff)
{
  gint64 year = tm->tm_year + 1900LL + tm->tm_mon / 12;
  gint mon = tm->tm_mon % 12;

  if (mon < 0)
    {
      mon += 12;
      year--;
    }
  return (days_from_civil(year, mon + 1, 1) + tm->tm_mday - 1) * 86400LL
         + tm->tm_hour * 3600LL + tm->tm_min * 60LL + tm->tm_sec - gmtoff;
}

/*
 * @tm in the local time zone. As 3.38, the fields stay as written and the
 * offset is the zone's at the moment mktime() makes of them: a time in the
 * gap of a DST change (02:30 on the day clocks jump to 03:00) is shown as
 * 02:30 at the new offset, not moved to 03:30.
 */
/* The offset of the last local minute asked for: log lines come in bursts
 * of the same minute, and mktime() costs more than the rest of a line.
 * Zones change their offset on whole minutes, so a minute has one offset
 * (an hour repeated when clocks go back is resolved once, as mktime does). */
static _Thread_local struct
{
  gboolean valid;
  gint year, mon, mday, hour, min;
  gint32 gmtoff;
} offset_cache;

static gboolean
from_local(const struct tm *tm, gint32 usec, PdbToolTime *out)
{
  struct tm copy = *tm;
  time_t t;

  if (!(offset_cache.valid && offset_cache.year == tm->tm_year && offset_cache.mon == tm->tm_mon
        && offset_cache.mday == tm->tm_mday && offset_cache.hour == tm->tm_hour
        && offset_cache.min == tm->tm_min))
    {
      copy.tm_isdst = -1;
      t = mktime(&copy);
      if (t == (time_t) -1 && copy.tm_year != 69)
        return FALSE;
      offset_cache.gmtoff = local_offset((gint64) t);
      offset_cache.year = tm->tm_year;
      offset_cache.mon = tm->tm_mon;
      offset_cache.mday = tm->tm_mday;
      offset_cache.hour = tm->tm_hour;
      offset_cache.min = tm->tm_min;
      offset_cache.valid = TRUE;
    }
  out->gmtoff = offset_cache.gmtoff;
  out->sec = seconds_at_offset(tm, out->gmtoff);
  out->usec = usec;
  return TRUE;
}

static gboolean
from_iso(Reader *r, PdbToolTime *out)
{
  struct tm tm = { 0 };
  gint y, v;
  gint32 usec;

  y = read_digits(r, 4);
  if (y < 0 || !read_char(r, '-'))
    return FALSE;
  tm.tm_year = y - 1900;
  if ((v = read_digits(r, 2)) < 0 || !read_char(r, '-'))
    return FALSE;
  tm.tm_mon = v - 1;
  if ((tm.tm_mday = read_digits(r, 2)) < 0)
    return FALSE;
  if (!read_char(r, 'T') && !read_char(r, ' '))
    return FALSE;
  if (!read_clock(r, &tm))
    return FALSE;
  usec = read_fraction(r);
  if (read_char(r, 'Z'))
    {
      out->sec = seconds_at_offset(&tm, 0);
      out->usec = usec;
      out->gmtoff = 0;
      return TRUE;
    }
  if (r->pos < r->len && (r->s[r->pos] == '+' || r->s[r->pos] == '-'))
    {
      gint sign = r->s[r->pos] == '-' ? -1 : 1, oh, om;

      r->pos++;
      oh = read_digits(r, 2);
      if (oh < 0 || !read_char(r, ':') || (om = read_digits(r, 2)) < 0)
        return FALSE;
      out->gmtoff = sign * (oh * 3600 + om * 60);
      out->sec = seconds_at_offset(&tm, out->gmtoff);
      out->usec = usec;
      return TRUE;
    }
  return from_local(&tm, usec, out);
}

static gint
month_index(const gchar *s)
{
  for (gint i = 0; i < 12; i++)
    if (s[0] == month_abbrev[i][0] && g_ascii_tolower(s[1]) == month_abbrev[i][1]
        && g_ascii_tolower(s[2]) == month_abbrev[i][2])
      return i;
  return -1;
}

static gboolean
from_bsd(Reader *r, gint64 now_sec, PdbToolTime *out)
{
  struct tm tm = { 0 };
  gint year = -1;
  gint32 usec = 0;

  if (r->len - r->pos < 7 || (tm.tm_mon = month_index(r->s + r->pos)) < 0)
    return FALSE;
  r->pos += 3;
  if (!read_char(r, ' '))
    return FALSE;
  /* the day is " d" or "dd" */
  tm.tm_mday = read_char(r, ' ') ? read_digits(r, 1) : read_digits(r, 2);
  if (tm.tm_mday < 0 || !read_char(r, ' '))
    return FALSE;
  if (r->len - r->pos >= 5 && r->s[r->pos + 4] == ' ')
    {
      /* "Mmm dd yyyy hh:mm:ss" */
      year = read_digits(r, 4);
      if (year < 0 || !read_char(r, ' ') || !read_clock(r, &tm))
        return FALSE;
    }
  else
    {
      if (!read_clock(r, &tm))
        return FALSE;
      usec = read_fraction(r);
      if (read_char(r, ' '))
        year = read_digits(r, 4);
    }
  if (year >= 0)
    tm.tm_year = year - 1900;
  else
    {
      /* 3.38's guess: the current year, but a December stamp in January
       * is last year's and a January stamp in December next year's */
      static _Thread_local gint64 cached_now = G_MININT64;
      static _Thread_local struct tm now_tm;
      time_t now = (time_t) now_sec;

      if (cached_now != now_sec)
        {
          if (!localtime_r(&now, &now_tm))
            return FALSE;
          cached_now = now_sec;
        }
      tm.tm_year = now_tm.tm_year;
      if (tm.tm_mon == 11 && now_tm.tm_mon == 0)
        tm.tm_year--;
      else if (tm.tm_mon == 0 && now_tm.tm_mon == 11)
        tm.tm_year++;
    }
  return from_local(&tm, usec, out);
}

gboolean
pdb_tool_time_from_stamp(PdbSlice stamp, gint64 now_sec, PdbToolTime *out)
{
  Reader r = { stamp.data, stamp.length, 0 };
  PdbToolTime t;

  if (!stamp.data || stamp.length == 0)
    return FALSE;
  if (!(g_ascii_isdigit(stamp.data[0]) ? from_iso(&r, &t) : from_bsd(&r, now_sec, &t)))
    return FALSE;
  *out = t;
  return TRUE;
}

/* ---- printing ---- */

static void
append_offset(GString *out, gint32 gmtoff)
{
  gint32 a = gmtoff < 0 ? -gmtoff : gmtoff;

  g_string_append_printf(out, "%c%02d:%02d", gmtoff < 0 ? '-' : '+', a / 3600, (a % 3600) / 60);
}

void
pdb_tool_date_macro_append(PdbToolDateField field, const PdbToolTime *t, GString *out)
{
  time_t shown = (time_t) (t->sec + t->gmtoff);
  struct tm tm;
  gchar buf[8];

  if (field == F_UNIXTIME)
    {
      g_string_append_printf(out, "%" G_GINT64_FORMAT, t->sec);
      return;
    }
  if (!gmtime_r(&shown, &tm))
    return;
  switch (field)
    {
    case F_ISODATE:
      g_string_append_printf(out, "%04d-%02d-%02dT%02d:%02d:%02d", tm.tm_year + 1900, tm.tm_mon + 1,
                             tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
      append_offset(out, t->gmtoff);
      break;
    case F_DATE:
    case F_STAMP:   /* 3.38's default ts-format, rfc3164 */
      g_string_append_printf(out, "%s %2d %02d:%02d:%02d", month_abbrev[tm.tm_mon], tm.tm_mday,
                             tm.tm_hour, tm.tm_min, tm.tm_sec);
      break;
    case F_FULLDATE:
      g_string_append_printf(out, "%d %s %2d %02d:%02d:%02d", tm.tm_year + 1900, month_abbrev[tm.tm_mon],
                             tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
      break;
    case F_YEAR:
      g_string_append_printf(out, "%d", tm.tm_year + 1900);
      break;
    case F_YEAR_DAY:
      g_string_append_printf(out, "%03d", tm.tm_yday + 1);
      break;
    case F_MONTH:
      g_string_append_printf(out, "%02d", tm.tm_mon + 1);
      break;
    case F_MONTH_WEEK:
      /* 3.38's week of the month */
      g_string_append_printf(out, "%d", tm.tm_mday / 7
                             + (tm.tm_wday > 0 && tm.tm_mday % 7 >= tm.tm_wday));
      break;
    case F_MONTH_NAME:
      g_string_append(out, month_name[tm.tm_mon]);
      break;
    case F_MONTH_ABBREV:
      g_string_append(out, month_abbrev[tm.tm_mon]);
      break;
    case F_DAY:
      g_string_append_printf(out, "%02d", tm.tm_mday);
      break;
    case F_HOUR:
      g_string_append_printf(out, "%02d", tm.tm_hour);
      break;
    case F_HOUR12:
      g_string_append_printf(out, "%02d", tm.tm_hour % 12 ? tm.tm_hour % 12 : 12);
      break;
    case F_AMPM:
      g_string_append(out, tm.tm_hour < 12 ? "AM" : "PM");
      break;
    case F_MIN:
      g_string_append_printf(out, "%02d", tm.tm_min);
      break;
    case F_SEC:
      g_string_append_printf(out, "%02d", tm.tm_sec);
      break;
    case F_MSEC:
      g_string_append_printf(out, "%03d", t->usec / 1000);
      break;
    case F_USEC:
      g_string_append_printf(out, "%06d", t->usec);
      break;
    case F_TZ:
    case F_TZOFFSET:
      append_offset(out, t->gmtoff);
      break;
    case F_WEEKDAY:
    case F_WEEK_DAY_ABBREV:
      g_string_append(out, day_abbrev[tm.tm_wday]);
      break;
    case F_WEEK_DAY_NAME:
      g_string_append(out, day_name[tm.tm_wday]);
      break;
    case F_WEEK_DAY:
      g_string_append_printf(out, "%d", tm.tm_wday + 1);
      break;
    case F_WEEK:
      /* weeks starting on Monday, the days before the first one are week 0 */
      g_string_append_printf(out, "%02d", (tm.tm_yday - (tm.tm_wday + 6) % 7 + 7) / 7);
      break;
    case F_ISOWEEK:
      if (strftime(buf, sizeof(buf), "%V", &tm) > 0)
        g_string_append(out, buf);
      break;
    default:
      break;
    }
}

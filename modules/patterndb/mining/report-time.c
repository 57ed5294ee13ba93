/*
 * report-time.c: the timestamp at the start of a log line, for the
 * report's timeline. Only the two shapes syslog writes are recognised
 * (BSD "Mmm dd hh:mm:ss" and ISO 8601); anything else has no time.
 *
 * Invariant: never reads past @length; returns -1 rather than guessing.
 */
#include "mining/report.h"

#include <string.h>

static const gchar months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";

static gint
digits(const gchar *p, gsize avail, guint n)
{
  if (avail < n)
    return -1;
  gint v = 0;
  for (guint i = 0; i < n; i++)
    {
      if (!g_ascii_isdigit(p[i]))
        return -1;
      v = v * 10 + (p[i] - '0');
    }
  return v;
}

static gint64
to_epoch(gint year, gint month, gint day, gint hour, gint minute, gint second, gint offset_seconds)
{
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60)
    return -1;
  GDateTime *dt = g_date_time_new_utc(year, month, day, hour, minute, second);
  if (!dt)
    return -1;
  gint64 t = g_date_time_to_unix(dt) - offset_seconds;
  g_date_time_unref(dt);
  return t;
}

/* hh:mm:ss at p; returns FALSE if absent. */
static gboolean
parse_clock(const gchar *p, gsize avail, gint *h, gint *m, gint *s)
{
  if (avail < 8 || p[2] != ':' || p[5] != ':')
    return FALSE;
  *h = digits(p, avail, 2);
  *m = digits(p + 3, avail - 3, 2);
  *s = digits(p + 6, avail - 6, 2);
  return *h >= 0 && *m >= 0 && *s >= 0;
}

gint64
pdb_report_parse_timestamp(const gchar *line, gsize length, gint default_year)
{
  const gchar *p = line, *end = line + length;

  if (p < end && *p == '<')
    {
      const gchar *close = memchr(p, '>', MIN((gsize) (end - p), 5));
      if (!close)
        return -1;
      p = close + 1;
      if (end - p >= 2 && p[0] == '1' && p[1] == ' ')
        p += 2;
    }

  gsize avail = end - p;
  gint h, mi, s;

  /* ISO 8601: YYYY-MM-DD[T ]hh:mm:ss[.frac][Z|+hh:mm|-hh:mm] */
  if (avail >= 19 && p[4] == '-' && p[7] == '-' && (p[10] == 'T' || p[10] == ' '))
    {
      gint y = digits(p, avail, 4), mo = digits(p + 5, avail - 5, 2), d = digits(p + 8, avail - 8, 2);
      if (y < 0 || mo < 0 || d < 0 || !parse_clock(p + 11, avail - 11, &h, &mi, &s))
        return -1;
      const gchar *q = p + 19;
      if (q < end && (*q == '.' || *q == ','))
        {
          q++;
          while (q < end && g_ascii_isdigit(*q))
            q++;
        }
      gint offset = 0;
      if (q < end && (*q == '+' || *q == '-') && end - q >= 6 && q[3] == ':')
        {
          gint oh = digits(q + 1, end - q - 1, 2), om = digits(q + 4, end - q - 4, 2);
          if (oh >= 0 && om >= 0)
            offset = (*q == '+' ? 1 : -1) * (oh * 3600 + om * 60);
        }
      return to_epoch(y, mo, d, h, mi, s, offset);
    }

  /* BSD: Mmm dd hh:mm:ss (day space-padded or zero-padded) */
  if (avail >= 15 && p[3] == ' ')
    {
      const gchar *m = NULL;
      for (guint i = 0; i < 12 && !m; i++)
        if (memcmp(p, months + 3 * i, 3) == 0)
          m = months + 3 * i;
      if (!m)
        return -1;
      gint month = (gint) ((m - months) / 3) + 1;
      gint day;
      if (p[4] == ' ')
        day = digits(p + 5, avail - 5, 1);
      else
        day = digits(p + 4, avail - 4, 2);
      if (day < 0 || p[6] != ' ' || !parse_clock(p + 7, avail - 7, &h, &mi, &s))
        return -1;
      return to_epoch(default_year, month, day, h, mi, s, 0);
    }
  return -1;
}

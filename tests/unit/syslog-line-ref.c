/*
 * syslog-line-ref.c: the syslog header parser of `patterndb match -f` as it
 * was before the scanner in modules/patterndb/tool/syslog-line.c was
 * rewritten for speed (class tables, one switch for the month, fixed-size
 * date fields read without a bounds check per byte). It is kept unchanged
 * as the reference of tests/unit/test-syslog-line-scanner.c, which feeds
 * both the same lines and wants the same fields; its entry point is
 * renamed pdb_syslog_line_parse_ref(). It covers RFC 3164 headers only
 * (see pdb_syslog_line_parse_ref()).
 *
 * It reproduces what Debian's pdbtool 3.38 makes of a line, odd lines
 * included, because scripts compare our output with its output. Every
 * function works on (pointer, length) with an explicit position and never
 * reads at or past the end: the invariant is `pos <= len` everywhere, and
 * a byte is only looked at after checking `pos < len`. Nothing is copied.
 */
#include "tool/syslog-line.h"

#include <string.h>

typedef struct
{
  const guchar *s;
  gsize len;
} Input;

static gboolean
at(const Input *in, gsize pos, guchar c)
{
  return pos < in->len && in->s[pos] == c;
}

static gboolean
is_digit_at(const Input *in, gsize pos)
{
  return pos < in->len && in->s[pos] >= '0' && in->s[pos] <= '9';
}

static gboolean
digits_at(const Input *in, gsize pos, gsize n)
{
  for (gsize i = 0; i < n; i++)
    if (!is_digit_at(in, pos + i))
      return FALSE;
  return TRUE;
}

static PdbSlice
slice(const Input *in, gsize start, gsize end)
{
  PdbSlice s = { (const gchar *) in->s + start, end - start };
  return s;
}

static gsize
skip_spaces(const Input *in, gsize pos)
{
  while (at(in, pos, ' '))
    pos++;
  return pos;
}

static void
fail(PdbSyslogLine *out, gssize position)
{
  PdbSyslogLine clean = { 0 };

  clean.parse_error = TRUE;
  clean.error_position = position < 0 ? -1 : position;
  clean.pri = 43;   /* syslog.err, as 3.38 marks its own error records */
  clean.time_quality = -1;
  *out = clean;
}

/* "hh:mm:ss" (no range check, as 3.38). */
static gboolean
scan_clock(const Input *in, gsize pos)
{
  return digits_at(in, pos, 2) && at(in, pos + 2, ':') && digits_at(in, pos + 3, 2)
         && at(in, pos + 5, ':') && digits_at(in, pos + 6, 2);
}

static gsize
skip_fraction(const Input *in, gsize pos)
{
  if (!at(in, pos, '.'))
    return pos;
  pos++;
  while (is_digit_at(in, pos))
    pos++;
  return pos;
}

/* ISO 8601: YYYY-MM-DD(T| )hh:mm:ss[.frac][Z|+hh:mm|-hh:mm]. */
static gboolean
scan_iso_date(const Input *in, gsize *ppos, gboolean allow_blank_separator)
{
  gsize pos = *ppos;

  if (!(digits_at(in, pos, 4) && at(in, pos + 4, '-') && digits_at(in, pos + 5, 2)
        && at(in, pos + 7, '-') && digits_at(in, pos + 8, 2)))
    return FALSE;
  if (!(at(in, pos + 10, 'T') || (allow_blank_separator && at(in, pos + 10, ' '))))
    return FALSE;
  if (!scan_clock(in, pos + 11))
    return FALSE;
  pos = skip_fraction(in, pos + 19);
  if (at(in, pos, 'Z'))
    pos++;
  else if ((at(in, pos, '+') || at(in, pos, '-')) && digits_at(in, pos + 1, 2)
           && at(in, pos + 3, ':') && digits_at(in, pos + 4, 2) && !is_digit_at(in, pos + 6))
    pos += 6;
  if (at(in, pos, ':'))
    pos++;
  *ppos = pos;
  return TRUE;
}

static gboolean
scan_month(const Input *in, gsize pos)
{
  static const char months[][4] =
  {
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
  };

  if (pos + 3 > in->len)
    return FALSE;
  for (gsize m = 0; m < G_N_ELEMENTS(months); m++)
    {
      /* 3.38 wants the first letter in upper case; the rest in any case. */
      if (in->s[pos] == (guchar) months[m][0]
          && g_ascii_tolower(in->s[pos + 1]) == months[m][1]
          && g_ascii_tolower(in->s[pos + 2]) == months[m][2])
        return TRUE;
    }
  return FALSE;
}

/* BSD: "Mmm dd hh:mm:ss[.frac][ yyyy][:]" or "Mmm dd yyyy hh:mm:ss". */
static gboolean
scan_bsd_date(const Input *in, gsize *ppos)
{
  gsize pos = *ppos;

  if (!scan_month(in, pos) || !at(in, pos + 3, ' '))
    return FALSE;
  if (!((at(in, pos + 4, ' ') || is_digit_at(in, pos + 4)) && is_digit_at(in, pos + 5)))
    return FALSE;
  if (!at(in, pos + 6, ' '))
    return FALSE;
  pos += 7;
  if (digits_at(in, pos, 4) && at(in, pos + 4, ' ') && scan_clock(in, pos + 5))
    {
      /* 3.38 wants a blank or ':' right after a year-first time */
      pos += 13;
      if (!at(in, pos, ' ') && !at(in, pos, ':'))
        return FALSE;
      if (at(in, pos, ':'))
        pos++;
      *ppos = pos;
      return TRUE;
    }
  if (!scan_clock(in, pos))
    return FALSE;
  pos = skip_fraction(in, pos + 8);
  if (at(in, pos, ' ') && digits_at(in, pos + 1, 4) && at(in, pos + 5, ' '))
    pos += 5;
  if (at(in, pos, ':'))
    pos++;
  *ppos = pos;
  return TRUE;
}

/*
 * The token after the date is a host name when a blank follows it. It
 * ends at a blank or '['; a ':' ends it too unless everything so far looks
 * like IPv6 (hex groups of at most 4 digits), so "fe80::1 prog: x" and,
 * as in 3.38, "dead: x" have a host.
 */
static gsize
scan_hostname(const Input *in, gsize pos, PdbSlice *host)
{
  gsize q = pos;
  gboolean hex_only = TRUE;
  guint group = 0;

  while (q < in->len && in->s[q] != ' ' && in->s[q] != '[')
    {
      guchar c = in->s[q];

      if (c == ':')
        {
          if (!hex_only)
            break;
          group = 0;
        }
      else if (g_ascii_isxdigit(c))
        {
          if (++group > 4)
            hex_only = FALSE;
        }
      else
        hex_only = FALSE;
      q++;
    }
  if (!at(in, q, ' '))
    return pos;
  *host = slice(in, pos, q);
  return skip_spaces(in, q);
}

/* "prog[pid]: ": each part optional, as 3.38's legacy program parser. */
static gsize
scan_program(const Input *in, gsize pos, PdbSyslogLine *out)
{
  gsize start = pos;

  while (pos < in->len && in->s[pos] != ' ' && in->s[pos] != '[' && in->s[pos] != ':')
    pos++;
  out->program = slice(in, start, pos);
  if (at(in, pos, '['))
    {
      gsize pid_start = ++pos;

      while (pos < in->len && in->s[pos] != ' ' && in->s[pos] != ']' && in->s[pos] != ':')
        pos++;
      if (pos < in->len)
        out->pid = slice(in, pid_start, pos);
      if (at(in, pos, ']'))
        pos++;
    }
  if (at(in, pos, ':'))
    pos++;
  if (at(in, pos, ' '))
    pos++;
  out->legacy_msghdr = slice(in, start, pos);
  return pos;
}

static void
parse_rfc3164(const Input *in, gsize pos, PdbSyslogLine *out)
{
  gsize q;

  /* Cisco sequence number "123: ", right after the PRI; 3.38 also takes
   * an empty one (": "). */
  for (q = pos; is_digit_at(in, q); q++)
    ;
  if (at(in, q, ':') && at(in, q + 1, ' '))
    {
      out->sequence_id = slice(in, pos, q);
      pos = q + 2;
    }
  pos = skip_spaces(in, pos);
  if (at(in, pos, '*') || at(in, pos, '.'))
    {
      out->time_quality = in->s[pos] == '.' ? 1 : 0;
      pos++;
    }
  q = pos;
  if (scan_bsd_date(in, &q) || scan_iso_date(in, &q, TRUE))
    {
      pos = skip_spaces(in, q);
      pos = scan_hostname(in, pos, &out->host);
    }
  pos = scan_program(in, pos, out);
  out->message = slice(in, pos, in->len);
}

/* Returns FALSE for an RFC 5424 line ("<PRI>1 "): that part of the parser
 * was not rewritten, so a copy of it here could only agree with itself;
 * test-tool-syslog-line.c (rows recorded from pdbtool) and
 * tests/differential/test-syslog-lines.sh (pdbtool itself, every
 * truncation) check it instead. */
gboolean
pdb_syslog_line_parse_ref(const gchar *line, gsize length, PdbSyslogLine *out)
{
  Input in = { (const guchar *) line, length };
  PdbSyslogLine clean = { 0 };
  gsize pos = 0;

  clean.pri = 13;
  clean.error_position = -1;
  clean.time_quality = -1;
  *out = clean;
  if (at(&in, 0, '<'))
    {
      gint pri = 0;
      gboolean any = FALSE;

      for (pos = 1; is_digit_at(&in, pos); pos++)
        {
          if (pri < 100000)
            pri = pri * 10 + (in.s[pos] - '0');
          any = TRUE;
        }
      /* 3.38 takes a line that ends inside the PRI as an empty message
       * of that PRI ("<13", "<"), and refuses any other byte there */
      if (pos == in.len)
        {
          out->pri = pri;
          parse_rfc3164(&in, pos, out);
          return TRUE;
        }
      if (!at(&in, pos, '>'))
        {
          fail(out, -1);
          return TRUE;
        }
      pos++;
      if (any)
        out->pri = pri;
    }
  /* RFC 5424 (and a line ending in its version "1") is not covered */
  if (at(&in, pos, '1') && (pos + 1 == in.len || at(&in, pos + 1, ' ')))
    return FALSE;
  parse_rfc3164(&in, pos, out);
  return TRUE;
}

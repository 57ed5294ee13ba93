/*
 * syslog-line.c: the syslog header parser of `patterndb match -f`.
 *
 * It reproduces what Debian's pdbtool 3.38 makes of a line, odd lines
 * included, because scripts compare our output with its output. Every
 * function works on (pointer, length) with an explicit position and never
 * reads at or past the end: the invariant is `pos <= len` everywhere, and
 * a byte is only looked at after checking `pos < len` (or after checking
 * once that a fixed-size field fits). Nothing is copied.
 *
 * Cost: about 100-150 instructions for a usual RFC 3164 line. The loops
 * over host, program and pid test each byte against a 256-entry class
 * table, the month is one switch over three bytes, and the fixed-size
 * parts of a date are read without a bounds check per byte.
 */
#include "tool/syslog-line.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

typedef struct
{
  const guchar *s;
  gsize len;
} Input;

/* Byte classes: which bytes end a program name, a pid, a host name. */
enum
{
  ENDS_PROGRAM = 1,   /* ' ' '[' ':' */
  ENDS_PID = 2,       /* ' ' ']' ':' */
};

static const guint8 byte_class[256] =
{
  [' '] = ENDS_PROGRAM | ENDS_PID,
  ['['] = ENDS_PROGRAM,
  [':'] = ENDS_PROGRAM | ENDS_PID,
  [']'] = ENDS_PID,
};

static inline gboolean
is_digit(guchar c)
{
  return (guint) (c - '0') < 10u;
}

/* The first byte at or after @pos whose class has @mask, or in->len.
 * Program names and pids are ten or so bytes and a message follows them,
 * so with SSE2 (every x86-64) sixteen bytes are compared at a time while
 * sixteen remain: one step finds the end of most names. The class table
 * does the rest (and all of it elsewhere). */
static inline gsize
find_class(const Input *in, gsize pos, guint8 mask)
{
#ifdef __SSE2__
  const __m128i blank = _mm_set1_epi8(' '), colon = _mm_set1_epi8(':');
  const __m128i third = _mm_set1_epi8(mask == ENDS_PROGRAM ? '[' : ']');

  while (pos + 16 <= in->len)
    {
      __m128i chunk = _mm_loadu_si128((const __m128i *) (in->s + pos));
      __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(chunk, blank), _mm_cmpeq_epi8(chunk, colon)),
                                 _mm_cmpeq_epi8(chunk, third));
      guint bits = (guint) _mm_movemask_epi8(hit);

      if (bits)
        return pos + (gsize) __builtin_ctz(bits);
      pos += 16;
    }
#endif
  while (pos < in->len && !(byte_class[in->s[pos]] & mask))
    pos++;
  return pos;
}

static gboolean
at(const Input *in, gsize pos, guchar c)
{
  return pos < in->len && in->s[pos] == c;
}

static gboolean
is_digit_at(const Input *in, gsize pos)
{
  return pos < in->len && is_digit(in->s[pos]);
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

/* "hh:mm:ss" at @s, which has at least 8 bytes (no range check, as 3.38). */
static inline gboolean
clock_at(const guchar *s)
{
  return is_digit(s[0]) && is_digit(s[1]) && s[2] == ':' && is_digit(s[3]) && is_digit(s[4])
         && s[5] == ':' && is_digit(s[6]) && is_digit(s[7]);
}

static gboolean
scan_clock(const Input *in, gsize pos)
{
  return pos + 8 <= in->len && clock_at(in->s + pos);
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

#define MONTH_KEY(a, b, c) (((guint32) (a) << 16) | ((guint32) (b) << 8) | (guint32) (c))

/* 3.38 wants the first letter of a month in upper case, the rest in any
 * case. `| 0x20` lowers a letter and maps no other byte onto a lower-case
 * letter but its upper-case twin, so it is exact here.
 *
 * The twelve keys are told apart by a multiplicative hash: the top four
 * bits of key * MONTH_HASH send each month to a slot of its own (the
 * multiplier was found by search); a slot holds its month's key or 0,
 * which no input gives (a key's low bytes have 0x20 set). One load and
 * one compare instead of a switch. */
#define MONTH_HASH 0x1d21c6u

static const guint32 month_slots[16] =
{
  0, MONTH_KEY('J', 'u', 'l'),
  MONTH_KEY('J', 'u', 'n'), MONTH_KEY('M', 'a', 'r'),
  MONTH_KEY('M', 'a', 'y'), MONTH_KEY('A', 'p', 'r'),
  0, MONTH_KEY('S', 'e', 'p'),
  MONTH_KEY('D', 'e', 'c'), 0,
  0, MONTH_KEY('O', 'c', 't'),
  MONTH_KEY('F', 'e', 'b'), MONTH_KEY('J', 'a', 'n'),
  MONTH_KEY('A', 'u', 'g'), MONTH_KEY('N', 'o', 'v'),
};

static inline gboolean
scan_month(const Input *in, gsize pos)
{
  if (pos + 3 > in->len)
    return FALSE;

  const guchar *s = in->s + pos;
  guint32 key = MONTH_KEY(s[0], s[1] | 0x20, s[2] | 0x20);

  return month_slots[(guint32) (key * MONTH_HASH) >> 28] == key;
}

/* BSD: "Mmm dd hh:mm:ss[.frac][ yyyy][:]" or "Mmm dd yyyy hh:mm:ss". */
static gboolean
scan_bsd_date(const Input *in, gsize *ppos)
{
  gsize pos = *ppos;

  /* both forms need at least "Mmm dd hh:mm:ss" */
  if (in->len - pos < 15 || !scan_month(in, pos))
    return FALSE;

  const guchar *s = in->s + pos;
  if (s[3] != ' ' || !(s[4] == ' ' || is_digit(s[4])) || !is_digit(s[5]) || s[6] != ' ')
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
  guint group = 0;

  /* while everything looks like IPv6, a ':' does not end the host */
  while (q < in->len && in->s[q] != ' ' && in->s[q] != '[')
    {
      guchar c = in->s[q];

      if (c == ':')
        group = 0;
      else if (!g_ascii_isxdigit(c) || ++group > 4)
        break;
      q++;
    }
  /* from the first byte that is not, ' ' '[' and ':' end it */
  q = find_class(in, q, ENDS_PROGRAM);
  if (!at(in, q, ' '))
    return pos;
  *host = slice(in, pos, q);
  return skip_spaces(in, q);
}

/* "prog[pid]: ": each part optional, as 3.38's legacy program parser.
 * Sets *program and *msghdr, and *pid when there is one. */
static inline gsize
scan_program(const Input *in, gsize pos, PdbSlice *program, PdbSlice *pid, PdbSlice *msghdr)
{
  gsize start = pos;

  pos = find_class(in, pos, ENDS_PROGRAM);
  *program = slice(in, start, pos);
  if (at(in, pos, '['))
    {
      gsize pid_start = ++pos;

      pos = find_class(in, pos, ENDS_PID);
      if (pos < in->len)
        *pid = slice(in, pid_start, pos);
      if (at(in, pos, ']'))
        pos++;
    }
  if (at(in, pos, ':'))
    pos++;
  if (at(in, pos, ' '))
    pos++;
  *msghdr = slice(in, start, pos);
  return pos;
}

/* The fields of the usual line, "Mmm dd hh:mm:ss host prog[pid]: msg". */
typedef struct
{
  PdbSlice stamp, host, program, pid, msghdr, message;
} UsualLine;

/*
 * The usual line in one go, from @pos (after any <PRI>); FALSE when the
 * line is not one (then nothing is known). A month cannot start a sequence
 * id or a time quality mark, and a blank plus a non-digit after the clock
 * leave no fraction, year or ':' to look for: the general path of
 * parse_rfc3164() would take the same steps. Only host and pid may stay
 * unset, and only they are left untouched then.
 */
static inline gboolean
scan_usual(const Input *in, gsize pos, UsualLine *u)
{
  const guchar *d = in->s + pos;

  if (in->len - pos < 17 || !scan_month(in, pos))
    return FALSE;
  if (!(d[3] == ' ' && (d[4] == ' ' || is_digit(d[4])) && is_digit(d[5]) && d[6] == ' '
        && clock_at(d + 7) && d[15] == ' ' && !is_digit(d[16])))
    return FALSE;
  u->stamp = slice(in, pos, pos + 15);
  pos = skip_spaces(in, pos + 15);
  pos = scan_hostname(in, pos, &u->host);
  pos = scan_program(in, pos, &u->program, &u->pid, &u->msghdr);
  u->message = slice(in, pos, in->len);
  return TRUE;
}

/* The date scanned from @start to @end, without the ':' a scanner may take after it. */
static PdbSlice
stamp_slice(const Input *in, gsize start, gsize end)
{
  if (end > start && in->s[end - 1] == ':')
    end--;
  return slice(in, start, end);
}

static void
parse_rfc3164(const Input *in, gsize pos, PdbSyslogLine *out)
{
  gsize q;

  UsualLine u;

  u.host = out->host;
  u.pid = out->pid;
  if (scan_usual(in, pos, &u))
    {
      out->stamp = u.stamp;
      out->host = u.host;
      out->program = u.program;
      out->pid = u.pid;
      out->legacy_msghdr = u.msghdr;
      out->message = u.message;
      return;
    }

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
      out->stamp = stamp_slice(in, pos, q);
      pos = skip_spaces(in, q);
      pos = scan_hostname(in, pos, &out->host);
    }
  pos = scan_program(in, pos, &out->program, &out->pid, &out->legacy_msghdr);
  out->message = slice(in, pos, in->len);
}

/* One RFC 5424 header field up to the next blank; "-" means unset. */
static gboolean
scan_field(const Input *in, gsize *ppos, PdbSlice *field, gboolean host)
{
  gsize start = *ppos, pos = *ppos;

  while (pos < in->len && in->s[pos] != ' ')
    pos++;
  if (pos >= in->len)
    {
      /* 3.38 marks a truncated host at its start, the others at the end */
      *ppos = host ? start : in->len - 1;
      return FALSE;
    }
  if (!(pos - start == 1 && in->s[start] == '-'))
    *field = slice(in, start, pos);
  *ppos = pos + 1;
  return TRUE;
}

static gboolean
is_sd_name_char(guchar c)
{
  return c > 32 && c < 127 && c != '=' && c != ']' && c != '"';
}

/* A quoted SD-PARAM value from the byte after its opening quote: *ppos
 * ends after the closing quote. 3.38 takes a backslash before any byte as
 * part of the value and refuses an unescaped ']' (its position is the
 * error position, so *ppos is left one past it). */
static gboolean
scan_sd_value(const Input *in, gsize *ppos)
{
  gsize pos = *ppos;

  while (pos < in->len && in->s[pos] != '"')
    {
      if (in->s[pos] == ']')
        {
          *ppos = pos + 1;
          return FALSE;
        }
      pos += (in->s[pos] == '\\' && pos + 1 < in->len) ? 2 : 1;
    }
  *ppos = pos;
  if (pos >= in->len)
    return FALSE;
  *ppos = pos + 1;
  return TRUE;
}

/* One element "[id( name=\"value\")*]" at the '[' at *ppos. */
static gboolean
scan_sd_element(const Input *in, gsize *ppos)
{
  gsize pos = *ppos + 1, name_start = pos;

  while (pos < in->len && is_sd_name_char(in->s[pos]))
    pos++;
  if (pos == name_start)
    goto error;
  while (!at(in, pos, ']'))
    {
      if (!at(in, pos, ' '))
        goto error;
      name_start = ++pos;
      while (pos < in->len && is_sd_name_char(in->s[pos]))
        pos++;
      if (pos == name_start || !at(in, pos, '=') || !at(in, ++pos, '"'))
        goto error;
      pos++;
      if (!scan_sd_value(in, &pos))
        goto error;
    }
  *ppos = pos + 1;
  return TRUE;
error:
  *ppos = pos;
  return FALSE;
}

/* [id( name="value")*]+ ; on failure *ppos is one past the error position.
 * As 3.38, a '[' that ends the line after a complete element ends the
 * structured data without opening another element. */
static gboolean
scan_sdata(const Input *in, gsize *ppos, gsize *sd_end)
{
  gsize pos = *ppos;

  do
    {
      if (!scan_sd_element(in, &pos))
        {
          *ppos = pos;
          return FALSE;
        }
    }
  while (at(in, pos, '[') && pos + 1 < in->len);
  *ppos = *sd_end = pos;
  if (pos + 1 == in->len && in->s[pos] == '[')
    *ppos = in->len;
  return TRUE;
}

static void
parse_rfc5424(const Input *in, gsize pos, PdbSyslogLine *out)
{
  gsize q = pos;

  out->rfc5424 = TRUE;
  if (at(in, pos, '-') && (pos + 1 == in->len || at(in, pos + 1, ' ')))
    q = pos + 1;
  else if (!scan_iso_date(in, &q, TRUE))   /* 3.38 takes a blank for the 'T' here too */
    {
      fail(out, (gssize) pos - 1);
      return;
    }
  else
    out->stamp = stamp_slice(in, pos, q);
  pos = q;
  if (pos >= in->len)
    {
      fail(out, (gssize) in->len - 1);
      return;
    }
  if (!at(in, pos, ' '))
    {
      fail(out, (gssize) pos - 1);
      return;
    }
  pos++;
  if (!scan_field(in, &pos, &out->host, TRUE) || !scan_field(in, &pos, &out->program, FALSE)
      || !scan_field(in, &pos, &out->pid, FALSE) || !scan_field(in, &pos, &out->msgid, FALSE))
    {
      fail(out, (gssize) pos);
      return;
    }
  /* 3.38 reports the byte before the one it could not accept; the line
   * may end after MSGID's blank, and a blank there is no SD at all */
  if (at(in, pos, '-'))
    pos++;
  else if (at(in, pos, '['))
    {
      gsize sd_start = pos, sd_end;

      if (!scan_sdata(in, &pos, &sd_end))
        {
          fail(out, (gssize) pos - 1);
          return;
        }
      out->sdata = slice(in, sd_start, sd_end);
    }
  else if (pos < in->len && in->s[pos] != ' ')
    {
      fail(out, (gssize) pos - 1);
      return;
    }
  if (pos < in->len && in->s[pos] != ' ')
    {
      fail(out, (gssize) pos - 1);
      return;
    }
  if (pos < in->len)
    pos++;
  if (in->len - pos >= 3 && memcmp(in->s + pos, "\xef\xbb\xbf", 3) == 0)
    pos += 3;
  out->message = slice(in, pos, in->len);
}

gboolean
pdb_syslog_line_program_message(const gchar *line, gsize length, PdbSlice *program, PdbSlice *message)
{
  Input in = { (const guchar *) line, length };
  UsualLine u;

  /* a <PRI> may be broken (an error record): the full parser decides */
  if (length == 0 || line[0] == '<' || !scan_usual(&in, 0, &u))
    return FALSE;
  *program = u.program;
  *message = u.message;
  return TRUE;
}

void
pdb_syslog_line_parse(const gchar *line, gsize length, PdbSyslogLine *out)
{
  Input in = { (const guchar *) line, length };
  gsize pos = 0;

  memset(out, 0, sizeof(*out));
  out->pri = 13;
  out->error_position = -1;
  out->time_quality = -1;
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
          return;
        }
      if (!at(&in, pos, '>'))
        {
          fail(out, -1);
          return;
        }
      pos++;
      if (any)
        out->pri = pri;
    }
  /* a line that ends in the version "1" is a truncated RFC 5424 header */
  if (at(&in, pos, '1') && pos + 1 == in.len)
    fail(out, (gssize) pos);
  else if (at(&in, pos, '1') && at(&in, pos + 1, ' '))
    parse_rfc5424(&in, pos + 2, out);
  else
    parse_rfc3164(&in, pos, out);
}

void
pdb_syslog_line_foreach_sd_param(PdbSlice sdata, GString *name, GString *value,
                                 PdbSdParamFunc func, gpointer user_data)
{
  const gchar *s = sdata.data;
  gsize len = sdata.length, pos = 0;

  if (!s)
    return;
  /* The slice was validated by scan_sdata(), so the grammar holds here;
   * the bounds are still checked on every step. */
  while (pos < len && s[pos] == '[')
    {
      gsize id_start = ++pos, id_len;
      gboolean any_param = FALSE;

      while (pos < len && is_sd_name_char(s[pos]))
        pos++;
      id_len = pos - id_start;
      while (pos < len && s[pos] == ' ')
        {
          gsize pn = ++pos;

          while (pos < len && is_sd_name_char(s[pos]))
            pos++;
          g_string_truncate(name, 0);
          g_string_append_len(name, s + id_start, id_len);
          g_string_append_c(name, '.');
          g_string_append_len(name, s + pn, pos - pn);
          pos += 2;   /* =" */
          g_string_truncate(value, 0);
          while (pos < len && s[pos] != '"')
            {
              if (s[pos] == '\\' && pos + 1 < len
                  && (s[pos + 1] == '"' || s[pos + 1] == '\\' || s[pos + 1] == ']'))
                pos++;
              g_string_append_c(value, s[pos]);
              pos++;
            }
          pos++;
          any_param = TRUE;
          func(name->str, name->len, value->str, value->len, user_data);
        }
      if (!any_param)
        {
          g_string_truncate(name, 0);
          g_string_append_len(name, s + id_start, id_len);
          func(name->str, name->len, "", 0, user_data);
        }
      pos++;   /* ] */
    }
}

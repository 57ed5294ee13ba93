/*
 * parser-net.c: address-like parsers: IPv4, IPv6, IPvANY, MACADDR,
 * LLADDR, EMAIL and HOSTNAME.
 *
 * Invariant: reads only input[0 .. avail-1]; greedy, one answer per input.
 * The accepted languages are 3.38's, quirks included (they are listed next
 * to each function); numeric accumulators saturate instead of overflowing.
 */
#include "engine/parser.h"

#include <string.h>

#define SATURATE(v) ((v) > 0x1000000 ? 0x1000000 : (v))

static inline gboolean
_at(const guchar *in, gsize avail, gsize i, guchar c)
{
  return i < avail && in[i] == c;
}

/*
 * Four dot-separated octets of decimal digits, each non-empty and <= 255.
 * Any number of digits (leading zeros) is fine. A dot after the 4th octet
 * ends the address (`1.2.3.4.5` gives `1.2.3.4`); a dot after an empty or
 * too large octet fails the whole parse.
 */
gboolean
pdb_parser_parse_ipv4(const PdbParser *p, const guchar *in, gsize avail, PdbParseResult *r)
{
  gsize n = 0;

  /* one pass, each byte looked at once: an octet above 255 can never
   * become valid again, so it fails at once */
  for (gint part = 0; part < 4; part++)
    {
      guint octet = 0;
      gsize start;

      if (part > 0)
        {
          if (n >= avail || in[n] != '.')
            return FALSE;
          n++;
        }
      start = n;
      while (n < avail && (guint) (in[n] - '0') < 10u)
        {
          octet = octet * 10 + (in[n] - '0');
          if (octet > 255)
            return FALSE;
          n++;
        }
      if (n == start)
        return FALSE;
    }
  return pdb_parse_result_whole(r, n);
}

/*
 * Hex groups separated by ':' with at most one "::", optionally ending in
 * a dotted IPv4 tail; 2 to 7 colons. A trailing '.' or a single trailing
 * ':' is given back to the text that follows. Like 3.38 the first group of
 * an IPv4 tail is read as hex first (so it must be <= 0x255), and there is
 * no zone id and no brackets.
 */
gboolean
pdb_parser_parse_ipv6(const PdbParser *p, const guchar *in, gsize avail, PdbParseResult *r)
{
  gint colons = 0, dots = 0, base = 16;
  gint64 octet = 0;
  gboolean shortened = FALSE;
  gsize n;

  for (n = 0; n < avail; n++)
    {
      guchar c = in[n];

      if (c == ':')
        {
          if (octet > 0xffff || (octet == -1 && shortened))
            return FALSE;
          if (colons == 7 || dots == 3)
            break;
          if (base == 10)
            return FALSE;
          if (octet == -1)
            shortened = TRUE;
          colons++;
          octet = -1;
        }
      else if (g_ascii_isxdigit(c))
        octet = SATURATE((octet < 0 ? 0 : octet * base) + g_ascii_xdigit_value(c));
      else if (c == '.')
        {
          if (base == 10 && octet > 255)
            return FALSE;
          if ((base == 16 && octet > 0x255) || octet == -1 || colons == 7 || dots == 3)
            break;
          dots++;
          octet = -1;
          base = 10;
        }
      else
        break;
    }
  if (n > 0 && in[n - 1] == '.')
    {
      n--;
      dots--;
    }
  else if (n > 1 && in[n - 1] == ':' && in[n - 2] != ':')
    {
      n--;
      colons--;
    }
  if (colons < 2 || colons > 7 || (base == 10 && octet > 255) || (base == 16 && octet > 0xffff)
      || !(dots == 0 || dots == 3) || (!shortened && colons < 7 && dots == 0))
    return FALSE;
  return pdb_parse_result_whole(r, n);
}

/* IPv4 first, then IPv6. */
gboolean
pdb_parser_parse_ipvany(const PdbParser *p, const guchar *in, gsize avail, PdbParseResult *r)
{
  return pdb_parser_parse_ipv4(p, in, avail, r) || pdb_parser_parse_ipv6(p, in, avail, r);
}

/*
 * MACADDR (6 groups) and LLADDR (N groups, default 20): 1 to N groups of
 * two hex digits separated by ':'. Any two hex digits match (`ab`); a ':'
 * that is not followed by a group is given back.
 */
gboolean
pdb_parser_parse_lladdr(const PdbParser *p, const guchar *in, gsize avail, PdbParseResult *r)
{
  guint parts = p->lladdr_parts;
  gsize n = 0;

  for (guint i = 1; i <= parts; i++)
    {
      if (n + 1 >= avail || !g_ascii_isxdigit(in[n]) || !g_ascii_isxdigit(in[n + 1]))
        {
          if (i == 1)
            return FALSE;
          n--;
          break;
        }
      if (i == parts || !_at(in, avail, n + 2, ':'))
        {
          n += 2;
          break;
        }
      n += 3;
    }
  if (n > (gsize) parts * 3 - 1)
    return FALSE;
  return pdb_parse_result_whole(r, n);
}

static inline gboolean
_is_label_char(guchar c)
{
  return g_ascii_isalnum(c) || c == '-';
}

/* Labels of alnum/'-' each followed by an optional '.'; returns the count. */
static gint
_scan_labels(const guchar *in, gsize avail, gsize *n)
{
  gint count = 0;

  while (*n < avail && _is_label_char(in[*n]))
    {
      count++;
      while (*n < avail && _is_label_char(in[*n]))
        (*n)++;
      if (_at(in, avail, *n, '.'))
        (*n)++;
    }
  return count;
}

/* At least two labels; may swallow one trailing '.' (`a.b.` gives `a.b.`). */
gboolean
pdb_parser_parse_hostname(const PdbParser *p, const guchar *in, gsize avail, PdbParseResult *r)
{
  gsize n = 0;

  if (_scan_labels(in, avail, &n) < 2)
    return FALSE;
  return pdb_parse_result_whole(r, n);
}

static inline gboolean
_is_local_char(guchar c)
{
  return c != 0 && (g_ascii_isalnum(c) || strchr("!#$%&'*+-/=?^_`{|}~.", c) != NULL);
}

/*
 * [strip*] local '@' host [strip*]: the local part is alnum or
 * !#$%&'*+-/=?^_`{|}~. and neither starts nor ends with '.', the host has
 * at least two labels (`bob@localhost` fails). The value leaves the strip
 * characters out.
 */
gboolean
pdb_parser_parse_email(const PdbParser *p, const guchar *in, gsize avail, PdbParseResult *r)
{
  gsize n = 0, start, end;

  if (p->has_set)
    while (n < avail && pdb_byte_set_has(&p->set, in[n]))
      n++;
  start = n;
  if (_at(in, avail, n, '.'))
    return FALSE;
  while (n < avail && _is_local_char(in[n]))
    n++;
  if (n > 0 && in[n - 1] == '.')
    return FALSE;
  if (!_at(in, avail, n, '@'))
    return FALSE;
  n++;
  if (_scan_labels(in, avail, &n) < 2)
    return FALSE;
  end = n;
  if (p->has_set)
    while (n < avail && pdb_byte_set_has(&p->set, in[n]))
      n++;
  r->consumed = n;
  r->value_offset = start;
  r->value_length = end - start;
  return TRUE;
}

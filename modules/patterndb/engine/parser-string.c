/*
 * parser-string.c: the text parsers: STRING, ESTRING, QSTRING, SET,
 * OPTIONALSET, ANYSTRING and NLSTRING.
 *
 * Invariant: every function reads only input[0 .. avail-1] (avail >= 1),
 * is greedy and deterministic (one answer per input, no alternative
 * lengths), and treats NUL and non-ASCII bytes as ordinary bytes that
 * belong to no character class unless a parameter lists them.
 */
#define _GNU_SOURCE 1   /* memmem */
#include <config.h>
#include "engine/parser.h"

#include <string.h>

void
pdb_byte_set_init(PdbByteSet *set, const gchar *chars)
{
  memset(set, 0, sizeof(*set));
  for (const guchar *c = (const guchar *) chars; c && *c; c++)
    set->bits[*c >> 5] |= 1u << (*c & 31);
}

/* @STRING:name:extra@: a maximal run (>= 1) of ASCII alnum or extra chars. */
gboolean
pdb_parser_parse_string(const PdbParser *p, const guchar *in, gsize avail, PdbParseResult *r)
{
  gsize n = 0;

  if (p->has_set)
    while (n < avail && (g_ascii_isalnum(in[n]) || pdb_byte_set_has(&p->set, in[n])))
      n++;
  else
    while (n < avail && g_ascii_isalnum(in[n]))
      n++;
  if (n == 0)
    return FALSE;
  return pdb_parse_result_whole(r, n);
}

/*
 * @ESTRING:name:delim@: everything up to the first delimiter, which is
 * consumed but not stored. An empty delimiter (3.38 finds the terminating
 * NUL) takes the rest of the input.
 */
gboolean
pdb_parser_parse_estring(const PdbParser *p, const guchar *in, gsize avail, PdbParseResult *r)
{
  const guchar *end;
  gsize dlen = p->delim_length;

  if (dlen == 0)
    {
      return pdb_parse_result_whole(r, avail);
    }
  if (dlen == 1)
    end = memchr(in, (guchar) p->param[0], avail);
  else
    end = memmem(in, avail, p->param, dlen);
  if (!end)
    return FALSE;
  r->value_offset = 0;
  r->value_length = end - in;
  r->consumed = r->value_length + dlen;
  return TRUE;
}

/*
 * @QSTRING:name:qq@: starts with the open char (the first-byte filter
 * guarantees it), runs to the matching close char; the value is the inside.
 * Distinct open/close chars nest (4.5 behaviour, our policy): `<a<b>>`
 * gives `a<b>`, and `<a<b>` does not match.
 */
gboolean
pdb_parser_parse_qstring(const PdbParser *p, const guchar *in, gsize avail, PdbParseResult *r)
{
  gsize end;

  if (p->open_char == p->close_char)
    {
      const guchar *e = memchr(in + 1, p->close_char, avail - 1);
      if (!e)
        return FALSE;
      end = e - in;
    }
  else
    {
      gsize depth = 1;

      for (end = 1; end < avail; end++)
        {
          if (in[end] == p->close_char && --depth == 0)
            break;
          if (in[end] == p->open_char)
            depth++;
        }
      if (end == avail)
        return FALSE;
    }
  r->consumed = end + 1;
  r->value_offset = 1;
  r->value_length = end - 1;
  return TRUE;
}

static gsize
_span_set(const PdbParser *p, const guchar *in, gsize avail)
{
  gsize n = 0;

  while (n < avail && pdb_byte_set_has(&p->set, in[n]))
    n++;
  return n;
}

/* @SET:name:chars@: one or more chars of the set. */
gboolean
pdb_parser_parse_set(const PdbParser *p, const guchar *in, gsize avail, PdbParseResult *r)
{
  gsize n = _span_set(p, in, avail);

  if (n == 0)
    return FALSE;
  return pdb_parse_result_whole(r, n);
}

/* @OPTIONALSET:name:chars@: zero or more chars of the set; never fails. */
gboolean
pdb_parser_parse_optionalset(const PdbParser *p, const guchar *in, gsize avail, PdbParseResult *r)
{
  return pdb_parse_result_whole(r, _span_set(p, in, avail));
}

/* @ANYSTRING:name@: the rest of the input (at least one byte). */
gboolean
pdb_parser_parse_anystring(const PdbParser *p, const guchar *in, gsize avail, PdbParseResult *r)
{
  if (avail == 0)
    return FALSE;
  return pdb_parse_result_whole(r, avail);
}

/*
 * @NLSTRING:name@: up to (not including) the first newline; a CR right
 * before it is left out too. Without a newline it takes the rest of the
 * input (4.6 behaviour, our policy; 3.38 failed).
 */
gboolean
pdb_parser_parse_nlstring(const PdbParser *p, const guchar *in, gsize avail, PdbParseResult *r)
{
  const guchar *nl = memchr(in, '\n', avail);
  gsize n = nl ? (gsize) (nl - in) : avail;

  if (nl && n > 0 && in[n - 1] == '\r')
    n--;
  return pdb_parse_result_whole(r, n);
}

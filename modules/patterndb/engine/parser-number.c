/*
 * parser-number.c: @NUMBER@ and @FLOAT@ (alias @DOUBLE@).
 *
 * Invariant: reads only input[0 .. avail-1]; greedy, one answer per input.
 * Both follow 3.38 plus the 4.11 improvement of our policy: a `+` sign is
 * accepted like `-`, before hex numbers too and in FLOAT's exponent.
 */
#include "engine/parser.h"

static gsize
_sign(const guchar *in, gsize avail)
{
  return (avail > 0 && (in[0] == '-' || in[0] == '+')) ? 1 : 0;
}

/*
 * [+-]0x<hex>+ or [+-]<digit>+. "0x" without a hex digit fails as a whole
 * (it does not fall back to the decimal "0"), like 3.38.
 */
gboolean
pdb_parser_parse_number(const PdbParser *p, const guchar *in, gsize avail, PdbParseResult *r)
{
  gsize n = _sign(in, avail);
  gsize digits_start;

  if (n + 1 < avail && in[n] == '0' && (in[n + 1] == 'x' || in[n + 1] == 'X'))
    {
      n += 2;
      digits_start = n;
      while (n < avail && g_ascii_isxdigit(in[n]))
        n++;
    }
  else
    {
      digits_start = n;
      while (n < avail && g_ascii_isdigit(in[n]))
        n++;
    }
  if (n == digits_start)
    return FALSE;
  return pdb_parse_result_whole(r, n);
}

/*
 * [+-] then digits with at most one '.', then (if anything was taken)
 * [eE][+-]digits*. Quirks kept from 3.38: a lone "-" or "." matches, and
 * so do "1e" and "-e5".
 */
gboolean
pdb_parser_parse_float(const PdbParser *p, const guchar *in, gsize avail, PdbParseResult *r)
{
  gsize n = _sign(in, avail);
  gboolean dot = FALSE;

  while (n < avail && (g_ascii_isdigit(in[n]) || (!dot && in[n] == '.')))
    {
      if (in[n] == '.')
        dot = TRUE;
      n++;
    }
  if (n > 0 && n < avail && (in[n] == 'e' || in[n] == 'E'))
    {
      n++;
      n += _sign(in + n, avail - n);
      while (n < avail && g_ascii_isdigit(in[n]))
        n++;
    }
  if (n == 0)
    return FALSE;
  return pdb_parse_result_whole(r, n);
}

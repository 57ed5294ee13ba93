/*
 * xml-scan-chars.c: the scanner's character level: which bytes need
 * attention (tables), XML characters in UTF-8, character and entity
 * references, runs of plain text (16 bytes at a time where SSE2 is there)
 * and positions as libxml2 counts them (line, and column in characters).
 *
 * Invariant: nothing here reads past the NUL byte that ends the buffer
 * (xml-scan.h: PDB_XML_SCAN_PADDING).
 */
#include "db/xml-scan-private.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* ---- characters -------------------------------------------------------- */

/* Bytes that need no attention in character data: TAB, LF and printable
 * ASCII other than '<', '&' and ']'. */
guint8 xml_scan_text_plain[256];
/* Same for attribute values: printable ASCII other than '<', '&' and the
 * two quotes (TAB and LF are normalised, so they need attention). */
guint8 xml_scan_attr_plain[256];
/* Name characters (ASCII subset): 1 start and later, 2 later only. */
guint8 xml_scan_name_char[256];

void
xml_scan_init_tables(void)
{
  static gsize done = 0;

  if (!g_once_init_enter(&done))
    return;
  for (gint c = 0x20; c < 0x80; c++)
    {
      xml_scan_text_plain[c] = c != '<' && c != '&' && c != ']';
      xml_scan_attr_plain[c] = c != '<' && c != '&' && c != '"' && c != '\'';
      if (g_ascii_isalpha(c) || c == '_')
        xml_scan_name_char[c] = 1;
      else if (g_ascii_isdigit(c) || c == '-' || c == '.')
        xml_scan_name_char[c] = 2;
    }
  xml_scan_text_plain['\t'] = xml_scan_text_plain['\n'] = 1;
  g_once_init_leave(&done, 1);
}

gboolean
xml_scan_is_xml_char(gunichar c)
{
  return (c >= 0x20 && c <= 0xD7FF) || c == 0x9 || c == 0xA || c == 0xD
         || (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
}

/* The length of the well-formed UTF-8 sequence of an XML character (other
 * than CR) at @p, or 0. Never reads past a NUL byte. */
gint
xml_scan_utf8_length(const guchar *p)
{
  gunichar c;
  gint n;

  if (p[0] < 0x80)
    return (p[0] >= 0x20 || p[0] == '\t' || p[0] == '\n') ? 1 : 0;
  if (p[0] >= 0xC2 && p[0] <= 0xDF)
    {
      n = 2;
      c = p[0] & 0x1F;
    }
  else if (p[0] >= 0xE0 && p[0] <= 0xEF)
    {
      n = 3;
      c = p[0] & 0x0F;
    }
  else if (p[0] >= 0xF0 && p[0] <= 0xF4)
    {
      n = 4;
      c = p[0] & 0x07;
    }
  else
    return 0;
  for (gint i = 1; i < n; i++)
    {
      if ((p[i] & 0xC0) != 0x80)
        return 0;
      c = (c << 6) | (p[i] & 0x3F);
    }
  if ((n == 3 && c < 0x800) || (n == 4 && c < 0x10000) || !xml_scan_is_xml_char(c))
    return 0;
  return n;
}

/* Appends @c as UTF-8. */
void
xml_scan_append_unichar(GString *out, gunichar c)
{
  gchar utf8[8];
  gint n = g_unichar_to_utf8(c, utf8);

  g_string_append_len(out, utf8, n);
}

/*
 * Parses the reference at @p ('&'): one of the five predefined entities or
 * a character reference to an XML character. Returns its length and sets
 * @value, or 0 when it is anything else.
 */
gint
xml_scan_parse_reference(const guchar *p, gunichar *value)
{
  static const struct
  {
    const gchar *text;
    gint length;
    gunichar value;
  } predefined[] =
  {
    { "&lt;", 4, '<' }, { "&gt;", 4, '>' }, { "&amp;", 5, '&' },
    { "&quot;", 6, '"' }, { "&apos;", 6, '\'' },
  };

  if (p[1] != '#')
    {
      for (gsize i = 0; i < G_N_ELEMENTS(predefined); i++)
        if (strncmp((const gchar *) p, predefined[i].text, predefined[i].length) == 0)
          {
            *value = predefined[i].value;
            return predefined[i].length;
          }
      return 0;
    }

  gboolean hex = p[2] == 'x';
  const guchar *q = p + (hex ? 3 : 2);
  const guchar *digits = q;
  gunichar c = 0;

  for (;; q++)
    {
      gint d;
      if (*q >= '0' && *q <= '9')
        d = *q - '0';
      else if (hex && *q >= 'a' && *q <= 'f')
        d = *q - 'a' + 10;
      else if (hex && *q >= 'A' && *q <= 'F')
        d = *q - 'A' + 10;
      else
        break;
      c = c * (hex ? 16 : 10) + d;
      if (c > 0x10FFFF)
        return 0;
    }
  if (q == digits || *q != ';' || !xml_scan_is_xml_char(c))
    return 0;
  *value = c;
  return (gint) (q + 1 - p);
}

/* The first byte at or after @p that is not plain character data (see
 * text_plain). Reads up to 15 bytes past it (PDB_XML_SCAN_PADDING). */
const guchar *
xml_scan_skip_plain_text(const guchar *p)
{
#ifdef __SSE2__
  const __m128i space = _mm_set1_epi8(0x20);
  const __m128i newline = _mm_set1_epi8('\n');
  const __m128i tab = _mm_set1_epi8('\t');
  const __m128i lt = _mm_set1_epi8('<');
  const __m128i amp = _mm_set1_epi8('&');
  const __m128i bracket = _mm_set1_epi8(']');

  for (;;)
    {
      __m128i b = _mm_loadu_si128((const __m128i *) p);
      /* signed: below 0x20 and above 0x7F */
      __m128i odd = _mm_andnot_si128(_mm_or_si128(_mm_cmpeq_epi8(b, newline), _mm_cmpeq_epi8(b, tab)),
                                     _mm_cmplt_epi8(b, space));
      odd = _mm_or_si128(odd, _mm_or_si128(_mm_cmpeq_epi8(b, lt),
                                           _mm_or_si128(_mm_cmpeq_epi8(b, amp), _mm_cmpeq_epi8(b, bracket))));
      gint mask = _mm_movemask_epi8(odd);
      if (mask)
        return p + __builtin_ctz((guint) mask);
      p += 16;
    }
#else
  while (xml_scan_text_plain[*p])
    p++;
  return p;
#endif
}

/* ---- positions --------------------------------------------------------- */

/* The position of @p (event pass; positions are asked for in order). */
PdbXmlScanPos
xml_scan_position_of(Scanner *s, const guchar *p)
{
  const guchar *q = s->pos_ptr;
  const guchar *nl;

  while ((nl = memchr(q, '\n', p - q)))
    {
      s->line++;
      s->column = 1;
      q = nl + 1;
      s->line_start = q;
    }
  if (s->ascii)
    s->column = (gint) (p - s->line_start) + 1;
  else
    for (; q < p; q++)
      s->column += (*q & 0xC0) != 0x80;
  s->pos_ptr = p;

  PdbXmlScanPos pos = { s->line, s->column };
  return pos;
}

void
pdb_xml_scan_move_back(const guchar *base, const guchar *lt, const guchar *end, PdbXmlScanPos *pos)
{
  gint newlines = 0;

  for (const guchar *q = lt; (q = memchr(q, '\n', end - q)); q++)
    newlines++;
  if (newlines == 0)
    pos->column -= (gint) (end - lt);
  else
    {
      const guchar *line_start = lt;
      while (line_start > base && line_start[-1] != '\n')
        line_start--;
      pos->line -= newlines;
      pos->column = (gint) (lt - line_start) + 1;
    }
  if (pos->column < 1)
    pos->column = 1;
}

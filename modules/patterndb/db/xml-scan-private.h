/*
 * xml-scan-private.h: the scanner's state, shared by xml-scan.c (markup:
 * tags, attributes, text, CDATA), xml-scan-prolog.c (the declaration,
 * blanks and comments around the root, comments) and xml-scan-chars.c
 * (characters, references and positions). Nothing else includes it.
 */
#ifndef PDB_DB_XML_SCAN_PRIVATE_H
#define PDB_DB_XML_SCAN_PRIVATE_H

#include "db/xml-scan.h"

#define SCAN_MAX_DEPTH 128
#define SCAN_MAX_ATTRIBUTES 32
#define SCAN_MAX_NAME 255
#define SCAN_MAX_LINE_OFFSET 78
/* Longer attribute values, comments and CDATA sections are left to
 * libxml2, which refuses them beyond 10,000,000 bytes. */
#define SCAN_MAX_CHUNK (1024 * 1024)
#define SCAN_CONSUMED_STEP (1024 * 1024)

typedef struct _Scanner
{
  const guchar *buf;
  const guchar *end;            /* buf + length; *end == 0 */
  gboolean check;               /* check the subset (check pass, one pass) */
  const PdbXmlScanEvents *events; /* NULL: check pass, or a one pass whose
                                   events a callback stopped */
  gpointer user_data;
  gboolean stopped;
  gboolean ascii;               /* no byte above 0x7F (check pass: so far) */
  gboolean attrs_verbatim;      /* PdbXmlScanFacts.attrs_verbatim (check pass: so far) */

  /* positions (event pass): known up to pos_ptr */
  const guchar *pos_ptr;
  const guchar *line_start;
  gint line;
  gint column;                  /* at pos_ptr */
  gsize consumed;

  /* the open elements (the event pass only keeps open_holds_text) */
  /* copies: one pass gives the bytes it has read back (consumed) */
  guchar open_name[SCAN_MAX_DEPTH][SCAN_MAX_NAME];
  guint8 open_length[SCAN_MAX_DEPTH];
  gboolean open_holds_text[SCAN_MAX_DEPTH];
  guint depth;

  /* decoded text and attribute values (event pass) */
  GString *scratch;
  gchar names[SCAN_MAX_ATTRIBUTES + 1][SCAN_MAX_NAME + 1];
  const gchar *attributes[SCAN_MAX_ATTRIBUTES * 5];
} Scanner;

/* ---- xml-scan-chars.c ---------------------------------------------------- */

/* Bytes that need no attention in character data: TAB, LF and printable
 * ASCII other than '<', '&' and ']'. */
extern guint8 xml_scan_text_plain[256];
/* Same for attribute values: printable ASCII other than '<', '&' and the
 * two quotes (TAB and LF are normalised, so they need attention). */
extern guint8 xml_scan_attr_plain[256];
/* Name characters (ASCII subset): 1 start and later, 2 later only. */
extern guint8 xml_scan_name_char[256];

/* Fills the tables above, once per process. */
void xml_scan_init_tables(void);
gboolean xml_scan_is_xml_char(gunichar c);
/* The length of the well-formed UTF-8 sequence of an XML character (other
 * than CR) at @p, or 0. Never reads past a NUL byte. */
gint xml_scan_utf8_length(const guchar *p);
void xml_scan_append_unichar(GString *out, gunichar c);
/* The reference at @p ('&'): its length with @value set, or 0. */
gint xml_scan_parse_reference(const guchar *p, gunichar *value);
/* The first byte at or after @p that needs attention in character data. */
const guchar *xml_scan_skip_plain_text(const guchar *p);
/* The position of @p (event pass; positions are asked for in order). */
PdbXmlScanPos xml_scan_position_of(Scanner *s, const guchar *p);

/* ---- xml-scan-prolog.c --------------------------------------------------- */

/* "<!--" at @p: the end of the comment, or NULL. */
const guchar *xml_scan_comment(Scanner *s, const guchar *p);
/* Blanks and comments (outside the root element): the position after them, or NULL. */
const guchar *xml_scan_misc(Scanner *s, const guchar *p);
/* "<?xml " at the start: the position after the declaration, or NULL. */
const guchar *xml_scan_xml_declaration(const guchar *p);

/* ---- small helpers of both ----------------------------------------------- */

static inline const guchar *
skip_blanks(const guchar *p)
{
  /* one load and test per byte: most calls stop at once, on a name or '<' */
  static const guint8 blank[256] = { [' '] = 1, ['\t'] = 1, ['\n'] = 1 };

  while (blank[*p])
    p++;
  return p;
}

/* A name at @p: its end, or NULL. */
static inline const guchar *
scan_name(const guchar *p)
{
  const guchar *start = p;

  if (xml_scan_name_char[*p] != 1)
    return NULL;
  while (xml_scan_name_char[*p])
    p++;
  if (p - start > SCAN_MAX_NAME || *p == ':' || *p >= 0x80)
    return NULL;
  return p;
}

/* One character at @p (check pass): its length, or 0 when it is not an
 * XML character (or is a CR). */
static inline gint
scan_char(Scanner *s, const guchar *p)
{
  if (*p >= 0x80)
    s->ascii = FALSE;
  return xml_scan_utf8_length(p);
}

#endif

/*
 * xml-scan.c: turns a UTF-8 buffer holding a pattern database file into
 * start-element, end-element and text events, with the positions libxml2
 * reports for them. It is the loader's fast path. A file outside the
 * subset below is loaded through libxml2 (the reference), with libxml2's
 * messages and behaviour: the loader either checks the whole buffer
 * before it asks for events, or (the usual way) has both done in one
 * pass and, when the check fails after events went out, throws away what
 * they built and loads everything again (db/database.c).
 *
 * The subset (anything else fails the check):
 *  - UTF-8 without a byte order mark and without any CR byte; XML 1.0
 *    characters only;
 *  - an optional XML declaration (version 1.0, encoding UTF-8, standalone);
 *  - comments, CDATA sections, the five predefined entities and character
 *    references; no DOCTYPE, no processing instruction, no other entity;
 *  - element and attribute names of ASCII letters, digits, '_', '-', '.'
 *    (no namespace prefix, no xmlns), at most SCAN_MAX_ATTRIBUTES distinct
 *    attributes, SCAN_MAX_DEPTH levels of nesting;
 *  - non-blank text only directly inside the elements that hold text in a
 *    pattern database (otherwise the loader's message would depend on how
 *    libxml2 splits text into pieces);
 *  - a start tag that spans lines starts within its line's first 78 bytes
 *    (the loader's libxml2 path then finds the line start in its buffer);
 *  - attribute values, comments and CDATA sections up to SCAN_MAX_CHUNK.
 *
 * The check pass looks at every byte (16 at a time where SSE2 is there);
 * the event pass trusts it and jumps from one markup character to the
 * next with memchr(); one pass (s->check with s->events) reports each
 * piece once the check has passed it.
 *
 * Invariant: the check pass accepts only documents that libxml2 parses
 * without an error, save one: a raw '<' in an attribute value, which
 * libxml2 refuses and 3.38's reader (GMarkup) takes as itself. The event
 * pass reports exactly what libxml2's SAX2 callbacks report for them (attribute values normalised, text decoded,
 * positions), which the differential tests compare.
 */
#define _GNU_SOURCE   /* memmem() */
#include "db/xml-scan-private.h"

#include <string.h>

/* ---- markup ------------------------------------------------------------ */

/* Element names whose content is text in a pattern database (the loader's
 * states that hold text; any other name is a state without text, or an
 * unknown element that fails the load before its content matters). */
static gboolean
holds_text(const guchar *name, gsize length)
{
  switch (length)
    {
    case 3:
      return memcmp(name, "url", 3) == 0 || memcmp(name, "tag", 3) == 0;
    case 5:
      return memcmp(name, "value", 5) == 0;
    case 7:
      return memcmp(name, "pattern", 7) == 0;
    case 10:
      return memcmp(name, "test_value", 10) == 0;
    case 11:
      return memcmp(name, "description", 11) == 0;
    case 12:
      return memcmp(name, "test_message", 12) == 0;
    default:
      return FALSE;
    }
}

/*
 * An attribute value at @p (its opening quote): the position after the
 * closing quote, or NULL. In the event pass, a value that differs from its
 * raw bytes (references, TAB, LF) is decoded and appended to the scratch
 * buffer (*@decoded).
 */
static const guchar *
scan_attribute_value(Scanner *s, const guchar *p, gboolean *decoded)
{
  guchar quote = *p++;
  const guchar *start = p;
  const guchar *run = p;

  *decoded = FALSE;
  if (!s->check)
    {
      const guchar *close = memchr(p, quote, s->end - p);
      if (s->attrs_verbatim)
        return close + 1;
      for (const guchar *q = p; q < close; q++)
        if (*q == '&' || *q == '\t' || *q == '\n')
          {
            *decoded = TRUE;
            break;
          }
      if (!*decoded)
        return close + 1;
    }
  for (;;)
    {
      while (xml_scan_attr_plain[*p])
        p++;
      if (*p == quote)
        break;
      /* the other quote, and '<', which XML forbids here but GMarkup (3.38's
       * reader) takes as itself: the documentation's own
       * condition='"$(context-length)" < "4"' loads there */
      if (*p == '"' || *p == '\'' || *p == '<')
        {
          p++;
          continue;
        }
      if (*p == 0)
        return NULL;

      gint n;
      gunichar c = 0;
      if (*p == '&')
        {
          n = xml_scan_parse_reference(p, &c);
          s->attrs_verbatim = FALSE;
        }
      else if (*p == '\t' || *p == '\n')
        {
          n = 1;
          c = ' ';
          s->attrs_verbatim = FALSE;
        }
      else
        {
          n = scan_char(s, p);
          if (!n)
            return NULL;
          p += n;
          continue;
        }
      if (!n)
        return NULL;
      if (s->events)
        {
          g_string_append_len(s->scratch, (const gchar *) run, p - run);
          if (c == '&')
            g_string_append(s->scratch, "&#38;");
          else
            xml_scan_append_unichar(s->scratch, c);
          run = p + n;
          *decoded = TRUE;
        }
      p += n;
    }
  if (*decoded)
    g_string_append_len(s->scratch, (const gchar *) run, p - run);
  if (s->check && p - start > SCAN_MAX_CHUNK)
    return NULL;
  return p + 1;
}

/* A callback asked to stop: the event pass stops; one pass goes on
 * checking the rest without reporting it. */
static void
stop_reporting(Scanner *s)
{
  if (s->check)
    s->events = NULL;
  else
    s->stopped = TRUE;
}

static void
report_end_tag(Scanner *s)
{
  if (!s->events->end_element(s->user_data))
    stop_reporting(s);
}

/*
 * The location the loader's libxml2 path gives an element: the parser's
 * position at the tag's end (@tag_end_pos), moved back by the bytes to the
 * '<' when the tag is on one line, else the byte column of the '<'.
 */
static PdbXmlScanPos
element_position(Scanner *s, const guchar *lt, const guchar *tag_end, const PdbXmlScanPos *tag_end_pos)
{
  PdbXmlScanPos pos = *tag_end_pos;

  /* s->line_start is the start of @tag_end's line: a tag that starts on
   * it has no newline to count */
  if (lt >= s->line_start)
    {
      pos.column = MAX(pos.column - (gint) (tag_end - lt), 1);
      return pos;
    }
  pdb_xml_scan_move_back(s->buf, lt, tag_end, &pos);
  return pos;
}


/* The attributes of a start tag, as scan_attributes() finds them: each
 * value either raw in the buffer (@value_raw) or decoded into the
 * scanner's scratch buffer at @value_offset. */
typedef struct _TagAttributes
{
  gint count;
  const guchar *name[SCAN_MAX_ATTRIBUTES];
  gsize name_length[SCAN_MAX_ATTRIBUTES];
  const guchar *value_raw[SCAN_MAX_ATTRIBUTES];
  gsize value_offset[SCAN_MAX_ATTRIBUTES];
  gsize value_length[SCAN_MAX_ATTRIBUTES];
} TagAttributes;

/* One attribute at @p (its name): the position after its value, or NULL. */
static const guchar *
scan_attribute(Scanner *s, const guchar *p, TagAttributes *attrs)
{
  const guchar *an = p;
  const guchar *an_end = scan_name(an);
  gint count = attrs->count;

  if (!an_end)
    return NULL;
  gsize length = an_end - an;
  if (s->check)
    {
      if (length == 5 && memcmp(an, "xmlns", 5) == 0)
        return NULL;
      for (gint i = 0; i < count; i++)
        if (attrs->name_length[i] == length && memcmp(attrs->name[i], an, length) == 0)
          return NULL;
    }
  p = skip_blanks(an_end);
  if (*p != '=')
    return NULL;
  p = skip_blanks(p + 1);
  if (*p != '"' && *p != '\'')
    return NULL;

  gsize before = s->events ? s->scratch->len : 0;
  gboolean decoded = FALSE;
  const guchar *value = p + 1;
  p = scan_attribute_value(s, p, &decoded);
  if (!p)
    return NULL;
  attrs->name[count] = an;
  attrs->name_length[count] = length;
  attrs->value_raw[count] = decoded ? NULL : value;
  attrs->value_offset[count] = before;
  attrs->value_length[count] = decoded ? s->scratch->len - before : (gsize) (p - 1 - value);
  attrs->count++;
  return p;
}

/* The attributes after an element name ending at @p: the position of the
 * tag's '>' or "/>", or NULL. */
static const guchar *
scan_attributes(Scanner *s, const guchar *p, TagAttributes *attrs)
{
  if (s->events)
    s->scratch->len = 0;
  for (;;)
    {
      const guchar *after_blanks = skip_blanks(p);
      if (*after_blanks == '>' || (after_blanks[0] == '/' && after_blanks[1] == '>'))
        return after_blanks;
      if (after_blanks == p || attrs->count == SCAN_MAX_ATTRIBUTES)
        return NULL;
      p = scan_attribute(s, after_blanks, attrs);
      if (!p)
        return NULL;
    }
}

/* Check pass: what the event pass will need of a start tag from @lt
 * ('<') to @tag_end, with the name at @name; FALSE outside the subset. */
static gboolean
check_start_tag(Scanner *s, const guchar *lt, const guchar *name, const guchar *name_end,
                const guchar *tag_end, gboolean empty)
{
  /* The loader's libxml2 path cannot see the start of a long line. */
  if (memchr(lt, '\n', tag_end - lt))
    {
      const guchar *line_start = lt;
      while (line_start > s->buf && line_start[-1] != '\n' && lt - line_start <= SCAN_MAX_LINE_OFFSET)
        line_start--;
      if (lt - line_start > SCAN_MAX_LINE_OFFSET)
        return FALSE;
    }
  if (!empty)
    {
      memcpy(s->open_name[s->depth], name, name_end - name);
      s->open_length[s->depth] = (guint8) (name_end - name);
    }
  return TRUE;
}

/* Event pass: reports the start tag (and the end of "<x/>"). */
static void
report_start_tag(Scanner *s, const guchar *lt, const guchar *name, const guchar *name_end,
                 const TagAttributes *attrs, const guchar *tag_end, gboolean empty)
{
  /* names NUL-terminated, values pointing into the buffer or scratch */
  memcpy(s->names[0], name, name_end - name);
  s->names[0][name_end - name] = '\0';
  for (gint i = 0; i < attrs->count; i++)
    {
      const gchar **a = s->attributes + i * 5;
      memcpy(s->names[i + 1], attrs->name[i], attrs->name_length[i]);
      s->names[i + 1][attrs->name_length[i]] = '\0';
      a[0] = s->names[i + 1];
      a[1] = NULL;
      a[2] = NULL;
      a[3] = attrs->value_raw[i] ? (const gchar *) attrs->value_raw[i] : s->scratch->str + attrs->value_offset[i];
      a[4] = a[3] + attrs->value_length[i];
    }

  PdbXmlScanPos tag_end_pos = xml_scan_position_of(s, tag_end);
  PdbXmlScanPos start = element_position(s, lt, tag_end, &tag_end_pos);

  /* Positions are known up to here and element_position() reads back at
   * most to a line start SCAN_MAX_LINE_OFFSET bytes before a later '<'. */
  gsize offset = lt - s->buf;
  if (s->events->consumed && offset >= s->consumed + SCAN_CONSUMED_STEP)
    {
      s->consumed = offset - 256;
      s->events->consumed(s->user_data, s->consumed);
    }

  if (!s->events->start_element(s->user_data, s->names[0], attrs->count, s->attributes, &start,
                                &tag_end_pos, empty))
    stop_reporting(s);
  else if (empty && !s->events->end_element(s->user_data))
    stop_reporting(s);
}

/* A start tag at @p ('<'): the position after it, or NULL. */
static const guchar *
scan_start_tag(Scanner *s, const guchar *p)
{
  const guchar *lt = p;
  const guchar *name = p + 1;
  const guchar *name_end = scan_name(name);
  TagAttributes attrs;

  if (!name_end || s->depth >= SCAN_MAX_DEPTH)
    return NULL;
  attrs.count = 0;
  const guchar *tag_end = scan_attributes(s, name_end, &attrs);
  if (!tag_end)
    return NULL;

  gboolean empty = *tag_end == '/';
  p = tag_end + (empty ? 2 : 1);
  if (!empty)
    s->open_holds_text[s->depth] = holds_text(name, name_end - name);
  if (s->check && !check_start_tag(s, lt, name, name_end, tag_end, empty))
    return NULL;
  if (s->events)
    report_start_tag(s, lt, name, name_end, &attrs, tag_end, empty);
  if (!empty)
    s->depth++;
  return p;
}

/* An end tag at @p ("</"): the position after it, or NULL. */
static const guchar *
scan_end_tag(Scanner *s, const guchar *p)
{
  const guchar *name = p + 2;

  s->depth--;
  if (!s->check)
    {
      report_end_tag(s);
      return (const guchar *) memchr(name, '>', s->end - name) + 1;
    }

  /* the open element's name, and nothing more of a name */
  gsize length = s->open_length[s->depth];
  if ((gsize) (s->end - name) <= length || memcmp(name, s->open_name[s->depth], length) != 0
      || xml_scan_name_char[name[length]] || name[length] == ':' || name[length] >= 0x80)
    return NULL;
  p = skip_blanks(name + length);
  if (*p != '>')
    return NULL;
  if (s->events)
    report_end_tag(s);
  return p + 1;
}

/* Reports a piece of text ending at @end (event pass). */
static void
report_text(Scanner *s, const gchar *text, gsize length, const guchar *end)
{
  PdbXmlScanPos pos = xml_scan_position_of(s, end);

  if (!s->events->text(s->user_data, text, length, &pos))
    stop_reporting(s);
}

/* Reports a comment or CDATA section ending at @end (event pass). */
static void
report_markup(Scanner *s, gboolean cdata, gsize length, const guchar *end)
{
  PdbXmlScanPos pos = xml_scan_position_of(s, end);

  if (!s->events->markup(s->user_data, cdata, length, &pos))
    stop_reporting(s);
}

static gboolean
all_blank(const guchar *p, const guchar *end)
{
  for (; p < end; p++)
    if (*p != ' ' && *p != '\t' && *p != '\n')
      return FALSE;
  return TRUE;
}

/* "<![CDATA[" at @p: the position after the section, or NULL. */
static const guchar *
scan_cdata(Scanner *s, const guchar *p)
{
  const guchar *start = p + 9;

  if (!s->check)
    {
      p = memmem(start, s->end - start, "]]>", 3);
      report_markup(s, TRUE, p - start, p + 3);
      return p + 3;
    }
  p = start;
  while (!(p[0] == ']' && p[1] == ']' && p[2] == '>'))
    {
      if (p - start > SCAN_MAX_CHUNK)
        return NULL;
      gint n = scan_char(s, p);
      if (!n)
        return NULL;
      p += n;
    }
  if (!s->open_holds_text[s->depth - 1] && !all_blank(start, p))
    return NULL;
  if (s->events)
    report_markup(s, TRUE, p - start, p + 3);
  return p + 3;
}

/* Character data at @p up to the next '<' (check pass): the position of
 * that '<', or NULL. */
static const guchar *
check_text(Scanner *s, const guchar *p)
{
  const guchar *start = p;
  const guchar *after_blanks = skip_blanks(p);

  /* most text between elements is indentation */
  if (*after_blanks == '<')
    return after_blanks;

  for (;;)
    {
      p = xml_scan_skip_plain_text(p);
      if (*p == '<')
        break;
      if (*p == ']')
        {
          if (p[1] == ']' && p[2] == '>')
            return NULL;
          p++;
          continue;
        }
      gint n;
      gunichar c;
      if (*p == '&')
        n = xml_scan_parse_reference(p, &c);
      else
        n = scan_char(s, p);
      if (!n)
        return NULL;
      p += n;
    }
  /* references and ']' are not blank: no need to look at them again */
  if (!s->open_holds_text[s->depth - 1] && !all_blank(start, p))
    return NULL;
  return p;
}

/* Reports the character data from @p to @lt, references decoded. */
static void
report_text_run(Scanner *s, const guchar *p, const guchar *lt)
{
  const guchar *amp = memchr(p, '&', lt - p);

  if (!amp)
    {
      report_text(s, (const gchar *) p, lt - p, lt);
      return;
    }
  s->scratch->len = 0;
  while (amp)
    {
      gunichar c = 0;
      gint n = xml_scan_parse_reference(amp, &c);
      g_string_append_len(s->scratch, (const gchar *) p, amp - p);
      xml_scan_append_unichar(s->scratch, c);
      p = amp + n;
      amp = memchr(p, '&', lt - p);
    }
  g_string_append_len(s->scratch, (const gchar *) p, lt - p);
  report_text(s, s->scratch->str, s->scratch->len, lt);
}

/* Character data at @p up to the next '<' (event pass): reports it and
 * returns the position of that '<'. */
static const guchar *
emit_text(Scanner *s, const guchar *p)
{
  /* The check pass let only blanks through outside the elements that hold
   * text, and the loader ignores those. */
  if (!s->open_holds_text[s->depth - 1])
    return skip_blanks(p);

  const guchar *lt = memchr(p, '<', s->end - p);

  report_text_run(s, p, lt);
  return lt;
}

/* Check pass, one pass: checks the character data at @p and, in one
 * pass, reports it when the open element holds text. */
static const guchar *
check_and_report_text(Scanner *s, const guchar *p)
{
  const guchar *lt = check_text(s, p);

  if (lt && s->events && s->open_holds_text[s->depth - 1])
    report_text_run(s, p, lt);
  return lt;
}

/* The content of the root element, from after its start tag to after its
 * end tag: the position after it, or NULL. */
static const guchar *
scan_content(Scanner *s, const guchar *p)
{
  while (s->depth > 0 && !s->stopped)
    {
      if (p[0] != '<')
        p = s->check ? check_and_report_text(s, p) : emit_text(s, p);
      else if (p[1] == '/')
        p = scan_end_tag(s, p);
      else if (p[1] == '!' && p[2] == '-' && p[3] == '-')
        {
          p = xml_scan_comment(s, p);
          if (p && s->events)
            report_markup(s, FALSE, 0, p);
        }
      else if (p[1] == '!' && memcmp(p, "<![CDATA[", 9) == 0)
        p = scan_cdata(s, p);
      else
        p = scan_start_tag(s, p);
      if (!p)
        return NULL;
    }
  return p;
}

/* The whole document; FALSE when the check fails. */
static gboolean
scan_document(Scanner *s)
{
  const guchar *p = s->buf;

  if (strncmp((const gchar *) p, "<?xml", 5) == 0 && (p[5] == ' ' || p[5] == '\t' || p[5] == '\n'))
    p = xml_scan_xml_declaration(p);
  if (p)
    p = xml_scan_misc(s, p);
  if (!p || p[0] != '<' || xml_scan_name_char[p[1]] != 1)
    return FALSE;
  p = scan_start_tag(s, p);
  if (p)
    p = scan_content(s, p);
  if (s->stopped)
    return TRUE;
  if (p)
    p = xml_scan_misc(s, p);
  return p == s->end;
}

gboolean
pdb_xml_scan_check(const gchar *buffer, gsize length, PdbXmlScanFacts *facts)
{
  Scanner s = { 0 };

  xml_scan_init_tables();
  s.buf = (const guchar *) buffer;
  s.end = s.buf + length;
  s.check = TRUE;
  s.ascii = TRUE;
  s.attrs_verbatim = TRUE;
  /* Every loop stops at the terminating NUL. A NUL byte or a CR anywhere
   * else fails the grammar where it stands (neither is a character that
   * xml_scan_utf8_length() accepts, a blank or a name character), so files with CR
   * line ends go to libxml2, whose line and column counting around CR the
   * scanner does not copy. */
  if (s.end[0] != '\0')
    return FALSE;
  if (!scan_document(&s))
    return FALSE;
  facts->ascii = s.ascii;
  facts->attrs_verbatim = s.attrs_verbatim;
  return TRUE;
}

/* A scanner at the start of `buffer` that reports to `events`; the caller
 * frees s->scratch when done. */
static void
scanner_start_events(Scanner *s, const gchar *buffer, gsize length, const PdbXmlScanEvents *events,
                     gpointer user_data)
{
  xml_scan_init_tables();
  s->buf = (const guchar *) buffer;
  s->end = s->buf + length;
  s->events = events;
  s->user_data = user_data;
  s->pos_ptr = s->buf;
  s->line_start = s->buf;
  s->line = 1;
  s->column = 1;
  s->scratch = g_string_sized_new(256);
}

void
pdb_xml_scan_events(const gchar *buffer, gsize length, const PdbXmlScanFacts *facts,
                    const PdbXmlScanEvents *events, gpointer user_data)
{
  Scanner s = { 0 };

  scanner_start_events(&s, buffer, length, events, user_data);
  s.ascii = facts->ascii;
  s.attrs_verbatim = facts->attrs_verbatim;
  scan_document(&s);
  g_string_free(s.scratch, TRUE);
}

gboolean
pdb_xml_scan_check_and_report(const gchar *buffer, gsize length, const PdbXmlScanEvents *events,
                              gpointer user_data)
{
  Scanner s = { 0 };
  gboolean inside;

  scanner_start_events(&s, buffer, length, events, user_data);
  s.check = TRUE;
  s.ascii = TRUE;
  s.attrs_verbatim = TRUE;
  /* as pdb_xml_scan_check() */
  inside = s.end[0] == '\0' && scan_document(&s);
  g_string_free(s.scratch, TRUE);
  return inside;
}

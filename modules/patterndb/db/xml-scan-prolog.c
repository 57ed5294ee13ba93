/*
 * xml-scan-prolog.c: the scanner's markup around the root element (the
 * XML declaration, blanks and comments before and after it) and comments
 * anywhere. The check pass and one pass look at every character of a
 * comment; the event pass, after a check, jumps to its end.
 */
#define _GNU_SOURCE   /* memmem() */
#include "db/xml-scan-private.h"

#include <string.h>

/* "<!--" at @p: the end of the comment, or NULL. */
const guchar *
xml_scan_comment(Scanner *s, const guchar *p)
{
  if (!s->check)
    return (const guchar *) memmem(p + 4, s->end - (p + 4), "--", 2) + 3;
  const guchar *start = p;
  p += 4;
  for (;;)
    {
      if (p - start > SCAN_MAX_CHUNK)
        return NULL;
      if (p[0] == '-' && p[1] == '-')
        return p[2] == '>' ? p + 3 : NULL;
      gint n = scan_char(s, p);
      if (!n)
        return NULL;
      p += n;
    }
}

/* Blanks and comments (outside the root element). */
const guchar *
xml_scan_misc(Scanner *s, const guchar *p)
{
  for (;;)
    {
      p = skip_blanks(p);
      if (p[0] == '<' && p[1] == '!' && p[2] == '-' && p[3] == '-')
        {
          p = xml_scan_comment(s, p);
          if (!p)
            return NULL;
        }
      else
        return p;
    }
}

/* A quoted value of the XML declaration: its end, or NULL. */
static const guchar *
scan_decl_value(const guchar *p, const gchar *const *allowed)
{
  guchar quote = *p;

  if (quote != '"' && quote != '\'')
    return NULL;
  p++;
  const guchar *end = (const guchar *) strchr((const gchar *) p, quote);
  if (!end)
    return NULL;
  for (gint i = 0; allowed[i]; i++)
    if ((gsize) (end - p) == strlen(allowed[i]) && g_ascii_strncasecmp((const gchar *) p, allowed[i], end - p) == 0)
      return end + 1;
  return NULL;
}

/* An attribute of the XML declaration, optional unless @required: the
 * position after it, or NULL. */
static const guchar *
scan_decl_attribute(const guchar *p, const gchar *name, const gchar *const *allowed, gboolean required)
{
  const guchar *q = skip_blanks(p);
  gsize length = strlen(name);

  if (q == p || strncmp((const gchar *) q, name, length) != 0)
    return required ? NULL : p;
  q = skip_blanks(q + length);
  if (*q != '=')
    return NULL;
  return scan_decl_value(skip_blanks(q + 1), allowed);
}

/* "<?xml " at the start: the position after the declaration, or NULL. */
const guchar *
xml_scan_xml_declaration(const guchar *p)
{
  static const gchar *const versions[] = { "1.0", NULL };
  static const gchar *const encodings[] = { "UTF-8", NULL };
  static const gchar *const standalones[] = { "yes", "no", NULL };

  p = scan_decl_attribute(p + 5, "version", versions, TRUE);
  if (p)
    p = scan_decl_attribute(p, "encoding", encodings, FALSE);
  if (p)
    p = scan_decl_attribute(p, "standalone", standalones, FALSE);
  if (!p)
    return NULL;
  p = skip_blanks(p);
  return p[0] == '?' && p[1] == '>' ? p + 2 : NULL;
}

/*
 * pattern-parse.c: cuts a pattern into literal text, literal '@' and
 * compiled parser references, with 3.38's rules:
 *
 *   "@@"            a literal '@' (its own element, hence its own node)
 *   "@TYPE@", "@TYPE:name@", "@TYPE:name:param@"
 *                   a parser; the text between the '@'s is split on ':' into
 *                   at most 3 parts, so the param may contain ':' but never '@'
 *   a lone '@'      PDB_RADIX_ERROR_STRAY_AT ("write @@")
 *
 * Invariant: on success every element is valid and every parser compiled;
 * on error nothing is returned, nothing leaks, and the message starts with
 * file:line:column of the offending '@'.
 */
#include "engine/radix-node.h"

#include <string.h>

/* file:line:column of pattern[offset], counting lines inside the pattern. */
static gchar *
_where(const gchar *pattern, gsize offset, const PdbLocation *location)
{
  gint line = location ? location->line : 0;
  gint column = location ? location->column : 0;

  for (gsize i = 0; i < offset; i++)
    {
      if (pattern[i] == '\n')
        {
          line++;
          column = 1;
        }
      else
        column++;
    }
  return g_strdup_printf("%s:%d:%d", location && location->file ? location->file : "<pattern>",
                         line, column);
}

static void
_append(GArray *elements, PdbElementKind kind, const gchar *text, gsize length, PdbParser *parser)
{
  PdbElement e = { kind, text, length, parser };

  g_array_append_val(elements, e);
}

void
pdb_pattern_free(GArray *elements)
{
  if (!elements)
    return;
  for (guint i = 0; i < elements->len; i++)
    pdb_parser_free(g_array_index(elements, PdbElement, i).parser);
  g_array_free(elements, TRUE);
}

GArray *
pdb_pattern_parse(const gchar *pattern, const gchar *capture_prefix,
                  const PdbLocation *location, GError **error)
{
  GArray *elements = g_array_sized_new(FALSE, FALSE, sizeof(PdbElement), 8);
  const gchar *p = pattern;

  while (*p)
    {
      const gchar *at = strchr(p, '@');
      const gchar *end;

      if (!at)
        {
          _append(elements, PDB_ELEMENT_LITERAL, p, strlen(p), NULL);
          break;
        }
      if (at > p)
        _append(elements, PDB_ELEMENT_LITERAL, p, at - p, NULL);
      if (at[1] == '@')
        {
          _append(elements, PDB_ELEMENT_AT, at, 1, NULL);
          p = at + 2;
          continue;
        }
      end = at[1] ? strchr(at + 1, '@') : NULL;
      if (!end)
        {
          gchar *where = _where(pattern, at - pattern, location);

          g_set_error(error, PDB_RADIX_ERROR, PDB_RADIX_ERROR_STRAY_AT,
                      "%s: '@' without a closing '@' in pattern '%s'; a parser is written "
                      "@TYPE:name@ and a literal '@' must be written '@@'", where, pattern);
          g_free(where);
          pdb_pattern_free(elements);
          return NULL;
        }

      gchar *reference = g_strndup(at + 1, end - at - 1);
      GError *local = NULL;
      PdbParser *parser = pdb_parser_new(reference, capture_prefix, &local);

      g_free(reference);
      if (!parser)
        {
          gchar *where = _where(pattern, at - pattern, location);

          g_set_error(error, PDB_RADIX_ERROR, local->code, "%s: %s", where, local->message);
          g_free(where);
          g_error_free(local);
          pdb_pattern_free(elements);
          return NULL;
        }
      _append(elements, PDB_ELEMENT_PARSER, NULL, 0, parser);
      p = end + 1;
    }
  return elements;
}

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
 * file:line:column of the offending '@'. With a cache (a tree's), each
 * distinct reference is compiled once and elements hold references to the
 * cached parser. pdb_pattern_parse_into() fills a caller's empty array
 * (an inserting tree reuses one for every pattern) and leaves it empty on
 * error; pdb_pattern_clear() empties it again.
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

/* Writes element @n of an array whose length is its room (see
 * pdb_pattern_parse_into), doubling the room when it is full. */
static inline void
_put(GArray *elements, guint *n, PdbElementKind kind, const gchar *text, gsize length, PdbParser *parser)
{
  if (*n == elements->len)
    g_array_set_size(elements, 2 * elements->len);
  g_array_index(elements, PdbElement, *n) = (PdbElement) { kind, text, length, parser };
  (*n)++;
}

/* Cuts @elements to @n entries. The arrays have no clear function, so this
 * is what g_array_set_size() does when shrinking, without its
 * g_array_remove_range() call (two per pattern loaded). */
static inline void
_cut(GArray *elements, guint n)
{
  g_assert(n <= elements->len);
  elements->len = n;
}

void
pdb_pattern_clear(GArray *elements)
{
  for (guint i = 0; i < elements->len; i++)
    pdb_parser_free(g_array_index(elements, PdbElement, i).parser);
  _cut(elements, 0);
}

void
pdb_pattern_free(GArray *elements)
{
  if (!elements)
    return;
  pdb_pattern_clear(elements);
  g_array_free(elements, TRUE);
}

/*
 * The parser for the reference between @at and @end: from @cache when it
 * has one for this prefix and text (keyed "prefix@reference": a reference
 * never contains '@', so the last '@' separates them), else compiled (and
 * cached). Returns a new reference, or NULL with @error set.
 */
static PdbParser *
_parser_for(const gchar *at, const gchar *end, const gchar *capture_prefix, GHashTable *cache,
            GError **error)
{
  gsize prefix_len = capture_prefix ? strlen(capture_prefix) : 0;
  gsize ref_len = end - at - 1;
  gchar stack[256];
  gsize key_len = prefix_len + 1 + ref_len;
  gchar *key = key_len < sizeof(stack) ? stack : g_malloc(key_len + 1);
  PdbParser *parser;

  if (prefix_len)
    memcpy(key, capture_prefix, prefix_len);
  key[prefix_len] = '@';
  memcpy(key + prefix_len + 1, at + 1, ref_len);
  key[key_len] = '\0';
  parser = cache ? g_hash_table_lookup(cache, key) : NULL;
  if (parser)
    pdb_parser_ref(parser);
  else
    {
      parser = pdb_parser_new(key + prefix_len + 1, capture_prefix, error);
      if (parser && cache)
        g_hash_table_insert(cache, g_strdup(key), pdb_parser_ref(parser));
    }
  if (key != stack)
    g_free(key);
  return parser;
}

GArray *
pdb_pattern_parse(const gchar *pattern, const gchar *capture_prefix,
                  const PdbLocation *location, GError **error)
{
  return pdb_pattern_parse_cached(pattern, capture_prefix, location, NULL, error);
}

GArray *
pdb_pattern_parse_cached(const gchar *pattern, const gchar *capture_prefix,
                         const PdbLocation *location, GHashTable *cache, GError **error)
{
  GArray *elements = g_array_sized_new(FALSE, FALSE, sizeof(PdbElement), 8);

  if (!pdb_pattern_parse_into(elements, pattern, capture_prefix, location, cache, error))
    {
      g_array_free(elements, TRUE);
      return NULL;
    }
  return elements;
}

gboolean
pdb_pattern_parse_into(GArray *elements, const gchar *pattern, const gchar *capture_prefix,
                       const PdbLocation *location, GHashTable *cache, GError **error)
{
  const gchar *p = pattern;
  guint n = 0;

  g_return_val_if_fail(elements->len == 0, FALSE);
  /* the array's length is the room for elements until the end, where it is
   * cut to their count: one call to size it instead of one per element */
  g_array_set_size(elements, 16);

  while (*p)
    {
      const gchar *at = strchr(p, '@');
      const gchar *end;

      if (!at)
        {
          _put(elements, &n, PDB_ELEMENT_LITERAL, p, strlen(p), NULL);
          break;
        }
      if (at > p)
        _put(elements, &n, PDB_ELEMENT_LITERAL, p, at - p, NULL);
      if (at[1] == '@')
        {
          _put(elements, &n, PDB_ELEMENT_AT, at, 1, NULL);
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
          _cut(elements, n);
          pdb_pattern_clear(elements);
          return FALSE;
        }

      GError *local = NULL;
      PdbParser *parser = _parser_for(at, end, capture_prefix, cache, &local);

      if (!parser)
        {
          gchar *where = _where(pattern, at - pattern, location);

          g_set_error(error, PDB_RADIX_ERROR, local->code, "%s: %s", where, local->message);
          g_free(where);
          g_error_free(local);
          _cut(elements, n);
          pdb_pattern_clear(elements);
          return FALSE;
        }
      _put(elements, &n, PDB_ELEMENT_PARSER, NULL, 0, parser);
      p = end + 1;
    }
  _cut(elements, n);
  return TRUE;
}

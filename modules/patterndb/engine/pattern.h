/*
 * pattern.h: a pattern's text split into its elements (literal text, "@@"
 * and parser references), as the engine inserts them into a tree; public
 * so that the linter can reason about patterns without the tree's
 * internals (radix-node.h stays private to engine/).
 */
#ifndef PDB_ENGINE_PATTERN_H
#define PDB_ENGINE_PATTERN_H

#include "engine/radix.h"
#include "engine/parser.h"

G_BEGIN_DECLS

/* pattern elements (pattern-parse.c) */
typedef enum
{
  PDB_ELEMENT_LITERAL,     /* text without '@' */
  PDB_ELEMENT_AT,          /* a literal '@' (from "@@"): always its own node */
  PDB_ELEMENT_PARSER,
} PdbElementKind;

typedef struct _PdbElement
{
  PdbElementKind kind;
  const gchar *text;       /* LITERAL/AT: points into the pattern */
  gsize length;
  PdbParser *parser;       /* PARSER: owned by the element until inserted */
} PdbElement;

/* Splits @pattern into elements (GArray of PdbElement). Errors name the
 * location (file:line:column of the offending character). */
GArray *pdb_pattern_parse(const gchar *pattern, const gchar *capture_prefix,
                          const PdbLocation *location, GError **error);
/* The same with a parser cache (string -> PdbParser*, owning both; see
 * pattern-parse.c): parsers of equal references are shared. */
GArray *pdb_pattern_parse_cached(const gchar *pattern, const gchar *capture_prefix,
                                 const PdbLocation *location, GHashTable *cache, GError **error);
/* The same into @elements, which must be empty (GArray of PdbElement); on
 * error it is left empty. */
gboolean pdb_pattern_parse_into(GArray *elements, const gchar *pattern, const gchar *capture_prefix,
                                const PdbLocation *location, GHashTable *cache, GError **error);
/* Drops the elements' parser references and empties the array. */
void pdb_pattern_clear(GArray *elements);
void pdb_pattern_free(GArray *elements);

G_END_DECLS

#endif

/*
 * lint-private.h: what the lint checks share inside modules/patterndb/lint.
 *
 * A pattern is looked at as a sequence of tokens, one per literal byte
 * ("@@" is the byte '@') and one per parser reference, so that "two
 * patterns reach the same tree node" becomes "their token prefixes are
 * equal" (bytes equal, parsers pdb_parser_equal()). Patterns are kept in
 * the order the loader inserted them into the ruleset's tree.
 */
#ifndef PDB_LINT_PRIVATE_H
#define PDB_LINT_PRIVATE_H

#include "lint/lint.h"
#include "engine/pattern.h"

G_BEGIN_DECLS

typedef struct _LintToken
{
  PdbParser *parser;       /* borrowed from LintPattern.elements; NULL for a byte */
  guchar byte;
  gsize offset;            /* where the token starts in the pattern text */
} LintToken;

typedef struct _LintPattern
{
  const PdbRule *rule;
  guint index;             /* into rule->pattern_places */
  const gchar *text;
  GArray *elements;        /* owned (pdb_pattern_parse) */
  GArray *tokens;          /* of LintToken */
} LintPattern;

/* The patterns of @rs in insertion order (GPtrArray of LintPattern*, frees them). */
GPtrArray *pdb_lint_ruleset_patterns(const PdbRuleset *rs);

/* file:line:column of the token at @offset of pattern @p. */
void pdb_lint_pattern_location(const LintPattern *p, gsize offset, PdbLocation *out);

/* A finding about @rules (NULL-terminated list of rules). */
PdbLintFinding *pdb_lint_add(GPtrArray *findings, PdbLintSeverity severity, const gchar *kind,
                             const PdbLocation *location, const PdbRule *const *rules,
                             const gchar *format, ...) G_GNUC_PRINTF(6, 7);

/* The checks, one file each. */
void pdb_lint_check_parsers(const PdbRuleset *rs, GPtrArray *patterns, GPtrArray *findings);
/* Adds to @shadowed (rule pair keys "a\nb") the pairs it reports. */
void pdb_lint_check_shadowing(const PdbRuleset *rs, GPtrArray *patterns, GPtrArray *findings,
                              GHashTable *shadowed);
void pdb_lint_check_ambiguity(const PdbRuleset *rs, GPtrArray *patterns, GPtrArray *findings,
                              GHashTable *shadowed);
void pdb_lint_check_examples(const PdbDatabase *db, gboolean conflicts, GPtrArray *findings);

/* A key for the unordered pair of rules (a, b). */
gchar *pdb_lint_pair_key(const PdbRule *a, const PdbRule *b);

G_END_DECLS

#endif

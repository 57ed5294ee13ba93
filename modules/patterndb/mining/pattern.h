/*
 * pattern.h: turning a cluster of messages into a patterndb pattern.
 *
 * The cluster's members are aligned token by token (their token counts are
 * equal by construction). A position where every member has the same text
 * becomes literal text; a position that varies keeps its common prefix and
 * suffix (cut at punctuation: "rhost=", "blk_", "(" ... ")") as literal
 * text and its middle becomes a field. Each field's parser is chosen from
 * the values seen and the literal that follows, so that, with 3.38's
 * matching rules, the pattern matches the members it reports as matching:
 *
 *   NUMBER    every value is [-]digits and the next literal does not start with a digit
 *   IPv4/IPv6 every value is an address and the next literal cannot extend it
 *   QSTRING   the values sit between a pair of quotes (the quotes move into the parser)
 *   ANYSTRING the field ends the message (values non-empty)
 *   HOSTNAME  dotted host names followed by a character a host name cannot contain
 *   STRING    alphanumeric values followed by a non-delimiter, non-alphanumeric character
 *   ESTRING   otherwise: the shortest start of the next literal that no value
 *             contains (ESTRING consumes its delimiter, so the literal loses it)
 *
 * Field names come from the context: "key=" gives "key"; the word before
 * ("user", "for", "port", "from" + address -> src_ip ...) gives a name;
 * otherwise .dict.stringN with named parsers, or no name.
 */
#ifndef PDB_MINING_PATTERN_H
#define PDB_MINING_PATTERN_H

#include "mining/cluster.h"

G_BEGIN_DECLS

typedef struct _PdbMiningPatternOptions
{
  gboolean named_parsers;     /* -n: .dict.stringN for fields without a context name */
  const gchar *delimiters;    /* characters preferred as ESTRING delimiters (space always added) */
} PdbMiningPatternOptions;

#define PDB_MINING_DEFAULT_DELIMITERS " :&~?![]=,;()'\""

typedef struct _PdbMiningField
{
  gchar *parser;    /* "NUMBER", "ESTRING" ... */
  gchar *name;      /* "" when unnamed */
  gchar *param;     /* NULL when the parser takes none */
} PdbMiningField;

typedef struct _PdbMiningValue
{
  guint32 offset;   /* into the member's message */
  guint32 length;
} PdbMiningValue;

typedef struct _PdbMiningPattern
{
  gchar *text;              /* the pattern ("@" written as "@@") */
  GPtrArray *fields;        /* of PdbMiningField*, in pattern order */
  GArray *matching;         /* of guint: member line ids the pattern matches */
  GArray *values;           /* of PdbMiningValue: n_fields per matching member, same order */
} PdbMiningPattern;

/*
 * Builds the pattern of @cluster. @messages[line_id] is each line's
 * message (NUL-terminated), as given to the miner. Returns a pattern you
 * own (pdb_mining_pattern_free()).
 */
PdbMiningPattern *pdb_mining_pattern_build(const PdbMiner *miner, const PdbMiningCluster *cluster,
                                           const gchar *const *messages,
                                           const PdbMiningPatternOptions *options);
void pdb_mining_pattern_free(PdbMiningPattern *pattern);

/* Appends @text to @out with '@' doubled (pattern literal syntax). */
void pdb_mining_append_literal(GString *out, const gchar *text, gssize length);

/* The context name for a field (exposed for tests): @before is the literal
 * text that precedes the field, @parser its parser; NULL when none fits. */
gchar *pdb_mining_context_name(const gchar *before, const gchar *parser);

G_END_DECLS

#endif

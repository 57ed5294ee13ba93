/*
 * tokenize.h: splitting a log message into tokens for clustering.
 *
 * A message is cut at whitespace. Each token keeps where it came from in
 * the message (so that patterns can be built from the original text) and a
 * clustering key: the token itself, or the token with its obviously
 * variable part masked as "<*>" (anything with a digit: numbers, addresses,
 * hex ids, paths with numbers; the value of key=value; a date and time
 * written in words such as "Tue Jul 26 05:47:42 2005", which spans several
 * words and becomes one token). Runs of fully variable tokens are collapsed
 * into one, so that variable-length lists do not change the token count.
 */
#ifndef PDB_MINING_TOKENIZE_H
#define PDB_MINING_TOKENIZE_H

#include <glib.h>

G_BEGIN_DECLS

#define PDB_MINING_WILDCARD "<*>"

typedef struct _PdbMiningToken
{
  guint32 start;     /* byte offset of the first byte in the message */
  guint32 end;       /* one past the last byte */
  gchar *key;        /* owned: clustering key, may contain PDB_MINING_WILDCARD */
} PdbMiningToken;

typedef struct _PdbMiningTokens
{
  PdbMiningToken *tokens;  /* owned array */
  guint n_tokens;
} PdbMiningTokens;

/* Tokenizes @message (@length bytes, not necessarily NUL-terminated).
 * Free the result with pdb_mining_tokens_clear(). */
void pdb_mining_tokenize(const gchar *message, gsize length, PdbMiningTokens *out);
void pdb_mining_tokens_clear(PdbMiningTokens *tokens);

/* The clustering key of one whitespace-free word (exposed for tests). */
gchar *pdb_mining_mask_word(const gchar *word, gsize length);

/* TRUE if @key is exactly the wildcard, or contains one. */
gboolean pdb_mining_key_is_wildcard(const gchar *key);
gboolean pdb_mining_key_has_wildcard(const gchar *key);

G_END_DECLS

#endif

/*
 * tokenize.c: whitespace tokens with masked clustering keys.
 *
 * Invariant: the tokens of a message are in order, do not overlap, never
 * include whitespace at their ends, and every key that is exactly "<*>"
 * is preceded by a token whose key is not exactly "<*>" (runs are
 * collapsed), except that a message of one token never has the key "<*>"
 * (its text is its key). Masking never looks beyond one token, except for
 * dates written in words, which are recognised as a whole and become one
 * token.
 */
#include "mining/tokenize.h"

#include <string.h>

static const gchar *const month_names[] =
{ "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec", NULL };
static const gchar *const day_names[] =
{ "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun", NULL };

/* Punctuation kept around a masked word: "(<*>)", "[<*>]", "<*>," ... */
static const gchar leading_punct[] = "([{<'\"";
static const gchar trailing_punct[] = ")]}>,;:.'\"";

typedef struct
{
  guint32 start;
  guint32 end;
} Span;

static gboolean
is_space(gchar c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static gboolean
span_is_one_of(const gchar *msg, Span s, const gchar *const *names)
{
  for (gint i = 0; names[i]; i++)
    if (s.end - s.start == strlen(names[i]) && memcmp(msg + s.start, names[i], s.end - s.start) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
span_is_digits(const gchar *msg, Span s, guint min, guint max)
{
  guint len = s.end - s.start;
  if (len < min || len > max)
    return FALSE;
  for (guint32 i = s.start; i < s.end; i++)
    if (!g_ascii_isdigit(msg[i]))
      return FALSE;
  return TRUE;
}

/* hh:mm:ss with an optional fraction (".123" or ",123"). */
static gboolean
span_is_clock(const gchar *msg, Span s)
{
  const gchar *p = msg + s.start;
  guint len = s.end - s.start;
  if (len < 8)
    return FALSE;
  if (!(g_ascii_isdigit(p[0]) && g_ascii_isdigit(p[1]) && p[2] == ':' &&
        g_ascii_isdigit(p[3]) && g_ascii_isdigit(p[4]) && p[5] == ':' &&
        g_ascii_isdigit(p[6]) && g_ascii_isdigit(p[7])))
    return FALSE;
  if (len == 8)
    return TRUE;
  if (p[8] != '.' && p[8] != ',')
    return FALSE;
  for (guint i = 9; i < len; i++)
    if (!g_ascii_isdigit(p[i]))
      return FALSE;
  return len > 9;
}

/* How many words starting at @i form "[Day] Mon dd hh:mm:ss [yyyy]"; 0 if none. */
static guint
date_words_at(const gchar *msg, const Span *words, guint n, guint i)
{
  guint j = i;
  if (j < n && span_is_one_of(msg, words[j], day_names))
    j++;
  if (j + 3 > n)
    return 0;
  if (!span_is_one_of(msg, words[j], month_names))
    return 0;
  if (!span_is_digits(msg, words[j + 1], 1, 2) || !span_is_clock(msg, words[j + 2]))
    return 0;
  j += 3;
  if (j < n && span_is_digits(msg, words[j], 4, 4))
    j++;
  return j - i;
}

static gboolean
has_digit(const gchar *s, gsize len)
{
  for (gsize i = 0; i < len; i++)
    if (g_ascii_isdigit(s[i]))
      return TRUE;
  return FALSE;
}

/* "()", "[]", "{}", "<>", "''", "\"\"" (optionally followed by trailing
 * punctuation): an empty value in its brackets, keyed like "(<*>)". */
static gboolean
is_empty_pair(const gchar *word, gsize length)
{
  static const gchar *const pairs[] = { "()", "[]", "{}", "<>", "''", "\"\"", NULL };
  if (length < 2)
    return FALSE;
  for (gint i = 0; pairs[i]; i++)
    if (word[0] == pairs[i][0] && word[1] == pairs[i][1])
      {
        for (gsize j = 2; j < length; j++)
          if (!strchr(trailing_punct, word[j]))
            return FALSE;
        return TRUE;
      }
  return FALSE;
}

gchar *
pdb_mining_mask_word(const gchar *word, gsize length)
{
  gsize i = 0, j = length;

  if (is_empty_pair(word, length))
    return g_strdup_printf("%c%s%.*s", word[0], PDB_MINING_WILDCARD, (int) (length - 1), word + 1);

  while (i < j && strchr(leading_punct, word[i]) && word[i])
    i++;
  while (j > i && strchr(trailing_punct, word[j - 1]) && word[j - 1])
    j--;

  GString *key = g_string_sized_new(length + 4);
  g_string_append_len(key, word, i);

  const gchar *core = word + i;
  gsize core_len = j - i;
  const gchar *eq = memchr(core, '=', core_len);
  if (eq && eq > core && (gsize) (eq - core) + 1 < core_len)
    {
      gsize key_len = eq - core + 1;
      g_string_append_len(key, core, key_len);
      if (has_digit(core + key_len, core_len - key_len))
        g_string_append(key, PDB_MINING_WILDCARD);
      else
        g_string_append_len(key, core + key_len, core_len - key_len);
    }
  else if (has_digit(core, core_len))
    g_string_append(key, PDB_MINING_WILDCARD);
  else
    g_string_append_len(key, core, core_len);

  g_string_append_len(key, word + j, length - j);
  return g_string_free(key, FALSE);
}

gboolean
pdb_mining_key_is_wildcard(const gchar *key)
{
  return strcmp(key, PDB_MINING_WILDCARD) == 0;
}

gboolean
pdb_mining_key_has_wildcard(const gchar *key)
{
  return strstr(key, PDB_MINING_WILDCARD) != NULL;
}

void
pdb_mining_tokenize(const gchar *message, gsize length, PdbMiningTokens *out)
{
  GArray *words = g_array_new(FALSE, FALSE, sizeof(Span));
  gsize i = 0;

  while (i < length)
    {
      while (i < length && is_space(message[i]))
        i++;
      if (i >= length)
        break;
      Span s = { (guint32) i, 0 };
      while (i < length && !is_space(message[i]))
        i++;
      s.end = (guint32) i;
      g_array_append_val(words, s);
    }

  const Span *w = (const Span *) words->data;
  guint n = words->len;
  GArray *tokens = g_array_sized_new(FALSE, FALSE, sizeof(PdbMiningToken), n);

  for (guint k = 0; k < n;)
    {
      PdbMiningToken t;
      guint date_len = date_words_at(message, w, n, k);

      t.start = w[k].start;
      if (date_len > 0)
        {
          t.end = w[k + date_len - 1].end;
          t.key = g_strdup(PDB_MINING_WILDCARD);
          k += date_len;
        }
      else
        {
          t.end = w[k].end;
          t.key = pdb_mining_mask_word(message + w[k].start, w[k].end - w[k].start);
          k++;
        }

      if (tokens->len > 0 && pdb_mining_key_is_wildcard(t.key))
        {
          PdbMiningToken *prev = &g_array_index(tokens, PdbMiningToken, tokens->len - 1);
          if (pdb_mining_key_is_wildcard(prev->key))
            {
              prev->end = t.end;
              g_free(t.key);
              continue;
            }
        }
      g_array_append_val(tokens, t);
    }

  /* a message that is one variable and nothing else has no template to
   * find: its text is its key (identical messages still cluster) */
  if (tokens->len == 1)
    {
      PdbMiningToken *only = &g_array_index(tokens, PdbMiningToken, 0);
      if (pdb_mining_key_is_wildcard(only->key))
        {
          g_free(only->key);
          only->key = g_strndup(message + only->start, only->end - only->start);
        }
    }
  g_array_free(words, TRUE);
  out->n_tokens = tokens->len;
  out->tokens = (PdbMiningToken *) g_array_free(tokens, FALSE);
}

void
pdb_mining_tokens_clear(PdbMiningTokens *tokens)
{
  for (guint i = 0; i < tokens->n_tokens; i++)
    g_free(tokens->tokens[i].key);
  g_free(tokens->tokens);
  tokens->tokens = NULL;
  tokens->n_tokens = 0;
}

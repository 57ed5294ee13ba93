/*
 * filter-lex.c: the tokens of filter-lex.h.
 *
 * Invariant: the lexer only moves forward through the text and never
 * writes to it; lx->tok.text is one buffer reused for every token.
 */
#include "db/filter-lex.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void
pdb_filter_lex_init(PdbFilterLexer *lx, const gchar *text)
{
  lx->text = text;
  lx->pos = 0;
  lx->tok.kind = PDB_FILTER_TOK_EOF;
  lx->tok.start = 0;
  lx->tok.text = g_string_new(NULL);
  lx->tok.number = 0;
}

void
pdb_filter_lex_clear(PdbFilterLexer *lx)
{
  g_string_free(lx->tok.text, TRUE);
  lx->tok.text = NULL;
}

static gboolean
is_blank(gchar c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',';
}

static gboolean
is_word_byte(gchar c)
{
  return c && !is_blank(c) && !strchr("#'\"(){}[]\\;|.@:", c);
}

static gint
hex_value(gchar c)
{
  return g_ascii_isxdigit(c) ? g_ascii_xdigit_value(c) : -1;
}

/* "..." after the opening quote; FALSE when the closing quote is missing. */
static gboolean
read_double_quoted(PdbFilterLexer *lx)
{
  const gchar *t = lx->text;

  while (t[lx->pos] && t[lx->pos] != '"')
    {
      gchar c = t[lx->pos++];

      if (c == '\\' && t[lx->pos])
        {
          c = t[lx->pos++];
          switch (c)
            {
            case 'a': c = 7; break;
            case 'n': c = '\n'; break;
            case 'r': c = '\r'; break;
            case 't': c = '\t'; break;
            case 'v': c = 11; break;
            case 'x':
              if (hex_value(t[lx->pos]) >= 0)
                {
                  gint v = hex_value(t[lx->pos++]);

                  if (hex_value(t[lx->pos]) >= 0)
                    v = v * 16 + hex_value(t[lx->pos++]);
                  c = (gchar) v;
                }
              break;
            default:
              break;
            }
        }
      g_string_append_c(lx->tok.text, c);
    }
  if (!t[lx->pos])
    return FALSE;
  lx->pos++;
  return TRUE;
}

static gboolean
read_single_quoted(PdbFilterLexer *lx)
{
  const gchar *t = lx->text;
  const gchar *end = strchr(t + lx->pos, '\'');

  if (!end)
    {
      lx->pos = strlen(t);
      return FALSE;
    }
  g_string_append_len(lx->tok.text, t + lx->pos, end - (t + lx->pos));
  lx->pos = end - t + 1;
  return TRUE;
}

/* The multiplier of a size suffix ("k", "Mi", "GiB", "b"); 0 when @s is not one. */
static gint64
size_suffix(const gchar *s)
{
  gint64 unit = 1;
  gint exponent = 0;

  if (*s && strchr("kKmMgG", *s))
    {
      exponent = g_ascii_tolower(*s) == 'k' ? 1 : g_ascii_tolower(*s) == 'm' ? 2 : 3;
      s++;
    }
  if (*s == 'i' || *s == 'I')
    {
      unit = 1024;
      s++;
    }
  if (*s == 'b' || *s == 'B')
    s++;
  if (*s)
    return 0;
  if (unit == 1)
    unit = 1000;
  gint64 m = 1;

  while (exponent-- > 0)
    m *= unit;
  return m;
}

/* Decides whether the word just read is a number (see filter-lex.h). */
static void
classify_word(PdbFilterLexer *lx)
{
  const gchar *w = lx->tok.text->str;
  const gchar *digits = (*w == '+' || *w == '-') ? w + 1 : w;
  gchar *end;
  gint64 v, m;

  if (!g_ascii_isdigit(*digits))
    return;
  errno = 0;
  if (digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X') && hex_value(digits[2]) >= 0)
    v = g_ascii_strtoll(w, &end, 16);
  else if (digits[0] == '0' && g_ascii_isdigit(digits[1]) && strspn(digits, "01234567") == strlen(digits))
    v = g_ascii_strtoll(w, &end, 8);
  else
    {
      v = g_ascii_strtoll(w, &end, 10);
      if (*end == '.' && g_ascii_isdigit(end[1]) && strspn(end + 1, "0123456789") == strlen(end + 1))
        {
          lx->tok.kind = PDB_FILTER_TOK_FLOAT;
          return;
        }
    }
  m = *end ? size_suffix(end) : 1;
  if (m == 0)
    return;
  if (errno == ERANGE || (m > 1 && (v > G_MAXINT64 / m || v < G_MININT64 / m)))
    {
      lx->tok.kind = PDB_FILTER_TOK_ERROR;
      return;
    }
  lx->tok.kind = PDB_FILTER_TOK_NUMBER;
  lx->tok.number = v * m;
}

static void
read_word(PdbFilterLexer *lx)
{
  const gchar *t = lx->text;

  for (;;)
    {
      while (is_word_byte(t[lx->pos]))
        g_string_append_c(lx->tok.text, t[lx->pos++]);
      if (t[lx->pos] != '.' || !is_word_byte(t[lx->pos + 1]))
        break;
      g_string_append_c(lx->tok.text, t[lx->pos++]);
    }
  lx->tok.kind = PDB_FILTER_TOK_WORD;
  classify_word(lx);
}

/* Skips blanks and comments; FALSE when a comment ran to the end (lx->pos
 * is then at its `#`). */
static gboolean
skip_blanks(PdbFilterLexer *lx)
{
  const gchar *t = lx->text;

  for (;;)
    {
      while (is_blank(t[lx->pos]))
        lx->pos++;
      if (t[lx->pos] != '#')
        return TRUE;
      const gchar *nl = strchr(t + lx->pos, '\n');

      if (!nl)
        return FALSE;
      lx->pos = nl - t + 1;
    }
}

void
pdb_filter_lex_next(PdbFilterLexer *lx)
{
  const gchar *t = lx->text;
  gboolean ended_in_comment = !skip_blanks(lx);
  gchar c = t[lx->pos];

  g_string_truncate(lx->tok.text, 0);
  lx->tok.start = lx->pos;
  lx->tok.number = 0;
  if (ended_in_comment)
    {
      lx->tok.kind = PDB_FILTER_TOK_COMMENT_EOF;
      lx->pos += strlen(t + lx->pos);
    }
  else if (!c)
    lx->tok.kind = PDB_FILTER_TOK_EOF;
  else if (c == '"' || c == '\'')
    {
      lx->pos++;
      gboolean closed = c == '"' ? read_double_quoted(lx) : read_single_quoted(lx);

      lx->tok.kind = closed ? PDB_FILTER_TOK_STRING : PDB_FILTER_TOK_ERROR;
    }
  else if (c == '(' || c == ')' || c == ';')
    {
      lx->pos++;
      lx->tok.kind = c == '(' ? PDB_FILTER_TOK_LPAREN : c == ')' ? PDB_FILTER_TOK_RPAREN : PDB_FILTER_TOK_SEMICOLON;
    }
  else if (c == '.' && t[lx->pos + 1] == '.')
    {
      lx->pos += 2;
      lx->tok.kind = PDB_FILTER_TOK_DOTDOT;
    }
  else if (is_word_byte(c))
    read_word(lx);
  else
    {
      lx->pos++;
      lx->tok.kind = PDB_FILTER_TOK_INVALID;
    }
}

gboolean
pdb_filter_lex_is_keyword(const PdbFilterLexer *lx, const gchar *keyword)
{
  const gchar *w = lx->tok.text->str;
  gsize i;

  if (lx->tok.kind != PDB_FILTER_TOK_WORD)
    return FALSE;
  for (i = 0; w[i] && keyword[i]; i++)
    {
      gchar a = w[i] == '_' ? '-' : w[i], b = keyword[i] == '_' ? '-' : keyword[i];

      if (a != b)
        return FALSE;
    }
  return !w[i] && !keyword[i];
}

/*
 * expr-lex.c: the lexer and boolean grammar of expr-lex.h.
 *
 * Invariant: the lexer only moves forward through the text it was given
 * and never writes to it; every string it returns is a new copy that the
 * caller owns. The grammar owns no node: it hands them to the caller's
 * combine() and frees, through the caller's free(), the ones it has parsed
 * when a later part fails.
 */
#include "db/expr-lex.h"

#include <string.h>

void
pdb_expr_lex_init(PdbExprLexer *lx, const gchar *text, const PdbExprSyntax *syntax)
{
  lx->text = text;
  lx->pos = 0;
  lx->syntax = syntax;
}

void
pdb_expr_lex_skip_blanks(PdbExprLexer *lx)
{
  while (lx->text[lx->pos] && strchr(lx->syntax->blanks, lx->text[lx->pos]))
    lx->pos++;
}

static gboolean
is_word_char(const PdbExprLexer *lx, gchar c)
{
  return g_ascii_isalnum(c) || (c && strchr(lx->syntax->word_chars, c));
}

gchar
pdb_expr_lex_peek(PdbExprLexer *lx)
{
  pdb_expr_lex_skip_blanks(lx);
  return lx->text[lx->pos];
}

gboolean
pdb_expr_lex_accept(PdbExprLexer *lx, gchar c)
{
  if (pdb_expr_lex_peek(lx) != c || c == '\0')
    return FALSE;
  lx->pos++;
  return TRUE;
}

gboolean
pdb_expr_lex_keyword(PdbExprLexer *lx, const gchar *word)
{
  gsize n = strlen(word);
  const gchar *at;

  pdb_expr_lex_skip_blanks(lx);
  at = lx->text + lx->pos;
  if ((lx->syntax->keywords_ignore_case ? g_ascii_strncasecmp(at, word, n) : strncmp(at, word, n)) != 0)
    return FALSE;
  if (is_word_char(lx, at[n]) || at[n] == '(')
    return FALSE;
  lx->pos += n;
  return TRUE;
}

gchar *
pdb_expr_lex_word(PdbExprLexer *lx)
{
  gsize start;

  pdb_expr_lex_skip_blanks(lx);
  start = lx->pos;
  while (is_word_char(lx, lx->text[lx->pos]))
    lx->pos++;
  return lx->pos > start ? g_strndup(lx->text + start, lx->pos - start) : NULL;
}

gchar *
pdb_expr_lex_quoted(PdbExprLexer *lx, gboolean *unterminated)
{
  gchar quote = pdb_expr_lex_peek(lx);
  GString *s;

  *unterminated = FALSE;
  if (quote != '"' && quote != '\'')
    return NULL;
  lx->pos++;
  s = g_string_new(NULL);
  while (lx->text[lx->pos] && lx->text[lx->pos] != quote)
    {
      gchar c = lx->text[lx->pos++];

      if (c == '\\' && quote == '"' && lx->text[lx->pos])
        {
          c = lx->text[lx->pos++];
          switch (c)
            {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case '"': case '\\': break;
            default:
              if (lx->syntax->keep_unknown_escapes)
                g_string_append_c(s, '\\');
              break;
            }
        }
      g_string_append_c(s, c);
    }
  if (!lx->text[lx->pos])
    {
      *unterminated = TRUE;
      g_string_free(s, TRUE);
      return NULL;
    }
  lx->pos++;
  return g_string_free(s, FALSE);
}

/* ---- ( E ), not E, E and E, E or E ---- */

static gpointer parse_or(PdbExprLexer *lx, const PdbExprBoolGrammar *g, gpointer user_data);

static gpointer
parse_unary(PdbExprLexer *lx, const PdbExprBoolGrammar *g, gpointer user_data)
{
  if (pdb_expr_lex_keyword(lx, "not"))
    {
      gpointer inner = parse_unary(lx, g, user_data);

      return inner ? g->combine(PDB_EXPR_NOT, inner, NULL, user_data) : NULL;
    }
  if (pdb_expr_lex_accept(lx, '('))
    {
      gpointer inner = parse_or(lx, g, user_data);

      if (inner && !pdb_expr_lex_accept(lx, ')'))
        {
          g->free(inner);
          g->expected(lx, "')'", user_data);
          return NULL;
        }
      return inner;
    }
  pdb_expr_lex_skip_blanks(lx);
  return g->operand(lx, user_data);
}

static gpointer
parse_binary(PdbExprLexer *lx, const PdbExprBoolGrammar *g, gpointer user_data, const gchar *word,
             PdbExprBoolOp op, gpointer (*sub)(PdbExprLexer *, const PdbExprBoolGrammar *, gpointer))
{
  gpointer left = sub(lx, g, user_data);

  while (left && pdb_expr_lex_keyword(lx, word))
    {
      gpointer right = sub(lx, g, user_data);

      if (!right)
        {
          g->free(left);
          return NULL;
        }
      left = g->combine(op, left, right, user_data);
    }
  return left;
}

static gpointer
parse_and(PdbExprLexer *lx, const PdbExprBoolGrammar *g, gpointer user_data)
{
  return parse_binary(lx, g, user_data, "and", PDB_EXPR_AND, parse_unary);
}

static gpointer
parse_or(PdbExprLexer *lx, const PdbExprBoolGrammar *g, gpointer user_data)
{
  return parse_binary(lx, g, user_data, "or", PDB_EXPR_OR, parse_and);
}

gpointer
pdb_expr_parse_bool(PdbExprLexer *lx, const PdbExprBoolGrammar *grammar, gpointer user_data)
{
  return parse_or(lx, grammar, user_data);
}

/*
 * expr-lex.h: the lexer and the boolean grammar shared by the two small
 * expression languages of patterndb: action conditions
 * (correlation/condition.c) and `patterndb match -F` filters
 * (tool/filter.c).
 *
 * Both read, in this order of binding:
 *   ( E )   not E   E and E   E or E      (`and`, `or` associate to the left)
 * around operands that each language parses itself (a comparison of two
 * quoted templates; a filter function call). The syntaxes differ in small
 * ways that users rely on, so they are parameters (PdbExprSyntax): which
 * bytes are blanks, which bytes may continue a word besides letters and
 * digits, and whether keywords ignore case.
 *
 * A keyword is a word followed by neither a word byte nor `(` (so `not(`
 * and `and_x` are not keywords). Quoted strings: '...' has no escapes;
 * "..." knows \n \t \r, and any other escaped byte is either kept with its
 * backslash (filters: regexes keep `\d`) or taken alone (conditions).
 */
#ifndef PDB_DB_EXPR_LEX_H
#define PDB_DB_EXPR_LEX_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  const gchar *blanks;          /* e.g. " \t\n\r" */
  const gchar *word_chars;      /* besides [A-Za-z0-9], e.g. "_" */
  gboolean keywords_ignore_case;
  gboolean keep_unknown_escapes; /* "\d" stays "\d" (else "d") */
} PdbExprSyntax;

typedef struct
{
  const gchar *text;
  gsize pos;                    /* the next byte to read */
  const PdbExprSyntax *syntax;
} PdbExprLexer;

void pdb_expr_lex_init(PdbExprLexer *lx, const gchar *text, const PdbExprSyntax *syntax);
void pdb_expr_lex_skip_blanks(PdbExprLexer *lx);
/* The next byte after blanks (NUL at the end); consumes nothing else. */
gchar pdb_expr_lex_peek(PdbExprLexer *lx);
/* Consumes @c after blanks; FALSE (nothing consumed but blanks) otherwise. */
gboolean pdb_expr_lex_accept(PdbExprLexer *lx, gchar c);
/* Consumes the keyword @word after blanks (see above). */
gboolean pdb_expr_lex_keyword(PdbExprLexer *lx, const gchar *word);
/* A word after blanks (letters, digits, word_chars); a new string, or NULL
 * when there is none. */
gchar *pdb_expr_lex_word(PdbExprLexer *lx);
/*
 * A quoted string after blanks, without its quotes and escapes; a new
 * string. NULL when the next byte is not a quote (nothing consumed but
 * blanks) or when the closing quote is missing (*unterminated set, the
 * position left at the end of the text).
 */
gchar *pdb_expr_lex_quoted(PdbExprLexer *lx, gboolean *unterminated);

typedef enum
{
  PDB_EXPR_AND,
  PDB_EXPR_OR,
  PDB_EXPR_NOT,     /* right is NULL */
} PdbExprBoolOp;

typedef struct
{
  /* One operand; NULL after reporting the error. */
  gpointer (*operand)(PdbExprLexer *lx, gpointer user_data);
  /* A new node that owns @left and @right. */
  gpointer (*combine)(PdbExprBoolOp op, gpointer left, gpointer right, gpointer user_data);
  void (*free)(gpointer node);
  /* Reports that @what (e.g. "')'") was expected at lx->pos. */
  void (*expected)(PdbExprLexer *lx, const gchar *what, gpointer user_data);
} PdbExprBoolGrammar;

/* Parses an `or` expression at lx->pos; NULL after an error. What follows
 * the expression is left for the caller. */
gpointer pdb_expr_parse_bool(PdbExprLexer *lx, const PdbExprBoolGrammar *grammar, gpointer user_data);

G_END_DECLS

#endif

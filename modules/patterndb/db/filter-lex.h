/*
 * filter-lex.h: the tokens of syslog-ng 3.38's configuration lexer, as its
 * filter expressions (action conditions, `match -F`, $(if)) use them.
 *
 *   blanks          space, tab, CR, LF and `,` separate tokens
 *   # comment       to the end of the line; a comment that reaches the end
 *                   of the text without a newline is PDB_FILTER_TOK_COMMENT_EOF
 *                   (an error for the parser: 3.38 crashes on it)
 *   "string"        escapes \a \n \r \t \v, \xH or \xHH (one byte), and \c
 *                   for any other byte c (so "\d" is "d"); may span lines
 *   'string'        no escapes
 *   ( ) ;           single tokens; `..` is PDB_FILTER_TOK_DOTDOT
 *   word            a run of word bytes (anything but blanks, quotes,
 *                   # ( ) { } [ ] \ ; | . @ :), with single dots inside
 *                   (`x.y`, but `info..err` is info, `..`, err). Operators
 *                   are words too (`==`, `<=`), so `a==b` is one word.
 *   numbers         a whole word that reads as [+-]digits with an optional
 *                   k/m/g suffix (x1000; x1024 with a following i) and b,
 *                   [+-]0x hex, 0 octal: PDB_FILTER_TOK_NUMBER; [+-]d.d:
 *                   PDB_FILTER_TOK_FLOAT. A number beyond 64 bits is an error.
 *
 * Keywords (and, or, not, function names, operators) are words; the parser
 * tells them apart, case-sensitively, with `-` and `_` equal.
 */
#ifndef PDB_DB_FILTER_LEX_H
#define PDB_DB_FILTER_LEX_H

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  PDB_FILTER_TOK_EOF,
  PDB_FILTER_TOK_ERROR,        /* unterminated string, number out of range */
  PDB_FILTER_TOK_COMMENT_EOF,  /* `#` comment running to the end of the text */
  PDB_FILTER_TOK_WORD,
  PDB_FILTER_TOK_STRING,
  PDB_FILTER_TOK_NUMBER,
  PDB_FILTER_TOK_FLOAT,
  PDB_FILTER_TOK_LPAREN,
  PDB_FILTER_TOK_RPAREN,
  PDB_FILTER_TOK_SEMICOLON,
  PDB_FILTER_TOK_DOTDOT,
  PDB_FILTER_TOK_INVALID,      /* a byte no token starts with ({ } [ ] . @ ...) */
} PdbFilterTokenKind;

typedef struct
{
  PdbFilterTokenKind kind;
  gsize start;                 /* byte offset of the token in the text */
  GString *text;               /* WORD, NUMBER, FLOAT: as written; STRING: unescaped */
  gint64 number;               /* NUMBER: its value */
} PdbFilterToken;

typedef struct
{
  const gchar *text;
  gsize pos;                   /* the next byte to read */
  PdbFilterToken tok;          /* the current token (after pdb_filter_lex_next) */
} PdbFilterLexer;

void pdb_filter_lex_init(PdbFilterLexer *lx, const gchar *text);
void pdb_filter_lex_clear(PdbFilterLexer *lx);
/* Reads the next token into lx->tok. */
void pdb_filter_lex_next(PdbFilterLexer *lx);
/* TRUE when the current token is the word @keyword (`-` and `_` equal). */
gboolean pdb_filter_lex_is_keyword(const PdbFilterLexer *lx, const gchar *keyword);

G_END_DECLS

#endif

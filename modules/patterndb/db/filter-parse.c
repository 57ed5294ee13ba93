/*
 * filter-parse.c: the boolean grammar of filter-expr.h around the filter
 * functions, the shared parser helpers, and pdb_filter_expr_compile().
 *
 * 3.38's grammar is LALR(1) with precedence `;` < or < and < not, and it
 * accepts as soon as the next token cannot continue the expression; this
 * recursive descent reads the same expressions and stops at the same token.
 *
 * Invariant: a parse function returns a complete tree that it owns, or
 * NULL after freeing what it had built and recording the first error.
 */
#include "db/filter-node.h"
#include "db/database.h"

#include <stdarg.h>
#include <string.h>

struct _PdbFilterExpr
{
  PdbFilterNode *root;
  GPtrArray *warnings;   /* of gchar*, or NULL */
};

enum
{
  LEVEL_SEMICOLON = 1,
  LEVEL_OR,
  LEVEL_AND,
  LEVEL_UNARY,
};

void
pdb_filter_advance(PdbFilterParser *p)
{
  pdb_filter_lex_next(&p->lx);
}

const gchar *
pdb_filter_token_name(const PdbFilterParser *p)
{
  switch (p->lx.tok.kind)
    {
    case PDB_FILTER_TOK_EOF:
      return "the end of the text";
    case PDB_FILTER_TOK_COMMENT_EOF:
      return "a comment without an end of line (syslog-ng 3.38 crashes on it)";
    case PDB_FILTER_TOK_ERROR:
      return "an unterminated string or a number out of range";
    case PDB_FILTER_TOK_INVALID:
      return "a byte no token starts with";
    default:
      return p->lx.tok.text->len ? p->lx.tok.text->str : "\"\"";
    }
}

gboolean
pdb_filter_fail(PdbFilterParser *p, gsize at, const gchar *format, ...)
{
  va_list ap;
  gchar *msg;

  if (!p->error || *p->error)
    return FALSE;
  va_start(ap, format);
  msg = g_strdup_vprintf(format, ap);
  va_end(ap);
  g_set_error(p->error, PDB_DB_ERROR, PDB_DB_ERROR_STRUCTURE, "filter expression '%s': column %u: %s",
              p->lx.text, (guint) at + 1, msg);
  g_free(msg);
  return FALSE;
}

void
pdb_filter_warn(PdbFilterParser *p, gsize at, const gchar *format, ...)
{
  va_list ap;
  gchar *msg;

  va_start(ap, format);
  msg = g_strdup_vprintf(format, ap);
  va_end(ap);
  if (!p->warnings)
    p->warnings = g_ptr_array_new_with_free_func(g_free);
  g_ptr_array_add(p->warnings, g_strdup_printf("column %u: %s", (guint) at + 1, msg));
  g_free(msg);
}

gboolean
pdb_filter_expect(PdbFilterParser *p, PdbFilterTokenKind kind, const gchar *what)
{
  if (p->lx.tok.kind != kind)
    return pdb_filter_fail(p, p->lx.tok.start, "expected %s, found %s", what, pdb_filter_token_name(p));
  pdb_filter_advance(p);
  return TRUE;
}

gchar *
pdb_filter_parse_string(PdbFilterParser *p)
{
  gchar *s;

  if (p->lx.tok.kind != PDB_FILTER_TOK_WORD && p->lx.tok.kind != PDB_FILTER_TOK_STRING)
    {
      pdb_filter_fail(p, p->lx.tok.start, "expected a string or a word, found %s", pdb_filter_token_name(p));
      return NULL;
    }
  s = g_strdup(p->lx.tok.text->str);
  pdb_filter_advance(p);
  return s;
}

/* ---- the boolean grammar ---- */

static PdbFilterNode *parse_expr(PdbFilterParser *p, gint min_level);

static PdbFilterNode *
combine(PdbFilterNodeKind kind, PdbFilterNode *left, PdbFilterNode *right)
{
  PdbFilterNode *n = g_new0(PdbFilterNode, 1);

  n->kind = kind;
  n->left = left;
  n->right = right;
  return n;
}

static gboolean
starts_expression(const PdbFilterParser *p)
{
  switch (p->lx.tok.kind)
    {
    case PDB_FILTER_TOK_WORD:
      return !pdb_filter_lex_is_keyword(&p->lx, "and") && !pdb_filter_lex_is_keyword(&p->lx, "or");
    case PDB_FILTER_TOK_STRING:
    case PDB_FILTER_TOK_NUMBER:
    case PDB_FILTER_TOK_FLOAT:
    case PDB_FILTER_TOK_LPAREN:
      return TRUE;
    default:
      return FALSE;
    }
}

static PdbFilterNode *
parse_function(PdbFilterParser *p)
{
  static const struct
  {
    const gchar *name;
    PdbFilterNode *(*parse)(PdbFilterParser *p);
  } functions[] =
  {
    { "match", pdb_filter_parse_match }, { "program", pdb_filter_parse_match },
    { "host", pdb_filter_parse_match }, { "message", pdb_filter_parse_match },
    { "source", pdb_filter_parse_match }, { "tags", pdb_filter_parse_tags },
    { "level", pdb_filter_parse_level }, { "priority", pdb_filter_parse_level },
    { "severity", pdb_filter_parse_level }, { "facility", pdb_filter_parse_facility },
    { "netmask", pdb_filter_parse_netmask }, { "netmask6", pdb_filter_parse_netmask6 },
    { "in-list", pdb_filter_parse_in_list },
  };

  if (!starts_expression(p))
    {
      pdb_filter_fail(p, p->lx.tok.start, "expected a filter function or a comparison, found %s",
                      pdb_filter_token_name(p));
      return NULL;
    }
  for (gsize i = 0; i < G_N_ELEMENTS(functions); i++)
    if (pdb_filter_lex_is_keyword(&p->lx, functions[i].name))
      return functions[i].parse(p);
  if (pdb_filter_lex_is_keyword(&p->lx, "filter"))
    {
      pdb_filter_fail(p, p->lx.tok.start, "filter() refers to a named filter; a pattern database has none");
      return NULL;
    }
  return pdb_filter_parse_comparison(p);
}

static PdbFilterNode *
parse_unary(PdbFilterParser *p)
{
  if (pdb_filter_lex_is_keyword(&p->lx, "not"))
    {
      pdb_filter_advance(p);
      PdbFilterNode *inner = parse_unary(p);

      return inner ? combine(PDB_FILTER_NODE_NOT, inner, NULL) : NULL;
    }
  if (p->lx.tok.kind == PDB_FILTER_TOK_LPAREN)
    {
      pdb_filter_advance(p);
      PdbFilterNode *inner = parse_expr(p, LEVEL_SEMICOLON);

      if (inner && !pdb_filter_expect(p, PDB_FILTER_TOK_RPAREN, "')'"))
        {
          pdb_filter_node_free(inner);
          return NULL;
        }
      return inner;
    }
  return parse_function(p);
}

static PdbFilterNode *
parse_expr(PdbFilterParser *p, gint min_level)
{
  PdbFilterNode *left = parse_unary(p);

  while (left)
    {
      PdbFilterNode *right;
      PdbFilterNodeKind kind = PDB_FILTER_NODE_AND;

      if (min_level <= LEVEL_OR && pdb_filter_lex_is_keyword(&p->lx, "or"))
        {
          pdb_filter_advance(p);
          kind = PDB_FILTER_NODE_OR;
          right = parse_expr(p, LEVEL_AND);
        }
      else if (min_level <= LEVEL_AND && pdb_filter_lex_is_keyword(&p->lx, "and"))
        {
          pdb_filter_advance(p);
          right = parse_expr(p, LEVEL_UNARY);
        }
      else if (min_level <= LEVEL_SEMICOLON && p->lx.tok.kind == PDB_FILTER_TOK_SEMICOLON)
        {
          /* `E ;` ends an expression; `E ; E` is `E and E` */
          pdb_filter_advance(p);
          if (!starts_expression(p))
            continue;
          right = parse_expr(p, LEVEL_OR);
        }
      else
        break;
      if (!right)
        {
          pdb_filter_node_free(left);
          return NULL;
        }
      left = combine(kind, left, right);
    }
  return left;
}

PdbFilterExpr *
pdb_filter_expr_compile(const gchar *text, GError **error)
{
  PdbFilterParser p = { .error = error };
  PdbFilterNode *root;
  PdbFilterExpr *expr;

  pdb_filter_lex_init(&p.lx, text);
  pdb_filter_advance(&p);
  root = parse_expr(&p, LEVEL_SEMICOLON);
  if (root && p.lx.tok.kind == PDB_FILTER_TOK_COMMENT_EOF)
    {
      pdb_filter_fail(&p, p.lx.tok.start, "expected an end of line after the comment");
      g_clear_pointer(&root, pdb_filter_node_free);
    }
  pdb_filter_lex_clear(&p.lx);
  if (!root)
    {
      if (p.warnings)
        g_ptr_array_free(p.warnings, TRUE);
      return NULL;
    }
  expr = g_new0(PdbFilterExpr, 1);
  expr->root = root;
  expr->warnings = p.warnings;
  return expr;
}

const GPtrArray *
pdb_filter_expr_get_warnings(const PdbFilterExpr *expr)
{
  return expr ? expr->warnings : NULL;
}

void
pdb_filter_expr_free(PdbFilterExpr *expr)
{
  if (!expr)
    return;
  pdb_filter_node_free(expr->root);
  if (expr->warnings)
    g_ptr_array_free(expr->warnings, TRUE);
  g_free(expr);
}

gboolean
pdb_filter_expr_eval(const PdbFilterExpr *expr, const PdbFilterSubject *subject)
{
  return pdb_filter_node_eval(expr->root, subject);
}

void
pdb_filter_expr_foreach_ref(const PdbFilterExpr *expr, PdbFilterRefFunc func, gpointer user_data)
{
  if (expr)
    pdb_filter_node_refs(expr->root, func, user_data);
}

void
pdb_filter_expr_scan(const PdbFilterExpr *expr, gboolean *reads_context, guint *max_index)
{
  if (expr)
    pdb_filter_node_scan(expr->root, reads_context, max_index);
}

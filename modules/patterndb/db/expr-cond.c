/*
 * expr-cond.c: compiles and evaluates the comparison conditions of
 * expr-cond.h (action conditions, $(if)).
 *
 * Invariant: a compiled PdbExprCond is an immutable tree; evaluating it
 * allocates only the two scratch strings of each comparison, so any number
 * of threads may evaluate the same condition at once.
 */
#include "db/expr-cond.h"
#include "db/database.h"
#include "db/expr-lex.h"

#include <stdlib.h>
#include <string.h>

typedef enum
{
  NODE_AND,
  NODE_OR,
  NODE_NOT,
  NODE_CMP,
} NodeKind;

typedef enum
{
  CMP_NUM_EQ, CMP_NUM_NE, CMP_NUM_LT, CMP_NUM_GT, CMP_NUM_LE, CMP_NUM_GE,
  CMP_STR_EQ, CMP_STR_NE, CMP_STR_LT, CMP_STR_GT, CMP_STR_LE, CMP_STR_GE,
} CmpOp;

/* One operand: a template. */
typedef struct
{
  PdbTemplate *tmpl;
} Operand;

struct _PdbExprCond
{
  NodeKind kind;
  PdbExprCond *left, *right;
  CmpOp op;
  Operand a, b;
};

typedef struct
{
  PdbExprLexer lx;
  GError **error;
} Parser;

/* blanks, words and escapes of 3.38's filter language as conditions use it */
static const PdbExprSyntax condition_syntax = { " \t\n\r", "_", TRUE, FALSE };

static void
operand_clear(Operand *o)
{
  pdb_template_free(o->tmpl);
  o->tmpl = NULL;
}

void
pdb_expr_cond_free(PdbExprCond *cond)
{
  if (!cond)
    return;
  pdb_expr_cond_free(cond->left);
  pdb_expr_cond_free(cond->right);
  operand_clear(&cond->a);
  operand_clear(&cond->b);
  g_free(cond);
}

static gboolean
fail(Parser *ps, const gchar *expected)
{
  if (ps->error && !*ps->error)
    g_set_error(ps->error, PDB_DB_ERROR, PDB_DB_ERROR_STRUCTURE,
                "condition '%s': column %d: expected %s", ps->lx.text, (int) ps->lx.pos + 1, expected);
  return FALSE;
}

static gboolean
compile_operand(Parser *ps, const gchar *text, Operand *o)
{
  GError *error = NULL;

  o->tmpl = pdb_template_compile(text, FALSE, &error);
  if (!o->tmpl)
    {
      gchar *why = g_strdup_printf("a template (%s)", error->message);

      g_error_free(error);
      fail(ps, why);
      g_free(why);
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_string(Parser *ps, Operand *o)
{
  gboolean unterminated;
  gchar *text = pdb_expr_lex_quoted(&ps->lx, &unterminated);
  gboolean ok;

  if (!text)
    return fail(ps, unterminated ? "the closing quote" : "a quoted template (\"...\")");
  ok = compile_operand(ps, text, o);
  g_free(text);
  return ok;
}

static gboolean
parse_op(Parser *ps, CmpOp *op)
{
  static const struct { const gchar *text; CmpOp op; gboolean word; } ops[] =
  {
    { "==", CMP_NUM_EQ, FALSE }, { "!=", CMP_NUM_NE, FALSE }, { "<=", CMP_NUM_LE, FALSE },
    { ">=", CMP_NUM_GE, FALSE }, { "<", CMP_NUM_LT, FALSE }, { ">", CMP_NUM_GT, FALSE },
    { "eq", CMP_STR_EQ, TRUE }, { "ne", CMP_STR_NE, TRUE }, { "lt", CMP_STR_LT, TRUE },
    { "gt", CMP_STR_GT, TRUE }, { "le", CMP_STR_LE, TRUE }, { "ge", CMP_STR_GE, TRUE },
  };

  pdb_expr_lex_skip_blanks(&ps->lx);
  for (gsize i = 0; i < G_N_ELEMENTS(ops); i++)
    {
      gsize n = strlen(ops[i].text);

      if (ops[i].word ? pdb_expr_lex_keyword(&ps->lx, ops[i].text)
          : strncmp(ps->lx.text + ps->lx.pos, ops[i].text, n) == 0)
        {
          if (!ops[i].word)
            ps->lx.pos += n;
          *op = ops[i].op;
          return TRUE;
        }
    }
  return fail(ps, "a comparison (== != < > <= >= eq ne lt gt le ge)");
}

/* ---- the boolean grammar (db/expr-lex.h) over comparisons ---- */

static gpointer
parse_comparison(PdbExprLexer *lx, gpointer user_data)
{
  Parser *ps = user_data;
  PdbExprCond *node = g_new0(PdbExprCond, 1);

  (void) lx;
  node->kind = NODE_CMP;
  if (!parse_string(ps, &node->a) || !parse_op(ps, &node->op) || !parse_string(ps, &node->b))
    {
      pdb_expr_cond_free(node);
      return NULL;
    }
  return node;
}

static gpointer
combine(PdbExprBoolOp op, gpointer left, gpointer right, gpointer user_data)
{
  PdbExprCond *node = g_new0(PdbExprCond, 1);

  (void) user_data;
  node->kind = op == PDB_EXPR_AND ? NODE_AND : op == PDB_EXPR_OR ? NODE_OR : NODE_NOT;
  node->left = left;
  node->right = right;
  return node;
}

static void
free_node(gpointer node)
{
  pdb_expr_cond_free(node);
}

static void
expected(PdbExprLexer *lx, const gchar *what, gpointer user_data)
{
  (void) lx;
  fail(user_data, what);
}

PdbExprCond *
pdb_expr_cond_compile(const gchar *text, GError **error)
{
  static const PdbExprBoolGrammar grammar = { parse_comparison, combine, free_node, expected };
  Parser ps = { .error = error };
  PdbExprCond *cond;

  pdb_expr_lex_init(&ps.lx, text, &condition_syntax);
  cond = pdb_expr_parse_bool(&ps.lx, &grammar, &ps);
  if (!cond)
    return NULL;
  if (pdb_expr_lex_peek(&ps.lx))
    {
      fail(&ps, "'and', 'or' or the end of the condition");
      pdb_expr_cond_free(cond);
      return NULL;
    }
  return cond;
}

/* atoi() as 3.38's numeric comparison uses it: leading blanks, sign, digits, else 0 */
static gint64
to_number(const gchar *s)
{
  return g_ascii_strtoll(s, NULL, 10);
}

gboolean
pdb_expr_cond_eval(const PdbExprCond *cond, PdbTemplateLookupFunc lookup, gpointer lookup_data)
{
  switch (cond->kind)
    {
    case NODE_AND:
      return pdb_expr_cond_eval(cond->left, lookup, lookup_data)
             && pdb_expr_cond_eval(cond->right, lookup, lookup_data);
    case NODE_OR:
      return pdb_expr_cond_eval(cond->left, lookup, lookup_data)
             || pdb_expr_cond_eval(cond->right, lookup, lookup_data);
    case NODE_NOT:
      return !pdb_expr_cond_eval(cond->left, lookup, lookup_data);
    case NODE_CMP:
      break;
    }

  GString *a = g_string_new(NULL), *b = g_string_new(NULL);
  gint c;
  gboolean result;

  pdb_template_append(cond->a.tmpl, lookup, lookup_data, a);
  pdb_template_append(cond->b.tmpl, lookup, lookup_data, b);
  if (cond->op <= CMP_NUM_GE)
    {
      gint64 x = to_number(a->str), y = to_number(b->str);
      c = x < y ? -1 : x > y ? 1 : 0;
    }
  else
    c = strcmp(a->str, b->str);
  g_string_free(a, TRUE);
  g_string_free(b, TRUE);
  switch (cond->op)
    {
    case CMP_NUM_EQ: case CMP_STR_EQ: result = c == 0; break;
    case CMP_NUM_NE: case CMP_STR_NE: result = c != 0; break;
    case CMP_NUM_LT: case CMP_STR_LT: result = c < 0; break;
    case CMP_NUM_GT: case CMP_STR_GT: result = c > 0; break;
    case CMP_NUM_LE: case CMP_STR_LE: result = c <= 0; break;
    default: result = c >= 0; break;
    }
  return result;
}

static void
operand_scan(const Operand *o, gboolean *reads_context, guint *max_index)
{
  if (!o->tmpl)
    return;
  *reads_context |= pdb_template_reads_context(o->tmpl);
  *max_index = MAX(*max_index, pdb_template_get_max_context_index(o->tmpl));
}

void
pdb_expr_cond_scan(const PdbExprCond *cond, gboolean *reads_context, guint *max_index)
{
  if (!cond)
    return;
  pdb_expr_cond_scan(cond->left, reads_context, max_index);
  pdb_expr_cond_scan(cond->right, reads_context, max_index);
  operand_scan(&cond->a, reads_context, max_index);
  operand_scan(&cond->b, reads_context, max_index);
}

/*
 * condition.c: compiles and evaluates action conditions (see condition.h).
 *
 * Invariant: a compiled PdbCondition is an immutable tree; evaluating it
 * allocates only the two scratch strings of each comparison, so any number
 * of threads may evaluate the same condition at once.
 */
#include "correlation/condition.h"
#include "db/database.h"

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

/* One operand: a template; $(context-length) is answered by eval_lookup(). */
typedef struct
{
  PdbTemplate *tmpl;
} Operand;

struct _PdbCondition
{
  NodeKind kind;
  PdbCondition *left, *right;
  CmpOp op;
  Operand a, b;
};

typedef struct
{
  const gchar *text;
  const gchar *p;
  GError **error;
} Parser;

static void
operand_clear(Operand *o)
{
  pdb_template_free(o->tmpl);
  o->tmpl = NULL;
}

void
pdb_condition_free(PdbCondition *cond)
{
  if (!cond)
    return;
  pdb_condition_free(cond->left);
  pdb_condition_free(cond->right);
  operand_clear(&cond->a);
  operand_clear(&cond->b);
  g_free(cond);
}

static gboolean
fail(Parser *ps, const gchar *expected)
{
  if (ps->error && !*ps->error)
    g_set_error(ps->error, PDB_DB_ERROR, PDB_DB_ERROR_STRUCTURE,
                "condition '%s': column %d: expected %s", ps->text, (int) (ps->p - ps->text) + 1, expected);
  return FALSE;
}

static void
skip_blanks(Parser *ps)
{
  while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
    ps->p++;
}

static gboolean
word_is(Parser *ps, const gchar *word)
{
  gsize n = strlen(word);

  return g_ascii_strncasecmp(ps->p, word, n) == 0 && !g_ascii_isalnum(ps->p[n]) && ps->p[n] != '_'
         && ps->p[n] != '(';
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
  GString *s;
  gchar quote;
  gboolean ok;

  skip_blanks(ps);
  if (*ps->p != '"' && *ps->p != '\'')
    return fail(ps, "a quoted template (\"...\")");
  quote = *ps->p++;
  s = g_string_new(NULL);
  while (*ps->p && *ps->p != quote)
    {
      if (quote == '"' && *ps->p == '\\' && ps->p[1])
        {
          ps->p++;
          switch (*ps->p)
            {
            case 'n': g_string_append_c(s, '\n'); break;
            case 't': g_string_append_c(s, '\t'); break;
            case 'r': g_string_append_c(s, '\r'); break;
            default: g_string_append_c(s, *ps->p); break;
            }
          ps->p++;
          continue;
        }
      g_string_append_c(s, *ps->p++);
    }
  if (*ps->p != quote)
    {
      g_string_free(s, TRUE);
      return fail(ps, "the closing quote");
    }
  ps->p++;
  ok = compile_operand(ps, s->str, o);
  g_string_free(s, TRUE);
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

  skip_blanks(ps);
  for (gsize i = 0; i < G_N_ELEMENTS(ops); i++)
    {
      gsize n = strlen(ops[i].text);

      if (ops[i].word ? word_is(ps, ops[i].text) : strncmp(ps->p, ops[i].text, n) == 0)
        {
          ps->p += n;
          *op = ops[i].op;
          return TRUE;
        }
    }
  return fail(ps, "a comparison (== != < > <= >= eq ne lt gt le ge)");
}

static PdbCondition *parse_or(Parser *ps);

static PdbCondition *
parse_primary(Parser *ps)
{
  PdbCondition *node;

  skip_blanks(ps);
  if (word_is(ps, "not"))
    {
      ps->p += 3;
      PdbCondition *inner = parse_primary(ps);
      if (!inner)
        return NULL;
      node = g_new0(PdbCondition, 1);
      node->kind = NODE_NOT;
      node->left = inner;
      return node;
    }
  if (*ps->p == '(')
    {
      ps->p++;
      node = parse_or(ps);
      if (!node)
        return NULL;
      skip_blanks(ps);
      if (*ps->p != ')')
        {
          pdb_condition_free(node);
          fail(ps, "')'");
          return NULL;
        }
      ps->p++;
      return node;
    }
  node = g_new0(PdbCondition, 1);
  node->kind = NODE_CMP;
  if (!parse_string(ps, &node->a) || !parse_op(ps, &node->op) || !parse_string(ps, &node->b))
    {
      pdb_condition_free(node);
      return NULL;
    }
  return node;
}

static PdbCondition *
parse_binary(Parser *ps, const gchar *word, NodeKind kind, PdbCondition *(*operand)(Parser *))
{
  PdbCondition *left = operand(ps);

  while (left)
    {
      skip_blanks(ps);
      if (!word_is(ps, word))
        break;
      ps->p += strlen(word);
      PdbCondition *right = operand(ps);
      if (!right)
        {
          pdb_condition_free(left);
          return NULL;
        }
      PdbCondition *node = g_new0(PdbCondition, 1);
      node->kind = kind;
      node->left = left;
      node->right = right;
      left = node;
    }
  return left;
}

static PdbCondition *
parse_and(Parser *ps)
{
  return parse_binary(ps, "and", NODE_AND, parse_primary);
}

static PdbCondition *
parse_or(Parser *ps)
{
  return parse_binary(ps, "or", NODE_OR, parse_and);
}

PdbCondition *
pdb_condition_compile(const gchar *text, GError **error)
{
  Parser ps = { text, text, error };
  PdbCondition *cond = parse_or(&ps);

  if (!cond)
    return NULL;
  skip_blanks(&ps);
  if (*ps.p)
    {
      fail(&ps, "'and', 'or' or the end of the condition");
      pdb_condition_free(cond);
      return NULL;
    }
  return cond;
}

/* The caller's lookup, plus the answer to $(context-length). */
typedef struct
{
  PdbTemplateLookupFunc lookup;
  gpointer data;
  guint context_length;
  gchar length_text[16];
} EvalLookup;

static const gchar *
eval_lookup(const gchar *name, guint context_index, gssize *length, gpointer user_data)
{
  EvalLookup *l = user_data;

  if (context_index == PDB_TEMPLATE_CONTEXT_LENGTH_INDEX)
    {
      g_snprintf(l->length_text, sizeof(l->length_text), "%u", l->context_length);
      *length = -1;
      return l->length_text;
    }
  return l->lookup ? l->lookup(name, context_index, length, l->data) : NULL;
}

/* atoi() as 3.38's numeric comparison uses it: leading blanks, sign, digits, else 0 */
static gint64
to_number(const gchar *s)
{
  return g_ascii_strtoll(s, NULL, 10);
}

gboolean
pdb_condition_eval(const PdbCondition *cond, PdbTemplateLookupFunc lookup, gpointer lookup_data,
                   guint context_length)
{
  switch (cond->kind)
    {
    case NODE_AND:
      return pdb_condition_eval(cond->left, lookup, lookup_data, context_length)
             && pdb_condition_eval(cond->right, lookup, lookup_data, context_length);
    case NODE_OR:
      return pdb_condition_eval(cond->left, lookup, lookup_data, context_length)
             || pdb_condition_eval(cond->right, lookup, lookup_data, context_length);
    case NODE_NOT:
      return !pdb_condition_eval(cond->left, lookup, lookup_data, context_length);
    case NODE_CMP:
      break;
    }

  GString *a = g_string_new(NULL), *b = g_string_new(NULL);
  gint c;
  gboolean result;

  EvalLookup l = { lookup, lookup_data, context_length, "" };

  pdb_template_append(cond->a.tmpl, eval_lookup, &l, a);
  pdb_template_append(cond->b.tmpl, eval_lookup, &l, b);
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

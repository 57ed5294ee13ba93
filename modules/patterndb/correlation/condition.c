/*
 * condition.c: action conditions (see condition.h) on top of the shared
 * comparison language (db/expr-cond.c); this file adds only the context
 * length that the correlation engine passes in.
 *
 * Invariant: a PdbCondition owns one immutable compiled expression, so any
 * number of threads may evaluate it at once.
 */
#include "correlation/condition.h"
#include "db/expr-cond.h"

struct _PdbCondition
{
  PdbExprCond *expr;
};

PdbCondition *
pdb_condition_compile(const gchar *text, GError **error)
{
  PdbExprCond *expr = pdb_expr_cond_compile(text, error);
  PdbCondition *cond;

  if (!expr)
    return NULL;
  cond = g_new0(PdbCondition, 1);
  cond->expr = expr;
  return cond;
}

void
pdb_condition_free(PdbCondition *cond)
{
  if (!cond)
    return;
  pdb_expr_cond_free(cond->expr);
  g_free(cond);
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

gboolean
pdb_condition_eval(const PdbCondition *cond, PdbTemplateLookupFunc lookup, gpointer lookup_data,
                   guint context_length)
{
  EvalLookup l = { lookup, lookup_data, context_length, "" };

  return pdb_expr_cond_eval(cond->expr, eval_lookup, &l);
}

/*
 * host-expr.c: templates and conditions of a database compiled and
 * evaluated by syslog-ng itself (see host-expr.h).
 *
 * Evaluation follows syslog-ng's own db-parser(): templates and filters are
 * evaluated "with context", over the messages of the correlation context
 * (or the message alone), the current message last; ${name}@N looks N
 * messages back. The options used are a copy of the configuration's
 * template options (time zones, ts-format, frac-digits), so a database kept
 * across a reload never reads the configuration it was compiled with.
 *
 * Compiling runs syslog-ng's configuration parser (a lexer over the text,
 * swapped into the GlobalConfig for the duration of the parse), which is not
 * reentrant: one mutex serialises every compile of this module, whether it
 * comes from a parser's init() or from a worker thread that noticed a
 * changed file.
 */
#include "host-expr.h"
#include "sng-compat.h"
#include "db/database.h"

#include "template/templates.h"
#include "filter/filter-expr.h"
#include "filter/filter-expr-parser.h"
#include "cfg-lexer.h"

#include <string.h>

typedef struct _PdbSngHostExpr
{
  PdbExprBackend super;
  GlobalConfig *cfg;
  LogTemplateOptions template_options;
  gint compiled;               /* expressions compiled so far (atomic) */
} PdbSngHostExpr;

static GMutex pdb_sng_host_expr_compile_lock;

static PdbTypeHint
pdb_sng_type_hint(LogMessageValueType type)
{
  if (pdb_sng_vt_is_int32(type))
    return PDB_TYPE_HINT_INT32;
  switch (type)
    {
    case LM_VT_STRING:
      return PDB_TYPE_HINT_STRING;
    case LM_VT_JSON:
      return PDB_TYPE_HINT_JSON;
    case LM_VT_BOOLEAN:
      return PDB_TYPE_HINT_BOOLEAN;
    case PDB_SNG_VT_INTEGER:
      return PDB_TYPE_HINT_INT64;
    case LM_VT_DOUBLE:
      return PDB_TYPE_HINT_DOUBLE;
    case LM_VT_DATETIME:
      return PDB_TYPE_HINT_DATETIME;
    case LM_VT_LIST:
      return PDB_TYPE_HINT_LIST;
    case LM_VT_NULL:
      return PDB_TYPE_HINT_NULL;
    default:
      return PDB_TYPE_HINT_NONE;
    }
}

static gpointer
pdb_sng_compile_template(PdbExprBackend *s, const gchar *text, gboolean with_type_hint,
                         PdbTypeHint *hint, GError **error)
{
  PdbSngHostExpr *self = (PdbSngHostExpr *) s;
  LogTemplate *tmpl = log_template_new(self->cfg, NULL);
  gboolean compiled;

  g_mutex_lock(&pdb_sng_host_expr_compile_lock);
  compiled = with_type_hint ? log_template_compile_with_type_hint(tmpl, text, error)
             : log_template_compile(tmpl, text, error);
  g_mutex_unlock(&pdb_sng_host_expr_compile_lock);
  if (!compiled)
    {
      log_template_unref(tmpl);
      return NULL;
    }
  *hint = with_type_hint ? pdb_sng_type_hint(tmpl->explicit_type_hint) : PDB_TYPE_HINT_NONE;
  g_atomic_int_inc(&self->compiled);
  return tmpl;
}

static void
pdb_sng_append_template(PdbExprBackend *s, gpointer tmpl, const PdbExprScope *scope, GString *out)
{
  PdbSngHostExpr *self = (PdbSngHostExpr *) s;
  LogTemplateEvalOptions options = { &self->template_options, LTZ_LOCAL, 0, scope->context_id, LM_VT_STRING };

  log_template_append_format_with_context((LogTemplate *) tmpl, (LogMessage **) scope->messages,
                                          (gint) scope->count, &options, out);
}

static void
pdb_sng_free_template(PdbExprBackend *s, gpointer tmpl)
{
  (void) s;
  log_template_unref((LogTemplate *) tmpl);
}

static gpointer
pdb_sng_compile_condition(PdbExprBackend *s, const gchar *text, GError **error)
{
  PdbSngHostExpr *self = (PdbSngHostExpr *) s;
  FilterExprNode *node = NULL;
  gboolean parsed, initialised = FALSE;

  g_mutex_lock(&pdb_sng_host_expr_compile_lock);
  CfgLexer *lexer = cfg_lexer_new_buffer(self->cfg, text, strlen(text));
  /* with the main context, as 3.38's db-parser: filter(), source() and the
   * other keywords of the main grammar are known; the lexer is freed
   * there and the parser's own message printed */
  parsed = cfg_run_parser_with_main_context(self->cfg, lexer, &filter_expr_parser, (gpointer *) &node, NULL,
                                            "action condition");
  if (parsed && node)
    initialised = filter_expr_init(node, self->cfg);
  g_mutex_unlock(&pdb_sng_host_expr_compile_lock);

  if (!parsed || !node)
    {
      g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_TEMPLATE,
                  "syslog-ng's filter parser refuses it (its message is logged above)");
      return NULL;
    }
  if (!initialised)
    {
      filter_expr_unref(node);
      g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_TEMPLATE, "syslog-ng cannot initialise the filter");
      return NULL;
    }
  g_atomic_int_inc(&self->compiled);
  return node;
}

static gboolean
pdb_sng_eval_condition(PdbExprBackend *s, gpointer cond, const PdbExprScope *scope)
{
  PdbSngHostExpr *self = (PdbSngHostExpr *) s;
  LogTemplateEvalOptions options = { &self->template_options, LTZ_LOCAL, 0, scope->context_id, LM_VT_STRING };

  return filter_expr_eval_with_context((FilterExprNode *) cond, (LogMessage **) scope->messages,
                                       (gint) scope->count, &options);
}

static void
pdb_sng_free_condition(PdbExprBackend *s, gpointer cond)
{
  (void) s;
  filter_expr_unref((FilterExprNode *) cond);
}

static void
pdb_sng_host_expr_free(PdbExprBackend *s)
{
  PdbSngHostExpr *self = (PdbSngHostExpr *) s;

  log_template_options_destroy(&self->template_options);
  g_free(self);
}

static const PdbExprBackendClass pdb_sng_host_expr_class =
{
  .compile_template = pdb_sng_compile_template,
  .append_template = pdb_sng_append_template,
  .free_template = pdb_sng_free_template,
  .compile_condition = pdb_sng_compile_condition,
  .eval_condition = pdb_sng_eval_condition,
  .free_condition = pdb_sng_free_condition,
  .free = pdb_sng_host_expr_free,
};

PdbExprBackend *
pdb_sng_host_expr_new(GlobalConfig *cfg)
{
  PdbSngHostExpr *self = g_new0(PdbSngHostExpr, 1);

  pdb_expr_backend_init(&self->super, &pdb_sng_host_expr_class);
  self->cfg = cfg;
  log_template_options_defaults(&self->template_options);
  log_template_options_init(&self->template_options, cfg);
  return &self->super;
}

gboolean
pdb_sng_host_expr_used(PdbExprBackend *backend)
{
  return g_atomic_int_get(&((PdbSngHostExpr *) backend)->compiled) > 0;
}

/*
 * expr-backend.c: compiled expressions of a host's engine (see
 * expr-backend.h).
 *
 * Invariant: a PdbHostExpr holds one reference to its backend and the
 * backend's handle, which only that backend's functions touch; it never
 * changes after compilation.
 */
#include "db/expr-backend.h"

#include <string.h>

typedef enum
{
  PDB_HOST_EXPR_TEMPLATE,
  PDB_HOST_EXPR_CONDITION,
} PdbHostExprKind;

struct _PdbHostExpr
{
  PdbExprBackend *backend;
  PdbHostExprKind kind;
  gpointer handle;
};

void
pdb_expr_backend_init(PdbExprBackend *self, const PdbExprBackendClass *klass)
{
  self->klass = klass;
  self->ref_cnt = 1;
}

PdbExprBackend *
pdb_expr_backend_ref(PdbExprBackend *self)
{
  if (self)
    g_atomic_int_inc(&self->ref_cnt);
  return self;
}

void
pdb_expr_backend_unref(PdbExprBackend *self)
{
  if (self && g_atomic_int_dec_and_test(&self->ref_cnt))
    self->klass->free(self);
}

/* `$name` or `${name}` and nothing else. */
static gboolean
is_plain_reference(const gchar *text)
{
  gsize length = strlen(text);

  if (length < 2 || text[0] != '$')
    return FALSE;
  if (text[1] == '{')
    return length > 3 && text[length - 1] == '}' && strcspn(text + 2, "${}:") == length - 3;
  for (const gchar *p = text + 1; *p; p++)
    if (!g_ascii_isalnum(*p) && *p != '_')
      return FALSE;
  return TRUE;
}

gchar *
pdb_expr_plain_reference(const gchar *text)
{
  if (!text || !is_plain_reference(text))
    return NULL;

  gchar *name = text[1] == '{' ? g_strndup(text + 2, strlen(text) - 3) : g_strdup(text + 1);

  /* the context's id is not the message's: the template's lookup answers it */
  if (strcmp(name, PDB_TEMPLATE_CONTEXT_ID) == 0 || strcmp(name, "_") == 0)
    g_clear_pointer(&name, g_free);
  return name;
}

gboolean
pdb_expr_backend_takes_template(const gchar *text)
{
  return text && strstr(text, "$(") != NULL;
}

static PdbHostExpr *
host_expr_new(PdbExprBackend *backend, PdbHostExprKind kind, gpointer handle)
{
  PdbHostExpr *expr = g_new0(PdbHostExpr, 1);

  expr->backend = pdb_expr_backend_ref(backend);
  expr->kind = kind;
  expr->handle = handle;
  return expr;
}

PdbHostExpr *
pdb_host_expr_compile_template(PdbExprBackend *backend, const gchar *text, gboolean with_type_hint,
                               PdbTypeHint *hint, GError **error)
{
  PdbTypeHint found = PDB_TYPE_HINT_NONE;
  gpointer handle = backend->klass->compile_template(backend, text, with_type_hint, &found, error);

  if (!handle)
    return NULL;
  if (hint)
    *hint = found;
  return host_expr_new(backend, PDB_HOST_EXPR_TEMPLATE, handle);
}

PdbHostExpr *
pdb_host_expr_compile_condition(PdbExprBackend *backend, const gchar *text, GError **error)
{
  gpointer handle = backend->klass->compile_condition(backend, text, error);

  return handle ? host_expr_new(backend, PDB_HOST_EXPR_CONDITION, handle) : NULL;
}

void
pdb_host_expr_free(PdbHostExpr *expr)
{
  if (!expr)
    return;
  if (expr->kind == PDB_HOST_EXPR_TEMPLATE)
    expr->backend->klass->free_template(expr->backend, expr->handle);
  else
    expr->backend->klass->free_condition(expr->backend, expr->handle);
  pdb_expr_backend_unref(expr->backend);
  g_free(expr);
}

void
pdb_host_expr_append(const PdbHostExpr *expr, const PdbExprScope *scope, GString *out)
{
  g_assert(expr->kind == PDB_HOST_EXPR_TEMPLATE);
  expr->backend->klass->append_template(expr->backend, expr->handle, scope, out);
}

gboolean
pdb_host_expr_eval(const PdbHostExpr *expr, const PdbExprScope *scope)
{
  g_assert(expr->kind == PDB_HOST_EXPR_CONDITION);
  return expr->backend->klass->eval_condition(expr->backend, expr->handle, scope);
}

/* An empty template with @hint's cast, standing for a text only the backend compiles. */
static PdbTemplate *
stand_in(gboolean with_type_hint, PdbTypeHint hint)
{
  gchar *text = with_type_hint && hint != PDB_TYPE_HINT_NONE
                ? g_strdup_printf("%s()", pdb_type_hint_to_string(hint)) : g_strdup("");
  PdbTemplate *tmpl = pdb_template_compile(text, with_type_hint, NULL);

  g_free(text);
  return tmpl;
}

gboolean
pdb_expr_compile_template(PdbExprBackend *backend, const gchar *text, gboolean with_type_hint,
                          PdbTemplate **own, PdbHostExpr **host, GError **error)
{
  PdbTypeHint hint = PDB_TYPE_HINT_NONE;

  *host = NULL;
  if (!backend || !pdb_expr_backend_takes_template(text))
    {
      *own = pdb_template_compile(text, with_type_hint, backend ? NULL : error);
      if (*own || !backend)
        return *own != NULL;
      /* a text without calls that the db layer refuses: the host decides */
    }
  else
    *own = pdb_template_compile(text, with_type_hint, NULL);

  *host = pdb_host_expr_compile_template(backend, text, with_type_hint, &hint, error);
  if (!*host)
    {
      g_clear_pointer(own, pdb_template_free);
      return FALSE;
    }
  if (!*own)
    *own = stand_in(with_type_hint, hint);
  return TRUE;
}

/*
 * expr-backend.h: a second engine for the template and condition texts of a
 * database, plugged in by whoever loads it (PdbLoadOptions.backend).
 *
 * The db layer has its own complete engine (db/template.h, db/expr-cond.h
 * and correlation/condition.h); the `patterndb` tool uses it alone. A host
 * that has an engine of its own (syslog-ng: LogTemplate and its filter
 * compiler, syslog-ng/host-expr.c) passes a backend, and then:
 *
 *   text                                  compiled by       evaluated by
 *   template without a function call      the db layer      the db layer (the fast path:
 *     (literal text, $name, ${name}@N ...)                  no call into the host)
 *   template with `$(`                    the backend       the backend
 *   action condition                      the backend       the backend
 *
 * Why not every template: a database without any backend expression is
 * bound to no configuration, so the daemon keeps it across a configuration
 * reload when its files did not change (one with such expressions is
 * compiled again, as syslog-ng's own db-parser() does on every reload).
 *
 * A text the backend refuses is a load error (PDB_DB_ERROR_TEMPLATE), as it
 * is for the host itself. For a template the backend takes, the db layer
 * also tries its own compiler (errors ignored) so that what it knows about
 * the text (a cast, looking back into a context) stays available.
 *
 * The backend evaluates over the host's own messages (PdbExprScope): the
 * handles the correlation code keeps (PdbCorrelationHost) or the one
 * PdbMessageOps.host_message() gives, oldest first, the current message
 * last, as syslog-ng evaluates templates "with context".
 *
 * A backend is reference counted; every compiled PdbHostExpr holds a
 * reference, so a database may outlive the loader's reference. Compiled
 * expressions are immutable and may be evaluated by any number of threads
 * at once (the backend's eval functions must allow that).
 */
#ifndef PDB_DB_EXPR_BACKEND_H
#define PDB_DB_EXPR_BACKEND_H

#include "db/template.h"

G_BEGIN_DECLS

/* What the backend evaluates over. */
typedef struct _PdbExprScope
{
  gpointer const *messages;   /* host message handles, oldest first; the last is the current one */
  guint count;                /* >= 1 */
  const gchar *context_id;    /* the correlation context's id, or NULL */
} PdbExprScope;

typedef struct _PdbExprBackend PdbExprBackend;

typedef struct _PdbExprBackendClass
{
  /* A template; @with_type_hint for <value>s (a cast `type(...)` is
   * recognised and returned in *hint, else PDB_TYPE_HINT_NONE). NULL with
   * @error set when the host refuses the text. */
  gpointer (*compile_template)(PdbExprBackend *self, const gchar *text, gboolean with_type_hint,
                               PdbTypeHint *hint, GError **error);
  void (*append_template)(PdbExprBackend *self, gpointer tmpl, const PdbExprScope *scope, GString *out);
  void (*free_template)(PdbExprBackend *self, gpointer tmpl);
  gpointer (*compile_condition)(PdbExprBackend *self, const gchar *text, GError **error);
  gboolean (*eval_condition)(PdbExprBackend *self, gpointer cond, const PdbExprScope *scope);
  void (*free_condition)(PdbExprBackend *self, gpointer cond);
  /* frees the backend when its last reference goes */
  void (*free)(PdbExprBackend *self);
} PdbExprBackendClass;

/* Embed as the first member of the host's backend struct. */
struct _PdbExprBackend
{
  const PdbExprBackendClass *klass;
  gint ref_cnt;
};

/* Sets up @self with one reference. */
void pdb_expr_backend_init(PdbExprBackend *self, const PdbExprBackendClass *klass);
PdbExprBackend *pdb_expr_backend_ref(PdbExprBackend *self);
void pdb_expr_backend_unref(PdbExprBackend *self);

/* TRUE when a template text goes to the backend: it calls a function. */
gboolean pdb_expr_backend_takes_template(const gchar *text);

/* The name a text that is one plain reference (`$name`, `${name}`) refers
 * to (owned by the caller), or NULL. */
gchar *pdb_expr_plain_reference(const gchar *text);

/* A template or a condition compiled by a backend. */
typedef struct _PdbHostExpr PdbHostExpr;

PdbHostExpr *pdb_host_expr_compile_template(PdbExprBackend *backend, const gchar *text, gboolean with_type_hint,
                                            PdbTypeHint *hint, GError **error);
PdbHostExpr *pdb_host_expr_compile_condition(PdbExprBackend *backend, const gchar *text, GError **error);
void pdb_host_expr_free(PdbHostExpr *expr);

/* Appends the template's expansion to @out. */
void pdb_host_expr_append(const PdbHostExpr *expr, const PdbExprScope *scope, GString *out);
/* The condition's value. */
gboolean pdb_host_expr_eval(const PdbHostExpr *expr, const PdbExprScope *scope);

/*
 * Compiles a template text of a database for @backend (NULL: the db layer's
 * engine alone). On success *own is never NULL: the db layer's compilation
 * or, when only the backend accepts the text, an empty stand-in carrying the
 * backend's cast (so "has a context-id" and the value's type read the same
 * either way); *host is set when the backend evaluates the text. On failure
 * both are NULL and @error says why (the backend's message when it refused).
 */
gboolean pdb_expr_compile_template(PdbExprBackend *backend, const gchar *text, gboolean with_type_hint,
                                   PdbTemplate **own, PdbHostExpr **host, GError **error);

G_END_DECLS

#endif

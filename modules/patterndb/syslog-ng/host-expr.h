/*
 * host-expr.h: the expression backend (db/expr-backend.h) of the daemon:
 * syslog-ng's own template engine and filter compiler, so that a database
 * can use every template function and filter function the running
 * syslog-ng knows, those of other loaded modules included, exactly as
 * syslog-ng's own db-parser() does.
 */
#ifndef PDB_SNG_HOST_EXPR_H
#define PDB_SNG_HOST_EXPR_H

#include "db/expr-backend.h"
#include "cfg.h"

/*
 * A backend that compiles with @cfg (templates: log_template_compile, with
 * the type-hint rule for <value>s; conditions: the filter expression
 * parser in the main grammar's context, so that filter(name) of @cfg,
 * source() and severity() are known, then filter_expr_init) and
 * evaluates with a copy of @cfg's
 * template options taken now. @cfg must stay alive while databases are
 * loaded with the backend; evaluation does not read it.
 */
PdbExprBackend *pdb_sng_host_expr_new(GlobalConfig *cfg);

/* TRUE once @backend has compiled anything (a database loaded with it
 * then holds syslog-ng templates or filters compiled with its config). */
gboolean pdb_sng_host_expr_used(PdbExprBackend *backend);

#endif

/*
 * grouping-by.h: our grouping-by() LogParser (syslog-ng 3.38's options,
 * plus prefix() from 4.0 and context-limit()).
 *
 * The grammar creates one with pdb_grouping_by_new() and fills its options
 * with the setters below; syslog-ng then owns it (log_pipe_unref()).
 * Setters that take a LogTemplate or a FilterExprNode take ownership.
 */
#ifndef PDB_SNG_GROUPING_BY_H
#define PDB_SNG_GROUPING_BY_H

#include "parser/parser-expr.h"
#include "filter/filter-expr.h"

LogParser *pdb_grouping_by_new(GlobalConfig *cfg);

void pdb_grouping_by_set_key(LogParser *s, LogTemplate *key);
void pdb_grouping_by_set_sort_key(LogParser *s, LogTemplate *sort_key);
/* process, program, host or global; FALSE for anything else */
gboolean pdb_grouping_by_set_scope(LogParser *s, const gchar *scope);
void pdb_grouping_by_set_where(LogParser *s, FilterExprNode *expr);
void pdb_grouping_by_set_having(LogParser *s, FilterExprNode *expr);
void pdb_grouping_by_set_trigger(LogParser *s, FilterExprNode *expr);
void pdb_grouping_by_set_timeout(LogParser *s, gint timeout);
/* pass-through, internal or aggregate-only (`-` and `_` alike); FALSE otherwise */
gboolean pdb_grouping_by_set_inject_mode(LogParser *s, const gchar *mode);
void pdb_grouping_by_set_prefix(LogParser *s, const gchar *prefix);
void pdb_grouping_by_set_context_limit(LogParser *s, guint limit);
/* persist-name(): names the parser's contexts across reloads and makes its
 * name for syslog-ng's uniqueness check "grouping-by.NAME(clone=N)". */
void pdb_grouping_by_set_persist_name(LogParser *s, const gchar *name);

/* aggregate(): marks it present; then its parts */
void pdb_grouping_by_begin_aggregate(LogParser *s);
void pdb_grouping_by_add_value(LogParser *s, const gchar *name, LogTemplate *value);
void pdb_grouping_by_add_tag(LogParser *s, const gchar *tag);
/* none, last-message or context; FALSE otherwise */
gboolean pdb_grouping_by_set_inherit_mode(LogParser *s, const gchar *mode);

#endif

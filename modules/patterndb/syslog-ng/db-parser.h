/*
 * db-parser.h: the db-parser() / patterndb() LogParser.
 *
 * The grammar creates one with pdb_sng_parser_new() and fills its options
 * with the setters below; syslog-ng then owns it (log_pipe_unref()).
 */
#ifndef PDB_SNG_DB_PARSER_H
#define PDB_SNG_DB_PARSER_H

#include "parser/parser-expr.h"

LogParser *pdb_sng_parser_new(GlobalConfig *cfg);

void pdb_sng_parser_set_file(LogParser *s, const gchar *path);
/* file() with several paths: one database from all of them (empty strings left out). */
void pdb_sng_parser_set_files(LogParser *s, const gchar *const *paths);
void pdb_sng_parser_set_drop_unmatched(LogParser *s, gboolean drop_unmatched);
/* Takes ownership of @program_template. */
void pdb_sng_parser_set_program_template(LogParser *s, LogTemplate *program_template);
/* "pass-through", "internal" or "aggregate-only" (`-` and `_` alike);
 * FALSE for anything else. */
gboolean pdb_sng_parser_set_inject_mode(LogParser *s, const gchar *mode);
void pdb_sng_parser_set_prefix(LogParser *s, const gchar *prefix);
/* persist-name(): names the parser's state across reloads (instead of its
 * file and prefix). */
void pdb_sng_parser_set_persist_name(LogParser *s, const gchar *name);
/* At most @limit live correlation contexts (0: PDB_CORRELATION_DEFAULT_MAX_CONTEXTS). */
void pdb_sng_parser_set_context_limit(LogParser *s, guint limit);

#endif

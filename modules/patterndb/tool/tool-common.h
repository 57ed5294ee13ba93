/*
 * tool-common.h: what several subcommands of `patterndb` share: option
 * parsing with pdbtool's global options and messages, loading a database
 * with pdbtool's error texts, and template escapes.
 *
 * Exit codes shared by every subcommand (documented in patterndb.1):
 *   PDB_TOOL_EXIT_USAGE  (2) bad command line, unreadable or broken database
 *                        (pdbtool 3.38 exits 0 or 1 there; we do not)
 */
#ifndef PDB_TOOL_COMMON_H
#define PDB_TOOL_COMMON_H

#include "db/database.h"

#include <stdio.h>
#include <time.h>

G_BEGIN_DECLS

#define PDB_TOOL_EXIT_USAGE 2
#define PDB_TOOL_DEFAULT_PDB "/var/lib/syslog-ng/patterndb.xml"

/*
 * Parses argv with @entries plus pdbtool's global options (-d, -v,
 * --module, --module-path: accepted and ignored). @parameter and @summary
 * are shown by --help. Returns FALSE after printing the error to stderr.
 */
gboolean pdb_tool_parse_options(int *argc, char ***argv, const gchar *parameter,
                                const gchar *summary, const gchar *description,
                                GOptionEntry *entries);

/*
 * Loads @path; on error prints pdbtool's message to stderr
 * ("Error opening classifier configuration file; filename=..., error=..." or
 * "Error parsing pattern database file; filename=..., error=...") and
 * returns NULL.
 */
PdbDatabase *pdb_tool_load_database(const gchar *path, gboolean validate_schema);
/* Threads pdb_tool_load_database() may use (PdbLoadOptions.load_threads;
 * 0, the default: as many as help). `match --threads 1` keeps to one. */
void pdb_tool_set_load_threads(guint threads);

/* The C escapes of @text replaced as pdbtool 3.38 does for -T (glib's
 * g_strcompress: \b \f \n \r \t \v \\ \" and octal \NNN, where \0 ends the
 * text; any other \c is c; a trailing backslash is dropped). Returns a new
 * string. */
gchar *pdb_tool_unescape(const gchar *text);

/* Writes @out to @stream when it holds more than @threshold bytes (0: always). */
void pdb_tool_flush(GString *out, FILE *stream, gsize threshold);

/*
 * Reads @path ("-" = stdin) line by line and calls @line_func with each
 * line without its "\n" or "\r\n". Errors go to stderr as
 * "patterndb COMMAND: cannot open|error reading PATH: reason".
 */
typedef void (*PdbToolLineFunc)(const gchar *line, gsize length, gpointer user_data);
gboolean pdb_tool_read_lines(const gchar *command, const gchar *path,
                             PdbToolLineFunc line_func, gpointer user_data);

/* Now, or SOURCE_DATE_EPOCH's time when it is set (reproducible output),
 * broken down in UTC. */
void pdb_tool_now_utc(struct tm *tm);

G_END_DECLS

#endif

/*
 * db-open.h: the start and the end that the read-only tree subcommands
 * (`dump`, `dictionary`) share: options -p DB, -P PROGRAM and one -T flag,
 * loading the database, and printing what they wrote into one buffer.
 */
#ifndef PDB_TOOL_DB_OPEN_H
#define PDB_TOOL_DB_OPEN_H

#include "db/database.h"

G_BEGIN_DECLS

typedef struct
{
  gchar *pdb;          /* -p, NULL: PDB_TOOL_DEFAULT_PDB */
  gchar *program;      /* -P, NULL when not given */
  gboolean flag;       /* the command's -T */
  PdbDatabase *db;     /* loaded by pdb_tool_db_open() */
  GString *out;        /* what pdb_tool_db_close() prints */
} PdbToolDbCommand;

/* What differs between the commands: their --help texts and -T's long name. */
typedef struct
{
  const gchar *parameter;     /* "dump" */
  const gchar *summary;       /* "Dump pattern database tree" */
  const gchar *program_help;  /* -P's description */
  const gchar *flag_name;     /* -T's long name, "program-tree" */
  const gchar *flag_help;
} PdbToolDbCommandSpec;

/*
 * The whole subcommand: parses the options and loads the database (on an
 * error, prints it and returns PDB_TOOL_EXIT_USAGE), calls @run, which
 * writes into cmd->out, prints that and returns 0.
 */
typedef void (*PdbToolDbRun)(PdbToolDbCommand *cmd);
int pdb_tool_db_main(const PdbToolDbCommandSpec *spec, int argc, char **argv, PdbToolDbRun run);

/* The message tree of the ruleset -P selects; NULL when -P was not given,
 * selects no ruleset or one without rules. */
const PdbRadix *pdb_tool_db_program_messages(const PdbToolDbCommand *cmd);


G_END_DECLS

#endif

/*
 * db-open.c: option parsing, loading and output for the read-only tree
 * subcommands (see db-open.h).
 *
 * Invariant: after pdb_tool_db_open() either db and out are both set (the
 * command runs and everything it writes goes to out) or neither is, and
 * pdb_tool_db_close() releases whatever open() took, in both cases.
 */
#include "tool/db-open.h"
#include "tool/tool-common.h"

#include <string.h>

static gboolean
pdb_tool_db_open(PdbToolDbCommand *cmd, const PdbToolDbCommandSpec *spec, int *argc, char ***argv)
{
  GOptionEntry entries[] =
  {
    { "pdb", 'p', 0, G_OPTION_ARG_FILENAME, &cmd->pdb, "Name of the patterndb file (default " PDB_TOOL_DEFAULT_PDB ")", "<patterndb_file>" },
    { "program", 'P', 0, G_OPTION_ARG_STRING, &cmd->program, spec->program_help, "<program>" },
    { spec->flag_name, 'T', 0, G_OPTION_ARG_NONE, &cmd->flag, spec->flag_help, NULL },
    { NULL }
  };

  *cmd = (PdbToolDbCommand) { 0 };
  if (!pdb_tool_parse_options(argc, argv, spec->parameter, spec->summary,
                              "Exit status: 0 success, 2 usage error or a database that cannot be loaded.\n",
                              entries))
    return FALSE;
  cmd->db = pdb_tool_load_database(cmd->pdb ? cmd->pdb : PDB_TOOL_DEFAULT_PDB, FALSE);
  if (!cmd->db)
    return FALSE;
  cmd->out = g_string_new(NULL);
  return TRUE;
}

const PdbRadix *
pdb_tool_db_program_messages(const PdbToolDbCommand *cmd)
{
  const PdbRuleset *rs = cmd->program ? pdb_database_find_ruleset(cmd->db, cmd->program, strlen(cmd->program)) : NULL;

  return rs ? rs->messages : NULL;
}

static int
pdb_tool_db_close(PdbToolDbCommand *cmd)
{
  int rc = PDB_TOOL_EXIT_USAGE;

  if (cmd->db)
    {
      fwrite(cmd->out->str, 1, cmd->out->len, stdout);
      g_string_free(cmd->out, TRUE);
      pdb_database_unref(cmd->db);
      rc = 0;
    }
  g_free(cmd->pdb);
  g_free(cmd->program);
  *cmd = (PdbToolDbCommand) { 0 };
  return rc;
}

int
pdb_tool_db_main(const PdbToolDbCommandSpec *spec, int argc, char **argv, PdbToolDbRun run)
{
  PdbToolDbCommand cmd;

  if (pdb_tool_db_open(&cmd, spec, &argc, &argv))
    run(&cmd);
  return pdb_tool_db_close(&cmd);
}

/*
 * commands.h: the subcommands of the `patterndb` tool.
 *
 * Each subcommand lives in its own cmd-<name>.c and has one entry point
 * that receives argv with argv[0] set to the subcommand name. It returns
 * the process exit code; it prints errors to stderr itself.
 */
#ifndef PDB_TOOL_COMMANDS_H
#define PDB_TOOL_COMMANDS_H

#include <glib.h>

typedef int (*PdbCommandFunc)(int argc, char **argv);

typedef struct _PdbCommand
{
  const char *name;
  PdbCommandFunc run;
  const char *summary;   /* one line for `patterndb --help` */
} PdbCommand;

/* Defined in main.c: the table of subcommands. */
extern const PdbCommand pdb_commands[];

/* Parses the options of a subcommand that parses its own, with the --help
 * every subcommand has: usage line "patterndb [OPTION…] NAME PARAMETERS",
 * the summary of pdb_commands[], then @description (may be NULL). FALSE
 * with @error set when the command line is wrong. */
gboolean pdb_tool_command_parse(const char *name, const char *parameters, const char *description,
                                GOptionEntry *entries, int *argc, char ***argv, GError **error);

#endif

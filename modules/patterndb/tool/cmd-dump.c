/*
 * cmd-dump.c: `patterndb dump`, pdbtool's dump subcommand.
 *
 * -T prints the program tree (rulesets are shown as RULES; the catch-all
 * ruleset sits on the root, as in 3.38), -P NAME prints the message tree of
 * the ruleset that program NAME selects, one node per line:
 * "[depth]<TAB><indent>'literal' " or "@TYPE:name@ [file:line:col]'' ",
 * followed by rule_id='...' on nodes that hold a rule.
 */
#include "tool/commands.h"
#include "tool/tool-common.h"

#include <string.h>

static void
describe_rule(gpointer value, GString *out, gpointer user_data)
{
  const PdbRule *rule = value;

  g_string_append_printf(out, "rule_id='%s'", rule->id);
}

static void
describe_ruleset(gpointer value, GString *out, gpointer user_data)
{
  g_string_append(out, "RULES");
}

static void
dump_program_tree(const PdbDatabase *db, GString *out)
{
  const PdbRadix *programs = pdb_database_get_program_tree(db);
  static const gchar root_line[] = "[0]\t'' \n";

  if (programs)
    pdb_radix_dump(programs, out, describe_ruleset, NULL);
  if (out->len == 0)
    g_string_append(out, root_line);
  /* the catch-all ruleset is the root's value in 3.38 */
  if (pdb_database_get_catch_all_ruleset(db) && g_str_has_prefix(out->str, root_line))
    g_string_insert(out, sizeof(root_line) - 2, "RULES");
}

int
pdb_cmd_dump(int argc, char **argv)
{
  gchar *pdb = NULL, *program = NULL;
  gboolean program_tree = FALSE;
  GOptionEntry entries[] =
  {
    { "pdb", 'p', 0, G_OPTION_ARG_FILENAME, &pdb, "Name of the patterndb file (default " PDB_TOOL_DEFAULT_PDB ")", "<patterndb_file>" },
    { "program", 'P', 0, G_OPTION_ARG_STRING, &program, "Print the message tree of the ruleset this program selects", "<program>" },
    { "program-tree", 'T', 0, G_OPTION_ARG_NONE, &program_tree, "Print the program tree", NULL },
    { NULL }
  };
  PdbDatabase *db;
  GString *out;
  int rc = PDB_TOOL_EXIT_USAGE;

  if (!pdb_tool_parse_options(&argc, &argv, "dump", "Dump pattern database tree",
                              "Exit status: 0 success, 2 usage error or a database that cannot be loaded.\n",
                              entries))
    goto out;
  db = pdb_tool_load_database(pdb ? pdb : PDB_TOOL_DEFAULT_PDB, FALSE);
  if (!db)
    goto out;
  rc = 0;
  out = g_string_new(NULL);
  if (program_tree)
    dump_program_tree(db, out);
  else if (program)
    {
      const PdbRuleset *rs = pdb_database_find_ruleset(db, program, strlen(program));

      if (rs && rs->messages)
        pdb_radix_dump(rs->messages, out, describe_rule, NULL);
    }
  else
    fprintf(stderr, "Neither --program-tree nor --program was specified, doing nothing\n");
  fwrite(out->str, 1, out->len, stdout);
  g_string_free(out, TRUE);
  pdb_database_unref(db);
out:
  g_free(pdb);
  g_free(program);
  return rc;
}

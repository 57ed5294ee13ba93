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
#include "tool/db-open.h"

#include <stdio.h>

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

static void
run_dump(PdbToolDbCommand *cmd)
{
  if (cmd->flag)
    dump_program_tree(cmd->db, cmd->out);
  else if (cmd->program)
    {
      const PdbRadix *messages = pdb_tool_db_program_messages(cmd);

      if (messages)
        pdb_radix_dump(messages, cmd->out, describe_rule, NULL);
    }
  else
    fprintf(stderr, "Neither --program-tree nor --program was specified, doing nothing\n");
}

int
pdb_cmd_dump(int argc, char **argv)
{
  static const PdbToolDbCommandSpec spec =
  {
    "dump", "Dump pattern database tree",
    "Print the message tree of the ruleset this program selects",
    "program-tree", "Print the program tree",
  };

  return pdb_tool_db_main(&spec, argc, argv, run_dump);
}

/*
 * cmd-dictionary.c: `patterndb dictionary`, pdbtool's dictionary subcommand.
 *
 * Lists, rule by rule in tree order, the names a rule can set: capture
 * names on the way to the rule, then its <value> names; with -T the tags
 * a rule sets instead (its class tag, then its <tag>s; pdbtool 3.38 prints
 * garbage there, which is not reproduced). Duplicates are kept, as pdbtool
 * does. Without -P every ruleset is listed, the catch-all ruleset first,
 * and the names of parsers in program patterns are listed where the walk
 * of the program tree meets them, as pdbtool does.
 */
#include "tool/commands.h"
#include "tool/db-open.h"
#include "tool/tree-walk.h"

typedef struct
{
  gboolean tags;
  GString *out;
} DictState;

static void
on_parser(const gchar *type, const gchar *name, gpointer user_data)
{
  DictState *st = user_data;

  if (!st->tags && name[0])
    g_string_append_printf(st->out, "%s\n", name);
}

static void
on_rule(gpointer value, gpointer user_data)
{
  DictState *st = user_data;
  const PdbRule *rule = value;

  if (st->tags)
    {
      if (rule->class_tag)
        g_string_append_printf(st->out, "%s\n", rule->class_tag);
      for (guint i = 0; rule->tags && i < rule->tags->len; i++)
        g_string_append_printf(st->out, "%s\n", (const gchar *) g_ptr_array_index(rule->tags, i));
      return;
    }
  for (guint i = 0; rule->values && i < rule->values->len; i++)
    g_string_append_printf(st->out, "%s\n", ((const PdbValueDef *) g_ptr_array_index(rule->values, i))->name);
}

static void
list_messages(const PdbRadix *messages, DictState *st)
{
  PdbTreeVisitor visitor = { on_parser, on_rule };

  if (messages)
    pdb_tool_walk_tree(messages, &visitor, st);
}

static void
list_ruleset(const PdbRuleset *rs, DictState *st)
{
  list_messages(rs ? rs->messages : NULL, st);
}

static void
on_program(gpointer value, gpointer user_data)
{
  list_ruleset(value, user_data);
}

static void
run_dictionary(PdbToolDbCommand *cmd)
{
  DictState st = { cmd->flag, cmd->out };

  if (cmd->program)
    list_messages(pdb_tool_db_program_messages(cmd), &st);
  else
    {
      PdbTreeVisitor visitor = { on_parser, on_program };

      list_ruleset(pdb_database_get_catch_all_ruleset(cmd->db), &st);
      if (pdb_database_get_program_tree(cmd->db))
        pdb_tool_walk_tree(pdb_database_get_program_tree(cmd->db), &visitor, &st);
    }
}

int
pdb_cmd_dictionary(int argc, char **argv)
{
  static const PdbToolDbCommandSpec spec =
  {
    "dictionary", "Dump pattern dictionary",
    "Only the ruleset this program selects",
    "dump-tags", "Dump the tags rules set instead of value names",
  };

  return pdb_tool_db_main(&spec, argc, argv, run_dictionary);
}

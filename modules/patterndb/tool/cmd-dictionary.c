/*
 * cmd-dictionary.c: `patterndb dictionary`, pdbtool's dictionary subcommand.
 *
 * Lists, rule by rule in tree order, the names a rule can set: capture
 * names on the way to the rule, then its <value> names; with -T the tags
 * a rule sets instead (its class tag, then its <tag>s; pdbtool 3.38 prints
 * garbage there, which is not reproduced). Duplicates are kept, as pdbtool
 * does. Without -P every ruleset is listed, the catch-all ruleset first.
 */
#include "tool/commands.h"
#include "tool/tool-common.h"
#include "tool/tree-walk.h"

#include <string.h>

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
list_ruleset(const PdbRuleset *rs, DictState *st)
{
  PdbTreeVisitor visitor = { on_parser, on_rule };

  if (rs && rs->messages)
    pdb_tool_walk_tree(rs->messages, &visitor, st);
}

static void
on_program(gpointer value, gpointer user_data)
{
  list_ruleset(value, user_data);
}

int
pdb_cmd_dictionary(int argc, char **argv)
{
  gchar *pdb = NULL, *program = NULL;
  gboolean dump_tags = FALSE;
  GOptionEntry entries[] =
  {
    { "pdb", 'p', 0, G_OPTION_ARG_FILENAME, &pdb, "Name of the patterndb file (default " PDB_TOOL_DEFAULT_PDB ")", "<patterndb_file>" },
    { "program", 'P', 0, G_OPTION_ARG_STRING, &program, "Only the ruleset this program selects", "<program>" },
    { "dump-tags", 'T', 0, G_OPTION_ARG_NONE, &dump_tags, "Dump the tags rules set instead of value names", NULL },
    { NULL }
  };
  PdbDatabase *db;
  DictState st = { 0 };
  int rc = PDB_TOOL_EXIT_USAGE;

  if (!pdb_tool_parse_options(&argc, &argv, "dictionary", "Dump pattern dictionary",
                              "Exit status: 0 success, 2 usage error or a database that cannot be loaded.\n",
                              entries))
    goto out;
  db = pdb_tool_load_database(pdb ? pdb : PDB_TOOL_DEFAULT_PDB, FALSE);
  if (!db)
    goto out;
  rc = 0;
  st.tags = dump_tags;
  st.out = g_string_new(NULL);
  if (program)
    list_ruleset(pdb_database_find_ruleset(db, program, strlen(program)), &st);
  else
    {
      PdbTreeVisitor visitor = { NULL, on_program };

      list_ruleset(pdb_database_get_catch_all_ruleset(db), &st);
      if (pdb_database_get_program_tree(db))
        pdb_tool_walk_tree(pdb_database_get_program_tree(db), &visitor, &st);
    }
  fwrite(st.out->str, 1, st.out->len, stdout);
  g_string_free(st.out, TRUE);
  pdb_database_unref(db);
out:
  g_free(pdb);
  g_free(program);
  return rc;
}

/*
 * main.c: the `patterndb` command-line tool's entry point.
 *
 * Finds the subcommand (the first argument that is not an option, as
 * pdbtool does, so `patterndb -p x.xml match ...` also works) and hands it
 * the rest of the command line. Nothing else lives here: one file per
 * subcommand keeps each one readable on its own.
 */
#include "config.h"
#include "tool/commands.h"

#include <glib.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

/* Each subcommand's entry point, defined in its cmd-<name>.c. Add a line
 * here and one row to pdb_commands[] below for a new subcommand. */
int pdb_cmd_patternize(int argc, char **argv);
int pdb_cmd_report(int argc, char **argv);
int pdb_cmd_match(int argc, char **argv);
int pdb_cmd_test(int argc, char **argv);
int pdb_cmd_merge(int argc, char **argv);
int pdb_cmd_dump(int argc, char **argv);
int pdb_cmd_dictionary(int argc, char **argv);
int pdb_cmd_lint(int argc, char **argv);
int pdb_cmd_rsyslog(int argc, char **argv);

const PdbCommand pdb_commands[] =
{
  { "match", pdb_cmd_match, "Match a message against the pattern database" },
  { "test", pdb_cmd_test, "Test pattern databases against their examples" },
  { "merge", pdb_cmd_merge, "Merge pattern databases" },
  { "dump", pdb_cmd_dump, "Dump pattern database tree" },
  { "dictionary", pdb_cmd_dictionary, "Dump pattern dictionary" },
  { "lint", pdb_cmd_lint, "Find shadowed, ambiguous and broken rules" },
  { "patternize", pdb_cmd_patternize, "Create a pattern database from logs (clustering)" },
  { "report", pdb_cmd_report, "Match rate, classes, rules and unknown clusters of a log" },
  { "rsyslog", pdb_cmd_rsyslog, "Classify for rsyslog's mmexternal (JSON lines on stdin/stdout)" },
  { NULL, NULL, NULL }
};

gboolean
pdb_tool_command_parse(const char *name, const char *parameters, const char *description,
                       GOptionEntry *entries, int *argc, char ***argv, GError **error)
{
  gchar *usage = parameters ? g_strdup_printf("%s %s", name, parameters) : g_strdup(name);
  GOptionContext *ctx = g_option_context_new(usage);

  g_free(usage);
  g_set_prgname("patterndb");
  for (const PdbCommand *c = pdb_commands; c->name; c++)
    if (strcmp(c->name, name) == 0)
      g_option_context_set_summary(ctx, c->summary);
  if (description)
    g_option_context_set_description(ctx, description);
  g_option_context_add_main_entries(ctx, entries, NULL);
  gboolean parsed = g_option_context_parse(ctx, argc, argv, error);
  g_option_context_free(ctx);
  return parsed;
}

/* The command @typo most likely meant: one edit away (a letter added,
 * dropped, changed, or two neighbours swapped), or NULL. */
static const char *
nearest_command(const char *typo)
{
  gsize n = strlen(typo);

  for (const PdbCommand *c = pdb_commands; c->name; c++)
    {
      const char *name = c->name;
      gsize m = strlen(name), i = 0;

      while (i < n && i < m && typo[i] == name[i])
        i++;
      if (n == m && i < n
          && (strcmp(typo + i + 1, name + i + 1) == 0
              || (i + 1 < n && typo[i] == name[i + 1] && typo[i + 1] == name[i]
                  && strcmp(typo + i + 2, name + i + 2) == 0)))
        return name;
      if (n + 1 == m && strcmp(typo + i, name + i + 1) == 0)
        return name;
      if (n == m + 1 && strcmp(typo + i + 1, name + i) == 0)
        return name;
    }
  return NULL;
}

static void
print_usage(FILE *out)
{
  fprintf(out, "Usage: patterndb COMMAND [OPTION...]\n\n"
               "Classify log messages with a pattern database (pdbtool-compatible).\n\n"
               "Commands:\n");
  for (const PdbCommand *c = pdb_commands; c->name; c++)
    fprintf(out, "  %-12s %s\n", c->name, c->summary);
  fprintf(out, "\nRun `patterndb COMMAND --help` for the options of one command.\n"
               "  --version    print the version and exit\n");
}

int
main(int argc, char **argv)
{
  setlocale(LC_ALL, "");

  for (int i = 1; i < argc; i++)
    {
      const char *arg = argv[i];

      if (strcmp(arg, "--version") == 0 || strcmp(arg, "-V") == 0)
        {
          printf("patterndb %s\n", PACKAGE_VERSION);
          return 0;
        }
      if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)
        {
          print_usage(stdout);
          return 0;
        }
      if (arg[0] == '-')
        continue;

      for (const PdbCommand *c = pdb_commands; c->name; c++)
        {
          if (strcmp(c->name, arg) != 0)
            continue;
          /* Move the subcommand name to argv[1] so that it becomes the
           * subcommand's argv[0], keeping options given before it. */
          memmove(&argv[2], &argv[1], (i - 1) * sizeof(char *));
          argv[1] = (char *) c->name;
          return c->run(argc - 1, argv + 1);
        }
      const char *near = nearest_command(arg);
      if (near)
        {
          fprintf(stderr, "patterndb: unknown command '%s'; did you mean '%s'?\n"
                          "Run `patterndb --help` for the list of commands.\n", arg, near);
          return 2;
        }
      fprintf(stderr, "patterndb: unknown command '%s'\n\n", arg);
      print_usage(stderr);
      return 2;
    }
  print_usage(stderr);
  return 2;
}

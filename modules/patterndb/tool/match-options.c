/*
 * match-options.c: what `patterndb match --help` says beyond the option
 * list, and the checks of its options that GOption cannot make.
 */
#include "tool/match.h"

#include <string.h>

const gchar pdb_match_description[] =
  "Without -T, each message is printed as NAME=value lines (in pdbtool's order),\n"
  "a TAGS= line and an empty line. -f reads syslog lines (RFC 5424 or RFC 3164,\n"
  "<PRI> optional) and matches PROGRAM and MESSAGE from their header.\n"
  "\n"
  "-F accepts syslog-ng 3.38's filter functions: " PDB_FILTER_FUNCTIONS ".\n"
  "\n"
  "With -f FILE (a regular file), lines are classified on --threads threads, by\n"
  "default one per available CPU, unless a rule has actions or a context-id. The\n"
  "output and the exit status are the same, in the same order, as with one thread.\n"
  "A -T template that prints nothing but ${.classifier.rule_id},\n"
  "${.classifier.class} and plain text (bulk classification) takes a shorter path.\n"
  "From a pipe, results are written as their lines come in.\n"
  "\n"
  "Exit status: 0 when the last message printed got a rule id (or none was\n"
  "printed), 1 when it did not (always 0 with -T, --json or --stats), 2 on a usage\n"
  "error or a database that cannot be loaded.\n"
  "\n"
  "--stats prints, after the whole input, how many lines each rule classified,\n"
  "the unknown lines per program and the rules that never matched, instead of\n"
  "the messages (the counts of `syslog-ng-ctl stats` for a db-parser()).\n";

/* --stats[=FORMAT] (GOption hands optional values to a callback only). */
static gchar *stats_format;

gboolean
pdb_match_take_stats_format(const gchar *name, const gchar *value, gpointer data, GError **error)
{
  g_free(stats_format);
  stats_format = g_strdup(value ? value : "text");
  return TRUE;
}

/* The checks of the options that GOption cannot make; fills in --threads. */
gboolean
pdb_match_check_options(MatchOptions *opt, int argc, char **argv)
{
  if (argc > 1)
    {
      fprintf(stderr, "Error parsing command line arguments: unexpected argument '%s'\n", argv[1]);
      return FALSE;
    }
  if (opt->threads < 0 || opt->threads > PDB_MATCH_MAX_THREADS || opt->block_size < 0)
    {
      fprintf(stderr, "Error parsing command line arguments: --threads takes 1 to %d (0: one per CPU)%s\n",
              PDB_MATCH_MAX_THREADS, opt->block_size < 0 ? ", --block-size a positive size" : "");
      return FALSE;
    }
  if (opt->threads == 0)
    opt->threads = MIN(PDB_MATCH_MAX_THREADS, (gint) g_get_num_processors());
  if (opt->stats && strcmp(opt->stats, "text") != 0 && strcmp(opt->stats, "json") != 0)
    {
      fprintf(stderr, "Error parsing command line arguments: --stats takes text or json, not '%s'\n", opt->stats);
      return FALSE;
    }
  if (opt->stats && (opt->template_text || opt->filter_text || opt->json || opt->debug_pattern
                     || opt->debug_csv || opt->explain))
    {
      fprintf(stderr, "Error parsing command line arguments: --stats prints counts instead of messages, "
              "so it takes none of -T, -F, --json, -D, -C, --explain\n");
      return FALSE;
    }
  if (!opt->message && !opt->file)
    {
      fprintf(stderr, "Either -M or -f is required to specify which message to match\n");
      return FALSE;
    }
  return TRUE;
}


gchar *
pdb_match_steal_stats_format(void)
{
  gchar *format = stats_format;

  stats_format = NULL;
  return format;
}

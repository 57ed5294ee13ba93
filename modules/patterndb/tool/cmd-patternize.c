/*
 * cmd-patternize.c: `patterndb patternize`, pdbtool-compatible options.
 *
 *   patterndb patternize [-f FILE|-] [-p] [-S PCT] [-o] [-n] [-d DELIMS] [--samples=N] [FILE...]
 *
 * Reads log lines (syslog format, split with the same parser as `match -f`;
 * with -p each line is a bare message), clusters them per program and
 * prints a version 6 patterndb on stdout whose examples come from the
 * input, so that `patterndb test` passes on it. Lines that cannot go into
 * XML (invalid UTF-8, control characters) are skipped and counted on
 * stderr. Exit status: 0, 1 on unreadable input, 2 on bad options.
 */
#include "config.h"
#include "tool/commands.h"
#include "tool/tool-common.h"
#include "tool/syslog-line.h"
#include "mining/patternize.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct
{
  gboolean no_parse;
  PdbPatternizer *patternizer;
  guint parse_errors;
} Input;

static void
add_line(const gchar *line, gsize len, gpointer user_data)
{
  Input *in = user_data;

  if (in->no_parse)
    {
      pdb_patternizer_add(in->patternizer, NULL, 0, line, len);
      return;
    }
  PdbSyslogLine sl;
  pdb_syslog_line_parse(line, len, &sl);
  if (sl.parse_error || !sl.message.data)
    {
      in->parse_errors++;
      return;
    }
  pdb_patternizer_add(in->patternizer, sl.program.data, sl.program.data ? sl.program.length : 0,
                      sl.message.data, sl.message.length);
}

static gboolean
read_file(Input *in, const gchar *path)
{
  return pdb_tool_read_lines("patternize", path, add_line, in);
}

static gchar *
publication_date(void)
{
  struct tm tm;
  gchar buf[16];
  pdb_tool_now_utc(&tm);
  strftime(buf, sizeof(buf), "%Y-%m-%d", &tm);
  return g_strdup(buf);
}

int
pdb_cmd_patternize(int argc, char **argv)
{
  gchar *file = NULL;
  gboolean no_parse = FALSE, iterate = FALSE, named = FALSE, verbose = FALSE, debug = FALSE;
  gdouble support = NAN;   /* not given: a rule for every cluster */
  gchar *delimiters = NULL;
  gint samples = 1;
  GOptionEntry entries[] =
  {
    { "file", 'f', 0, G_OPTION_ARG_FILENAME, &file, "Log file to mine, '-' for stdin", "<path>" },
    { "no-parse", 'p', 0, G_OPTION_ARG_NONE, &no_parse, "Lines are bare messages, not syslog lines", NULL },
    { "support", 'S', 0, G_OPTION_ARG_DOUBLE, &support, "Percentage of lines a pattern needs (default: every message type gets a rule)", "<support>" },
    { "iterate-outliers", 'o', 0, G_OPTION_ARG_NONE, &iterate, "Mine the lines below the support again", NULL },
    { "named-parsers", 'n', 0, G_OPTION_ARG_NONE, &named, "Name unnamed fields .dict.string0, .dict.string1...", NULL },
    { "delimiters", 'd', 0, G_OPTION_ARG_STRING, &delimiters, "Characters preferred as field ends (space always added)", "<delimiters>" },
    { "samples", 0, 0, G_OPTION_ARG_INT, &samples, "Examples per pattern (default: 1)", "<samples>" },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &verbose, "Print statistics on stderr", NULL },
    { "debug", 0, 0, G_OPTION_ARG_NONE, &debug, "Same as --verbose", NULL },
    { NULL, 0, 0, 0, NULL, NULL, NULL }
  };
  GError *error = NULL;
  int rc = 0;

  if (!pdb_tool_command_parse("patternize", "[FILE...]", NULL, entries, &argc, &argv, &error))
    {
      fprintf(stderr, "patterndb patternize: %s\n", error->message);
      g_error_free(error);
      return 2;
    }
  if ((!isnan(support) && (support < 0.0 || support > 100.0)) || samples < 0)
    {
      if (support < 0.0 || support > 100.0)
        fprintf(stderr, "patterndb patternize: -S/--support: %g is not a percentage (0 to 100)\n", support);
      else
        fprintf(stderr, "patterndb patternize: --samples: must be 0 or more, not %d\n", samples);
      g_free(file);
      g_free(delimiters);
      return 2;
    }
  if (!file && argc < 2)
    {
      fprintf(stderr, "patterndb patternize: no input; use -f FILE (or -f - for stdin)\n");
      g_free(delimiters);
      return 2;
    }

  PdbPatternizeOptions options;
  pdb_patternize_options_init(&options);
  options.support = isnan(support) ? -1.0 : support;
  options.iterate_outliers = iterate;
  options.samples = (guint) samples;
  options.pattern.named_parsers = named;
  if (delimiters)
    options.pattern.delimiters = delimiters;

  Input in = { no_parse, pdb_patternizer_new(&options), 0 };
  if (file && !read_file(&in, file))
    rc = 1;
  for (int i = 1; i < argc && rc == 0; i++)
    if (!read_file(&in, argv[i]))
      rc = 1;

  if (rc == 0)
    {
      GString *out = g_string_new(NULL);
      gchar *date = publication_date();
      guint n_rules = pdb_patternizer_write(in.patternizer, out, PDB_MINING_XML_VERSION, date);
      fwrite(out->str, 1, out->len, stdout);
      if (fflush(stdout) != 0)
        rc = 1;
      guint skipped = pdb_patternizer_get_n_skipped(in.patternizer);
      if (skipped || in.parse_errors)
        fprintf(stderr, "patterndb patternize: skipped %u lines that cannot be written as XML "
                        "(invalid UTF-8, control characters, empty) and %u that are not syslog lines\n",
                skipped, in.parse_errors);
      if (verbose || debug)
        fprintf(stderr, "patterndb patternize: %u lines, %u patterns\n",
                pdb_patternizer_get_n_lines(in.patternizer), n_rules);
      g_free(date);
      g_string_free(out, TRUE);
    }

  pdb_patternizer_free(in.patternizer);
  g_free(file);
  g_free(delimiters);
  return rc;
}

/*
 * cmd-report.c: `patterndb report`, what a database makes of a log.
 *
 *   patterndb report -p DB [-f FILE|-] [FILE...] [--no-parse [-P PROGRAM]]
 *                    [--format text|json|html] [-o OUTPUT] [--max-clusters N]
 *
 * Classifies every line (syslog lines split as `match -f` does; with
 * --no-parse each line is a bare message, of PROGRAM if given), then
 * prints the match rate, counts per class and per rule, the rules that
 * never matched and the unknown messages clustered with a proposed
 * pattern each (mining/report.h). Progress goes to stderr for large
 * inputs. Exit status: 0; 1 if the database or an input cannot be read;
 * 2 on bad options.
 */
#include "config.h"
#include "tool/commands.h"
#include "tool/tool-common.h"
#include "tool/syslog-line.h"
#include "db/database.h"
#include "mining/report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PROGRESS_EVERY 100000

typedef struct
{
  PdbDatabase *db;
  PdbReport *report;
  gboolean no_parse;
  const gchar *program;
  gint default_year;
  guint64 lines;
  gboolean progress_tty;
  gboolean progress_shown;
  gboolean quiet;
} ReportRun;

static void
classify(ReportRun *run, gint64 timestamp, const gchar *program, gsize program_length,
         const gchar *message, gsize message_length)
{
  PdbResult result;
  pdb_result_init(&result);
  pdb_database_classify(run->db, program, program_length, message, message_length, &result);
  if (result.kind == PDB_RESULT_MATCH)
    pdb_report_add_match(run->report, timestamp, result.rule->id, result.rule->class_name);
  else
    pdb_report_add_unknown(run->report, timestamp, program, program_length, message, message_length);
  pdb_result_clear(&result);
}

static void
show_progress(ReportRun *run, gboolean final)
{
  if (run->quiet)
    return;
  if (final)
    {
      if (run->progress_shown)
        fprintf(stderr, "%sreport: %" G_GUINT64_FORMAT " lines read, done\n", run->progress_tty ? "\r" : "",
                run->lines);
      return;
    }
  if (run->lines % PROGRESS_EVERY != 0)
    return;
  if (run->progress_tty)
    fprintf(stderr, "\rreport: %" G_GUINT64_FORMAT " lines read", run->lines);
  else
    fprintf(stderr, "report: %" G_GUINT64_FORMAT " lines read\n", run->lines);
  run->progress_shown = TRUE;
}

static void
add_line(const gchar *line, gsize len, gpointer user_data)
{
  ReportRun *run = user_data;

  run->lines++;
  show_progress(run, FALSE);
  gint64 ts = pdb_report_parse_timestamp(line, len, run->default_year);
  if (run->no_parse)
    {
      classify(run, ts, run->program, run->program ? strlen(run->program) : 0, line, len);
      return;
    }
  PdbSyslogLine sl;
  pdb_syslog_line_parse(line, len, &sl);
  if (sl.parse_error || !sl.message.data)
    {
      classify(run, ts, NULL, 0, line, len);
      return;
    }
  classify(run, ts, sl.program.data, sl.program.data ? sl.program.length : 0, sl.message.data, sl.message.length);
}

static gboolean
read_file(ReportRun *run, const gchar *path)
{
  return pdb_tool_read_lines("report", path, add_line, run);
}

static gint
current_year(void)
{
  struct tm tm;
  pdb_tool_now_utc(&tm);
  return tm.tm_year + 1900;
}

static void
register_rules(PdbReport *report, const PdbDatabase *db)
{
  const GPtrArray *rules = pdb_database_get_rules(db);
  for (guint i = 0; i < rules->len; i++)
    {
      const PdbRule *rule = g_ptr_array_index(rules, i);
      const gchar *pattern = rule->n_patterns ? rule->pattern_places[0].text : NULL;
      pdb_report_add_rule(report, rule->id, rule->class_name, pattern);
    }
}

/* What is wrong with the options, naming the option (g_free() it), or NULL. */
static gchar *
bad_options(const gchar *pdb, const gchar *format, gint max_clusters)
{
  if (!pdb)
    return g_strdup("missing -p DB (the pattern database)");
  if (format && strcmp(format, "text") != 0 && strcmp(format, "json") != 0 && strcmp(format, "html") != 0)
    return g_strdup_printf("-F/--format: unknown format '%s' (known: text, json, html)", format);
  if (max_clusters < 0)
    return g_strdup("--max-clusters: must be 0 (all) or more");
  return NULL;
}

int
pdb_cmd_report(int argc, char **argv)
{
  gchar *pdb = NULL, *file = NULL, *program = NULL, *format = NULL, *output = NULL;
  gboolean no_parse = FALSE, quiet = FALSE;
  gint max_clusters = 50;
  GOptionEntry entries[] =
  {
    { "pdb", 'p', 0, G_OPTION_ARG_FILENAME, &pdb, "Pattern database (file, directory or glob)", "<path>" },
    { "file", 'f', 0, G_OPTION_ARG_FILENAME, &file, "Log file, '-' for stdin (default)", "<path>" },
    { "no-parse", 0, 0, G_OPTION_ARG_NONE, &no_parse, "Lines are bare messages, not syslog lines", NULL },
    { "program", 'P', 0, G_OPTION_ARG_STRING, &program, "Program of bare messages (with --no-parse)", "<program>" },
    { "format", 'F', 0, G_OPTION_ARG_STRING, &format, "text (default), json or html", "<format>" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write the report here instead of stdout", "<path>" },
    { "max-clusters", 0, 0, G_OPTION_ARG_INT, &max_clusters, "Unknown clusters listed (default 50, 0 = all)", "<n>" },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "No progress on stderr", NULL },
    { NULL, 0, 0, 0, NULL, NULL, NULL }
  };
  GError *error = NULL;
  int rc = 0;

  gboolean parsed = pdb_tool_command_parse("report", "[FILE...]", NULL, entries, &argc, &argv, &error);
  gchar *problem = parsed ? bad_options(pdb, format, max_clusters) : g_strdup(error->message);
  if (problem)
    {
      fprintf(stderr, "patterndb report: %s\n", problem);
      g_clear_error(&error);
      g_free(problem);
      rc = 2;
      goto out;
    }

  PdbDatabase *db = pdb_database_load(pdb, NULL, &error);
  if (!db)
    {
      fprintf(stderr, "patterndb report: %s\n", error->message);
      g_clear_error(&error);
      rc = 1;
      goto out;
    }

  PdbReportOptions options;
  pdb_report_options_init(&options);
  options.max_clusters = (guint) max_clusters;
  ReportRun run = { db, pdb_report_new(&options), no_parse, program, current_year(), 0,
                    isatty(STDERR_FILENO), FALSE, quiet };
  register_rules(run.report, db);

  if (file && !read_file(&run, file))
    rc = 1;
  for (int i = 1; i < argc && rc == 0; i++)
    if (!read_file(&run, argv[i]))
      rc = 1;
  if (!file && argc < 2 && rc == 0 && !read_file(&run, "-"))
    rc = 1;
  show_progress(&run, TRUE);

  if (rc == 0)
    {
      GString *out = g_string_new(NULL);
      if (format && strcmp(format, "json") == 0)
        pdb_report_write_json(run.report, out);
      else if (format && strcmp(format, "html") == 0)
        pdb_report_write_html(run.report, out);
      else
        pdb_report_write_text(run.report, out);
      if (output)
        {
          if (!g_file_set_contents(output, out->str, out->len, &error))
            {
              fprintf(stderr, "patterndb report: %s\n", error->message);
              g_clear_error(&error);
              rc = 1;
            }
        }
      else
        {
          fwrite(out->str, 1, out->len, stdout);
          if (fflush(stdout) != 0)
            rc = 1;
        }
      g_string_free(out, TRUE);
    }
  pdb_report_free(run.report);
  pdb_database_unref(db);

out:
  g_free(pdb);
  g_free(file);
  g_free(program);
  g_free(format);
  g_free(output);
  return rc;
}

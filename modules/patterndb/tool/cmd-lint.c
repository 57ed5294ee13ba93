/*
 * cmd-lint.c: `patterndb lint -p FILE|DIR [--json]`.
 *
 * Loads the database (a file, a directory or a glob, as every -p), turns
 * the loader's warnings into findings, adds what the lint checks find
 * (modules/patterndb/lint) and prints them sorted by file:line:column,
 * either one line each or, with --json, one JSON object with a findings
 * array for CI systems.
 *
 * Findings of a kind that --ignore names, or that a patterndb-lint marker
 * in the files allows for their rule, ruleset or file (lint/lint.h), are
 * left out and counted as silenced.
 *
 * Exit status (after silencing): 0 no finding, 1 warnings only, 2 at least
 * one error, or a database that does not load, or a bad command line.
 */
#include "tool/commands.h"
#include "tool/tool-common.h"
#include "tool/json.h"
#include "lint/lint.h"
#include "tool/syslog-line.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#define LINT_EXIT_CLEAN 0
#define LINT_EXIT_WARNINGS 1
#define LINT_EXIT_ERRORS 2

static void
collect_warning(const gchar *message, gpointer user_data)
{
  g_ptr_array_add(user_data, pdb_lint_finding_from_warning(message));
}

static const gchar *
severity_name(PdbLintSeverity s)
{
  return s == PDB_LINT_ERROR ? "error" : "warning";
}

static void
print_text(GPtrArray *findings, GString *out)
{
  for (guint i = 0; i < findings->len; i++)
    {
      const PdbLintFinding *f = g_ptr_array_index(findings, i);

      if (f->file)
        g_string_append_printf(out, "%s:%d:%d: ", f->file, f->line, f->column);
      g_string_append_printf(out, "%s: [%s] %s", severity_name(f->severity), f->kind, f->message);
      if (f->witness)
        {
          gchar *escaped = g_strescape(f->witness, NULL);

          g_string_append_printf(out, "; message: '%s'", escaped);
          g_free(escaped);
        }
      g_string_append_c(out, '\n');
    }
}

static void
print_json(GPtrArray *findings, guint errors, guint warnings, guint silenced, GString *out)
{
  g_string_append(out, "{\"findings\":[");
  for (guint i = 0; i < findings->len; i++)
    {
      const PdbLintFinding *f = g_ptr_array_index(findings, i);

      g_string_append(out, i ? ",\n  {" : "\n  {");
      g_string_append_printf(out, "\"severity\":\"%s\",\"kind\":\"%s\",\"file\":",
                             severity_name(f->severity), f->kind);
      if (f->file)
        pdb_json_append_string(out, f->file, -1);
      else
        g_string_append(out, "null");
      g_string_append_printf(out, ",\"line\":%d,\"column\":%d,\"rules\":[", f->line, f->column);
      for (guint r = 0; r < f->rule_ids->len; r++)
        {
          if (r)
            g_string_append_c(out, ',');
          pdb_json_append_string(out, g_ptr_array_index(f->rule_ids, r), -1);
        }
      g_string_append(out, "],\"message\":");
      pdb_json_append_string(out, f->message, -1);
      if (f->witness)
        {
          g_string_append(out, ",\"witness\":");
          pdb_json_append_string(out, f->witness, -1);
        }
      g_string_append_c(out, '}');
    }
  g_string_append_printf(out, "%s],\"errors\":%u,\"warnings\":%u,\"silenced\":%u}\n",
                         findings->len ? "\n" : "", errors, warnings, silenced);
}

/* --log FILE: every syslog line of FILE through the database (lint-log.c). */
static gboolean
lint_log(const PdbDatabase *db, const gchar *path, GPtrArray *findings)
{
  FILE *f = fopen(path, "r");
  PdbLintLog *log;
  gchar *line = NULL;
  gsize size = 0;
  gssize length;

  if (!f)
    {
      fprintf(stderr, "patterndb lint: %s: cannot open the log: %s\n", path, g_strerror(errno));
      return FALSE;
    }
  log = pdb_lint_log_new(db);
  while ((length = getline(&line, &size, f)) >= 0)
    {
      PdbSyslogLine l;
      static const gchar empty[] = "";

      if (length > 0 && line[length - 1] == '\n')
        length--;
      pdb_syslog_line_parse(line, length, &l);
      pdb_lint_log_add(log, l.program.data ? l.program.data : empty, l.program.length,
                       l.message.data ? l.message.data : empty, l.message.length);
    }
  free(line);
  fclose(f);
  pdb_lint_log_check(log, path, findings);
  pdb_lint_log_free(log);
  return TRUE;
}

/* Sorts and prints @findings (text or JSON); the exit status they make. */
static gint
print_findings(GPtrArray *findings, const PdbDatabase *db, gboolean json, guint silenced)
{
  guint errors = 0, warnings = 0;
  GString *out = g_string_new(NULL);
  guint n_files = pdb_database_get_files(db)->len;

  pdb_lint_sort(findings);
  for (guint i = 0; i < findings->len; i++)
    {
      const PdbLintFinding *f = g_ptr_array_index(findings, i);

      if (f->severity == PDB_LINT_ERROR)
        errors++;
      else
        warnings++;
    }
  if (json)
    print_json(findings, errors, warnings, silenced, out);
  else
    {
      print_text(findings, out);
      g_string_append_printf(out, "%u error%s, %u warning%s in %u file%s",
                             errors, errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s",
                             n_files, n_files == 1 ? "" : "s");
      if (silenced)
        g_string_append_printf(out, " (%u silenced)", silenced);
      g_string_append_c(out, '\n');
    }
  fwrite(out->str, 1, out->len, stdout);
  g_string_free(out, TRUE);
  return errors ? LINT_EXIT_ERRORS : warnings ? LINT_EXIT_WARNINGS : LINT_EXIT_CLEAN;
}

int
pdb_cmd_lint(int argc, char **argv)
{
  gchar *pdb_file = NULL;
  gboolean json = FALSE;
  gboolean conflicts = FALSE;
  gchar *log_file = NULL;
  gchar **ignore = NULL;
  GOptionEntry entries[] =
  {
    { "pdb", 'p', 0, G_OPTION_ARG_FILENAME, &pdb_file, "Pattern database: a file, a directory or a glob", "FILE|DIR" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print one JSON object with a findings array", NULL },
    { "conflicts", 0, 0, G_OPTION_ARG_NONE, &conflicts, "Also warn about every other rule that matches an example whole (the rule conflicts of `patterndb test`)", NULL },
    { "log", 'l', 0, G_OPTION_ARG_FILENAME, &log_file, "Also classify the syslog lines of FILE and warn about rules that matched none (never-matched) or matched lines whole but always lost to another rule (shadowed-in-practice)", "FILE" },
    { "ignore", 0, 0, G_OPTION_ARG_STRING_ARRAY, &ignore, "Leave out findings of these kinds (comma-separated, may be repeated); in the files: <!-- patterndb-lint: allow KIND -->", "KIND,..." },
    { NULL }
  };
  PdbLoadOptions options = { 0 };
  GPtrArray *findings;
  GError *error = NULL;
  PdbDatabase *db;
  guint silenced;
  gint rc;
  PdbLintAllow *allow;

  if (!pdb_tool_parse_options(&argc, &argv, "lint",
                              "Find problems in a pattern database: rules that can never win, "
                              "load-order-dependent rules, duplicate ids, bad examples, "
                              "parsers that cannot match what follows.",
                              "Each finding: FILE:LINE:COLUMN: error|warning: [kind] explanation.\n"
                              "Exit status: 0 clean, 1 warnings only, 2 errors (or the database "
                              "does not load).", entries))
    return PDB_TOOL_EXIT_USAGE;
  if (argc > 1)
    {
      fprintf(stderr, "patterndb lint: unexpected argument '%s'\n", argv[1]);
      g_free(pdb_file);
      return PDB_TOOL_EXIT_USAGE;
    }
  allow = pdb_lint_allow_new();
  for (guint i = 0; ignore && ignore[i]; i++)
    if (!pdb_lint_allow_ignore(allow, ignore[i], &error))
      {
        fprintf(stderr, "patterndb lint: %s\n", error->message);
        g_error_free(error);
        g_strfreev(ignore);
        pdb_lint_allow_free(allow);
        g_free(pdb_file);
        return PDB_TOOL_EXIT_USAGE;
      }
  g_strfreev(ignore);
  if (!pdb_file)
    pdb_file = g_strdup(PDB_TOOL_DEFAULT_PDB);

  findings = g_ptr_array_new_with_free_func((GDestroyNotify) pdb_lint_finding_free);
  options.warning = collect_warning;
  options.warning_data = findings;
  db = pdb_database_load(pdb_file, &options, &error);
  if (!db)
    {
      fprintf(stderr, "patterndb lint: %s\n", error->message);
      g_error_free(error);
      g_ptr_array_unref(findings);
      pdb_lint_allow_free(allow);
      g_free(pdb_file);
      g_free(log_file);
      return LINT_EXIT_ERRORS;
    }
  pdb_lint_database_conflicts(db, conflicts, findings);
  if (log_file && !lint_log(db, log_file, findings))
    {
      g_ptr_array_unref(findings);
      pdb_database_unref(db);
      pdb_lint_allow_free(allow);
      g_free(pdb_file);
      g_free(log_file);
      return PDB_TOOL_EXIT_USAGE;
    }
  pdb_lint_allow_read_markers(allow, db, findings);
  silenced = pdb_lint_allow_filter(allow, db, findings);
  pdb_lint_allow_free(allow);
  rc = print_findings(findings, db, json, silenced);
  g_ptr_array_unref(findings);
  pdb_database_unref(db);
  g_free(pdb_file);
  g_free(log_file);
  return rc;
}

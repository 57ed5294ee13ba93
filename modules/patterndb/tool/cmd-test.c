/*
 * cmd-test.c: `patterndb test`, pdbtool's test subcommand.
 *
 * For every <example> of every rule: classify the test message with its
 * program, report rule conflicts (every pattern that matches the whole
 * message, one line each; a failure only with --strict),
 * a wrong .classifier.rule_id and wrong <test_value>s (an unset value
 * compares as ''), in pdbtool's words and order (3.38 walks the examples
 * of a file from the last to the first). A directory argument tests each
 * file in it on its own and ends with a summary table per file.
 *
 * Exit status: 0 all good, 1 a file cannot be loaded or validated,
 * 2 a mismatch, 3 the -r rule does not exist or has no example; 2 for
 * command-line errors, where pdbtool's codes do not apply.
 */
#include "tool/commands.h"
#include "tool/tool-common.h"
#include "tool/message.h"

#include <string.h>
#include <glib/gstdio.h>
#include <unistd.h>

#define TEST_EXIT_LOAD 1
#define TEST_EXIT_MISMATCH 2
#define TEST_EXIT_NO_EXAMPLE 3

typedef struct
{
  gboolean validate;
  gchar *rule_id;
  gboolean verbose;
  gboolean debug;
  gboolean strict;          /* --strict: a conflict between two rules fails the example */
  gboolean color;
} TestOptions;

typedef struct
{
  const gchar *file;
  guint examples;
  guint passed;
  guint failed;
  guint skipped;
  gboolean load_failed;
} FileSummary;

typedef struct
{
  GPtrArray *ids;
} ConflictCollector;

static void
collect_conflict(gpointer value, gpointer user_data)
{
  ConflictCollector *c = user_data;

  /* once per matching pattern, as pdbtool: a rule two of whose patterns
   * match is listed twice */
  g_ptr_array_add(c->ids, value);
}

static gboolean
check_value(const gchar *name, const gchar *actual, gssize actual_len, const gchar *expected,
            gboolean verbose)
{
  gboolean ok = strlen(expected) == (gsize) actual_len && memcmp(actual, expected, actual_len) == 0;

  if (!ok || verbose)
    printf(" %s name='%s', value='%.*s', expected='%s'\n", ok ? "Match" : "Wrong match",
           name, (int) actual_len, actual, expected);
  return ok;
}

/* Runs one example; returns TRUE when everything matched. */
static gboolean
run_example(const PdbDatabase *db, const PdbRule *rule, const PdbExample *ex,
            PdbToolMessage *msg, const TestOptions *opt)
{
  const gchar *program = ex->program;
  const gchar *message = ex->message ? ex->message : "";
  gsize plen = strlen(program), mlen = strlen(message);
  PdbResult result;
  gboolean ok = TRUE;
  const gchar *v;
  gssize vlen = 0;

  printf("Testing message: program='%s' message='%s'\n", program, message);

  /* conflicts: every rule whose pattern matches the whole message */
  const PdbRuleset *rs = pdb_database_find_ruleset(db, program, plen);
  if (rs && rs->messages)
    {
      ConflictCollector c = { g_ptr_array_new() };

      pdb_radix_foreach_complete_match(rs->messages, message, mlen, collect_conflict, &c);
      if (c.ids->len > 1)
        {
          gboolean distinct = FALSE;

          printf(" Rule conflict! Multiple rules match this message, list of IDs follow\n");
          for (guint i = 0; i < c.ids->len; i++)
            {
              printf("  %s\n", ((const PdbRule *) g_ptr_array_index(c.ids, i))->id);
              distinct = distinct || g_ptr_array_index(c.ids, i) != g_ptr_array_index(c.ids, 0);
            }
          /* pdbtool reports conflicts and passes; --strict fails on two rules */
          if (opt->strict && distinct)
            ok = FALSE;
        }
      g_ptr_array_free(c.ids, TRUE);
    }

  pdb_tool_message_reset(msg);
  pdb_tool_message_set(msg, "MESSAGE", -1, message, mlen, PDB_VALUE_STRING);
  if (plen)
    pdb_tool_message_set(msg, "PROGRAM", -1, program, plen, PDB_VALUE_STRING);
  pdb_result_init(&result);
  pdb_database_classify(db, program, plen, message, mlen, &result);
  pdb_result_apply(&result, program, message, &pdb_tool_message_ops, msg);

  v = pdb_tool_message_get(msg, ".classifier.rule_id", &vlen);
  if (!check_value(".classifier.rule_id", v ? v : "", v ? vlen : 0, rule->id, opt->verbose))
    {
      ok = FALSE;
      if (opt->debug)
        {
          PdbMatch match;
          PdbTrace trace;

          if (rs && rs->messages)
            {
              pdb_match_init(&match);
              pdb_trace_init(&trace);
              pdb_radix_lookup_traced(rs->messages, message, mlen, &match, &trace);
              printf(" Debug: matching stopped at column %u: '%.*s' | '%s'\n",
                     (guint) MIN(trace.furthest_offset, mlen) + 1, (int) MIN(trace.furthest_offset, mlen),
                     message, message + MIN(trace.furthest_offset, mlen));
              pdb_trace_clear(&trace);
              pdb_match_clear(&match);
            }
          else
            printf(" Debug: no ruleset selects program '%s'\n", program);
        }
    }
  for (guint i = 0; ex->test_values && i < ex->test_values->len; i++)
    {
      const PdbTestValue *tv = g_ptr_array_index(ex->test_values, i);

      v = pdb_tool_message_get(msg, tv->name, &vlen);
      if (!check_value(tv->name, v ? v : "", v ? vlen : 0, tv->value ? tv->value : "", opt->verbose))
        ok = FALSE;
    }
  pdb_result_clear(&result);
  return ok;
}

/* Tests one file (or database); fills @summary; returns the exit code. */
static gint
test_database(const gchar *path, const TestOptions *opt, FileSummary *summary)
{
  PdbDatabase *db;
  PdbToolMessage *msg;
  const GPtrArray *rules;
  gboolean found_rule = FALSE;
  gint rc = 0;
  GPtrArray *order;

  summary->file = path;
  if (g_access(path, R_OK) != 0)
    {
      fprintf(stderr, "%s: Unable to access the patterndb file\n", path);
      summary->load_failed = TRUE;
      return TEST_EXIT_LOAD;
    }
  db = pdb_tool_load_database(path, opt->validate);
  if (!db)
    {
      summary->load_failed = TRUE;
      return TEST_EXIT_LOAD;
    }
  msg = pdb_tool_message_new();
  pdb_tool_message_register_database(msg, db);
  rules = pdb_database_get_rules(db);

  /* 3.38 collects (rule, example) pairs by prepending: last one first */
  order = g_ptr_array_new();
  for (guint r = 0; r < rules->len; r++)
    {
      const PdbRule *rule = g_ptr_array_index(rules, r);

      for (guint e = 0; rule->examples && e < rule->examples->len; e++)
        {
          g_ptr_array_add(order, (gpointer) rule);
          g_ptr_array_add(order, g_ptr_array_index(rule->examples, e));
        }
    }
  for (gint i = (gint) order->len - 2; i >= 0; i -= 2)
    {
      const PdbRule *rule = g_ptr_array_index(order, i);
      const PdbExample *ex = g_ptr_array_index(order, i + 1);

      /* as pdbtool: an example needs both; one without either is skipped silently */
      if (!ex->program || !ex->message)
        {
          if (ex->message)
            printf("NOT Testing message as program is unset: message='%s'\n", ex->message);
          else if (ex->program)
            printf("NOT Testing message as message is unset: program='%s'\n", ex->program);
          summary->skipped++;
          continue;
        }
      if (opt->rule_id && strcmp(opt->rule_id, rule->id) != 0)
        continue;
      found_rule = TRUE;
      summary->examples++;
      if (run_example(db, rule, ex, msg, opt))
        summary->passed++;
      else
        {
          summary->failed++;
          rc = TEST_EXIT_MISMATCH;
        }
    }
  if (opt->rule_id && !found_rule)
    {
      printf("Could not find the specified ID, or the defined rule doesn't have an example message.\n");
      rc = TEST_EXIT_NO_EXAMPLE;
    }
  g_ptr_array_free(order, TRUE);
  pdb_tool_message_free(msg);
  pdb_database_unref(db);
  return rc;
}

static gint
compare_paths(gconstpointer a, gconstpointer b)
{
  return strcmp(*(const gchar *const *) a, *(const gchar *const *) b);
}

static void
collect_files(const gchar *dir, GPtrArray *files)
{
  GDir *d = g_dir_open(dir, 0, NULL);
  const gchar *name;

  if (!d)
    return;
  while ((name = g_dir_read_name(d)))
    {
      gchar *full;

      if (name[0] == '.')
        continue;
      full = g_build_filename(dir, name, NULL);
      if (g_file_test(full, G_FILE_TEST_IS_DIR))
        {
          collect_files(full, files);
          g_free(full);
        }
      else if (g_str_has_suffix(name, ".xml") || g_str_has_suffix(name, ".pdb"))
        g_ptr_array_add(files, full);
      else
        g_free(full);
    }
  g_dir_close(d);
}

static void
print_summary(GArray *summaries)
{
  gsize width = 4;
  guint te = 0, tp = 0, tf = 0, ts = 0;

  for (guint i = 0; i < summaries->len; i++)
    width = MAX(width, strlen(g_array_index(summaries, FileSummary, i).file));
  printf("\nSummary:\n%-*s %8s %8s %8s %8s  %s\n", (int) width, "file", "examples", "passed",
         "failed", "skipped", "status");
  for (guint i = 0; i < summaries->len; i++)
    {
      const FileSummary *s = &g_array_index(summaries, FileSummary, i);

      printf("%-*s %8u %8u %8u %8u  %s\n", (int) width, s->file, s->examples, s->passed,
             s->failed, s->skipped, s->load_failed ? "LOAD ERROR" : s->failed ? "FAIL" : "ok");
      te += s->examples;
      tp += s->passed;
      tf += s->failed;
      ts += s->skipped;
    }
  printf("%-*s %8u %8u %8u %8u\n", (int) width, "total", te, tp, tf, ts);
}

static const gchar test_description[] =
  "Tests every <example> of the given pattern database files (a directory: every\n"
  "*.xml and *.pdb file below it, each on its own, followed by a summary table).\n"
  "--validate checks each file against the XSD of its version in-process.\n"
  "\n"
  "Rule conflicts (several rules, or several patterns of one rule, match an\n"
  "example whole) are listed once per matching pattern and, as with pdbtool,\n"
  "do not fail the test; --strict makes a conflict between two rules a failure.\n"
  "\n"
  "Exit status: 0 success, 1 a file cannot be loaded or validated, 2 a test\n"
  "failed (wrong rule, wrong value, or with --strict a rule conflict), 3 the -r\n"
  "rule does not exist or has no example; 2 also for command-line errors.\n";

/* The worst of two exit codes, in pdbtool's precedence (load > no-example > mismatch). */
static gint
combine(gint a, gint b)
{
  static const gint rank[] = { 0, 3, 1, 2 };   /* index = exit code */

  return rank[b] > rank[a] ? b : a;
}

int
pdb_cmd_test(int argc, char **argv)
{
  TestOptions opt = { 0 };
  gchar **pdb_files = NULL;
  GOptionEntry entries[] =
  {
    { "pdb", 'p', 0, G_OPTION_ARG_FILENAME_ARRAY, &pdb_files, "A pattern database file or directory to test (may be repeated; same as a positional argument)", "<file|dir>" },
    { "validate", 0, 0, G_OPTION_ARG_NONE, &opt.validate, "Validate the pattern database XML against its version's XSD (in-process)", NULL },
    { "rule-id", 'r', 0, G_OPTION_ARG_STRING, &opt.rule_id, "Rule ID of the patterndb rule to be tested against its example", "<id>" },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &opt.verbose, "Also print the values that matched", NULL },
    { "debug", 'D', 0, G_OPTION_ARG_NONE, &opt.debug, "For a wrong rule, print where matching stopped", NULL },
    { "strict", 0, 0, G_OPTION_ARG_NONE, &opt.strict, "Also fail (exit 2) when two rules match an example whole (pdbtool only reports that)", NULL },
    { "color-out", 'c', 0, G_OPTION_ARG_NONE, &opt.color, "Accepted for pdbtool compatibility (output is never colored)", NULL },
    { NULL }
  };
  GArray *summaries;
  gint rc = 0;

  if (!pdb_tool_parse_options(&argc, &argv, "test [FILE|DIR...]",
                              "Test pattern databases against their examples", test_description, entries))
    {
      g_free(opt.rule_id);
      g_strfreev(pdb_files);
      return PDB_TOOL_EXIT_USAGE;
    }
  summaries = g_array_new(FALSE, TRUE, sizeof(FileSummary));
  GPtrArray *targets = g_ptr_array_new();
  for (gchar **p = pdb_files; p && *p; p++)
    g_ptr_array_add(targets, *p);
  for (int i = 1; i < argc; i++)
    g_ptr_array_add(targets, argv[i]);
  for (guint t = 0; t < targets->len; t++)
    {
      const gchar *target = g_ptr_array_index(targets, t);

      if (g_file_test(target, G_FILE_TEST_IS_DIR))
        {
          GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
          GArray *dir_summaries = g_array_new(FALSE, TRUE, sizeof(FileSummary));

          collect_files(target, files);
          g_ptr_array_sort(files, compare_paths);
          for (guint f = 0; f < files->len; f++)
            {
              FileSummary s = { 0 };

              printf("Testing file: %s\n", (const gchar *) g_ptr_array_index(files, f));
              fflush(stdout);

              rc = combine(rc, test_database(g_ptr_array_index(files, f), &opt, &s));
              g_array_append_val(dir_summaries, s);
            }
          if (files->len == 0)
            fprintf(stderr, "%s: no *.xml or *.pdb file in this directory\n", target);
          else
            print_summary(dir_summaries);
          g_array_free(dir_summaries, TRUE);
          g_ptr_array_free(files, TRUE);
        }
      else
        {
          FileSummary s = { 0 };

          rc = combine(rc, test_database(target, &opt, &s));
          g_array_append_val(summaries, s);
        }
    }
  g_ptr_array_free(targets, TRUE);
  g_strfreev(pdb_files);
  g_array_free(summaries, TRUE);
  g_free(opt.rule_id);
  return rc;
}

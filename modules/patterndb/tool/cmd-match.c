/*
 * cmd-match.c: `patterndb match`, pdbtool's match subcommand.
 *
 * One message (-P/-M) or a stream of syslog lines (-f FILE, `-` = stdin)
 * is classified and printed as pdbtool prints it: NAME=value lines, TAGS=
 * and a blank line, or a -T template, optionally only when a -F filter
 * matches. Additions: --json, --explain, --version.
 *
 * Invariant for -f: memory stays constant whatever the input size. The
 * input is read in blocks of bounded size (line-reader.h), the message
 * store and the result are reused, and output is collected in one buffer
 * written with fwrite() every 64 KiB. Nothing is allocated per line once
 * the first lines have sized the buffers.
 *
 * A regular file is classified on one worker thread per CPU (--threads,
 * match-parallel.h), each with a Matcher of its own, and the output is
 * written in input order: byte for byte what one thread prints. Only
 * correlation (contexts, actions), whose clock and state follow the
 * stream, keeps everything on the main thread.
 *
 * The date macros, the debug output and correlation live in match-dates.c,
 * match-debug.c and match-corr.c; match.h holds the Matcher they share.
 */
#include "tool/match.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define OUTPUT_FLUSH_BYTES (64 * 1024)

/* ---- one message ---- */

/* --stats: a line's classification, counted now, or by a worker once its
 * output is kept (commit_line) */
static void
count_line(Matcher *m, const PdbRule *rule, const gchar *program, gsize program_length)
{
  if (!m->defer_stats)
    {
      pdb_match_stats_add(m->stats, rule, program, program_length);
      return;
    }
  m->pending = TRUE;
  m->pending_rule = rule;
  g_string_truncate(m->pending_program, 0);
  g_string_append_len(m->pending_program, program, program_length);
}

static void
commit_line(Matcher *m)
{
  if (m->pending)
    pdb_match_stats_add(m->stats, m->pending_rule, m->pending_program->str, m->pending_program->len);
  m->pending = FALSE;
}

static void
process(Matcher *m, const gchar *program, gsize program_length,
        const gchar *message, gsize message_length, gint64 stamp)
{
  pdb_database_classify(m->db, program, program_length, message, message_length, &m->result);
  if (m->stats)
    count_line(m, m->result.kind == PDB_RESULT_MATCH ? m->result.rule : NULL, program, program_length);
  pdb_result_apply(&m->result, program, message, &pdb_tool_message_ops, m->msg);
  if (m->corr)
    pdb_match_correlate(m, stamp);
  pdb_match_print_message(m, program, program_length, message, message_length, FALSE);
  if (m->corr)
    pdb_match_print_synthetic(m);
}

void
pdb_match_print_message(Matcher *m, const gchar *program, gsize program_length,
              const gchar *message, gsize message_length, gboolean synthetic)
{
  const gchar *rule_id;
  PdbFilterSubject subject = { pdb_match_template_lookup, pdb_match_store_has_tag, m, pdb_match_store_matches };

  if (m->stats)
    return;   /* --stats: counted in process(), printed at the end */
  if (!m->filter || pdb_filter_expr_eval(m->filter, &subject))
    {
      /* as pdbtool: the last message printed decides the exit code */
      rule_id = pdb_tool_message_get(m->msg, ".classifier.rule_id", NULL);
      if (!synthetic)   /* 3.38: generated messages do not count */
        m->exit_code = rule_id ? 0 : 1;
      if (m->opt->json)
        {
          pdb_tool_message_format_json(m->msg, m->out);
          g_string_append_c(m->out, '\n');
        }
      else if (m->tmpl && !m->opt->debug_pattern)   /* pdbtool: -D wins over -T */
        pdb_template_append(m->tmpl, pdb_match_template_lookup, m, m->out);
      else
        {
          if (m->opt->debug_pattern && !synthetic)
            pdb_match_print_debug_pattern(m, message, message_length);
          pdb_tool_message_format_values(m->msg, m->out);
          g_string_append_c(m->out, '\n');
        }
      if (m->opt->explain && !synthetic)
        pdb_match_print_explanation(m, program, program_length, message, message_length);
    }
}

/*
 * The time of a line for the correlation clock, in seconds: its header
 * date (date-macros.c: an ISO 8601 stamp with its offset, or a BSD stamp
 * in local time with 3.38's year guess), @now when it has none. Kept as
 * the stamp of the date macros too, so a line's date is read once.
 */
static gint64
line_stamp(Matcher *m)
{
  if (!pdb_tool_time_from_stamp(m->stamp_text, m->now, &m->stamp_time))
    return m->now;
  m->have_stamp = TRUE;
  return m->stamp_time.sec;
}

/* The message store numbers names in the order 3.38 meets them while it
 * loads the database (the database's name registry, filled by the loader);
 * the direct path does it only when a line first needs the store (before
 * any name of that line is set). */
static void
ensure_registered(Matcher *m)
{
  if (m->registered)
    return;
  pdb_tool_message_register_filter(m->msg, m->filter);
  pdb_tool_message_register_database(m->msg, m->db);
  m->registered = TRUE;
  /* the store answers date macros only when a <value> asks for one */
  GString *probe = g_string_new(NULL);

  if (pdb_match_values_use_dates(m->db, probe))
    pdb_tool_message_set_macro_func(m->msg, pdb_match_store_date_lookup, m);
  g_string_free(probe, TRUE);
}

static void
process_line(Matcher *m, const gchar *line, gsize length)
{
  PdbSyslogLine l;
  static const gchar empty[] = "";

  if (m->direct && pdb_match_direct_line(m->direct, line, length, m->out))
    return;
  ensure_registered(m);
  pdb_syslog_line_parse(line, length, &l);
  pdb_match_dates_reset(m, l.stamp);
  gint64 stamp = m->corr ? line_stamp(m) : 0;

  pdb_match_release_timeouts(m, stamp);
  pdb_tool_message_reset(m->msg);
  m->pri = l.pri;
  pdb_tool_message_set_pri(m->msg, m->pri);
  if (l.parse_error)
    {
      pdb_match_set_error_record(m, line, length, &l);
      process(m, "syslog-ng", 9, m->error_text->str, m->error_text->len, stamp);
      return;
    }
  pdb_match_set_header(m, &l);
  process(m, l.program.data ? l.program.data : empty, l.program.length,
          l.message.data ? l.message.data : empty, l.message.length, stamp);
}

static void
process_line_and_flush(const gchar *line, gsize length, gpointer user_data)
{
  Matcher *m = user_data;

  process_line(m, line, length);
  pdb_tool_flush(m->out, stdout, OUTPUT_FLUSH_BYTES);
}

/* ---- several threads (match-parallel.h) ---- */

static gboolean matcher_start(Matcher *m, MatchOptions *opt, PdbDatabase *db, const PdbTemplate *tmpl,
                              const gchar *template_text);
static void matcher_finish(Matcher *m);

/* A line a worker refused, in its place in the output, by the main thread's
 * Matcher; the names and tags it numbered are published for the workers. */
static void
main_refused(gpointer data, const gchar *line, gsize length)
{
  Matcher *m = data;
  PdbToolMessageMark before = pdb_tool_message_mark(m->msg);
  PdbToolMessageMark after;

  process_line(m, line, length);
  after = pdb_tool_message_mark(m->msg);
  if (!m->numbering || pdb_tool_message_marks_equal(before, after))
    return;
  g_mutex_lock(&m->numbering->lock);
  for (guint h = before.names + 1; h <= after.names; h++)
    g_ptr_array_add(m->numbering->names, g_strdup(pdb_tool_message_name(m->msg, h)));
  for (guint id = before.tags + 1; id <= after.tags; id++)
    g_ptr_array_add(m->numbering->tags, g_strdup(pdb_tool_message_tag_name(m->msg, id)));
  g_mutex_unlock(&m->numbering->lock);
}

static void
main_status(gpointer data, gint status)
{
  Matcher *m = data;

  m->exit_code = status;
}

/* Bulk classification: a PdbMatchDirect per worker. */
static gpointer
direct_worker_new(gpointer data)
{
  Matcher *m = data;
  PdbMatchDirect *direct = pdb_match_direct_new(m->db, m->tmpl, m->template_text);

  g_assert(direct);   /* the main thread's own was accepted: the check is deterministic */
  return direct;
}

static void
direct_worker_free(gpointer worker)
{
  pdb_match_direct_free(worker);
}

static gint
direct_worker_line(gpointer worker, const gchar *line, gsize length, GString *out)
{
  return pdb_match_direct_line(worker, line, length, out) ? PDB_MATCH_LINE_SILENT : PDB_MATCH_LINE_REFUSED;
}

/* Everything else: a whole Matcher per worker (its own store, filter and
 * scratch buffers; the database and the template are shared, read only). */
static gpointer
general_worker_new(gpointer data)
{
  Matcher *main_matcher = data;
  Matcher *w = g_new0(Matcher, 1);

  /* the main thread compiled the same filter text: this cannot fail */
  if (!matcher_start(w, main_matcher->opt, main_matcher->db, main_matcher->tmpl, main_matcher->template_text))
    g_assert_not_reached();
  w->now = main_matcher->now;
  w->numbering = main_matcher->numbering;
  w->stats = main_matcher->stats;
  w->defer_stats = TRUE;
  return w;
}

/* Numbers what the main thread numbered since the last block, in its order. */
static void
general_worker_block_begin(gpointer worker)
{
  Matcher *w = worker;
  Numbering *numbering = w->numbering;

  ensure_registered(w);
  g_mutex_lock(&numbering->lock);
  for (; w->synced_names < numbering->names->len; w->synced_names++)
    pdb_tool_message_register_name(w->msg, g_ptr_array_index(numbering->names, w->synced_names), -1);
  for (; w->synced_tags < numbering->tags->len; w->synced_tags++)
    pdb_tool_message_register_tag(w->msg, g_ptr_array_index(numbering->tags, w->synced_tags));
  g_mutex_unlock(&numbering->lock);
}

static void
general_worker_free(gpointer worker)
{
  matcher_finish(worker);
  g_free(worker);
}

/*
 * One line on a worker. The store numbers names and tags in the order the
 * stream meets them, and prints values in that order. A worker's store is
 * numbered as a prefix of the main thread's (the database's names, then
 * what the main thread published, in its order), so any line that uses
 * only names it has prints exactly what the main thread would. A line
 * that meets a name the worker has no number for (the .SDATA.* of an RFC
 * 5424 line, say) is refused and its numbers forgotten: the main thread,
 * which sees every such line in input order, numbers the name as one
 * thread would, and the workers take it over at their next block.
 */
static gint
general_worker_line(gpointer worker, const gchar *line, gsize length, GString *out)
{
  Matcher *w = worker;
  gsize out_length = out->len;
  PdbToolMessageMark before;

  w->out = out;
  before = pdb_tool_message_mark(w->msg);
  w->exit_code = -1;
  process_line(w, line, length);
  if (!pdb_tool_message_marks_equal(before, pdb_tool_message_mark(w->msg)))
    {
      pdb_tool_message_forget_after(w->msg, before);
      g_string_truncate(out, out_length);
      w->pending = FALSE;   /* the main thread redoes and counts it */
      return PDB_MATCH_LINE_REFUSED;
    }
  commit_line(w);
  return w->exit_code >= 0 ? w->exit_code : PDB_MATCH_LINE_SILENT;
}

/*
 * Reads @fd to the end and hands every message (line-reader.h: as
 * pdbtool's reader cuts them) to process_line(). A regular file runs on
 * --threads workers unless the database correlates. Everything else runs
 * on this thread, block by block as the input arrives; from a pipe or a
 * terminal (`tail -f log | patterndb match -f -`) the output of each block
 * is written before the next read, which may wait for more input, so
 * results come out as their lines come in. (The workers want whole blocks
 * of 256 KiB, which a slow pipe would hold back.)
 */
/* TRUE when the -T template or a rule's <value> keeps a state from one
 * message to the next ($(iterate)): its results follow the order of the
 * input, so such a run stays on one thread. */
static gboolean
value_is_stateful(const PdbValueDef *value, gpointer data G_GNUC_UNUSED)
{
  return pdb_template_is_stateful(value->compiled);
}

static gboolean
templates_keep_state(const Matcher *m)
{
  if (m->tmpl && pdb_template_is_stateful(m->tmpl))
    return TRUE;
  return pdb_database_find_value(m->db, value_is_stateful, NULL) != NULL;
}

static gboolean
process_stream(Matcher *m, int fd, const gchar *name)
{
  PdbLineReader *reader = pdb_line_reader_new(fd, name);
  struct stat st;
  gboolean regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  gboolean ok;

  if (m->opt->threads > 1 && regular && !m->corr && !templates_keep_state(m))
    {
      Numbering numbering = { .names = g_ptr_array_new_with_free_func(g_free),
                              .tags = g_ptr_array_new_with_free_func(g_free) };
      PdbMatchWorkers ops =
      {
        .worker_new = m->direct ? direct_worker_new : general_worker_new,
        .worker_free = m->direct ? direct_worker_free : general_worker_free,
        .block_begin = m->direct ? NULL : general_worker_block_begin,
        .line = m->direct ? direct_worker_line : general_worker_line,
        .refused = main_refused,
        .status = main_status,
        .data = m,
      };

      g_mutex_init(&numbering.lock);
      if (!m->direct)
        m->numbering = &numbering;
      ok = pdb_match_parallel(&ops, reader, (guint) m->opt->threads,
                              m->opt->block_size > 0 ? (gsize) m->opt->block_size : PDB_MATCH_PARALLEL_BLOCK,
                              m->out, stdout, OUTPUT_FLUSH_BYTES);
      m->numbering = NULL;
      g_mutex_clear(&numbering.lock);
      g_ptr_array_free(numbering.names, TRUE);
      g_ptr_array_free(numbering.tags, TRUE);
    }
  else
    {
      GString *block = g_string_sized_new(PDB_LINE_READ_CHUNK);

      while (pdb_line_reader_next(reader, block, 0))
        {
          pdb_lines_foreach(block->str, block->len, process_line_and_flush, m);
          if (!regular)
            {
              pdb_tool_flush(m->out, stdout, 0);
              fflush(stdout);
            }
        }
      g_string_free(block, TRUE);
      ok = !pdb_line_reader_failed(reader);
    }
  pdb_line_reader_free(reader);
  return ok;
}

/*
 * Sets up @m for @db and the options: its own message store, filter (from
 * opt->filter_text; FALSE with the error on stderr when it does not
 * compile) and buffers. @tmpl (may be NULL) and @template_text are shared.
 * No output buffer: the caller gives one. matcher_finish() frees what this
 * made, even after a failure.
 */
static gboolean
matcher_start(Matcher *m, MatchOptions *opt, PdbDatabase *db, const PdbTemplate *tmpl,
              const gchar *template_text)
{
  m->opt = opt;
  m->db = db;
  m->tmpl = tmpl;
  m->template_text = template_text;
  m->msg = pdb_tool_message_new();
  pdb_result_init(&m->result);
  m->scratch = g_string_new(NULL);
  m->scratch2 = g_string_new(NULL);
  m->error_text = g_string_new(NULL);
  m->date_text = g_string_new(NULL);
  m->sd_name = g_string_new(NULL);
  m->sd_value = g_string_new(NULL);
  m->synthetic = g_ptr_array_new_with_free_func((GDestroyNotify) pdb_nv_message_unref);
  m->pending_program = g_string_new(NULL);
  g_snprintf(m->pid_text, sizeof(m->pid_text), "%d", (int) getpid());
  m->pri = 13;
  m->now = (gint64) time(NULL);
  if (tmpl)
    {
      GString *probe = g_string_new(NULL);

      m->tmpl_dates = pdb_match_template_uses_dates(tmpl, probe);
      g_string_free(probe, TRUE);
    }
  if (opt->filter_text)
    {
      GError *error = NULL;

      m->filter = pdb_filter_expr_compile(opt->filter_text, &error);
      if (!m->filter)
        {
          fprintf(stderr, "Error parsing filter expression: %s\n", error->message);
          g_error_free(error);
          return FALSE;
        }
    }
  return TRUE;
}

static void
matcher_finish(Matcher *m)
{
  pdb_match_direct_free(m->direct);
  pdb_filter_expr_free(m->filter);
  /* before the database: contexts keep references to it */
  pdb_correlation_free(m->corr);
  if (m->synthetic)
    g_ptr_array_free(m->synthetic, TRUE);
  if (m->msg)
    {
      pdb_result_clear(&m->result);
      pdb_tool_message_free(m->msg);
    }
  if (m->scratch)
    {
      g_string_free(m->scratch, TRUE);
      g_string_free(m->scratch2, TRUE);
      g_string_free(m->error_text, TRUE);
      g_string_free(m->date_text, TRUE);
      g_string_free(m->sd_name, TRUE);
      g_string_free(m->sd_value, TRUE);
    }
  if (m->pending_program)
    g_string_free(m->pending_program, TRUE);
}

/* the loaded database, kept until the process exits (see pdb_cmd_match) */
static PdbDatabase *volatile resident_db;

/* Matches -f's lines or -M's message and prints everything; the exit status. */
static gint
match_input(Matcher *m, MatchOptions *opt)
{
  gint rc = 0;

  if (opt->file)
    {
      int fd = strcmp(opt->file, "-") == 0 ? 0 : open(opt->file, O_RDONLY);

      if (fd < 0)
        {
          fprintf(stderr, "Error opening input file; filename='%s', error='%s'\n", opt->file, g_strerror(errno));
          rc = PDB_TOOL_EXIT_USAGE;
        }
      else
        {
          if (!process_stream(m, fd, opt->file))
            rc = PDB_TOOL_EXIT_USAGE;
          if (fd != 0)
            close(fd);
        }
    }
  else
    {
      const gchar *program = opt->program ? opt->program : "";

      ensure_registered(m);
      pdb_match_dates_reset(m, (PdbSlice) { NULL, 0 });
      pdb_tool_message_reset(m->msg);
      pdb_tool_message_set(m->msg, "MESSAGE", -1, opt->message, -1, PDB_VALUE_STRING);
      if (program[0])
        pdb_tool_message_set(m->msg, "PROGRAM", -1, program, -1, PDB_VALUE_STRING);
      process(m, program, strlen(program), opt->message, strlen(opt->message), m->now);
    }
  /* as pdbtool: every context expires at the end of the input */
  if (m->corr)
    {
      pdb_correlation_expire_all(m->corr, pdb_match_collect_synthetic, m);
      pdb_match_print_synthetic(m);
    }
  if (m->stats && rc == 0)
    {
      if (strcmp(opt->stats, "json") == 0)
        pdb_match_stats_write_json(m->stats, m->out);
      else
        pdb_match_stats_write_text(m->stats, m->out);
    }
  pdb_tool_flush(m->out, stdout, 0);
  fflush(stdout);
  if (rc == 0 && !m->tmpl && !opt->json && !m->stats)
    rc = m->exit_code;
  return rc;
}

int
pdb_cmd_match(int argc, char **argv)
{
  MatchOptions opt = { 0 };
  Matcher m = { 0 };
  gboolean started = FALSE;      /* matcher_start() was called: matcher_finish() must be */
  PdbTemplate *tmpl = NULL;      /* -T compiled; shared by every thread's Matcher */
  gchar *template_text = NULL;   /* -T unescaped */
  GOptionEntry entries[] =
  {
    { "pdb", 'p', 0, G_OPTION_ARG_FILENAME, &opt.pdb, "Name of the patterndb file (default " PDB_TOOL_DEFAULT_PDB "); a directory or glob loads every file in it", "<patterndb_file>" },
    { "program", 'P', 0, G_OPTION_ARG_STRING, &opt.program, "Program name to match as $PROGRAM", "<program>" },
    { "message", 'M', 0, G_OPTION_ARG_STRING, &opt.message, "Message to match as $MSG", "<message>" },
    { "debug-pattern", 'D', 0, G_OPTION_ARG_NONE, &opt.debug_pattern, "Print debugging information on pattern matching", NULL },
    { "debug-csv", 'C', 0, G_OPTION_ARG_NONE, &opt.debug_csv, "Output debugging information in parseable format", NULL },
    { "color-out", 'c', 0, G_OPTION_ARG_NONE, &opt.color, "Color terminal output", NULL },
    { "template", 'T', 0, G_OPTION_ARG_STRING, &opt.template_text, "Template string to be used to format the output (\\n, \\t escapes)", "template" },
    { "file", 'f', 0, G_OPTION_ARG_FILENAME, &opt.file, "Read the messages from the file specified (- for stdin)", "<file>" },
    { "filter", 'F', 0, G_OPTION_ARG_STRING, &opt.filter_text, "Only print messages matching the specified syslog-ng filter", "expr" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &opt.json, "Print one JSON object per message: class, rule_id, tags, values (numbers typed)", NULL },
    { "stats", 0, G_OPTION_FLAG_OPTIONAL_ARG, G_OPTION_ARG_CALLBACK, (gpointer) pdb_match_take_stats_format,
      "Instead of the messages, print how many lines each rule classified, the unknown lines per program and the rules that never matched (text or json; default text)", "FORMAT" },
    { "explain", 0, 0, G_OPTION_ARG_NONE, &opt.explain, "After each message, explain the result: where the closest rule stopped matching and what it expected", NULL },
    { "threads", 0, 0, G_OPTION_ARG_INT, &opt.threads, "Classify a file on N threads (default: one per available CPU; output order is kept)", "N" },
    { "block-size", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_INT, &opt.block_size, "Bytes per block of input handed to a thread", "BYTES" },
    { NULL }
  };
  int rc = PDB_TOOL_EXIT_USAGE;

  if (!pdb_tool_parse_options(&argc, &argv, "match", "Match a message against the pattern database",
                              pdb_match_description, entries))
    goto out;
  opt.stats = pdb_match_steal_stats_format();
  if (!pdb_match_check_options(&opt, argc, argv))
    goto out;
  if (opt.template_text)
    {
      GError *error = NULL;

      template_text = pdb_tool_unescape(opt.template_text);
      tmpl = pdb_template_compile(template_text, FALSE, &error);
      if (!tmpl)
        {
          fprintf(stderr, "Error compiling template: %s\n", error->message);
          g_error_free(error);
          goto out;
        }
    }
  started = TRUE;
  if (!matcher_start(&m, &opt, NULL, tmpl, template_text))
    goto out;
  const GPtrArray *warnings = pdb_filter_expr_get_warnings(m.filter);

  for (guint w = 0; warnings && w < warnings->len; w++)
    fprintf(stderr, "patterndb: warning: -F: %s\n", (const gchar *) g_ptr_array_index(warnings, w));
  /* one core against one core: --threads 1 loads on one thread too */
  pdb_tool_set_load_threads(opt.threads == 1 ? 1 : 0);
  m.db = pdb_tool_load_database(opt.pdb ? opt.pdb : PDB_TOOL_DEFAULT_PDB, FALSE);
  if (!m.db)
    goto out;

  if (opt.stats)
    m.stats = pdb_match_stats_new(m.db);
  else if (m.tmpl && !m.filter && !opt.json && !opt.explain && !opt.debug_pattern)
    m.direct = pdb_match_direct_new(m.db, m.tmpl, template_text);
  if (!m.direct)
    ensure_registered(&m);
  m.out = g_string_sized_new(OUTPUT_FLUSH_BYTES + 4096);
  /* Without contexts or actions there is nothing to correlate, and the
   * per-line timestamp (localtime/mktime) would be pure cost. */
  m.corr = pdb_match_database_correlates(m.db) ? pdb_correlation_new(&pdb_tool_correlation_host, 0) : NULL;

  rc = match_input(&m, &opt);

out:
  if (started)
    matcher_finish(&m);
  if (tmpl)
    pdb_template_free(tmpl);
  /* The database is not freed: the process ends right after this, and
   * freeing 100,000 rules piece by piece takes longer than matching a
   * million lines. It stays reachable from a static, so leak checkers
   * do not report it. */
  if (m.db)
    resident_db = m.db;
  if (m.out)
    g_string_free(m.out, TRUE);
  g_free(opt.pdb);
  g_free(opt.program);
  g_free(opt.message);
  g_free(opt.file);
  g_free(opt.template_text);
  g_free(opt.filter_text);
  g_free(opt.stats);
  pdb_match_stats_free(m.stats);
  g_free(template_text);
  return rc;
}

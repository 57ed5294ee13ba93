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
 */
#include "tool/commands.h"
#include "tool/tool-common.h"
#include "tool/message.h"
#include "tool/filter.h"
#include "tool/syslog-line.h"
#include "tool/match-direct.h"
#include "tool/match-parallel.h"
#include "tool/line-reader.h"
#include "tool/date-macros.h"
#include "correlation/correlation.h"
#include "correlation/nv-message.h"
#include "tool/corr-host.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define OUTPUT_FLUSH_BYTES (64 * 1024)
/* --threads is capped here: more threads than this gain nothing but memory */
#define MAX_THREADS 64

typedef struct
{
  gchar *pdb;
  gchar *program;
  gchar *message;
  gchar *file;
  gchar *template_text;
  gchar *filter_text;
  gboolean debug_pattern;
  gboolean debug_csv;
  gboolean color;
  gboolean json;
  gboolean explain;
  gint threads;           /* 0: one per available CPU */
  gint block_size;        /* bytes per block of the parallel path; 0: default (tests use small ones) */
} MatchOptions;

/*
 * The names and tags the main thread's store numbered after the
 * database's, in its order, copied out for the workers (see
 * general_worker_line). Append-only; the strings live until the end.
 */
typedef struct
{
  GMutex lock;
  GPtrArray *names;       /* of gchar*, owned */
  GPtrArray *tags;        /* of gchar*, owned */
} Numbering;

typedef struct
{
  MatchOptions *opt;
  PdbDatabase *db;
  PdbToolMessage *msg;
  const PdbTemplate *tmpl; /* shared by every thread's Matcher */
  const gchar *template_text; /* -T unescaped, what tmpl was compiled from */
  PdbMatchDirect *direct; /* -T of the classification only: the short path */
  gboolean registered;    /* the database's names are in msg (see ensure_registered) */
  PdbToolFilter *filter;  /* owned: a filter keeps match state, one per thread */
  Numbering *numbering;   /* several threads, general path: what the main thread numbered */
  guint synced_names;     /* a worker: how many of numbering's names and tags it has numbered */
  guint synced_tags;
  PdbResult result;
  GString *out;           /* the main thread's own; a worker's is lent per line */
  GString *scratch;       /* macros, filters */
  GString *scratch2;
  GString *error_text;    /* "Error processing log message: ..." */
  GString *sd_name, *sd_value;
  gchar pid_text[16];
  gint pri;
  PdbSlice sdata;
  gint exit_code;         /* of the last message printed: 0 with a rule id, 1 without (a worker: -1 for none) */
  PdbCorrelation *corr;   /* contexts and actions (see "correlation" below) */
  GPtrArray *synthetic;   /* of PdbNvMessage*: generated, not printed yet */
  gint64 now;             /* wall clock, caps message timestamps */
  /* date macros: computed only when a template asks (tmpl_dates: -T does,
   * the store's macro function is installed when a <value> does) */
  gboolean tmpl_dates;
  PdbSlice stamp_text;    /* the current message's header date; unset: none */
  gboolean have_stamp, have_received;
  PdbToolTime stamp_time, received_time;
  GString *date_text;
} Matcher;

/* ---- date macros ---- */

/* Forgets the times of the previous message; @stamp is the new one's header date. */
static void
dates_reset(Matcher *m, PdbSlice stamp)
{
  m->stamp_text = stamp;
  m->have_stamp = FALSE;
  m->have_received = FALSE;
}

static const PdbToolTime *
received_time(Matcher *m)
{
  if (!m->have_received)
    {
      pdb_tool_time_now(&m->received_time);
      m->have_received = TRUE;
    }
  return &m->received_time;
}

/* The message's own time: its header date, or when it has none the time it was received. */
static const PdbToolTime *
stamp_time(Matcher *m)
{
  if (!m->have_stamp)
    {
      if (!pdb_tool_time_from_stamp(m->stamp_text, m->now, &m->stamp_time))
        m->stamp_time = *received_time(m);
      m->have_stamp = TRUE;
    }
  return &m->stamp_time;
}

/* The text of a date macro, or NULL when @name is none. */
static const gchar *
date_lookup(Matcher *m, const gchar *name, gssize *length)
{
  PdbToolTimeFamily family;
  PdbToolDateField field;
  PdbToolTime now;
  const PdbToolTime *t;

  if (!pdb_tool_date_macro_parse(name, &family, &field))
    return NULL;
  switch (family)
    {
    case PDB_TOOL_TIME_STAMP:
      t = stamp_time(m);
      break;
    case PDB_TOOL_TIME_CURRENT:
      pdb_tool_time_now(&now);
      t = &now;
      break;
    default:
      t = received_time(m);
      break;
    }
  g_string_truncate(m->date_text, 0);
  pdb_tool_date_macro_append(field, t, m->date_text);
  *length = m->date_text->len;
  return m->date_text->str;
}

static const gchar *
store_date_lookup(const gchar *name, gssize *length, gpointer user_data)
{
  return date_lookup(user_data, name, length);
}

/* A probe expansion: TRUE in *user_data when a reference is a date macro. */
static const gchar *
probe_dates(const gchar *name, guint context_index, gssize *length, gpointer user_data)
{
  PdbToolTimeFamily family;
  PdbToolDateField field;

  (void) context_index;
  (void) length;
  if (pdb_tool_date_macro_parse(name, &family, &field))
    *(gboolean *) user_data = TRUE;
  return NULL;
}

static gboolean
template_uses_dates(const PdbTemplate *tmpl, GString *scratch)
{
  gboolean dates = FALSE;

  g_string_truncate(scratch, 0);
  pdb_template_append(tmpl, probe_dates, &dates, scratch);
  return dates;
}

/* TRUE when a rule's <value> reads a date macro. */
static gboolean
database_values_use_dates(const PdbDatabase *db, GString *scratch)
{
  const GPtrArray *rules = pdb_database_get_rules(db);

  for (guint i = 0; rules && i < rules->len; i++)
    {
      const PdbRule *rule = g_ptr_array_index(rules, i);

      for (guint v = 0; rule->values && v < rule->values->len; v++)
        {
          const PdbValueDef *def = g_ptr_array_index(rule->values, v);

          if (def->compiled && strchr(def->template_text, '$') && template_uses_dates(def->compiled, scratch))
            return TRUE;
        }
    }
  return FALSE;
}

/* ---- template lookup: values plus the macros scripts use ---- */

static const gchar *
template_lookup(const gchar *name, guint context_index, gssize *length, gpointer user_data)
{
  Matcher *m = user_data;

  /* as pdbtool: -T formats one message, so ${name}@N (N > 0) looks back
   * into nothing and is empty; $(context-length) is then 1 */
  if (context_index == PDB_TEMPLATE_CONTEXT_LENGTH_INDEX)
    return NULL;
  if (context_index != 0)
    return pdb_template_no_message;
  if (m->tmpl_dates)
    {
      const gchar *date = date_lookup(m, name, length);

      if (date)
        return date;
    }
  /* the macros below start with M, T, P or S; most names skip them all */
  if (name[0] != 'M' && name[0] != 'T' && name[0] != 'P' && name[0] != 'S')
    return pdb_tool_message_get(m->msg, name, length);
  if (strcmp(name, "MSG") == 0)
    name = "MESSAGE";
  else if (strcmp(name, "MSGHDR") == 0)
    {
      g_string_truncate(m->scratch, 0);
      pdb_tool_append_msghdr(m->msg, m->scratch);
      *length = m->scratch->len;
      return m->scratch->str;
    }
  else if (strcmp(name, "TAGS") == 0)
    {
      g_string_truncate(m->scratch2, 0);
      pdb_tool_message_format_tags(m->msg, m->scratch2);
      *length = m->scratch2->len;
      return m->scratch2->str;
    }
  else if (strcmp(name, "PRI") == 0)
    {
      g_string_printf(m->scratch, "%d", m->pri);
      *length = m->scratch->len;
      return m->scratch->str;
    }
  else if (strcmp(name, "SDATA") == 0)
    {
      *length = m->sdata.data ? (gssize) m->sdata.length : 0;
      return m->sdata.data ? m->sdata.data : "";
    }
  return pdb_tool_message_get(m->msg, name, length);
}

/* ---- -D / -C: how the pattern covered the message ---- */

#define COLOR_LITERAL "\033[01;32m"
#define COLOR_PARSER "\033[0;33m"
#define COLOR_PARTIAL "\033[01;31m"
#define COLOR_TRAILING "\033[01;34m"
#define COLOR_RESET "\033[01;0m"

static void
colored(GString *out, gboolean color, const gchar *code, const gchar *text, gsize len)
{
  if (color)
    g_string_append(out, code);
  g_string_append_len(out, text, len);
  g_string_append(out, COLOR_RESET);
}

static void
print_debug_pattern(Matcher *m, const gchar *message, gsize length)
{
  const PdbRuleset *rs = m->result.ruleset;
  gboolean color = m->opt->color;
  PdbMatch match;
  PdbTrace trace;
  GString *out = m->out;
  guint32 covered = 0;

  if (!rs || !rs->messages)
    return;
  pdb_match_init(&match);
  pdb_trace_init(&trace);
  pdb_radix_lookup_traced(rs->messages, message, length, &match, &trace);
  for (guint i = 0; i < trace.steps->len; i++)
    {
      const PdbTraceStep *s = &g_array_index(trace.steps, PdbTraceStep, i);

      if (s->offset + s->length > covered)
        covered = s->offset + s->length;
    }
  if (m->opt->debug_csv)
    {
      guint32 last_keylen = 0;
      guint n = 0;

      g_string_append(out, "PDBTOOL_HEADER=i:len:key;keylen:match_off;match_len:parser_type:parser_name\n");
      g_string_append_printf(out, "PDBTOOL_DEBUG=%u:0:0:0:0::\n", n++);
      for (guint i = 0; i < trace.steps->len; i++)
        {
          const PdbTraceStep *s = &g_array_index(trace.steps, PdbTraceStep, i);

          if (!s->is_parser)
            {
              last_keylen = s->literal_length;
              g_string_append_printf(out, "PDBTOOL_DEBUG=%u:%u:%u:0:0::\n", n++, s->length, s->literal_length);
              continue;
            }
          g_string_append_printf(out, "PDBTOOL_DEBUG=%u:%u:%u:%u:%u:%s:%s\n", n++, s->length, last_keylen,
                                 s->value_offset, s->value_length, s->parser_type,
                                 s->parser_name ? s->parser_name : "");
          g_string_append_printf(out, "PDBTOOL_DEBUG=%u:0:-1:0:0::\n", n++);
        }
    }
  else
    {
      g_string_append(out, "Pattern matching part:\n");
      colored(out, color, COLOR_LITERAL, "", 0);
      for (guint i = 0; i < trace.steps->len; i++)
        {
          const PdbTraceStep *s = &g_array_index(trace.steps, PdbTraceStep, i);

          if (!s->is_parser)
            {
              colored(out, color, COLOR_LITERAL, s->literal, s->literal_length);
              continue;
            }
          if (color)
            g_string_append(out, COLOR_PARSER);
          g_string_append_printf(out, "@%s:%s=", s->parser_type, s->parser_name ? s->parser_name : "");
          g_string_append_len(out, message + s->value_offset, s->value_length);
          g_string_append(out, "@" COLOR_RESET);
          colored(out, color, COLOR_PARTIAL, "", 0);
        }
      colored(out, color, COLOR_TRAILING, message + MIN(covered, length), length - MIN(covered, length));
      g_string_append(out, "\nMatching part:\n");
      colored(out, color, COLOR_LITERAL, "", 0);
      for (guint i = 0; i < trace.steps->len; i++)
        {
          const PdbTraceStep *s = &g_array_index(trace.steps, PdbTraceStep, i);

          colored(out, color, s->is_parser ? COLOR_PARSER : COLOR_LITERAL, message + s->offset, s->length);
          if (s->is_parser)
            colored(out, color, COLOR_PARTIAL, "", 0);
        }
      g_string_append(out, "\nValues:\n");
    }
  pdb_trace_clear(&trace);
  pdb_match_clear(&match);
}

/* ---- --explain: why a message did not match ---- */

static void
append_quoted(GString *out, const gchar *text, gsize len)
{
  g_string_append_c(out, '\'');
  for (gsize i = 0; i < len; i++)
    {
      guchar c = text[i];

      if (c == '\n')
        g_string_append(out, "\\n");
      else if (c == '\t')
        g_string_append(out, "\\t");
      else if (c < 32 || c == 127)
        g_string_append_printf(out, "\\x%02x", c);
      else
        g_string_append_c(out, c);
    }
  g_string_append_c(out, '\'');
}

static void
print_explanation(Matcher *m, const gchar *program, gsize program_length,
                  const gchar *message, gsize length)
{
  GString *out = m->out;
  const PdbResult *r = &m->result;

  if (r->kind == PDB_RESULT_NONE || !r->ruleset || !r->ruleset->messages
      || !r->ruleset->rules || r->ruleset->rules->len == 0)
    {
      g_string_append(out, "EXPLAIN: no ruleset selects program ");
      append_quoted(out, program, program_length);
      g_string_append(out, " and the database has no catch-all ruleset (a <ruleset> without <pattern>)\n\n");
      return;
    }
  if (r->kind == PDB_RESULT_MATCH)
    {
      if (!r->message_match.complete)
        {
          g_string_append_printf(out, "EXPLAIN: rule '%s' matched only the first %u of %zu bytes; 3.38 accepts such prefix matches and ignores the rest: ",
                                 r->rule->id, r->message_match.matched_length, length);
          append_quoted(out, message + MIN(r->message_match.matched_length, length),
                        length - MIN(r->message_match.matched_length, length));
          g_string_append(out, "\n\n");
        }
      else
        g_string_append_printf(out, "EXPLAIN: rule '%s' matched the whole message\n\n", r->rule->id);
      return;
    }

  PdbMatch match;
  PdbTrace trace;
  const PdbRule *closest;
  guint32 at;

  pdb_match_init(&match);
  pdb_trace_init(&trace);
  pdb_radix_lookup_traced(r->ruleset->messages, message, length, &match, &trace);
  at = MIN(trace.furthest_offset, length);
  closest = trace.closest_value;
  g_string_append(out, "EXPLAIN: no rule matched; the best attempt stopped at column ");
  g_string_append_printf(out, "%u (byte offset %u)\n", at + 1, at);
  g_string_append(out, "  matched:  ");
  append_quoted(out, message, at);
  g_string_append(out, "\n  rest:     ");
  append_quoted(out, message + at, length - at);
  g_string_append_c(out, '\n');
  if (closest)
    {
      g_string_append_printf(out, "  closest rule: '%s'", closest->id);
      if (closest->location.file)
        g_string_append_printf(out, " (%s:%d)", closest->location.file, closest->location.line);
      g_string_append_c(out, '\n');
      for (guint i = 0; closest->patterns && i < closest->patterns->len; i++)
        g_string_append_printf(out, "  pattern:  '%s'\n", (const gchar *) g_ptr_array_index(closest->patterns, i));
    }
  if (trace.expected && trace.expected->len)
    {
      g_string_append(out, "  expected at that point: ");
      for (guint i = 0; i < trace.expected->len; i++)
        {
          if (i)
            g_string_append(out, " or ");
          g_string_append(out, g_ptr_array_index(trace.expected, i));
        }
      g_string_append_c(out, '\n');
    }
  g_string_append_c(out, '\n');
  pdb_trace_clear(&trace);
  pdb_match_clear(&match);
}

/* ---- correlation ----
 *
 * As pdbtool 3.38: the clock follows the lines' timestamps (capped at the
 * current time); timeout messages the clock releases are printed before
 * the line that moved it, messages of match actions after the line, and
 * at the end of the input every context expires. A context keeps
 * snapshots (correlation/nv-message.h) of the messages.
 */

static void
collect_synthetic(gpointer msg, gpointer user_data)
{
  Matcher *m = user_data;

  g_ptr_array_add(m->synthetic, pdb_nv_message_ref(msg));
}

static void
snapshot_value(const gchar *name, const gchar *value, gsize length, PdbValueType type, gpointer user_data)
{
  /* the store's names are unique */
  pdb_nv_message_add(user_data, name, value, length, type);
}

static void
snapshot_tag(const gchar *tag, gpointer user_data)
{
  pdb_nv_message_set_tag(user_data, tag);
}

static void
correlate(Matcher *m, gint64 stamp)
{
  const PdbRule *rule = m->result.kind == PDB_RESULT_MATCH ? m->result.rule : NULL;
  PdbNvMessage *snapshot;

  if (!rule || (!rule->context_id_template && (!rule->actions || rule->actions->len == 0)))
    return;
  snapshot = pdb_nv_message_new();
  pdb_tool_message_foreach(m->msg, snapshot_value, snapshot_tag, snapshot);
  const PdbToolTime *t = stamp_time(m);
  PdbNvTime nt = { t->sec, t->usec, t->gmtoff };
  pdb_nv_message_set_stamp(snapshot, &nt);
  pdb_correlation_process(m->corr, m->db, &m->result, snapshot, stamp, m->now, collect_synthetic, m);
  if (rule->context_id_template && pdb_correlation_rule_values_look_back(rule))
    {
      /* the values were evaluated again over the context, into the snapshot */
      for (guint i = 0; i < rule->values->len; i++)
        {
          const PdbValueDef *v = g_ptr_array_index(rule->values, i);
          gssize length = 0;
          const gchar *value = pdb_nv_message_get(snapshot, v->name, &length);

          if (value)
            pdb_tool_message_set(m->msg, v->name, -1, value, length, v->value_type);
        }
    }
  pdb_nv_message_unref(snapshot);
}

static void print_message(Matcher *m, const gchar *program, gsize program_length,
                          const gchar *message, gsize message_length, gboolean synthetic);

static void
copy_value(const gchar *name, const gchar *value, gsize length, PdbValueType type, gpointer user_data)
{
  pdb_tool_message_set(user_data, name, -1, value, length, type);
}

/* Prints and forgets the generated messages, in the order they were made;
 * each shows its own time (the context's newest message's, as pdbtool).
 * The time of the line being read is kept aside meanwhile. */
static void
print_synthetic(Matcher *m)
{
  gboolean had_stamp = m->have_stamp;
  PdbToolTime line_time = m->stamp_time;

  /* as pdbtool: --debug-pattern shows the lines only, not what correlation made */
  for (guint i = 0; !m->opt->debug_pattern && i < m->synthetic->len; i++)
    {
      PdbNvMessage *gen = g_ptr_array_index(m->synthetic, i);
      const GPtrArray *tags = pdb_nv_message_get_tags(gen);

      pdb_tool_snapshot_time(gen, &m->stamp_time);
      m->have_stamp = TRUE;
      pdb_tool_message_reset(m->msg);
      pdb_nv_message_foreach(gen, copy_value, m->msg);
      for (guint t = 0; t < tags->len; t++)
        pdb_tool_message_set_tag(m->msg, g_ptr_array_index(tags, t));
      print_message(m, NULL, 0, NULL, 0, TRUE);
    }
  g_ptr_array_set_size(m->synthetic, 0);
  m->have_stamp = had_stamp;
  m->stamp_time = line_time;
}

/* Moves the clock to a line's time before the line is read into m->msg,
 * printing the timeout messages that releases (they come first). */
static void
release_timeouts(Matcher *m, gint64 stamp)
{
  if (!m->corr)
    return;
  pdb_correlation_set_time(m->corr, stamp, m->now, collect_synthetic, m);
  print_synthetic(m);
}

/* TRUE if any rule has a context or an action. */
static gboolean
database_correlates(const PdbDatabase *db)
{
  const GPtrArray *rules = pdb_database_get_rules(db);

  for (guint i = 0; i < rules->len; i++)
    {
      const PdbRule *rule = g_ptr_array_index(rules, i);
      if (rule->context_id_template || (rule->actions && rule->actions->len > 0))
        return TRUE;
    }
  return FALSE;
}

/* ---- one message ---- */

static void
process(Matcher *m, const gchar *program, gsize program_length,
        const gchar *message, gsize message_length, gint64 stamp)
{
  pdb_database_classify(m->db, program, program_length, message, message_length, &m->result);
  pdb_result_apply(&m->result, program, message, &pdb_tool_message_ops, m->msg);
  if (m->corr)
    correlate(m, stamp);
  print_message(m, program, program_length, message, message_length, FALSE);
  if (m->corr)
    print_synthetic(m);
}

static void
print_message(Matcher *m, const gchar *program, gsize program_length,
              const gchar *message, gsize message_length, gboolean synthetic)
{
  const gchar *rule_id;

  if (!m->filter || pdb_tool_filter_eval(m->filter, m->msg, m->scratch))
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
        pdb_template_append(m->tmpl, template_lookup, m, m->out);
      else
        {
          if (m->opt->debug_pattern && !synthetic)
            print_debug_pattern(m, message, message_length);
          pdb_tool_message_format_values(m->msg, m->out);
          g_string_append_c(m->out, '\n');
        }
      if (m->opt->explain && !synthetic)
        print_explanation(m, program, program_length, message, message_length);
    }
}

static void
set_slice(PdbToolMessage *msg, guint handle, PdbSlice s)
{
  if (s.data)
    pdb_tool_message_set_handle(msg, handle, s.data, s.length, PDB_VALUE_STRING);
}

static void
set_sd_param(const gchar *name, gsize name_length, const gchar *value, gsize value_length,
             gpointer user_data)
{
  Matcher *m = user_data;
  gchar buf[256];

  if (name_length + 8 > sizeof(buf))
    return;
  memcpy(buf, ".SDATA.", 7);
  memcpy(buf + 7, name, name_length);
  pdb_tool_message_set(m->msg, buf, name_length + 7, value, value_length, PDB_VALUE_STRING);
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
 * loads the database; walking 100,000 rules for that costs as much as
 * matching 30,000 lines, so the direct path does it only when a line
 * first needs the store (before any name of that line is set). */
static void
ensure_registered(Matcher *m)
{
  if (m->registered)
    return;
  pdb_tool_message_register_database(m->msg, m->db);
  m->registered = TRUE;
  /* the store answers date macros only when a <value> asks for one */
  GString *probe = g_string_new(NULL);

  if (database_values_use_dates(m->db, probe))
    pdb_tool_message_set_macro_func(m->msg, store_date_lookup, m);
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
  dates_reset(m, l.stamp);
  gint64 stamp = m->corr ? line_stamp(m) : 0;

  release_timeouts(m, stamp);
  pdb_tool_message_reset(m->msg);
  m->pri = l.pri;
  m->sdata = l.sdata;
  if (l.parse_error)
    {
      /* what 3.38 makes of a line it cannot parse */
      g_string_assign(m->error_text, "Error processing log message: ");
      if (l.error_position >= 0)
        {
          g_string_append_len(m->error_text, line, MIN((gsize) l.error_position, length));
          g_string_append(m->error_text, ">@<");
          g_string_append_len(m->error_text, line + MIN((gsize) l.error_position, length),
                              length - MIN((gsize) l.error_position, length));
        }
      else
        g_string_append_len(m->error_text, line, length);
      pdb_tool_message_set_handle(m->msg, PDB_TOOL_HANDLE_HOST, "", 0, PDB_VALUE_STRING);
      pdb_tool_message_set_handle(m->msg, PDB_TOOL_HANDLE_MESSAGE, m->error_text->str, m->error_text->len,
                                  PDB_VALUE_STRING);
      pdb_tool_message_set_handle(m->msg, PDB_TOOL_HANDLE_PROGRAM, "syslog-ng", -1, PDB_VALUE_STRING);
      pdb_tool_message_set_handle(m->msg, PDB_TOOL_HANDLE_PID, m->pid_text, -1, PDB_VALUE_STRING);
      process(m, "syslog-ng", 9, m->error_text->str, m->error_text->len, stamp);
      return;
    }
  set_slice(m->msg, PDB_TOOL_HANDLE_HOST, l.host);
  pdb_tool_message_set_handle(m->msg, PDB_TOOL_HANDLE_MESSAGE, l.message.data ? l.message.data : empty,
                              l.message.length, PDB_VALUE_STRING);
  set_slice(m->msg, PDB_TOOL_HANDLE_PROGRAM, l.program);
  set_slice(m->msg, PDB_TOOL_HANDLE_PID, l.pid);
  set_slice(m->msg, PDB_TOOL_HANDLE_MSGID, l.msgid);
  set_slice(m->msg, PDB_TOOL_HANDLE_LEGACY_MSGHDR, l.legacy_msghdr);
  if (l.time_quality >= 0)
    pdb_tool_message_set(m->msg, ".SDATA.timeQuality.isSynced", -1, l.time_quality ? "1" : "0", 1,
                         PDB_VALUE_STRING);
  if (l.sequence_id.data)
    pdb_tool_message_set(m->msg, ".SDATA.meta.sequenceId", -1, l.sequence_id.data,
                         l.sequence_id.length, PDB_VALUE_STRING);
  if (l.sdata.data)
    pdb_syslog_line_foreach_sd_param(l.sdata, m->sd_name, m->sd_value, set_sd_param, m);
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
      return PDB_MATCH_LINE_REFUSED;
    }
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
static gboolean
process_stream(Matcher *m, int fd, const gchar *name)
{
  PdbLineReader *reader = pdb_line_reader_new(fd, name);
  struct stat st;
  gboolean regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  gboolean ok;

  if (m->opt->threads > 1 && regular && !m->corr)
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
  g_snprintf(m->pid_text, sizeof(m->pid_text), "%d", (int) getpid());
  m->pri = 13;
  m->now = (gint64) time(NULL);
  if (tmpl)
    {
      GString *probe = g_string_new(NULL);

      m->tmpl_dates = template_uses_dates(tmpl, probe);
      g_string_free(probe, TRUE);
    }
  if (opt->filter_text)
    {
      GError *error = NULL;

      m->filter = pdb_tool_filter_compile(opt->filter_text, &error);
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
  pdb_tool_filter_free(m->filter);
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
}

/* the loaded database, kept until the process exits (see pdb_cmd_match) */
static PdbDatabase *volatile resident_db;

static const gchar match_description[] =
  "Without -T, each message is printed as NAME=value lines (in pdbtool's order),\n"
  "a TAGS= line and an empty line. -f reads syslog lines (RFC 5424 or RFC 3164,\n"
  "<PRI> optional) and matches PROGRAM and MESSAGE from their header.\n"
  "\n"
  "-F accepts these filter functions: " PDB_TOOL_FILTER_FUNCTIONS ".\n"
  "\n"
  "With -f FILE (a regular file), lines are classified on --threads threads, by\n"
  "default one per available CPU, unless a rule has actions or a context-id. The\n"
  "output and the exit status are the same, in the same order, as with one thread.\n"
  "A -T template that prints nothing but ${.classifier.rule_id},\n"
  "${.classifier.class} and plain text (bulk classification) takes a shorter path.\n"
  "From a pipe, results are written as their lines come in.\n"
  "\n"
  "Exit status: 0 when the last message printed got a rule id (or none was\n"
  "printed), 1 when it did not (always 0 with -T or --json), 2 on a usage error\n"
  "or a database that cannot be loaded.\n";

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
    { "explain", 0, 0, G_OPTION_ARG_NONE, &opt.explain, "After each message, explain the result: where the closest rule stopped matching and what it expected", NULL },
    { "threads", 0, 0, G_OPTION_ARG_INT, &opt.threads, "Classify a file on N threads (default: one per available CPU; output order is kept)", "N" },
    { "block-size", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_INT, &opt.block_size, "Bytes per block of input handed to a thread", "BYTES" },
    { NULL }
  };
  int rc = PDB_TOOL_EXIT_USAGE;

  if (!pdb_tool_parse_options(&argc, &argv, "match", "Match a message against the pattern database",
                              match_description, entries))
    goto out;
  if (argc > 1)
    {
      fprintf(stderr, "Error parsing command line arguments: unexpected argument '%s'\n", argv[1]);
      goto out;
    }
  if (opt.threads < 0 || opt.threads > MAX_THREADS || opt.block_size < 0)
    {
      fprintf(stderr, "Error parsing command line arguments: --threads takes 1 to %d (0: one per CPU)%s\n",
              MAX_THREADS, opt.block_size < 0 ? ", --block-size a positive size" : "");
      goto out;
    }
  if (opt.threads == 0)
    opt.threads = MIN(MAX_THREADS, (gint) g_get_num_processors());
  if (!opt.message && !opt.file)
    {
      fprintf(stderr, "Either -M or -f is required to specify which message to match\n");
      goto out;
    }
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
  m.db = pdb_tool_load_database(opt.pdb ? opt.pdb : PDB_TOOL_DEFAULT_PDB, FALSE);
  if (!m.db)
    goto out;

  if (m.tmpl && !m.filter && !opt.json && !opt.explain && !opt.debug_pattern)
    m.direct = pdb_match_direct_new(m.db, m.tmpl, template_text);
  if (!m.direct)
    ensure_registered(&m);
  m.out = g_string_sized_new(OUTPUT_FLUSH_BYTES + 4096);
  /* Without contexts or actions there is nothing to correlate, and the
   * per-line timestamp (localtime/mktime) would be pure cost. */
  m.corr = database_correlates(m.db) ? pdb_correlation_new(&pdb_tool_correlation_host, 0) : NULL;

  rc = 0;
  if (opt.file)
    {
      int fd = strcmp(opt.file, "-") == 0 ? 0 : open(opt.file, O_RDONLY);

      if (fd < 0)
        {
          fprintf(stderr, "Error opening input file; filename='%s', error='%s'\n", opt.file, g_strerror(errno));
          rc = PDB_TOOL_EXIT_USAGE;
        }
      else
        {
          if (!process_stream(&m, fd, opt.file))
            rc = PDB_TOOL_EXIT_USAGE;
          if (fd != 0)
            close(fd);
        }
    }
  else
    {
      const gchar *program = opt.program ? opt.program : "";

      ensure_registered(&m);
      dates_reset(&m, (PdbSlice) { NULL, 0 });
      pdb_tool_message_reset(m.msg);
      pdb_tool_message_set(m.msg, "MESSAGE", -1, opt.message, -1, PDB_VALUE_STRING);
      if (program[0])
        pdb_tool_message_set(m.msg, "PROGRAM", -1, program, -1, PDB_VALUE_STRING);
      process(&m, program, strlen(program), opt.message, strlen(opt.message), m.now);
    }
  /* as pdbtool: every context expires at the end of the input */
  if (m.corr)
    {
      pdb_correlation_expire_all(m.corr, collect_synthetic, &m);
      print_synthetic(&m);
    }
  pdb_tool_flush(m.out, stdout, 0);
  fflush(stdout);
  if (rc == 0 && !m.tmpl && !opt.json)
    rc = m.exit_code;

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
  g_free(template_text);
  return rc;
}

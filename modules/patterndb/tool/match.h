/*
 * match.h: the state of `patterndb match` shared by its files (private to
 * the command): the options, the per-thread Matcher, and the parts kept
 * in files of their own:
 *   match-dates.c  date macros of -T and of <value>s ($ISODATE, $R_YEAR ...)
 *   match-debug.c  --debug-pattern / --debug-csv and --explain output
 *   match-corr.c   correlation: snapshots, generated messages, the clock
 *   match-lookup.c what -T and -F read: values, macros, tags
 *   match-options.c --help text, option checks
 *   match-stats.c  --stats counts
 *   cmd-match.c    options, one message, lines, threads, the command
 * A Matcher belongs to one thread; nothing here locks.
 */
#ifndef PDB_TOOL_MATCH_H
#define PDB_TOOL_MATCH_H

#include "tool/commands.h"
#include "tool/tool-common.h"
#include "tool/message.h"
#include "db/filter-expr.h"
#include "tool/syslog-line.h"
#include "tool/match-direct.h"
#include "tool/match-parallel.h"
#include "tool/line-reader.h"
#include "tool/date-macros.h"
#include "correlation/correlation.h"
#include "correlation/nv-message.h"
#include "tool/corr-host.h"
#include "tool/pri-macros.h"
#include "tool/match-stats.h"

/* --threads is capped here: more threads than this gain nothing but memory */
#define PDB_MATCH_MAX_THREADS 64

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
  gchar *stats;           /* --stats: NULL, "text" or "json" */
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
  PdbFilterExpr *filter;  /* owned: -F, compiled once per thread */
  Numbering *numbering;   /* several threads, general path: what the main thread numbered */
  guint synced_names;     /* a worker: how many of numbering's names and tags it has numbered */
  guint synced_tags;
  PdbResult result;
  PdbMatchStats *stats;   /* --stats: shared by every thread's Matcher */
  gboolean defer_stats;   /* a worker: its line counts only when its output is kept */
  const PdbRule *pending_rule;  /* a worker's last line, not counted yet (see defer_stats) */
  GString *pending_program;
  gboolean pending;
  GString *out;           /* the main thread's own; a worker's is lent per line */
  GString *scratch;       /* macros, filters */
  GString *scratch2;
  GString *error_text;    /* "Error processing log message: ..." */
  GString *sd_name, *sd_value;
  gchar pid_text[16];
  gint pri;
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

/* match-dates.c */
/* Forgets the times of the previous message; @stamp is the new one's header date. */
/* match-header.c: the values of a parsed line's header, or the error
 * record of a line that could not be parsed (m->error_text). */
void pdb_match_set_header(Matcher *m, const PdbSyslogLine *l);
void pdb_match_set_error_record(Matcher *m, const gchar *line, gsize length, const PdbSyslogLine *l);
void pdb_match_dates_reset(Matcher *m, PdbSlice stamp);
/* The message's own time: its header date, or when it has none the time it was received. */
const PdbToolTime *pdb_match_stamp_time(Matcher *m);
/* The text of a date macro, or NULL when @name is none. */
const gchar *pdb_match_date_lookup(Matcher *m, const gchar *name, gssize *length);
/* The same as a message store's macro function (user_data: the Matcher). */
const gchar *pdb_match_store_date_lookup(const gchar *name, gssize *length, gpointer user_data);
/* TRUE when @tmpl reads a date macro. */
gboolean pdb_match_template_uses_dates(const PdbTemplate *tmpl, GString *scratch);
/* TRUE when a rule's <value> reads a date macro. */
gboolean pdb_match_values_use_dates(const PdbDatabase *db, GString *scratch);

/* match-debug.c */
void pdb_match_print_debug_pattern(Matcher *m, const gchar *message, gsize length);
void pdb_match_print_explanation(Matcher *m, const gchar *program, gsize program_length,
                                 const gchar *message, gsize message_length);

/* match-corr.c */
void pdb_match_collect_synthetic(gpointer msg, gpointer user_data);
void pdb_match_correlate(Matcher *m, gint64 stamp);
void pdb_match_print_synthetic(Matcher *m);

/* match-options.c */
extern const gchar pdb_match_description[];
/* --stats[=FORMAT]: GOption hands an optional value to a callback only; the
 * value is kept until pdb_match_steal_stats_format() takes it. */
gboolean pdb_match_take_stats_format(const gchar *name, const gchar *value, gpointer data, GError **error);
gchar *pdb_match_steal_stats_format(void);
/* The checks GOption cannot make; fills in --threads. FALSE after printing why. */
gboolean pdb_match_check_options(MatchOptions *opt, int argc, char **argv);

/* match-lookup.c: -T's lookup (values and macros of m->msg; @user_data is
 * the Matcher), and -F's tags() and flags(store-matches). */
const gchar *pdb_match_template_lookup(const gchar *name, guint context_index, gssize *length,
                                       gpointer user_data);
gboolean pdb_match_store_has_tag(const gchar *tag, gpointer user_data);
void pdb_match_store_matches(const PdbFilterGroups *groups, gpointer user_data);
void pdb_match_release_timeouts(Matcher *m, gint64 stamp);
gboolean pdb_match_database_correlates(const PdbDatabase *db);

/* cmd-match.c: prints m->msg (a line's message, or a generated one) */
void pdb_match_print_message(Matcher *m, const gchar *program, gsize program_length,
                             const gchar *message, gsize message_length, gboolean synthetic);

#endif

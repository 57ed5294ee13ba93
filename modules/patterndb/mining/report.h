/*
 * report.h: what a sysadmin wants to see first about a log and a database.
 *
 * The caller classifies each message (with a PdbDatabase, see
 * tool/cmd-report.c) and feeds the outcome here; the report counts
 * messages per class and per rule, keeps a timeline of classes, and
 * clusters the unknown messages (cluster.h, pattern.h) so that each group
 * comes with a sample and a proposed pattern. It knows nothing about the
 * database itself: rules are registered by id, which keeps this file in
 * the mining room and testable alone.
 *
 * Output: plain text, JSON, or one self-contained HTML page (inline SVG
 * chart of classes over time, no scripts, no external resources).
 */
#ifndef PDB_MINING_REPORT_H
#define PDB_MINING_REPORT_H

#include "mining/pattern.h"

G_BEGIN_DECLS

typedef struct _PdbReportOptions
{
  guint max_clusters;          /* unknown clusters listed (default 50) */
  guint max_unknown;           /* unknown messages kept for clustering (default 500000) */
  guint max_rules;             /* rules listed by count (default 100; 0 = all) */
  guint max_never_matched;     /* rules that never matched listed (default 20; 0 = all) */
} PdbReportOptions;

void pdb_report_options_init(PdbReportOptions *options);

typedef struct _PdbReport PdbReport;

PdbReport *pdb_report_new(const PdbReportOptions *options);
void pdb_report_free(PdbReport *report);

/* A rule of the database (for per-rule counts and "never matched"). */
void pdb_report_add_rule(PdbReport *report, const gchar *rule_id, const gchar *class_name,
                         const gchar *pattern);

/* A classified message. @timestamp: seconds since the epoch, or -1. */
void pdb_report_add_match(PdbReport *report, gint64 timestamp, const gchar *rule_id,
                          const gchar *class_name);
/* A message no rule matched (@program may be NULL). */
void pdb_report_add_unknown(PdbReport *report, gint64 timestamp, const gchar *program,
                            gsize program_length, const gchar *message, gsize message_length);

guint64 pdb_report_get_n_messages(const PdbReport *report);
guint64 pdb_report_get_n_unknown(const PdbReport *report);

/* Renderers (each clusters the unknown messages on first use). */
void pdb_report_write_text(PdbReport *report, GString *out);
void pdb_report_write_json(PdbReport *report, GString *out);
void pdb_report_write_html(PdbReport *report, GString *out);

/*
 * The timestamp at the start of a log line: "Mmm dd hh:mm:ss" (in
 * @default_year, UTC) or ISO 8601 "YYYY-MM-DD[T ]hh:mm:ss[.frac][Z|+hh:mm]",
 * after an optional "<PRI>" and RFC 5424 version. -1 if there is none.
 */
gint64 pdb_report_parse_timestamp(const gchar *line, gsize length, gint default_year);

G_END_DECLS

#endif

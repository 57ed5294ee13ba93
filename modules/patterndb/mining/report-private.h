/*
 * report-private.h: the report's data, shared by report.c (collecting) and
 * the renderers (report-text.c, report-json.c, report-html.c).
 */
#ifndef PDB_MINING_REPORT_PRIVATE_H
#define PDB_MINING_REPORT_PRIVATE_H

#include "mining/report.h"

G_BEGIN_DECLS

typedef struct _PdbReportRule
{
  gchar *id;
  gchar *class_name;
  gchar *pattern;          /* first pattern, may be NULL */
  guint64 count;
  guint order;             /* registration order */
} PdbReportRule;

typedef struct _PdbReportCluster
{
  const gchar *program;    /* borrowed from the report; "" when none */
  guint count;
  const gchar *sample;     /* borrowed: first member's message */
  gchar *pattern;          /* owned */
} PdbReportCluster;

typedef struct _PdbReportClass
{
  gchar *name;
  guint64 count;
} PdbReportClass;

/* One bucket of the timeline: counts per class index. */
typedef struct _PdbReportBucket
{
  gint64 start;            /* seconds */
  guint64 *counts;         /* n_classes entries */
} PdbReportBucket;

struct _PdbReport
{
  PdbReportOptions options;
  guint64 n_messages;
  guint64 n_matched;
  guint64 n_unknown;
  guint64 n_unknown_dropped;    /* beyond max_unknown: counted, not clustered */
  guint64 n_with_time;

  GHashTable *rules_by_id;      /* id -> PdbReportRule* (owned) */
  GPtrArray *rules;             /* of PdbReportRule*, registration order (borrowed) */
  GPtrArray *unlisted_rules;    /* matches of ids that were never registered (owned) */

  GHashTable *class_index;      /* name -> GUINT_TO_POINTER(index + 1) */
  GPtrArray *classes;           /* of PdbReportClass* (owned) */

  GHashTable *minutes;          /* gint64* minute -> GArray of guint64 (per class index) */
  gint64 min_time, max_time;

  GHashTable *unknown_groups;   /* program -> UnknownGroup* (report.c) */
  GPtrArray *clusters;          /* of PdbReportCluster*, after pdb_report_cluster_unknown() */
  guint n_clusters_total;
};

/* Clusters the unknown messages once; fills report->clusters (largest first). */
void pdb_report_cluster_unknown(PdbReport *report);

/* Classes sorted by count (largest first, then name); borrowed pointers. */
GPtrArray *pdb_report_sorted_classes(const PdbReport *report);
/* Rules with matches sorted by count, then registration order. */
GPtrArray *pdb_report_sorted_rules(const PdbReport *report);

/* The timeline in at most @max_buckets buckets; *bucket_seconds is set.
 * Returns an array of PdbReportBucket (free with pdb_report_timeline_free). */
GArray *pdb_report_timeline(const PdbReport *report, guint max_buckets, gint64 *bucket_seconds);
void pdb_report_timeline_free(GArray *timeline);

gdouble pdb_report_percent(guint64 part, guint64 whole);
/* Appends what the list of unknown clusters leaves out: " (the N largest
 * shown)" when clusters were cut, "; N more not clustered" when messages
 * were not clustered; nothing otherwise. */
void pdb_report_append_cluster_cut(const PdbReport *r, GString *out);

G_END_DECLS

#endif

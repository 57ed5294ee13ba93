/*
 * report.c: collecting the report (counts, timeline, unknown messages).
 *
 * Invariant: n_messages = n_matched + n_unknown; every message is counted
 * once in its class, and in the timeline when it has a timestamp; every
 * unknown message is either kept for clustering (up to max_unknown) or
 * counted in n_unknown_dropped.
 */
#include "mining/report-private.h"
#include "mining/patternize.h"

#include <string.h>

typedef struct
{
  gchar *program;
  PdbMiner *miner;
  GPtrArray *messages;       /* of gchar*, by line id */
} UnknownGroup;

void
pdb_report_options_init(PdbReportOptions *options)
{
  options->max_clusters = 50;
  options->max_unknown = 500000;
  options->max_rules = 100;
  options->max_never_matched = 20;
}

static void
rule_free(gpointer p)
{
  PdbReportRule *r = p;
  g_free(r->id);
  g_free(r->class_name);
  g_free(r->pattern);
  g_free(r);
}

static void
class_free(gpointer p)
{
  PdbReportClass *c = p;
  g_free(c->name);
  g_free(c);
}

static void
group_free(gpointer p)
{
  UnknownGroup *g = p;
  g_free(g->program);
  pdb_miner_free(g->miner);
  g_ptr_array_free(g->messages, TRUE);
  g_free(g);
}

static void
cluster_free(gpointer p)
{
  PdbReportCluster *c = p;
  g_free(c->pattern);
  g_free(c);
}

static void
minute_free(gpointer p)
{
  g_array_free(p, TRUE);
}

PdbReport *
pdb_report_new(const PdbReportOptions *options)
{
  PdbReport *r = g_new0(PdbReport, 1);
  if (options)
    r->options = *options;
  else
    pdb_report_options_init(&r->options);
  r->rules_by_id = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, rule_free);
  r->rules = g_ptr_array_new();
  r->unlisted_rules = g_ptr_array_new();
  r->class_index = g_hash_table_new(g_str_hash, g_str_equal);
  r->classes = g_ptr_array_new_with_free_func(class_free);
  r->minutes = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, minute_free);
  r->unknown_groups = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, group_free);
  r->min_time = G_MAXINT64;
  r->max_time = G_MININT64;
  return r;
}

void
pdb_report_free(PdbReport *report)
{
  if (!report)
    return;
  g_hash_table_destroy(report->rules_by_id);
  g_ptr_array_free(report->rules, TRUE);
  g_ptr_array_free(report->unlisted_rules, TRUE);
  g_hash_table_destroy(report->class_index);
  g_ptr_array_free(report->classes, TRUE);
  g_hash_table_destroy(report->minutes);
  g_hash_table_destroy(report->unknown_groups);
  if (report->clusters)
    g_ptr_array_free(report->clusters, TRUE);
  g_free(report);
}

void
pdb_report_add_rule(PdbReport *report, const gchar *rule_id, const gchar *class_name,
                    const gchar *pattern)
{
  if (g_hash_table_contains(report->rules_by_id, rule_id))
    return;
  PdbReportRule *r = g_new0(PdbReportRule, 1);
  r->id = g_strdup(rule_id);
  r->class_name = g_strdup(class_name ? class_name : "system");
  r->pattern = g_strdup(pattern);
  r->order = report->rules->len;
  g_hash_table_insert(report->rules_by_id, r->id, r);
  g_ptr_array_add(report->rules, r);
}

static guint
class_index(PdbReport *report, const gchar *name)
{
  gpointer v = g_hash_table_lookup(report->class_index, name);
  if (v)
    return GPOINTER_TO_UINT(v) - 1;
  PdbReportClass *c = g_new0(PdbReportClass, 1);
  c->name = g_strdup(name);
  g_ptr_array_add(report->classes, c);
  g_hash_table_insert(report->class_index, c->name, GUINT_TO_POINTER(report->classes->len));
  return report->classes->len - 1;
}

static void
count_message(PdbReport *report, gint64 timestamp, const gchar *class_name)
{
  guint idx = class_index(report, class_name);
  PdbReportClass *c = g_ptr_array_index(report->classes, idx);
  c->count++;
  report->n_messages++;
  if (timestamp < 0)
    return;

  report->n_with_time++;
  report->min_time = MIN(report->min_time, timestamp);
  report->max_time = MAX(report->max_time, timestamp);
  gint64 minute = timestamp / 60;
  GArray *counts = g_hash_table_lookup(report->minutes, &minute);
  if (!counts)
    {
      counts = g_array_new(FALSE, TRUE, sizeof(guint64));
      gint64 *key = g_new(gint64, 1);
      *key = minute;
      g_hash_table_insert(report->minutes, key, counts);
    }
  if (counts->len <= idx)
    g_array_set_size(counts, idx + 1);
  g_array_index(counts, guint64, idx)++;
}

void
pdb_report_add_match(PdbReport *report, gint64 timestamp, const gchar *rule_id,
                     const gchar *class_name)
{
  if (!class_name)
    class_name = "system";
  PdbReportRule *r = rule_id ? g_hash_table_lookup(report->rules_by_id, rule_id) : NULL;
  if (!r && rule_id)
    {
      pdb_report_add_rule(report, rule_id, class_name, NULL);
      r = g_hash_table_lookup(report->rules_by_id, rule_id);
    }
  if (r)
    r->count++;
  report->n_matched++;
  count_message(report, timestamp, class_name);
}

void
pdb_report_add_unknown(PdbReport *report, gint64 timestamp, const gchar *program,
                       gsize program_length, const gchar *message, gsize message_length)
{
  report->n_unknown++;
  count_message(report, timestamp, "unknown");

  guint64 kept = report->n_unknown - 1 - report->n_unknown_dropped;
  if (kept >= report->options.max_unknown ||
      !pdb_patternize_message_is_usable(message, message_length) ||
      (program && program_length && !pdb_patternize_message_is_usable(program, program_length)))
    {
      report->n_unknown_dropped++;
      return;
    }
  gchar *key = program ? g_strndup(program, program_length) : g_strdup("");
  UnknownGroup *g = g_hash_table_lookup(report->unknown_groups, key);
  if (!g)
    {
      g = g_new0(UnknownGroup, 1);
      g->program = key;
      g->miner = pdb_miner_new(NULL);
      g->messages = g_ptr_array_new_with_free_func(g_free);
      g_hash_table_insert(report->unknown_groups, g->program, g);
    }
  else
    g_free(key);
  g_ptr_array_add(g->messages, g_strndup(message, message_length));
  pdb_miner_add_message(g->miner, message, message_length);
}

guint64
pdb_report_get_n_messages(const PdbReport *report)
{
  return report->n_messages;
}

guint64
pdb_report_get_n_unknown(const PdbReport *report)
{
  return report->n_unknown;
}

gdouble
pdb_report_percent(guint64 part, guint64 whole)
{
  return whole ? 100.0 * (gdouble) part / (gdouble) whole : 0.0;
}

typedef struct
{
  UnknownGroup *group;
  const PdbMiningCluster *cluster;
} ClusterRef;

static gint
compare_refs(gconstpointer a, gconstpointer b)
{
  const ClusterRef *x = a, *y = b;
  guint nx = x->cluster->members->len, ny = y->cluster->members->len;
  if (nx != ny)
    return nx > ny ? -1 : 1;
  gint c = strcmp(x->group->program, y->group->program);
  if (c)
    return c;
  guint fx = g_array_index(x->cluster->members, guint, 0);
  guint fy = g_array_index(y->cluster->members, guint, 0);
  return fx < fy ? -1 : (fx > fy ? 1 : 0);
}

void
pdb_report_cluster_unknown(PdbReport *report)
{
  if (report->clusters)
    return;
  report->clusters = g_ptr_array_new_with_free_func(cluster_free);

  GArray *refs = g_array_new(FALSE, FALSE, sizeof(ClusterRef));
  GHashTableIter it;
  gpointer value;
  g_hash_table_iter_init(&it, report->unknown_groups);
  while (g_hash_table_iter_next(&it, NULL, &value))
    {
      UnknownGroup *g = value;
      const GPtrArray *clusters = pdb_miner_finish(g->miner);
      for (guint i = 0; i < clusters->len; i++)
        {
          ClusterRef ref = { g, g_ptr_array_index(clusters, i) };
          g_array_append_val(refs, ref);
        }
    }
  g_array_sort(refs, compare_refs);
  report->n_clusters_total = refs->len;

  PdbMiningPatternOptions popts = { FALSE, PDB_MINING_DEFAULT_DELIMITERS };
  guint limit = report->options.max_clusters ? MIN(refs->len, report->options.max_clusters) : refs->len;
  for (guint i = 0; i < limit; i++)
    {
      ClusterRef *ref = &g_array_index(refs, ClusterRef, i);
      const gchar *const *messages = (const gchar *const *) ref->group->messages->pdata;
      PdbMiningPattern *pat = pdb_mining_pattern_build(ref->group->miner, ref->cluster, messages, &popts);
      PdbReportCluster *c = g_new0(PdbReportCluster, 1);
      c->program = ref->group->program;
      c->count = ref->cluster->members->len;
      c->sample = messages[g_array_index(ref->cluster->members, guint, 0)];
      c->pattern = g_strdup(pat->text);
      pdb_mining_pattern_free(pat);
      g_ptr_array_add(report->clusters, c);
    }
  g_array_free(refs, TRUE);
}

/* larger counts first */
static gint
compare_counts_descending(guint64 x, guint64 y)
{
  return x > y ? -1 : (x < y ? 1 : 0);
}

static gint
compare_classes(gconstpointer a, gconstpointer b)
{
  const PdbReportClass *x = *(const PdbReportClass *const *) a;
  const PdbReportClass *y = *(const PdbReportClass *const *) b;
  return x->count != y->count ? compare_counts_descending(x->count, y->count) : strcmp(x->name, y->name);
}

GPtrArray *
pdb_report_sorted_classes(const PdbReport *report)
{
  GPtrArray *a = g_ptr_array_new();
  for (guint i = 0; i < report->classes->len; i++)
    g_ptr_array_add(a, g_ptr_array_index(report->classes, i));
  g_ptr_array_sort(a, compare_classes);
  return a;
}

static gint
compare_rules(gconstpointer a, gconstpointer b)
{
  const PdbReportRule *x = *(const PdbReportRule *const *) a;
  const PdbReportRule *y = *(const PdbReportRule *const *) b;
  if (x->count != y->count)
    return compare_counts_descending(x->count, y->count);
  return x->order < y->order ? -1 : (x->order > y->order ? 1 : 0);
}

GPtrArray *
pdb_report_sorted_rules(const PdbReport *report)
{
  GPtrArray *a = g_ptr_array_new();
  for (guint i = 0; i < report->rules->len; i++)
    {
      PdbReportRule *r = g_ptr_array_index(report->rules, i);
      if (r->count > 0)
        g_ptr_array_add(a, r);
    }
  g_ptr_array_sort(a, compare_rules);
  return a;
}

GArray *
pdb_report_timeline(const PdbReport *report, guint max_buckets, gint64 *bucket_seconds)
{
  static const gint64 sizes[] =
  { 60, 300, 900, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86400, 7 * 86400, 30 * 86400, 365 * 86400 };
  GArray *timeline = g_array_new(FALSE, FALSE, sizeof(PdbReportBucket));
  *bucket_seconds = 0;
  if (report->n_with_time == 0 || max_buckets == 0)
    return timeline;

  gint64 size = sizes[G_N_ELEMENTS(sizes) - 1];
  for (guint i = 0; i < G_N_ELEMENTS(sizes); i++)
    if ((report->max_time / sizes[i]) - (report->min_time / sizes[i]) + 1 <= (gint64) max_buckets)
      {
        size = sizes[i];
        break;
      }
  *bucket_seconds = size;
  gint64 first = (report->min_time / size) * size;
  guint n = (guint) ((report->max_time / size) - (report->min_time / size) + 1);
  guint n_classes = report->classes->len;
  for (guint i = 0; i < n; i++)
    {
      PdbReportBucket b = { first + (gint64) i * size, g_new0(guint64, n_classes) };
      g_array_append_val(timeline, b);
    }

  GHashTableIter it;
  gpointer key, value;
  g_hash_table_iter_init(&it, report->minutes);
  while (g_hash_table_iter_next(&it, &key, &value))
    {
      gint64 t = *(gint64 *) key * 60;
      guint bi = (guint) ((t - first) / size);
      GArray *counts = value;
      PdbReportBucket *b = &g_array_index(timeline, PdbReportBucket, bi);
      for (guint c = 0; c < counts->len; c++)
        b->counts[c] += g_array_index(counts, guint64, c);
    }
  return timeline;
}

void
pdb_report_timeline_free(GArray *timeline)
{
  for (guint i = 0; i < timeline->len; i++)
    g_free(g_array_index(timeline, PdbReportBucket, i).counts);
  g_array_free(timeline, TRUE);
}

void
pdb_report_append_cluster_cut(const PdbReport *r, GString *out)
{
  if (r->clusters->len < r->n_clusters_total)
    g_string_append_printf(out, " (the %u largest shown)", r->clusters->len);
  if (r->n_unknown_dropped)
    g_string_append_printf(out, "; %" G_GUINT64_FORMAT " more not clustered", r->n_unknown_dropped);
}

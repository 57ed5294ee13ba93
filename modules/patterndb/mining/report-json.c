/*
 * report-json.c: the report as one JSON object (for scripts and dashboards).
 *
 *   { "messages", "matched", "unknown", "match_rate",
 *     "time": { "first", "last", "bucket_seconds", "buckets": [{ "start", "counts": {class: n} }] },
 *     "classes": [{ "class", "count" }],
 *     "rules": [{ "id", "class", "pattern", "count" }],          (matched, by count)
 *     "never_matched": [{ "id", "class", "pattern" }],
 *     "unknown_clusters": [{ "program", "count", "sample", "pattern" }] }
 *
 * Invariant: every string goes through json_string(), which escapes
 * quotes, backslashes and control characters, so the output is valid JSON
 * for any input bytes the report accepted.
 */
#include "mining/report-private.h"

#include <string.h>

static void
json_string(GString *out, const gchar *s)
{
  g_string_append_c(out, '"');
  for (const guchar *p = (const guchar *) (s ? s : ""); *p; p++)
    {
      switch (*p)
        {
        case '"': g_string_append(out, "\\\""); break;
        case '\\': g_string_append(out, "\\\\"); break;
        case '\n': g_string_append(out, "\\n"); break;
        case '\r': g_string_append(out, "\\r"); break;
        case '\t': g_string_append(out, "\\t"); break;
        default:
          if (*p < 0x20)
            g_string_append_printf(out, "\\u%04x", *p);
          else
            g_string_append_c(out, (gchar) *p);
        }
    }
  g_string_append_c(out, '"');
}

/* "ID", "class": "CLASS", "pattern": "PATTERN" (after `"id": `) */
static void
json_rule_fields(GString *out, const PdbReportRule *rule)
{
  json_string(out, rule->id);
  g_string_append(out, ", \"class\": ");
  json_string(out, rule->class_name);
  g_string_append(out, ", \"pattern\": ");
  json_string(out, rule->pattern);
}

void
pdb_report_write_json(PdbReport *r, GString *out)
{
  pdb_report_cluster_unknown(r);

  g_string_append_printf(out, "{\n  \"messages\": %" G_GUINT64_FORMAT ",\n  \"matched\": %" G_GUINT64_FORMAT
                              ",\n  \"unknown\": %" G_GUINT64_FORMAT ",\n  \"match_rate\": %.4f,\n",
                         r->n_messages, r->n_matched, r->n_unknown,
                         r->n_messages ? (gdouble) r->n_matched / r->n_messages : 0.0);

  g_string_append(out, "  \"time\": ");
  if (r->n_with_time)
    {
      gint64 bucket;
      GArray *tl = pdb_report_timeline(r, 60, &bucket);
      g_string_append_printf(out, "{ \"first\": %" G_GINT64_FORMAT ", \"last\": %" G_GINT64_FORMAT
                                  ", \"bucket_seconds\": %" G_GINT64_FORMAT ", \"buckets\": [",
                             r->min_time, r->max_time, bucket);
      for (guint i = 0; i < tl->len; i++)
        {
          const PdbReportBucket *b = &g_array_index(tl, PdbReportBucket, i);
          g_string_append_printf(out, "%s\n    { \"start\": %" G_GINT64_FORMAT ", \"counts\": {", i ? "," : "",
                                 b->start);
          gboolean first = TRUE;
          for (guint c = 0; c < r->classes->len; c++)
            {
              if (!b->counts[c])
                continue;
              g_string_append(out, first ? " " : ", ");
              json_string(out, ((PdbReportClass *) g_ptr_array_index(r->classes, c))->name);
              g_string_append_printf(out, ": %" G_GUINT64_FORMAT, b->counts[c]);
              first = FALSE;
            }
          g_string_append(out, first ? "} }" : " } }");
        }
      g_string_append(out, "\n  ] },\n");
      pdb_report_timeline_free(tl);
    }
  else
    g_string_append(out, "null,\n");

  GPtrArray *classes = pdb_report_sorted_classes(r);
  g_string_append(out, "  \"classes\": [");
  for (guint i = 0; i < classes->len; i++)
    {
      const PdbReportClass *c = g_ptr_array_index(classes, i);
      g_string_append_printf(out, "%s\n    { \"class\": ", i ? "," : "");
      json_string(out, c->name);
      g_string_append_printf(out, ", \"count\": %" G_GUINT64_FORMAT " }", c->count);
    }
  g_string_append(out, classes->len ? "\n  ],\n" : "],\n");
  g_ptr_array_free(classes, TRUE);

  GPtrArray *rules = pdb_report_sorted_rules(r);
  g_string_append(out, "  \"rules\": [");
  for (guint i = 0; i < rules->len; i++)
    {
      const PdbReportRule *rule = g_ptr_array_index(rules, i);
      g_string_append_printf(out, "%s\n    { \"id\": ", i ? "," : "");
      json_rule_fields(out, rule);
      g_string_append_printf(out, ", \"count\": %" G_GUINT64_FORMAT " }", rule->count);
    }
  g_string_append(out, rules->len ? "\n  ],\n" : "],\n");
  g_ptr_array_free(rules, TRUE);

  g_string_append(out, "  \"never_matched\": [");
  guint n = 0;
  for (guint i = 0; i < r->rules->len; i++)
    {
      const PdbReportRule *rule = g_ptr_array_index(r->rules, i);
      if (rule->count)
        continue;
      g_string_append_printf(out, "%s\n    { \"id\": ", n++ ? "," : "");
      json_rule_fields(out, rule);
      g_string_append(out, " }");
    }
  g_string_append(out, n ? "\n  ],\n" : "],\n");

  g_string_append_printf(out, "  \"unknown_clusters_total\": %u,\n  \"unknown_not_clustered\": %" G_GUINT64_FORMAT
                              ",\n  \"unknown_clusters\": [", r->n_clusters_total, r->n_unknown_dropped);
  for (guint i = 0; i < r->clusters->len; i++)
    {
      const PdbReportCluster *c = g_ptr_array_index(r->clusters, i);
      g_string_append_printf(out, "%s\n    { \"program\": ", i ? "," : "");
      json_string(out, c->program);
      g_string_append_printf(out, ", \"count\": %u, \"sample\": ", c->count);
      json_string(out, c->sample);
      g_string_append(out, ", \"pattern\": ");
      json_string(out, c->pattern);
      g_string_append(out, " }");
    }
  g_string_append(out, r->clusters->len ? "\n  ]\n}\n" : "]\n}\n");
}

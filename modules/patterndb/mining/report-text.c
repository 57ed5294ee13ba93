/*
 * report-text.c: the report as plain text, for a terminal or a mail.
 *
 * Invariant: sections always appear in the same order, most wanted first
 * (summary, classes, unknown clusters, rules by matches, rules that never
 * matched, capped at max_never_matched) so that the output can be diffed
 * from one day to the next.
 */
#include "mining/report-private.h"

#include <string.h>

static void
format_time(GString *out, gint64 t)
{
  GDateTime *dt = g_date_time_new_from_unix_utc(t);
  gchar *s = dt ? g_date_time_format(dt, "%Y-%m-%d %H:%M:%S") : g_strdup("?");
  g_string_append(out, s);
  g_free(s);
  if (dt)
    g_date_time_unref(dt);
}

static void
write_unknown(PdbReport *r, GString *out)
{
  g_string_append_printf(out, "\nUnknown messages: %" G_GUINT64_FORMAT " in %u clusters",
                         r->n_unknown - r->n_unknown_dropped, r->n_clusters_total);
  pdb_report_append_cluster_cut(r, out);
  g_string_append(out, "\n");
  for (guint i = 0; i < r->clusters->len; i++)
    {
      const PdbReportCluster *c = g_ptr_array_index(r->clusters, i);
      g_string_append_printf(out, "%4u) %u messages (%.1f%% of unknown)", i + 1, c->count,
                             pdb_report_percent(c->count, r->n_unknown));
      if (c->program[0])
        g_string_append_printf(out, ", program %s", c->program);
      g_string_append_printf(out, "\n      sample:  %s\n      pattern: %s\n", c->sample, c->pattern);
    }
}

void
pdb_report_write_text(PdbReport *r, GString *out)
{
  pdb_report_cluster_unknown(r);

  g_string_append_printf(out, "Messages: %" G_GUINT64_FORMAT "; matched %" G_GUINT64_FORMAT
                              " (%.1f%%); unknown %" G_GUINT64_FORMAT " (%.1f%%)\n",
                         r->n_messages, r->n_matched, pdb_report_percent(r->n_matched, r->n_messages),
                         r->n_unknown, pdb_report_percent(r->n_unknown, r->n_messages));
  if (r->n_with_time)
    {
      g_string_append(out, "Time span: ");
      format_time(out, r->min_time);
      g_string_append(out, " .. ");
      format_time(out, r->max_time);
      g_string_append(out, " UTC\n");
    }

  GPtrArray *classes = pdb_report_sorted_classes(r);
  g_string_append(out, "\nClasses\n     count   share  class\n");
  for (guint i = 0; i < classes->len; i++)
    {
      const PdbReportClass *c = g_ptr_array_index(classes, i);
      g_string_append_printf(out, "%10" G_GUINT64_FORMAT " %6.1f%%  %s\n", c->count,
                             pdb_report_percent(c->count, r->n_messages), c->name);
    }
  g_ptr_array_free(classes, TRUE);

  write_unknown(r, out);

  GPtrArray *rules = pdb_report_sorted_rules(r);
  guint shown = r->options.max_rules ? MIN(rules->len, r->options.max_rules) : rules->len;
  g_string_append_printf(out, "\nRules by matches (%u of %u rules matched", rules->len, r->rules->len);
  if (shown < rules->len)
    g_string_append_printf(out, "; top %u", shown);
  gint id_width = 7;
  for (guint i = 0; i < shown; i++)
    id_width = MAX(id_width, (gint) strlen(((PdbReportRule *) g_ptr_array_index(rules, i))->id));
  g_string_append_printf(out, ")\n     count  class         %-*s  pattern\n", id_width, "rule id");
  for (guint i = 0; i < shown; i++)
    {
      const PdbReportRule *rule = g_ptr_array_index(rules, i);
      g_string_append_printf(out, "%10" G_GUINT64_FORMAT "  %-12s  %-*s  %s\n", rule->count, rule->class_name,
                             id_width, rule->id, rule->pattern ? rule->pattern : "");
    }
  g_ptr_array_free(rules, TRUE);

  guint never = 0;
  for (guint i = 0; i < r->rules->len; i++)
    never += ((PdbReportRule *) g_ptr_array_index(r->rules, i))->count == 0;
  g_string_append_printf(out, "\nRules that never matched (%u)\n", never);
  guint listed = 0;
  for (guint i = 0; i < r->rules->len; i++)
    {
      const PdbReportRule *rule = g_ptr_array_index(r->rules, i);
      if (rule->count != 0)
        continue;
      if (r->options.max_never_matched && listed == r->options.max_never_matched)
        {
          g_string_append_printf(out, "  ... and %u more (all of them in --format json)\n", never - listed);
          break;
        }
      g_string_append_printf(out, "  %-12s  %s  %s\n", rule->class_name, rule->id,
                             rule->pattern ? rule->pattern : "");
      listed++;
    }

}

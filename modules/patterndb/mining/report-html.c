/*
 * report-html.c: the report as one self-contained HTML page.
 *
 * The page has no scripts and loads nothing: the chart of classes over
 * time is inline SVG (one stacked bar per time bucket, a <title> on every
 * segment for the exact count), followed by the same tables as the text
 * report; the rules table has a bar chart of the HOT_RULES hottest rules
 * (one bar per rule, its length proportional to its share of the most
 * frequent one, a <title> with the exact count). The largest classes get their own colour (unknown is always
 * red), the rest are summed as "other".
 *
 * Invariant: every string from the input or the database goes through
 * html_escape(); the document is well-formed XHTML-compatible markup.
 */
#include "mining/report-private.h"

#include <string.h>

#define CHART_WIDTH 960
#define CHART_HEIGHT 320
#define PLOT_LEFT 64
#define PLOT_RIGHT 16
#define PLOT_TOP 16
#define PLOT_BOTTOM 48
#define MAX_SERIES 8
#define MAX_BUCKETS 60

static const gchar *const palette[] =
{ "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22" };
#define UNKNOWN_COLOUR "#d62728"
#define HOT_COLOUR "#6a51a3"     /* the bars of the hottest rules: in no other chart */
#define HOT_RULES 15
#define HOT_LABEL_WIDTH 280
#define HOT_BAR_HEIGHT 18
#define OTHER_COLOUR "#7f7f7f"

static void
html_escape(GString *out, const gchar *s)
{
  for (const gchar *p = s ? s : ""; *p; p++)
    {
      switch (*p)
        {
        case '&': g_string_append(out, "&amp;"); break;
        case '<': g_string_append(out, "&lt;"); break;
        case '>': g_string_append(out, "&gt;"); break;
        case '"': g_string_append(out, "&quot;"); break;
        case '\'': g_string_append(out, "&#39;"); break;
        default: g_string_append_c(out, *p); break;
        }
    }
}

static gchar *
format_time(gint64 t, const gchar *format)
{
  GDateTime *dt = g_date_time_new_from_unix_utc(t);
  if (!dt)
    return g_strdup("?");
  gchar *s = g_date_time_format(dt, format);
  g_date_time_unref(dt);
  return s;
}

typedef struct
{
  const gchar *name;
  const gchar *colour;
  GArray *class_indexes;    /* of guint: classes summed in this series */
} Series;

static GArray *
make_series(PdbReport *r)
{
  GArray *series = g_array_new(FALSE, FALSE, sizeof(Series));
  GPtrArray *classes = pdb_report_sorted_classes(r);
  guint colour = 0;
  Series other = { "other", OTHER_COLOUR, g_array_new(FALSE, FALSE, sizeof(guint)) };
  for (guint i = 0; i < classes->len; i++)
    {
      const PdbReportClass *c = g_ptr_array_index(classes, i);
      guint idx = GPOINTER_TO_UINT(g_hash_table_lookup(r->class_index, c->name)) - 1;
      gboolean unknown = strcmp(c->name, "unknown") == 0;
      if (unknown || series->len < MAX_SERIES - 1 || (series->len == MAX_SERIES - 1 && i == classes->len - 1))
        {
          Series s = { c->name, unknown ? UNKNOWN_COLOUR : palette[colour++ % G_N_ELEMENTS(palette)],
                       g_array_new(FALSE, FALSE, sizeof(guint)) };
          g_array_append_val(s.class_indexes, idx);
          g_array_append_val(series, s);
        }
      else
        g_array_append_val(other.class_indexes, idx);
    }
  if (other.class_indexes->len)
    g_array_append_val(series, other);
  else
    g_array_free(other.class_indexes, TRUE);
  g_ptr_array_free(classes, TRUE);
  return series;
}

static void
free_series(GArray *series)
{
  for (guint i = 0; i < series->len; i++)
    g_array_free(g_array_index(series, Series, i).class_indexes, TRUE);
  g_array_free(series, TRUE);
}

static guint64
series_count(const Series *s, const PdbReportBucket *b)
{
  guint64 n = 0;
  for (guint i = 0; i < s->class_indexes->len; i++)
    n += b->counts[g_array_index(s->class_indexes, guint, i)];
  return n;
}

/* The y axis top and tick step: the step is 1, 2 or 5 times a power of ten
 * and at most four steps reach @max_total, so ticks fall on round numbers. */
static guint64
round_tick_step(guint64 max_total, guint64 *top)
{
  guint64 raw = MAX((max_total + 3) / 4, 1);
  guint64 magnitude = 1;

  while (magnitude <= raw / 10)
    magnitude *= 10;
  guint64 step = magnitude;
  if (step < raw)
    step = 2 * magnitude;
  if (step < raw)
    step = 5 * magnitude;
  if (step < raw)
    step = 10 * magnitude;
  *top = MAX((max_total + step - 1) / step, 1) * step;
  return step;
}

/* "minute", "5 minutes", "hour", "3 hours", "day", "week", "30 days". */
static gchar *
bucket_phrase(gint64 seconds)
{
  static const struct { gint64 unit; const gchar *one; const gchar *many; } units[] =
  {
    { 7 * 86400, "week", "weeks" }, { 86400, "day", "days" }, { 3600, "hour", "hours" },
    { 60, "minute", "minutes" }, { 1, "second", "seconds" },
  };
  for (guint i = 0; i < G_N_ELEMENTS(units); i++)
    if (seconds % units[i].unit == 0 && seconds >= units[i].unit)
      {
        gint64 n = seconds / units[i].unit;
        return n == 1 ? g_strdup(units[i].one)
                      : g_strdup_printf("%" G_GINT64_FORMAT " %s", n, units[i].many);
      }
  return g_strdup_printf("%" G_GINT64_FORMAT " seconds", seconds);
}

static void
write_chart(PdbReport *r, GString *out)
{
  if (!r->n_with_time)
    {
      g_string_append(out, "<p class='note'>The input has no timestamps: no timeline.</p>\n");
      return;
    }
  gint64 bucket;
  GArray *tl = pdb_report_timeline(r, MAX_BUCKETS, &bucket);
  GArray *series = make_series(r);
  guint64 max_total = 1;
  for (guint i = 0; i < tl->len; i++)
    {
      guint64 total = 0;
      for (guint c = 0; c < r->classes->len; c++)
        total += g_array_index(tl, PdbReportBucket, i).counts[c];
      max_total = MAX(max_total, total);
    }

  const gdouble plot_w = CHART_WIDTH - PLOT_LEFT - PLOT_RIGHT;
  const gdouble plot_h = CHART_HEIGHT - PLOT_TOP - PLOT_BOTTOM;
  const gdouble slot = plot_w / tl->len;
  const gchar *label_format = bucket >= 86400 ? "%Y-%m-%d" : "%Y-%m-%d %H:%M";

  g_string_append_printf(out, "<svg id='timeline' xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' "
                              "viewBox='0 0 %d %d' role='img' aria-label='messages per class over time'>\n",
                         CHART_WIDTH, CHART_HEIGHT, CHART_WIDTH, CHART_HEIGHT);
  /* axes and y ticks */
  g_string_append_printf(out, "<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='#333'/>\n", PLOT_LEFT, PLOT_TOP,
                         PLOT_LEFT, CHART_HEIGHT - PLOT_BOTTOM);
  g_string_append_printf(out, "<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='#333'/>\n", PLOT_LEFT,
                         CHART_HEIGHT - PLOT_BOTTOM, CHART_WIDTH - PLOT_RIGHT, CHART_HEIGHT - PLOT_BOTTOM);
  guint64 top;
  guint64 step = round_tick_step(max_total, &top);
  for (guint64 v = 0; v <= top; v += step)
    {
      gdouble y = CHART_HEIGHT - PLOT_BOTTOM - plot_h * (gdouble) v / (gdouble) top;
      g_string_append_printf(out, "<text class='tick' x='%d' y='%.1f' text-anchor='end' font-size='11'>%"
                                  G_GUINT64_FORMAT "</text>\n", PLOT_LEFT - 6, y + 4, v);
    }

  for (guint i = 0; i < tl->len; i++)
    {
      const PdbReportBucket *b = &g_array_index(tl, PdbReportBucket, i);
      gdouble x = PLOT_LEFT + i * slot + slot * 0.075;
      gdouble y = CHART_HEIGHT - PLOT_BOTTOM;
      gchar *when = format_time(b->start, "%Y-%m-%d %H:%M");
      for (guint s = 0; s < series->len; s++)
        {
          const Series *se = &g_array_index(series, Series, s);
          guint64 n = series_count(se, b);
          if (!n)
            continue;
          gdouble h = plot_h * (gdouble) n / (gdouble) top;
          y -= h;
          g_string_append_printf(out, "<rect class='bar' x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='%s'>"
                                      "<title>%s: ", x, y, slot * 0.85, h, se->colour, when);
          html_escape(out, se->name);
          g_string_append_printf(out, " %" G_GUINT64_FORMAT "</title></rect>\n", n);
        }
      g_free(when);
    }

  guint label_at[3] = { 0, tl->len / 2, tl->len - 1 };
  for (guint k = 0; k < 3; k++)
    {
      if (k > 0 && label_at[k] == label_at[k - 1])
        continue;
      gchar *label = format_time(g_array_index(tl, PdbReportBucket, label_at[k]).start, label_format);
      /* the outer labels grow inwards so that they are never cut off */
      const gchar *anchor = k == 0 ? "start" : (k == 2 ? "end" : "middle");
      gdouble x = k == 0 ? PLOT_LEFT : (k == 2 ? PLOT_LEFT + plot_w : PLOT_LEFT + label_at[k] * slot + slot / 2);
      g_string_append_printf(out, "<text x='%.1f' y='%d' text-anchor='%s' font-size='11'>%s</text>\n",
                             x, CHART_HEIGHT - PLOT_BOTTOM + 16, anchor, label);
      g_free(label);
    }
  gchar *per = bucket_phrase(bucket);
  g_string_append_printf(out, "<text id='bucket' x='%d' y='%d' font-size='11' fill='#555'>one bar per %s (UTC)</text>\n",
                         PLOT_LEFT, CHART_HEIGHT - 8, per);
  g_free(per);
  g_string_append(out, "</svg>\n<ul class='legend'>\n");
  for (guint s = 0; s < series->len; s++)
    {
      const Series *se = &g_array_index(series, Series, s);
      g_string_append_printf(out, "<li><span style='background:%s'></span>", se->colour);
      html_escape(out, se->name);
      g_string_append(out, "</li>\n");
    }
  g_string_append(out, "</ul>\n");
  free_series(series);
  pdb_report_timeline_free(tl);
}

static void
write_head(PdbReport *r, GString *out)
{
  g_string_append(out,
    "<!DOCTYPE html>\n<html lang='en'>\n<head>\n<meta charset='utf-8'/>\n"
    "<title>patterndb report</title>\n<style>\n"
    "body{font-family:sans-serif;margin:2em;color:#222}\n"
    "table{border-collapse:collapse;margin:0.5em 0 1.5em}\n"
    "td,th{border-bottom:1px solid #ddd;padding:0.25em 0.75em;text-align:left;vertical-align:top}\n"
    "td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
    "code{background:#f4f4f4;padding:0 0.2em;white-space:pre-wrap;word-break:break-all}\n"
    ".summary span{display:inline-block;margin-right:2em;font-size:1.2em}\n"
    ".legend{list-style:none;padding:0}.legend li{display:inline-block;margin-right:1.5em}\n"
    ".legend span{display:inline-block;width:0.9em;height:0.9em;margin-right:0.3em;vertical-align:middle}\n"
    ".note{color:#666}\n.label{color:#666;font-size:0.85em;display:inline-block;min-width:9em}\n</style>\n</head>\n<body>\n<h1>patterndb report</h1>\n");

  g_string_append_printf(out, "<p class='summary'><span>%" G_GUINT64_FORMAT " messages</span>"
                              "<span id='match-rate'>%.1f%% matched</span>"
                              "<span>%" G_GUINT64_FORMAT " unknown</span></p>\n",
                         r->n_messages, pdb_report_percent(r->n_matched, r->n_messages), r->n_unknown);

  g_string_append(out, "<h2>Classes over time</h2>\n");
  write_chart(r, out);
}

static void
write_classes(PdbReport *r, GString *out)
{
  GPtrArray *classes = pdb_report_sorted_classes(r);
  g_string_append(out, "<h2>Classes</h2>\n<table id='classes'>\n<tr><th>class</th><th>messages</th><th>share</th></tr>\n");
  for (guint i = 0; i < classes->len; i++)
    {
      const PdbReportClass *c = g_ptr_array_index(classes, i);
      g_string_append(out, "<tr><td>");
      html_escape(out, c->name);
      g_string_append_printf(out, "</td><td class='n'>%" G_GUINT64_FORMAT "</td><td class='n'>%.1f%%</td></tr>\n",
                             c->count, pdb_report_percent(c->count, r->n_messages));
    }
  g_string_append(out, "</table>\n");
  g_ptr_array_free(classes, TRUE);
}

/* @rules: matched rules, most frequent first (pdb_report_sorted_rules()) */
static void
write_hot_rules_chart(const GPtrArray *rules, GString *out)
{
  const guint bars = MIN(rules->len, HOT_RULES);
  const gint height = bars * (HOT_BAR_HEIGHT + 6) + 8;
  const gdouble plot_w = CHART_WIDTH - HOT_LABEL_WIDTH - 96;

  if (bars == 0)
    return;
  const guint64 top = ((const PdbReportRule *) g_ptr_array_index(rules, 0))->count;
  g_string_append_printf(out, "<svg id='hot-rules' xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' "
                              "viewBox='0 0 %d %d' role='img' aria-label='the %u most frequent rules'>\n",
                         CHART_WIDTH, height, CHART_WIDTH, height, bars);
  for (guint i = 0; i < bars; i++)
    {
      const PdbReportRule *rule = g_ptr_array_index(rules, i);
      const gdouble y = 4 + i * (HOT_BAR_HEIGHT + 6);
      const gdouble w = MAX(1.0, plot_w * (gdouble) rule->count / (gdouble) MAX(top, 1));

      g_string_append_printf(out, "<text x='%d' y='%.1f' text-anchor='end' font-size='12'>", HOT_LABEL_WIDTH - 8,
                             y + HOT_BAR_HEIGHT - 5);
      html_escape(out, rule->id);
      g_string_append_printf(out, "</text>\n<rect class='hot' x='%d' y='%.1f' width='%.1f' height='%d' fill='%s'>"
                                  "<title>", HOT_LABEL_WIDTH, y, w, HOT_BAR_HEIGHT, HOT_COLOUR);
      html_escape(out, rule->id);
      g_string_append_printf(out, ": %" G_GUINT64_FORMAT " messages</title></rect>\n"
                                  "<text x='%.1f' y='%.1f' font-size='12'>%" G_GUINT64_FORMAT "</text>\n",
                             rule->count, HOT_LABEL_WIDTH + w + 6, y + HOT_BAR_HEIGHT - 5, rule->count);
    }
  g_string_append(out, "</svg>\n");
}

/* the class, rule id and pattern cells of a rule's row, and the row's end */
static void
write_rule_cells(GString *out, const PdbReportRule *rule)
{
  html_escape(out, rule->class_name);
  g_string_append(out, "</td><td>");
  html_escape(out, rule->id);
  g_string_append(out, "</td><td><code>");
  html_escape(out, rule->pattern);
  g_string_append(out, "</code></td></tr>\n");
}

static void
write_rules(PdbReport *r, GString *out)
{
  GPtrArray *rules = pdb_report_sorted_rules(r);
  guint shown = r->options.max_rules ? MIN(rules->len, r->options.max_rules) : rules->len;
  g_string_append_printf(out, "<h2>Rules by matches</h2>\n<p class='note'>%u of %u rules matched%s.</p>\n",
                         rules->len, r->rules->len, shown < rules->len ? " (the most frequent shown)" : "");
  write_hot_rules_chart(rules, out);
  g_string_append(out, "<table id='rules'>\n<tr><th>messages</th><th>class</th><th>rule id</th><th>pattern</th></tr>\n");
  for (guint i = 0; i < shown; i++)
    {
      const PdbReportRule *rule = g_ptr_array_index(rules, i);
      g_string_append_printf(out, "<tr><td class='n'>%" G_GUINT64_FORMAT "</td><td>", rule->count);
      write_rule_cells(out, rule);
    }
  g_string_append(out, "</table>\n");
  g_ptr_array_free(rules, TRUE);
}

static void
write_never_matched(PdbReport *r, GString *out)
{
  g_string_append(out, "<h2>Rules that never matched</h2>\n<table id='never-matched'>\n"
                       "<tr><th>class</th><th>rule id</th><th>pattern</th></tr>\n");
  guint listed = 0, never = 0;
  for (guint i = 0; i < r->rules->len; i++)
    never += ((PdbReportRule *) g_ptr_array_index(r->rules, i))->count == 0;
  for (guint i = 0; i < r->rules->len; i++)
    {
      const PdbReportRule *rule = g_ptr_array_index(r->rules, i);
      if (rule->count)
        continue;
      if (r->options.max_never_matched && listed == r->options.max_never_matched)
        {
          g_string_append_printf(out, "<tr><td colspan='3'>... and %u more (all of them in --format json)</td></tr>\n",
                                 never - listed);
          break;
        }
      listed++;
      g_string_append(out, "<tr><td>");
      write_rule_cells(out, rule);
    }
  g_string_append(out, "</table>\n");
}

static void
write_unknown(PdbReport *r, GString *out)
{
  g_string_append_printf(out, "<h2>Unknown messages</h2>\n<p class='note'>%" G_GUINT64_FORMAT
                              " unknown messages in %u clusters, largest first",
                         r->n_unknown - r->n_unknown_dropped, r->n_clusters_total);
  pdb_report_append_cluster_cut(r, out);
  g_string_append(out, ". Turn them into rules with <code>patterndb patternize</code>.</p>\n"
                       "<table id='unknown'>\n<tr><th>messages</th><th>program</th><th>sample and proposed pattern</th></tr>\n");
  if (r->clusters->len == 0)
    g_string_append(out, "<tr><td colspan='3'>none: every message was recognised</td></tr>\n");
  for (guint i = 0; i < r->clusters->len; i++)
    {
      const PdbReportCluster *c = g_ptr_array_index(r->clusters, i);
      g_string_append_printf(out, "<tr><td class='n'>%u</td><td>", c->count);
      html_escape(out, c->program);
      g_string_append(out, "</td><td><span class='label'>sample</span> <code class='sample'>");
      html_escape(out, c->sample);
      g_string_append(out, "</code><br/><span class='label'>proposed pattern</span> <code class='pattern'>");
      html_escape(out, c->pattern);
      g_string_append(out, "</code></td></tr>\n");
    }
  g_string_append(out, "</table>\n");
}

void
pdb_report_write_html(PdbReport *r, GString *out)
{
  pdb_report_cluster_unknown(r);
  write_head(r, out);
  write_classes(r, out);
  write_unknown(r, out);
  write_rules(r, out);
  write_never_matched(r, out);
  g_string_append(out, "</body>\n</html>\n");
}

/*
 * test-mining-report.c: the report without a database: counting, the
 * timeline, clustering of unknown messages, the three renderers, and the
 * timestamp reader (table-driven).
 */
#include <criterion/criterion.h>
#include <glib.h>
#include <string.h>

#include "mining/report.h"

typedef struct { const char *line; gint64 expected; } TimeRow;

Test(mining_report, timestamp_table)
{
  static const TimeRow rows[] =
  {
    { "Mar  3 08:01:01 host prog: x", 1772524861 },           /* 2026-03-03 08:01:01 UTC */
    { "Mar 03 08:01:01 host prog: x", 1772524861 },
    { "<13>Mar  3 08:01:01 host prog: x", 1772524861 },
    { "2026-03-03T08:01:01Z host prog: x", 1772524861 },
    { "2026-03-03T09:01:01.123+01:00 host prog: x", 1772524861 },
    { "2026-03-03 08:01:01 host", 1772524861 },
    { "<165>1 2026-03-03T08:01:01Z host app - - - x", 1772524861 },
    { "Foo  3 08:01:01 host", -1 },
    { "Mar  3 08:01", -1 },
    { "plain message", -1 },
    { "", -1 },
    { "2026-13-03T08:01:01Z x", -1 },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(rows); i++)
    {
      gint64 t = pdb_report_parse_timestamp(rows[i].line, strlen(rows[i].line), 2026);
      cr_expect_eq(t, rows[i].expected, "row %zu (%s): %" G_GINT64_FORMAT ", expected %" G_GINT64_FORMAT,
                   i, rows[i].line, t, rows[i].expected);
    }
}

static PdbReport *
sample_report(void)
{
  PdbReport *r = pdb_report_new(NULL);
  pdb_report_add_rule(r, "r-accept", "system", "Accepted @ESTRING:user: @from @IPv4:ip@");
  pdb_report_add_rule(r, "r-fail", "violation", "Failed @ESTRING:user: @from @IPv4:ip@");
  pdb_report_add_rule(r, "r-never", "system", "never <seen>");
  gint64 t0 = 1772524800;   /* 2026-03-03 08:00:00 */
  for (int i = 0; i < 6; i++)
    pdb_report_add_match(r, t0 + i * 600, "r-accept", "system");
  for (int i = 0; i < 3; i++)
    pdb_report_add_match(r, t0 + i * 600 + 30, "r-fail", "violation");
  static const char *const users[] = { "ann", "ben", "cid", "dan", "eve" };
  for (int i = 0; i < 5; i++)
    {
      gchar *m = g_strdup_printf("Disconnected from %s port %d", users[i], 1000 + i);
      pdb_report_add_unknown(r, t0 + i * 700, "sshd", 4, m, strlen(m));
      g_free(m);
    }
  pdb_report_add_unknown(r, -1, NULL, 0, "odd one & <out>", 15);
  return r;
}

Test(mining_report, counts_and_text)
{
  PdbReport *r = sample_report();
  cr_expect_eq(pdb_report_get_n_messages(r), 15);
  cr_expect_eq(pdb_report_get_n_unknown(r), 6);
  GString *out = g_string_new(NULL);
  pdb_report_write_text(r, out);
  static const char *const expected =
    "Messages: 15; matched 9 (60.0%); unknown 6 (40.0%)\n"
    "Time span: 2026-03-03 08:00:00 .. 2026-03-03 08:50:00 UTC\n"
    "\n"
    "Classes\n"
    "     count   share  class\n"
    "         6   40.0%  system\n"
    "         6   40.0%  unknown\n"
    "         3   20.0%  violation\n"
    "\n"
    "Unknown messages: 6 in 2 clusters\n"
    "   1) 5 messages (83.3% of unknown), program sshd\n"
    "      sample:  Disconnected from ann port 1000\n"
    "      pattern: Disconnected from @ESTRING:src_host: @port @NUMBER:port@\n"
    "   2) 1 messages (16.7% of unknown)\n"
    "      sample:  odd one & <out>\n"
    "      pattern: odd one & <out>\n"
    "\n"
    "Rules by matches (2 of 3 rules matched)\n"
    "     count  class         rule id   pattern\n"
    "         6  system        r-accept  Accepted @ESTRING:user: @from @IPv4:ip@\n"
    "         3  violation     r-fail    Failed @ESTRING:user: @from @IPv4:ip@\n"
    "\n"
    "Rules that never matched (1)\n"
    "  system        r-never  never <seen>\n";
  cr_expect_str_eq(out->str, expected, "text report:\n%s", out->str);
  g_string_free(out, TRUE);
  pdb_report_free(r);
}

Test(mining_report, json_fields)
{
  PdbReport *r = sample_report();
  GString *out = g_string_new(NULL);
  pdb_report_write_json(r, out);
  static const char *const expected[] =
  {
    "\"messages\": 15,", "\"matched\": 9,", "\"unknown\": 6,", "\"match_rate\": 0.6000,",
    "\"bucket_seconds\": 60", "{ \"start\": 1772524800, \"counts\": { \"system\": 1, \"violation\": 1, \"unknown\": 1 } }",
    "{ \"class\": \"system\", \"count\": 6 }",
    "{ \"id\": \"r-accept\", \"class\": \"system\", \"pattern\": \"Accepted @ESTRING:user: @from @IPv4:ip@\", \"count\": 6 }",
    "\"never_matched\": [\n    { \"id\": \"r-never\", \"class\": \"system\", \"pattern\": \"never <seen>\" }\n  ]",
    "{ \"program\": \"sshd\", \"count\": 5, \"sample\": \"Disconnected from ann port 1000\"",
    "{ \"program\": \"\", \"count\": 1, \"sample\": \"odd one & <out>\"",
  };
  for (size_t i = 0; i < G_N_ELEMENTS(expected); i++)
    cr_expect(strstr(out->str, expected[i]), "row %zu: missing %s in\n%s", i, expected[i], out->str);
  g_string_free(out, TRUE);
  pdb_report_free(r);
}

static guint
count(const gchar *haystack, const gchar *needle)
{
  guint n = 0;
  for (const gchar *p = haystack; (p = strstr(p, needle)); p += strlen(needle))
    n++;
  return n;
}

Test(mining_report, html_is_self_contained_with_a_chart)
{
  PdbReport *r = sample_report();
  GString *out = g_string_new(NULL);
  pdb_report_write_html(r, out);
  cr_expect(g_str_has_prefix(out->str, "<!DOCTYPE html>"), "%s", out->str);
  cr_expect(strstr(out->str, "<svg id='timeline'"), "no chart:\n%s", out->str);
  /* one-minute buckets (08:00 .. 08:50), one segment per class present */
  cr_expect_eq(count(out->str, "<rect class='bar'"), 6 + 3 + 5, "bar segments:\n%s", out->str);
  cr_expect(strstr(out->str, "fill='#d62728'><title>2026-03-03 08:00: unknown 1</title>"), "%s", out->str);
  cr_expect(strstr(out->str, "<code class='sample'>odd one &amp; &lt;out&gt;</code>"), "escaped sample:\n%s", out->str);
  cr_expect(strstr(out->str, "<code>never &lt;seen&gt;</code>"), "escaped pattern:\n%s", out->str);
  cr_expect_null(strstr(out->str, "<script"), "no scripts");
  cr_expect_null(strstr(out->str, "http://") && !strstr(out->str, "xmlns='http://www.w3.org/2000/svg'") ? "x" : NULL,
                 "no external resources");
  cr_expect(strstr(out->str, "</html>\n"), "complete document");
  g_string_free(out, TRUE);
  pdb_report_free(r);
}

Test(mining_report, no_timestamps_no_chart)
{
  PdbReport *r = pdb_report_new(NULL);
  pdb_report_add_unknown(r, -1, NULL, 0, "hello", 5);
  GString *out = g_string_new(NULL);
  pdb_report_write_html(r, out);
  cr_expect_null(strstr(out->str, "<svg"), "%s", out->str);
  cr_expect(strstr(out->str, "no timestamps"), "%s", out->str);
  g_string_truncate(out, 0);
  pdb_report_write_json(r, out);
  cr_expect(strstr(out->str, "\"time\": null,"), "%s", out->str);
  g_string_free(out, TRUE);
  pdb_report_free(r);
}

Test(mining_report, unknown_beyond_the_limit_are_counted_not_clustered)
{
  PdbReportOptions o;
  pdb_report_options_init(&o);
  o.max_unknown = 2;
  PdbReport *r = pdb_report_new(&o);
  for (int i = 0; i < 5; i++)
    pdb_report_add_unknown(r, -1, NULL, 0, "same message", 12);
  GString *out = g_string_new(NULL);
  pdb_report_write_text(r, out);
  cr_expect(strstr(out->str, "Unknown messages: 2 in 1 clusters; 3 more not clustered\n"), "%s", out->str);
  g_string_free(out, TRUE);
  pdb_report_free(r);
}

/*
 * test-mining.c: the pieces of `patternize`, table by table: token masking,
 * tokenizing, clustering and splitting, parser choice and naming, literal
 * escaping, XML output, support selection.
 */
#include <criterion/criterion.h>
#include <glib.h>
#include <string.h>

#include "mining/cluster.h"
#include "mining/pattern.h"
#include "mining/patternize.h"
#include "mining/pdb-writer.h"

/* ---- masking ------------------------------------------------------------ */

typedef struct { const char *word; const char *key; } MaskRow;

Test(mining_tokenize, mask_word_table)
{
  static const MaskRow rows[] =
  {
    { "root", "root" },
    { "uid=0", "uid=<*>" },
    { "rhost=", "rhost=" },
    { "tty=NODEVssh", "tty=NODEVssh" },
    { "(24-54-76-216.adelphia.net)", "(<*>)" },
    { "[preauth]", "[preauth]" },
    { "11:", "<*>:" },
    { "blk_-6952295868487656571", "<*>" },
    { "0x1f", "<*>" },
    { "10.0.0.1", "<*>" },
    { "\"RILJ_ACK_WL\",", "\"RILJ_ACK_WL\"," },
    { "()", "(<*>)" },          /* empty brackets: an empty value */
    { "[],", "[<*>]," },
    { "\"\"", "\"<*>\"" },
    { "f()", "f()" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(rows); i++)
    {
      gchar *key = pdb_mining_mask_word(rows[i].word, strlen(rows[i].word));
      cr_expect_str_eq(key, rows[i].key, "row %zu: mask(%s) = %s, expected %s", i, rows[i].word, key, rows[i].key);
      g_free(key);
    }
}

typedef struct { const char *message; const char *keys; const char *last_text; } TokenRow;

Test(mining_tokenize, tokenize_table)
{
  static const TokenRow rows[] =
  {
    { "check pass; user unknown", "check|pass;|user|unknown", "unknown" },
    { "connection from 1.2.3.4 () at Fri Jul  1 07:57:30 2005", "connection|from|<*>|(<*>)|at|<*>",
      "Fri Jul  1 07:57:30 2005" },
    { "at Jun 17 07:07:00 x", "at|<*>|x", "x" },
    { "name an14 an15 an16 an17", "name|<*>", "an14 an15 an16 an17" },
    { "  padded\twords  ", "padded|words", "words" },
    { "Jul is a month", "Jul|is|a|month", "month" },
    /* one variable and nothing else: the text is the key */
    { "cancelNotification,index:0", "cancelNotification,index:0", "cancelNotification,index:0" },
    { "12 34", "12 34", "12 34" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(rows); i++)
    {
      PdbMiningTokens t;
      pdb_mining_tokenize(rows[i].message, strlen(rows[i].message), &t);
      GString *keys = g_string_new(NULL);
      for (guint k = 0; k < t.n_tokens; k++)
        g_string_append_printf(keys, "%s%s", k ? "|" : "", t.tokens[k].key);
      cr_expect_str_eq(keys->str, rows[i].keys, "row %zu (%s): keys %s, expected %s", i,
                       rows[i].message, keys->str, rows[i].keys);
      cr_assert(t.n_tokens > 0);
      const PdbMiningToken *last = &t.tokens[t.n_tokens - 1];
      gchar *text = g_strndup(rows[i].message + last->start, last->end - last->start);
      cr_expect_str_eq(text, rows[i].last_text, "row %zu: last token text '%s', expected '%s'", i,
                       text, rows[i].last_text);
      g_free(text);
      g_string_free(keys, TRUE);
      pdb_mining_tokens_clear(&t);
    }
}

/* ---- clustering --------------------------------------------------------- */

/* Clusters @lines and returns "n1,n2,..." (cluster sizes, largest first). */
static gchar *
cluster_sizes(const char *const *lines)
{
  PdbMiner *m = pdb_miner_new(NULL);
  for (guint i = 0; lines[i]; i++)
    pdb_miner_add_message(m, lines[i], strlen(lines[i]));
  const GPtrArray *clusters = pdb_miner_finish(m);
  GString *s = g_string_new(NULL);
  for (guint c = 0; c < clusters->len; c++)
    {
      const PdbMiningCluster *cl = g_ptr_array_index(clusters, c);
      g_string_append_printf(s, "%s%u", c ? "," : "", cl->members->len);
    }
  pdb_miner_free(m);
  return g_string_free(s, FALSE);
}

typedef struct { const char *name; const char *lines[12]; const char *sizes; } ClusterRow;

Test(mining_cluster, cluster_table)
{
  static const ClusterRow rows[] =
  {
    { "variables in one event",
      { "Accepted password for bob from 10.0.0.1 port 22 ssh2",
        "Accepted password for alice from 10.0.0.2 port 2222 ssh2",
        "Accepted password for carol from 10.0.0.3 port 1 ssh2",
        "Accepted password for dave from 10.0.0.4 port 7 ssh2",
        "Connection closed by 10.0.0.9 [preauth]", NULL }, "4,1" },
    { "few word values are part of the event",
      { "task Transitioned from NEW to UNASSIGNED", "task Transitioned from UNASSIGNED to ASSIGNED",
        "task Transitioned from NEW to UNASSIGNED", "task Transitioned from UNASSIGNED to ASSIGNED", NULL },
      "2,2" },
    { "many word values are a variable",
      { "removing service chargen", "removing service daytime", "removing service echo",
        "removing service time", "removing service ftp", NULL },
      "5" },
    { "few dotted names are still a variable",
      { "wake lock acquire name=com.android.phone, ws=null", "wake lock acquire name=android.audio, ws=null",
        "wake lock acquire name=com.android.phone, ws=null", NULL }, "3" },
    { "few plain values are split",
      { "wake lock acquire name=phone, ws=null", "wake lock acquire name=audio, ws=null",
        "wake lock acquire name=phone, ws=null", NULL }, "2,1" },
    { "templates that differ only where one is variable merge across the tree",
      { "3 files removed from cache", "17 files removed from cache", "no files removed from cache", NULL }, "3" },
    { "different lengths of variable lists",
      { "resolve failed an1 an2 an3", "resolve failed an7 an8", "resolve failed an9 an10 an11 an12", NULL },
      "3" },
    { "different words are different events",
      { "Received disconnect from 1.2.3.4: 11: Bye Bye [preauth]",
        "Received disconnect from 1.2.3.5: 11: disconnected by user", NULL }, "1,1" },
    { "single words stay apart", { "active", "blocked", "active", NULL }, "2,1" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(rows); i++)
    {
      gchar *sizes = cluster_sizes(rows[i].lines);
      cr_expect_str_eq(sizes, rows[i].sizes, "row %zu (%s): cluster sizes %s, expected %s", i,
                       rows[i].name, sizes, rows[i].sizes);
      g_free(sizes);
    }
}

/* ---- patterns ----------------------------------------------------------- */

typedef struct { const char *lines[8]; gboolean named; const char *pattern; } PatternRow;

/* The pattern of the largest cluster of @lines; @n_matching: its examples. */
static gchar *
pattern_of(const char *const *lines, gboolean named, guint *n_matching, gchar **first_values)
{
  PdbMiner *m = pdb_miner_new(NULL);
  for (guint i = 0; lines[i]; i++)
    pdb_miner_add_message(m, lines[i], strlen(lines[i]));
  const GPtrArray *clusters = pdb_miner_finish(m);
  PdbMiningPatternOptions opts = { named, PDB_MINING_DEFAULT_DELIMITERS };
  PdbMiningPattern *p = pdb_mining_pattern_build(m, g_ptr_array_index(clusters, 0),
                                                 (const gchar *const *) lines, &opts);
  gchar *text = g_strdup(p->text);
  if (n_matching)
    *n_matching = p->matching->len;
  if (first_values)
    {
      GString *v = g_string_new(NULL);
      guint line = g_array_index(p->matching, guint, 0);
      for (guint f = 0; f < p->fields->len; f++)
        {
          const PdbMiningValue *val = &g_array_index(p->values, PdbMiningValue, f);
          g_string_append_printf(v, "%s%.*s", f ? "|" : "", (int) val->length, lines[line] + val->offset);
        }
      *first_values = g_string_free(v, FALSE);
    }
  pdb_mining_pattern_free(p);
  pdb_miner_free(m);
  return text;
}

Test(mining_pattern, parser_choice_table)
{
  static const PatternRow rows[] =
  {
    { { "Accepted password for bob from 10.0.0.1 port 22 ssh2",
        "Accepted password for alice from 10.0.0.2 port 2222 ssh2",
        "Accepted password for carol from 10.0.0.3 port 1 ssh2",
        "Accepted password for dave from 10.0.0.4 port 9 ssh2", NULL }, FALSE,
      "Accepted password for @ESTRING:user: @from @IPv4:src_ip@ port @NUMBER:port@ ssh2" },
    { { "login from a.example.com ok", "login from db.example.org ok", "login from x-1.example.net ok", NULL },
      FALSE, "login from @HOSTNAME:src_host@ ok" },
    { { "addr fe80::1 up", "addr 2001:db8::2 up", "addr ::1 up", NULL }, FALSE, "addr @IPv6@ up" },
    { { "session closed for user root", "session closed for user news", "session closed for user cyrus",
        "session closed for user test", NULL }, FALSE, "session closed for user @ANYSTRING:user@" },
    { { "update cn304/pkts_out.rrd", "update dn731/pkts_out.rrd", "update an1/pkts_out.rrd", NULL }, FALSE,
      "update @STRING@/pkts_out.rrd" },
    { { "update cn304/pkts_out.rrd", "update dn731/pkts_out.rrd", "update an1/pkts_out.rrd", NULL }, TRUE,
      "update @STRING:.dict.string0@/pkts_out.rrd" },
    { { "auth rhost=1.2.3.4 x", "auth rhost=10.20.30.40 x", "auth rhost=5.6.7.8 x", NULL }, FALSE,
      "auth rhost=@IPv4:rhost@ x" },
    { { "tag \"a1\" set", "tag \"b22\" set", "tag \"c333\" set", NULL }, FALSE, "tag @QSTRING::\"@ set" },
    { { "mail to u1@example.com sent", "mail to u22@example.com sent", "mail to u3@example.com sent",
        "mail to u4@example.com sent", NULL },
      FALSE, "mail to @STRING@@@example.com sent" },
    { { "x a-1@h y", "x b-2@h y", "x c_3@h y", "x d-4@h y", NULL }, FALSE, "x @STRING::-_@@@h y" },
    { { "value a1,b x", "value c2,d x", "value e3,f x", "value g4,h x", NULL }, FALSE, "value @ESTRING:: @x" },
    { { "at Fri Jul  1 07:57:30 2005 done", "at Tue Jul 26 05:47:42 2005 done", NULL }, FALSE,
      "at @ESTRING:: 2005@ done" },
    { { "node node-129 up", "node node-139 up", "node node-2 up", "node node-3 up", NULL }, FALSE,
      "node node-@NUMBER@ up" },
    /* an empty value among host names: ESTRING, which accepts it */
    { { "conn 1.2.3.4 (a.example.com) at x", "conn 1.2.3.5 () at x", "conn 1.2.3.6 (b.example.org) at x", NULL },
      FALSE, "conn @IPv4@ (@ESTRING::)@ at x" },
    /* extra whitespace before a variable moves into its value */
    { { "Invalid user admin from 1.2.3.4", "Invalid user  0101 from 1.2.3.5", "Invalid user bob from 1.2.3.6",
        NULL }, FALSE, "Invalid user @ESTRING:user: from@ @IPv4@" },
    /* a message seen once: its masked variables are the fields */
    { { "On node 0 totalpages: 32430", NULL }, FALSE, "On node @NUMBER:node@ totalpages: @NUMBER@" },
    { { "Initializing CPU#0", NULL }, FALSE, "Initializing @STRING::#@" },
    { { "cancelNotification,index:0", NULL }, FALSE, "cancelNotification,index:0" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(rows); i++)
    {
      guint n = 0;
      gchar *text = pattern_of(rows[i].lines, rows[i].named, &n, NULL);
      cr_expect_str_eq(text, rows[i].pattern, "row %zu: pattern\n  %s\nexpected\n  %s", i, text, rows[i].pattern);
      guint total = 0;
      while (rows[i].lines[total])
        total++;
      cr_expect_eq(n, total, "row %zu: %u of %u lines usable as examples", i, n, total);
      g_free(text);
    }
}

Test(mining_pattern, values_are_the_captures)
{
  static const char *const lines[] =
  { "tag \"a1\" set 10.0.0.1 via r1 r2 r3", "tag \"b22\" set 10.0.0.2 via r4", "tag \"c3\" set 1.2.3.4 via r5 r6",
    "tag \"d4\" set 1.2.3.5 via r7", NULL };
  gchar *values = NULL;
  gchar *text = pattern_of(lines, FALSE, NULL, &values);
  cr_expect_str_eq(text, "tag @QSTRING::\"@ set @IPv4@ via @ANYSTRING@");
  cr_expect_str_eq(values, "a1|10.0.0.1|r1 r2 r3");
  g_free(text);
  g_free(values);
}

Test(mining_pattern, members_that_do_not_fit_are_not_examples)
{
  /* the second separator differs in one line: that line cannot be an example */
  static const char *const lines[] = { "a x1 b", "a x2 b", "a x3  b", NULL };
  guint n = 0;
  gchar *text = pattern_of(lines, FALSE, &n, NULL);
  cr_expect_str_eq(text, "a @ESTRING:: @b");
  cr_expect_eq(n, 2);
  g_free(text);
}

typedef struct { const char *before; const char *parser; const char *name; } NameRow;

Test(mining_pattern, context_name_table)
{
  static const NameRow rows[] =
  {
    { "Accepted password for ", "ESTRING", "user" },
    { "Invalid user ", "ESTRING", "user" },
    { "for ", "HOSTNAME", NULL },
    { "for ", "NUMBER", NULL },
    { "from ", "IPv4", "src_ip" },
    { "from ", "IPv6", "src_ip" },
    { "from ", "HOSTNAME", "src_host" },
    { "to ", "IPv4", "dst_ip" },
    { " port ", "NUMBER", "port" },
    { "uid=", "NUMBER", "uid" },
    { "a rhost=", "HOSTNAME", "rhost" },
    { "(uid=", "NUMBER", "uid" },
    { "=", "ESTRING", NULL },
    { "blk_", "NUMBER", NULL },
    { "Port:", "NUMBER", "port" },
    { "Port: ", "NUMBER", "port" },
    { "something ", "ESTRING", NULL },
    { NULL, "ESTRING", NULL },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(rows); i++)
    {
      gchar *name = pdb_mining_context_name(rows[i].before, rows[i].parser);
      if (rows[i].name)
        cr_expect(name && strcmp(name, rows[i].name) == 0, "row %zu ('%s', %s): name %s, expected %s", i,
                  rows[i].before, rows[i].parser, name ? name : "(none)", rows[i].name);
      else
        cr_expect_null(name, "row %zu ('%s', %s): name %s, expected none", i, rows[i].before,
                       rows[i].parser, name);
      g_free(name);
    }
}

Test(mining_pattern, literal_at_is_doubled)
{
  GString *s = g_string_new(NULL);
  pdb_mining_append_literal(s, "a@b@@c", -1);
  cr_expect_str_eq(s->str, "a@@b@@@@c");
  g_string_free(s, TRUE);
}

/* ---- XML ---------------------------------------------------------------- */

Test(mining_xml, escape_and_ids)
{
  GString *s = g_string_new(NULL);
  pdb_mining_xml_escape(s, "a<b>&'\"c", -1);
  cr_expect_str_eq(s->str, "a&lt;b&gt;&amp;&apos;&quot;c");
  g_string_free(s, TRUE);

  gchar *a = pdb_mining_stable_id("sshd", "x @NUMBER@");
  gchar *b = pdb_mining_stable_id("sshd", "x @NUMBER@");
  gchar *c = pdb_mining_stable_id("sshd", "y @NUMBER@");
  cr_expect_str_eq(a, b, "ids must be stable");
  cr_expect_str_neq(a, c, "different patterns, different ids");
  cr_expect(g_regex_match_simple("^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", a, 0, 0),
            "id %s is not UUID-shaped", a);
  g_free(a);
  g_free(b);
  g_free(c);
}

static gchar *
patternize(const char *program, const char *const *lines, gdouble support, gboolean iterate)
{
  PdbPatternizeOptions o;
  pdb_patternize_options_init(&o);
  o.support = support;
  o.iterate_outliers = iterate;
  PdbPatternizer *p = pdb_patternizer_new(&o);
  for (guint i = 0; lines[i]; i++)
    pdb_patternizer_add(p, program, program ? strlen(program) : 0, lines[i], strlen(lines[i]));
  GString *out = g_string_new(NULL);
  pdb_patternizer_write(p, out, "6", "2026-01-01");
  pdb_patternizer_free(p);
  return g_string_free(out, FALSE);
}

static guint
count(const gchar *haystack, const gchar *needle)
{
  guint n = 0;
  for (const gchar *p = haystack; (p = strstr(p, needle)); p += strlen(needle))
    n++;
  return n;
}

Test(mining_xml, ruleset_rule_and_examples)
{
  static const char *const lines[] =
  { "Accepted password for bob from 10.0.0.1 port 22 ssh2", "Accepted password for al&ce from 10.0.0.2 port 23 ssh2",
    "Accepted password for carol from 10.0.0.3 port 24 ssh2",
    "Accepted password for dave from 10.0.0.4 port 25 ssh2", "bad\001control", NULL };
  gchar *xml = patternize("sshd", lines, 0.0, FALSE);
  static const char *const expected[] =
  {
    "<?xml version='1.0' encoding='UTF-8'?>\n<patterndb version='6' pub_date='2026-01-01'>\n",
    "  <ruleset name='sshd' id='",
    "    <pattern>sshd</pattern>\n    <rules>\n",
    "      <rule provider='patternize' id='",
    "' class='system'>\n        <!-- support: 4 -->\n",
    "<pattern>Accepted password for @ESTRING:user: @from @IPv4:src_ip@ port @NUMBER:port@ ssh2</pattern>",
    "<test_message program='sshd'>Accepted password for bob from 10.0.0.1 port 22 ssh2</test_message>",
    "<test_value name='user'>bob</test_value>",
    "<test_value name='src_ip'>10.0.0.1</test_value>",
    "<test_value name='port'>22</test_value>",
    "</rules>\n  </ruleset>\n</patterndb>\n",
  };
  for (size_t i = 0; i < G_N_ELEMENTS(expected); i++)
    cr_expect(strstr(xml, expected[i]), "row %zu: missing %s in\n%s", i, expected[i], xml);
  cr_expect_eq(count(xml, "<rule "), 1, "the control-character line is skipped:\n%s", xml);
  g_free(xml);
}

Test(mining_xml, catch_all_ruleset_without_program)
{
  static const char *const lines[] = { "hello world", NULL };
  gchar *xml = patternize(NULL, lines, 0.0, FALSE);
  cr_expect(strstr(xml, "<ruleset name='patternize'"), "%s", xml);
  cr_expect_null(strstr(xml, "    <pattern>patternize</pattern>"), "no program pattern:\n%s", xml);
  cr_expect(strstr(xml, "<test_message program='patternize'>hello world</test_message>"), "%s", xml);
  g_free(xml);
}

Test(mining_xml, support_and_iterated_outliers)
{
  static const char *const lines[] =
  { "a 1", "a 2", "a 3", "a 4", "a 5", "a 6", "a 7", "a 8", "b x", "c y", NULL };
  gchar *xml = patternize("p", lines, 50.0, FALSE);
  cr_expect_eq(count(xml, "<rule "), 1, "only the cluster of 8 reaches 50%%:\n%s", xml);
  g_free(xml);
  xml = patternize("p", lines, 50.0, TRUE);
  cr_expect_eq(count(xml, "<rule "), 3, "with -o the outliers reach 50%% of themselves:\n%s", xml);
  g_free(xml);
  xml = patternize("p", lines, 0.0, FALSE);
  cr_expect_eq(count(xml, "<rule "), 3, "%s", xml);
  g_free(xml);
}

/*
 * test-correlation.c: the correlation state (modules/patterndb/correlation)
 * driven with snapshot messages: contexts and scopes, match and timeout
 * actions, ${name}@N, inherit modes, rate limits, conditions,
 * create-context and the bound on live contexts.
 */
#include "test-db-common.h"
#include "correlation/correlation.h"
#include "db/filter-expr.h"
#include "correlation/nv-message.h"

static const gchar db_head[] =
  "<?xml version='1.0' encoding='UTF-8'?>\n"
  "<patterndb version='4' pub_date='2010-10-17'>\n"
  " <ruleset name='p' id='rs1'><pattern>p</pattern><rules>\n";
static const gchar db_tail[] = " </rules></ruleset>\n</patterndb>\n";

typedef struct
{
  PdbDatabase *db;
  PdbCorrelation *corr;
  PdbResult result;
  GPtrArray *emitted;   /* of PdbNvMessage* (referenced) */
} Fixture;

static Fixture fx;

static void
setup_db(const gchar *rules, guint max_contexts)
{
  gchar *text = g_strconcat(db_head, rules, db_tail, NULL);
  gchar *path = write_file("t.xml", text);
  GError *error = NULL;

  fx.db = pdb_database_load(path, NULL, &error);
  cr_assert_not_null(fx.db, "load: %s", error ? error->message : "?");
  fx.corr = pdb_correlation_new(&pdb_nv_message_host, max_contexts);
  pdb_result_init(&fx.result);
  fx.emitted = g_ptr_array_new_with_free_func((GDestroyNotify) pdb_nv_message_unref);
  g_free(text);
  g_free(path);
}

static void
setup(void)
{
  test_tmpdir_setup();
  memset(&fx, 0, sizeof(fx));
}

static void
teardown(void)
{
  if (fx.corr)
    {
      pdb_correlation_free(fx.corr);
      pdb_result_clear(&fx.result);
      pdb_database_unref(fx.db);
      g_ptr_array_free(fx.emitted, TRUE);
    }
  test_tmpdir_teardown();
}

static void
collect(gpointer msg, gpointer user_data)
{
  (void) user_data;
  g_ptr_array_add(fx.emitted, pdb_nv_message_ref(msg));
}

/* Classifies "host/pid: message" for program p at time @stamp and correlates it. */
static void
feed(const gchar *host, const gchar *pid, const gchar *message, gint64 stamp)
{
  PdbNvMessage *msg = pdb_nv_message_new();

  pdb_nv_message_set(msg, "HOST", host, -1, PDB_VALUE_STRING);
  pdb_nv_message_set(msg, "PROGRAM", "p", -1, PDB_VALUE_STRING);
  pdb_nv_message_set(msg, "PID", pid, -1, PDB_VALUE_STRING);
  pdb_nv_message_set(msg, "MESSAGE", message, -1, PDB_VALUE_STRING);
  pdb_database_classify(fx.db, "p", 1, message, strlen(message), &fx.result);
  pdb_result_apply(&fx.result, "p", message, &pdb_nv_message_ops, msg);
  pdb_correlation_process(fx.corr, fx.db, &fx.result, msg, stamp, G_MAXINT64, collect, NULL);
  pdb_nv_message_unref(msg);
}

static const gchar *
emitted_value(guint i, const gchar *name)
{
  cr_assert_lt(i, fx.emitted->len, "only %u messages emitted", fx.emitted->len);
  const gchar *v = pdb_nv_message_get(g_ptr_array_index(fx.emitted, i), name, NULL);
  return v ? v : "(unset)";
}

static const gchar session_rules[] =
  "<rule provider='t' id='open' class='c' context-id='sess-$sid' context-timeout='30'>\n"
  " <patterns><pattern>open @NUMBER:sid@ user @ANYSTRING:user@</pattern></patterns>\n"
  " <actions><action trigger='match' rate='1/60'><message>\n"
  "  <values><value name='MESSAGE'>matched ${user}</value></values><tags><tag>gen</tag></tags>\n"
  " </message></action></actions></rule>\n"
  "<rule provider='t' id='close' class='c' context-id='sess-$sid' context-timeout='30'>\n"
  " <patterns><pattern>close @NUMBER:sid@</pattern></patterns>\n"
  " <actions>\n"
  "  <action trigger='timeout' condition='\"$(context-length)\" &gt;= \"2\"'><message inherit-mode='context'>\n"
  "   <values><value name='MESSAGE'>session $sid user ${user}@2</value></values></message></action>\n"
  "  <action trigger='match'><message inherit-mode='last-message'>\n"
  "   <values><value name='MESSAGE'>lm ${MESSAGE}@1</value></values><tags><tag>t2</tag></tags></message></action>\n"
  " </actions></rule>\n";

TestSuite(correlation, .init = setup, .fini = teardown);

Test(correlation, match_action_inherit_none_copies_scope_fields_only)
{
  setup_db(session_rules, 0);
  feed("h1", "5", "open 7 user bob", 100);
  cr_assert_eq(fx.emitted->len, 1);
  cr_assert_str_eq(emitted_value(0, "MESSAGE"), "matched ");   /* ${user} is @0: the new message */
  cr_assert_str_eq(emitted_value(0, "HOST"), "h1");
  cr_assert_str_eq(emitted_value(0, "PROGRAM"), "p");
  cr_assert_str_eq(emitted_value(0, "PID"), "5");
  cr_assert_str_eq(emitted_value(0, ".classifier.class"), "(unset)");
  cr_assert(pdb_nv_message_has_tag(g_ptr_array_index(fx.emitted, 0), "gen"));
  cr_assert_eq(pdb_correlation_get_context_count(fx.corr), 1);
}

Test(correlation, rate_limit_is_keyed_by_rule_action_and_scope_not_context_id)
{
  setup_db(session_rules, 0);
  feed("h1", "5", "open 7 user bob", 100);
  feed("h1", "5", "open 8 user al", 101);     /* same scope fields: no token left */
  feed("h1", "6", "open 9 user cy", 102);     /* another PID: its own bucket */
  cr_assert_eq(fx.emitted->len, 2);
  cr_assert_str_eq(emitted_value(1, "PID"), "6");
  feed("h1", "5", "open 10 user di", 161);    /* 60 s later: refilled */
  cr_assert_eq(fx.emitted->len, 3, "got %u", fx.emitted->len);
  cr_assert_eq(pdb_correlation_get_context_count(fx.corr), 1, "7, 8 and 9 expired at 130..132");
}

Test(correlation, last_message_inherit_and_lookback)
{
  setup_db(session_rules, 0);
  feed("h1", "5", "open 7 user bob", 100);
  feed("h1", "5", "close 7", 101);
  cr_assert_eq(fx.emitted->len, 2);
  cr_assert_str_eq(emitted_value(1, "MESSAGE"), "lm close 7");
  cr_assert_str_eq(emitted_value(1, ".classifier.rule_id"), "close");
  cr_assert_str_eq(emitted_value(1, ".classifier.context_id"), "sess-7");
  cr_assert(pdb_nv_message_has_tag(g_ptr_array_index(fx.emitted, 1), "t2"));
  cr_assert(pdb_nv_message_has_tag(g_ptr_array_index(fx.emitted, 1), ".classifier.c"));
}

Test(correlation, timeout_fires_when_clock_passes_deadline_with_context_inherit)
{
  setup_db(session_rules, 0);
  feed("h1", "5", "open 7 user bob", 100);
  feed("h1", "5", "close 7", 110);
  pdb_correlation_advance_time(fx.corr, 30, collect, NULL);
  cr_assert_eq(fx.emitted->len, 2, "expired too early: the clock must pass the deadline");
  cr_assert_eq(pdb_correlation_get_context_count(fx.corr), 1);
  pdb_correlation_advance_time(fx.corr, 1, collect, NULL);
  cr_assert_eq(fx.emitted->len, 3);
  cr_assert_str_eq(emitted_value(2, "MESSAGE"), "session 7 user bob");
  cr_assert_str_eq(emitted_value(2, "user"), "bob");   /* merged from the first message */
  cr_assert_str_eq(emitted_value(2, ".classifier.rule_id"), "close");
  cr_assert_eq(pdb_correlation_get_context_count(fx.corr), 0);
}

Test(correlation, condition_false_suppresses_timeout_action)
{
  setup_db(session_rules, 0);
  feed("h1", "6", "close 8", 100);        /* one message: $(context-length) >= 2 is false */
  pdb_correlation_expire_all(fx.corr, collect, NULL);
  cr_assert_eq(fx.emitted->len, 1);       /* only the match action */
  cr_assert_str_eq(emitted_value(0, "MESSAGE"), "lm close 8");
}

Test(correlation, clock_follows_message_stamps_capped_at_now)
{
  setup_db(session_rules, 0);
  feed("h1", "5", "open 7 user bob", 100);
  feed("h1", "6", "close 1", 131);        /* passes 7's deadline (130): it expires first */
  cr_assert_eq(pdb_correlation_get_context_count(fx.corr), 1);
  feed("h1", "6", "close 2", 161);        /* reaches close 1's deadline (161) without passing it */
  cr_assert_eq(pdb_correlation_get_context_count(fx.corr), 2);
  feed("h1", "6", "close 2", 162);
  cr_assert_eq(pdb_correlation_get_context_count(fx.corr), 1);
  cr_assert_eq(pdb_correlation_get_time(fx.corr), 162);

  PdbNvMessage *msg = pdb_nv_message_new();
  pdb_nv_message_set(msg, "MESSAGE", "x", -1, PDB_VALUE_STRING);
  pdb_result_clear(&fx.result);
  pdb_result_init(&fx.result);
  pdb_correlation_process(fx.corr, fx.db, &fx.result, msg, 5000, 170, collect, NULL);
  pdb_nv_message_unref(msg);
  cr_assert_eq(pdb_correlation_get_time(fx.corr), 170, "a future stamp is capped at now");
  pdb_correlation_process(fx.corr, fx.db, &fx.result, NULL, 10, 180, collect, NULL);
  cr_assert_eq(pdb_correlation_get_time(fx.corr), 170, "the clock never goes back");
}

Test(correlation, scopes_separate_contexts)
{
  static const gchar rules[] =
    "<rule provider='t' id='g' class='c' context-id='k' context-scope='global' context-timeout='10'>\n"
    " <patterns><pattern>g @NUMBER:n@</pattern></patterns>\n"
    " <actions><action trigger='timeout'><message inherit-mode='context'>\n"
    "  <values><value name='N'>${n}@1 ${n}@2 ${n}@3</value></values></message></action></actions></rule>\n"
    "<rule provider='t' id='h' class='c' context-id='k' context-scope='host' context-timeout='10'>\n"
    " <patterns><pattern>h @NUMBER:n@</pattern></patterns>\n"
    " <actions><action trigger='timeout'><message>\n"
    "  <values><value name='N'>${n}@1</value></values></message></action></actions></rule>\n";

  setup_db(rules, 0);
  feed("h1", "1", "g 1", 100);
  feed("h2", "2", "g 2", 101);
  feed("h1", "3", "g 3", 102);
  feed("h1", "1", "h 4", 100);
  feed("h2", "1", "h 5", 100);
  cr_assert_eq(pdb_correlation_get_context_count(fx.corr), 3);
  pdb_correlation_expire_all(fx.corr, collect, NULL);
  cr_assert_eq(fx.emitted->len, 3);
  /* nearest expiry first: the host contexts (set at 102 + 10) then... all share 112; order of setting */
  cr_assert_str_eq(emitted_value(0, "N"), "3 2 1");
  cr_assert_str_eq(emitted_value(0, "HOST"), "h1");   /* inherited from the last message */
  cr_assert_str_eq(emitted_value(1, "N"), "4");
  cr_assert_str_eq(emitted_value(1, "HOST"), "h1");   /* host scope: HOST copied */
  cr_assert_str_eq(emitted_value(1, "PROGRAM"), "(unset)");
  cr_assert_str_eq(emitted_value(2, "N"), "5");
  cr_assert_str_eq(emitted_value(2, "HOST"), "h2");
}

Test(correlation, context_limit_expires_nearest_first_and_fires_its_actions)
{
  static const gchar fixed[] =
    "<rule provider='t' id='o' class='c' context-id='c$n' context-timeout='100'>\n"
    " <patterns><pattern>o @NUMBER:n@</pattern></patterns>\n"
    " <actions><action trigger='timeout'><message>\n"
    "  <values><value name='MESSAGE'>expired ${n}@1</value></values></message></action></actions></rule>\n";
  setup_db(fixed, 2);
  feed("h", "1", "o 1", 10);
  feed("h", "1", "o 2", 20);
  feed("h", "1", "o 1", 30);   /* refreshes 1: now 2 is the nearest to expire */
  cr_assert_eq(fx.emitted->len, 0);
  feed("h", "1", "o 3", 40);
  cr_assert_eq(pdb_correlation_get_context_count(fx.corr), 2);
  cr_assert_eq(fx.emitted->len, 1);
  cr_assert_str_eq(emitted_value(0, "MESSAGE"), "expired 2");
}

Test(correlation, create_context_seeds_a_new_context)
{
  static const gchar rules[] =
    "<rule provider='t' id='a' class='c' context-id='x$n' context-timeout='10'>\n"
    " <patterns><pattern>a @NUMBER:n@</pattern></patterns>\n"
    " <actions>\n"
    "  <action trigger='match'><create-context context-id='y$n' context-timeout='50' context-scope='global'>\n"
    "   <message inherit-mode='last-message'><values><value name='SEED'>seed $n</value></values></message>\n"
    "  </create-context></action>\n"
    "  <action trigger='timeout'><message inherit-mode='last-message'>\n"
    "   <values><value name='OUT'>${SEED:-none} ${.classifier.context_id}@1</value></values></message></action>\n"
    " </actions></rule>\n";

  setup_db(rules, 0);
  feed("h", "1", "a 5", 100);
  cr_assert_eq(fx.emitted->len, 0, "create-context emits nothing itself");
  cr_assert_eq(pdb_correlation_get_context_count(fx.corr), 2);
  /* 3.38: the created context lives for the creating rule's context-timeout
   * (10), not its own (50), and its seed keeps the .classifier.context_id it
   * inherited (x5): it gets none of its own */
  pdb_correlation_advance_time(fx.corr, 11, collect, NULL);
  cr_assert_eq(fx.emitted->len, 2, "both contexts expire after the rule's 10 s");
  cr_assert_str_eq(emitted_value(0, "OUT"), "none x5");
  cr_assert_str_eq(emitted_value(1, "OUT"), "seed 5 x5");
  cr_assert_eq(pdb_correlation_get_context_count(fx.corr), 0);
}

/* copy_time: what a host with timestamps does (here the time is a STAMP value) */
static void
copy_stamp_value(gpointer dst, gpointer src)
{
  const gchar *v = pdb_nv_message_get(src, "STAMP", NULL);

  if (v)
    pdb_nv_message_set(dst, "STAMP", v, -1, PDB_VALUE_STRING);
}

Test(correlation, inherit_none_gets_the_newest_message_time)
{
  static const gchar rules[] =
    "<rule provider='t' id='s' class='c' context-id='c' context-timeout='10'>\n"
    " <patterns><pattern>s @NUMBER:STAMP@</pattern></patterns>\n"
    " <actions>\n"
    "  <action trigger='match'><message><values><value name='MESSAGE'>M</value></values></message></action>\n"
    "  <action trigger='timeout'><message inherit-mode='none'><values><value name='MESSAGE'>T</value></values></message></action>\n"
    " </actions></rule>\n"
    "<rule provider='t' id='n' class='c'>\n"
    " <patterns><pattern>n @NUMBER:STAMP@</pattern></patterns>\n"
    " <actions><action trigger='match'><message><values><value name='MESSAGE'>N</value></values></message></action></actions>\n"
    "</rule>\n";
  static PdbCorrelationHost host;

  setup_db(rules, 0);
  host = pdb_nv_message_host;
  host.copy_time = copy_stamp_value;
  pdb_correlation_free(fx.corr);
  fx.corr = pdb_correlation_new(&host, 0);
  feed("h", "1", "s 100", 100);
  feed("h", "1", "s 105", 105);
  feed("h", "1", "n 106", 106);
  pdb_correlation_advance_time(fx.corr, 20, collect, NULL);
  cr_assert_eq(fx.emitted->len, 4);
  const gchar *want[][2] = { { "M", "100" }, { "M", "105" }, { "N", "106" }, { "T", "105" } };
  for (guint i = 0; i < 4; i++)
    {
      cr_assert_str_eq(emitted_value(i, "MESSAGE"), want[i][0], "message %u", i);
      cr_assert_str_eq(emitted_value(i, "STAMP"), want[i][1], "message %u (%s): the newest message's time", i, want[i][0]);
    }
}

Test(correlation, actions_without_context)
{
  static const gchar rules[] =
    "<rule provider='t' id='nc' class='c'>\n"
    " <patterns><pattern>nc @NUMBER:n@</pattern></patterns>\n"
    " <actions>\n"
    "  <action trigger='match'><message inherit-mode='context'><values><value name='MESSAGE'>A ${n}@1 ${n}</value></values></message></action>\n"
    "  <action trigger='match'><message><values><value name='MESSAGE'>B ${n}@1</value></values></message></action>\n"
    " </actions></rule>\n";

  setup_db(rules, 0);
  feed("h1", "5", "nc 3", 100);
  cr_assert_eq(fx.emitted->len, 2);
  cr_assert_eq(pdb_correlation_get_context_count(fx.corr), 0);
  cr_assert_str_eq(emitted_value(0, "MESSAGE"), "A 3 3");
  cr_assert_str_eq(emitted_value(0, "HOST"), "h1");
  cr_assert_str_eq(emitted_value(1, "MESSAGE"), "B 3");
  cr_assert_str_eq(emitted_value(1, "HOST"), "(unset)", "3.38 copies no scope field without a context");
}

/* ---- conditions ---- */

typedef struct
{
  const gchar *text;
  gboolean compiles;
  gboolean value;    /* with v=yes, n=10 and context length 3 */
} CondRow;

static const gchar *
cond_lookup(const gchar *name, guint index, gssize *length, gpointer user_data)
{
  (void) user_data;
  *length = -1;
  if (index == PDB_TEMPLATE_CONTEXT_LENGTH_INDEX)
    return "3";
  if (index == 0 && strcmp(name, "v") == 0)
    return "yes";
  if (index == 0 && strcmp(name, "n") == 0)
    return "10";
  if (index == 1 && strcmp(name, "n") == 0)
    return "9";
  return NULL;
}

Test(condition, table)
{
  static const CondRow rows[] =
  {
    { "\"$v\" == \"yes\"", TRUE, TRUE },
    { "\"$v\" == \"no\"", TRUE, TRUE },            /* 3.38: numeric, both 0 */
    { "\"$v\" eq \"no\"", TRUE, FALSE },
    { "\"$v\" ne \"no\"", TRUE, TRUE },
    { "\"$n\" > \"9\"", TRUE, TRUE },               /* numeric: 10 > 9 */
    { "\"$n\" gt \"9\"", TRUE, FALSE },             /* string: "10" < "9" */
    { "\"$n\" <= \"10\"", TRUE, TRUE },
    { "\"$n\" < \"10\"", TRUE, FALSE },
    { "\"$n\" >= \"11\"", TRUE, FALSE },
    { "\"$n\" != \"10\"", TRUE, FALSE },
    { "\"${n}@1\" == \"9\"", TRUE, TRUE },
    { "\"$(context-length)\" == \"3\"", TRUE, TRUE },
    { "'x$(context-length)y' eq 'x3y'", TRUE, TRUE },
    { "not \"$v\" eq \"yes\"", TRUE, FALSE },
    { "\"$v\" eq \"no\" or \"$n\" == \"10\"", TRUE, TRUE },
    { "\"$v\" eq \"no\" or \"$n\" == \"10\" and \"$v\" eq \"x\"", TRUE, FALSE },
    { "(\"$v\" eq \"no\" or \"$n\" == \"10\") and not (\"$v\" eq \"x\")", TRUE, TRUE },
    { "\"${missing}\" eq \"\"", TRUE, TRUE },
    { "$(context-length) >= 2", FALSE, FALSE },
    { "\"a\" =~ \"b\"", FALSE, FALSE },
    { "\"a\" eq", FALSE, FALSE },
    { "(\"a\" eq \"a\"", FALSE, FALSE },
    { "\"a\" eq \"a\" junk", TRUE, TRUE },       /* 3.38 ignores what follows */
    { "\"unterminated", FALSE, FALSE },
  };

  for (gsize i = 0; i < G_N_ELEMENTS(rows); i++)
    {
      GError *error = NULL;
      PdbFilterExpr *c = pdb_filter_expr_compile(rows[i].text, &error);
      PdbFilterSubject subject = { cond_lookup, NULL, NULL };

      cr_expect_eq(c != NULL, rows[i].compiles, "row %zu (%s): compiles=%d, error=%s", i, rows[i].text,
                   c != NULL, error ? error->message : "none");
      if (c)
        cr_expect_eq(pdb_filter_expr_eval(c, &subject), rows[i].value, "row %zu (%s)", i, rows[i].text);
      else if (error)
        cr_expect(strstr(error->message, "column") != NULL, "row %zu: error names no column: %s", i, error->message);
      pdb_filter_expr_free(c);
      g_clear_error(&error);
    }
}

/* ---- the snapshot message, the bound, threads ---- */

Test(nv_message, program_or_pid_drops_legacy_msghdr)
{
  PdbNvMessage *m = pdb_nv_message_new();

  pdb_nv_message_set(m, "LEGACY_MSGHDR", "p[1]: ", -1, PDB_VALUE_STRING);
  pdb_nv_message_set(m, "HOST", "h", -1, PDB_VALUE_STRING);
  cr_assert_not_null(pdb_nv_message_get(m, "LEGACY_MSGHDR", NULL), "HOST keeps it");
  pdb_nv_message_set(m, "PID", "2", -1, PDB_VALUE_STRING);
  cr_assert_null(pdb_nv_message_get(m, "LEGACY_MSGHDR", NULL), "PID drops it");
  cr_assert_str_eq(pdb_nv_message_get(m, "HOST", NULL), "h");
  cr_assert_str_eq(pdb_nv_message_get(m, "PID", NULL), "2");
  pdb_nv_message_unref(m);
}

static const gchar limit_rules[] =
  "<rule provider='t' id='o' class='c' context-id='c$n' context-timeout='100'>\n"
  " <patterns><pattern>o @NUMBER:n@</pattern></patterns>\n"
  " <actions><action trigger='timeout'><message>\n"
  "  <values><value name='MESSAGE'>expired ${n}@1</value></values></message></action></actions></rule>\n";

Test(correlation, lowering_the_bound_applies_when_the_next_context_opens)
{
  setup_db(limit_rules, 0);
  for (int i = 1; i <= 5; i++)
    {
      gchar *text = g_strdup_printf("o %d", i);
      feed("h", "1", text, 10 + i);
      g_free(text);
    }
  cr_assert_eq(pdb_correlation_get_context_count(fx.corr), 5);
  pdb_correlation_set_max_contexts(fx.corr, 2);
  feed("h", "1", "o 6", 20);
  cr_assert_eq(pdb_correlation_get_context_count(fx.corr), 2);
  cr_assert_eq(fx.emitted->len, 4);
  for (guint i = 0; i < 4; i++)
    {
      gchar *want = g_strdup_printf("expired %u", i + 1);
      cr_expect_str_eq(emitted_value(i, "MESSAGE"), want, "eviction %u out of order", i);
      g_free(want);
    }
}

/* 3.38 reads `$n == 1` as the template "$n" against the number 1 */
Test(correlation, condition_with_bare_words)
{
  static const gchar rules[] =
    "<rule provider='t' id='b' class='c'>\n"
    " <patterns><pattern>b @NUMBER:n@</pattern></patterns>\n"
    " <actions><action trigger='match' condition='$n == 1'><message>\n"
    "  <values><value name='MESSAGE'>one</value></values></message></action></actions></rule>\n";

  setup_db(rules, 0);
  feed("h", "1", "b 1", 10);
  feed("h", "1", "b 2", 11);
  cr_assert_eq(fx.emitted->len, 1);
}

/* 3.38 refuses the whole file when a condition does not compile */
Test(correlation, condition_that_does_not_compile_fails_the_load)
{
  static const gchar rules[] =
    "<rule provider='t' id='b' class='c'>\n"
    " <patterns><pattern>b @NUMBER:n@</pattern></patterns>\n"
    " <actions><action trigger='match' condition='level(nosuch)'><message>\n"
    "  <values><value name='MESSAGE'>never</value></values></message></action></actions></rule>\n";
  gchar *text = g_strconcat(db_head, rules, db_tail, NULL);
  gchar *path = write_file("t.xml", text);
  GError *error = NULL;
  PdbDatabase *db = pdb_database_load(path, NULL, &error);

  cr_assert_null(db);
  cr_expect(error && strstr(error->message, "t.xml:") && strstr(error->message, "unknown level 'nosuch'"),
            "%s", error ? error->message : "(none)");
  g_clear_error(&error);
  g_free(text);
  g_free(path);
}

/* Four threads correlate into one state at once (the state lock). */
typedef struct
{
  gint id;
  guint emitted;
} Worker;

static void
count_emitted(gpointer msg, gpointer user_data)
{
  (void) msg;
  ((Worker *) user_data)->emitted++;
}

static gpointer
worker_run(gpointer data)
{
  Worker *w = data;
  PdbResult result;

  pdb_result_init(&result);
  for (int i = 0; i < 500; i++)
    {
      gchar *text = g_strdup_printf("o %d", w->id * 1000 + i);
      PdbNvMessage *msg = pdb_nv_message_new();

      pdb_nv_message_set(msg, "HOST", "h", -1, PDB_VALUE_STRING);
      pdb_nv_message_set(msg, "PROGRAM", "p", -1, PDB_VALUE_STRING);
      pdb_nv_message_set(msg, "PID", "1", -1, PDB_VALUE_STRING);
      pdb_database_classify(fx.db, "p", 1, text, strlen(text), &result);
      pdb_result_apply(&result, "p", text, &pdb_nv_message_ops, msg);
      pdb_correlation_process(fx.corr, fx.db, &result, msg, 10, G_MAXINT64, count_emitted, w);
      pdb_nv_message_unref(msg);
      g_free(text);
    }
  pdb_result_clear(&result);
  return NULL;
}

Test(correlation, threads_share_one_state)
{
  Worker workers[4];
  GThread *threads[4];
  guint evicted = 0, expired = 0;

  setup_db(limit_rules, 1000);
  for (int i = 0; i < 4; i++)
    {
      workers[i].id = i + 1;
      workers[i].emitted = 0;
      threads[i] = g_thread_new("corr", worker_run, &workers[i]);
    }
  for (int i = 0; i < 4; i++)
    {
      g_thread_join(threads[i]);
      evicted += workers[i].emitted;
    }
  cr_assert_eq(pdb_correlation_get_context_count(fx.corr), 1000);
  cr_assert_eq(evicted, 1000, "2000 contexts opened, 1000 pushed out: got %u", evicted);
  pdb_correlation_expire_all(fx.corr, collect, NULL);
  expired = fx.emitted->len;
  cr_assert_eq(expired, 1000);
}

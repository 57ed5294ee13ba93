/*
 * test-grouping.c: the grouping-by() state (correlation/grouping.c) with
 * toy messages: trigger, timeout ("beyond" the expiry), the clock capped
 * at now and never going back, expiry order, the idle timer, a close hook
 * that emits nothing (having() false), emission order, the bound on live
 * contexts under a flood of unique keys, and four threads on one state.
 */
#include <criterion/criterion.h>
#include <glib.h>
#include <string.h>

#include "correlation/grouping.h"

typedef struct
{
  gint refs;
  gint id;           /* > 0: an input message; < 0: an aggregate */
  gchar key[16];
  GPtrArray *parts;  /* aggregates: ids of the context's messages */
} Toy;

static gint live_toys;

static Toy *
toy_new(gint id, const gchar *key)
{
  Toy *t = g_new0(Toy, 1);

  t->refs = 1;
  t->id = id;
  g_strlcpy(t->key, key, sizeof(t->key));
  g_atomic_int_inc(&live_toys);
  return t;
}

static gpointer
toy_ref(gpointer p)
{
  g_atomic_int_inc(&((Toy *) p)->refs);
  return p;
}

static void
toy_unref(gpointer p)
{
  Toy *t = p;

  if (g_atomic_int_dec_and_test(&t->refs))
    {
      if (t->parts)
        g_ptr_array_free(t->parts, TRUE);
      g_free(t);
      g_atomic_int_add(&live_toys, -1);
    }
}

static const PdbGroupingMessageOps toy_ops = { toy_ref, toy_unref };

typedef struct
{
  GString *log;        /* "key:id,id;" per emitted aggregate */
  gint trigger_id;     /* a message with this id closes its context */
  gboolean drop;       /* close returns NULL */
  gint emitted;
} Run;

static gboolean
run_trigger(GPtrArray *messages, gpointer user_data)
{
  Run *run = user_data;
  Toy *last = g_ptr_array_index(messages, messages->len - 1);

  return last->id == run->trigger_id;
}

static gpointer
run_close(GPtrArray *messages, gpointer user_data)
{
  Run *run = user_data;

  if (run->drop)
    return NULL;
  Toy *agg = toy_new(-1, ((Toy *) g_ptr_array_index(messages, 0))->key);
  agg->parts = g_ptr_array_new();
  for (guint i = 0; i < messages->len; i++)
    g_ptr_array_add(agg->parts, GINT_TO_POINTER(((Toy *) g_ptr_array_index(messages, i))->id));
  return agg;
}

static void
run_emit(gpointer msg, gpointer user_data)
{
  Run *run = user_data;
  Toy *agg = msg;

  run->emitted++;
  if (!run->log)
    return;
  g_string_append_printf(run->log, "%s:", agg->key);
  for (guint i = 0; i < agg->parts->len; i++)
    g_string_append_printf(run->log, "%s%d", i ? "," : "", GPOINTER_TO_INT(g_ptr_array_index(agg->parts, i)));
  g_string_append_c(run->log, ';');
}

static PdbGrouping *state;
static Run run;
static PdbGroupingHooks hooks;

static void
setup(void)
{
  live_toys = 0;
  memset(&run, 0, sizeof(run));
  run.log = g_string_new("");
  run.trigger_id = -100;
  hooks = (PdbGroupingHooks) { run_trigger, run_close, run_emit, &run };
  state = pdb_grouping_new(&toy_ops, 0);
}

static void
teardown(void)
{
  pdb_grouping_free(state);
  g_string_free(run.log, TRUE);
  cr_assert_eq(live_toys, 0, "%d toy messages leaked", live_toys);
}

/* Adds message @id with key @key at time @stamp (now: far in the future). */
static void
add(const gchar *key, gint id, gint64 stamp, gint64 timeout)
{
  Toy *t = toy_new(id, key);

  pdb_grouping_add(state, key, strlen(key), t, stamp, G_MAXINT64, timeout, &hooks);
  toy_unref(t);
}

TestSuite(grouping, .init = setup, .fini = teardown);

Test(grouping, trigger_closes_the_context_with_its_messages_in_order)
{
  run.trigger_id = 3;
  add("a", 1, 100, 30);
  add("b", 2, 101, 30);
  add("a", 3, 102, 30);
  cr_assert_str_eq(run.log->str, "a:1,3;");
  cr_assert_eq(pdb_grouping_get_context_count(state), 1);
  /* the closed key opens a fresh context */
  add("a", 4, 103, 30);
  cr_assert_eq(pdb_grouping_get_context_count(state), 2);
}

Test(grouping, trigger_on_the_first_message_emits_a_context_of_one)
{
  run.trigger_id = 1;
  add("a", 1, 100, 30);
  cr_assert_str_eq(run.log->str, "a:1;");
  cr_assert_eq(pdb_grouping_get_context_count(state), 0);
}

Test(grouping, timeout_expires_only_when_the_clock_goes_beyond_the_expiry)
{
  static const struct { gint64 at; const gchar *log; } rows[] =
  {
    { 114, "" },        /* expiry 100 + 15 = 115 not reached */
    { 115, "" },        /* reached, not passed */
    { 116, "a:1,2;" },  /* passed; message 2 moved the expiry from 105 */
  };
  for (guint i = 0; i < G_N_ELEMENTS(rows); i++)
    {
      pdb_grouping_free(state);
      g_string_truncate(run.log, 0);
      state = pdb_grouping_new(&toy_ops, 0);
      add("a", 1, 90, 15);
      add("a", 2, 100, 15);
      pdb_grouping_set_time(state, rows[i].at, G_MAXINT64, &hooks);
      cr_assert_str_eq(run.log->str, rows[i].log, "row %u (clock %" G_GINT64_FORMAT ")", i, rows[i].at);
    }
}

Test(grouping, clock_is_capped_at_now_and_never_goes_back)
{
  Toy *t = toy_new(1, "a");

  pdb_grouping_add(state, "a", 1, t, 5000, 200, 10, &hooks);
  toy_unref(t);
  cr_assert_eq(pdb_grouping_get_time(state), 200, "a stamp in the future counts as now");
  pdb_grouping_set_time(state, 150, G_MAXINT64, &hooks);
  cr_assert_eq(pdb_grouping_get_time(state), 200, "the clock went back");
  /* an old message joins at the current clock: expiry 200 + 10 */
  add("a", 2, 50, 10);
  pdb_grouping_set_time(state, 210, G_MAXINT64, &hooks);
  cr_assert_str_eq(run.log->str, "");
  pdb_grouping_set_time(state, 211, G_MAXINT64, &hooks);
  cr_assert_str_eq(run.log->str, "a:1,2;");
}

/* As syslog-ng 3.38's grouping-by() (its timer wheel; checked with the
 * daemon): contexts expiring in the same second end in the order their
 * expiry was set, and setting the same expiry again keeps the place. */
Test(grouping, contexts_expire_in_expiry_order_then_scheduling_order)
{
  add("late", 1, 100, 20);   /* 120 */
  add("x", 2, 100, 10);      /* 110 */
  add("y", 3, 100, 10);      /* 110, scheduled after x */
  add("x", 4, 100, 10);      /* x again at 110: keeps its place ahead of y */
  add("z", 5, 100, 10);      /* 110 */
  add("z", 6, 101, 10);      /* z moves to 111 */
  pdb_grouping_set_time(state, 200, G_MAXINT64, &hooks);
  cr_assert_str_eq(run.log->str, "x:2,4;y:3;z:5,6;late:1;");
}

Test(grouping, idle_timer_moves_the_clock_on)
{
  add("a", 1, 100, 3);
  pdb_grouping_advance_time(state, 3, &hooks);
  cr_assert_str_eq(run.log->str, "");
  pdb_grouping_advance_time(state, 0, &hooks);
  pdb_grouping_advance_time(state, -5, &hooks);
  cr_assert_eq(pdb_grouping_get_time(state), 103);
  pdb_grouping_advance_time(state, 1, &hooks);
  cr_assert_str_eq(run.log->str, "a:1;");
}

Test(grouping, close_hook_returning_nothing_emits_nothing_and_forgets_the_context)
{
  run.drop = TRUE;
  run.trigger_id = 2;
  add("a", 1, 100, 5);
  add("a", 2, 100, 5);
  add("b", 3, 100, 5);
  pdb_grouping_set_time(state, 200, G_MAXINT64, &hooks);
  cr_assert_eq(run.emitted, 0);
  cr_assert_eq(pdb_grouping_get_context_count(state), 0);
}

Test(grouping, expired_contexts_are_emitted_before_the_triggered_one)
{
  run.trigger_id = 3;
  add("a", 1, 100, 5);
  add("a", 2, 101, 5);
  add("b", 3, 110, 5);
  cr_assert_str_eq(run.log->str, "a:1,2;b:3;");
}

Test(grouping, a_flood_of_unique_keys_stays_within_the_limit)
{
  pdb_grouping_set_max_contexts(state, 100);
  for (gint i = 0; i < 10000; i++)
    {
      gchar key[16];

      g_snprintf(key, sizeof(key), "k%d", i);
      add(key, i + 1, 100 + i / 1000, 60);
      cr_assert_leq(pdb_grouping_get_context_count(state), 100, "after key %d", i);
    }
  cr_assert_eq(pdb_grouping_get_context_count(state), 100);
  cr_assert_eq(run.emitted, 9900, "every evicted context emits its aggregate");
  /* the evicted ones were the nearest to expiry: the oldest keys */
  cr_assert(g_str_has_prefix(run.log->str, "k0:1;k1:2;k2:3;"), "%.40s", run.log->str);
  pdb_grouping_set_max_contexts(state, 0);
  add("fresh", 99999, 200, 60);
  cr_assert_eq(pdb_grouping_get_context_count(state), 0 + 1,
               "the old contexts expired at 160 < 200, the new one is alone");
}

Test(grouping, limit_closes_the_context_nearest_to_expiry)
{
  pdb_grouping_set_max_contexts(state, 2);
  add("long", 1, 100, 50);
  add("short", 2, 100, 5);
  add("new", 3, 100, 10);
  cr_assert_str_eq(run.log->str, "short:2;");
  cr_assert_eq(pdb_grouping_get_context_count(state), 2);
}

typedef struct
{
  gint base;
} Worker;

static gpointer
worker(gpointer data)
{
  Worker *w = data;

  for (gint i = 0; i < 2000; i++)
    {
      gchar key[16];
      Toy *t;

      g_snprintf(key, sizeof(key), "k%d", i % 7);
      t = toy_new(w->base + i, key);
      pdb_grouping_add(state, key, strlen(key), t, 100, G_MAXINT64, 30, &hooks);
      toy_unref(t);
    }
  return NULL;
}

static gint thread_messages;

static void
count_emit(gpointer msg, gpointer user_data)
{
  (void) user_data;
  g_atomic_int_add(&thread_messages, (gint) ((Toy *) msg)->parts->len);
}

Test(grouping, four_threads_on_one_state_lose_no_message)
{
  Worker w[4];
  GThread *threads[4];

  hooks.emit = count_emit;
  thread_messages = 0;
  for (gint i = 0; i < 4; i++)
    {
      w[i].base = i * 100000 + 1;
      threads[i] = g_thread_new("grouping", worker, &w[i]);
    }
  for (gint i = 0; i < 4; i++)
    g_thread_join(threads[i]);
  cr_assert_eq(pdb_grouping_get_context_count(state), 7);
  pdb_grouping_advance_time(state, 31, &hooks);
  cr_assert_eq(thread_messages, 4 * 2000);
  cr_assert_eq(pdb_grouping_get_context_count(state), 0);
}

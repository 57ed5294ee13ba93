/*
 * test-context-table.c: the context table shared by db-parser correlation
 * and grouping-by (correlation/context-table.c): keys, replacement, expiry
 * order (same second: order of scheduling, rescheduling to the same second
 * keeps the place), the clock at each expiry while a context ends, the
 * clock restored after expire-all, the limit, and freeing what is left.
 * Messages are strings; the end function logs "<first message>@<clock>;".
 */
#include <criterion/criterion.h>
#include <glib.h>
#include <string.h>

#include "correlation/context-table.h"

static PdbContextTable *table;
static GString *log_text;
static gint live;

static void
msg_unref(gpointer msg)
{
  live--;
  g_free(msg);
}

static void
end(PdbContext *ctx, gpointer user_data)
{
  g_string_append_printf(log_text, "%s@%" G_GINT64_FORMAT ";", (const gchar *) ctx->messages->pdata[0],
                         pdb_context_table_get_time(user_data));
}

static void
setup(void)
{
  table = pdb_context_table_new(msg_unref, g_free, 3);
  log_text = g_string_new(NULL);
  live = 0;
}

static void
teardown(void)
{
  pdb_context_table_free(table);
  g_string_free(log_text, TRUE);
  cr_assert_eq(live, 0, "every message freed (%d left)", live);
}

TestSuite(context_table, .init = setup, .fini = teardown);

static PdbContext *
add(const gchar *key, const gchar *msg, gint64 expires)
{
  PdbContext *ctx = pdb_context_table_find(table, key, strlen(key));

  if (!ctx)
    ctx = pdb_context_table_open(table, key, strlen(key), end, table);
  g_ptr_array_add(ctx->messages, g_strdup(msg));
  live++;
  pdb_context_table_schedule(table, ctx, expires);
  return ctx;
}

Test(context_table, expires_in_order_with_the_clock_at_each_expiry)
{
  add("a", "a1", 20);
  add("b", "b1", 10);
  add("c", "c1", 10);
  add("b", "b2", 10);   /* same second: b keeps its place ahead of c */
  pdb_context_table_advance(table, 10, end, table);
  cr_assert_str_eq(log_text->str, "", "nothing expires at its own second");
  pdb_context_table_advance(table, 30, end, table);
  cr_assert_str_eq(log_text->str, "b1@10;c1@10;a1@20;");
  cr_assert_eq(pdb_context_table_get_time(table), 30);
  pdb_context_table_advance(table, 5, end, table);
  cr_assert_eq(pdb_context_table_get_time(table), 30, "the clock never goes back");
}

Test(context_table, rescheduling_to_another_second_moves_behind)
{
  add("b", "b1", 10);
  add("c", "c1", 10);
  add("b", "b2", 11);
  add("d", "d1", 11);
  pdb_context_table_advance(table, 12, end, table);
  cr_assert_str_eq(log_text->str, "c1@10;b1@11;d1@11;");
}

Test(context_table, a_replaced_context_is_not_found_but_still_expires)
{
  add("k", "old", 10);
  PdbContext *fresh = pdb_context_table_open(table, "k", 1, end, table);

  g_ptr_array_add(fresh->messages, g_strdup("new"));
  live++;
  pdb_context_table_schedule(table, fresh, 15);
  cr_assert_eq(pdb_context_table_find(table, "k", 1), fresh);
  cr_assert_eq(pdb_context_table_count(table), 1);
  pdb_context_table_advance(table, 20, end, table);
  cr_assert_str_eq(log_text->str, "old@10;new@15;");
}

Test(context_table, expire_all_brings_the_clock_back)
{
  pdb_context_table_advance(table, 100, end, table);
  add("x", "x1", 150);
  add("y", "y1", 120);
  pdb_context_table_expire_all(table, end, table);
  cr_assert_str_eq(log_text->str, "y1@120;x1@150;");
  cr_assert_eq(pdb_context_table_get_time(table), 100);
  cr_assert_eq(pdb_context_table_count(table), 0);
}

Test(context_table, the_limit_ends_the_nearest_first)
{
  add("a", "a1", 30);
  add("b", "b1", 10);
  add("c", "c1", 20);
  add("d", "d1", 40);   /* a fourth with a limit of 3: b ends now */
  cr_assert_str_eq(log_text->str, "b1@0;");
  cr_assert_eq(pdb_context_table_count(table), 3);
  pdb_context_table_set_max(table, 1);
  add("e", "e1", 50);
  cr_assert_str_eq(log_text->str, "b1@0;c1@0;a1@0;d1@0;");
  cr_assert_eq(pdb_context_table_count(table), 1);
}

Test(context_table, close_ends_one_context_now)
{
  PdbContext *ctx = add("a", "a1", 30);

  add("b", "b1", 10);
  pdb_context_table_close(table, ctx, end, table);
  cr_assert_str_eq(log_text->str, "a1@0;");
  cr_assert_null(pdb_context_table_find(table, "a", 1));
}

Test(context_table, keys_are_length_prefixed_parts)
{
  GString *k1 = g_string_new(NULL), *k2 = g_string_new(NULL);

  pdb_context_key_append_part(k1, "ab", -1);
  pdb_context_key_append_part(k1, "c", -1);
  pdb_context_key_append_part(k2, "a", -1);
  pdb_context_key_append_part(k2, "bc", -1);
  cr_assert_str_eq(k1->str, "2:ab1:c");
  cr_assert_str_neq(k1->str, k2->str);
  g_string_truncate(k1, 0);
  pdb_context_key_append_part(k1, NULL, -1);
  pdb_context_key_append_part(k1, "0123456789", 10);
  cr_assert_str_eq(k1->str, "0:10:0123456789");
  g_string_free(k1, TRUE);
  g_string_free(k2, TRUE);
}

Test(context_table, freeing_drops_what_is_left_without_ending_it)
{
  add("a", "a1", 30);
  pdb_context_table_open(table, "b", 1, end, table);   /* never scheduled */
  add("c", "c1", 10);
}

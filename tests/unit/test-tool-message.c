/*
 * test-tool-message.c: the tool's message store (value order and tags as
 * pdbtool prints them, JSON, the numbering that `match --threads` shares).
 * The -F filters are db/filter-expr.h (tests/unit/test-db-filter.c).
 */
#include "tool/message.h"

#include <criterion/criterion.h>
#include <string.h>

Test(tool_message, values_in_handle_order_tags_in_tag_order)
{
  PdbToolMessage *msg = pdb_tool_message_new();
  GString *out = g_string_new(NULL);

  /* names first met in this order: zeta, alpha */
  pdb_tool_message_register_name(msg, "zeta", -1);
  pdb_tool_message_register_name(msg, "alpha", -1);
  pdb_tool_message_register_tag(msg, "t2");
  pdb_tool_message_register_tag(msg, "t1");
  pdb_tool_message_reset(msg);
  pdb_tool_message_set(msg, "alpha", -1, "a", -1, PDB_VALUE_STRING);
  pdb_tool_message_set(msg, "MESSAGE", -1, "m", -1, PDB_VALUE_STRING);
  pdb_tool_message_set(msg, "zeta", -1, "z", -1, PDB_VALUE_STRING);
  pdb_tool_message_set(msg, ".classifier.rule_id", -1, "r", -1, PDB_VALUE_STRING);
  pdb_tool_message_set(msg, ".classifier.class", -1, "c", -1, PDB_VALUE_STRING);
  pdb_tool_message_set(msg, "HOST", -1, "h", -1, PDB_VALUE_STRING);
  pdb_tool_message_set(msg, "late", -1, "l", -1, PDB_VALUE_STRING);
  pdb_tool_message_set_tag(msg, "t1");
  pdb_tool_message_set_tag(msg, "new");
  pdb_tool_message_set_tag(msg, "t2");
  pdb_tool_message_set_tag(msg, ".classifier.system");
  pdb_tool_message_format_values(msg, out);
  cr_expect_str_eq(out->str,
                   "HOST=h\nMESSAGE=m\n.classifier.class=c\n.classifier.rule_id=r\nzeta=z\nalpha=a\nlate=l\n"
                   "TAGS=.classifier.system,t2,t1,new\n");

  /* the next message starts empty; overwriting keeps one line */
  pdb_tool_message_reset(msg);
  g_string_truncate(out, 0);
  pdb_tool_message_set(msg, "alpha", -1, "1", -1, PDB_VALUE_STRING);
  pdb_tool_message_set(msg, "alpha", -1, "2", -1, PDB_VALUE_STRING);
  pdb_tool_message_set_tag(msg, "t1");
  pdb_tool_message_clear_tag(msg, "t1");
  pdb_tool_message_format_values(msg, out);
  cr_expect_str_eq(out->str, "alpha=2\nTAGS=\n");
  cr_expect_null(pdb_tool_message_get(msg, "zeta", NULL), "values of the previous message are gone");
  g_string_free(out, TRUE);
  pdb_tool_message_free(msg);
}

Test(tool_message, json_types_numbers)
{
  PdbToolMessage *msg = pdb_tool_message_new();
  GString *out = g_string_new(NULL);

  pdb_tool_message_reset(msg);
  pdb_tool_message_set(msg, ".classifier.class", -1, "c", -1, PDB_VALUE_STRING);
  pdb_tool_message_set(msg, "n", -1, "42", -1, PDB_VALUE_INT64);
  pdb_tool_message_set(msg, "hex", -1, "0x1F", -1, PDB_VALUE_INT64);   /* not JSON: a string */
  pdb_tool_message_set(msg, "f", -1, "-2.5e3", -1, PDB_VALUE_DOUBLE);
  pdb_tool_message_set(msg, "dot", -1, ".", -1, PDB_VALUE_DOUBLE);     /* 3.38 FLOAT quirk */
  pdb_tool_message_set(msg, "s", -1, "a\"b\n", -1, PDB_VALUE_STRING);
  pdb_tool_message_set_tag(msg, "t");
  pdb_tool_message_format_json(msg, out);
  cr_expect_str_eq(out->str,
                   "{\"class\":\"c\",\"rule_id\":null,\"tags\":[\"t\"],\"values\":{\".classifier.class\":\"c\","
                   "\"n\":42,\"hex\":\"0x1F\",\"f\":-2.5e3,\"dot\":\".\",\"s\":\"a\\\"b\\n\"}}");
  g_string_free(out, TRUE);
  pdb_tool_message_free(msg);
}

/*
 * match --threads: a worker's store forgets the numbers a refused line
 * made it give, then numbers what the main thread numbered, in the main
 * thread's order, and prints like the main thread. A pointer-cache entry
 * left from a forgotten number must not be trusted (out of range after
 * the forgetting: ASan sees a read of a freed name; in range after the
 * renumbering: the name differs).
 */
Test(tool_message, forget_after_mark_then_take_the_main_numbering)
{
  static const gchar name_a[] = "a.name";
  static const gchar name_b[] = "b.name";
  static const gchar tag_x[] = "x.tag";
  PdbToolMessage *main_store = pdb_tool_message_new();
  PdbToolMessage *worker = pdb_tool_message_new();
  PdbToolMessageMark base = pdb_tool_message_mark(worker);
  GString *main_out = g_string_new(NULL);
  GString *worker_out = g_string_new(NULL);

  cr_assert(pdb_tool_message_marks_equal(base, pdb_tool_message_mark(main_store)));

  /* the worker meets b (through its pointer cache) and a tag first */
  pdb_tool_message_reset(worker);
  pdb_tool_message_set_tag(worker, tag_x);
  cr_assert_null(pdb_tool_message_get(worker, name_b, NULL));
  cr_assert_not(pdb_tool_message_marks_equal(base, pdb_tool_message_mark(worker)));
  pdb_tool_message_forget_after(worker, base);
  cr_assert(pdb_tool_message_marks_equal(base, pdb_tool_message_mark(worker)));
  cr_assert_null(pdb_tool_message_name(worker, base.names + 1));
  cr_assert_null(pdb_tool_message_tag_name(worker, base.tags + 1));
  cr_assert_not(pdb_tool_message_has_tag(worker, tag_x), "forgetting also forgets the current message");

  /* the stale cache entry points past the end: a miss, numbered again */
  cr_assert_null(pdb_tool_message_get(worker, name_b, NULL));
  cr_assert_str_eq(pdb_tool_message_name(worker, base.names + 1), "b.name");
  pdb_tool_message_forget_after(worker, base);

  /* the main thread numbers a, then b and the tag; the worker takes them over */
  pdb_tool_message_reset(main_store);
  pdb_tool_message_set(main_store, name_a, -1, "1", -1, PDB_VALUE_STRING);
  pdb_tool_message_set(main_store, name_b, -1, "2", -1, PDB_VALUE_STRING);
  pdb_tool_message_set_tag(main_store, tag_x);
  PdbToolMessageMark numbered = pdb_tool_message_mark(main_store);

  for (guint h = base.names + 1; h <= numbered.names; h++)
    pdb_tool_message_register_name(worker, pdb_tool_message_name(main_store, h), -1);
  for (guint id = base.tags + 1; id <= numbered.tags; id++)
    pdb_tool_message_register_tag(worker, pdb_tool_message_tag_name(main_store, id));
  cr_assert(pdb_tool_message_marks_equal(numbered, pdb_tool_message_mark(worker)));

  /* b's cache entry now names a's number: a miss again, b's own value comes back */
  pdb_tool_message_reset(worker);
  pdb_tool_message_set(worker, "b.name", -1, "2", -1, PDB_VALUE_STRING);
  pdb_tool_message_set(worker, "a.name", -1, "1", -1, PDB_VALUE_STRING);
  pdb_tool_message_set_tag(worker, "x.tag");
  cr_assert_str_eq(pdb_tool_message_get(worker, name_b, NULL), "2");
  cr_assert(pdb_tool_message_marks_equal(numbered, pdb_tool_message_mark(worker)));

  pdb_tool_message_format_values(main_store, main_out);
  pdb_tool_message_format_values(worker, worker_out);
  cr_assert_str_eq(worker_out->str, main_out->str);
  cr_assert_str_eq(main_out->str, "a.name=1\nb.name=2\nTAGS=x.tag\n");

  g_string_free(main_out, TRUE);
  g_string_free(worker_out, TRUE);
  pdb_tool_message_free(main_store);
  pdb_tool_message_free(worker);
}

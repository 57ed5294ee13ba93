/*
 * test-tool-filter.c: the -F filter subset of `patterndb match` and the
 * tool's message store (value order and tags as pdbtool prints them).
 *
 * The filter rows were checked against `pdbtool match -F` on
 * tests/differential/db/elements.log (the differential suite repeats
 * them against the real pdbtool).
 */
#include "tool/filter.h"
#include "tool/message.h"

#include <criterion/criterion.h>
#include <string.h>

/* One message: PROGRAM=sshd HOST=host1 MESSAGE=... user=bob, tags secevt, .classifier.system */
static PdbToolMessage *
sample_message(void)
{
  PdbToolMessage *msg = pdb_tool_message_new();

  pdb_tool_message_reset(msg);
  pdb_tool_message_set(msg, "HOST", -1, "host1", -1, PDB_VALUE_STRING);
  pdb_tool_message_set(msg, "PROGRAM", -1, "sshd", -1, PDB_VALUE_STRING);
  pdb_tool_message_set(msg, "PID", -1, "123", -1, PDB_VALUE_STRING);
  pdb_tool_message_set(msg, "MESSAGE", -1, "Accepted password for bob", -1, PDB_VALUE_STRING);
  pdb_tool_message_set(msg, "user", -1, "bob", -1, PDB_VALUE_STRING);
  pdb_tool_message_set_tag(msg, ".classifier.system");
  pdb_tool_message_set_tag(msg, "secevt");
  return msg;
}

typedef struct
{
  const char *expression;
  gboolean expected;
} FilterRow;

static const FilterRow rows[] =
{
  { "tags(\"secevt\")", TRUE },
  { "tags(\"net\")", FALSE },
  { "tags(\"net\" \"secevt\")", TRUE },
  { "tags(\"net\", \"secevt\")", TRUE },
  { "match(\"bob\" value(\"user\"))", TRUE },
  { "match(\"^bob$\" value(\"$user\"))", TRUE },
  { "match(\"alice\" value(\"user\"))", FALSE },
  { "match(\"x\" value(\"unset\"))", FALSE },
  { "match(\"^sshd\\\\[123\\\\]: Accepted\")", TRUE },     /* $MSGHDR$MESSAGE */
  { "match(\"^Accepted\")", FALSE },
  { "program(\"ssh\")", TRUE },
  { "program(\"^ssh$\")", FALSE },
  { "host(\"HOST1\" flags(ignore-case))", TRUE },
  { "host(\"HOST1\")", FALSE },
  { "message(\"password\" type(\"string\"))", FALSE },    /* string: the whole value */
  { "message(\"password\" type(\"string\") flags(substring))", TRUE },
  { "message(\"Accepted\" type(\"string\") flags(prefix))", TRUE },
  { "message(\"Accepted password for bob\" type(\"string\"))", TRUE },
  { "program(\"s*d\" type(\"glob\"))", TRUE },
  { "program(\"s?d\" type(\"glob\"))", FALSE },
  { "not tags(\"secevt\")", FALSE },
  { "not not tags(\"secevt\")", TRUE },
  { "tags(\"net\") or program(\"sshd\")", TRUE },
  { "tags(\"net\") or program(\"cron\") and tags(\"secevt\")", FALSE },
  { "tags(\"secevt\") or program(\"cron\") and tags(\"net\")", TRUE },  /* and binds tighter */
  { "(tags(\"secevt\") or program(\"cron\")) and tags(\"net\")", FALSE },
  { "not (tags(\"net\") or host(\"x\"))", TRUE },
  { "tags('secevt');", TRUE },
};

Test(tool_filter, evaluates_like_pdbtool)
{
  PdbToolMessage *msg = sample_message();
  GString *scratch = g_string_new(NULL);

  for (gsize i = 0; i < G_N_ELEMENTS(rows); i++)
    {
      GError *error = NULL;
      PdbToolFilter *f = pdb_tool_filter_compile(rows[i].expression, &error);

      cr_assert_not_null(f, "'%s' does not compile: %s", rows[i].expression, error ? error->message : "");
      cr_expect_eq(pdb_tool_filter_eval(f, msg, scratch), rows[i].expected, "'%s' should be %s",
                   rows[i].expression, rows[i].expected ? "true" : "false");
      pdb_tool_filter_free(f);
    }
  g_string_free(scratch, TRUE);
  pdb_tool_message_free(msg);
}

static const struct { const char *expression; const char *error_part; } bad_rows[] =
{
  { "facility(auth)", "column 1: unsupported filter function" },
  { "tags(\"a\"", "expected a string" },
  { "match(\"(\" value(\"x\"))", "does not compile" },
  { "tags(\"a\") and", "unexpected end of expression" },
  { "tags(\"a\") tags(\"b\")", "column 11: unexpected text" },
  { "match(\"a\" value(\"x\") bogus(1))", "unsupported option" },
  { "match(\"a\" type(\"posix\"))", "type() must be pcre, string or glob" },
  { "match(\"a\" flags(\"global\"))", "unsupported flag" },
  { "tags(\"unterminated)", "unterminated string" },
  { "", "unexpected end of expression" },
};

Test(tool_filter, rejects_what_it_does_not_support_with_a_column)
{
  for (gsize i = 0; i < G_N_ELEMENTS(bad_rows); i++)
    {
      GError *error = NULL;
      PdbToolFilter *f = pdb_tool_filter_compile(bad_rows[i].expression, &error);

      cr_expect_null(f, "'%s' should not compile", bad_rows[i].expression);
      cr_expect(error && strstr(error->message, bad_rows[i].error_part),
                "'%s': error '%s' should mention '%s'", bad_rows[i].expression,
                error ? error->message : "(none)", bad_rows[i].error_part);
      pdb_tool_filter_free(f);
      g_clear_error(&error);
    }
}

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

/*
 * test-db-classify.c: classification (program lookup, then message lookup)
 * and what pdb_result_apply() writes, in the reference's order.
 *
 * Rows marked [pdbtool] were checked with Debian's pdbtool 3.38.1 on the
 * same database (`pdbtool match -p db.xml -P PROGRAM -M MESSAGE`).
 */
#include "test-db-common.h"

TestSuite(classify, .init = test_tmpdir_setup, .fini = test_tmpdir_teardown);

static const gchar *const test_db =
  "<patterndb version='6' pub_date='2024-01-01'>\n"
  "<ruleset name='sshd' id='rs-sshd'><patterns><pattern>sshd</pattern><pattern>ssh2d</pattern></patterns><rules>\n"
  " <rule id='r-accept' class='system' context-id='ssh-$user'>\n"
  "  <patterns><pattern>Accepted @ESTRING:method: @for @ESTRING:user: @from @ANYSTRING:rest@</pattern></patterns>\n"
  "  <tags><tag>usracct</tag><tag>secevt</tag></tags>\n"
  "  <values><value name='who'>$user</value><value name='who2'>${user}</value>\n"
  "   <value name='again'>${who}!</value><value name='n' type='int64'>42</value>\n"
  "   <value name='d'>double(1.5)</value><value name='who'>over-${who}</value></values>\n"
  " </rule>\n"
  " <rule id='r-fail' class='violation'><patterns><pattern>Failed for @STRING:user@</pattern></patterns></rule>\n"
  " <rule id='r-port' class='abcdefghijklmnopqrstuvwxyz'><patterns><pattern>port @NUMBER:port@ open</pattern></patterns></rule>\n"
  "</rules></ruleset>\n"
  "<ruleset name='postfix' id='rs-pf'><patterns><pattern>postfix/@STRING:component@</pattern></patterns><rules>\n"
  " <rule id='r-pf' class='mail'><patterns><pattern>queued @STRING:qid@</pattern></patterns></rule>\n"
  "</rules></ruleset>\n"
  "<ruleset name='any' id='rs-any'><rules>\n"
  " <rule id='r-any'><patterns><pattern>catch @ANYSTRING:what@</pattern></patterns></rule>\n"
  "</rules></ruleset>\n"
  "</patterndb>\n";

static PdbDatabase *
load_db(const gchar *xml, const gchar *prefix)
{
  gchar *path = write_file("db.xml", xml);
  PdbLoadOptions options = { 0 };
  GError *error = NULL;

  options.capture_prefix = prefix;
  PdbDatabase *db = pdb_database_load(path, &options, &error);
  cr_assert_not_null(db, "%s", error ? error->message : "");
  g_free(path);
  return db;
}

/* Classifies and applies; returns the message (caller frees). */
static TestMessage *
run(PdbDatabase *db, const gchar *program, const gchar *message, PdbResultKind *kind)
{
  PdbResult result;
  TestMessage *msg = test_message_new();

  pdb_result_init(&result);
  pdb_database_classify(db, program, strlen(program), message, strlen(message), &result);
  if (kind)
    *kind = result.kind;
  pdb_result_apply(&result, program, message, &test_message_ops, msg);
  pdb_result_clear(&result);
  return msg;
}

typedef struct
{
  const gchar *program;
  const gchar *message;
  PdbResultKind kind;
  const gchar *log;        /* every write, in order */
} ClassifyRow;

static const ClassifyRow rows[] =
{
  /* [pdbtool] class, rule_id, captures, then tags, then values (later ones see earlier ones). */
  { "sshd", "Accepted password for bob from 10.0.0.1 port 22", PDB_RESULT_MATCH,
    "set .classifier.class=system\n"
    "set .classifier.rule_id=r-accept\n"
    "set method=password\n"
    "set user=bob\n"
    "set rest=10.0.0.1 port 22\n"
    "set .classifier.context_id=ssh-bob\n"
    "clear .classifier.unknown\n"
    "tag .classifier.system\n"
    "tag usracct\n"
    "tag secevt\n"
    "set who=bob\n"
    "set who2=bob\n"
    "set again=bob!\n"
    "set n=42 (int64)\n"
    "set d=1.5 (double)\n"
    "set who=over-bob\n" },
  /* An alias selects the same ruleset; a program prefix match too ([pdbtool] sshd2). */
  { "ssh2d", "Failed for eve", PDB_RESULT_MATCH,
    "set .classifier.class=violation\nset .classifier.rule_id=r-fail\nset user=eve\n"
    "clear .classifier.unknown\ntag .classifier.violation\n" },
  { "sshd2", "Failed for eve", PDB_RESULT_MATCH,
    "set .classifier.class=violation\nset .classifier.rule_id=r-fail\nset user=eve\n"
    "clear .classifier.unknown\ntag .classifier.violation\n" },
  /* A message that matches as a prefix. */
  { "sshd", "Failed for eve trailing", PDB_RESULT_MATCH,
    "set .classifier.class=violation\nset .classifier.rule_id=r-fail\nset user=eve\n"
    "clear .classifier.unknown\ntag .classifier.violation\n" },
  /* [pdbtool] the class tag is cut at 31 bytes; the class is not. NUMBER is an int64. */
  { "sshd", "port 22 open", PDB_RESULT_MATCH,
    "set .classifier.class=abcdefghijklmnopqrstuvwxyz\nset .classifier.rule_id=r-port\nset port=22 (int64)\n"
    "clear .classifier.unknown\ntag .classifier.abcdefghijklmnopqrs\n" },
  /* Program captures come before message captures. */
  { "postfix/smtpd", "queued ABC123", PDB_RESULT_MATCH,
    "set .classifier.class=mail\nset .classifier.rule_id=r-pf\nset component=smtpd\nset qid=ABC123\n"
    "clear .classifier.unknown\ntag .classifier.mail\n" },
  /* [pdbtool] program matched, no rule: class unknown and its tag only. */
  { "sshd", "something else", PDB_RESULT_UNKNOWN,
    "set .classifier.class=unknown\ntag .classifier.unknown\n" },
  /* [pdbtool] the catch-all serves any other program, also the empty one. */
  { "cron", "catch this", PDB_RESULT_MATCH,
    "set .classifier.class=system\nset .classifier.rule_id=r-any\nset what=this\n"
    "clear .classifier.unknown\ntag .classifier.system\n" },
  { "", "catch that", PDB_RESULT_MATCH,
    "set .classifier.class=system\nset .classifier.rule_id=r-any\nset what=that\n"
    "clear .classifier.unknown\ntag .classifier.system\n" },
  { "cron", "nothing", PDB_RESULT_UNKNOWN,
    "set .classifier.class=unknown\ntag .classifier.unknown\n" },
};

Test(classify, outputs_in_reference_order)
{
  PdbDatabase *db = load_db(test_db, NULL);

  for (gsize i = 0; i < G_N_ELEMENTS(rows); i++)
    {
      PdbResultKind kind;
      TestMessage *msg = run(db, rows[i].program, rows[i].message, &kind);

      cr_expect_eq(kind, rows[i].kind, "row %zu (%s: %s): kind %d, expected %d", i, rows[i].program,
                   rows[i].message, kind, rows[i].kind);
      cr_expect_str_eq(msg->log->str, rows[i].log, "row %zu (%s: %s)\n--- got:\n%s--- expected:\n%s", i,
                       rows[i].program, rows[i].message, msg->log->str, rows[i].log);
      test_message_free(msg);
    }
  pdb_database_unref(db);
}

Test(classify, result_points_at_rule_ruleset_and_buffers)
{
  PdbDatabase *db = load_db(test_db, NULL);
  const gchar *program = "postfix/qmgr";
  const gchar *message = "queued XYZ";
  PdbResult result;

  pdb_result_init(&result);
  pdb_database_classify(db, program, strlen(program), message, strlen(message), &result);
  cr_assert_eq(result.kind, PDB_RESULT_MATCH);
  cr_expect_str_eq(result.rule->id, "r-pf");
  cr_expect_str_eq(result.ruleset->name, "postfix");
  cr_assert_eq(result.program_match.n_captures, 1);
  cr_expect_eq(result.program_match.captures[0].offset, 8, "captures are offsets into the program");
  cr_expect_eq(result.program_match.captures[0].length, 4);
  cr_assert_eq(result.message_match.n_captures, 1);
  cr_expect_eq(result.message_match.captures[0].offset, 7);
  cr_expect_eq(pdb_database_find_ruleset(db, program, strlen(program)), result.ruleset);
  cr_expect_eq(pdb_database_find_ruleset(db, "zzz", 3), pdb_database_get_catch_all_ruleset(db));

  /* The same result can be reused for another message. */
  pdb_database_classify(db, "sshd", 4, "nope", 4, &result);
  cr_expect_eq(result.kind, PDB_RESULT_UNKNOWN);
  cr_expect_null(result.rule);
  cr_expect_eq(result.program_match.n_captures, 0);
  cr_expect_eq(result.message_match.n_captures, 0);
  pdb_result_clear(&result);
  pdb_database_unref(db);
}

Test(classify, empty_database_sets_nothing)
{
  /* [pdbtool] no <ruleset> at all: the message passes untouched. */
  PdbDatabase *db = load_db("<patterndb version='4' pub_date='2024-01-01'></patterndb>", NULL);
  PdbResultKind kind;
  TestMessage *msg = run(db, "sshd", "Failed for eve", &kind);

  cr_expect_eq(kind, PDB_RESULT_NONE);
  cr_expect_str_eq(msg->log->str, "");
  test_message_free(msg);
  pdb_database_unref(db);
}

Test(classify, unmatched_program_without_catch_all_rules_is_unknown)
{
  /* [pdbtool] any ruleset makes an unmatched program "unknown". */
  PdbDatabase *db = load_db("<patterndb version='4' pub_date='2024-01-01'>"
                            "<ruleset><pattern>p</pattern></ruleset></patterndb>", NULL);
  PdbResultKind kind;
  TestMessage *msg = run(db, "z", "foo", &kind);

  cr_expect_eq(kind, PDB_RESULT_UNKNOWN);
  cr_expect_str_eq(msg->log->str, "set .classifier.class=unknown\ntag .classifier.unknown\n");
  test_message_free(msg);
  pdb_database_unref(db);
}

Test(classify, prefix_applies_to_captures_and_values_not_classifier)
{
  PdbDatabase *db = load_db(test_db, "p.");
  TestMessage *msg = run(db, "postfix/smtpd", "queued ABC123", NULL);

  cr_expect_str_eq(msg->log->str,
                   "set .classifier.class=mail\nset .classifier.rule_id=r-pf\nset p.component=smtpd\n"
                   "set p.qid=ABC123\nclear .classifier.unknown\ntag .classifier.mail\n");
  test_message_free(msg);

  /* Value names get the prefix; templates are read as written ($user is unset now). */
  msg = run(db, "sshd", "Accepted password for bob from x", NULL);
  cr_expect_str_eq(g_hash_table_lookup(msg->values, "p.user"), "bob");
  cr_expect_null(g_hash_table_lookup(msg->values, "user"));
  cr_expect_str_eq(g_hash_table_lookup(msg->values, "p.who2"), "");
  cr_expect_str_eq(g_hash_table_lookup(msg->values, "p.n"), "42");
  cr_expect_str_eq(g_hash_table_lookup(msg->values, ".classifier.rule_id"), "r-accept");
  test_message_free(msg);
  pdb_database_unref(db);
}

Test(classify, buffers_need_not_be_nul_terminated)
{
  PdbDatabase *db = load_db(test_db, NULL);
  const gchar program[] = { 's', 's', 'h', 'd', 'X' };
  const gchar message[] = { 'F', 'a', 'i', 'l', 'e', 'd', ' ', 'f', 'o', 'r', ' ', 'e', 'v', 'e', '!' };
  PdbResult result;
  TestMessage *msg = test_message_new();

  pdb_result_init(&result);
  pdb_database_classify(db, program, 4, message, 14, &result);
  cr_assert_eq(result.kind, PDB_RESULT_MATCH);
  pdb_result_apply(&result, program, message, &test_message_ops, msg);
  cr_expect_str_eq(g_hash_table_lookup(msg->values, "user"), "eve");
  pdb_result_clear(&result);
  test_message_free(msg);
  pdb_database_unref(db);
}

Test(classify, many_captures_overflow_inline_storage)
{
  GString *pattern = g_string_new(NULL);
  GString *message = g_string_new(NULL);
  for (gint i = 0; i < 40; i++)
    {
      g_string_append_printf(pattern, "%s@NUMBER:n%d@", i ? " " : "", i);
      g_string_append_printf(message, "%s%d", i ? " " : "", i);
    }
  gchar *xml = g_strdup_printf("<patterndb version='4' pub_date='2024-01-01'><ruleset><pattern>p</pattern>"
                               "<rules><rule id='many'><pattern>%s</pattern></rule></rules></ruleset></patterndb>",
                               pattern->str);
  PdbDatabase *db = load_db(xml, NULL);
  TestMessage *msg = run(db, "p", message->str, NULL);

  cr_expect_str_eq(g_hash_table_lookup(msg->values, "n0"), "0");
  cr_expect_str_eq(g_hash_table_lookup(msg->values, "n39"), "39");
  cr_expect_eq(g_hash_table_size(msg->values), 42, "40 captures + class + rule_id");
  test_message_free(msg);
  pdb_database_unref(db);
  g_free(xml);
  g_string_free(pattern, TRUE);
  g_string_free(message, TRUE);
}

Test(classify, values_apply_with_context_lookup)
{
  /* The correlation code evaluates values with its own lookup (${x}@N). */
  PdbDatabase *db = load_db("<patterndb version='4' pub_date='2024-01-01'><ruleset><pattern>p</pattern><rules>"
                            "<rule id='c'><pattern>x</pattern><values><value name='v'>${user}@1/${user}</value>"
                            "</values></rule></rules></ruleset></patterndb>", NULL);
  const PdbRule *rule = pdb_database_find_rule(db, "c");
  TestMessage *msg = test_message_new();

  cr_assert_not_null(rule);
  pdb_values_apply(rule->values, NULL, NULL, &test_message_ops, msg);
  cr_expect_str_eq(msg->log->str, "set v=/\n");
  test_message_free(msg);
  pdb_database_unref(db);
}

typedef struct
{
  PdbDatabase *db;
  gint mismatches;
} ThreadArgs;

static gpointer
classify_many(gpointer data)
{
  ThreadArgs *args = data;

  for (gint i = 0; i < 2000; i++)
    {
      const ClassifyRow *row = &rows[i % G_N_ELEMENTS(rows)];
      PdbResultKind kind;
      TestMessage *msg = run(args->db, row->program, row->message, &kind);

      if (kind != row->kind || strcmp(msg->log->str, row->log) != 0)
        g_atomic_int_inc(&args->mismatches);
      test_message_free(msg);
    }
  return NULL;
}

Test(classify, concurrent_readers_share_one_database)
{
  ThreadArgs args = { load_db(test_db, NULL), 0 };
  GThread *threads[4];

  for (gsize i = 0; i < G_N_ELEMENTS(threads); i++)
    threads[i] = g_thread_new("classify", classify_many, &args);
  for (gsize i = 0; i < G_N_ELEMENTS(threads); i++)
    g_thread_join(threads[i]);
  cr_expect_eq(args.mismatches, 0, "%d results differed from the single-threaded ones", args.mismatches);
  pdb_database_unref(args.db);
}

/*
 * test-db-backend.c: the expression backend hook (db/expr-backend.h) with a
 * fake backend that records what it is given: which texts go to the
 * backend (templates that call functions, and all conditions) and which
 * stay on the db layer's fast path, what a refusal does to the load, what the
 * backend is asked to evaluate over, and that every compiled expression
 * and the backend itself are freed with the database.
 */
#include "test-db-common.h"

#include "db/expr-backend.h"

TestSuite(backend, .init = test_tmpdir_setup, .fini = test_tmpdir_teardown);

typedef struct
{
  PdbExprBackend super;
  GPtrArray *templates;        /* texts compiled as templates, in order */
  GPtrArray *conditions;       /* texts compiled as conditions */
  gint live;                   /* compiled handles not yet freed */
  gboolean *freed;             /* set when the backend is freed */
} FakeBackend;

static gpointer
fake_compile_template(PdbExprBackend *s, const gchar *text, gboolean with_type_hint, PdbTypeHint *hint,
                      GError **error)
{
  FakeBackend *self = (FakeBackend *) s;

  g_ptr_array_add(self->templates, g_strdup(text));
  if (strstr(text, "$(refuse"))
    {
      g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_TEMPLATE, "the fake refuses %s", text);
      return NULL;
    }
  *hint = with_type_hint && g_str_has_prefix(text, "int64(") ? PDB_TYPE_HINT_INT64 : PDB_TYPE_HINT_NONE;
  self->live++;
  return g_strdup(text);
}

/* "F[text](user of the last message, count, context id)" */
static void
fake_append_template(PdbExprBackend *s, gpointer tmpl, const PdbExprScope *scope, GString *out)
{
  (void) s;
  const gchar *user = test_message_get(scope->messages[scope->count - 1], "user", NULL);

  g_string_append_printf(out, "F[%s](%s,%u,%s)", (const gchar *) tmpl, user ? user : "-", scope->count,
                         scope->context_id ? scope->context_id : "-");
}

static void
fake_free_handle(PdbExprBackend *s, gpointer handle)
{
  ((FakeBackend *) s)->live--;
  g_free(handle);
}

static gpointer
fake_compile_condition(PdbExprBackend *s, const gchar *text, GError **error)
{
  FakeBackend *self = (FakeBackend *) s;

  g_ptr_array_add(self->conditions, g_strdup(text));
  if (strcmp(text, "bad(") == 0)
    {
      g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_TEMPLATE, "the fake cannot parse it");
      return NULL;
    }
  self->live++;
  return g_strdup(text);
}

static gboolean
fake_eval_condition(PdbExprBackend *s, gpointer cond, const PdbExprScope *scope)
{
  (void) s;
  (void) scope;
  return strcmp(cond, "true()") == 0;
}

static void
fake_free(PdbExprBackend *s)
{
  FakeBackend *self = (FakeBackend *) s;

  cr_assert_eq(self->live, 0, "%d compiled expressions outlive their backend", self->live);
  g_ptr_array_unref(self->templates);
  g_ptr_array_unref(self->conditions);
  *self->freed = TRUE;
  g_free(self);
}

static const PdbExprBackendClass fake_class =
{
  fake_compile_template, fake_append_template, fake_free_handle,
  fake_compile_condition, fake_eval_condition, fake_free_handle, fake_free,
};

static FakeBackend *
fake_new(gboolean *freed)
{
  FakeBackend *self = g_new0(FakeBackend, 1);

  pdb_expr_backend_init(&self->super, &fake_class);
  self->templates = g_ptr_array_new_with_free_func(g_free);
  self->conditions = g_ptr_array_new_with_free_func(g_free);
  self->freed = freed;
  *freed = FALSE;
  return self;
}

static gchar *
joined(GPtrArray *texts)
{
  GString *all = g_string_new(NULL);

  for (guint i = 0; i < texts->len; i++)
    g_string_append_printf(all, "%s\n", (const gchar *) g_ptr_array_index(texts, i));
  return g_string_free(all, FALSE);
}

static PdbDatabase *
load_with(FakeBackend *fake, const gchar *rule_body, GError **error)
{
  gchar *xml = g_strdup_printf("<patterndb version='4' pub_date='2024-01-01'>\n"
                               "<ruleset name='r' id='rs'><pattern>prog</pattern><rules>\n"
                               "%s\n</rules></ruleset></patterndb>\n", rule_body);
  gchar *path = write_file("db.xml", xml);
  PdbLoadOptions options = { 0 };
  PdbDatabase *db;

  options.backend = fake ? &fake->super : NULL;
  db = pdb_database_load(path, &options, error);
  g_free(path);
  g_free(xml);
  return db;
}

static const gchar *const values_rule =
  " <rule id='r1' class='c' context-id='$(sha1 $user)'>\n"
  "  <patterns><pattern>login @ESTRING:user: @</pattern></patterns>\n"
  "  <values><value name='plain'>${user}</value><value name='lit'>x y</value><value name='p2'>$user</value>\n"
  "   <value name='mix'>${user}@x</value><value name='dflt'>${none:-d}</value>\n"
  "   <value name='up'>$(uppercase ${user})</value><value name='sha'>$(sha1 ${user})</value>\n"
  "   <value name='n'>int64($(+ 1 2))</value></values>\n"
  "  <actions><action condition='tags(\"vip\")'><message><values><value name='MESSAGE'>m</value></values>"
  "</message></action></actions>\n"
  " </rule>";

Test(backend, texts_that_call_functions_and_conditions_go_to_the_backend)
{
  gboolean freed;
  FakeBackend *fake = fake_new(&freed);
  GError *error = NULL;
  PdbDatabase *db = load_with(fake, values_rule, &error);

  cr_assert_not_null(db, "%s", error ? error->message : "");
  gchar *templates = joined(fake->templates);
  gchar *conditions = joined(fake->conditions);
  cr_assert_str_eq(templates, "$(sha1 $user)\n$(uppercase ${user})\n$(sha1 ${user})\nint64($(+ 1 2))\n",
                   "plain references and literal text stay on the fast path; got:\n%s", templates);
  cr_assert_str_eq(conditions, "tags(\"vip\")\n");
  g_free(templates);
  g_free(conditions);

  const PdbRule *rule = pdb_database_find_rule(db, "r1");
  cr_assert_not_null(rule->context_id_template, "a stand-in keeps \"has a context-id\" true");
  cr_assert_not_null(rule->context_id_host);
  cr_assert_not_null(((PdbAction *) g_ptr_array_index(rule->actions, 0))->condition_host);

  pdb_expr_backend_unref(&fake->super);
  cr_assert_not(freed, "the database keeps its backend alive");
  pdb_database_unref(db);
  cr_assert(freed, "the last expression takes the backend with it");
}

Test(backend, apply_evaluates_the_backend_over_the_message_with_the_cast)
{
  gboolean freed;
  FakeBackend *fake = fake_new(&freed);
  PdbDatabase *db = load_with(fake, values_rule, NULL);
  const gchar *message = "login bob ";
  PdbResult result;
  TestMessage *msg = test_message_new();

  cr_assert_not_null(db);
  pdb_result_init(&result);
  pdb_database_classify(db, "prog", 4, message, strlen(message), &result);
  cr_assert_eq(result.kind, PDB_RESULT_MATCH);
  pdb_result_apply(&result, "prog", message, &test_message_ops, msg);
  cr_assert_str_eq(msg->log->str,
                   "set .classifier.class=c\n"
                   "set .classifier.rule_id=r1\n"
                   "set user=bob\n"
                   "set .classifier.context_id=F[$(sha1 $user)](bob,1,-)\n"
                   "clear .classifier.unknown\n"
                   "tag .classifier.c\n"
                   "set plain=bob\n"
                   "set lit=x y\n"
                   "set p2=bob\n"
                   "set mix=bob@x\n"
                   "set dflt=d\n"
                   "set up=F[$(uppercase ${user})](bob,1,-)\n"
                   "set sha=F[$(sha1 ${user})](bob,1,-)\n"
                   "set n=F[int64($(+ 1 2))](bob,1,-) (int64)\n",
                   "got:\n%s", msg->log->str);
  pdb_result_clear(&result);
  test_message_free(msg);
  pdb_expr_backend_unref(&fake->super);
  pdb_database_unref(db);
  cr_assert(freed);
}

Test(backend, a_refused_text_fails_the_load_naming_where_and_why)
{
  static const struct
  {
    const gchar *rule;
    const gchar *expected;
  } rows[] =
  {
    { " <rule id='r1'><patterns><pattern>a</pattern></patterns>\n"
      "  <values><value name='v'>$(refuse ${x})</value></values></rule>",
      "rule 'r1': value 'v': template '$(refuse ${x})' does not compile: the fake refuses $(refuse ${x})" },
    { " <rule id='r2' context-id='$(refuse)'><patterns><pattern>a</pattern></patterns></rule>",
      "rule 'r2': context-id: template '$(refuse)' does not compile" },
    { " <rule id='r3'><patterns><pattern>a</pattern></patterns>\n"
      "  <actions><action condition='bad('><message/></action></actions></rule>",
      "rule 'r3': action condition 'bad(' does not compile: the fake cannot parse it" },
  };

  for (guint i = 0; i < G_N_ELEMENTS(rows); i++)
    {
      gboolean freed;
      FakeBackend *fake = fake_new(&freed);
      GError *error = NULL;
      PdbDatabase *db = load_with(fake, rows[i].rule, &error);

      cr_assert_null(db, "row %u loaded", i);
      cr_assert(strstr(error->message, "db.xml:") != NULL, "row %u: no file:line in %s", i, error->message);
      cr_assert(strstr(error->message, rows[i].expected) != NULL, "row %u: %s", i, error->message);
      g_error_free(error);
      pdb_expr_backend_unref(&fake->super);
      cr_assert(freed, "row %u: a failed load keeps nothing of the backend", i);
    }
}

Test(backend, without_a_backend_the_db_layer_alone_decides)
{
  GError *error = NULL;
  PdbDatabase *db = load_with(NULL, values_rule, &error);

  cr_assert_null(db, "$(sha1) is not a function of the db layer's own engine");
  cr_assert(strstr(error->message, "sha1") != NULL, "%s", error->message);
  g_clear_error(&error);

  db = load_with(NULL, " <rule id='r1' context-id='$(uppercase $user)'><patterns><pattern>a</pattern></patterns>\n"
                 "  <actions><action condition='bad('><message/></action></actions></rule>", &error);
  cr_assert_null(db, "the db layer's own filter compiler refuses 'bad(' at load, as pdbtool");
  cr_assert(strstr(error->message, "condition") != NULL, "%s", error->message);
  g_clear_error(&error);

  db = load_with(NULL, " <rule id='r1' context-id='$(uppercase $user)'><patterns><pattern>a</pattern></patterns>\n"
                 "  <actions><action condition='\"$user\" eq \"x\"'><message/></action></actions></rule>", &error);
  cr_assert_not_null(db, "%s", error ? error->message : "");
  const PdbRule *rule = pdb_database_find_rule(db, "r1");
  const PdbAction *action = g_ptr_array_index(rule->actions, 0);
  cr_assert_null(rule->context_id_host);
  cr_assert_null(action->condition_host, "conditions are the db layer's own without a backend");
  cr_assert_not_null(action->condition_expr, "compiled by db/filter-expr.h");
  pdb_database_unref(db);
}

Test(backend, plain_references_and_what_goes_to_the_backend)
{
  static const struct
  {
    const gchar *text;
    const gchar *reference;    /* NULL: not one plain reference */
    gboolean to_backend;
  } rows[] =
  {
    { "$user", "user", FALSE },
    { "${user}", "user", FALSE },
    { "${.classifier.class}", ".classifier.class", FALSE },
    { "$user_2", "user_2", FALSE },
    { "$user.x", NULL, FALSE },
    { "${user}x", NULL, FALSE },
    { "${user}@1", NULL, FALSE },
    { "${user:-x}", NULL, FALSE },
    { "${a}${b}", NULL, FALSE },
    { "${}", NULL, FALSE },
    { "$", NULL, FALSE },
    { "$$", NULL, FALSE },
    { "text", NULL, FALSE },
    { "", NULL, FALSE },
    { "$(echo $user)", NULL, TRUE },
    { "x $(sha1 y)", NULL, TRUE },
    { "$$(", NULL, TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS(rows); i++)
    {
      gchar *reference = pdb_expr_plain_reference(rows[i].text);

      if (rows[i].reference)
        cr_assert(reference && strcmp(reference, rows[i].reference) == 0, "row %u '%s': got '%s'", i,
                  rows[i].text, reference ? reference : "(null)");
      else
        cr_assert_null(reference, "row %u '%s': got '%s'", i, rows[i].text, reference);
      cr_assert_eq(pdb_expr_backend_takes_template(rows[i].text), rows[i].to_backend, "row %u '%s'", i,
                   rows[i].text);
      g_free(reference);
    }
}

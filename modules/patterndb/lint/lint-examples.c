/*
 * lint-examples.c: rules and their <example>s.
 *
 * Every rule should have an example (warning). Each example is classified
 * as `patterndb test` would: through the program tree when it names a
 * program, else directly in the rule's own ruleset. It must select its own
 * rule (error), completely (a prefix-only match is a warning: the
 * pattern probably misses a trailing part) and give every <test_value>
 * (unset compares as '', as in `test`; error). With @conflicts, another
 * rule that matches the example whole is a rule conflict (warning; off by
 * default, since a literal rule beside a parser rule is often meant so).
 * The message store here is
 * a plain hash table: enough for captures, tags and <value> templates.
 */
#include "lint/lint-private.h"

#include <string.h>

static const gchar *
store_get(gpointer msg, const gchar *name, gssize *length)
{
  const GString *v = g_hash_table_lookup(msg, name);

  if (!v)
    return NULL;
  if (length)
    *length = (gssize) v->len;
  return v->str;
}

static void
store_set(gpointer msg, const gchar *name, const gchar *value, gssize length,
          PdbValueType type G_GNUC_UNUSED)
{
  g_hash_table_replace(msg, g_strdup(name), g_string_new_len(value, length < 0 ? (gssize) strlen(value) : length));
}

static void
store_tag(gpointer msg G_GNUC_UNUSED, const gchar *tag G_GNUC_UNUSED)
{
}

static const PdbMessageOps store_ops = { store_get, store_set, store_tag, store_tag };

static void
string_free(gpointer s)
{
  g_string_free(s, TRUE);
}

static const PdbRuleset *
ruleset_of(const PdbDatabase *db, const PdbRule *rule)
{
  const GPtrArray *rulesets = pdb_database_get_rulesets(db);
  const PdbRuleset *catch_all = pdb_database_get_catch_all_ruleset(db);

  for (guint i = 0; rulesets && i < rulesets->len; i++)
    {
      const PdbRuleset *rs = g_ptr_array_index(rulesets, i);

      if (rs->rules && g_ptr_array_find(rs->rules, rule, NULL))
        return rs;
    }
  if (catch_all && catch_all->rules && g_ptr_array_find(catch_all->rules, rule, NULL))
    return catch_all;
  return NULL;
}

static void
collect_rule(gpointer value, gpointer user_data)
{
  GPtrArray *rules = user_data;

  if (!g_ptr_array_find(rules, value, NULL))
    g_ptr_array_add(rules, value);
}

/* Other rules that match the example whole: `patterndb test` reports a
 * rule conflict (and fails with --strict). */
static void
check_conflict(const PdbRuleset *rs, const PdbRule *rule, const PdbExample *ex, const gchar *message,
               gsize mlen, GPtrArray *findings)
{
  GPtrArray *matching = g_ptr_array_new();

  if (rs && rs->messages)
    pdb_radix_foreach_complete_match(rs->messages, message, mlen, collect_rule, matching);
  for (guint i = 0; i < matching->len; i++)
    {
      const PdbRule *other = g_ptr_array_index(matching, i);
      const PdbRule *rules[] = { rule, other, NULL };

      if (other == rule)
        continue;
      PdbLintFinding *f = pdb_lint_add(findings, PDB_LINT_WARNING, "rule-conflict", &ex->location, rules,
                                       "example of rule '%s' is matched whole by rule '%s' too "
                                       "(a rule conflict in `patterndb test`, a failure with --strict)",
                                       rule->id, other->id);
      f->witness = g_strdup(message);
    }
  g_ptr_array_free(matching, TRUE);
}

static void
check_example(const PdbDatabase *db, const PdbRule *rule, const PdbExample *ex, gboolean conflicts,
              GPtrArray *findings)
{
  const gchar *message = ex->message ? ex->message : "";
  const gchar *program = ex->program ? ex->program : "";
  gsize mlen = strlen(message);
  const PdbRule *rules[] = { rule, NULL, NULL };
  GHashTable *store;
  PdbResult result;
  PdbLintFinding *f;

  pdb_result_init(&result);
  if (ex->program)
    pdb_database_classify(db, program, strlen(program), message, mlen, &result);
  else
    {
      const PdbRuleset *rs = ruleset_of(db, rule);

      if (rs && rs->messages && pdb_radix_lookup(rs->messages, message, mlen, &result.message_match))
        {
          result.kind = PDB_RESULT_MATCH;
          result.rule = result.message_match.value;
          result.ruleset = rs;
        }
    }

  if (result.kind != PDB_RESULT_MATCH || result.rule != rule)
    {
      rules[1] = result.kind == PDB_RESULT_MATCH ? result.rule : NULL;
      if (rules[1])
        f = pdb_lint_add(findings, PDB_LINT_ERROR, "example-mismatch", &ex->location, rules,
                         "example of rule '%s' is classified as rule '%s'", rule->id, result.rule->id);
      else
        f = pdb_lint_add(findings, PDB_LINT_ERROR, "example-mismatch", &ex->location, rules,
                         "example of rule '%s' matches no rule%s", rule->id,
                         result.kind == PDB_RESULT_NONE ? " (no ruleset selects its program)" : "");
      f->witness = g_strdup(message);
      pdb_result_clear(&result);
      return;
    }
  if (result.message_match.complete && conflicts)
    check_conflict(result.ruleset, rule, ex, message, mlen, findings);
  else if (!result.message_match.complete)
    {
      guint32 at = result.message_match.matched_length;

      f = pdb_lint_add(findings, PDB_LINT_WARNING, "prefix-only", &ex->location, rules,
                       "pattern of rule '%s' matches only the first %u bytes of its example; '%s' is not covered",
                       rule->id, at, message + MIN(at, mlen));
      f->witness = g_strdup(message);
    }

  store = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, string_free);
  store_set(store, "MESSAGE", message, (gssize) mlen, PDB_VALUE_STRING);
  if (*program)
    store_set(store, "PROGRAM", program, -1, PDB_VALUE_STRING);
  pdb_result_apply(&result, program, message, &store_ops, store);
  for (guint i = 0; ex->test_values && i < ex->test_values->len; i++)
    {
      const PdbTestValue *tv = g_ptr_array_index(ex->test_values, i);
      const GString *actual = g_hash_table_lookup(store, tv->name);
      const gchar *expected = tv->value ? tv->value : "";

      if (g_strcmp0(actual ? actual->str : "", expected) != 0)
        {
          f = pdb_lint_add(findings, PDB_LINT_ERROR, "test-value", &ex->location, rules,
                           "example of rule '%s': test value '%s' is '%s', expected '%s'",
                           rule->id, tv->name, actual ? actual->str : "", expected);
          f->witness = g_strdup(message);
        }
    }
  g_hash_table_destroy(store);
  pdb_result_clear(&result);
}

void
pdb_lint_check_examples(const PdbDatabase *db, gboolean conflicts, GPtrArray *findings)
{
  const GPtrArray *rules = pdb_database_get_rules(db);

  for (guint i = 0; i < rules->len; i++)
    {
      const PdbRule *rule = g_ptr_array_index(rules, i);
      const PdbRule *ids[] = { rule, NULL };

      if (!rule->examples || rule->examples->len == 0)
        {
          pdb_lint_add(findings, PDB_LINT_WARNING, "no-example", &rule->location, ids,
                       "rule '%s' has no example", rule->id);
          continue;
        }
      for (guint e = 0; e < rule->examples->len; e++)
        check_example(db, rule, g_ptr_array_index(rule->examples, e), conflicts, findings);
    }
}

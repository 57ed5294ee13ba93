/*
 * rule.c: constructors, destructors and small helpers for the plain data
 * of rule.h.
 *
 * Invariant: the strings of a PdbRule (id, class_name, class_tag,
 * provider, context_id, description, the pattern texts and the elements
 * of tags and urls) live in the database's string pool
 * (pdb_database_store(), pdb_database_intern()) and the PdbRule structures
 * in its rule blocks (pdb_database_new_rule()); both are freed with the
 * database, never one by one. Every other structure owns the strings and
 * arrays it points to (the arrays free their elements), except the `file`
 * of a PdbLocation, which belongs to the database's list of files, and
 * PdbRuleset.rules, which borrows the database's rules. A rule's arrays
 * that hold nothing are one shared, never modified empty array
 * (pdb_rule_array_add() replaces it on the first element): 100,000 rules
 * would otherwise carry 500,000 empty ones. The first pattern's text and
 * places are kept inline (most rules have one).
 */
#include "db/database-private.h"
#include "db/template.h"
#include "db/filter-expr.h"
#include "db/expr-backend.h"

#include <string.h>

/* 3.38 keeps class tags in a 32-byte buffer: at most 31 bytes survive. */
#define PDB_CLASS_TAG_MAX 31

gboolean
pdb_context_scope_from_string(const gchar *name, gboolean ignore_case, PdbContextScope *scope)
{
  for (PdbContextScope s = PDB_SCOPE_PROCESS; s <= PDB_SCOPE_GLOBAL; s++)
    if (ignore_case ? g_ascii_strcasecmp(name, pdb_context_scope_to_string(s)) == 0
                    : strcmp(name, pdb_context_scope_to_string(s)) == 0)
      {
        *scope = s;
        return TRUE;
      }
  return FALSE;
}

guint
pdb_context_scope_fields(PdbContextScope scope)
{
  return (guint) (PDB_SCOPE_GLOBAL - scope);
}

const gchar *
pdb_context_scope_to_string(PdbContextScope scope)
{
  switch (scope)
    {
    case PDB_SCOPE_PROCESS:
      return "process";
    case PDB_SCOPE_PROGRAM:
      return "program";
    case PDB_SCOPE_HOST:
      return "host";
    case PDB_SCOPE_GLOBAL:
      return "global";
    }
  return "process";
}

const gchar *
pdb_inherit_mode_to_string(PdbInheritMode mode)
{
  switch (mode)
    {
    case PDB_INHERIT_NONE:
      return "none";
    case PDB_INHERIT_LAST_MESSAGE:
      return "last-message";
    case PDB_INHERIT_CONTEXT:
      return "context";
    }
  return "none";
}

const gchar *
pdb_action_trigger_to_string(PdbActionTrigger trigger)
{
  return trigger == PDB_TRIGGER_TIMEOUT ? "timeout" : "match";
}

PdbValueDef *
pdb_value_def_new(void)
{
  return g_new0(PdbValueDef, 1);
}

void
pdb_value_def_free(PdbValueDef *value)
{
  if (!value)
    return;
  g_free(value->name);
  g_free(value->template_text);
  g_free(value->type);
  pdb_template_free(value->compiled);
  pdb_host_expr_free(value->host);
  g_free(value->reference);
  g_free(value);
}

PdbTestValue *
pdb_test_value_new(void)
{
  return g_new0(PdbTestValue, 1);
}

void
pdb_test_value_free(PdbTestValue *value)
{
  if (!value)
    return;
  g_free(value->name);
  g_free(value->value);
  g_free(value->type);
  g_free(value);
}

PdbExample *
pdb_example_new(void)
{
  PdbExample *example = g_new0(PdbExample, 1);

  example->test_values = g_ptr_array_new_with_free_func((GDestroyNotify) pdb_test_value_free);
  return example;
}

void
pdb_example_free(PdbExample *example)
{
  if (!example)
    return;
  g_free(example->program);
  g_free(example->message);
  g_ptr_array_unref(example->test_values);
  g_free(example);
}

void
pdb_synthetic_message_init(PdbSyntheticMessage *message)
{
  message->inherit_mode = PDB_INHERIT_NONE;
  message->tags = g_ptr_array_new_with_free_func(g_free);
  message->values = g_ptr_array_new_with_free_func((GDestroyNotify) pdb_value_def_free);
}

void
pdb_synthetic_message_clear(PdbSyntheticMessage *message)
{
  g_clear_pointer(&message->tags, g_ptr_array_unref);
  g_clear_pointer(&message->values, g_ptr_array_unref);
}

PdbAction *
pdb_action_new(void)
{
  PdbAction *action = g_new0(PdbAction, 1);

  pdb_synthetic_message_init(&action->message);
  return action;
}

void
pdb_action_free(PdbAction *action)
{
  if (!action)
    return;
  g_free(action->condition);
  pdb_filter_expr_free(action->condition_expr);
  pdb_synthetic_message_clear(&action->message);
  g_free(action->create_context_id);
  pdb_template_free(action->create_context_id_template);
  pdb_host_expr_free(action->create_context_id_host);
  pdb_host_expr_free(action->condition_host);
  g_free(action);
}

/* The shared empty arrays (see the invariant above); never freed. */
static GPtrArray *
shared_empty_ptr_array(void)
{
  static GPtrArray *empty;

  if (g_once_init_enter(&empty))
    g_once_init_leave(&empty, g_ptr_array_new());
  return empty;
}

void
pdb_rule_array_add(GPtrArray **array, gpointer element, GDestroyNotify free_func)
{
  if (*array == shared_empty_ptr_array())
    *array = g_ptr_array_new_full(1, free_func);
  g_ptr_array_add(*array, element);
}

void
pdb_rule_add_pattern(PdbRule *rule, const gchar *text, const PdbLocation *at, const PdbLocation *start)
{
  guint count = ++rule->n_patterns;

  if (count == 1)
    rule->pattern_places = &rule->first_place;
  else if (count == 2)
    {
      rule->pattern_places = g_new(PdbPatternPlace, 2);
      rule->pattern_places[0] = rule->first_place;
    }
  else
    rule->pattern_places = g_renew(PdbPatternPlace, rule->pattern_places, count);
  rule->pattern_places[count - 1].text = (gchar *) text;
  rule->pattern_places[count - 1].at = *at;
  rule->pattern_places[count - 1].start = *start;
}

static void
release_ptr_array(GPtrArray *array)
{
  if (array && array != shared_empty_ptr_array())
    g_ptr_array_unref(array);
}

void
pdb_rule_init(PdbRule *rule)
{
  GPtrArray *empty = shared_empty_ptr_array();

  rule->tags = empty;
  rule->values = empty;
  rule->examples = empty;
  rule->actions = empty;
  rule->urls = empty;
}

void
pdb_rule_set_class(PdbDatabase *db, PdbRule *rule, const gchar *class_name)
{
  static const gchar prefix[] = ".classifier.";
  gchar tag[PDB_CLASS_TAG_MAX + 1];
  gsize length;

  if (!class_name)
    class_name = "system";
  rule->class_name = (gchar *) pdb_database_intern(db, class_name);
  length = strlen(class_name);
  memcpy(tag, prefix, sizeof(prefix) - 1);
  length = MIN(length, PDB_CLASS_TAG_MAX - (sizeof(prefix) - 1));
  memcpy(tag + sizeof(prefix) - 1, class_name, length);
  tag[sizeof(prefix) - 1 + length] = '\0';
  rule->class_tag = (gchar *) pdb_database_intern(db, tag);
}

void
pdb_rule_clear(PdbRule *rule)
{
  if (!rule)
    return;
  pdb_template_free(rule->context_id_template);
  pdb_host_expr_free(rule->context_id_host);
  if (rule->pattern_places != &rule->first_place)
    g_free(rule->pattern_places);
  release_ptr_array(rule->tags);
  release_ptr_array(rule->values);
  release_ptr_array(rule->examples);
  release_ptr_array(rule->actions);
  release_ptr_array(rule->urls);
}

/* A rule's id is the label of its patterns in the message tree (radix.h):
 * the direct `match` path prints it without reading the rule. */
static const gchar *
rule_label(gpointer value, gsize *length)
{
  const PdbRule *rule = value;

  if (!rule->id)
    return NULL;
  *length = strlen(rule->id);
  return rule->id;
}

PdbRuleset *
pdb_ruleset_new(void)
{
  PdbRuleset *ruleset = g_new0(PdbRuleset, 1);

  ruleset->program_patterns = g_ptr_array_new_with_free_func(g_free);
  ruleset->rules = g_ptr_array_new();
  ruleset->messages = pdb_radix_new();
  pdb_radix_set_label_func(ruleset->messages, rule_label);
  ruleset->urls = g_ptr_array_new_with_free_func(g_free);
  return ruleset;
}

void
pdb_ruleset_free(PdbRuleset *ruleset)
{
  if (!ruleset)
    return;
  g_free(ruleset->name);
  g_free(ruleset->id);
  g_ptr_array_unref(ruleset->program_patterns);
  g_ptr_array_unref(ruleset->rules);
  pdb_radix_free(ruleset->messages);
  g_free(ruleset->description);
  g_ptr_array_unref(ruleset->urls);
  g_free(ruleset);
}

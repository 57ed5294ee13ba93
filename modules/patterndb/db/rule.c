/*
 * rule.c: constructors, destructors and small helpers for the plain data
 * of rule.h.
 *
 * Invariant: every structure owns the strings and arrays it points to (the
 * arrays free their elements), except the `file` of a PdbLocation, which
 * belongs to the database's list of files, and PdbRuleset.rules, which
 * borrows the database's rules.
 */
#include "db/database-private.h"
#include "db/template.h"

#include <string.h>

/* 3.38 keeps class tags in a 32-byte buffer: at most 31 bytes survive. */
#define PDB_CLASS_TAG_MAX 31

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
  pdb_synthetic_message_clear(&action->message);
  g_free(action->create_context_id);
  pdb_template_free(action->create_context_id_template);
  g_free(action);
}

PdbRule *
pdb_rule_new(void)
{
  PdbRule *rule = g_new0(PdbRule, 1);

  rule->patterns = g_ptr_array_new_with_free_func(g_free);
  rule->pattern_locations = g_array_new(FALSE, TRUE, sizeof(PdbLocation));
  rule->pattern_starts = g_array_new(FALSE, TRUE, sizeof(PdbLocation));
  rule->tags = g_ptr_array_new_with_free_func(g_free);
  rule->values = g_ptr_array_new_with_free_func((GDestroyNotify) pdb_value_def_free);
  rule->examples = g_ptr_array_new_with_free_func((GDestroyNotify) pdb_example_free);
  rule->actions = g_ptr_array_new_with_free_func((GDestroyNotify) pdb_action_free);
  rule->urls = g_ptr_array_new_with_free_func(g_free);
  pdb_rule_set_class(rule, NULL);
  return rule;
}

void
pdb_rule_set_class(PdbRule *rule, const gchar *class_name)
{
  g_free(rule->class_name);
  g_free(rule->class_tag);
  rule->class_name = g_strdup(class_name ? class_name : "system");

  gchar *tag = g_strconcat(".classifier.", rule->class_name, NULL);
  if (strlen(tag) > PDB_CLASS_TAG_MAX)
    tag[PDB_CLASS_TAG_MAX] = '\0';
  rule->class_tag = tag;
}

void
pdb_rule_free(PdbRule *rule)
{
  if (!rule)
    return;
  g_free(rule->id);
  g_free(rule->class_name);
  g_free(rule->class_tag);
  g_free(rule->provider);
  g_free(rule->context_id);
  pdb_template_free(rule->context_id_template);
  g_ptr_array_unref(rule->patterns);
  g_array_unref(rule->pattern_locations);
  g_array_unref(rule->pattern_starts);
  g_ptr_array_unref(rule->tags);
  g_ptr_array_unref(rule->values);
  g_ptr_array_unref(rule->examples);
  g_ptr_array_unref(rule->actions);
  g_free(rule->description);
  g_ptr_array_unref(rule->urls);
  g_free(rule);
}

PdbRuleset *
pdb_ruleset_new(void)
{
  PdbRuleset *ruleset = g_new0(PdbRuleset, 1);

  ruleset->program_patterns = g_ptr_array_new_with_free_func(g_free);
  ruleset->rules = g_ptr_array_new();
  ruleset->messages = pdb_radix_new();
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

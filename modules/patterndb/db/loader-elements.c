/*
 * loader-elements.c: what each element of a pattern database does to the
 * database being built. loader.c calls loader_elements_start() when an
 * element opens (after loader-grammar.c has accepted it),
 * loader_elements_text() for each piece of its text and
 * loader_elements_end() when it closes.
 *
 * Rules are collected per <ruleset> and inserted into the ruleset's
 * message tree at </ruleset>, in <pattern> order, as 3.38 does. Pattern
 * problems the engine reports (duplicates, unknown parsers, stray '@')
 * are warnings; everything else is an error that fails the file. Text is
 * read as 3.38 reads it: each piece of a <pattern> is a pattern of its
 * own, each piece of a <value> a value and of a <tag> a tag, the last
 * piece of a <test_message> the message (loader.c says what a piece is).
 */
#include "db/loader-private.h"
#include "db/filter-expr.h"
#include "db/expr-backend.h"

#include <stdlib.h>
#include <string.h>

/* ---- element start handlers -------------------------------------------- */

static void
start_patterndb(PdbLoader *self, const Attributes *attrs)
{
  gchar *version = attr_dup(attrs, "version");
  gchar *pub_date = attr_dup(attrs, "pub_date");

  if (!version)
    {
      loader_warn(self, NULL, "patterndb version is unspecified, assuming v4 format; "
                  "add version='4' to <patterndb>");
      version = g_strdup("4");
    }

  gint number = atoi(version);
  if (number < PDB_LOADER_MIN_VERSION)
    loader_fail(self, PDB_DB_ERROR_STRUCTURE,
                "patterndb version '%s' is too old (versions %d to %d are supported); "
                "convert the file with `patterndb merge`",
                version, PDB_LOADER_MIN_VERSION, PDB_LOADER_MAX_VERSION);
  else if (number > PDB_LOADER_MAX_VERSION)
    loader_fail(self, PDB_DB_ERROR_STRUCTURE,
                "patterndb version '%s' is too new (versions %d to %d are supported)",
                version, PDB_LOADER_MIN_VERSION, PDB_LOADER_MAX_VERSION);
  else if (!self->db->version)
    {
      self->db->version = g_strdup(version);
      self->db->pub_date = g_strdup(pub_date);
    }
  g_free(version);
  g_free(pub_date);
}

static void
start_ruleset(PdbLoader *self, const Attributes *attrs)
{
  PendingRuleset *pending = g_new0(PendingRuleset, 1);

  pending->name = attr_dup(attrs, "name");
  pending->id = attr_dup(attrs, "id");
  pending->location = self->start_location;
  pending->rules = g_ptr_array_new();
  pending->urls = g_ptr_array_new_with_free_func(g_free);
  self->ruleset = pending;

  /* As 3.38: once a database has any ruleset, a program that no ruleset
   * selects is classified as unknown (not left untouched). */
  pdb_database_get_catch_all(self->db);
}

/* A rule's class (@a: its class attribute, NULL: none, "system"). The
 * class of the previous <rule> is most often the class of the next one,
 * so that one is reused without interning it again. */
static void
set_rule_class(PdbLoader *self, PdbRule *rule, const xmlChar **a)
{
  const gchar *raw = a ? (const gchar *) a[3] : "system";
  gsize length = a ? (gsize) ((const gchar *) a[4] - raw) : strlen(raw);

  if (self->last_rule_class && length == self->last_class_length
      && memcmp(self->last_rule_class->class_name, raw, length) == 0 && !memchr(raw, '&', length))
    {
      rule->class_name = self->last_rule_class->class_name;
      rule->class_tag = self->last_rule_class->class_tag;
      return;
    }
  gchar *value = a ? attr_dup_one(a) : NULL;
  pdb_rule_set_class(self->db, rule, value);
  g_free(value);
  /* the class tag is met when <rule> opens; a rule of the previous rule's
   * class (the branch above) has been registered already */
  if (rule->class_tag)
    pdb_name_registry_add_tag(self->db->names, rule->class_tag);
  self->last_class_length = strlen(rule->class_name);
  self->last_rule_class = rule;
}

static void
start_rule(PdbLoader *self, const Attributes *attrs)
{
  enum { A_ID, A_CLASS, A_PROVIDER, A_TIMEOUT, A_SCOPE, A_CONTEXT_ID, A_COUNT };
  static const gchar *const names[A_COUNT] =
  {
    "id", "class", "provider", "context-timeout", "context-scope", "context-id"
  };
  const xmlChar **found[A_COUNT] = { NULL };
  PdbRule *rule = pdb_database_new_rule(self->db);
  gchar *value;

  /* one pass over the attributes; they are then handled in a fixed order */
  for (gint i = 0; i < attrs->count; i++)
    {
      const xmlChar **a = attrs->raw + i * 5;

      for (gint k = 0; k < A_COUNT; k++)
        if (!found[k] && a[0][0] == (xmlChar) names[k][0] && strcmp((const gchar *) a[0], names[k]) == 0)
          {
            found[k] = a;
            break;
          }
    }

  set_rule_class(self, rule, found[A_CLASS]);
  rule->location = self->start_location;
  self->rule = rule;
  g_ptr_array_add(self->ruleset->rules, rule);

  rule->id = attr_pool(self, found[A_ID], FALSE);
  if (!rule->id)
    {
      loader_fail(self, PDB_DB_ERROR_STRUCTURE, "<rule> has no id attribute; add id='...' (a unique name)");
      return;
    }

  if (found[A_PROVIDER])
    {
      const xmlChar **a = found[A_PROVIDER];
      gsize length = a[4] - a[3];

      /* as the class: most rules repeat the provider of the previous one */
      if (!(self->last_provider && strlen(self->last_provider) == length
            && memcmp(self->last_provider, a[3], length) == 0 && !memchr(a[3], '&', length)))
        self->last_provider = attr_pool(self, a, TRUE);
      rule->provider = (gchar *) self->last_provider;
    }

  value = attr_dup_one(found[A_TIMEOUT]);
  if (value)
    rule->context_timeout = parse_timeout(self, value);
  g_free(value);

  value = attr_dup_one(found[A_SCOPE]);
  if (value)
    parse_scope(self, value, &rule->context_scope);
  g_free(value);

  rule->context_id = attr_pool(self, found[A_CONTEXT_ID], FALSE);
  if (rule->context_id)
    {
      rule->context_id_template = compile_template(self, "context-id", rule->context_id, FALSE,
                                                   &rule->context_id_host);
      pdb_name_registry_add_template(self->db->names, rule->context_id);
    }
}

static void
start_value(PdbLoader *self, const Attributes *attrs, const gchar *element)
{
  g_free(self->value_name);
  g_free(self->value_type);
  self->value_name = attr_dup(attrs, "name");
  self->value_type = attr_dup(attrs, "type");
  self->value_location = self->start_location;

  if (!self->value_name)
    loader_fail(self, PDB_DB_ERROR_STRUCTURE, "<%s> has no name attribute in rule '%s'; add name='...'",
                element, self->rule ? self->rule->id : "");
  else if (attr_index(attrs, "name") != 0)
    loader_warn(self, NULL, "<%s> in rule '%s': syslog-ng 3.38 refuses the file unless name= is the "
                "first attribute; move it first", element, self->rule ? self->rule->id : "");
}

static void
start_example(PdbLoader *self)
{
  self->example = pdb_example_new();
  self->example->location = self->start_location;
  pdb_rule_array_add(&self->rule->examples, self->example, (GDestroyNotify) pdb_example_free);
}

static void
start_test_message(PdbLoader *self, const Attributes *attrs)
{
  g_free(self->example->program);
  self->example->program = attr_dup(attrs, "program");
  self->example->location = self->start_location;
}

/* With a backend (the daemon), the host compiles conditions at load: one
 * it refuses makes the database fail, as it does in the host. */
static void
compile_condition(PdbLoader *self, PdbAction *action)
{
  GError *error = NULL;

  action->condition_host = pdb_host_expr_compile_condition(self->options->backend, action->condition, &error);
  if (!action->condition_host)
    {
      loader_fail(self, PDB_DB_ERROR_TEMPLATE, "rule '%s': action condition '%s' does not compile: %s",
                  self->rule ? self->rule->id : "", action->condition, error->message);
      g_error_free(error);
    }
}

static void
start_action(PdbLoader *self, const Attributes *attrs)
{
  PdbAction *action = pdb_action_new();
  gchar *value;

  action->location = self->start_location;
  pdb_rule_array_add(&self->rule->actions, action, (GDestroyNotify) pdb_action_free);
  self->action = action;

  value = attr_dup(attrs, "trigger");
  if (value)
    {
      if (strcmp(value, "match") == 0)
        action->trigger = PDB_TRIGGER_MATCH;
      else if (strcmp(value, "timeout") == 0)
        action->trigger = PDB_TRIGGER_TIMEOUT;
      else
        loader_fail(self, PDB_DB_ERROR_STRUCTURE,
                    "unknown action trigger '%s' in rule '%s', expected one of match, timeout",
                    value, self->rule->id);
    }
  g_free(value);

  action->condition = attr_dup(attrs, "condition");
  if (action->condition && self->options && self->options->backend)
    compile_condition(self, action);
  else if (action->condition)
    {
      /* 3.38 compiles conditions while it loads: one that does not compile
       * makes the whole file fail */
      GError *cond_error = NULL;

      action->condition_expr = pdb_filter_expr_compile(action->condition, &cond_error);
      if (!action->condition_expr)
        {
          loader_fail(self, PDB_DB_ERROR_STRUCTURE, "action condition in rule '%s': %s",
                      self->rule->id, cond_error->message);
          g_error_free(cond_error);
        }
      pdb_name_registry_add_filter(self->db->names, action->condition_expr);
      const GPtrArray *warnings = pdb_filter_expr_get_warnings(action->condition_expr);

      for (guint w = 0; warnings && w < warnings->len; w++)
        loader_warn(self, NULL, "action condition in rule '%s': %s", self->rule->id,
                    (const gchar *) g_ptr_array_index(warnings, w));
    }

  value = attr_dup(attrs, "rate");
  if (value)
    {
      gchar *slash = strchr(value, '/');
      action->rate_count = (guint) MAX(atoi(value), 0);
      action->rate_period = slash ? (guint) MAX(atoi(slash + 1), 0) : 1;
      if (action->rate_period == 0)
        action->rate_period = 1;
    }
  g_free(value);
}

/* An action changes kind (<message> after <create-context> or the other
 * way round): what the earlier element put in its message is dropped. */
static void
reset_action_message(PdbAction *action)
{
  pdb_synthetic_message_clear(&action->message);
  pdb_synthetic_message_init(&action->message);
}

static void
start_create_context(PdbLoader *self, const Attributes *attrs)
{
  PdbAction *action = self->action;
  gchar *value;

  if (action->has_message || action->creates_context)
    loader_warn(self, NULL, "a second <message> or <create-context> in an <action> of rule '%s': "
                "syslog-ng 3.38 keeps the last kind and adds to it", self->rule->id);
  if (action->has_message)
    reset_action_message(action);
  action->has_message = FALSE;
  action->creates_context = TRUE;
  g_clear_pointer(&action->create_context_id, g_free);
  g_clear_pointer(&action->create_context_id_template, pdb_template_free);

  value = attr_dup(attrs, "context-timeout");
  if (value)
    action->create_context_timeout = parse_timeout(self, value);
  g_free(value);

  value = attr_dup(attrs, "context-scope");
  if (value)
    parse_scope(self, value, &action->create_context_scope);
  g_free(value);

  action->create_context_id = attr_dup(attrs, "context-id");
  if (!action->create_context_id)
    loader_fail(self, PDB_DB_ERROR_STRUCTURE,
                "<create-context> has no context-id attribute in rule '%s'; add context-id='...'",
                self->rule->id);
  else
    {
      action->create_context_id_template = compile_template(self, "create-context context-id",
                                                            action->create_context_id, FALSE,
                                                            &action->create_context_id_host);
      pdb_name_registry_add_template(self->db->names, action->create_context_id);
    }
}

static void
start_message(PdbLoader *self, const Attributes *attrs, LoaderState parent)
{
  PdbAction *action = self->action;
  PdbSyntheticMessage *message = &action->message;
  gchar *value;

  if (parent == ST_ACTION)
    {
      if (action->has_message || action->creates_context)
        loader_warn(self, NULL, "a second <message> or <create-context> in an <action> of rule '%s': "
                    "syslog-ng 3.38 keeps the last kind and adds to it", self->rule->id);
      if (action->creates_context)
        reset_action_message(action);
      action->creates_context = FALSE;
      action->has_message = TRUE;
    }
  self->message = message;

  value = attr_dup(attrs, "inherit-properties");
  if (value)
    {
      if (value[0] == 'T' || value[0] == 't' || value[0] == '1')
        message->inherit_mode = PDB_INHERIT_LAST_MESSAGE;
      else if (value[0] == 'F' || value[0] == 'f' || value[0] == '0')
        message->inherit_mode = PDB_INHERIT_NONE;
      else if (strcmp(value, "context") == 0)
        message->inherit_mode = PDB_INHERIT_CONTEXT;
      else
        loader_fail(self, PDB_DB_ERROR_STRUCTURE,
                    "unknown inherit-properties '%s' in rule '%s', expected one of TRUE, FALSE, context",
                    value, self->rule->id);
    }
  g_free(value);

  value = attr_dup(attrs, "inherit-mode");
  if (value)
    {
      if (strcmp(value, "none") == 0)
        message->inherit_mode = PDB_INHERIT_NONE;
      else if (strcmp(value, "last-message") == 0)
        message->inherit_mode = PDB_INHERIT_LAST_MESSAGE;
      else if (strcmp(value, "context") == 0)
        message->inherit_mode = PDB_INHERIT_CONTEXT;
      else
        loader_fail(self, PDB_DB_ERROR_STRUCTURE,
                    "unknown inherit-mode '%s' in rule '%s', expected one of none, last-message, context",
                    value, self->rule->id);
    }
  g_free(value);
}

/* ---- element end handlers ---------------------------------------------- */

/* A ruleset <pattern>: the first one picks (or creates) the ruleset, the
 * others are aliases that must not belong to another ruleset. */
static void
end_ruleset_pattern(PdbLoader *self, const gchar *pattern)
{
  PendingRuleset *pending = self->ruleset;
  PdbRuleset *existing = pdb_database_lookup_program(self->db, pattern);
  PdbLocation location = self->text_location;

  if (!pending->target)
    {
      if (existing)
        {
          pending->target = existing;
          return;
        }
      PdbRuleset *ruleset = pdb_database_new_ruleset(self->db);
      ruleset->name = g_strdup(pending->name);
      ruleset->id = g_strdup(pending->id);
      ruleset->location = pending->location;
      pending->target = ruleset;
      existing = NULL;
    }
  else if (existing && existing != pending->target)
    {
      loader_fail(self, PDB_DB_ERROR_STRUCTURE,
                  "Joining rulesets with mismatching program name sets: program '%s' already "
                  "selects ruleset '%s' (%s:%d), but this ruleset starts with program '%s'",
                  pattern, existing->name ? existing->name : "", existing->location.file,
                  existing->location.line,
                  pending->target->program_patterns->len ?
                  (const gchar *) g_ptr_array_index(pending->target->program_patterns, 0) : "");
      return;
    }

  if (!existing)
    {
      pdb_database_add_program(self->db, pattern, pending->target, &location, &self->text_start);
      g_ptr_array_add(pending->target->program_patterns, g_strdup(pattern));
    }
}

static void
end_ruleset(PdbLoader *self)
{
  PendingRuleset *pending = self->ruleset;
  PdbRuleset *target = pending->target;

  if (!target)
    target = pdb_database_get_catch_all(self->db);
  if (!target->name && !target->id)
    {
      target->name = g_strdup(pending->name);
      target->id = g_strdup(pending->id);
      target->location = pending->location;
    }
  if (!target->description && pending->description)
    target->description = g_strdup(pending->description);
  for (guint i = 0; i < pending->urls->len; i++)
    g_ptr_array_add(target->urls, g_strdup(g_ptr_array_index(pending->urls, i)));

  for (guint i = 0; i < pending->rules->len; i++)
    {
      const PdbRule *rule = g_ptr_array_index(pending->rules, i);

      g_ptr_array_add(target->rules, (gpointer) rule);
      /* counted while the rule is in the cache: asked after loading */
      self->db->n_correlating_rules += rule->context_id || (rule->actions && rule->actions->len);
      self->db->n_rules_with_values += rule->values && rule->values->len;
    }
  loader_insert_rules(self, target->messages, pending->rules);
}

void
pending_ruleset_free(PendingRuleset *pending)
{
  if (!pending)
    return;
  g_free(pending->name);
  g_free(pending->id);
  g_ptr_array_unref(pending->rules);
  g_free(pending->description);
  g_ptr_array_unref(pending->urls);
  g_free(pending);
}

static void
end_value(PdbLoader *self, const gchar *text)
{
  PdbValueDef *value = pdb_value_def_new();
  PdbTypeHint hint = PDB_TYPE_HINT_NONE;

  value->name = prefixed_name(self, self->value_name);
  value->template_text = g_strdup(text);
  value->type = g_strdup(self->value_type);
  value->location = self->value_location;
  if (self->message)
    g_ptr_array_add(self->message->values, value);
  else
    pdb_rule_array_add(&self->rule->values, value, (GDestroyNotify) pdb_value_def_free);

  if (value->type && !pdb_type_hint_parse(value->type, -1, &hint))
    {
      /* 3.38 loads it and ignores the attribute (type='integer' is seen in
       * the wild) */
      loader_warn(self, &value->location,
                  "rule '%s': value '%s': unknown type '%s' is ignored, as syslog-ng 3.38 does "
                  "(one of " PDB_TYPE_HINT_NAMES ")", self->rule->id, self->value_name, value->type);
      g_clear_pointer(&value->type, g_free);
    }

  pdb_name_registry_add_template(self->db->names, text);
  gchar *what = g_strdup_printf("value '%s'", self->value_name);
  value->compiled = compile_template(self, what, text, TRUE, &value->host);
  g_free(what);
  if (!value->compiled)
    return;
  if (!value->type)
    hint = pdb_template_get_type_hint(value->compiled);
  value->value_type = pdb_type_hint_to_value_type(hint);
  if (!value->type && hint == PDB_TYPE_HINT_NONE)
    value->reference = pdb_expr_plain_reference(text);
}

static void
end_test_value(PdbLoader *self, const gchar *text)
{
  PdbTestValue *value = pdb_test_value_new();

  value->name = g_strdup(self->value_name);
  value->value = g_strdup(text);
  value->type = g_strdup(self->value_type);
  g_ptr_array_add(self->example->test_values, value);
}

/* One piece of text of the open element (see loader.c). */
void
loader_elements_text(PdbLoader *self, LoaderState state, const gchar *text, gsize length)
{
  switch (state)
    {
    case ST_RULESET_PATTERN:
      end_ruleset_pattern(self, text);
      break;
    case ST_RULESET_DESCRIPTION:
      g_free(self->ruleset->description);
      self->ruleset->description = g_strdup(text);
      break;
    case ST_RULESET_URL:
      g_ptr_array_add(self->ruleset->urls, g_strdup(text));
      break;
    case ST_RULE_PATTERN:
      pdb_rule_add_pattern(self->rule, pdb_database_store(self->db, text, length),
                           &self->text_location, &self->text_start);
      break;
    case ST_RULE_DESCRIPTION:
      self->rule->description = (gchar *) pdb_database_store(self->db, text, length);
      break;
    case ST_RULE_URL:
      pdb_rule_array_add(&self->rule->urls, (gpointer) pdb_database_store(self->db, text, length), NULL);
      break;
    case ST_TAG:
      pdb_name_registry_add_tag(self->db->names, text);
      if (self->message)
        g_ptr_array_add(self->message->tags, g_strdup(text));
      else
        pdb_rule_array_add(&self->rule->tags, (gpointer) pdb_database_intern(self->db, text), NULL);
      break;
    case ST_VALUE:
      end_value(self, text);
      break;
    case ST_TEST_MESSAGE:
      g_free(self->example->message);
      self->example->message = g_strdup(text);
      break;
    case ST_TEST_VALUE:
      /* 3.38 gives the name to the first piece only */
      if (self->pieces == 0)
        end_test_value(self, text);
      break;
    default:
      break;
    }
}

void
loader_elements_start(PdbLoader *self, LoaderState child, LoaderState parent, const Attributes *attrs)
{
  switch (child)
    {
    case ST_PATTERNDB:
      start_patterndb(self, attrs);
      break;
    case ST_RULESET:
      start_ruleset(self, attrs);
      break;
    case ST_RULE:
      start_rule(self, attrs);
      break;
    case ST_VALUE:
      start_value(self, attrs, "value");
      break;
    case ST_TEST_VALUE:
      start_value(self, attrs, "test_value");
      break;
    case ST_EXAMPLE:
      start_example(self);
      break;
    case ST_TEST_MESSAGE:
      start_test_message(self, attrs);
      break;
    case ST_ACTION:
      start_action(self, attrs);
      break;
    case ST_CREATE_CONTEXT:
      start_create_context(self, attrs);
      break;
    case ST_MESSAGE:
      start_message(self, attrs, parent);
      break;
    default:
      break;
    }
}

void
loader_elements_end(PdbLoader *self, LoaderState state)
{
  switch (state)
    {
    case ST_RULESET:
      end_ruleset(self);
      pending_ruleset_free(self->ruleset);
      self->ruleset = NULL;
      break;
    case ST_RULE:
      self->rule = NULL;
      break;
    case ST_EXAMPLE:
      self->example = NULL;
      break;
    case ST_ACTION:
      self->action = NULL;
      break;
    case ST_MESSAGE:
      self->message = NULL;
      break;
    default:
      break;
    }
}

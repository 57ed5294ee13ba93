/*
 * classify.c: classification with a loaded database, and writing the
 * result into a message in the reference's order.
 *
 * pdb_database_classify() only reads the frozen database and writes the
 * caller's PdbResult, so it needs no lock; it allocates nothing unless a
 * pattern has more than PDB_MATCH_INLINE_CAPTURES captures.
 *
 * Which rule wins, the whole chain (3.38's, which users rely on):
 *   1. Files: a directory or glob is read in strcmp() order of the full
 *      paths (database.c); inside a file, rules in document order.
 *   2. Rulesets with the same program pattern merge into one message tree,
 *      across files; a ruleset without a program pattern goes to the
 *      catch-all tree. Patterns enter a tree in that order, each ruleset's
 *      at its </ruleset>; an identical pattern inserted again is refused
 *      with a warning: the first one stays.
 *   3. The program is looked up in the tree of program patterns (the same
 *      engine, so the same order as 5); a program no pattern matches uses
 *      the catch-all tree, and without one the message is unknown.
 *   4. The message is looked up in that ruleset's tree only: a message that
 *      no rule of the program's ruleset matches is unknown even when a
 *      catch-all rule would match it.
 *   5. Inside a tree (engine/radix-node.h, THE MATCHING ORDER): literal
 *      text before parsers, parsers in insertion order with backtracking,
 *      a complete match anywhere before any prefix match, then the first
 *      prefix match in that order.
 *
 * The order of writes (pdb_result_apply) is a contract users see in
 * `match` output and in templates that read earlier values:
 *   1. .classifier.class, .classifier.rule_id
 *   2. program captures, then message captures (slices of the buffers)
 *   3. .classifier.context_id, when the rule has a context-id
 *   4. clear tag .classifier.unknown; set the class tag, then rule tags
 *   5. rule <values>, each evaluated against the message as it is by then
 * A message no rule matches gets .classifier.class "unknown", the
 * captures of the program pattern that selected its ruleset (as 3.38)
 * and the tag .classifier.unknown.
 */
#include "db/database-private.h"
#include "db/template.h"

#include <string.h>

#define PDB_UNKNOWN_CLASS "unknown"
#define PDB_UNKNOWN_TAG ".classifier.unknown"

void
pdb_result_init(PdbResult *result)
{
  result->kind = PDB_RESULT_NONE;
  result->rule = NULL;
  result->ruleset = NULL;
  pdb_match_init(&result->program_match);
  pdb_match_init(&result->message_match);
}

void
pdb_result_clear(PdbResult *result)
{
  pdb_match_clear(&result->program_match);
  pdb_match_clear(&result->message_match);
  result->kind = PDB_RESULT_NONE;
  result->rule = NULL;
  result->ruleset = NULL;
}

/* Forgets a previous result but keeps grown capture storage (no free,
 * no allocation); a PdbMatch copied by value gets its own inline array back. */
static inline void
match_reset(PdbMatch *match)
{
  match->value = NULL;
  match->label = NULL;
  match->label_length = 0;
  match->complete = FALSE;
  match->matched_length = 0;
  match->n_captures = 0;
  if (match->capacity <= PDB_MATCH_INLINE_CAPTURES)
    {
      match->captures = match->inline_captures;
      match->capacity = PDB_MATCH_INLINE_CAPTURES;
    }
}

/*
 * The program lookup, through a small per-thread cache: a log stream
 * names a few dozen programs again and again, and the program tree's
 * answer depends only on the name's bytes. A slot holds a result without
 * captures (the common literal program patterns), keyed by the tree's
 * serial (pdb_radix_get_serial(): a reloaded tree never hits an old slot)
 * and the name (at most PROGRAM_CACHE_KEY bytes); anything else is looked
 * up every time.
 */
#define PROGRAM_CACHE_SLOTS 256
#define PROGRAM_CACHE_KEY 32

typedef struct
{
  guint32 serial;          /* 0: empty */
  guint32 length;
  gboolean found;
  gboolean complete;
  guint32 matched_length;
  gpointer value;
  gchar name[PROGRAM_CACHE_KEY];
} ProgramSlot;

static _Thread_local ProgramSlot program_cache[PROGRAM_CACHE_SLOTS];

static inline guint
program_slot(const gchar *name, gsize length)
{
  guint64 head = 0;
  guint64 tail = 0;

  memcpy(&head, name, MIN(length, 8));
  if (length > 8)
    memcpy(&tail, name + length - MIN(length - 8, 8), MIN(length - 8, 8));
  head = (head ^ (tail * 0x9E3779B97F4A7C15ull) ^ length) * 0x9E3779B97F4A7C15ull;
  return (guint) (head >> 56);   /* 8 bits: PROGRAM_CACHE_SLOTS */
}

G_STATIC_ASSERT(PROGRAM_CACHE_SLOTS == 256);

static gboolean
program_lookup(const PdbRadix *programs, const gchar *name, gsize length, PdbMatch *match)
{
  guint32 serial = pdb_radix_get_serial(programs);
  ProgramSlot *slot;
  gboolean found;

  if (length > PROGRAM_CACHE_KEY || serial == 0)
    return pdb_radix_lookup(programs, name, length, match);
  slot = &program_cache[program_slot(name, length)];
  if (slot->serial == serial && slot->length == length && memcmp(slot->name, name, length) == 0)
    {
      match->value = slot->value;
      match->complete = slot->complete;
      match->matched_length = slot->matched_length;
      return slot->found;
    }
  found = pdb_radix_lookup(programs, name, length, match);
  if (match->n_captures == 0)
    {
      slot->serial = serial;
      slot->length = length;
      slot->found = found;
      slot->complete = match->complete;
      slot->matched_length = match->matched_length;
      slot->value = match->value;
      memcpy(slot->name, name, length);
    }
  else
    slot->serial = 0;
  return found;
}

void
pdb_database_classify(const PdbDatabase *db,
                      const gchar *program, gsize program_length,
                      const gchar *message, gsize message_length,
                      PdbResult *result)
{
  const PdbRuleset *ruleset;

  result->kind = PDB_RESULT_NONE;
  result->rule = NULL;
  result->ruleset = NULL;
  match_reset(&result->message_match);

  match_reset(&result->program_match);
  if (db->programs && program_lookup(db->programs, program ? program : "", program_length,
                                     &result->program_match))
    ruleset = result->program_match.value;
  else
    {
      /* The catch-all ruleset has no program captures. */
      match_reset(&result->program_match);
      ruleset = db->catch_all;
    }
  if (!ruleset)
    return;

  result->ruleset = ruleset;
  if (pdb_radix_lookup(ruleset->messages, message ? message : "", message_length, &result->message_match))
    {
      result->kind = PDB_RESULT_MATCH;
      result->rule = result->message_match.value;
    }
  else
    {
      match_reset(&result->message_match);
      result->kind = PDB_RESULT_UNKNOWN;
    }
}

static void
apply_captures(const PdbMatch *match, const gchar *buffer, const PdbMessageOps *ops, gpointer msg)
{
  for (guint i = 0; i < match->n_captures; i++)
    {
      const PdbCapture *capture = &match->captures[i];

      ops->set(msg, capture->name, buffer + capture->offset, capture->length, capture->type);
    }
}

/*
 * Template output buffers, reused per thread instead of one GString per
 * value and message. A buffer is taken out of the thread's slot while in
 * use, so a nested evaluation (ops->set() classifying again) gets a fresh
 * one instead of overwriting it; the slot's buffer is freed with the thread.
 */
static void
scratch_destroy(gpointer data)
{
  g_string_free(data, TRUE);
}

static GPrivate scratch_slot = G_PRIVATE_INIT(scratch_destroy);

static GString *
scratch_acquire(void)
{
  GString *buffer = g_private_get(&scratch_slot);

  if (!buffer)
    return g_string_sized_new(64);
  g_private_set(&scratch_slot, NULL);
  g_string_truncate(buffer, 0);
  return buffer;
}

static void
scratch_release(GString *buffer)
{
  if (buffer->allocated_len > 64 * 1024 || g_private_get(&scratch_slot))
    {
      g_string_free(buffer, TRUE);
      return;
    }
  g_private_set(&scratch_slot, buffer);
}

typedef struct _MessageLookup
{
  const PdbMessageOps *ops;
  gpointer msg;
} MessageLookup;

/* Template lookup in the message itself; nothing looks back without a context. */
static const gchar *
lookup_in_message(const gchar *name, guint context_index, gssize *length, gpointer user_data)
{
  MessageLookup *lookup = user_data;

  if (context_index != 0 || !lookup->ops->get)
    return NULL;
  /* 3.38 formats a rule's values and context-id with the context's id as
   * CONTEXT_ID (empty while the context-id itself is expanded) */
  if (strcmp(name, PDB_TEMPLATE_CONTEXT_ID) == 0)
    name = ".classifier.context_id";
  return lookup->ops->get(lookup->msg, name, length);
}

/* The scope of a backend's templates when the caller gave none: @msg alone. */
static PdbExprScope
scope_of_message(const PdbMessageOps *ops, gpointer msg, gpointer *slot)
{
  PdbExprScope scope = { slot, 1, NULL };

  *slot = ops->host_message ? ops->host_message(msg) : msg;
  return scope;
}

void
pdb_values_apply_in_scope(const GPtrArray *values, PdbTemplateLookupFunc lookup, gpointer lookup_data,
                          const PdbExprScope *scope, const PdbMessageOps *ops, gpointer msg)
{
  GString *buffer;
  gpointer self_slot;
  PdbExprScope self_scope;

  if (!values || values->len == 0)
    return;
  buffer = scratch_acquire();
  for (guint i = 0; i < values->len; i++)
    {
      const PdbValueDef *value = g_ptr_array_index(values, i);

      g_string_truncate(buffer, 0);
      if (value->reference && ops->get_typed)
        {
          /* copied first: writing may move the message's own values */
          PdbValueType type = PDB_VALUE_STRING;
          gssize length = 0;
          const gchar *text = ops->get_typed(msg, value->reference, &length, &type);

          if (text)
            {
              g_string_append_len(buffer, text, length < 0 ? (gssize) strlen(text) : length);
              ops->set(msg, value->name, buffer->str, buffer->len, type);
              continue;
            }
          /* not a value of the message: a macro (${CONTEXT_ID}, $ISODATE) or
           * unset, which the template below expands as a string */
        }
      if (G_LIKELY(!value->host))
        pdb_template_append(value->compiled, lookup, lookup_data, buffer);
      else
        {
          if (!scope)
            {
              self_scope = scope_of_message(ops, msg, &self_slot);
              scope = &self_scope;
            }
          pdb_host_expr_append(value->host, scope, buffer);
        }
      ops->set(msg, value->name, buffer->str, buffer->len, value->value_type);
    }
  scratch_release(buffer);
}

void
pdb_values_apply(const GPtrArray *values, PdbTemplateLookupFunc lookup, gpointer lookup_data,
                 const PdbMessageOps *ops, gpointer msg)
{
  pdb_values_apply_in_scope(values, lookup, lookup_data, NULL, ops, msg);
}

void
pdb_rule_apply_tags(const PdbRule *rule, const PdbMessageOps *ops, gpointer msg)
{
  if (ops->clear_tag)
    ops->clear_tag(msg, PDB_UNKNOWN_TAG);
  if (ops->set_tag)
    {
      ops->set_tag(msg, rule->class_tag);
      for (guint i = 0; i < rule->tags->len; i++)
        ops->set_tag(msg, g_ptr_array_index(rule->tags, i));
    }
}

void
pdb_result_apply_match(const PdbResult *result, const gchar *program, const gchar *message,
                       const PdbMessageOps *ops, gpointer msg)
{
  switch (result->kind)
    {
    case PDB_RESULT_NONE:
      return;
    case PDB_RESULT_UNKNOWN:
      ops->set(msg, ".classifier.class", PDB_UNKNOWN_CLASS, strlen(PDB_UNKNOWN_CLASS), PDB_VALUE_STRING);
      /* as 3.38: the program pattern matched, so its captures stay */
      apply_captures(&result->program_match, program, ops, msg);
      if (ops->set_tag)
        ops->set_tag(msg, PDB_UNKNOWN_TAG);
      return;
    case PDB_RESULT_MATCH:
      break;
    }

  const PdbRule *rule = result->rule;
  ops->set(msg, ".classifier.class", rule->class_name, strlen(rule->class_name), PDB_VALUE_STRING);
  ops->set(msg, ".classifier.rule_id", rule->id, strlen(rule->id), PDB_VALUE_STRING);
  apply_captures(&result->program_match, program, ops, msg);
  apply_captures(&result->message_match, message, ops, msg);
}

void
pdb_result_apply(const PdbResult *result,
                 const gchar *program, const gchar *message,
                 const PdbMessageOps *ops, gpointer msg)
{
  pdb_result_apply_match(result, program, message, ops, msg);
  if (result->kind != PDB_RESULT_MATCH)
    return;

  const PdbRule *rule = result->rule;
  MessageLookup lookup = { ops, msg };

  if (rule->context_id_template || rule->context_id_host)
    {
      GString *context_id = scratch_acquire();
      if (G_LIKELY(!rule->context_id_host))
        pdb_template_append(rule->context_id_template, lookup_in_message, &lookup, context_id);
      else
        {
          gpointer self_slot;
          PdbExprScope scope = scope_of_message(ops, msg, &self_slot);
          pdb_host_expr_append(rule->context_id_host, &scope, context_id);
        }
      ops->set(msg, ".classifier.context_id", context_id->str, context_id->len, PDB_VALUE_STRING);
      scratch_release(context_id);
    }
  pdb_rule_apply_tags(rule, ops, msg);
  pdb_values_apply(rule->values, lookup_in_message, &lookup, ops, msg);
}

/*
 * correlation.c: contexts, the correlation clock, actions and synthetic
 * messages (see correlation.h).
 *
 * The contexts, their clock, expiry order and limit are a PdbContextTable
 * (context-table.h); each context's data (a Context) holds its id, scope
 * fields, the rule that matched last and a reference to that rule's
 * database. Everything is changed under `lock` only; synthetic messages
 * are queued under the lock and emitted after it is released.
 */
#include "correlation/correlation.h"
#include "db/filter-expr.h"
#include "db/expr-backend.h"
#include "correlation/context-table.h"
#include "correlation/rate-limit.h"

#include <string.h>

/* The data of a PdbContext. */
typedef struct
{
  gchar *id;                     /* the expanded context-id (${CONTEXT_ID}) */
  gchar *host, *program, *pid;   /* the scope fields (NULL when not part of the scope) */
  const PdbRule *rule;           /* the rule that matched last */
  PdbDatabase *db;               /* keeps `rule` alive */
  guint generation;              /* 0, or 1 + that of the context whose
                                  * timeout action created this one */
} Context;

#define CONTEXT(c) ((Context *) (c)->data)

struct _PdbCorrelation
{
  const PdbCorrelationHost *host;
  GMutex lock;
  PdbContextTable *table;  /* PdbContext.data: Context* */
  PdbRateLimits *rates;
  GPtrArray *pending;      /* synthetic messages to emit once unlocked */
  GString *macro_text;     /* the last macro a lookup formatted */
  gpointer macro_data;     /* for host->append_macro() */
  guint creating_generation; /* generation of a context created now */
  gboolean expiring_all;   /* inside pdb_correlation_expire_all() */
};

/*
 * A timeout action that creates a context makes a chain: that context's
 * timeout may create the next. In the daemon time paces the chain; at the
 * end of `match` input, where everything expires at once, 3.38 loops
 * forever. We follow a chain this many links and then stop creating.
 */
#define PDB_CORRELATION_MAX_CHAIN_AT_END 64

static void
context_data_free(gpointer data)
{
  Context *ctx = data;

  if (ctx->db)
    pdb_database_unref(ctx->db);
  g_free(ctx->id);
  g_free(ctx->host);
  g_free(ctx->program);
  g_free(ctx->pid);
  g_free(ctx);
}

PdbCorrelation *
pdb_correlation_new(const PdbCorrelationHost *host, guint max_contexts)
{
  PdbCorrelation *self = g_new0(PdbCorrelation, 1);

  self->host = host;
  g_mutex_init(&self->lock);
  self->table = pdb_context_table_new(host->unref, context_data_free,
                                      max_contexts ? max_contexts : PDB_CORRELATION_DEFAULT_MAX_CONTEXTS);
  self->rates = pdb_rate_limits_new();
  self->pending = g_ptr_array_new();
  self->macro_text = g_string_new(NULL);
  return self;
}

void
pdb_correlation_free(PdbCorrelation *self)
{
  if (!self)
    return;
  pdb_context_table_free(self->table);
  pdb_rate_limits_free(self->rates);
  for (guint i = 0; i < self->pending->len; i++)
    self->host->unref(g_ptr_array_index(self->pending, i));
  g_ptr_array_free(self->pending, TRUE);
  g_string_free(self->macro_text, TRUE);
  g_mutex_clear(&self->lock);
  g_free(self);
}

/* ---- scope fields and keys ---- */

typedef struct
{
  const gchar *host, *program, *pid;
} ScopeFields;

static const gchar *
get_str(PdbCorrelation *self, gpointer msg, const gchar *name)
{
  gssize len = -1;
  const gchar *v = self->host->ops->get(msg, name, &len);

  return v ? v : "";
}

/* Fills @f from @msg for @scope; the strings are borrowed from @msg. */
static void
scope_fields(PdbCorrelation *self, PdbContextScope scope, gpointer msg, ScopeFields *f)
{
  f->host = scope <= PDB_SCOPE_HOST ? get_str(self, msg, "HOST") : NULL;
  f->program = scope <= PDB_SCOPE_PROGRAM ? get_str(self, msg, "PROGRAM") : NULL;
  f->pid = scope == PDB_SCOPE_PROCESS ? get_str(self, msg, "PID") : NULL;
}

static void
append_scope_key(GString *key, PdbContextScope scope, const ScopeFields *f)
{
  g_string_append_printf(key, "%d/", (int) scope);
  pdb_context_key_append_part(key, f->host, -1);
  pdb_context_key_append_part(key, f->program, -1);
  pdb_context_key_append_part(key, f->pid, -1);
}

/* ---- template lookup over a list of messages; index 0 is the newest ---- */

typedef struct
{
  PdbCorrelation *self;
  gpointer *messages;
  guint count;
  gpointer newest;     /* when set, it is index 0 and `messages` follow */
  const gchar *context_id;  /* ${CONTEXT_ID}; NULL: empty */
  gchar length_text[16];  /* $(context-length), formatted on demand */
} Lookup;

static const gchar *
lookup_messages(const gchar *name, guint index, gssize *length, gpointer user_data)
{
  Lookup *l = user_data;
  gpointer msg;

  if (index == PDB_TEMPLATE_CONTEXT_LENGTH_INDEX)
    {
      /* $(context-length): the context's messages, plus the new one */
      g_snprintf(l->length_text, sizeof(l->length_text), "%u", l->count + (l->newest ? 1 : 0));
      *length = -1;
      return l->length_text;
    }
  if (l->newest)
    {
      if (index == 0)
        msg = l->newest;
      else if (index <= l->count)
        msg = l->messages[l->count - index];
      else
        return pdb_template_no_message;
    }
  else if (index < l->count)
    msg = l->messages[l->count - 1 - index];
  else
    return pdb_template_no_message;
  if (strcmp(name, "CONTEXT_ID") == 0)
    {
      *length = -1;
      return l->context_id ? l->context_id : "";   /* "": no fallback to .classifier.context_id */
    }
  if (l->self->host->append_macro)
    {
      GString *text = l->self->macro_text;

      g_string_truncate(text, 0);
      if (l->self->host->append_macro(l->self->macro_data, msg, name, text))
        {
          *length = text->len;
          return text->str;
        }
    }
  if (strcmp(name, "MSG") == 0)
    name = "MESSAGE";
  return l->self->host->ops->get(msg, name, length);
}

/* ---- actions ---- */

/* The newest message of a condition's list has @tag (filter-expr.h's has_tag). */
static gboolean
newest_has_tag(const gchar *tag, gpointer user_data)
{
  Lookup *l = user_data;
  gpointer newest = l->newest ? l->newest : l->messages[l->count - 1];

  return l->self->host->ops->has_tag && l->self->host->ops->has_tag(newest, tag);
}

/* flags(store-matches) in a condition writes $0..$N and the named groups
 * into the newest message, as 3.38 does: the earlier $0..$255 go first
 * (when the host can unset values). */
static void
newest_store_matches(const PdbFilterGroups *groups, gpointer user_data)
{
  Lookup *l = user_data;
  gpointer newest = l->newest ? l->newest : l->messages[l->count - 1];
  const PdbMessageOps *ops = l->self->host->ops;
  gchar name[4];

  for (guint i = 0; ops->unset && i < 256; i++)
    {
      gssize length = 0;

      g_snprintf(name, sizeof(name), "%u", i);
      if (i >= groups->count || !groups->values[i])
        if (ops->get(newest, name, &length))
          ops->unset(newest, name);
    }
  for (guint i = 0; i < groups->count; i++)
    if (groups->values[i])
      {
        g_snprintf(name, sizeof(name), "%u", i);
        ops->set(newest, name, groups->values[i], groups->lengths[i], PDB_VALUE_STRING);
      }
  for (guint n = 0; n < groups->name_count; n++)
    {
      guint g = groups->name_groups[n];

      ops->set(newest, groups->names[n], groups->values[g], groups->lengths[g], PDB_VALUE_STRING);
    }
}

/* The action's condition (compiled by the loader) over @messages, the newest
 * last: filter functions test the newest, templates may look back. */
static gboolean
condition_holds(PdbCorrelation *self, const PdbAction *action, gpointer *messages, guint count)
{
  /* as 3.38: ${CONTEXT_ID} is empty in a condition */
  if (action->condition_host)
    {
      PdbExprScope scope = { messages, count, NULL };

      return pdb_host_expr_eval(action->condition_host, &scope);
    }
  if (!action->condition_expr)
    return TRUE;

  Lookup l = { self, messages, count, NULL, NULL, "" };
  PdbFilterSubject subject = { lookup_messages, newest_has_tag, &l, newest_store_matches };

  return pdb_filter_expr_eval(action->condition_expr, &subject);
}

/* The bucket of @rule's action @action_index: the rule's scope fields of
 * @msg (as 3.38, even when the context was opened with another scope). */
static gboolean
rate_allows(PdbCorrelation *self, const PdbRule *rule, guint action_index, const PdbAction *action,
            gpointer msg)
{
  ScopeFields f;
  gboolean allowed;
  GString *key;

  if (action->rate_count == 0)
    return TRUE;
  scope_fields(self, rule->context_scope, msg, &f);
  key = g_string_new(NULL);
  pdb_context_key_append_part(key, rule->id, -1);
  g_string_append_printf(key, "%u/", action_index);
  append_scope_key(key, rule->context_scope, &f);
  allowed = pdb_rate_limits_take(self->rates, key->str, action->rate_count, action->rate_period,
                                 pdb_context_table_get_time(self->table));
  g_string_free(key, TRUE);
  return allowed;
}

static void
copy_scope_fields(PdbCorrelation *self, gpointer gen, const ScopeFields *f)
{
  if (f->host)
    self->host->ops->set(gen, "HOST", f->host, -1, PDB_VALUE_STRING);
  if (f->program)
    self->host->ops->set(gen, "PROGRAM", f->program, -1, PDB_VALUE_STRING);
  if (f->pid)
    self->host->ops->set(gen, "PID", f->pid, -1, PDB_VALUE_STRING);
}

/* A new message built from @sm over @messages (oldest first); caller owns it. */
static gpointer
generate(PdbCorrelation *self, const PdbSyntheticMessage *sm, gpointer *messages, guint count,
         const ScopeFields *f, const gchar *context_id)
{
  gpointer gen;

  switch (sm->inherit_mode)
    {
    case PDB_INHERIT_LAST_MESSAGE:
      gen = self->host->create(messages[count - 1]);
      break;
    case PDB_INHERIT_CONTEXT:
      gen = self->host->create(messages[count - 1]);
      for (guint i = count - 1; i-- > 0;)
        self->host->merge(gen, messages[i]);
      break;
    default:
      gen = self->host->create(NULL);
      /* 3.38 stamps it with the newest message's time all the same */
      if (self->host->copy_time)
        self->host->copy_time(gen, messages[count - 1]);
      break;
    }
  /* 3.38 writes the scope fields whatever the inherit mode (in syslog-ng
   * writing PROGRAM or PID also drops LEGACY_MSGHDR) */
  copy_scope_fields(self, gen, f);

  /* as 3.38: the tags first, so the values see them in $TAGS */
  for (guint i = 0; sm->tags && i < sm->tags->len; i++)
    self->host->ops->set_tag(gen, g_ptr_array_index(sm->tags, i));

  Lookup l = { self, messages, count, gen, context_id, "" };
  /* a backend's templates see the context with the new message last, as 3.38 */
  gpointer *with_gen = g_new(gpointer, count + 1);

  memcpy(with_gen, messages, count * sizeof(gpointer));
  with_gen[count] = gen;
  PdbExprScope scope = { with_gen, count + 1, context_id };

  pdb_values_apply_in_scope(sm->values, lookup_messages, &l, &scope, self->host->ops, gen);
  g_free(with_gen);
  return gen;
}

static PdbContext *open_context(PdbCorrelation *self, const GString *key, const gchar *id,
                                const ScopeFields *f);
static void set_deadline(PdbCorrelation *self, PdbContext *ctx, gint timeout);

/*
 * As 3.38: the id is expanded over the triggering messages (not the new
 * one), the key's scope fields are read from the new message (so with
 * inherit-mode none and a rule without a context they are empty), the new
 * message gets no .classifier.context_id of its own, and the context lives
 * for the creating rule's context-timeout: 3.38 ignores the
 * create-context's own context-timeout attribute.
 */
static void
create_context(PdbCorrelation *self, PdbDatabase *db, const PdbRule *rule, const PdbAction *action,
               gpointer *messages, guint count, const ScopeFields *trigger_scope,
               const gchar *trigger_id)
{
  ScopeFields f;
  gpointer gen;
  GString *key = g_string_new(NULL);
  GString *id = g_string_new(NULL);
  PdbContext *ctx;

  if (self->expiring_all && self->creating_generation > PDB_CORRELATION_MAX_CHAIN_AT_END)
    return;
  gen = generate(self, &action->message, messages, count, trigger_scope, trigger_id);
  if (action->create_context_id_host)
    {
      /* as 3.38: ${CONTEXT_ID} is empty in a create-context's context-id */
      PdbExprScope scope = { messages, count, NULL };
      pdb_host_expr_append(action->create_context_id_host, &scope, id);
    }
  else if (action->create_context_id_template)
    {
      Lookup l = { self, messages, count, NULL, NULL, "" };
      pdb_template_append(action->create_context_id_template, lookup_messages, &l, id);
    }
  scope_fields(self, action->create_context_scope, gen, &f);
  append_scope_key(key, action->create_context_scope, &f);
  pdb_context_key_append_part(key, id->str, id->len);
  /* as 3.38, a context of the same key is not extended but replaced: the
   * old one stops being found and only waits for its own expiry */
  ctx = open_context(self, key, id->str, &f);
  g_ptr_array_add(ctx->messages, gen);
  CONTEXT(ctx)->db = pdb_database_ref(db);
  CONTEXT(ctx)->rule = rule;
  CONTEXT(ctx)->generation = self->creating_generation;
  set_deadline(self, ctx, rule->context_timeout);
  g_string_free(key, TRUE);
  g_string_free(id, TRUE);
}

/* @ctx: the context the actions run over, NULL for a rule without one
 * (then @messages is the triggering message alone). */
static void
run_actions(PdbCorrelation *self, PdbDatabase *db, const PdbRule *rule, PdbActionTrigger trigger,
            gpointer *messages, guint count, const Context *ctx)
{
  static const ScopeFields none = { NULL, NULL, NULL };
  ScopeFields f = none;
  const gchar *id = NULL;
  /* copies: an action that opens a context may push @ctx out of the table */
  gchar *owned[4] = { NULL, NULL, NULL, NULL };

  if (ctx)
    {
      f.host = owned[0] = g_strdup(ctx->host);
      f.program = owned[1] = g_strdup(ctx->program);
      f.pid = owned[2] = g_strdup(ctx->pid);
      id = owned[3] = g_strdup(ctx->id);
    }

  for (guint i = 0; rule->actions && i < rule->actions->len; i++)
    {
      const PdbAction *action = g_ptr_array_index(rule->actions, i);

      if (action->trigger != trigger || count == 0)
        continue;
      if (!condition_holds(self, action, messages, count))
        continue;
      if (!rate_allows(self, rule, i, action, messages[count - 1]))
        continue;
      if (action->creates_context)
        create_context(self, db, rule, action, messages, count, &f, id);
      else if (action->has_message)
        g_ptr_array_add(self->pending, generate(self, &action->message, messages, count, &f, id));
    }
  for (guint i = 0; i < G_N_ELEMENTS(owned); i++)
    g_free(owned[i]);
}

/* ---- contexts and the clock ---- */

static void
set_deadline(PdbCorrelation *self, PdbContext *ctx, gint timeout)
{
  pdb_context_table_schedule(self->table, ctx, pdb_context_table_get_time(self->table) + MAX(timeout, 0));
}

static void expire_context(PdbContext *ctx, gpointer user_data);

static PdbContext *
open_context(PdbCorrelation *self, const GString *key, const gchar *id, const ScopeFields *f)
{
  PdbContext *ctx = pdb_context_table_open(self->table, key->str, key->len, expire_context, self);
  Context *data = g_new0(Context, 1);

  data->id = g_strdup(id);
  data->host = g_strdup(f->host);
  data->program = g_strdup(f->program);
  data->pid = g_strdup(f->pid);
  ctx->data = data;
  return ctx;
}

/* Runs the timeout actions of @ctx (already out of the table). */
static void
expire_context(PdbContext *ctx, gpointer user_data)
{
  PdbCorrelation *self = user_data;
  Context *data = CONTEXT(ctx);
  guint outer_generation = self->creating_generation;

  self->creating_generation = data->generation + 1;
  if (data->rule)
    run_actions(self, data->db, data->rule, PDB_TRIGGER_TIMEOUT, ctx->messages->pdata, ctx->messages->len, data);
  self->creating_generation = outer_generation;
}

static void
set_time(PdbCorrelation *self, gint64 t)
{
  pdb_context_table_advance(self->table, t, expire_context, self);
}

gboolean
pdb_correlation_rule_values_look_back(const PdbRule *rule)
{
  for (guint i = 0; rule->values && i < rule->values->len; i++)
    {
      const PdbValueDef *v = g_ptr_array_index(rule->values, i);

      /* a backend's template is evaluated over the context, as 3.38 does */
      if (v->host || (v->compiled && pdb_template_reads_context(v->compiled)))
        return TRUE;
      if (v->template_text && strstr(v->template_text, "CONTEXT_ID"))
        return TRUE;
    }
  return FALSE;
}

static void
flush_pending(PdbCorrelation *self, PdbCorrelationEmitFunc emit, gpointer emit_data)
{
  GPtrArray *out = self->pending;

  if (out->len == 0)
    {
      g_mutex_unlock(&self->lock);
      return;
    }
  self->pending = g_ptr_array_new();
  g_mutex_unlock(&self->lock);
  for (guint i = 0; i < out->len; i++)
    {
      gpointer msg = g_ptr_array_index(out, i);

      if (emit)
        emit(msg, emit_data);
      self->host->unref(msg);
    }
  g_ptr_array_free(out, TRUE);
}

void
pdb_correlation_process(PdbCorrelation *self, PdbDatabase *db, const PdbResult *result,
                        gpointer msg, gint64 stamp, gint64 now,
                        PdbCorrelationEmitFunc emit, gpointer emit_data)
{
  const PdbRule *rule = result->kind == PDB_RESULT_MATCH ? result->rule : NULL;

  g_mutex_lock(&self->lock);
  set_time(self, MIN(stamp, now));
  if (rule && rule->context_id_template)
    {
      ScopeFields f;
      GString *key = g_string_new(NULL);
      PdbContext *ctx;
      const gchar *id = get_str(self, msg, ".classifier.context_id");

      scope_fields(self, rule->context_scope, msg, &f);
      append_scope_key(key, rule->context_scope, &f);
      pdb_context_key_append_part(key, id, -1);
      ctx = pdb_context_table_find(self->table, key->str, key->len);
      if (!ctx)
        ctx = open_context(self, key, id, &f);
      g_string_free(key, TRUE);
      g_ptr_array_add(ctx->messages, self->host->ref(msg));

      Context *data = CONTEXT(ctx);
      if (data->db != db)
        {
          if (data->db)
            pdb_database_unref(data->db);
          data->db = pdb_database_ref(db);
        }
      data->rule = rule;
      set_deadline(self, ctx, rule->context_timeout);
      if (pdb_correlation_rule_values_look_back(rule))
        {
          /* as 3.38: the rule's <values> see the context, @0 being @msg itself */
          Lookup l = { self, ctx->messages->pdata, ctx->messages->len, NULL, data->id, "" };
          PdbExprScope scope = { ctx->messages->pdata, ctx->messages->len, data->id };
          pdb_values_apply_in_scope(rule->values, lookup_messages, &l, &scope, self->host->ops, msg);
        }
      run_actions(self, db, rule, PDB_TRIGGER_MATCH, ctx->messages->pdata, ctx->messages->len, data);
    }
  else if (rule && rule->actions && rule->actions->len)
    {
      /* without a context 3.38 copies no scope field into the new message,
       * but the rate bucket is still keyed by them */
      gpointer one[1] = { msg };

      run_actions(self, db, rule, PDB_TRIGGER_MATCH, one, 1, NULL);
    }
  flush_pending(self, emit, emit_data);
}

void
pdb_correlation_set_time(PdbCorrelation *self, gint64 stamp, gint64 now,
                         PdbCorrelationEmitFunc emit, gpointer emit_data)
{
  g_mutex_lock(&self->lock);
  set_time(self, MIN(stamp, now));
  flush_pending(self, emit, emit_data);
}

void
pdb_correlation_advance_time(PdbCorrelation *self, gint64 seconds,
                             PdbCorrelationEmitFunc emit, gpointer emit_data)
{
  g_mutex_lock(&self->lock);
  set_time(self, pdb_context_table_get_time(self->table) + MAX(seconds, 0));
  flush_pending(self, emit, emit_data);
}

void
pdb_correlation_expire_all(PdbCorrelation *self, PdbCorrelationEmitFunc emit, gpointer emit_data)
{
  g_mutex_lock(&self->lock);
  self->expiring_all = TRUE;
  pdb_context_table_expire_all(self->table, expire_context, self);
  self->expiring_all = FALSE;
  flush_pending(self, emit, emit_data);
}

void
pdb_correlation_set_macro_data(PdbCorrelation *self, gpointer macro_data)
{
  g_mutex_lock(&self->lock);
  self->macro_data = macro_data;
  g_mutex_unlock(&self->lock);
}

void
pdb_correlation_set_max_contexts(PdbCorrelation *self, guint max_contexts)
{
  g_mutex_lock(&self->lock);
  pdb_context_table_set_max(self->table, max_contexts ? max_contexts : PDB_CORRELATION_DEFAULT_MAX_CONTEXTS);
  g_mutex_unlock(&self->lock);
}

guint
pdb_correlation_get_context_count(PdbCorrelation *self)
{
  guint n;

  g_mutex_lock(&self->lock);
  n = pdb_context_table_count(self->table);
  g_mutex_unlock(&self->lock);
  return n;
}

gint64
pdb_correlation_get_time(PdbCorrelation *self)
{
  gint64 t;

  g_mutex_lock(&self->lock);
  t = pdb_context_table_get_time(self->table);
  g_mutex_unlock(&self->lock);
  return t;
}

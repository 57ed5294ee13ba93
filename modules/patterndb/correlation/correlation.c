/*
 * correlation.c: contexts, the correlation clock, actions and synthetic
 * messages (see correlation.h).
 *
 * Invariant: every live context is in `timers` (ordered by deadline, then
 * by the order its deadline was set) and, unless a create-context replaced
 * it, in `contexts` (by key),
 * and holds one reference to each of its messages and to the database its
 * rule belongs to. Everything is changed under `lock` only; synthetic
 * messages are queued under the lock and emitted after it is released.
 */
#include "correlation/correlation.h"
#include "correlation/condition.h"

#include <string.h>

typedef struct
{
  gchar *key;
  PdbContextScope scope;
  gchar *host, *program, *pid;   /* the scope fields (NULL when not part of the scope) */
  GPtrArray *messages;           /* of host message handles, oldest first */
  const PdbRule *rule;           /* the rule that matched last */
  PdbDatabase *db;               /* keeps `rule` alive */
  gint64 deadline;
  guint64 seq;
  guint generation;              /* 0, or 1 + that of the context whose
                                  * timeout action created this one */
} Context;

typedef struct
{
  gint64 last;
  guint tokens;
} RateBucket;

struct _PdbCorrelation
{
  const PdbCorrelationHost *host;
  guint max_contexts;
  GMutex lock;
  GHashTable *contexts;    /* key -> Context* (owned) */
  GTree *timers;           /* Context* -> Context* */
  GHashTable *rates;       /* key -> RateBucket* */
  GHashTable *conditions;  /* condition text -> PdbCondition* (NULL: does not compile) */
  gint64 time;
  guint64 seq;
  GPtrArray *pending;      /* synthetic messages to emit once unlocked */
  guint creating_generation; /* generation of a context created now */
  gboolean expiring_all;   /* inside pdb_correlation_expire_all() */
  const gchar *acting_context_id; /* the id of the context whose actions run now, or NULL */
};

/*
 * A timeout action that creates a context makes a chain: that context's
 * timeout may create the next. In the daemon time paces the chain; at the
 * end of `match` input, where everything expires at once, 3.38 loops
 * forever. We follow a chain this many links and then stop creating.
 */
#define PDB_CORRELATION_MAX_CHAIN_AT_END 64

static gint
compare_timers(gconstpointer a, gconstpointer b, gpointer user_data)
{
  const Context *x = a, *y = b;

  (void) user_data;
  if (x->deadline != y->deadline)
    return x->deadline < y->deadline ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq ? 1 : 0;
}

static void
context_free(PdbCorrelation *self, Context *ctx)
{
  for (guint i = 0; i < ctx->messages->len; i++)
    self->host->unref(g_ptr_array_index(ctx->messages, i));
  g_ptr_array_free(ctx->messages, TRUE);
  if (ctx->db)
    pdb_database_unref(ctx->db);
  g_free(ctx->key);
  g_free(ctx->host);
  g_free(ctx->program);
  g_free(ctx->pid);
  g_free(ctx);
}

static void
condition_free(gpointer cond)
{
  pdb_condition_free(cond);
}

PdbCorrelation *
pdb_correlation_new(const PdbCorrelationHost *host, guint max_contexts)
{
  PdbCorrelation *self = g_new0(PdbCorrelation, 1);

  self->host = host;
  self->max_contexts = max_contexts ? max_contexts : PDB_CORRELATION_DEFAULT_MAX_CONTEXTS;
  g_mutex_init(&self->lock);
  self->contexts = g_hash_table_new(g_str_hash, g_str_equal);
  self->timers = g_tree_new_full(compare_timers, NULL, NULL, NULL);
  self->rates = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  self->conditions = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, condition_free);
  self->pending = g_ptr_array_new();
  return self;
}

static gboolean
free_one(gpointer key, gpointer value, gpointer user_data)
{
  (void) key;
  context_free(user_data, value);
  return FALSE;
}

void
pdb_correlation_free(PdbCorrelation *self)
{
  if (!self)
    return;
  /* every context is in `timers`, replaced ones only there */
  g_hash_table_destroy(self->contexts);
  g_tree_foreach(self->timers, free_one, self);
  g_tree_destroy(self->timers);
  g_hash_table_destroy(self->rates);
  g_hash_table_destroy(self->conditions);
  for (guint i = 0; i < self->pending->len; i++)
    self->host->unref(g_ptr_array_index(self->pending, i));
  g_ptr_array_free(self->pending, TRUE);
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
  g_string_append_printf(key, "%d", (int) scope);
  g_string_append_c(key, '\x1f');
  g_string_append(key, f->host ? f->host : "");
  g_string_append_c(key, '\x1f');
  g_string_append(key, f->program ? f->program : "");
  g_string_append_c(key, '\x1f');
  g_string_append(key, f->pid ? f->pid : "");
  g_string_append_c(key, '\x1f');
}

/* The expanded context-id of @ctx: its key after the scope fields
 * (append_scope_key() writes four separated fields). For the backend's
 * ${CONTEXT_ID} (db/expr-backend.h). */
static const gchar *
context_id_of(const Context *ctx)
{
  const gchar *id = ctx->key;

  for (gint fields = 0; fields < 4 && id; fields++)
    {
      id = strchr(id, '\x1f');
      if (id)
        id++;
    }
  return id ? id : "";
}

/* ---- template lookup over a list of messages; index 0 is the newest ---- */

typedef struct
{
  PdbCorrelation *self;
  gpointer *messages;
  guint count;
  gpointer newest;     /* when set, it is index 0 and `messages` follow */
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
        return NULL;
    }
  else if (index < l->count)
    msg = l->messages[l->count - 1 - index];
  else
    return NULL;
  if (strcmp(name, "MSG") == 0)
    name = "MESSAGE";
  return l->self->host->ops->get(msg, name, length);
}

/* ---- actions ---- */

static gboolean
condition_holds(PdbCorrelation *self, const PdbAction *action, gpointer *messages, guint count)
{
  PdbCondition *cond;
  gpointer orig = NULL;

  if (!action->condition)
    return TRUE;
  if (action->condition_host)
    {
      PdbExprScope scope = { messages, count, self->acting_context_id };
      return pdb_host_expr_eval(action->condition_host, &scope);
    }
  if (!g_hash_table_lookup_extended(self->conditions, action->condition, &orig, (gpointer *) &cond))
    {
      GError *error = NULL;

      cond = pdb_condition_compile(action->condition, &error);
      if (!cond)
        {
          g_warning("%s:%d: %s; the action never runs", action->location.file ? action->location.file : "?",
                    action->location.line, error->message);
          g_error_free(error);
        }
      g_hash_table_insert(self->conditions, g_strdup(action->condition), cond);
    }
  if (!cond)
    return FALSE;

  Lookup l = { self, messages, count, NULL };
  return pdb_condition_eval(cond, lookup_messages, &l, count);
}

/* 3.38's token bucket: full at first use, refilled by whole tokens as time passes. */
static gboolean
rate_allows(PdbCorrelation *self, const PdbRule *rule, guint action_index, const PdbAction *action,
            PdbContextScope scope, const ScopeFields *f)
{
  RateBucket *b;
  GString *key;

  if (action->rate_count == 0)
    return TRUE;
  key = g_string_new(rule->id);
  g_string_append_printf(key, "\x1f%u\x1f", action_index);
  append_scope_key(key, scope, f);
  b = g_hash_table_lookup(self->rates, key->str);
  if (!b)
    {
      b = g_new0(RateBucket, 1);
      b->last = self->time;
      b->tokens = action->rate_count;
      g_hash_table_insert(self->rates, g_string_free(key, FALSE), b);
    }
  else
    {
      g_string_free(key, TRUE);
      gint64 elapsed = self->time - b->last;
      gint64 refill = elapsed > 0 ? elapsed * action->rate_count / action->rate_period : 0;

      if (refill > 0)
        {
          b->tokens = (guint) MIN((gint64) action->rate_count, (gint64) b->tokens + refill);
          b->last = self->time;
        }
    }
  if (b->tokens == 0)
    return FALSE;
  b->tokens--;
  return TRUE;
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
         const ScopeFields *f)
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

  Lookup l = { self, messages, count, gen };
  /* a backend's templates see the context with the new message last, as 3.38 */
  gpointer *with_gen = g_new(gpointer, count + 1);
  memcpy(with_gen, messages, count * sizeof(gpointer));
  with_gen[count] = gen;
  PdbExprScope scope = { with_gen, count + 1, self->acting_context_id };
  pdb_values_apply_in_scope(sm->values, lookup_messages, &l, &scope, self->host->ops, gen);
  g_free(with_gen);
  for (guint i = 0; sm->tags && i < sm->tags->len; i++)
    self->host->ops->set_tag(gen, g_ptr_array_index(sm->tags, i));
  return gen;
}

static void expire_context(PdbCorrelation *self, Context *ctx);
static Context *open_context(PdbCorrelation *self, const gchar *key, PdbContextScope scope,
                             const ScopeFields *f);
static void set_deadline(PdbCorrelation *self, Context *ctx, gint timeout);

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
               gpointer *messages, guint count, const ScopeFields *trigger_scope)
{
  ScopeFields f;
  gpointer gen;
  GString *key = g_string_new(NULL);
  GString *id = g_string_new(NULL);
  Context *ctx;

  if (self->expiring_all && self->creating_generation > PDB_CORRELATION_MAX_CHAIN_AT_END)
    return;
  gen = generate(self, &action->message, messages, count, trigger_scope);
  if (action->create_context_id_host)
    {
      PdbExprScope scope = { messages, count, self->acting_context_id };
      pdb_host_expr_append(action->create_context_id_host, &scope, id);
    }
  else if (action->create_context_id_template)
    {
      Lookup l = { self, messages, count, NULL };
      pdb_template_append(action->create_context_id_template, lookup_messages, &l, id);
    }
  scope_fields(self, action->create_context_scope, gen, &f);
  append_scope_key(key, action->create_context_scope, &f);
  g_string_append(key, id->str);
  /* as 3.38, a context of the same key is not extended but replaced: the
   * old one leaves the table and only waits for its own expiry */
  ctx = g_hash_table_lookup(self->contexts, key->str);
  if (ctx)
    g_hash_table_remove(self->contexts, ctx->key);
  ctx = open_context(self, key->str, action->create_context_scope, &f);
  g_ptr_array_add(ctx->messages, gen);
  if (ctx->db != db)
    {
      if (ctx->db)
        pdb_database_unref(ctx->db);
      ctx->db = pdb_database_ref(db);
    }
  ctx->rule = rule;
  ctx->generation = self->creating_generation;
  set_deadline(self, ctx, rule->context_timeout);
  g_string_free(key, TRUE);
  g_string_free(id, TRUE);
}

static void
run_actions(PdbCorrelation *self, PdbDatabase *db, const PdbRule *rule, PdbActionTrigger trigger,
            gpointer *messages, guint count, PdbContextScope scope, const ScopeFields *f,
            gboolean in_context)
{
  static const ScopeFields none = { NULL, NULL, NULL };

  for (guint i = 0; rule->actions && i < rule->actions->len; i++)
    {
      const PdbAction *action = g_ptr_array_index(rule->actions, i);

      if (action->trigger != trigger || count == 0)
        continue;
      if (!condition_holds(self, action, messages, count))
        continue;
      if (!rate_allows(self, rule, i, action, scope, f))
        continue;
      if (action->creates_context)
        create_context(self, db, rule, action, messages, count, in_context ? f : &none);
      else if (action->has_message)
        g_ptr_array_add(self->pending, generate(self, &action->message, messages, count,
                                                in_context ? f : &none));
    }
}

/* ---- contexts and the clock ---- */

static void
set_deadline(PdbCorrelation *self, Context *ctx, gint timeout)
{
  g_tree_remove(self->timers, ctx);
  ctx->deadline = self->time + MAX(timeout, 0);
  ctx->seq = ++self->seq;
  g_tree_insert(self->timers, ctx, ctx);
}

static gboolean
first_context(gpointer key, gpointer value, gpointer user_data)
{
  (void) key;
  *(Context **) user_data = value;
  return TRUE;
}

static Context *
nearest_context(PdbCorrelation *self)
{
  Context *ctx = NULL;

  g_tree_foreach(self->timers, first_context, &ctx);
  return ctx;
}

static Context *
open_context(PdbCorrelation *self, const gchar *key, PdbContextScope scope, const ScopeFields *f)
{
  Context *ctx;

  while (g_hash_table_size(self->contexts) >= self->max_contexts)
    expire_context(self, nearest_context(self));
  ctx = g_new0(Context, 1);
  ctx->key = g_strdup(key);
  ctx->scope = scope;
  ctx->host = g_strdup(f->host);
  ctx->program = g_strdup(f->program);
  ctx->pid = g_strdup(f->pid);
  ctx->messages = g_ptr_array_new();
  g_hash_table_insert(self->contexts, ctx->key, ctx);
  ctx->deadline = G_MININT64;
  ctx->seq = ++self->seq;
  g_tree_insert(self->timers, ctx, ctx);
  return ctx;
}

/* Runs the timeout actions of @ctx and destroys it. */
static void
expire_context(PdbCorrelation *self, Context *ctx)
{
  ScopeFields f = { ctx->host, ctx->program, ctx->pid };
  guint outer_generation = self->creating_generation;
  const gchar *outer_context_id = self->acting_context_id;

  g_tree_remove(self->timers, ctx);
  if (g_hash_table_lookup(self->contexts, ctx->key) == ctx)
    g_hash_table_remove(self->contexts, ctx->key);
  self->creating_generation = ctx->generation + 1;
  /* @ctx is out of the timers: nothing frees it (or its key) before we do */
  self->acting_context_id = context_id_of(ctx);
  if (ctx->rule)
    run_actions(self, ctx->db, ctx->rule, PDB_TRIGGER_TIMEOUT, ctx->messages->pdata, ctx->messages->len,
                ctx->scope, &f, TRUE);
  self->acting_context_id = outer_context_id;
  self->creating_generation = outer_generation;
  context_free(self, ctx);
}

static void
set_time(PdbCorrelation *self, gint64 t)
{
  Context *ctx;

  if (t > self->time)
    self->time = t;
  while ((ctx = nearest_context(self)) && ctx->deadline < self->time)
    expire_context(self, ctx);
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
    }
  return FALSE;
}

static void
flush_pending(PdbCorrelation *self, PdbCorrelationEmitFunc emit, gpointer emit_data)
{
  GPtrArray *out = self->pending;

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
      Context *ctx;

      scope_fields(self, rule->context_scope, msg, &f);
      append_scope_key(key, rule->context_scope, &f);
      g_string_append(key, get_str(self, msg, ".classifier.context_id"));
      ctx = g_hash_table_lookup(self->contexts, key->str);
      if (!ctx)
        ctx = open_context(self, key->str, rule->context_scope, &f);
      g_string_free(key, TRUE);
      g_ptr_array_add(ctx->messages, self->host->ref(msg));
      if (ctx->db != db)
        {
          if (ctx->db)
            pdb_database_unref(ctx->db);
          ctx->db = pdb_database_ref(db);
        }
      ctx->rule = rule;
      set_deadline(self, ctx, rule->context_timeout);
      if (pdb_correlation_rule_values_look_back(rule))
        {
          /* as 3.38: the rule's <values> see the context, @0 being @msg itself */
          Lookup l = { self, ctx->messages->pdata, ctx->messages->len, NULL };
          PdbExprScope scope = { ctx->messages->pdata, ctx->messages->len, context_id_of(ctx) };
          pdb_values_apply_in_scope(rule->values, lookup_messages, &l, &scope, self->host->ops, msg);
        }
      ScopeFields cf = { ctx->host, ctx->program, ctx->pid };
      /* a copy: an action that opens a context may expire this one */
      gchar *context_id = g_strdup(context_id_of(ctx));
      self->acting_context_id = context_id;
      run_actions(self, db, rule, PDB_TRIGGER_MATCH, ctx->messages->pdata, ctx->messages->len,
                  ctx->scope, &cf, TRUE);
      self->acting_context_id = NULL;
      g_free(context_id);
    }
  else if (rule && rule->actions && rule->actions->len)
    {
      /* without a context 3.38 copies no scope field into the new message,
       * but the rate bucket is still keyed by them */
      ScopeFields f;
      gpointer one[1] = { msg };

      scope_fields(self, rule->context_scope, msg, &f);
      run_actions(self, db, rule, PDB_TRIGGER_MATCH, one, 1, rule->context_scope, &f, FALSE);
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
  set_time(self, self->time + MAX(seconds, 0));
  flush_pending(self, emit, emit_data);
}

void
pdb_correlation_expire_all(PdbCorrelation *self, PdbCorrelationEmitFunc emit, gpointer emit_data)
{
  Context *ctx;

  g_mutex_lock(&self->lock);
  self->expiring_all = TRUE;
  while ((ctx = nearest_context(self)))
    expire_context(self, ctx);
  self->expiring_all = FALSE;
  flush_pending(self, emit, emit_data);
}

void
pdb_correlation_set_max_contexts(PdbCorrelation *self, guint max_contexts)
{
  g_mutex_lock(&self->lock);
  self->max_contexts = max_contexts ? max_contexts : PDB_CORRELATION_DEFAULT_MAX_CONTEXTS;
  g_mutex_unlock(&self->lock);
}

guint
pdb_correlation_get_context_count(PdbCorrelation *self)
{
  guint n;

  g_mutex_lock(&self->lock);
  n = g_hash_table_size(self->contexts);
  g_mutex_unlock(&self->lock);
  return n;
}

gint64
pdb_correlation_get_time(PdbCorrelation *self)
{
  return self->time;
}

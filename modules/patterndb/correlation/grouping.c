/*
 * grouping.c: contexts of a grouping-by() parser, their clock and expiry
 * order (see grouping.h for the contract).
 *
 * Invariants (all under self->lock):
 * - every live context is in `contexts` (by key); a context is in
 *   `expiry` (sorted by expiry, then by the serial of its last
 *   scheduling) exactly when it has been scheduled, which every context
 *   is between two calls;
 * - the clock never goes back, and no context in `expiry` has an expiry
 *   the clock has gone beyond;
 * - a closed context is out of both before its close hook runs, so a hook
 *   never sees a half-removed context.
 */
#include "correlation/grouping.h"

typedef struct _PdbGroupingContext
{
  GBytes *key;
  GPtrArray *messages;          /* oldest first; references */
  gint64 expires;
  guint64 serial;
  GSequenceIter *iter;          /* in self->expiry, NULL before the first scheduling */
} PdbGroupingContext;

struct _PdbGrouping
{
  GMutex lock;
  const PdbGroupingMessageOps *ops;
  GHashTable *contexts;         /* GBytes key -> PdbGroupingContext (owned) */
  GSequence *expiry;            /* PdbGroupingContext, borrowed */
  gint64 clock;
  guint64 serial;
  guint max_contexts;
};

static gint
pdb_grouping_compare_expiry(gconstpointer a, gconstpointer b, gpointer user_data)
{
  const PdbGroupingContext *x = a, *y = b;

  (void) user_data;
  if (x->expires != y->expires)
    return x->expires < y->expires ? -1 : 1;
  if (x->serial != y->serial)
    return x->serial < y->serial ? -1 : 1;
  return 0;
}

static void
pdb_grouping_context_free(PdbGroupingContext *ctx)
{
  g_bytes_unref(ctx->key);
  g_ptr_array_unref(ctx->messages);
  g_free(ctx);
}

static guint
pdb_grouping_effective_max(guint max_contexts)
{
  return max_contexts ? max_contexts : PDB_GROUPING_DEFAULT_MAX_CONTEXTS;
}

PdbGrouping *
pdb_grouping_new(const PdbGroupingMessageOps *ops, guint max_contexts)
{
  PdbGrouping *self = g_new0(PdbGrouping, 1);

  g_mutex_init(&self->lock);
  self->ops = ops;
  self->contexts = g_hash_table_new_full(g_bytes_hash, g_bytes_equal, NULL,
                                         (GDestroyNotify) pdb_grouping_context_free);
  self->expiry = g_sequence_new(NULL);
  self->max_contexts = pdb_grouping_effective_max(max_contexts);
  return self;
}

void
pdb_grouping_free(PdbGrouping *self)
{
  if (!self)
    return;
  g_sequence_free(self->expiry);
  g_hash_table_destroy(self->contexts);
  g_mutex_clear(&self->lock);
  g_free(self);
}

/* Takes @ctx out of the state, asks the hook for its aggregate (appended
 * to @out) and frees it. */
static void
pdb_grouping_close(PdbGrouping *self, PdbGroupingContext *ctx, const PdbGroupingHooks *hooks,
                   GPtrArray *out)
{
  if (ctx->iter)
    g_sequence_remove(ctx->iter);
  ctx->iter = NULL;
  g_hash_table_steal(self->contexts, ctx->key);

  gpointer aggregate = hooks->close ? hooks->close(ctx->messages, hooks->user_data) : NULL;
  if (aggregate)
    g_ptr_array_add(out, aggregate);
  pdb_grouping_context_free(ctx);
}

static void
pdb_grouping_move_clock(PdbGrouping *self, gint64 target, const PdbGroupingHooks *hooks, GPtrArray *out)
{
  if (target <= self->clock)
    return;
  while (g_sequence_get_length(self->expiry) > 0)
    {
      PdbGroupingContext *first = g_sequence_get(g_sequence_get_begin_iter(self->expiry));

      if (first->expires >= target)
        break;
      pdb_grouping_close(self, first, hooks, out);
    }
  self->clock = target;
}

static void
pdb_grouping_schedule(PdbGrouping *self, PdbGroupingContext *ctx, gint64 timeout)
{
  if (ctx->iter)
    g_sequence_remove(ctx->iter);
  ctx->expires = self->clock + timeout;
  ctx->serial = ++self->serial;
  ctx->iter = g_sequence_insert_sorted(self->expiry, ctx, pdb_grouping_compare_expiry, NULL);
}

static PdbGroupingContext *
pdb_grouping_open(PdbGrouping *self, const gchar *key, gsize key_len, const PdbGroupingHooks *hooks,
                  GPtrArray *out)
{
  while (g_hash_table_size(self->contexts) >= self->max_contexts
         && g_sequence_get_length(self->expiry) > 0)
    pdb_grouping_close(self, g_sequence_get(g_sequence_get_begin_iter(self->expiry)), hooks, out);

  PdbGroupingContext *ctx = g_new0(PdbGroupingContext, 1);
  ctx->key = g_bytes_new(key, key_len);
  ctx->messages = g_ptr_array_new_with_free_func(self->ops->unref);
  g_hash_table_insert(self->contexts, ctx->key, ctx);
  return ctx;
}

static void
pdb_grouping_flush(GPtrArray *out, const PdbGroupingHooks *hooks, const PdbGroupingMessageOps *ops)
{
  for (guint i = 0; i < out->len; i++)
    {
      if (hooks->emit)
        hooks->emit(out->pdata[i], hooks->user_data);
      ops->unref(out->pdata[i]);
    }
  g_ptr_array_free(out, TRUE);
}

void
pdb_grouping_add(PdbGrouping *self, const gchar *key, gsize key_len, gpointer msg,
                 gint64 stamp, gint64 now, gint64 timeout, const PdbGroupingHooks *hooks)
{
  GPtrArray *out = g_ptr_array_new();

  g_mutex_lock(&self->lock);
  pdb_grouping_move_clock(self, MIN(stamp, now), hooks, out);

  GBytes *lookup = g_bytes_new_static(key, key_len);
  PdbGroupingContext *ctx = g_hash_table_lookup(self->contexts, lookup);
  g_bytes_unref(lookup);
  if (!ctx)
    ctx = pdb_grouping_open(self, key, key_len, hooks, out);

  g_ptr_array_add(ctx->messages, self->ops->ref(msg));
  if (hooks->trigger && hooks->trigger(ctx->messages, hooks->user_data))
    pdb_grouping_close(self, ctx, hooks, out);
  else
    pdb_grouping_schedule(self, ctx, timeout);
  g_mutex_unlock(&self->lock);

  pdb_grouping_flush(out, hooks, self->ops);
}

void
pdb_grouping_set_time(PdbGrouping *self, gint64 stamp, gint64 now, const PdbGroupingHooks *hooks)
{
  GPtrArray *out = g_ptr_array_new();

  g_mutex_lock(&self->lock);
  pdb_grouping_move_clock(self, MIN(stamp, now), hooks, out);
  g_mutex_unlock(&self->lock);
  pdb_grouping_flush(out, hooks, self->ops);
}

void
pdb_grouping_advance_time(PdbGrouping *self, gint64 seconds, const PdbGroupingHooks *hooks)
{
  GPtrArray *out = g_ptr_array_new();

  g_mutex_lock(&self->lock);
  if (seconds > 0)
    pdb_grouping_move_clock(self, self->clock + seconds, hooks, out);
  g_mutex_unlock(&self->lock);
  pdb_grouping_flush(out, hooks, self->ops);
}

void
pdb_grouping_set_max_contexts(PdbGrouping *self, guint max_contexts)
{
  g_mutex_lock(&self->lock);
  self->max_contexts = pdb_grouping_effective_max(max_contexts);
  g_mutex_unlock(&self->lock);
}

guint
pdb_grouping_get_context_count(PdbGrouping *self)
{
  g_mutex_lock(&self->lock);
  guint n = g_hash_table_size(self->contexts);
  g_mutex_unlock(&self->lock);
  return n;
}

gint64
pdb_grouping_get_time(PdbGrouping *self)
{
  g_mutex_lock(&self->lock);
  gint64 t = self->clock;
  g_mutex_unlock(&self->lock);
  return t;
}

/*
 * grouping.c: the state of a grouping-by() parser (see grouping.h for the
 * contract): a PdbContextTable (context-table.h), whose contexts end by
 * the caller's close hook, and the lock that guards it.
 *
 * Invariants (all under self->lock): every live context is findable by
 * its key and scheduled between two calls; a closed context is out of the
 * table before its close hook runs, so a hook never sees a half-removed
 * context.
 */
#include "correlation/grouping.h"
#include "correlation/context-table.h"

struct _PdbGrouping
{
  GMutex lock;
  const PdbGroupingMessageOps *ops;
  PdbContextTable *table;       /* PdbContext.data unused */
};

/* What a closing context needs: the caller's hooks and where aggregates go. */
typedef struct
{
  const PdbGroupingHooks *hooks;
  GPtrArray *out;
} Closing;

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
  self->table = pdb_context_table_new(ops->unref, NULL, pdb_grouping_effective_max(max_contexts));
  return self;
}

void
pdb_grouping_free(PdbGrouping *self)
{
  if (!self)
    return;
  pdb_context_table_free(self->table);
  g_mutex_clear(&self->lock);
  g_free(self);
}

/* The close hook builds the context's aggregate (appended to the output). */
static void
pdb_grouping_end(PdbContext *ctx, gpointer user_data)
{
  Closing *c = user_data;
  gpointer aggregate = c->hooks->close ? c->hooks->close(ctx->messages, c->hooks->user_data) : NULL;

  if (aggregate)
    g_ptr_array_add(c->out, aggregate);
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
  Closing c = { hooks, g_ptr_array_new() };

  g_mutex_lock(&self->lock);
  pdb_context_table_advance(self->table, MIN(stamp, now), pdb_grouping_end, &c);

  PdbContext *ctx = pdb_context_table_find(self->table, key, key_len);
  if (!ctx)
    ctx = pdb_context_table_open(self->table, key, key_len, pdb_grouping_end, &c);

  g_ptr_array_add(ctx->messages, self->ops->ref(msg));
  if (hooks->trigger && hooks->trigger(ctx->messages, hooks->user_data))
    pdb_context_table_close(self->table, ctx, pdb_grouping_end, &c);
  else
    pdb_context_table_schedule(self->table, ctx, pdb_context_table_get_time(self->table) + timeout);
  g_mutex_unlock(&self->lock);

  pdb_grouping_flush(c.out, hooks, self->ops);
}

void
pdb_grouping_set_time(PdbGrouping *self, gint64 stamp, gint64 now, const PdbGroupingHooks *hooks)
{
  Closing c = { hooks, g_ptr_array_new() };

  g_mutex_lock(&self->lock);
  pdb_context_table_advance(self->table, MIN(stamp, now), pdb_grouping_end, &c);
  g_mutex_unlock(&self->lock);
  pdb_grouping_flush(c.out, hooks, self->ops);
}

void
pdb_grouping_advance_time(PdbGrouping *self, gint64 seconds, const PdbGroupingHooks *hooks)
{
  Closing c = { hooks, g_ptr_array_new() };

  g_mutex_lock(&self->lock);
  if (seconds > 0)
    pdb_context_table_advance(self->table, pdb_context_table_get_time(self->table) + seconds,
                              pdb_grouping_end, &c);
  g_mutex_unlock(&self->lock);
  pdb_grouping_flush(c.out, hooks, self->ops);
}

void
pdb_grouping_set_max_contexts(PdbGrouping *self, guint max_contexts)
{
  g_mutex_lock(&self->lock);
  pdb_context_table_set_max(self->table, pdb_grouping_effective_max(max_contexts));
  g_mutex_unlock(&self->lock);
}

guint
pdb_grouping_get_context_count(PdbGrouping *self)
{
  g_mutex_lock(&self->lock);
  guint n = pdb_context_table_count(self->table);
  g_mutex_unlock(&self->lock);
  return n;
}

gint64
pdb_grouping_get_time(PdbGrouping *self)
{
  g_mutex_lock(&self->lock);
  gint64 t = pdb_context_table_get_time(self->table);
  g_mutex_unlock(&self->lock);
  return t;
}

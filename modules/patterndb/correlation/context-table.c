/*
 * context-table.c: keyed contexts, their clock, expiry order and limit
 * (see context-table.h).
 *
 * Invariants:
 * - a context is in `index` (by key) while it is findable, and in `expiry`
 *   (sorted by expiry, then by the serial of its last scheduling) from its
 *   first scheduling until it ends; a replaced context is only in `expiry`;
 * - no context in `expiry` expires before the clock, except while
 *   pdb_context_table_expire_all() runs;
 * - an ended context is out of both before the end function runs.
 */
#include "correlation/context-table.h"

#include <string.h>

typedef struct
{
  PdbContext pub;
  GBytes *key;
  guint64 serial;
  GSequenceIter *iter;    /* in expiry; NULL before the first scheduling */
  gboolean indexed;
} Entry;

struct _PdbContextTable
{
  GDestroyNotify unref;
  GDestroyNotify data_free;
  GHashTable *index;      /* GBytes key -> Entry (borrowed: the Entry owns the key) */
  GSequence *expiry;      /* Entry, borrowed */
  gint64 clock;
  guint64 serial;
  guint max_contexts;
};

static gint
compare_expiry(gconstpointer a, gconstpointer b, gpointer user_data)
{
  const Entry *x = a, *y = b;

  (void) user_data;
  if (x->pub.expires != y->pub.expires)
    return x->pub.expires < y->pub.expires ? -1 : 1;
  return x->serial < y->serial ? -1 : x->serial > y->serial ? 1 : 0;
}

PdbContextTable *
pdb_context_table_new(GDestroyNotify unref, GDestroyNotify data_free, guint max_contexts)
{
  PdbContextTable *self = g_new0(PdbContextTable, 1);

  self->unref = unref;
  self->data_free = data_free;
  self->index = g_hash_table_new(g_bytes_hash, g_bytes_equal);
  self->expiry = g_sequence_new(NULL);
  self->max_contexts = max_contexts;
  return self;
}

static void
entry_free(PdbContextTable *self, Entry *e)
{
  for (guint i = 0; i < e->pub.messages->len; i++)
    self->unref(g_ptr_array_index(e->pub.messages, i));
  g_ptr_array_free(e->pub.messages, TRUE);
  if (e->pub.data && self->data_free)
    self->data_free(e->pub.data);
  g_bytes_unref(e->key);
  g_free(e);
}

void
pdb_context_table_free(PdbContextTable *self)
{
  GHashTableIter it;
  gpointer value;

  if (!self)
    return;
  /* scheduled contexts are in expiry; the others only in the index */
  g_hash_table_iter_init(&it, self->index);
  while (g_hash_table_iter_next(&it, NULL, &value))
    if (!((Entry *) value)->iter)
      entry_free(self, value);
  while (g_sequence_get_length(self->expiry) > 0)
    {
      GSequenceIter *first = g_sequence_get_begin_iter(self->expiry);
      Entry *e = g_sequence_get(first);

      g_sequence_remove(first);
      entry_free(self, e);
    }
  g_hash_table_destroy(self->index);
  g_sequence_free(self->expiry);
  g_free(self);
}

void
pdb_context_key_append_part(GString *key, const gchar *value, gssize length)
{
  if (!value)
    value = "";
  gchar digits[24];
  gsize n = sizeof(digits);

  if (length < 0)
    length = (gssize) strlen(value);
  digits[--n] = ':';
  for (gsize v = (gsize) length; ; v /= 10)
    {
      digits[--n] = (gchar) ('0' + v % 10);
      if (v < 10)
        break;
    }
  g_string_append_len(key, digits + n, sizeof(digits) - n);
  g_string_append_len(key, value, length);
}

PdbContext *
pdb_context_table_find(PdbContextTable *self, const gchar *key, gsize key_len)
{
  GBytes *lookup = g_bytes_new_static(key, key_len);
  Entry *e = g_hash_table_lookup(self->index, lookup);

  g_bytes_unref(lookup);
  return e ? &e->pub : NULL;
}

static Entry *
nearest(PdbContextTable *self)
{
  if (g_sequence_get_length(self->expiry) == 0)
    return NULL;
  return g_sequence_get(g_sequence_get_begin_iter(self->expiry));
}

/* Takes @e out of the table (it is no longer findable nor scheduled). */
static void
detach(PdbContextTable *self, Entry *e)
{
  if (e->iter)
    g_sequence_remove(e->iter);
  e->iter = NULL;
  if (e->indexed)
    g_hash_table_remove(self->index, e->key);
  e->indexed = FALSE;
}

void
pdb_context_table_close(PdbContextTable *self, PdbContext *ctx, PdbContextEndFunc end, gpointer user_data)
{
  Entry *e = (Entry *) ctx;

  detach(self, e);
  if (end)
    end(ctx, user_data);
  entry_free(self, e);
}

PdbContext *
pdb_context_table_open(PdbContextTable *self, const gchar *key, gsize key_len,
                       PdbContextEndFunc end, gpointer user_data)
{
  Entry *e, *old;

  while (g_hash_table_size(self->index) >= self->max_contexts && (e = nearest(self)))
    pdb_context_table_close(self, &e->pub, end, user_data);
  e = g_new0(Entry, 1);
  e->key = g_bytes_new(key, key_len);
  e->pub.messages = g_ptr_array_new();
  e->pub.expires = G_MININT64;
  old = g_hash_table_lookup(self->index, e->key);
  if (old)
    {
      g_hash_table_remove(self->index, old->key);
      old->indexed = FALSE;
      if (!old->iter)   /* never scheduled: nothing would ever end it */
        entry_free(self, old);
    }
  g_hash_table_insert(self->index, e->key, e);
  e->indexed = TRUE;
  return &e->pub;
}

void
pdb_context_table_schedule(PdbContextTable *self, PdbContext *ctx, gint64 expires)
{
  Entry *e = (Entry *) ctx;

  if (e->iter && e->pub.expires == expires)
    return;
  if (e->iter)
    g_sequence_remove(e->iter);
  e->pub.expires = expires;
  e->serial = ++self->serial;
  e->iter = g_sequence_insert_sorted(self->expiry, e, compare_expiry, NULL);
}

gint64
pdb_context_table_get_time(PdbContextTable *self)
{
  return self->clock;
}

void
pdb_context_table_advance(PdbContextTable *self, gint64 target, PdbContextEndFunc end, gpointer user_data)
{
  Entry *e;

  while ((e = nearest(self)) && e->pub.expires < target)
    {
      self->clock = MAX(self->clock, e->pub.expires);
      pdb_context_table_close(self, &e->pub, end, user_data);
    }
  self->clock = MAX(self->clock, target);
}

void
pdb_context_table_expire_all(PdbContextTable *self, PdbContextEndFunc end, gpointer user_data)
{
  gint64 saved = self->clock;
  Entry *e;

  while ((e = nearest(self)))
    {
      self->clock = MAX(self->clock, e->pub.expires);
      pdb_context_table_close(self, &e->pub, end, user_data);
    }
  self->clock = saved;
}

guint
pdb_context_table_count(PdbContextTable *self)
{
  return g_hash_table_size(self->index);
}

void
pdb_context_table_set_max(PdbContextTable *self, guint max_contexts)
{
  self->max_contexts = max_contexts;
}

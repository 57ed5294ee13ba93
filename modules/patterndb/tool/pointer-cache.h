/*
 * pointer-cache.h: a small map from string pointers to ids for the tool's
 * message store (message.c), header-only so that its lookups inline into
 * the store's hot path.
 *
 * Pointer -> id, open addressing with linear probing, for the names and
 * tags the database layer passes (capture names, class tags ...), whose
 * strings live as long as the database. A hit is confirmed with strcmp()
 * against the id's own name, so a reused transient buffer can never get a
 * wrong id; it is then looked up by value and its entry updated. The
 * table grows at half load, so with 100,000 rules every capture name
 * still has its entry.
 */
#ifndef PDB_TOOL_POINTER_CACHE_H
#define PDB_TOOL_POINTER_CACHE_H

#include <glib.h>

typedef struct
{
  const gchar **keys;
  guint *ids;
  guint mask;            /* capacity - 1; capacity is a power of two */
  guint used;
} PointerCache;

static inline void
pointer_cache_init(PointerCache *cache, guint capacity)
{
  cache->keys = g_new0(const gchar *, capacity);
  cache->ids = g_new0(guint, capacity);
  cache->mask = capacity - 1;
  cache->used = 0;
}

static inline void
pointer_cache_clear(PointerCache *cache)
{
  g_free(cache->keys);
  g_free(cache->ids);
}

static inline guint
pointer_hash(const gchar *key)
{
  guint64 k = (guintptr) key;

  k ^= k >> 29;
  k *= G_GUINT64_CONSTANT(0x9e3779b97f4a7c15);
  return (guint) (k >> 32);
}

/* The id slot of @key: its own, or the empty one where it would go (id 0). */
static inline guint *
pointer_cache_find(PointerCache *cache, const gchar *key)
{
  guint i = pointer_hash(key) & cache->mask;

  while (cache->keys[i] && cache->keys[i] != key)
    i = (i + 1) & cache->mask;
  cache->keys[i] = key;   /* claims an empty slot; its id stays 0 until stored */
  return &cache->ids[i];
}

static inline void
pointer_cache_store(PointerCache *cache, guint *entry, const gchar *key, guint id)
{
  if (*entry == 0)
    cache->used++;
  *entry = id;
  if (cache->used * 2 > cache->mask + 1)
    {
      PointerCache bigger;

      pointer_cache_init(&bigger, (cache->mask + 1) * 2);
      for (guint i = 0; i <= cache->mask; i++)
        if (cache->keys[i] && cache->ids[i])
          {
            *pointer_cache_find(&bigger, cache->keys[i]) = cache->ids[i];
            bigger.used++;
          }
      pointer_cache_clear(cache);
      *cache = bigger;
    }
}

#endif

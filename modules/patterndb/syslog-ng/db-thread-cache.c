/*
 * db-thread-cache.c: a parser's current database and the per-thread cache
 * of references to current databases.
 *
 * Every (holder, database) pair installed gets a generation number, unique
 * in the process (pdb_sng_next_generation never repeats). The set of
 * generations still installed somewhere is pdb_sng_live; whenever one leaves
 * it (a swap or a parser's deinit) the global pdb_sng_epoch is incremented.
 * All three are changed under pdb_sng_live_lock.
 *
 * Each thread has a few slots (holder, generation, database reference) and
 * the epoch at which it last checked them all against pdb_sng_live. On a
 * message: if the epoch is unchanged, every slot is still installed, so a
 * slot whose holder is this one holds this holder's current database; the
 * thread uses it without a lock or a reference count (the slot's reference
 * keeps it alive, and only this thread drops it). Otherwise (or when there
 * is no slot for this holder yet) the thread takes the slow path: under
 * pdb_sng_live_lock it reads the epoch and drops every slot whose
 * generation is gone (their references are released after the lock), then
 * takes a reference to the holder's database and its generation under
 * its lock, and records the epoch it read.
 *
 * Why this is safe and prompt (memory ordering): a swap first publishes the
 * new database and generation under the holder's lock, then removes the old
 * generation and increments the epoch under pdb_sng_live_lock. The slow
 * path reads the epoch (under pdb_sng_live_lock) before it reads the
 * holder's generation (under its lock). So if it picks up the old
 * generation, the swap's epoch increment comes after the epoch it recorded
 * and the next message sees a changed epoch; if it picks up the new one, it
 * is current. The fast path reads the epoch with an atomic load (a full
 * barrier in glib): a thread that does not see an increment yet classifies
 * that one message with the database it holds a reference to, exactly like
 * a message that was in flight during the swap. Nothing a thread uses is
 * ever freed under it: only the thread itself drops its slots' references.
 * A holder is never freed while a generation of it is live (its parser
 * retires it first), so comparing slot->holder with it is meaningful for
 * live slots.
 *
 * Nesting: a message emitted by correlation may run another parser (or
 * this one) on the same thread while the outer call uses a borrowed
 * database; slots are therefore only dropped by an outermost call (depth
 * 1, before it picks its own database) or outside process() (depth 0, the
 * main loop in deinit). A nested call that would have to drop one takes a
 * counted reference under the holder's lock instead.
 * With more parsers on a thread than slots, the oldest slot makes room.
 *
 * Memory: an idle thread keeps its references until it handles its next
 * message (any parser) or exits (the GPrivate destructor drops them). A
 * retire on the main loop thread drops that thread's own slots at once.
 */
#include "db-thread-cache.h"

#include <string.h>

#define PDB_SNG_THREAD_SLOTS 8

typedef struct _PdbSngSlot
{
  const PdbSngCurrentDb *holder;
  guint64 generation;
  PdbSngDb *db;                 /* a reference */
} PdbSngSlot;

typedef struct _PdbSngThreadCache
{
  gint epoch;                   /* pdb_sng_epoch when the slots were last checked */
  guint depth;                  /* process() calls running on this thread */
  guint n_slots;
  PdbSngSlot slots[PDB_SNG_THREAD_SLOTS];
  gint64 received;              /* pdb_sng_thread_now(): last wall-clock second seen */
  gint now;                     /* and the monotonic second read then (0: none yet) */
} PdbSngThreadCache;

static GMutex pdb_sng_live_lock;
static GHashTable *pdb_sng_live;        /* of guint64* generations installed */
static guint64 pdb_sng_next_generation = 1;
static gint pdb_sng_epoch;

static void pdb_sng_thread_cache_free(gpointer p);
static GPrivate pdb_sng_thread_cache_key = G_PRIVATE_INIT(pdb_sng_thread_cache_free);
static _Thread_local PdbSngThreadCache *pdb_sng_thread_cache;

static void
pdb_sng_thread_cache_free(gpointer p)
{
  PdbSngThreadCache *tc = p;

  for (guint i = 0; i < tc->n_slots; i++)
    pdb_sng_db_unref(tc->slots[i].db);
  if (pdb_sng_thread_cache == tc)
    pdb_sng_thread_cache = NULL;
  g_free(tc);
}

/* Under pdb_sng_live_lock: a new generation, recorded as installed. */
static guint64
pdb_sng_live_add_locked(void)
{
  guint64 *generation = g_new(guint64, 1);

  if (!pdb_sng_live)
    pdb_sng_live = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
  *generation = pdb_sng_next_generation++;
  g_hash_table_add(pdb_sng_live, generation);
  return *generation;
}

/* Under pdb_sng_live_lock: @generation is no longer installed anywhere. */
static void
pdb_sng_live_retire_locked(guint64 generation)
{
  if (generation && pdb_sng_live && g_hash_table_remove(pdb_sng_live, &generation))
    g_atomic_int_inc(&pdb_sng_epoch);
}

void
pdb_sng_current_db_swap(PdbSngCurrentDb *self, PdbSngDb *db)
{
  PdbSngDb *old;
  guint64 old_generation, generation = 0;

  if (db)
    {
      g_mutex_lock(&pdb_sng_live_lock);
      generation = pdb_sng_live_add_locked();
      g_mutex_unlock(&pdb_sng_live_lock);
    }
  g_mutex_lock(&self->lock);
  old = self->db;
  old_generation = self->generation;
  self->db = db;
  self->generation = generation;
  g_mutex_unlock(&self->lock);
  g_mutex_lock(&pdb_sng_live_lock);
  pdb_sng_live_retire_locked(old_generation);
  g_mutex_unlock(&pdb_sng_live_lock);
  pdb_sng_db_unref(old);
}

/* Drops the slots whose generation is gone; records the epoch. Never while
 * an outer process() call on this thread may use a slot (see above). */
static void
pdb_sng_thread_cache_sweep(PdbSngThreadCache *tc)
{
  PdbSngDb *dropped[PDB_SNG_THREAD_SLOTS];
  guint n_dropped = 0, kept = 0;

  g_mutex_lock(&pdb_sng_live_lock);
  tc->epoch = g_atomic_int_get(&pdb_sng_epoch);
  for (guint i = 0; i < tc->n_slots; i++)
    {
      if (pdb_sng_live && g_hash_table_contains(pdb_sng_live, &tc->slots[i].generation))
        tc->slots[kept++] = tc->slots[i];
      else
        dropped[n_dropped++] = tc->slots[i].db;
    }
  tc->n_slots = kept;
  g_mutex_unlock(&pdb_sng_live_lock);
  /* the last reference to a big database may take a while to release */
  for (guint i = 0; i < n_dropped; i++)
    pdb_sng_db_unref(dropped[i]);
}

PdbSngThreadCache *
pdb_sng_thread_cache_get(void)
{
  PdbSngThreadCache *tc = pdb_sng_thread_cache;

  if (G_UNLIKELY(!tc))
    {
      tc = g_new0(PdbSngThreadCache, 1);
      tc->epoch = -1;
      g_private_set(&pdb_sng_thread_cache_key, tc);
      pdb_sng_thread_cache = tc;
    }
  return tc;
}

/* The database for one message on this thread (see enter()); tc->depth
 * already counts this call. */
static PdbSngDb *
pdb_sng_thread_cache_use(PdbSngThreadCache *tc, PdbSngCurrentDb *self, gboolean *counted)
{
  *counted = FALSE;
  if (G_LIKELY(tc->epoch == g_atomic_int_get(&pdb_sng_epoch)))
    {
      for (guint i = 0; i < tc->n_slots; i++)
        if (tc->slots[i].holder == self)
          return tc->slots[i].db;
    }
  else if (tc->depth == 1)
    pdb_sng_thread_cache_sweep(tc);
  else
    {
      /* nested: the outer call may be using a slot we cannot drop now */
      *counted = TRUE;
      return pdb_sng_current_db_acquire(self);
    }

  if (tc->epoch != g_atomic_int_get(&pdb_sng_epoch))
    {
      /* changed again meanwhile */
      *counted = TRUE;
      return pdb_sng_current_db_acquire(self);
    }
  for (guint i = 0; i < tc->n_slots; i++)
    if (tc->slots[i].holder == self)
      return tc->slots[i].db;
  if (tc->n_slots == PDB_SNG_THREAD_SLOTS)
    {
      /* more parsers on this thread than slots: the oldest slot makes room,
       * unless an outer call may be using it */
      if (tc->depth != 1)
        {
          *counted = TRUE;
          return pdb_sng_current_db_acquire(self);
        }
      PdbSngDb *oldest = tc->slots[0].db;
      memmove(&tc->slots[0], &tc->slots[1], (PDB_SNG_THREAD_SLOTS - 1) * sizeof(PdbSngSlot));
      tc->n_slots--;
      pdb_sng_db_unref(oldest);
    }

  PdbSngSlot *slot = &tc->slots[tc->n_slots];
  g_mutex_lock(&self->lock);
  slot->db = self->db ? pdb_sng_db_ref(self->db) : NULL;
  slot->generation = self->generation;
  g_mutex_unlock(&self->lock);
  if (!slot->db)
    return NULL;
  slot->holder = self;
  tc->n_slots++;
  return slot->db;
}

PdbSngDb *
pdb_sng_current_db_retire(PdbSngCurrentDb *self)
{
  PdbSngDb *db;
  guint64 generation;

  g_mutex_lock(&self->lock);
  db = self->db;
  generation = self->generation;
  self->db = NULL;
  self->generation = 0;
  g_mutex_unlock(&self->lock);
  g_mutex_lock(&pdb_sng_live_lock);
  pdb_sng_live_retire_locked(generation);
  g_mutex_unlock(&pdb_sng_live_lock);
  /* the calling thread (the main loop) drops its own slots now */
  PdbSngThreadCache *tc = pdb_sng_thread_cache;
  if (tc && tc->depth == 0)
    pdb_sng_thread_cache_sweep(tc);
  return db;
}

gint
pdb_sng_thread_now(PdbSngThreadCache *tc, gint64 received)
{
  if (received != tc->received || tc->now == 0)
    {
      tc->received = received;
      tc->now = (gint) (g_get_monotonic_time() / G_USEC_PER_SEC);
    }
  return tc->now;
}


PdbSngDb *
pdb_sng_thread_cache_enter(PdbSngThreadCache *tc, PdbSngCurrentDb *current, gboolean *counted)
{
  tc->depth++;
  return pdb_sng_thread_cache_use(tc, current, counted);
}

void
pdb_sng_thread_cache_leave(PdbSngThreadCache *tc, PdbSngDb *db, gboolean counted)
{
  if (counted)
    pdb_sng_db_unref(db);
  tc->depth--;
}

/* --- the holder ------------------------------------------------------------ */

void
pdb_sng_current_db_init(PdbSngCurrentDb *self)
{
  g_mutex_init(&self->lock);
  self->db = NULL;
  self->generation = 0;
}

void
pdb_sng_current_db_clear(PdbSngCurrentDb *self)
{
  g_mutex_clear(&self->lock);
}

gboolean
pdb_sng_current_db_is_set(PdbSngCurrentDb *self)
{
  gboolean set;

  g_mutex_lock(&self->lock);
  set = self->db != NULL;
  g_mutex_unlock(&self->lock);
  return set;
}

PdbSngDb *
pdb_sng_current_db_acquire(PdbSngCurrentDb *self)
{
  PdbSngDb *db;

  g_mutex_lock(&self->lock);
  db = self->db ? pdb_sng_db_ref(self->db) : NULL;
  g_mutex_unlock(&self->lock);
  return db;
}

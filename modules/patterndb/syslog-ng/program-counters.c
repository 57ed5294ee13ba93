/*
 * program-counters.c: unknown messages per program (see program-counters.h).
 */
#include "program-counters.h"
#include "parser-counters.h"
#include "sng-compat.h"

#include <string.h>

#define MAX_CACHED_PROGRAMS 1024
#define TABLE_SIZE (2 * MAX_CACHED_PROGRAMS)   /* a power of two; never more than half full */
#define INSTANCE_PREFIX "unknown,program="
#define INSTANCE_SIZE 256

/* Immutable once published, but for `counter`, which close() turns NULL. */
typedef struct
{
  guint hash;
  gchar *program;
  StatsCluster *handle;           /* NULL: syslog-ng refused it (max-dynamics) */
  gpointer counter;               /* StatsCounterItem *, read and cleared atomically */
} PdbSngCachedCounter;

struct _PdbSngProgramCounters
{
  gchar *parser_id;
  gint level;
  /* open addressing, linear probing; a slot goes from NULL to its entry
   * once (published with an atomic store after the entry is complete) and
   * stays until free(): readers probe without a lock */
  gpointer slots[TABLE_SIZE];
  GMutex lock;                    /* serialises inserting and closing */
  guint n_cached;                 /* under the lock */
  gint closed;                    /* atomic; set once, under the lock */
};

PdbSngProgramCounters *
pdb_sng_program_counters_new(const gchar *parser_id, gint level)
{
  PdbSngProgramCounters *self = g_new0(PdbSngProgramCounters, 1);

  self->parser_id = g_strdup(parser_id);
  self->level = level;
  g_mutex_init(&self->lock);
  return self;
}

static guint
program_hash(const gchar *program)
{
  guint32 h = 2166136261u;

  for (const guchar *p = (const guchar *) program; *p; p++)
    h = (h ^ *p) * 16777619u;
  return h;
}

/* The published entry of @program, or NULL with *free_slot set to the
 * empty slot its probe ended at. */
static PdbSngCachedCounter *
pdb_sng_program_counters_find(PdbSngProgramCounters *self, const gchar *program, guint hash, guint *free_slot)
{
  for (guint i = 0; i < TABLE_SIZE; i++)
    {
      guint slot = (hash + i) & (TABLE_SIZE - 1);
      PdbSngCachedCounter *cached = g_atomic_pointer_get(&self->slots[slot]);

      if (!cached)
        {
          *free_slot = slot;
          return NULL;
        }
      if (cached->hash == hash && strcmp(cached->program, program) == 0)
        return cached;
    }
  *free_slot = TABLE_SIZE;   /* unreachable: the table is at most half full */
  return NULL;
}

/* Registers and publishes the counter of @program, unless another thread
 * did, the table is full or the counters are closed (then NULL). */
static PdbSngCachedCounter *
pdb_sng_program_counters_insert(PdbSngProgramCounters *self, const gchar *program, guint hash, const gchar *instance)
{
  PdbSngCachedCounter *cached = NULL;
  guint slot;

  g_mutex_lock(&self->lock);
  if (!g_atomic_int_get(&self->closed))
    {
      cached = pdb_sng_program_counters_find(self, program, hash, &slot);
      if (!cached && self->n_cached < MAX_CACHED_PROGRAMS && slot < TABLE_SIZE)
        {
          StatsClusterKey key;
          StatsCounterItem *counter = NULL;

          cached = g_new0(PdbSngCachedCounter, 1);
          cached->hash = hash;
          cached->program = g_strdup(program);
          pdb_sng_stats_legacy_key(&key, SCS_PARSER, self->parser_id, instance);
          stats_lock();
          cached->handle = stats_register_dynamic_counter(self->level, &key, SC_TYPE_PROCESSED, &counter);
          stats_unlock();
          cached->counter = counter;
          self->n_cached++;
          g_atomic_pointer_set(&self->slots[slot], cached);
        }
    }
  g_mutex_unlock(&self->lock);
  return cached;
}

void
pdb_sng_program_counters_inc(PdbSngProgramCounters *self, const gchar *program, gsize length)
{
  gchar instance[INSTANCE_SIZE];
  const gsize prefix = sizeof(INSTANCE_PREFIX) - 1;
  const gsize kept = MIN(length, sizeof(instance) - prefix - 1);

  if (!stats_check_level(self->level))
    return;
  memcpy(instance, INSTANCE_PREFIX, prefix);
  if (kept)
    memcpy(instance + prefix, program, kept);
  instance[prefix + kept] = '\0';

  if (!g_atomic_int_get(&self->closed))
    {
      const gchar *name = instance + prefix;
      guint hash = program_hash(name);
      guint slot;
      PdbSngCachedCounter *cached = pdb_sng_program_counters_find(self, name, hash, &slot);

      if (!cached)
        cached = pdb_sng_program_counters_insert(self, name, hash, instance);
      /* a counter closed after this read still counts into the same
       * registry entry (syslog-ng keeps it until it prunes it) */
      StatsCounterItem *counter = cached ? g_atomic_pointer_get(&cached->counter) : NULL;
      if (counter)
        {
          stats_counter_inc(counter);
          return;
        }
      if (cached && !cached->handle)
        return;   /* refused by max-dynamics: the slow way would be refused too */
    }
  pdb_sng_parser_dynamic_counter_inc(self->level, self->parser_id, instance);
}

void
pdb_sng_program_counters_close(PdbSngProgramCounters *self)
{
  if (!self)
    return;
  g_mutex_lock(&self->lock);
  if (!g_atomic_int_get(&self->closed))
    {
      g_atomic_int_set(&self->closed, TRUE);
      stats_lock();
      for (guint i = 0; i < TABLE_SIZE; i++)
        {
          PdbSngCachedCounter *cached = self->slots[i];
          StatsCounterItem *counter = cached ? g_atomic_pointer_get(&cached->counter) : NULL;

          if (!counter)
            continue;
          g_atomic_pointer_set(&cached->counter, NULL);
          if (cached->handle)
            stats_unregister_dynamic_counter(cached->handle, SC_TYPE_PROCESSED, &counter);
        }
      stats_unlock();
    }
  g_mutex_unlock(&self->lock);
}

void
pdb_sng_program_counters_free(PdbSngProgramCounters *self)
{
  if (!self)
    return;
  pdb_sng_program_counters_close(self);
  for (guint i = 0; i < TABLE_SIZE; i++)
    {
      PdbSngCachedCounter *cached = self->slots[i];

      if (cached)
        {
          g_free(cached->program);
          g_free(cached);
        }
    }
  g_mutex_clear(&self->lock);
  g_free(self->parser_id);
  g_free(self);
}

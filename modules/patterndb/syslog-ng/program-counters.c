/*
 * program-counters.c: unknown messages per program (see program-counters.h).
 */
#include "program-counters.h"
#include "parser-counters.h"
#include "sng-compat.h"

#include <string.h>

#define MAX_CACHED_PROGRAMS 1024
#define INSTANCE_PREFIX "unknown,program="
#define INSTANCE_SIZE 256

typedef struct
{
  StatsCluster *handle;           /* NULL: syslog-ng refused it (max-dynamics) */
  StatsCounterItem *counter;
} PdbSngCachedCounter;

struct _PdbSngProgramCounters
{
  gchar *parser_id;
  gint level;
  GMutex lock;                    /* guards the two below */
  GHashTable *by_program;         /* program -> PdbSngCachedCounter */
  gboolean closed;
};

PdbSngProgramCounters *
pdb_sng_program_counters_new(const gchar *parser_id, gint level)
{
  PdbSngProgramCounters *self = g_new0(PdbSngProgramCounters, 1);

  self->parser_id = g_strdup(parser_id);
  self->level = level;
  g_mutex_init(&self->lock);
  self->by_program = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  return self;
}

/* The cached counter of @program, made if there is room; the caller holds
 * the table's lock. */
static PdbSngCachedCounter *
pdb_sng_program_counters_lookup(PdbSngProgramCounters *self, const gchar *program, const gchar *instance)
{
  PdbSngCachedCounter *cached = g_hash_table_lookup(self->by_program, program);

  if (cached || self->closed || g_hash_table_size(self->by_program) >= MAX_CACHED_PROGRAMS)
    return cached;

  StatsClusterKey key;
  cached = g_new0(PdbSngCachedCounter, 1);
  pdb_sng_stats_legacy_key(&key, SCS_PARSER, self->parser_id, instance);
  stats_lock();
  cached->handle = stats_register_dynamic_counter(self->level, &key, SC_TYPE_PROCESSED, &cached->counter);
  stats_unlock();
  g_hash_table_insert(self->by_program, g_strdup(program), cached);
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

  g_mutex_lock(&self->lock);
  PdbSngCachedCounter *cached = pdb_sng_program_counters_lookup(self, instance + prefix, instance);
  if (cached)
    {
      if (cached->counter)
        stats_counter_inc(cached->counter);
      g_mutex_unlock(&self->lock);
      return;
    }
  g_mutex_unlock(&self->lock);
  pdb_sng_parser_dynamic_counter_inc(self->level, self->parser_id, instance);
}

static void
pdb_sng_cached_counter_unregister(gpointer program, gpointer value, gpointer user_data)
{
  PdbSngCachedCounter *cached = value;

  (void) program;
  (void) user_data;
  if (cached->handle && cached->counter)
    stats_unregister_dynamic_counter(cached->handle, SC_TYPE_PROCESSED, &cached->counter);
}

void
pdb_sng_program_counters_close(PdbSngProgramCounters *self)
{
  if (!self)
    return;
  g_mutex_lock(&self->lock);
  if (!self->closed)
    {
      stats_lock();
      g_hash_table_foreach(self->by_program, pdb_sng_cached_counter_unregister, NULL);
      stats_unlock();
      g_hash_table_remove_all(self->by_program);
      self->closed = TRUE;
    }
  g_mutex_unlock(&self->lock);
}

void
pdb_sng_program_counters_free(PdbSngProgramCounters *self)
{
  if (!self)
    return;
  pdb_sng_program_counters_close(self);
  g_hash_table_destroy(self->by_program);
  g_mutex_clear(&self->lock);
  g_free(self->parser_id);
  g_free(self);
}

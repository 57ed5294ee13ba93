/*
 * parser-counters.c: "processed" counters of a parser (see parser-counters.h).
 *
 * External counters: a store, kept for the life of the process, maps each
 * (parser id, instance) that ever had one to its slot; slots are handed
 * out of chunks of SLOTS_PER_CHUNK (a database's rules, registered in
 * order, get neighbouring slots). The store is only touched under
 * syslog-ng's stats lock, which every caller of the external functions
 * holds.
 */
#include "parser-counters.h"
#include "sng-compat.h"

#define SLOTS_PER_CHUNK 4096

static GPtrArray *slot_chunks;      /* of atomic_gssize[SLOTS_PER_CHUNK] */
static guint slots_used_in_last;   /* handed out from the last chunk */
/* parser id -> GHashTable (instance -> atomic_gssize *): every key that
 * had an external counter, with its slot, for the life of the process */
static GHashTable *slots_by_parser;

void
pdb_sng_parser_counter_register(gboolean lock, gint level, const gchar *parser_id,
                                const gchar *instance, StatsCounterItem **counter)
{
  StatsClusterKey key;

  if (lock)
    stats_lock();
  if (stats_check_level(level))
    {
      pdb_sng_stats_legacy_key(&key, SCS_PARSER, parser_id, instance);
      stats_register_counter(level, &key, SC_TYPE_PROCESSED, counter);
    }
  if (lock)
    stats_unlock();
}

void
pdb_sng_parser_counter_unregister(gboolean lock, const gchar *parser_id, const gchar *instance,
                                  StatsCounterItem **counter)
{
  StatsClusterKey key;

  if (!*counter)
    return;
  if (lock)
    stats_lock();
  pdb_sng_stats_legacy_key(&key, SCS_PARSER, parser_id, instance);
  stats_unregister_counter(&key, SC_TYPE_PROCESSED, counter);
  if (lock)
    stats_unlock();
}

static atomic_gssize *
pdb_sng_new_slot(void)
{
  if (!slot_chunks)
    slot_chunks = g_ptr_array_new();
  if (slot_chunks->len == 0 || slots_used_in_last == SLOTS_PER_CHUNK)
    {
      g_ptr_array_add(slot_chunks, g_new0(atomic_gssize, SLOTS_PER_CHUNK));
      slots_used_in_last = 0;
    }
  atomic_gssize *chunk = g_ptr_array_index(slot_chunks, slot_chunks->len - 1);
  return &chunk[slots_used_in_last++];
}

/* The slot of (@parser_id, @instance), made on first use; *@kept_instance:
 * the store's copy of @instance. */
static atomic_gssize *
pdb_sng_slot_of(const gchar *parser_id, const gchar *instance, const gchar **kept_instance)
{
  if (!slots_by_parser)
    slots_by_parser = g_hash_table_new(g_str_hash, g_str_equal);
  GHashTable *of_parser = g_hash_table_lookup(slots_by_parser, parser_id);
  if (!of_parser)
    {
      of_parser = g_hash_table_new(g_str_hash, g_str_equal);
      g_hash_table_insert(slots_by_parser, g_strdup(parser_id), of_parser);
    }

  gpointer key, slot;
  if (!g_hash_table_lookup_extended(of_parser, instance, &key, &slot))
    {
      key = g_strdup(instance);
      slot = pdb_sng_new_slot();
      g_hash_table_insert(of_parser, key, slot);
    }
  *kept_instance = key;
  return slot;
}

atomic_gssize *
pdb_sng_parser_external_counter_register(gint level, const gchar *parser_id, const gchar *instance,
                                         const gchar **kept_instance)
{
  StatsClusterKey key;

  *kept_instance = NULL;
  if (!stats_check_level(level))
    return NULL;
  atomic_gssize *slot = pdb_sng_slot_of(parser_id, instance, kept_instance);
  pdb_sng_stats_legacy_key(&key, SCS_PARSER, parser_id, *kept_instance);

  StatsCounterItem *known = stats_get_counter(&key, SC_TYPE_PROCESSED);
  if ((known && !(known->external && known->value_ref == slot))
      || !stats_register_external_counter(level, &key, SC_TYPE_PROCESSED, slot))
    return NULL;   /* syslog-ng holds another counter under that key */
  return slot;
}

void
pdb_sng_parser_external_counter_unregister(const gchar *parser_id, const gchar *instance,
                                           atomic_gssize *slot)
{
  StatsClusterKey key;

  if (!slot)
    return;
  pdb_sng_stats_legacy_key(&key, SCS_PARSER, parser_id, instance);
  stats_unregister_external_counter(&key, SC_TYPE_PROCESSED, slot);
}

void
pdb_sng_parser_dynamic_counter_inc(gint level, const gchar *parser_id, const gchar *instance)
{
  StatsClusterKey key;

  if (!stats_check_level(level))
    return;
  pdb_sng_stats_legacy_key(&key, SCS_PARSER, parser_id, instance);
  stats_lock();
  stats_register_and_increment_dynamic_counter(level, &key, -1);
  stats_unlock();
}

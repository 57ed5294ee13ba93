/*
 * parser-counters.c: "processed" counters of a parser (see parser-counters.h).
 */
#include "parser-counters.h"
#include "sng-compat.h"

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

/*
 * parser-counters.h: "processed" counters of a parser in syslog-ng's stats
 * registry, keyed (component "parser", id: the parser's name, instance),
 * as `syslog-ng-ctl stats` shows them: parser;<id>;<instance>;a;processed;N.
 * The one place that builds such a key (through sng-compat.h, which hides
 * the 3.38/4.x difference). Used by rule-stats.c (db-parser) and by
 * grouping-by.c.
 *
 * Invariant: a counter pointer is NULL below its stats level and after
 * unregistering; incrementing reads the pointer once, atomically, so a
 * thread that still counts while the parser unregisters counts into
 * nothing rather than into freed memory.
 */
#ifndef PDB_SNG_PARSER_COUNTERS_H
#define PDB_SNG_PARSER_COUNTERS_H

#include "stats/stats-registry.h"

/* Both take syslog-ng's stats lock themselves when @lock is TRUE (else the
 * caller holds it). Registering below the configured stats level leaves
 * *counter NULL. */
void pdb_sng_parser_counter_register(gboolean lock, gint level, const gchar *parser_id,
                                     const gchar *instance, StatsCounterItem **counter);
void pdb_sng_parser_counter_unregister(gboolean lock, const gchar *parser_id, const gchar *instance,
                                       StatsCounterItem **counter);

static inline void
pdb_sng_parser_counter_inc(StatsCounterItem **counter)
{
  stats_counter_inc(__atomic_load_n(counter, __ATOMIC_RELAXED));
}

#endif

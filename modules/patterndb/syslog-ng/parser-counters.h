/*
 * parser-counters.h: "processed" counters of a parser in syslog-ng's stats
 * registry, keyed (component "parser", id: the parser's name, instance),
 * as `syslog-ng-ctl stats` shows them: parser;<id>;<instance>;a;processed;N.
 * The one place that builds such a key (through sng-compat.h, which hides
 * the 3.38/4.x difference). Used by rule-stats.c (db-parser) and by
 * grouping-by.c.
 *
 * Three kinds:
 *   registered counters: a StatsCounterItem of syslog-ng's, for a few
 *     counters per parser. Invariant: the pointer is NULL below its stats
 *     level and after unregistering; incrementing reads the pointer once,
 *     atomically, so a thread that still counts while the parser
 *     unregisters counts into nothing rather than into freed memory.
 *   external counters: a value we own (an atomic_gssize "slot"), which
 *     syslog-ng reads when it shows the key; for the per-rule counters,
 *     so that counting touches one word and no stats cluster. syslog-ng
 *     forgets an external counter (and its value) when its last user
 *     unregisters it, as a reload does, so the slots are ours: a key keeps
 *     its slot for the life of the process, and registering the key again
 *     shows the value it had (counts go on across reloads, and a thread
 *     still counting with a database being replaced counts into the live
 *     value). A key that goes away keeps its slot and name (a few dozen
 *     bytes) until the process ends.
 *   dynamic counters: created on first use (syslog-ng's "dynamic" clusters,
 *     bounded by its max-dynamics option), for keys that come from the
 *     messages (unknown messages per program).
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

/* The slot of the external counter (@parser_id, @instance), registered
 * once more; NULL below @level, or when syslog-ng already holds a counter
 * of its own under that key. *@kept_instance: the store's copy of
 * @instance (valid for the life of the process), or NULL below @level.
 * The caller holds the stats lock. */
atomic_gssize *pdb_sng_parser_external_counter_register(gint level, const gchar *parser_id,
                                                        const gchar *instance, const gchar **kept_instance);
/* Drops one registration of @slot (from the call above); the caller holds
 * the stats lock. */
void pdb_sng_parser_external_counter_unregister(const gchar *parser_id, const gchar *instance,
                                                atomic_gssize *slot);

static inline void
pdb_sng_parser_external_counter_inc(atomic_gssize *slot)
{
  __atomic_fetch_add(&slot->value, 1, __ATOMIC_RELAXED);
}

/* Adds 1 to the dynamic counter (@parser_id, @instance), creating it;
 * nothing below @level. Takes the stats lock (so: for rare events). */
void pdb_sng_parser_dynamic_counter_inc(gint level, const gchar *parser_id, const gchar *instance);

#endif

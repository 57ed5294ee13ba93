/*
 * rule-stats.h: per-rule counters of a db-parser() in syslog-ng's stats
 * registry, so that `syslog-ng-ctl stats` and `syslog-ng-ctl query` show
 * which rule classified how many messages.
 *
 * Counters (component "parser", id: the parser's name), each of type
 * "processed":
 *   instance "rule=<id>,class=<class>"   messages the rule classified (stats level 1)
 *   instance "matched"                   messages some rule classified (level 0)
 *   instance "unknown"                   messages no rule matched (level 0)
 *   instance "unknown,program=<program>" the same per program (level 1, a
 *                                        dynamic counter: program-counters.h)
 *   instance "dropped"                   unknown messages drop-unmatched(yes)
 *                                        removed from the log path (level 0)
 * A counter keeps its value across reloads while its key stays (same
 * parser name, rule id and class); a new rule starts at 0.
 *
 * The per-rule counters are external counters (parser-counters.h): a dense
 * array of pointers indexed by PdbRule.index leads to each rule's value,
 * which one relaxed atomic increment counts; matching takes no lock and
 * touches no stats cluster. syslog-ng reads the values when it shows them.
 *
 * Invariant: a PdbSngRuleStats belongs to one PdbDatabase; counting a
 * match takes no lock (atomic increments); an unknown message at stats
 * level 1 or more takes the parser's per-program table lock
 * (program-counters.h); registering and unregistering take syslog-ng's
 * stats lock.
 * A parser unregisters the counters of a database it stops using at once
 * (deinit, or a swap after a file change), while the registry surely
 * exists; the database itself may live on in a thread's cache, whose
 * counts still reach the rules' values.
 */
#ifndef PDB_SNG_RULE_STATS_H
#define PDB_SNG_RULE_STATS_H

#include "db/database.h"

typedef struct _PdbSngRuleStats PdbSngRuleStats;

/* Registers the counters of @db's rules under @parser_id (copied). */
PdbSngRuleStats *pdb_sng_rule_stats_new(const PdbDatabase *db, const gchar *parser_id);
/* Unregisters them and keeps @self, which threads may still count with;
 * a second call does nothing. */
void pdb_sng_rule_stats_unregister(PdbSngRuleStats *self);
/* Unregisters (if still registered) and frees (NULL is fine). */
void pdb_sng_rule_stats_free(PdbSngRuleStats *self);
/* Counts one classification of a message of @db whose program is the
 * @program_length bytes at @program; @dropped: the parser drops it as
 * unknown (NULL @self: nothing). A program name longer than about 240
 * bytes is cut in its counter's name. */
void pdb_sng_rule_stats_count(PdbSngRuleStats *self, const PdbResult *result,
                              const gchar *program, gsize program_length, gboolean dropped);

#endif

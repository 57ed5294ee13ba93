/*
 * program-counters.h: a db-parser()'s counters of unknown messages per
 * program, syslog-ng "dynamic" counters (created on first use, bounded by
 * syslog-ng's max-dynamics option) named
 * parser;<id>;unknown,program=<program>;d;processed;N.
 *
 * The counters of the first MAX_CACHED_PROGRAMS programs stay registered
 * while the parser uses them and are found through a table of our own that
 * counting reads without a lock (a program's entry is published once, with
 * an atomic store, and stays until the counters are freed); only a
 * program's first message takes this parser's lock (not syslog-ng's global
 * stats lock) to register its counter. Any other program, and every
 * program after pdb_sng_program_counters_close(), takes syslog-ng's own
 * way (the stats lock and a registry lookup per message). Either way the
 * count goes to the same counter, which keeps its value across reloads.
 *
 * Invariant: the table's lock is taken before syslog-ng's stats lock,
 * never the other way round.
 */
#ifndef PDB_SNG_PROGRAM_COUNTERS_H
#define PDB_SNG_PROGRAM_COUNTERS_H

#include <glib.h>

typedef struct _PdbSngProgramCounters PdbSngProgramCounters;

/* Counters of @parser_id (copied) at stats level @level. */
PdbSngProgramCounters *pdb_sng_program_counters_new(const gchar *parser_id, gint level);
/* Counts one unknown message of the @length bytes at @program; a name
 * longer than about 240 bytes is cut. Nothing below the stats level. */
void pdb_sng_program_counters_inc(PdbSngProgramCounters *self, const gchar *program, gsize length);
/* Unregisters the cached counters (the parser stops using them; threads
 * may still count, the slow way); a second call does nothing. */
void pdb_sng_program_counters_close(PdbSngProgramCounters *self);
/* Closes and frees (NULL is fine). */
void pdb_sng_program_counters_free(PdbSngProgramCounters *self);

#endif

/*
 * match-stats.h: `patterndb match --stats`: how many lines each rule
 * classified, the unknown lines per program and the rules that never
 * matched, as text or JSON, for one run over a file.
 *
 * Invariant: every input line is counted exactly once, by the thread whose
 * output for it is kept (a worker's line that the main thread redoes is
 * counted by the main thread only, see cmd-match.c). Adding is safe from
 * any number of threads (atomic counters, one lock for the program table).
 */
#ifndef PDB_TOOL_MATCH_STATS_H
#define PDB_TOOL_MATCH_STATS_H

#include "db/database.h"

typedef struct _PdbMatchStats PdbMatchStats;

PdbMatchStats *pdb_match_stats_new(const PdbDatabase *db);
void pdb_match_stats_free(PdbMatchStats *self);

/* One line: @rule (NULL: unknown) and its program. */
void pdb_match_stats_add(PdbMatchStats *self, const PdbRule *rule, const gchar *program, gsize program_length);

void pdb_match_stats_write_text(PdbMatchStats *self, GString *out);
void pdb_match_stats_write_json(PdbMatchStats *self, GString *out);

#endif

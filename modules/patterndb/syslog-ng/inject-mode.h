/*
 * inject-mode.h: where db-parser() and grouping-by() put the messages they
 * generate (correlation actions, aggregates), by inject-mode():
 *   pass-through (the default) and aggregate-only: forwarded to the next
 *     element of the parser's log path, while the message that caused them
 *     is being processed, so ahead of it;
 *   internal: posted to the internal() source.
 * aggregate-only also drops every message that reaches the parser (each
 * parser does that itself).
 */
#ifndef PDB_SNG_INJECT_MODE_H
#define PDB_SNG_INJECT_MODE_H

#include "logpipe.h"

typedef enum
{
  PDB_SNG_INJECT_PASS_THROUGH = 0,
  PDB_SNG_INJECT_INTERNAL,
  PDB_SNG_INJECT_AGGREGATE_ONLY,
} PdbSngInjectMode;

/* "pass-through", "internal" or "aggregate-only", `_` read as `-`; FALSE
 * (and *@mode untouched) for anything else. */
gboolean pdb_sng_inject_mode_parse(const gchar *text, PdbSngInjectMode *mode);

/* Sends @msg (borrowed; a reference is taken) from @parser by @mode. A
 * generated message has no source to acknowledge to. */
void pdb_sng_inject(LogPipe *parser, PdbSngInjectMode mode, LogMessage *msg);

#endif

/*
 * match-parallel.h: bulk classification (`match -f` with a -T template of
 * the classification only, the short path of match-direct.h) on several
 * threads, with output byte-identical to one thread.
 *
 *   main thread: read block k ──► queue ──► worker: classify block k into
 *                                            its own output buffer
 *   main thread: wait for block 0, write it; wait for block 1, write it ...
 *
 * Blocks end on message boundaries (line-reader.h), so each is cut into
 * the same messages as a single pass would cut the stream, and outputs are
 * written in input order. A line the short path refuses (a header 3.38
 * cannot parse) is left in its place and handed to @fallback on the main
 * thread when its block is written, so the general path never runs on two
 * threads. At most 2 x @n_threads blocks are in memory.
 */
#ifndef PDB_TOOL_MATCH_PARALLEL_H
#define PDB_TOOL_MATCH_PARALLEL_H

#include "tool/line-reader.h"
#include "db/database.h"
#include "db/template.h"

#include <stdio.h>

G_BEGIN_DECLS

/* The default block size: big enough that handing a block over costs
 * nothing next to classifying it (about 9,000 lines of 114 bytes). */
#define PDB_MATCH_PARALLEL_BLOCK (1024 * 1024)

/*
 * Classifies every message of @reader on @n_threads (>= 1) worker threads
 * and appends the output to @out, flushed to @stream whenever it holds
 * more than @flush_bytes. @db, @tmpl and @template_text as for
 * pdb_match_direct_new(), which must have accepted them. @fallback is
 * called with @out (to append to) for each refused line, in order.
 * Returns FALSE if reading failed (the error is on stderr); everything
 * read before the error is classified and written.
 */
typedef void (*PdbMatchFallbackFunc)(const gchar *line, gsize length, gpointer user_data);

gboolean pdb_match_parallel(const PdbDatabase *db, const PdbTemplate *tmpl, const gchar *template_text,
                            PdbLineReader *reader, guint n_threads, gsize block_size,
                            GString *out, FILE *stream, gsize flush_bytes,
                            PdbMatchFallbackFunc fallback, gpointer fallback_data);

G_END_DECLS

#endif

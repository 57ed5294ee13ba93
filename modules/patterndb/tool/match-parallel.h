/*
 * match-parallel.h: `match -f` on several threads, with output
 * byte-identical to one thread.
 *
 *   main thread: read block k ──► queue ──► worker: classify block k into
 *                                            its own output buffer
 *   main thread: wait for block 0, write it; wait for block 1, write it ...
 *
 * Blocks end on message boundaries (line-reader.h), so each is cut into
 * the same messages as a single pass would cut the stream, and outputs are
 * written in input order. A worker may refuse a line it cannot print
 * exactly as one thread would (the short path: a header 3.38 cannot parse;
 * the general path: a line that meets a value name or tag the database
 * does not mention, whose print order depends on everything before it,
 * until the main thread has numbered it). A refused line is left in its
 * place and handed to the `refused` operation on the main thread when its
 * block is written, in input order, so state that follows the stream
 * stays on one thread. At most 2 x n_threads blocks are in memory.
 *
 * What a worker does with a line is the caller's (PdbMatchWorkers): this
 * file only moves blocks between threads and keeps the order.
 */
#ifndef PDB_TOOL_MATCH_PARALLEL_H
#define PDB_TOOL_MATCH_PARALLEL_H

#include "tool/line-reader.h"

#include <stdio.h>

G_BEGIN_DECLS

/* The default block size: big enough that handing a block over (a few
 * microseconds) costs nothing next to classifying it (about 2,300 lines of
 * 114 bytes, 230 microseconds and more), small enough that the ring's
 * outputs stay small: NAME=value output is about 10 times its input, and
 * the ring holds a block's output per thread, so the block size bounds
 * the peak RSS (which must stay at most pdbtool's at 100,000 rules). */
#define PDB_MATCH_PARALLEL_BLOCK (256 * 1024)

/* What `line` returns besides a status (>= 0, see `status`). */
enum
{
  PDB_MATCH_LINE_SILENT = -1,   /* handled; nothing for `status` (say, filtered out) */
  PDB_MATCH_LINE_REFUSED = -2,  /* not handled: nothing appended; `refused` gets it */
};

typedef struct
{
  /* On the main thread, once per worker: its own state. */
  gpointer (*worker_new)(gpointer data);
  void (*worker_free)(gpointer worker);
  /* On the worker's thread (may be NULL): before the first line of each block. */
  void (*block_begin)(gpointer worker);
  /* On the worker's thread: appends the output of one message to @out and
   * returns a status (>= 0), PDB_MATCH_LINE_SILENT, or PDB_MATCH_LINE_REFUSED
   * having appended nothing. */
  gint (*line)(gpointer worker, const gchar *line, gsize length, GString *out);
  /* On the main thread, in input order: handles a refused line, appending
   * its output to the `out` of pdb_match_parallel(). */
  void (*refused)(gpointer data, const gchar *line, gsize length);
  /* On the main thread (may be NULL): the status of the last message of a
   * block that returned one, in its place among the refused lines; the
   * caller keeps "the status of the last message" this way. */
  void (*status)(gpointer data, gint status);
  gpointer data;
} PdbMatchWorkers;

/*
 * Hands every message of @reader to @n_threads (>= 1) workers and appends
 * their output to @out in input order, flushed to @stream whenever it
 * holds more than @flush_bytes. Returns FALSE if reading failed (the error
 * is on stderr); everything read before the error is handled and written.
 */
gboolean pdb_match_parallel(const PdbMatchWorkers *ops, PdbLineReader *reader, guint n_threads,
                            gsize block_size, GString *out, FILE *stream, gsize flush_bytes);

G_END_DECLS

#endif

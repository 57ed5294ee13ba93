/*
 * match-parallel.c: the workers and the in-order writer of match-parallel.h.
 *
 * Ownership: the blocks (input, output, refused lines) belong to the main
 * thread's ring; a block is lent to one worker between its push on the
 * queue and `done`, and read by no one else meanwhile. Each worker owns a
 * PdbMatchDirect of its own (it keeps the current line's result); the
 * database and the template are shared read-only, and the program-name
 * cache of classify.c is per thread.
 */
#include "tool/match-parallel.h"
#include "tool/match-direct.h"
#include "tool/tool-common.h"

typedef struct
{
  gsize output_offset;     /* where its output belongs in the block's output */
  const gchar *line;       /* into the block's input */
  gsize length;
} RefusedLine;

typedef struct
{
  GString *input;
  GString *output;
  GArray *refused;         /* of RefusedLine, in input order */
  gboolean done;           /* under Pool.lock */
} Block;

typedef struct
{
  GAsyncQueue *queue;      /* of Block*; then one `stop` per worker */
  GMutex lock;
  GCond block_done;
} Pool;

typedef struct
{
  Pool *pool;
  PdbMatchDirect *direct;
  Block *block;            /* the one being classified */
  GThread *thread;
} Worker;

/* the queue's end marker (a queue cannot carry NULL) */
static Block stop;

static void
classify_line(const gchar *line, gsize length, gpointer user_data)
{
  Worker *worker = user_data;
  Block *block = worker->block;

  if (!pdb_match_direct_line(worker->direct, line, length, block->output))
    {
      RefusedLine refused = { block->output->len, line, length };

      g_array_append_val(block->refused, refused);
    }
}

static gpointer
worker_main(gpointer data)
{
  Worker *worker = data;
  Pool *pool = worker->pool;

  for (;;)
    {
      Block *block = g_async_queue_pop(pool->queue);

      if (block == &stop)
        return NULL;
      g_string_truncate(block->output, 0);
      g_array_set_size(block->refused, 0);
      worker->block = block;
      pdb_lines_foreach(block->input->str, block->input->len, classify_line, worker);
      g_mutex_lock(&pool->lock);
      block->done = TRUE;
      g_cond_broadcast(&pool->block_done);
      g_mutex_unlock(&pool->lock);
    }
}

static void
write_block(const Block *block, GString *out, FILE *stream, gsize flush_bytes,
            PdbMatchFallbackFunc fallback, gpointer fallback_data)
{
  gsize from = 0;

  for (guint i = 0; i < block->refused->len; i++)
    {
      const RefusedLine *refused = &g_array_index(block->refused, RefusedLine, i);

      g_string_append_len(out, block->output->str + from, refused->output_offset - from);
      fallback(refused->line, refused->length, fallback_data);
      from = refused->output_offset;
      pdb_tool_flush(out, stream, flush_bytes);
    }
  g_string_append_len(out, block->output->str + from, block->output->len - from);
  pdb_tool_flush(out, stream, flush_bytes);
}

gboolean
pdb_match_parallel(const PdbDatabase *db, const PdbTemplate *tmpl, const gchar *template_text,
                   PdbLineReader *reader, guint n_threads, gsize block_size,
                   GString *out, FILE *stream, gsize flush_bytes,
                   PdbMatchFallbackFunc fallback, gpointer fallback_data)
{
  Pool pool;
  guint n_blocks;
  Block *blocks;
  Worker *workers;
  guint64 next_read = 0, next_write = 0;
  gboolean more = TRUE;

  g_return_val_if_fail(n_threads >= 1, FALSE);
  n_blocks = 2 * n_threads;
  blocks = g_new0(Block, n_blocks);
  workers = g_new0(Worker, n_threads);
  pool.queue = g_async_queue_new();
  g_mutex_init(&pool.lock);
  g_cond_init(&pool.block_done);
  for (guint i = 0; i < n_blocks; i++)
    {
      blocks[i].input = g_string_sized_new(block_size + PDB_LINE_READ_CHUNK);
      blocks[i].output = g_string_new(NULL);
      blocks[i].refused = g_array_new(FALSE, FALSE, sizeof(RefusedLine));
    }
  for (guint i = 0; i < n_threads; i++)
    {
      workers[i].pool = &pool;
      workers[i].direct = pdb_match_direct_new(db, tmpl, template_text);
      g_assert(workers[i].direct);   /* the caller's own was accepted: the check is deterministic */
      workers[i].thread = g_thread_new("pdb-match", worker_main, &workers[i]);
    }

  for (;;)
    {
      /* keep every block of the ring read and queued */
      while (more && next_read - next_write < n_blocks)
        {
          Block *block = &blocks[next_read % n_blocks];

          if (!pdb_line_reader_next(reader, block->input, block_size))
            {
              more = FALSE;
              break;
            }
          g_mutex_lock(&pool.lock);
          block->done = FALSE;
          g_mutex_unlock(&pool.lock);
          g_async_queue_push(pool.queue, block);
          next_read++;
        }
      if (next_write == next_read)
        break;

      Block *block = &blocks[next_write % n_blocks];

      g_mutex_lock(&pool.lock);
      while (!block->done)
        g_cond_wait(&pool.block_done, &pool.lock);
      g_mutex_unlock(&pool.lock);
      write_block(block, out, stream, flush_bytes, fallback, fallback_data);
      next_write++;
    }

  for (guint i = 0; i < n_threads; i++)
    g_async_queue_push(pool.queue, &stop);
  for (guint i = 0; i < n_threads; i++)
    {
      g_thread_join(workers[i].thread);
      pdb_match_direct_free(workers[i].direct);
    }
  for (guint i = 0; i < n_blocks; i++)
    {
      g_string_free(blocks[i].input, TRUE);
      g_string_free(blocks[i].output, TRUE);
      g_array_free(blocks[i].refused, TRUE);
    }
  g_free(blocks);
  g_free(workers);
  g_async_queue_unref(pool.queue);
  g_mutex_clear(&pool.lock);
  g_cond_clear(&pool.block_done);
  return !pdb_line_reader_failed(reader);
}

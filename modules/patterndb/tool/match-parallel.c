/*
 * match-parallel.c: the workers and the in-order writer of match-parallel.h.
 *
 * Ownership: the blocks (input, output, refused lines) belong to the main
 * thread's ring; a block is lent to one worker between its push on the
 * queue and `done`, and read by no one else meanwhile. Each worker owns
 * the state ops->worker_new() made for it; whatever that state shares
 * (the database, the template) is only read.
 */
#include "tool/match-parallel.h"
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
  gint status;             /* of the block's last message that gave one; -1: none */
  guint status_after;      /* how many refused lines come before that message */
  gboolean done;           /* under Pool.lock */
} Block;

typedef struct
{
  const PdbMatchWorkers *ops;
  GAsyncQueue *queue;      /* of Block*; then one `stop` per worker */
  GMutex lock;
  GCond block_done;
} Pool;

typedef struct
{
  Pool *pool;
  gpointer state;          /* ops->worker_new()'s */
  Block *block;            /* the one being handled */
  GThread *thread;
} Worker;

/* the queue's end marker (a queue cannot carry NULL) */
static Block stop;

static void
handle_line(const gchar *line, gsize length, gpointer user_data)
{
  Worker *worker = user_data;
  Block *block = worker->block;
  gint status = worker->pool->ops->line(worker->state, line, length, block->output);

  if (status == PDB_MATCH_LINE_REFUSED)
    {
      RefusedLine refused = { block->output->len, line, length };

      g_array_append_val(block->refused, refused);
    }
  else if (status >= 0)
    {
      block->status = status;
      block->status_after = block->refused->len;
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
      block->status = -1;
      worker->block = block;
      if (pool->ops->block_begin)
        pool->ops->block_begin(worker->state);
      pdb_lines_foreach(block->input->str, block->input->len, handle_line, worker);
      g_mutex_lock(&pool->lock);
      block->done = TRUE;
      g_cond_broadcast(&pool->block_done);
      g_mutex_unlock(&pool->lock);
    }
}

/* The block's output with its refused lines handled in their places. */
static void
write_block(const PdbMatchWorkers *ops, const Block *block, GString *out, FILE *stream, gsize flush_bytes)
{
  gsize from = 0;

  for (guint i = 0; i <= block->refused->len; i++)
    {
      if (block->status >= 0 && block->status_after == i && ops->status)
        ops->status(ops->data, block->status);
      if (i == block->refused->len)
        break;

      const RefusedLine *refused = &g_array_index(block->refused, RefusedLine, i);

      g_string_append_len(out, block->output->str + from, refused->output_offset - from);
      ops->refused(ops->data, refused->line, refused->length);
      from = refused->output_offset;
      pdb_tool_flush(out, stream, flush_bytes);
    }
  g_string_append_len(out, block->output->str + from, block->output->len - from);
  pdb_tool_flush(out, stream, flush_bytes);
}

gboolean
pdb_match_parallel(const PdbMatchWorkers *ops, PdbLineReader *reader, guint n_threads,
                   gsize block_size, GString *out, FILE *stream, gsize flush_bytes)
{
  Pool pool = { .ops = ops };
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
      workers[i].state = ops->worker_new(ops->data);
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
      write_block(ops, block, out, stream, flush_bytes);
      next_write++;
    }

  for (guint i = 0; i < n_threads; i++)
    g_async_queue_push(pool.queue, &stop);
  for (guint i = 0; i < n_threads; i++)
    {
      g_thread_join(workers[i].thread);
      ops->worker_free(workers[i].state);
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

/*
 * insert-worker.c: a ruleset's patterns into its tree, at once or on a
 * second thread (see insert-worker.h for the hand-over and its rules).
 */
#include "db/insert-worker.h"
#include "db/database-private.h"

PdbInsertJob *
pdb_insert_job_new_task(void (*task)(gpointer data), gpointer data)
{
  PdbInsertJob *job = g_new0(PdbInsertJob, 1);

  job->task = task;
  job->task_data = data;
  return job;
}

PdbInsertJob *
pdb_insert_job_new(PdbRadix *tree, GPtrArray *rules, const gchar *file, gboolean quiet, PdbNameRegistry *names)
{
  PdbInsertJob *job = g_new0(PdbInsertJob, 1);

  job->tree = tree;
  job->rules = g_ptr_array_ref(rules);
  job->file = file;
  job->quiet = quiet;
  job->names = names;
  return job;
}

void
pdb_insert_job_free(PdbInsertJob *job)
{
  if (!job)
    return;
  if (job->rules)
    g_ptr_array_unref(job->rules);
  if (job->warnings)
    g_ptr_array_unref(job->warnings);
  g_free(job);
}

static void
register_capture_name(const gchar *name, gpointer registry)
{
  pdb_name_registry_add_name(registry, name, -1);
}

static void
job_warn(PdbInsertJob *job, const PdbLocation *where, const PdbRule *rule, const gchar *explanation)
{
  if (job->quiet)
    return;
  if (!job->warnings)
    job->warnings = g_ptr_array_new_with_free_func(g_free);
  g_ptr_array_add(job->warnings, g_strdup_printf("%s:%d:%d: rule '%s': %s", job->file, where->line,
                                                 where->column, rule->id, explanation));
}

void
pdb_insert_job_run(PdbInsertJob *job)
{
  for (guint i = 0; i < job->rules->len; i++)
    {
      PdbRule *rule = g_ptr_array_index(job->rules, i);

      for (guint p = 0; p < rule->n_patterns; p++)
        {
          const gchar *pattern = rule->pattern_places[p].text;
          const PdbLocation *location = &rule->pattern_places[p].at;
          GError *error = NULL;

          /* the registry hears the names from the engine's parse; a
           * pattern that fails is read again by the registry's own scan,
           * which adds nothing it already holds */
          if (pdb_radix_insert_telling_names(job->tree, pattern, rule, location,
                                             job->names ? register_capture_name : NULL, job->names, &error))
            continue;
          pdb_name_registry_add_pattern(job->names, pattern);

          PdbLocation where;
          const gchar *explanation =
            pdb_split_engine_location(error->message, location, &rule->pattern_places[p].start, &where);

          job_warn(job, &where, rule, explanation);
          g_error_free(error);
        }
    }
}

void
pdb_insert_job_give_warnings(const PdbInsertJob *job, const PdbLoadOptions *options, const gchar *file,
                             GPtrArray *held)
{
  for (guint i = 0; job->warnings && i < job->warnings->len; i++)
    {
      const gchar *warning = g_ptr_array_index(job->warnings, i);

      if (held && job->file == file)
        g_ptr_array_add(held, g_strdup(warning));
      else
        pdb_database_warn(options, "%s", warning);
    }
}

/* ---- the worker thread ------------------------------------------------- */

struct _PdbInsertWorker
{
  GThread *thread;
  GMutex lock;             /* guards everything below */
  GCond changed;           /* a job queued or done, or stop */
  GQueue todo;             /* of PdbInsertJob*, not started */
  GPtrArray *done;         /* of PdbInsertJob*, run, in queue order */
  gboolean running;        /* the thread runs a job it took from todo */
  gboolean stop;
  guint64 n_done;          /* jobs run so far (job n is the n-th queued, from 1) */
  gsize bound_total;       /* what the jobs run so far added to their trees' blob bounds */
  /* the queueing thread's only (no lock): */
  guint64 n_queued;
  GHashTable *last_job;    /* tree -> the number of the last job queued for it */
};

static gpointer
worker_main(gpointer data)
{
  PdbInsertWorker *worker = data;

  g_mutex_lock(&worker->lock);
  for (;;)
    {
      PdbInsertJob *job = g_queue_pop_head(&worker->todo);

      if (!job)
        {
          if (worker->stop)
            break;
          g_cond_wait(&worker->changed, &worker->lock);
          continue;
        }
      worker->running = TRUE;
      g_mutex_unlock(&worker->lock);
      gsize bound_before = job->tree ? pdb_radix_get_blob_bound(job->tree) : 0;

      if (job->task)
        job->task(job->task_data);
      else
        pdb_insert_job_run(job);
      gsize bound_added = job->tree ? pdb_radix_get_blob_bound(job->tree) - bound_before : 0;
      g_mutex_lock(&worker->lock);
      worker->running = FALSE;
      worker->n_done++;
      worker->bound_total += bound_added;
      g_ptr_array_add(worker->done, job);
      g_cond_broadcast(&worker->changed);
    }
  g_mutex_unlock(&worker->lock);
  return NULL;
}

PdbInsertWorker *
pdb_insert_worker_new(void)
{
  PdbInsertWorker *worker = g_new0(PdbInsertWorker, 1);

  g_mutex_init(&worker->lock);
  g_cond_init(&worker->changed);
  g_queue_init(&worker->todo);
  worker->done = g_ptr_array_new_with_free_func((GDestroyNotify) pdb_insert_job_free);
  worker->last_job = g_hash_table_new(NULL, NULL);
  worker->thread = g_thread_new("pdb-insert", worker_main, worker);
  return worker;
}

void
pdb_insert_worker_queue(PdbInsertWorker *worker, PdbInsertJob *job)
{
  worker->n_queued++;
  if (job->tree)
    g_hash_table_insert(worker->last_job, job->tree, GSIZE_TO_POINTER((gsize) worker->n_queued));
  g_mutex_lock(&worker->lock);
  g_queue_push_tail(&worker->todo, job);
  g_cond_broadcast(&worker->changed);
  g_mutex_unlock(&worker->lock);
}

void
pdb_insert_worker_wait_for(PdbInsertWorker *worker, PdbRadix *tree)
{
  guint64 last = (guint64) GPOINTER_TO_SIZE(g_hash_table_lookup(worker->last_job, tree));

  g_mutex_lock(&worker->lock);
  while (worker->n_done < last)
    g_cond_wait(&worker->changed, &worker->lock);
  g_mutex_unlock(&worker->lock);
}

static gsize
bound_so_far(PdbInsertWorker *worker)
{
  g_mutex_lock(&worker->lock);
  gsize total = worker->bound_total;
  g_mutex_unlock(&worker->lock);
  return total;
}

GPtrArray *
pdb_insert_worker_drain(PdbInsertWorker *worker)
{
  GPtrArray *done;

  g_mutex_lock(&worker->lock);
  while (worker->running || !g_queue_is_empty(&worker->todo))
    g_cond_wait(&worker->changed, &worker->lock);
  done = worker->done;
  worker->done = g_ptr_array_new_with_free_func((GDestroyNotify) pdb_insert_job_free);
  g_mutex_unlock(&worker->lock);
  return done;
}

void
pdb_insert_worker_free(PdbInsertWorker *worker)
{
  if (!worker)
    return;
  g_mutex_lock(&worker->lock);
  worker->stop = TRUE;
  g_cond_broadcast(&worker->changed);
  g_mutex_unlock(&worker->lock);
  /* the thread runs the jobs still queued, then ends */
  g_thread_join(worker->thread);
  g_ptr_array_unref(worker->done);
  g_hash_table_destroy(worker->last_job);
  g_mutex_clear(&worker->lock);
  g_cond_clear(&worker->changed);
  g_free(worker);
}

/* ---- the database's side (database-private.h) ------------------------- */

guint
pdb_database_load_threads(const PdbLoadOptions *options)
{
  if (options && options->load_threads == 1)
    return 1;
  return g_get_num_processors() >= 2 ? 2 : 1;
}

void
pdb_database_collect_inserts(PdbDatabase *db, const PdbLoadOptions *options, const gchar *file, GPtrArray *held)
{
  if (!db->insert_worker)
    return;

  GPtrArray *jobs = pdb_insert_worker_drain(db->insert_worker);

  for (guint i = 0; i < jobs->len; i++)
    pdb_insert_job_give_warnings(g_ptr_array_index(jobs, i), options, file, held);
  g_ptr_array_unref(jobs);
  pdb_name_registry_settle(db->names);
}

void
pdb_database_stop_inserts(PdbDatabase *db)
{
  pdb_insert_worker_free(g_steal_pointer(&db->insert_worker));
}

/* ---- freezing on both threads ------------------------------------------ */

/* The rulesets' trees not claimed yet: [next, end). This thread takes them
 * from the front, the worker from the back. */
typedef struct
{
  GMutex lock;
  PdbRadix **trees;
  guint next, end;
  PdbInsertWorker *worker;
} FreezeClaims;

static PdbRadix *
claim(FreezeClaims *claims, gboolean from_front)
{
  PdbRadix *tree = NULL;

  g_mutex_lock(&claims->lock);
  if (claims->next < claims->end)
    tree = from_front ? claims->trees[claims->next++] : claims->trees[--claims->end];
  g_mutex_unlock(&claims->lock);
  return tree;
}

/* A block for one thread's trees: as pdb_radix_freeze_together() decides,
 * from the blob bounds of the jobs run so far (a tree's bound is read
 * only on the worker, or after its last job); address space only, so
 * twice that, as either thread may end up freezing nearly all trees and
 * the trees still being inserted grow. */
static PdbBlobRegion *
block_for(PdbInsertWorker *worker)
{
  gsize total = bound_so_far(worker);

  return pdb_radix_block_new(total >= PDB_BLOB_REGION_MIN ? 2 * total + PDB_BLOB_REGION_MIN : 0);
}

/* On the worker, after its last insert job: every tree is complete. */
static void
freeze_from_back(gpointer data)
{
  FreezeClaims *claims = data;
  PdbBlobRegion *block = block_for(claims->worker);
  PdbRadix *tree;

  while ((tree = claim(claims, FALSE)))
    pdb_radix_freeze_in(tree, block);
  pdb_radix_block_done(block);
}

void
pdb_database_freeze_rulesets(PdbDatabase *db, const PdbLoadOptions *options)
{
  PdbInsertWorker *worker = db->insert_worker;

  if (!worker)
    return;

  FreezeClaims claims = { .trees = g_new(PdbRadix *, MAX(db->rulesets->len, 1)), .end = db->rulesets->len,
                          .worker = worker };

  g_mutex_init(&claims.lock);
  for (guint i = 0; i < db->rulesets->len; i++)
    claims.trees[i] = ((PdbRuleset *) g_ptr_array_index(db->rulesets, i))->messages;
  pdb_insert_worker_queue(worker, pdb_insert_job_new_task(freeze_from_back, &claims));

  PdbBlobRegion *block = block_for(worker);
  PdbRadix *tree;

  while ((tree = claim(&claims, TRUE)))
    {
      pdb_insert_worker_wait_for(worker, tree);
      pdb_radix_freeze_in(tree, block);
    }
  pdb_radix_block_done(block);
  /* waits for the worker's half, then gives the jobs' warnings */
  pdb_database_collect_inserts(db, options, NULL, NULL);
  g_mutex_clear(&claims.lock);
  g_free(claims.trees);
}

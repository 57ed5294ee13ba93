/*
 * insert-worker.c: a ruleset's patterns into its tree, at once or on a
 * second thread (see insert-worker.h for the hand-over and its rules).
 */
#include "db/insert-worker.h"
#include "db/database-private.h"

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
      pdb_insert_job_run(job);
      g_mutex_lock(&worker->lock);
      worker->running = FALSE;
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
  worker->thread = g_thread_new("pdb-insert", worker_main, worker);
  return worker;
}

void
pdb_insert_worker_queue(PdbInsertWorker *worker, PdbInsertJob *job)
{
  g_mutex_lock(&worker->lock);
  g_queue_push_tail(&worker->todo, job);
  g_cond_broadcast(&worker->changed);
  g_mutex_unlock(&worker->lock);
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

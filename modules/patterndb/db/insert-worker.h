/*
 * insert-worker.h: putting a finished ruleset's patterns into its tree,
 * either at once or on a second thread while the loader reads on.
 *
 *   loader thread                              worker thread
 *   -------------                              -------------
 *   </ruleset>  -> job {tree, rules} -> queue -> pdb_insert_job_run()
 *   reads the next ruleset ...                   (tree, capture names,
 *   a warning of its own, end of a file            warnings into the job)
 *   or of the pass: drain  <- jobs done, in queue order
 *   -> the jobs' warnings are given, their names settled (name-registry.h)
 *
 * Loading 100,000 rules spends about 30% of its instructions inserting
 * patterns; on a second core that part overlaps with reading the XML.
 *
 * Invariants:
 * - While a job is queued or running, its tree and its rules belong to the
 *   worker: the loader touches a message tree only to queue a job for it
 *   and reads a rule no more once its ruleset has ended. Jobs run one at
 *   a time in queue order, so two rulesets that share a tree (the same
 *   program <pattern>) are inserted in file order.
 * - A job's warnings and capture names reach the database only on the
 *   loader's thread, at a drain, in queue order; a drain comes before any
 *   warning of the loader's own, so the output is byte for byte what
 *   inserting at once gives.
 * - The database's name registry takes each job's names as a part
 *   (pdb_name_registry_add_part()), so names the loader adds meanwhile
 *   keep their place behind them.
 */
#ifndef PDB_DB_INSERT_WORKER_H
#define PDB_DB_INSERT_WORKER_H

#include "db/database.h"
#include "db/name-registry.h"
#include "engine/radix.h"

G_BEGIN_DECLS

typedef struct _PdbInsertJob
{
  PdbRadix *tree;          /* the ruleset's message tree */
  GPtrArray *rules;        /* of PdbRule*, a reference; the rules are the database's */
  const gchar *file;       /* owned by the database, for the warnings */
  gboolean quiet;          /* the file's warnings are not given */
  PdbNameRegistry *names;  /* the capture names go here; NULL: nowhere */
  GPtrArray *warnings;     /* of gchar*, "file:line:column: text", filled by the run */
  void (*task)(gpointer data); /* a job that is no insert (then tree and rules are NULL) */
  gpointer task_data;
} PdbInsertJob;

/* A job for @rules of @file into @tree (all borrowed but @rules, which is
 * referenced); @names may be NULL. */
PdbInsertJob *pdb_insert_job_new(PdbRadix *tree, GPtrArray *rules, const gchar *file, gboolean quiet,
                                 PdbNameRegistry *names);
/* A job that runs @task(@data) on the worker after the jobs before it. */
PdbInsertJob *pdb_insert_job_new_task(void (*task)(gpointer data), gpointer data);
/* Inserts every pattern of the job's rules, rule by rule, into its tree. */
void pdb_insert_job_run(PdbInsertJob *job);
void pdb_insert_job_free(PdbInsertJob *job);
/* On the loader's thread: gives @job's warnings through @options, or
 * appends copies to @held when it is the warnings of @file (the file being
 * read, whose warnings are held back) that @job holds. */
void pdb_insert_job_give_warnings(const PdbInsertJob *job, const PdbLoadOptions *options,
                                  const gchar *file, GPtrArray *held);

/* Loading below this many bytes of XML in a file keeps one thread: the
 * thread's start and the hand-overs would cost more than they save. */
#define PDB_INSERT_WORKER_MIN_FILE (1024 * 1024)

typedef struct _PdbInsertWorker PdbInsertWorker;

PdbInsertWorker *pdb_insert_worker_new(void);
/* Hands @job over to the worker thread (it runs after every earlier job). */
void pdb_insert_worker_queue(PdbInsertWorker *worker, PdbInsertJob *job);
/* Waits until the last job queued for @tree has run (on the queueing
 * thread). */
void pdb_insert_worker_wait_for(PdbInsertWorker *worker, PdbRadix *tree);
/* Waits until every queued job has run; returns them (of PdbInsertJob*,
 * in queue order; free with g_ptr_array_unref). */
GPtrArray *pdb_insert_worker_drain(PdbInsertWorker *worker);
/* Waits for the queued jobs, drops them and ends the thread. */
void pdb_insert_worker_free(PdbInsertWorker *worker);

G_END_DECLS

#endif

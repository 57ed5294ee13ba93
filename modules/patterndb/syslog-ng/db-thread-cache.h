/*
 * db-thread-cache.h: a parser's current database, and the per-thread
 * cache that lets messages use it without a lock or a shared counter.
 *
 * A PdbSngCurrentDb holds one parser's current PdbSngDb (a reference) and
 * the generation it was installed under. A reload swaps it
 * (pdb_sng_current_db_swap()); threads that classify messages keep their
 * own references in a PdbSngThreadCache and notice a swap through a global
 * epoch (see db-thread-cache.c for the protocol and why it is safe).
 *
 * Use on a message (any thread):
 *   tc = pdb_sng_thread_cache_get();
 *   db = pdb_sng_thread_cache_enter(tc, current, &counted);
 *   ... classify with db (may be NULL: no database) ...
 *   pdb_sng_thread_cache_leave(tc, db, counted);
 * Calls may nest (a generated message runs another parser on the same
 * thread); each enter needs its leave.
 */
#ifndef PDB_SNG_DB_THREAD_CACHE_H
#define PDB_SNG_DB_THREAD_CACHE_H

#include "loaded-db.h"

typedef struct _PdbSngCurrentDb
{
  GMutex lock;                  /* guards `db` and `generation`, never a lookup */
  PdbSngDb *db;                 /* a reference; NULL before the first swap */
  guint64 generation;           /* names (this holder, db); 0 while db is NULL */
} PdbSngCurrentDb;

typedef struct _PdbSngThreadCache PdbSngThreadCache;

void pdb_sng_current_db_init(PdbSngCurrentDb *self);
/* After pdb_sng_current_db_retire(). */
void pdb_sng_current_db_clear(PdbSngCurrentDb *self);
/* TRUE if a database is installed. */
gboolean pdb_sng_current_db_is_set(PdbSngCurrentDb *self);
/* A reference to the current database (the caller drops it), or NULL. */
PdbSngDb *pdb_sng_current_db_acquire(PdbSngCurrentDb *self);
/* Installs @db (a reference taken over; may be NULL) under a new generation
 * and drops the old database. */
void pdb_sng_current_db_swap(PdbSngCurrentDb *self, PdbSngDb *db);
/* Uninstalls the current database (every thread drops its reference on its
 * next message) and hands its reference to the caller (NULL if none). On
 * the main loop thread outside any message, that thread's own cache drops
 * its references at once. */
PdbSngDb *pdb_sng_current_db_retire(PdbSngCurrentDb *self);

/* This thread's cache (created on first use, freed when the thread exits). */
PdbSngThreadCache *pdb_sng_thread_cache_get(void);
/* The database of @current for one message on this thread, or NULL. Sets
 * *@counted when the caller holds a reference (leave() drops it); else the
 * database is borrowed from the cache until leave(). */
PdbSngDb *pdb_sng_thread_cache_enter(PdbSngThreadCache *tc, PdbSngCurrentDb *current, gboolean *counted);
void pdb_sng_thread_cache_leave(PdbSngThreadCache *tc, PdbSngDb *db, gboolean counted);
/* The monotonic second for a message received at wall-clock second
 * @received: read from the clock once per thread and received second (so
 * a reader of it may act up to a second late; the clock is not read for
 * every message). */
gint pdb_sng_thread_now(PdbSngThreadCache *tc, gint64 received);

#endif

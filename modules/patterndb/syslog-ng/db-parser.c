/*
 * db-parser.c: the db-parser() / patterndb() LogParser: classify each
 * message with the pattern database and write the result into it.
 *
 * Invariants:
 * - The current database (self->db) is an immutable, reference-counted
 *   PdbSngDb. A reload builds the new database aside and swaps the pointer
 *   under db_lock; readers still using the old one finish with it, the
 *   last unref frees it. A message normally takes no lock and touches no
 *   shared counter: each thread keeps its own reference to the database of
 *   each parser it ran (see "the per-thread database cache" below), checked
 *   against a global epoch that changes whenever some parser's database is
 *   replaced or a parser stops, so any number of threads match at once.
 * - A database that fails to load never replaces a working one: the old
 *   one stays active and the error (file:line:column) is logged.
 * - Across a configuration reload (SIGHUP, syslog-ng-ctl reload) the loaded
 *   database is handed to the new parser through the persist store and is
 *   reused when its files are unchanged, re-read when they changed.
 * - Between reloads, at most every PDB_SNG_CHECK_INTERVAL seconds (the
 *   environment variable PATTERNDB_CHECK_INTERVAL, 1-3600, overrides it for
 *   stress tests; read once per process) one
 *   message-processing thread (single flight: a CAS on `checking`) stats the
 *   files and reloads if they changed; the others go on with the old tree.
 * - At startup (no database handed over) a missing or broken file is fatal:
 *   init() fails, so syslog-ng refuses to start instead of running with an
 *   empty classifier. `syslog-ng -s` only parses and so still passes.
 * - Correlation (contexts, actions) lives in self->corr, a PdbCorrelation
 *   with its own lock; it is handed to the new parser across a reload
 *   through the persist store (key: persist key + ",correlation"), so open
 *   contexts survive SIGHUP. A 1 s timer in the main loop adds the real
 *   time elapsed to the correlation clock while no message moves it.
 *   Synthetic messages go, by inject-mode(): pass-through and
 *   aggregate-only: forwarded to the next element of the log path (emitted
 *   while the triggering message is processed, so ahead of it);
 *   internal: posted to internal(). aggregate-only drops every classified
 *   message itself.
 */
#include "db-parser.h"
#include "loaded-db.h"
#include "message-ops.h"
#include "sng-correlation.h"

#include "logmsg/nvtable.h"
#include "scratch-buffers.h"
#include "reloc.h"
#include "messages.h"
#include "cfg.h"

#include <iv.h>
#include <string.h>
#include <time.h>

#define PDB_SNG_CHECK_INTERVAL 5
#define PDB_SNG_DEFAULT_FILE "${localstatedir}/patterndb.xml"

typedef struct _PdbSngParser
{
  LogParser super;

  /* options (set while parsing the configuration) */
  gchar *file;
  gchar *prefix;
  gboolean drop_unmatched;
  LogTemplate *program_template;
  PdbSngInjectMode inject_mode;
  guint context_limit;          /* 0: the library's default */

  /* state */
  GMutex db_lock;               /* guards `db` and `generation`, never a lookup */
  PdbSngDb *db;                 /* current database; NULL before init() */
  guint64 generation;           /* names (this parser, db); 0 while db is NULL */
  gint next_check;              /* monotonic second of the next file check (atomic) */
  gint checking;                /* 1 while one thread checks the files (atomic) */
  PdbSngStamps *failed_stamps;  /* files as they were when a reload last failed;
                                 * touched only by the thread holding `checking`
                                 * or by init() */
  gchar *persist_key;
  guint clones;                 /* clones made of this parser so far */
  guint clone_index;            /* 1..n for the n-th clone (one per reference
                                 * of a named parser), 0 if not a clone */
  PdbCorrelation *corr;         /* contexts; NULL before init() */
  struct iv_timer tick;         /* the 1 s correlation timer */
  gint64 last_tick;             /* wall-clock second of the last tick */
} PdbSngParser;

void
pdb_sng_parser_set_file(LogParser *s, const gchar *path)
{
  PdbSngParser *self = (PdbSngParser *) s;

  g_free(self->file);
  self->file = g_strdup(path);
}

void
pdb_sng_parser_set_drop_unmatched(LogParser *s, gboolean drop_unmatched)
{
  ((PdbSngParser *) s)->drop_unmatched = drop_unmatched;
}

void
pdb_sng_parser_set_program_template(LogParser *s, LogTemplate *program_template)
{
  PdbSngParser *self = (PdbSngParser *) s;

  log_template_unref(self->program_template);
  self->program_template = program_template;
}

gboolean
pdb_sng_parser_set_inject_mode(LogParser *s, const gchar *mode)
{
  PdbSngParser *self = (PdbSngParser *) s;
  gchar *norm = g_strdup(mode);

  g_strdelimit(norm, "_", '-');
  gboolean ok = TRUE;
  if (strcmp(norm, "pass-through") == 0)
    self->inject_mode = PDB_SNG_INJECT_PASS_THROUGH;
  else if (strcmp(norm, "internal") == 0)
    self->inject_mode = PDB_SNG_INJECT_INTERNAL;
  else if (strcmp(norm, "aggregate-only") == 0)
    self->inject_mode = PDB_SNG_INJECT_AGGREGATE_ONLY;
  else
    ok = FALSE;
  g_free(norm);
  return ok;
}

void
pdb_sng_parser_set_context_limit(LogParser *s, guint limit)
{
  ((PdbSngParser *) s)->context_limit = limit;
}

void
pdb_sng_parser_set_prefix(LogParser *s, const gchar *prefix)
{
  PdbSngParser *self = (PdbSngParser *) s;

  g_free(self->prefix);
  self->prefix = (prefix && *prefix) ? g_strdup(prefix) : NULL;
}

/* --- the current database ------------------------------------------------ */

/* A reference to the current database, taken under db_lock (slow path). */
static PdbSngDb *
pdb_sng_parser_acquire_db(PdbSngParser *self)
{
  PdbSngDb *db;

  g_mutex_lock(&self->db_lock);
  db = self->db ? pdb_sng_db_ref(self->db) : NULL;
  g_mutex_unlock(&self->db_lock);
  return db;
}

/*
 * The per-thread database cache.
 *
 * Every (parser, database) pair installed gets a generation number, unique
 * in the process (pdb_sng_next_generation never repeats). The set of
 * generations still installed somewhere is pdb_sng_live; whenever one leaves
 * it (a swap or a parser's deinit) the global pdb_sng_epoch is incremented.
 * All three are changed under pdb_sng_live_lock.
 *
 * Each thread has a few slots (parser, generation, database reference) and
 * the epoch at which it last checked them all against pdb_sng_live. On a
 * message: if the epoch is unchanged, every slot is still installed, so a
 * slot whose parser is this one holds this parser's current database; the
 * thread uses it without a lock or a reference count (the slot's reference
 * keeps it alive, and only this thread drops it). Otherwise (or when there
 * is no slot for this parser yet) the thread takes the slow path: under
 * pdb_sng_live_lock it reads the epoch and drops every slot whose
 * generation is gone (their references are released after the lock), then
 * takes a reference to the parser's database and its generation under
 * db_lock, and records the epoch it read.
 *
 * Why this is safe and prompt (memory ordering): a swap first publishes the
 * new database and generation under db_lock, then removes the old
 * generation and increments the epoch under pdb_sng_live_lock. The slow
 * path reads the epoch (under pdb_sng_live_lock) before it reads the
 * parser's generation (under db_lock). So if it picks up the old
 * generation, the swap's epoch increment comes after the epoch it recorded
 * and the next message sees a changed epoch; if it picks up the new one, it
 * is current. The fast path reads the epoch with an atomic load (a full
 * barrier in glib): a thread that does not see an increment yet classifies
 * that one message with the database it holds a reference to, exactly like
 * a message that was in flight during the swap. Nothing a thread uses is
 * ever freed under it: only the thread itself drops its slots' references.
 * A parser is never freed while a generation of it is live (deinit retires
 * it), so comparing slot->parser with self is meaningful for live slots.
 *
 * Nesting: a message emitted by correlation may run another parser (or
 * this one) on the same thread while the outer call uses a borrowed
 * database; slots are therefore only dropped by an outermost call (depth
 * 1, before it picks its own database) or outside process() (depth 0, the
 * main loop in deinit). A nested call that would have to drop one takes a
 * counted reference the old way (pdb_sng_parser_acquire_db()) instead.
 * With more parsers on a thread than slots, the oldest slot makes room.
 *
 * Memory: an idle thread keeps its references until it handles its next
 * message (any parser) or exits (the GPrivate destructor drops them). A
 * parser's deinit drops the main loop thread's own slots at once.
 */
#define PDB_SNG_THREAD_SLOTS 8

typedef struct _PdbSngSlot
{
  const PdbSngParser *parser;
  guint64 generation;
  PdbSngDb *db;                 /* a reference */
} PdbSngSlot;

typedef struct _PdbSngThreadCache
{
  gint epoch;                   /* pdb_sng_epoch when the slots were last checked */
  guint depth;                  /* process() calls running on this thread */
  guint n_slots;
  PdbSngSlot slots[PDB_SNG_THREAD_SLOTS];
  gint64 received;              /* pdb_sng_thread_now(): last wall-clock second seen */
  gint now;                     /* and the monotonic second read then (0: none yet) */
} PdbSngThreadCache;

static GMutex pdb_sng_live_lock;
static GHashTable *pdb_sng_live;        /* of guint64* generations installed */
static guint64 pdb_sng_next_generation = 1;
static gint pdb_sng_epoch;

static void pdb_sng_thread_cache_free(gpointer p);
static GPrivate pdb_sng_thread_cache_key = G_PRIVATE_INIT(pdb_sng_thread_cache_free);
static _Thread_local PdbSngThreadCache *pdb_sng_thread_cache;

static void
pdb_sng_thread_cache_free(gpointer p)
{
  PdbSngThreadCache *tc = p;

  for (guint i = 0; i < tc->n_slots; i++)
    pdb_sng_db_unref(tc->slots[i].db);
  if (pdb_sng_thread_cache == tc)
    pdb_sng_thread_cache = NULL;
  g_free(tc);
}

/* Under pdb_sng_live_lock: a new generation, recorded as installed. */
static guint64
pdb_sng_live_add_locked(void)
{
  guint64 *generation = g_new(guint64, 1);

  if (!pdb_sng_live)
    pdb_sng_live = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
  *generation = pdb_sng_next_generation++;
  g_hash_table_add(pdb_sng_live, generation);
  return *generation;
}

/* Under pdb_sng_live_lock: @generation is no longer installed anywhere. */
static void
pdb_sng_live_retire_locked(guint64 generation)
{
  if (generation && pdb_sng_live && g_hash_table_remove(pdb_sng_live, &generation))
    g_atomic_int_inc(&pdb_sng_epoch);
}

/* Installs @db (a reference the parser takes over; may be NULL) under a new
 * generation and drops the old one. */
static void
pdb_sng_parser_swap_db(PdbSngParser *self, PdbSngDb *db)
{
  PdbSngDb *old;
  guint64 old_generation, generation = 0;

  if (db)
    {
      g_mutex_lock(&pdb_sng_live_lock);
      generation = pdb_sng_live_add_locked();
      g_mutex_unlock(&pdb_sng_live_lock);
    }
  g_mutex_lock(&self->db_lock);
  old = self->db;
  old_generation = self->generation;
  self->db = db;
  self->generation = generation;
  g_mutex_unlock(&self->db_lock);
  g_mutex_lock(&pdb_sng_live_lock);
  pdb_sng_live_retire_locked(old_generation);
  g_mutex_unlock(&pdb_sng_live_lock);
  pdb_sng_db_unref(old);
}

/* Drops the slots whose generation is gone; records the epoch. Never while
 * an outer process() call on this thread may use a slot (see above). */
static void
pdb_sng_thread_cache_sweep(PdbSngThreadCache *tc)
{
  PdbSngDb *dropped[PDB_SNG_THREAD_SLOTS];
  guint n_dropped = 0, kept = 0;

  g_mutex_lock(&pdb_sng_live_lock);
  tc->epoch = g_atomic_int_get(&pdb_sng_epoch);
  for (guint i = 0; i < tc->n_slots; i++)
    {
      if (pdb_sng_live && g_hash_table_contains(pdb_sng_live, &tc->slots[i].generation))
        tc->slots[kept++] = tc->slots[i];
      else
        dropped[n_dropped++] = tc->slots[i].db;
    }
  tc->n_slots = kept;
  g_mutex_unlock(&pdb_sng_live_lock);
  /* the last reference to a big database may take a while to release */
  for (guint i = 0; i < n_dropped; i++)
    pdb_sng_db_unref(dropped[i]);
}

static PdbSngThreadCache *
pdb_sng_thread_cache_get(void)
{
  PdbSngThreadCache *tc = pdb_sng_thread_cache;

  if (G_UNLIKELY(!tc))
    {
      tc = g_new0(PdbSngThreadCache, 1);
      tc->epoch = -1;
      g_private_set(&pdb_sng_thread_cache_key, tc);
      pdb_sng_thread_cache = tc;
    }
  return tc;
}

/*
 * The database for one message on this thread. Returns NULL when the parser
 * has none; sets *counted when the caller owns a reference (to drop with
 * pdb_sng_db_unref()), else the database is borrowed from the thread's
 * cache for the duration of this process() call.
 */
static PdbSngDb *
pdb_sng_parser_use_db(PdbSngParser *self, PdbSngThreadCache *tc, gboolean *counted)
{
  *counted = FALSE;
  if (G_LIKELY(tc->epoch == g_atomic_int_get(&pdb_sng_epoch)))
    {
      for (guint i = 0; i < tc->n_slots; i++)
        if (tc->slots[i].parser == self)
          return tc->slots[i].db;
    }
  else if (tc->depth == 1)
    pdb_sng_thread_cache_sweep(tc);
  else
    {
      /* nested: the outer call may be using a slot we cannot drop now */
      *counted = TRUE;
      return pdb_sng_parser_acquire_db(self);
    }

  if (tc->epoch != g_atomic_int_get(&pdb_sng_epoch))
    {
      /* changed again meanwhile */
      *counted = TRUE;
      return pdb_sng_parser_acquire_db(self);
    }
  for (guint i = 0; i < tc->n_slots; i++)
    if (tc->slots[i].parser == self)
      return tc->slots[i].db;
  if (tc->n_slots == PDB_SNG_THREAD_SLOTS)
    {
      /* more parsers on this thread than slots: the oldest slot makes room,
       * unless an outer call may be using it */
      if (tc->depth != 1)
        {
          *counted = TRUE;
          return pdb_sng_parser_acquire_db(self);
        }
      PdbSngDb *oldest = tc->slots[0].db;
      memmove(&tc->slots[0], &tc->slots[1], (PDB_SNG_THREAD_SLOTS - 1) * sizeof(PdbSngSlot));
      tc->n_slots--;
      pdb_sng_db_unref(oldest);
    }

  PdbSngSlot *slot = &tc->slots[tc->n_slots];
  g_mutex_lock(&self->db_lock);
  slot->db = self->db ? pdb_sng_db_ref(self->db) : NULL;
  slot->generation = self->generation;
  g_mutex_unlock(&self->db_lock);
  if (!slot->db)
    return NULL;
  slot->parser = self;
  tc->n_slots++;
  return slot->db;
}

/* Stops this parser's generation (every thread drops its slot on its next
 * message) and hands the parser's reference to its database to the caller. */
static PdbSngDb *
pdb_sng_parser_retire(PdbSngParser *self)
{
  PdbSngDb *db;
  guint64 generation;

  g_mutex_lock(&self->db_lock);
  db = self->db;
  generation = self->generation;
  self->db = NULL;
  self->generation = 0;
  g_mutex_unlock(&self->db_lock);
  g_mutex_lock(&pdb_sng_live_lock);
  pdb_sng_live_retire_locked(generation);
  g_mutex_unlock(&pdb_sng_live_lock);
  /* the calling thread (the main loop) drops its own slots now */
  PdbSngThreadCache *tc = pdb_sng_thread_cache;
  if (tc && tc->depth == 0)
    pdb_sng_thread_cache_sweep(tc);
  return db;
}

static gint
pdb_sng_check_interval(void)
{
  static gsize once;
  static gint interval = PDB_SNG_CHECK_INTERVAL;

  if (g_once_init_enter(&once))
    {
      const gchar *text = g_getenv("PATTERNDB_CHECK_INTERVAL");
      gint64 value = text ? g_ascii_strtoll(text, NULL, 10) : 0;

      if (value >= 1 && value <= 3600)
        interval = (gint) value;
      g_once_init_leave(&once, 1);
    }
  return interval;
}

static gint
pdb_sng_now_seconds(void)
{
  return (gint) (g_get_monotonic_time() / G_USEC_PER_SEC);
}

static const gchar *
pdb_sng_parser_get_file(PdbSngParser *self)
{
  return self->file ? self->file : get_installation_path_for(PDB_SNG_DEFAULT_FILE);
}

/* Called by the one thread that won `checking`. */
static void
pdb_sng_parser_check_files(PdbSngParser *self)
{
  PdbSngDb *db = pdb_sng_parser_acquire_db(self);

  if (!db)
    return;

  PdbSngStamps *now = pdb_sng_db_stamp_files_now(db);
  if (pdb_sng_db_matches(db, now)
      || (self->failed_stamps && pdb_sng_stamps_equal(self->failed_stamps, now)))
    {
      pdb_sng_stamps_free(now);
      pdb_sng_db_unref(db);
      return;
    }

  GError *error = NULL;
  PdbSngDb *fresh = pdb_sng_db_load(pdb_sng_parser_get_file(self), self->prefix,
                                    log_pipe_get_config(&self->super.super), &error);
  if (fresh)
    {
      msg_notice("patterndb: pattern database changed on disk, reloaded",
                 evt_tag_str("file", pdb_sng_parser_get_file(self)));
      pdb_sng_stamps_free(self->failed_stamps);
      self->failed_stamps = NULL;
      pdb_sng_stamps_free(now);
      pdb_sng_parser_swap_db(self, fresh);
    }
  else
    {
      msg_error("patterndb: error reloading the changed pattern database, the previous one stays active",
                evt_tag_str("file", pdb_sng_parser_get_file(self)),
                evt_tag_str("error", error->message));
      g_clear_error(&error);
      pdb_sng_stamps_free(self->failed_stamps);
      self->failed_stamps = now;
    }
  pdb_sng_db_unref(db);
}

/* The monotonic second for a message received at wall-clock second
 * @received: read from the clock once per thread and received second (a
 * file check may thus start up to a second late; the clock is not read
 * for every message). */
static gint
pdb_sng_thread_now(PdbSngThreadCache *tc, gint64 received)
{
  if (received != tc->received || tc->now == 0)
    {
      tc->received = received;
      tc->now = pdb_sng_now_seconds();
    }
  return tc->now;
}

static void
pdb_sng_parser_maybe_check_files(PdbSngParser *self, gint now)
{

  if (now < g_atomic_int_get(&self->next_check))
    return;
  if (!g_atomic_int_compare_and_exchange(&self->checking, 0, 1))
    return;
  if (now >= g_atomic_int_get(&self->next_check))
    {
      pdb_sng_parser_check_files(self);
      g_atomic_int_set(&self->next_check, pdb_sng_now_seconds() + pdb_sng_check_interval());
    }
  g_atomic_int_set(&self->checking, 0);
}

/* --- correlation ---------------------------------------------------------- */

static void
pdb_sng_parser_emit(gpointer msg, gpointer user_data)
{
  PdbSngParser *self = user_data;
  LogMessage *gen = msg;

  if (self->inject_mode == PDB_SNG_INJECT_INTERNAL)
    msg_post_message(log_msg_ref(gen));
  else
    {
      LogPathOptions path_options = LOG_PATH_OPTIONS_INIT;

      /* a generated message has no source to acknowledge to */
      path_options.ack_needed = FALSE;
      log_pipe_forward_msg(&self->super.super, log_msg_ref(gen), &path_options);
    }
}

static void
pdb_sng_parser_tick(void *cookie)
{
  PdbSngParser *self = cookie;
  gint64 now = (gint64) time(NULL);

  if (self->corr && now > self->last_tick)
    pdb_correlation_advance_time(self->corr, now - self->last_tick, pdb_sng_parser_emit, self);
  self->last_tick = now;
  iv_validate_now();
  self->tick.expires = iv_now;
  self->tick.expires.tv_sec += 1;
  iv_timer_register(&self->tick);
}

static gchar *
pdb_sng_parser_corr_key(PdbSngParser *self)
{
  return g_strdup_printf("%s,correlation", self->persist_key);
}

/* --- message processing --------------------------------------------------- */

/* The handle of @handle's value if it is stored directly (so that captures
 * can point into it), 0 otherwise. */
static NVHandle
pdb_sng_direct_handle(LogMessage *msg, NVHandle handle)
{
  NVEntry *entry = nv_table_get_entry(msg->payload, handle, NULL, NULL);

  return (entry && !entry->indirect) ? handle : 0;
}

static gboolean
pdb_sng_parser_process(LogParser *s, LogMessage **pmsg, const LogPathOptions *path_options,
                       const gchar *input, gsize input_len)
{
  PdbSngParser *self = (PdbSngParser *) s;

  PdbSngThreadCache *tc = pdb_sng_thread_cache_get();
  pdb_sng_parser_maybe_check_files(self, pdb_sng_thread_now(tc, (*pmsg)->timestamps[LM_TS_RECVD].ut_sec));

  gboolean counted;
  tc->depth++;
  PdbSngDb *db = pdb_sng_parser_use_db(self, tc, &counted);
  if (!db)
    {
      tc->depth--;
      return !self->drop_unmatched;
    }

  LogMessage *msg = log_msg_make_writable(pmsg, path_options);
  /* Keeps every pointer into the message's values valid while we write. */
  NVTable *payload = nv_table_ref(msg->payload);
  ScratchBuffersMarker marker;
  PdbSngMessage target =
  {
    .msg = msg,
    .db = db,
    .template_options = &log_pipe_get_config(&s->super)->template_options,
  };

  scratch_buffers_mark(&marker);
  if (self->program_template)
    {
      GString *program = scratch_buffers_alloc();
      LogTemplateEvalOptions options = { target.template_options, LTZ_LOCAL, 0, NULL, LM_VT_STRING };

      log_template_format(self->program_template, msg, &options, program);
      target.program = program->str;
      target.program_length = program->len;
    }
  else
    {
      gssize length = 0;

      target.program = log_msg_get_value(msg, LM_V_PROGRAM, &length);
      target.program_length = length;
      target.program_handle = pdb_sng_direct_handle(msg, LM_V_PROGRAM);
    }
  target.message = input;
  target.message_length = input_len;
  /* Without message-template() the input is $MESSAGE itself. */
  if (!self->super.template)
    target.message_handle = pdb_sng_direct_handle(msg, LM_V_MESSAGE);

  PdbResult result;
  pdb_result_init(&result);
  pdb_database_classify(pdb_sng_db_get_database(db), target.program, target.program_length,
                        input, input_len, &result);
  pdb_result_apply(&result, target.program, input, &pdb_sng_message_ops, &target);
  gboolean matched = result.kind == PDB_RESULT_MATCH;
  if (matched && self->corr
      && (result.rule->context_id_template || (result.rule->actions && result.rule->actions->len)))
    pdb_correlation_process(self->corr, (PdbDatabase *) pdb_sng_db_get_database(db), &result, msg,
                            msg->timestamps[LM_TS_STAMP].ut_sec, (gint64) time(NULL),
                            pdb_sng_parser_emit, self);
  pdb_result_clear(&result);

  scratch_buffers_reclaim_marked(marker);
  nv_table_unref(payload);
  if (counted)
    pdb_sng_db_unref(db);
  tc->depth--;
  if (self->inject_mode == PDB_SNG_INJECT_AGGREGATE_ONLY)
    return FALSE;
  return matched || !self->drop_unmatched;
}

/* --- life cycle ------------------------------------------------------------ */

static gchar *
pdb_sng_parser_build_persist_key(PdbSngParser *self)
{
  const gchar *name = log_pipe_get_persist_name(&self->super.super);
  /* A named parser referenced by several log paths is cloned once per
   * reference, in configuration order: each clone keeps its own database
   * and contexts under its own key, or the first would take the others'. */
  gchar *ref = self->clone_index ? g_strdup_printf(",ref=%u", self->clone_index) : g_strdup("");
  gchar *key;

  if (name)
    key = g_strdup_printf("patterndb-module(%s%s)", name, ref);
  else
    key = g_strdup_printf("patterndb-module(%s,prefix=%s%s)", pdb_sng_parser_get_file(self),
                          self->prefix ? self->prefix : "", ref);
  g_free(ref);
  return key;
}

static gboolean
pdb_sng_parser_init(LogPipe *s)
{
  PdbSngParser *self = (PdbSngParser *) s;
  GlobalConfig *cfg = log_pipe_get_config(s);
  const gchar *file = pdb_sng_parser_get_file(self);
  GError *error = NULL;
  PdbSngDb *db;

  g_free(self->persist_key);
  self->persist_key = pdb_sng_parser_build_persist_key(self);

  PdbSngDb *kept = self->db ? NULL : cfg_persist_config_fetch(cfg, self->persist_key);
  if (self->db)
    {
      /* init() again without deinit(): keep what we have */
      db = NULL;
    }
  else if (kept && pdb_sng_db_is_current(kept) && pdb_sng_db_fits_config(kept, cfg))
    {
      msg_debug("patterndb: pattern database unchanged, kept across reload",
                evt_tag_str("file", file));
      db = kept;
    }
  else if (kept)
    {
      db = pdb_sng_db_load(file, self->prefix, cfg, &error);
      if (db)
        {
          msg_notice("patterndb: pattern database reloaded", evt_tag_str("file", file));
          pdb_sng_db_unref(kept);
        }
      else
        {
          msg_error("patterndb: error reloading the pattern database, the previous one stays active",
                    evt_tag_str("file", file),
                    evt_tag_str("error", error->message),
                    log_pipe_location_tag(s));
          g_clear_error(&error);
          pdb_sng_stamps_free(self->failed_stamps);
          self->failed_stamps = pdb_sng_db_stamp_files_now(kept);
          db = kept;
        }
    }
  else
    {
      db = pdb_sng_db_load(file, self->prefix, cfg, &error);
      if (!db)
        {
          msg_error("patterndb: cannot load the pattern database, refusing to start this configuration",
                    evt_tag_str("file", file),
                    evt_tag_str("error", error->message),
                    log_pipe_location_tag(s));
          g_clear_error(&error);
          return FALSE;
        }
    }
  if (db)
    pdb_sng_parser_swap_db(self, db);
  if (!self->corr)
    {
      gchar *key = pdb_sng_parser_corr_key(self);

      self->corr = cfg_persist_config_fetch(cfg, key);
      if (self->corr)
        {
          msg_debug("patterndb: correlation contexts kept across reload",
                    evt_tag_int("contexts", pdb_correlation_get_context_count(self->corr)));
          pdb_correlation_set_max_contexts(self->corr, self->context_limit);
        }
      else
        self->corr = pdb_correlation_new(&pdb_sng_correlation_host, self->context_limit);
      g_free(key);
    }
  IV_TIMER_INIT(&self->tick);
  self->tick.cookie = self;
  self->tick.handler = pdb_sng_parser_tick;
  self->last_tick = (gint64) time(NULL);
  iv_validate_now();
  self->tick.expires = iv_now;
  self->tick.expires.tv_sec += 1;
  iv_timer_register(&self->tick);
  g_atomic_int_set(&self->next_check, pdb_sng_now_seconds() + pdb_sng_check_interval());
  return log_parser_init_method(s);
}

static gboolean
pdb_sng_parser_deinit(LogPipe *s)
{
  PdbSngParser *self = (PdbSngParser *) s;
  GlobalConfig *cfg = log_pipe_get_config(s);
  PdbSngDb *db;

  db = pdb_sng_parser_retire(self);
  if (db && cfg->persist && self->persist_key)
    cfg_persist_config_add(cfg, self->persist_key, db, (GDestroyNotify) pdb_sng_db_unref, TRUE);
  else
    pdb_sng_db_unref(db);
  if (iv_timer_registered(&self->tick))
    iv_timer_unregister(&self->tick);
  if (self->corr && cfg->persist && self->persist_key)
    {
      gchar *key = pdb_sng_parser_corr_key(self);

      cfg_persist_config_add(cfg, key, self->corr, (GDestroyNotify) pdb_correlation_free, TRUE);
      g_free(key);
    }
  else
    pdb_correlation_free(self->corr);
  self->corr = NULL;
  return log_parser_deinit_method(s);
}

static LogPipe *
pdb_sng_parser_clone(LogPipe *s)
{
  PdbSngParser *self = (PdbSngParser *) s;
  LogParser *clone = pdb_sng_parser_new(log_pipe_get_config(s));
  PdbSngParser *other = (PdbSngParser *) clone;

  log_parser_set_template(clone, log_template_ref(self->super.template));
  pdb_sng_parser_set_file(clone, self->file);
  pdb_sng_parser_set_prefix(clone, self->prefix);
  pdb_sng_parser_set_drop_unmatched(clone, self->drop_unmatched);
  pdb_sng_parser_set_program_template(clone, log_template_ref(self->program_template));
  other->inject_mode = self->inject_mode;
  other->context_limit = self->context_limit;
  other->clone_index = ++self->clones;
  if (log_pipe_get_persist_name(s))
    log_pipe_set_persist_name(&clone->super, log_pipe_get_persist_name(s));
  return &clone->super;
}

static void
pdb_sng_parser_free(LogPipe *s)
{
  PdbSngParser *self = (PdbSngParser *) s;

  pdb_sng_db_unref(pdb_sng_parser_retire(self));
  pdb_correlation_free(self->corr);
  g_mutex_clear(&self->db_lock);
  pdb_sng_stamps_free(self->failed_stamps);
  log_template_unref(self->program_template);
  g_free(self->file);
  g_free(self->prefix);
  g_free(self->persist_key);
  log_parser_free_method(s);
}

LogParser *
pdb_sng_parser_new(GlobalConfig *cfg)
{
  PdbSngParser *self = g_new0(PdbSngParser, 1);

  log_parser_init_instance(&self->super, cfg);
  g_mutex_init(&self->db_lock);
  self->super.super.init = pdb_sng_parser_init;
  self->super.super.deinit = pdb_sng_parser_deinit;
  self->super.super.free_fn = pdb_sng_parser_free;
  self->super.super.clone = pdb_sng_parser_clone;
  self->super.process = pdb_sng_parser_process;
  return &self->super;
}

/*
 * db-parser.c: the db-parser() / patterndb() LogParser: classify each
 * message with the pattern database and write the result into it.
 *
 * Invariants:
 * - The current database (self->db) is an immutable, reference-counted
 *   PdbSngDb. A message takes a reference under db_lock, a lock held only
 *   for that pointer copy and increment, and classifies without any lock,
 *   so any number of threads match at once. A reload builds the new
 *   database aside and swaps the pointer under the same tiny lock; readers
 *   still holding the old one finish with it, the last unref frees it.
 * - A database that fails to load never replaces a working one: the old
 *   one stays active and the error (file:line:column) is logged.
 * - Across a configuration reload (SIGHUP, syslog-ng-ctl reload) the loaded
 *   database is handed to the new parser through the persist store and is
 *   reused when its files are unchanged, re-read when they changed.
 * - Between reloads, at most every PDB_SNG_CHECK_INTERVAL seconds one
 *   message-processing thread (single flight: a CAS on `checking`) stats the
 *   files and reloads if they changed; the others go on with the old tree.
 * - At startup (no database handed over) a missing or broken file is fatal:
 *   init() fails, so syslog-ng refuses to start instead of running with an
 *   empty classifier. `syslog-ng -s` only parses and so still passes.
 */
#include "db-parser.h"
#include "loaded-db.h"
#include "message-ops.h"

#include "logmsg/nvtable.h"
#include "scratch-buffers.h"
#include "reloc.h"
#include "messages.h"
#include "cfg.h"

#include <string.h>

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

  /* state */
  GMutex db_lock;               /* guards the `db` pointer only, never a lookup */
  PdbSngDb *db;                 /* current database; NULL before init() */
  gint next_check;              /* monotonic second of the next file check (atomic) */
  gint checking;                /* 1 while one thread checks the files (atomic) */
  PdbSngStamps *failed_stamps;  /* files as they were when a reload last failed;
                                 * touched only by the thread holding `checking`
                                 * or by init() */
  gchar *persist_key;
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
pdb_sng_parser_set_prefix(LogParser *s, const gchar *prefix)
{
  PdbSngParser *self = (PdbSngParser *) s;

  g_free(self->prefix);
  self->prefix = (prefix && *prefix) ? g_strdup(prefix) : NULL;
}

/* --- the current database ------------------------------------------------ */

static PdbSngDb *
pdb_sng_parser_acquire_db(PdbSngParser *self)
{
  PdbSngDb *db;

  g_mutex_lock(&self->db_lock);
  db = self->db ? pdb_sng_db_ref(self->db) : NULL;
  g_mutex_unlock(&self->db_lock);
  return db;
}

/* Installs @db (a reference the parser takes over); drops the old one. */
static void
pdb_sng_parser_swap_db(PdbSngParser *self, PdbSngDb *db)
{
  PdbSngDb *old;

  g_mutex_lock(&self->db_lock);
  old = self->db;
  self->db = db;
  g_mutex_unlock(&self->db_lock);
  pdb_sng_db_unref(old);
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
  PdbSngDb *fresh = pdb_sng_db_load(pdb_sng_parser_get_file(self), self->prefix, &error);
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

static void
pdb_sng_parser_maybe_check_files(PdbSngParser *self)
{
  gint now = pdb_sng_now_seconds();

  if (now < g_atomic_int_get(&self->next_check))
    return;
  if (!g_atomic_int_compare_and_exchange(&self->checking, 0, 1))
    return;
  if (now >= g_atomic_int_get(&self->next_check))
    {
      pdb_sng_parser_check_files(self);
      g_atomic_int_set(&self->next_check, pdb_sng_now_seconds() + PDB_SNG_CHECK_INTERVAL);
    }
  g_atomic_int_set(&self->checking, 0);
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

  pdb_sng_parser_maybe_check_files(self);

  PdbSngDb *db = pdb_sng_parser_acquire_db(self);
  if (!db)
    return !self->drop_unmatched;

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
  pdb_result_clear(&result);

  scratch_buffers_reclaim_marked(marker);
  nv_table_unref(payload);
  pdb_sng_db_unref(db);
  return matched || !self->drop_unmatched;
}

/* --- life cycle ------------------------------------------------------------ */

static gchar *
pdb_sng_parser_build_persist_key(PdbSngParser *self)
{
  const gchar *name = log_pipe_get_persist_name(&self->super.super);

  if (name)
    return g_strdup_printf("patterndb-module(%s)", name);
  return g_strdup_printf("patterndb-module(%s,prefix=%s)", pdb_sng_parser_get_file(self),
                         self->prefix ? self->prefix : "");
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
  else if (kept && pdb_sng_db_is_current(kept))
    {
      msg_debug("patterndb: pattern database unchanged, kept across reload",
                evt_tag_str("file", file));
      db = kept;
    }
  else if (kept)
    {
      db = pdb_sng_db_load(file, self->prefix, &error);
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
      db = pdb_sng_db_load(file, self->prefix, &error);
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
  g_atomic_int_set(&self->next_check, pdb_sng_now_seconds() + PDB_SNG_CHECK_INTERVAL);
  return log_parser_init_method(s);
}

static gboolean
pdb_sng_parser_deinit(LogPipe *s)
{
  PdbSngParser *self = (PdbSngParser *) s;
  GlobalConfig *cfg = log_pipe_get_config(s);
  PdbSngDb *db;

  g_mutex_lock(&self->db_lock);
  db = self->db;
  self->db = NULL;
  g_mutex_unlock(&self->db_lock);

  if (db && cfg->persist && self->persist_key)
    cfg_persist_config_add(cfg, self->persist_key, db, (GDestroyNotify) pdb_sng_db_unref, TRUE);
  else
    pdb_sng_db_unref(db);
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
  if (log_pipe_get_persist_name(s))
    log_pipe_set_persist_name(&clone->super, log_pipe_get_persist_name(s));
  return &clone->super;
}

static void
pdb_sng_parser_free(LogPipe *s)
{
  PdbSngParser *self = (PdbSngParser *) s;

  pdb_sng_db_unref(self->db);
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

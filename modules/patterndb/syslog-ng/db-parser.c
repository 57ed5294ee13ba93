/*
 * db-parser.c: the db-parser() / patterndb() LogParser: classify each
 * message with the pattern database and write the result into it.
 *
 * Invariants:
 * - The current database (self->current, db-thread-cache.h) is an
 *   immutable, reference-counted PdbSngDb. A reload builds the new
 *   database aside and swaps the pointer; readers still using the old one
 *   finish with it, the last unref frees it. A message normally takes no
 *   lock and touches no shared counter: each thread keeps its own
 *   reference to the database of each parser it ran, checked against a
 *   global epoch that changes whenever some parser's database is replaced
 *   or a parser stops, so any number of threads match at once.
 * - A database that fails to load never replaces a working one: the old
 *   one stays active and the error (file:line:column) is logged.
 * - Across a configuration reload (SIGHUP, syslog-ng-ctl reload) the loaded
 *   database is handed to the new parser through the persist store and is
 *   reused when its path means the same, unchanged files (db-stamps.h),
 *   re-read otherwise. Each parser has a persist key of its own
 *   (persist-keys.h), also when two parsers have the same options.
 * - Between reloads, at most every PDB_SNG_CHECK_INTERVAL seconds (the
 *   environment variable PATTERNDB_CHECK_INTERVAL, 1-3600, overrides it for
 *   stress tests; read once per process) one
 *   message-processing thread (single flight: a CAS on `checking`) lists
 *   and stats the files the path means and reloads if they differ; the
 *   others go on with the old tree.
 * - At startup (no database handed over) a missing or broken file is fatal:
 *   init() fails, so syslog-ng refuses to start instead of running with an
 *   empty classifier. `syslog-ng -s` only parses and so still passes.
 * - Correlation (contexts, actions) lives in self->corr, a PdbCorrelation
 *   with its own lock; it is handed to the new parser across a reload
 *   through the persist store (key: persist key + ",correlation"), so open
 *   contexts survive SIGHUP. The idle timer (idle-tick.h) moves the
 *   correlation clock while no message does. Synthetic messages go where
 *   inject-mode() says (inject-mode.h); aggregate-only drops every
 *   classified message itself.
 */
#include "db-parser.h"
#include "db-thread-cache.h"
#include "loaded-db.h"
#include "message-ops.h"
#include "sng-correlation.h"
#include "persist-keys.h"
#include "idle-tick.h"
#include "rule-stats.h"
#include "inject-mode.h"
#include "sng-compat.h"

#include "logmsg/nvtable.h"
#include "scratch-buffers.h"
#include "reloc.h"
#include "messages.h"
#include "cfg.h"

#include <string.h>
#include <time.h>

#define PDB_SNG_CHECK_INTERVAL 5
#define PDB_SNG_DEFAULT_FILE "${localstatedir}/patterndb.xml"

typedef struct _PdbSngParser
{
  LogParser super;

  /* options (set while parsing the configuration) */
  gchar **files;                /* file(): its paths (NULL-terminated), NULL for the default */
  gchar *files_shown;           /* the same joined with spaces, for logs and the persist key */
  gchar *prefix;
  gboolean drop_unmatched;
  LogTemplate *program_template;
  PdbSngInjectMode inject_mode;
  guint context_limit;          /* 0: the library's default */

  /* state */
  PdbSngCurrentDb current;      /* the current database; none before init() */
  gint next_check;              /* monotonic second of the next file check (atomic) */
  gint checking;                /* 1 while one thread checks the files (atomic) */
  PdbSngStamps *failed_stamps;  /* files as they were when a reload last failed;
                                 * touched only by the thread holding `checking`
                                 * or by init() */
  gchar *persist_name;          /* persist-name(), or NULL */
  gchar *persist_key;           /* unique in the configuration (persist-keys.h) */
  guint clones;                 /* clones made of this parser so far */
  guint clone_index;            /* 1..n for the n-th clone (one per reference
                                 * of a named parser), 0 if not a clone */
  PdbCorrelation *corr;         /* contexts; NULL before init() */
  PdbSngTick tick;              /* the correlation clock's idle timer */
} PdbSngParser;

/* Empty strings are left out (so an SCL argument can switch a path off);
 * no path left means the default file. */
void
pdb_sng_parser_set_files(LogParser *s, const gchar *const *paths)
{
  PdbSngParser *self = (PdbSngParser *) s;
  GPtrArray *kept = g_ptr_array_new();

  for (gsize i = 0; paths && paths[i]; i++)
    if (paths[i][0])
      g_ptr_array_add(kept, g_strdup(paths[i]));
  g_ptr_array_add(kept, NULL);
  g_strfreev(self->files);
  g_free(self->files_shown);
  self->files = (gchar **) g_ptr_array_free(kept, FALSE);
  if (!self->files[0])
    g_clear_pointer(&self->files, g_strfreev);
  self->files_shown = self->files ? g_strjoinv(" ", self->files) : NULL;
}

void
pdb_sng_parser_set_file(LogParser *s, const gchar *path)
{
  const gchar *paths[] = { path, NULL };

  pdb_sng_parser_set_files(s, paths);
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
  return pdb_sng_inject_mode_parse(mode, &((PdbSngParser *) s)->inject_mode);
}

void
pdb_sng_parser_set_context_limit(LogParser *s, guint limit)
{
  ((PdbSngParser *) s)->context_limit = limit;
}

void
pdb_sng_parser_set_persist_name(LogParser *s, const gchar *name)
{
  PdbSngParser *self = (PdbSngParser *) s;

  g_free(self->persist_name);
  self->persist_name = g_strdup(name);
}

void
pdb_sng_parser_set_prefix(LogParser *s, const gchar *prefix)
{
  PdbSngParser *self = (PdbSngParser *) s;

  g_free(self->prefix);
  self->prefix = (prefix && *prefix) ? g_strdup(prefix) : NULL;
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
  return self->files ? self->files_shown : get_installation_path_for(PDB_SNG_DEFAULT_FILE);
}

/* The paths to load, NULL-terminated; @fallback holds room for the default. */
static const gchar *const *
pdb_sng_parser_get_paths(PdbSngParser *self, const gchar *fallback[2])
{
  if (self->files)
    return (const gchar *const *) self->files;
  fallback[0] = get_installation_path_for(PDB_SNG_DEFAULT_FILE);
  fallback[1] = NULL;
  return fallback;
}

/* The id of this parser's counters (rule-stats.h): its name in the
 * configuration, else its persist key. */
static const gchar *
pdb_sng_parser_stats_id(PdbSngParser *self)
{
  return self->super.name ? self->super.name : (self->persist_key ? self->persist_key : "db-parser");
}

/* Called by the one thread that won `checking`. */
static void
pdb_sng_parser_check_files(PdbSngParser *self)
{
  PdbSngDb *db = pdb_sng_current_db_acquire(&self->current);

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
  const gchar *fallback[2];
  PdbSngDb *fresh = pdb_sng_db_load(pdb_sng_parser_get_paths(self, fallback), self->prefix,
                                    log_pipe_get_config(&self->super.super), &error);
  if (fresh)
    {
      msg_notice("patterndb: pattern database changed on disk, reloaded",
                 evt_tag_str("file", pdb_sng_parser_get_file(self)));
      pdb_sng_stamps_free(self->failed_stamps);
      self->failed_stamps = NULL;
      pdb_sng_stamps_free(now);
      pdb_sng_db_set_stats(fresh, pdb_sng_rule_stats_new(pdb_sng_db_get_database(fresh),
                                                         pdb_sng_parser_stats_id(self)));
      pdb_sng_current_db_swap(&self->current, fresh);
      /* threads may still classify with the old one for a message */
      pdb_sng_rule_stats_unregister(pdb_sng_db_get_stats(db));
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

  pdb_sng_inject(&self->super.super, self->inject_mode, msg);
}

static void
pdb_sng_parser_advance(gint64 seconds, gpointer user_data)
{
  PdbSngParser *self = user_data;

  if (self->corr)
    pdb_correlation_advance_time(self->corr, seconds, pdb_sng_parser_emit, self);
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
  PdbSngDb *db = pdb_sng_thread_cache_enter(tc, &self->current, &counted);
  if (!db)
    {
      pdb_sng_thread_cache_leave(tc, db, counted);
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
  if (!pdb_sng_parser_template(&self->super))
    target.message_handle = pdb_sng_direct_handle(msg, LM_V_MESSAGE);

  PdbResult result;
  pdb_result_init(&result);
  pdb_database_classify(pdb_sng_db_get_database(db), target.program, target.program_length,
                        input, input_len, &result);
  pdb_result_apply(&result, target.program, input, &pdb_sng_message_ops, &target);
  gboolean matched = result.kind == PDB_RESULT_MATCH;
  pdb_sng_rule_stats_count(pdb_sng_db_get_stats(db), &result, target.program, target.program_length,
                           !matched && self->drop_unmatched);
  if (matched && self->corr
      && (result.rule->context_id_template || (result.rule->actions && result.rule->actions->len)))
    {
      pdb_sng_tick_touch(&self->tick);
      pdb_correlation_process(self->corr, (PdbDatabase *) pdb_sng_db_get_database(db), &result, msg,
                              msg->timestamps[LM_TS_STAMP].ut_sec, (gint64) time(NULL),
                              pdb_sng_parser_emit, self);
    }
  else if (self->corr)   /* as 3.38, every message moves the correlation clock */
    {
      pdb_sng_tick_touch(&self->tick);
      pdb_correlation_set_time(self->corr, msg->timestamps[LM_TS_STAMP].ut_sec, (gint64) time(NULL),
                               pdb_sng_parser_emit, self);
    }
  pdb_result_clear(&result);

  scratch_buffers_reclaim_marked(marker);
  nv_table_unref(payload);
  pdb_sng_thread_cache_leave(tc, db, counted);
  if (self->inject_mode == PDB_SNG_INJECT_AGGREGATE_ONLY)
    return FALSE;
  return matched || !self->drop_unmatched;
}

/* --- life cycle ------------------------------------------------------------ */

/* What identifies this parser across reloads: persist-name() or its
 * options, and its clone number. Two parsers of one configuration may
 * have the same base; pdb_sng_persist_key_claim() tells them apart. */
static gchar *
pdb_sng_parser_build_persist_base(PdbSngParser *self)
{
  /* A named parser referenced by several log paths is cloned once per
   * reference, in configuration order: each clone keeps its own database
   * and contexts under its own key. */
  gchar *ref = self->clone_index ? g_strdup_printf(",ref=%u", self->clone_index) : g_strdup("");
  gchar *key;

  if (self->persist_name)
    key = g_strdup_printf("patterndb-module(%s%s)", self->persist_name, ref);
  else
    key = g_strdup_printf("patterndb-module(%s,prefix=%s%s)", pdb_sng_parser_get_file(self),
                          self->prefix ? self->prefix : "", ref);
  g_free(ref);
  return key;
}

/* The name syslog-ng's core sees (it refuses a configuration where two
 * pipes have the same one): the persist key, unique by construction, as
 * 3.38 never refuses two db-parser()s. */
static const gchar *
pdb_sng_parser_generate_persist_name(const LogPipe *s)
{
  const PdbSngParser *self = (const PdbSngParser *) s;

  return self->persist_key ? self->persist_key : "patterndb-module";
}

static gboolean
pdb_sng_parser_init(LogPipe *s)
{
  PdbSngParser *self = (PdbSngParser *) s;
  GlobalConfig *cfg = log_pipe_get_config(s);
  const gchar *file = pdb_sng_parser_get_file(self);
  const gchar *fallback[2];
  const gchar *const *paths = pdb_sng_parser_get_paths(self, fallback);
  GError *error = NULL;
  PdbSngDb *db;

  g_free(self->persist_key);
  gchar *base = pdb_sng_parser_build_persist_base(self);
  self->persist_key = pdb_sng_persist_key_claim(cfg, base, self);
  g_free(base);

  gboolean has_db = pdb_sng_current_db_is_set(&self->current);
  PdbSngDb *kept = has_db ? NULL : cfg_persist_config_fetch(cfg, self->persist_key);
  if (has_db)
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
      /* taken before the load, so that a fix made while it fails is seen */
      PdbSngStamps *attempt = pdb_sng_stamps_take(paths, NULL, NULL);

      db = pdb_sng_db_load(paths, self->prefix, cfg, &error);
      if (db)
        {
          msg_notice("patterndb: pattern database reloaded", evt_tag_str("file", file));
          pdb_sng_stamps_free(attempt);
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
          self->failed_stamps = attempt;
          db = kept;
        }
    }
  else
    {
      db = pdb_sng_db_load(paths, self->prefix, cfg, &error);
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
    pdb_sng_current_db_swap(&self->current, db);
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
  pdb_correlation_set_macro_data(self->corr, &cfg->template_options);
  pdb_sng_tick_start(&self->tick);
  g_atomic_int_set(&self->next_check, pdb_sng_now_seconds() + pdb_sng_check_interval());
  if (!log_parser_init_method(s))
    return FALSE;
  if (db)
    pdb_sng_db_set_stats(db, pdb_sng_rule_stats_new(pdb_sng_db_get_database(db), pdb_sng_parser_stats_id(self)));
  return TRUE;
}

static gboolean
pdb_sng_parser_deinit(LogPipe *s)
{
  PdbSngParser *self = (PdbSngParser *) s;
  GlobalConfig *cfg = log_pipe_get_config(s);
  PdbSngDb *db;

  db = pdb_sng_current_db_retire(&self->current);
  if (db)
    pdb_sng_db_set_stats(db, NULL);   /* while the stats registry still exists */
  if (db && cfg->persist && self->persist_key)
    pdb_sng_persist_add(cfg, self->persist_key, db, (GDestroyNotify) pdb_sng_db_unref);
  else
    pdb_sng_db_unref(db);
  pdb_sng_tick_stop(&self->tick);
  if (self->corr && cfg->persist && self->persist_key)
    {
      gchar *key = pdb_sng_parser_corr_key(self);

      pdb_sng_persist_add(cfg, key, self->corr, (GDestroyNotify) pdb_correlation_free);
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

  log_parser_set_template(clone, log_template_ref(pdb_sng_parser_template(&self->super)));
  pdb_sng_parser_set_files(clone, (const gchar *const *) self->files);
  pdb_sng_parser_set_prefix(clone, self->prefix);
  pdb_sng_parser_set_drop_unmatched(clone, self->drop_unmatched);
  pdb_sng_parser_set_program_template(clone, log_template_ref(self->program_template));
  other->inject_mode = self->inject_mode;
  other->context_limit = self->context_limit;
  other->clone_index = ++self->clones;
  pdb_sng_parser_set_persist_name(clone, self->persist_name);
  return &clone->super;
}

static void
pdb_sng_parser_free(LogPipe *s)
{
  PdbSngParser *self = (PdbSngParser *) s;

  pdb_sng_db_unref(pdb_sng_current_db_retire(&self->current));
  pdb_correlation_free(self->corr);
  pdb_sng_current_db_clear(&self->current);
  pdb_sng_tick_stop(&self->tick);
  pdb_sng_tick_clear(&self->tick);
  pdb_sng_stamps_free(self->failed_stamps);
  log_template_unref(self->program_template);
  g_strfreev(self->files);
  g_free(self->files_shown);
  g_free(self->prefix);
  g_free(self->persist_key);
  g_free(self->persist_name);
  log_parser_free_method(s);
}

LogParser *
pdb_sng_parser_new(GlobalConfig *cfg)
{
  PdbSngParser *self = g_new0(PdbSngParser, 1);

  log_parser_init_instance(&self->super, cfg);
  pdb_sng_current_db_init(&self->current);
  pdb_sng_tick_init(&self->tick, pdb_sng_parser_advance, self);
  self->super.super.init = pdb_sng_parser_init;
  self->super.super.deinit = pdb_sng_parser_deinit;
  self->super.super.free_fn = pdb_sng_parser_free;
  self->super.super.clone = pdb_sng_parser_clone;
  self->super.super.generate_persist_name = pdb_sng_parser_generate_persist_name;
  self->super.process = pdb_sng_parser_process;
  return &self->super;
}

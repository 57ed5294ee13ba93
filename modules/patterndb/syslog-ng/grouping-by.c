/*
 * grouping-by.c: the grouping-by() LogParser: messages that pass where()
 * are gathered into contexts by scope fields plus key(); a context closes
 * when trigger() holds for it (evaluated with each new message), when it
 * times out, or when the context limit needs room; then, sorted by
 * sort-key() and if having() holds, it yields one aggregate message.
 *
 * Behaviour follows syslog-ng 3.38's grouping-by() as observed in the
 * daemon (tests/e2e/test-grouping-by.sh runs both on the same input):
 * - every message that enters a context gets `.classifier.context_id` (the
 *   expanded key; not with a configuration of @version 4.0 or later, as
 *   4.x's grouping-by() does not set it) and is write-protected (the
 *   context keeps it);
 * - filters and templates run with the context as syslog-ng's own
 *   filter and template code sees one (messages oldest first, after the
 *   sort): `${name}@N` is N messages back, $(context-length) the count;
 *   while aggregate() values are formatted the new message is appended, so
 *   @0 is the aggregate itself;
 * - the aggregate: inherit-mode(context) (the default) copies the last
 *   message and the values only older ones have; last-message copies the
 *   last message; none starts empty with the last message's timestamp.
 *   Then the scope fields (process: HOST PROGRAM PID, program: HOST
 *   PROGRAM, host: HOST, global (the default): none), the tags, then the
 *   values in order (names with prefix());
 * - aggregates go where inject-mode() says (inject-mode.h): when a message
 *   closes a context, its aggregate goes ahead of it; aggregate-only drops
 *   every message that reaches the parser.
 *
 * Time and state live in a PdbGrouping (correlation/grouping.h, its own
 * lock). The clock follows message timestamps capped at now; the idle
 * timer (idle-tick.h) adds the real time elapsed since the last message or
 * tick. The state is handed to the next configuration through the persist
 * store under a key of its own (persist-keys.h), so open contexts survive
 * SIGHUP; syslog-ng's core sees 3.38's name for the parser and refuses two
 * parsers with the same one, as 3.38 does.
 *
 * Counters (parser-counters.h, stats level 0, id: the parser's name, else
 * the generated name): grouped (messages that entered a context), skipped
 * (where() false), aggregated (aggregates made), discarded (contexts that
 * closed with having() false). They start at init and stop at deinit; a
 * reload keeps their values (same key).
 */
#include "grouping-by-private.h"
#include "parser-counters.h"
#include "persist-keys.h"

#include "correlation/context-table.h"
#include "scratch-buffers.h"
#include "messages.h"
#include "logmsg/tags.h"
#include "cfg.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static const gchar *const gb_counter_names[GB_N_COUNTERS] = { "grouped", "skipped", "aggregated", "discarded" };

/* --- hooks of the grouping state (run under its lock) ------------------------ */

static LogTemplateEvalOptions
pdb_gb_eval_options(PdbGroupingBy *self)
{
  LogTemplateEvalOptions options =
  {
    &log_pipe_get_config(&self->super.super)->template_options, LTZ_LOCAL, 0, NULL, LM_VT_STRING
  };
  return options;
}

static gboolean
pdb_gb_eval(PdbGroupingBy *self, FilterExprNode *expr, GPtrArray *messages)
{
  LogTemplateEvalOptions options = pdb_gb_eval_options(self);

  return filter_expr_eval_with_context(expr, (LogMessage **) messages->pdata, (gint) messages->len, &options);
}

static gboolean
pdb_gb_trigger(GPtrArray *messages, gpointer user_data)
{
  PdbGroupingBy *self = user_data;

  return self->trigger && pdb_gb_eval(self, self->trigger, messages);
}

typedef struct
{
  gchar *key;
  guint position;
  LogMessage *msg;
} PdbGbSortItem;

static gint
pdb_gb_compare_sort_items(gconstpointer a, gconstpointer b)
{
  const PdbGbSortItem *x = a, *y = b;
  gint c = strcmp(x->key, y->key);

  if (c)
    return c;
  return x->position < y->position ? -1 : (x->position > y->position);
}

/* Orders @messages by sort-key(), ties in arrival order. */
static void
pdb_gb_sort(PdbGroupingBy *self, GPtrArray *messages)
{
  LogTemplateEvalOptions options = pdb_gb_eval_options(self);
  PdbGbSortItem *items = g_new(PdbGbSortItem, messages->len);
  GString *buf = g_string_sized_new(64);

  for (guint i = 0; i < messages->len; i++)
    {
      items[i].msg = g_ptr_array_index(messages, i);
      items[i].position = i;
      log_template_format(self->sort_key, items[i].msg, &options, buf);
      items[i].key = g_strndup(buf->str, buf->len);
    }
  qsort(items, messages->len, sizeof(PdbGbSortItem), pdb_gb_compare_sort_items);
  for (guint i = 0; i < messages->len; i++)
    {
      messages->pdata[i] = items[i].msg;
      g_free(items[i].key);
    }
  g_string_free(buf, TRUE);
  g_free(items);
}

static LogMessage *
pdb_gb_new_aggregate(PdbGroupingBy *self, GPtrArray *messages)
{
  LogMessage *last = g_ptr_array_index(messages, messages->len - 1);
  LogPathOptions path_options = LOG_PATH_OPTIONS_INIT;
  LogMessage *gen;

  switch (self->inherit_mode)
    {
    case PDB_INHERIT_NONE:
      gen = log_msg_new_local();
      gen->timestamps[LM_TS_STAMP] = last->timestamps[LM_TS_STAMP];
      break;
    case PDB_INHERIT_LAST_MESSAGE:
      gen = log_msg_clone_cow(last, &path_options);
      break;
    case PDB_INHERIT_CONTEXT:
    default:
      gen = log_msg_clone_cow(last, &path_options);
      log_msg_merge_context(gen, (LogMessage **) messages->pdata, messages->len);
      break;
    }

  static const NVHandle scope_fields[] = { LM_V_PID, LM_V_PROGRAM, LM_V_HOST };
  guint first = G_N_ELEMENTS(scope_fields) - pdb_context_scope_fields(self->scope);
  for (guint i = first; i < G_N_ELEMENTS(scope_fields); i++)
    {
      gssize len = 0;
      const gchar *value = log_msg_get_value(last, scope_fields[i], &len);

      log_msg_set_value(gen, scope_fields[i], value, len);
    }
  for (guint i = 0; i < self->tags->len; i++)
    log_msg_set_tag_by_id(gen, g_array_index(self->tags, LogTagId, i));
  return gen;
}

/* Formats the aggregate's values over the context with the aggregate
 * appended (@0), as 3.38 does. */
static void
pdb_gb_apply_values(PdbGroupingBy *self, GPtrArray *messages, LogMessage *gen)
{
  LogTemplateEvalOptions options = pdb_gb_eval_options(self);
  GString *buf = g_string_sized_new(128);
  GString *name = g_string_sized_new(32);

  g_ptr_array_add(messages, gen);
  for (guint i = 0; i < self->values->len; i++)
    {
      PdbGbValue *v = g_ptr_array_index(self->values, i);
      LogMessageValueType type = LM_VT_STRING;

      log_template_format_value_and_type_with_context(v->value, (LogMessage **) messages->pdata,
                                                      (gint) messages->len, &options, buf, &type);
      g_string_assign(name, self->prefix ? self->prefix : "");
      g_string_append(name, v->name);
      log_msg_set_value_by_name_with_type(gen, name->str, buf->str, buf->len, type);
    }
  /* not ours to unref: the context's array frees its elements */
  g_ptr_array_steal_index(messages, messages->len - 1);
  g_string_free(name, TRUE);
  g_string_free(buf, TRUE);
}

static gpointer
pdb_gb_close(GPtrArray *messages, gpointer user_data)
{
  PdbGroupingBy *self = user_data;

  if (self->sort_key)
    pdb_gb_sort(self, messages);
  if (self->having && !pdb_gb_eval(self, self->having, messages))
    {
      msg_debug("grouping-by(): having() is false, context dropped", log_pipe_location_tag(&self->super.super));
      pdb_sng_parser_counter_inc(&self->counters[GB_DISCARDED]);
      return NULL;
    }
  pdb_sng_parser_counter_inc(&self->counters[GB_AGGREGATED]);

  LogMessage *gen = pdb_gb_new_aggregate(self, messages);
  pdb_gb_apply_values(self, messages, gen);
  return gen;
}

static void
pdb_gb_emit(gpointer msg, gpointer user_data)
{
  PdbGroupingBy *self = user_data;

  pdb_sng_inject(&self->super.super, self->inject_mode, msg);
}

static gpointer
pdb_gb_msg_ref(gpointer msg)
{
  return log_msg_ref(msg);
}

static void
pdb_gb_msg_unref(gpointer msg)
{
  log_msg_unref(msg);
}

static const PdbGroupingMessageOps pdb_gb_message_ops = { pdb_gb_msg_ref, pdb_gb_msg_unref };

/* --- message processing ------------------------------------------------------- */

static void
pdb_gb_build_key(PdbGroupingBy *self, LogMessage *msg, const GString *id, GString *key)
{
  static const NVHandle scope_fields[] = { LM_V_HOST, LM_V_PROGRAM, LM_V_PID };
  guint n = pdb_context_scope_fields(self->scope);

  g_string_truncate(key, 0);
  for (guint i = 0; i < n; i++)
    {
      gssize len = 0;
      const gchar *value = log_msg_get_value(msg, scope_fields[i], &len);

      pdb_context_key_append_part(key, value, len);
    }
  pdb_context_key_append_part(key, id->str, id->len);
}

static gboolean
pdb_gb_process(LogParser *s, LogMessage **pmsg, const LogPathOptions *path_options,
               const gchar *input, gsize input_len)
{
  PdbGroupingBy *self = (PdbGroupingBy *) s;
  gboolean pass = self->inject_mode != PDB_SNG_INJECT_AGGREGATE_ONLY;

  (void) input;
  (void) input_len;
  if (self->where && !filter_expr_eval_root(self->where, pmsg, path_options))
    {
      pdb_sng_parser_counter_inc(&self->counters[GB_SKIPPED]);
      return pass;
    }
  pdb_sng_parser_counter_inc(&self->counters[GB_GROUPED]);

  LogMessage *msg = log_msg_make_writable(pmsg, path_options);
  ScratchBuffersMarker marker;
  LogTemplateEvalOptions options = pdb_gb_eval_options(self);

  scratch_buffers_mark(&marker);
  GString *id = scratch_buffers_alloc();
  GString *key = scratch_buffers_alloc();
  log_template_format(self->key, msg, &options, id);
  if (self->context_id_handle)
    log_msg_set_value(msg, self->context_id_handle, id->str, id->len);
  pdb_gb_build_key(self, msg, id, key);
  /* the context keeps the message: later writers must copy it */
  log_msg_write_protect(msg);

  pdb_sng_tick_touch(&self->tick);
  pdb_grouping_add(self->state, key->str, key->len, msg, msg->timestamps[LM_TS_STAMP].ut_sec,
                   (gint64) time(NULL), self->timeout, &self->hooks);
  scratch_buffers_reclaim_marked(marker);
  return pass;
}

static void
pdb_gb_advance(gint64 seconds, gpointer user_data)
{
  PdbGroupingBy *self = user_data;

  if (self->state)
    pdb_grouping_advance_time(self->state, seconds, &self->hooks);
}

/* --- life cycle ------------------------------------------------------------ */

/*
 * The name syslog-ng's core sees, in 3.38's form: "grouping-by(KEY,scope=S,
 * clone=N)" (S numbered as 3.38: global 0, host 1, program 2, process 3),
 * or "grouping-by.NAME(clone=N)" with persist-name(). The core refuses a
 * configuration where two pipes have the same name ("conflicting
 * persist-names", advising persist-name()), as 3.38 refuses two
 * grouping-by()s with the same key() and scope().
 */
static gchar *
pdb_gb_build_generated_name(PdbGroupingBy *self)
{
  if (self->persist_name)
    return g_strdup_printf("grouping-by.%s(clone=%u)", self->persist_name, self->copy);
  return g_strdup_printf("grouping-by(%s,scope=%u,clone=%u)", self->key ? pdb_sng_template_text(self->key) : "",
                         pdb_context_scope_fields(self->scope), self->copy);
}

static const gchar *
pdb_gb_generate_persist_name(const LogPipe *s)
{
  const PdbGroupingBy *self = (const PdbGroupingBy *) s;

  return self->generated_name ? self->generated_name : "grouping-by()";
}

/* After log_parser_init_method() (it names the parser); the id is kept for unregistering. */
static void
pdb_gb_register_counters(PdbGroupingBy *self)
{
  g_free(self->stats_id);
  self->stats_id = g_strdup(self->super.name ? self->super.name : self->generated_name);
  for (guint i = 0; i < GB_N_COUNTERS; i++)
    pdb_sng_parser_counter_register(TRUE, 0, self->stats_id, gb_counter_names[i], &self->counters[i]);
}

static void
pdb_gb_unregister_counters(PdbGroupingBy *self)
{
  for (guint i = 0; self->stats_id && i < GB_N_COUNTERS; i++)
    pdb_sng_parser_counter_unregister(TRUE, self->stats_id, gb_counter_names[i], &self->counters[i]);
}

static gboolean
pdb_gb_init_filter(PdbGroupingBy *self, FilterExprNode *expr)
{
  return !expr || filter_expr_init(expr, log_pipe_get_config(&self->super.super));
}

static gboolean
pdb_gb_init(LogPipe *s)
{
  PdbGroupingBy *self = (PdbGroupingBy *) s;
  GlobalConfig *cfg = log_pipe_get_config(s);

  if (!self->key)
    {
      msg_error("grouping-by(): key() is mandatory", log_pipe_location_tag(s));
      return FALSE;
    }
  if (self->timeout < 1)
    {
      msg_error("grouping-by(): timeout() must be given and greater than 0", log_pipe_location_tag(s));
      return FALSE;
    }
  if (!self->has_aggregate)
    {
      msg_error("grouping-by(): aggregate() is mandatory", log_pipe_location_tag(s));
      return FALSE;
    }
  if (!pdb_gb_init_filter(self, self->where) || !pdb_gb_init_filter(self, self->having)
      || !pdb_gb_init_filter(self, self->trigger))
    return FALSE;

  self->context_id_handle = pdb_sng_config_is_4x(log_pipe_get_config(s))
                            ? 0 : log_msg_get_value_handle(".classifier.context_id");
  g_free(self->generated_name);
  self->generated_name = pdb_gb_build_generated_name(self);
  gchar *base = g_strdup_printf("patterndb-%s", self->generated_name);
  g_free(self->persist_key);
  /* unique even in a configuration the core then refuses, so that its
   * deinit cannot hand one parser's contexts to the other */
  self->persist_key = pdb_sng_persist_key_claim(cfg, base, self);
  g_free(base);
  if (!self->state)
    {
      self->state = cfg_persist_config_fetch(cfg, self->persist_key);
      if (self->state)
        {
          msg_debug("grouping-by(): contexts kept across reload",
                    evt_tag_int("contexts", pdb_grouping_get_context_count(self->state)),
                    log_pipe_location_tag(s));
          pdb_grouping_set_max_contexts(self->state, self->context_limit);
        }
      else
        self->state = pdb_grouping_new(&pdb_gb_message_ops, self->context_limit);
    }
  pdb_sng_tick_start(&self->tick);
  if (!log_parser_init_method(s))
    return FALSE;
  pdb_gb_register_counters(self);
  return TRUE;
}

static gboolean
pdb_gb_deinit(LogPipe *s)
{
  PdbGroupingBy *self = (PdbGroupingBy *) s;
  GlobalConfig *cfg = log_pipe_get_config(s);

  pdb_sng_tick_stop(&self->tick);
  pdb_gb_unregister_counters(self);
  if (self->state && cfg->persist && self->persist_key)
    pdb_sng_persist_add(cfg, self->persist_key, self->state, (GDestroyNotify) pdb_grouping_free);
  else
    pdb_grouping_free(self->state);
  self->state = NULL;
  return log_parser_deinit_method(s);
}

static FilterExprNode *
pdb_gb_clone_filter(FilterExprNode *expr)
{
  return expr ? filter_expr_clone(expr) : NULL;
}

static LogPipe *
pdb_gb_clone(LogPipe *s)
{
  PdbGroupingBy *self = (PdbGroupingBy *) s;
  LogParser *clone = pdb_grouping_by_new(log_pipe_get_config(s));
  PdbGroupingBy *other = (PdbGroupingBy *) clone;

  other->key = log_template_ref(self->key);
  other->sort_key = log_template_ref(self->sort_key);
  other->scope = self->scope;
  other->where = pdb_gb_clone_filter(self->where);
  other->having = pdb_gb_clone_filter(self->having);
  other->trigger = pdb_gb_clone_filter(self->trigger);
  other->timeout = self->timeout;
  other->has_aggregate = self->has_aggregate;
  for (guint i = 0; i < self->values->len; i++)
    {
      PdbGbValue *v = g_ptr_array_index(self->values, i);

      pdb_grouping_by_add_value(clone, v->name, log_template_ref(v->value));
    }
  g_array_append_vals(other->tags, self->tags->data, self->tags->len);
  other->inherit_mode = self->inherit_mode;
  other->inject_mode = self->inject_mode;
  pdb_grouping_by_set_prefix(clone, self->prefix);
  other->context_limit = self->context_limit;
  other->copy = ++self->copies_made;
  pdb_grouping_by_set_persist_name(clone, self->persist_name);
  return &clone->super;
}

static void
pdb_gb_free(LogPipe *s)
{
  PdbGroupingBy *self = (PdbGroupingBy *) s;

  pdb_grouping_free(self->state);
  log_template_unref(self->key);
  log_template_unref(self->sort_key);
  pdb_gb_replace_filter(&self->where, NULL);
  pdb_gb_replace_filter(&self->having, NULL);
  pdb_gb_replace_filter(&self->trigger, NULL);
  g_ptr_array_free(self->values, TRUE);
  g_array_free(self->tags, TRUE);
  g_free(self->prefix);
  g_free(self->persist_key);
  g_free(self->persist_name);
  g_free(self->generated_name);
  g_free(self->stats_id);
  pdb_sng_tick_stop(&self->tick);
  pdb_sng_tick_clear(&self->tick);
  log_parser_free_method(s);
}

LogParser *
pdb_grouping_by_new(GlobalConfig *cfg)
{
  PdbGroupingBy *self = g_new0(PdbGroupingBy, 1);

  log_parser_init_instance(&self->super, cfg);
  self->super.super.init = pdb_gb_init;
  self->super.super.deinit = pdb_gb_deinit;
  self->super.super.free_fn = pdb_gb_free;
  self->super.super.clone = pdb_gb_clone;
  self->super.super.generate_persist_name = pdb_gb_generate_persist_name;
  self->super.process = pdb_gb_process;
  self->scope = PDB_SCOPE_GLOBAL;
  self->timeout = -1;
  self->inherit_mode = PDB_INHERIT_CONTEXT;
  self->inject_mode = PDB_SNG_INJECT_PASS_THROUGH;
  self->values = g_ptr_array_new_with_free_func((GDestroyNotify) pdb_gb_value_free);
  self->tags = g_array_new(FALSE, FALSE, sizeof(LogTagId));
  self->hooks = (PdbGroupingHooks) { pdb_gb_trigger, pdb_gb_close, pdb_gb_emit, self };
  pdb_sng_tick_init(&self->tick, pdb_gb_advance, self);
  return &self->super;
}

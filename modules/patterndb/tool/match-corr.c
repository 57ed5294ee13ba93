/*
 * match-corr.c: correlation in `patterndb match` (see match.h).
 *
 * As pdbtool 3.38: the clock follows the lines' timestamps (capped at the
 * current time); timeout messages the clock releases are printed before
 * the line that moved it, messages of match actions after the line, and
 * at the end of the input every context expires. A context keeps
 * snapshots (correlation/nv-message.h) of the messages, with their header
 * time; a generated message is printed with its own time.
 */
#include "tool/match.h"

void
pdb_match_collect_synthetic(gpointer msg, gpointer user_data)
{
  Matcher *m = user_data;

  g_ptr_array_add(m->synthetic, pdb_nv_message_ref(msg));
}

static void
snapshot_value(const gchar *name, const gchar *value, gsize length, PdbValueType type, gpointer user_data)
{
  /* the store's names are unique */
  pdb_nv_message_add(user_data, name, value, length, type);
}

static void
snapshot_tag(const gchar *tag, gpointer user_data)
{
  pdb_nv_message_set_tag(user_data, tag);
}

static gboolean
rule_has_conditions(const PdbRule *rule)
{
  for (guint i = 0; rule->actions && i < rule->actions->len; i++)
    if (((const PdbAction *) g_ptr_array_index(rule->actions, i))->condition_expr)
      return TRUE;
  return FALSE;
}

/* A condition's flags(store-matches) wrote into the snapshot: the line shows it too. */
static void
copy_back_changed(const gchar *name, const gchar *value, gsize length, PdbValueType type, gpointer user_data)
{
  gssize have_length = 0;
  const gchar *have = pdb_tool_message_get(user_data, name, &have_length);

  if (!have || (gsize) have_length != length || memcmp(have, value, length) != 0)
    pdb_tool_message_set(user_data, name, -1, value, length, type);
}

void
pdb_match_correlate(Matcher *m, gint64 stamp)
{
  const PdbRule *rule = m->result.kind == PDB_RESULT_MATCH ? m->result.rule : NULL;
  PdbNvMessage *snapshot;

  if (!rule || (!rule->context_id_template && (!rule->actions || rule->actions->len == 0)))
    return;
  snapshot = pdb_nv_message_new();
  pdb_tool_message_foreach(m->msg, snapshot_value, snapshot_tag, snapshot);
  pdb_nv_message_set_pri(snapshot, m->pri);
  const PdbToolTime *t = pdb_match_stamp_time(m);
  PdbNvTime nt = { t->sec, t->usec, t->gmtoff };
  pdb_nv_message_set_stamp(snapshot, &nt);
  pdb_correlation_process(m->corr, m->db, &m->result, snapshot, stamp, m->now, pdb_match_collect_synthetic, m);
  if (rule->context_id_template && pdb_correlation_rule_values_look_back(rule))
    {
      /* the values were evaluated again over the context, into the snapshot */
      for (guint i = 0; i < rule->values->len; i++)
        {
          const PdbValueDef *v = g_ptr_array_index(rule->values, i);
          gssize length = 0;
          const gchar *value = pdb_nv_message_get(snapshot, v->name, &length);

          if (value)
            pdb_tool_message_set(m->msg, v->name, -1, value, length, v->value_type);
        }
    }
  if (rule_has_conditions(rule))
    {
      /* $0..$255 as the snapshot has them now, then what else changed */
      pdb_tool_message_clear_matches(m->msg);
      pdb_nv_message_foreach(snapshot, copy_back_changed, m->msg);
    }
  pdb_nv_message_unref(snapshot);
}

static void
copy_value(const gchar *name, const gchar *value, gsize length, PdbValueType type, gpointer user_data)
{
  pdb_tool_message_set(user_data, name, -1, value, length, type);
}

/* Prints and forgets the generated messages, in the order they were made;
 * each shows its own time (the context's newest message's, as pdbtool).
 * The time of the line being read is kept aside meanwhile. */
void
pdb_match_print_synthetic(Matcher *m)
{
  gboolean had_stamp = m->have_stamp;
  PdbToolTime line_time = m->stamp_time;
  gint line_pri = m->pri;

  /* as pdbtool: --debug-pattern shows the lines only, not what correlation made */
  for (guint i = 0; !m->opt->debug_pattern && i < m->synthetic->len; i++)
    {
      PdbNvMessage *gen = g_ptr_array_index(m->synthetic, i);
      const GPtrArray *tags = pdb_nv_message_get_tags(gen);

      pdb_tool_snapshot_time(gen, &m->stamp_time);
      m->have_stamp = TRUE;
      m->pri = pdb_tool_snapshot_pri(gen);
      pdb_tool_message_set_pri(m->msg, m->pri);
      pdb_tool_message_reset(m->msg);
      pdb_nv_message_foreach(gen, copy_value, m->msg);
      for (guint t = 0; t < tags->len; t++)
        pdb_tool_message_set_tag(m->msg, g_ptr_array_index(tags, t));
      pdb_match_print_message(m, NULL, 0, NULL, 0, TRUE);
    }
  g_ptr_array_set_size(m->synthetic, 0);
  m->have_stamp = had_stamp;
  m->stamp_time = line_time;
  m->pri = line_pri;
  pdb_tool_message_set_pri(m->msg, m->pri);
}

/* Moves the clock to a line's time before the line is read into m->msg,
 * printing the timeout messages that releases (they come first). */
void
pdb_match_release_timeouts(Matcher *m, gint64 stamp)
{
  if (!m->corr)
    return;
  pdb_correlation_set_time(m->corr, stamp, m->now, pdb_match_collect_synthetic, m);
  pdb_match_print_synthetic(m);
}

/* TRUE if any rule has a context or an action. */
gboolean
pdb_match_database_correlates(const PdbDatabase *db)
{
  return pdb_database_correlates(db);
}

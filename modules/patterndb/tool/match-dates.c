/*
 * match-dates.c: the date macros of `patterndb match` templates and <value>s, computed
 * only when asked: the header stamp of the line, the wall clock for R_/C_/P_
 * (see match.h).
 */
#include "tool/match.h"

#include <string.h>

/* ---- date macros ---- */

/* Forgets the times of the previous message; @stamp is the new one's header date. */
void
pdb_match_dates_reset(Matcher *m, PdbSlice stamp)
{
  m->stamp_text = stamp;
  m->have_stamp = FALSE;
  m->have_received = FALSE;
}

static const PdbToolTime *
received_time(Matcher *m)
{
  if (!m->have_received)
    {
      pdb_tool_time_now(&m->received_time);
      m->have_received = TRUE;
    }
  return &m->received_time;
}

/* The message's own time: its header date, or when it has none the time it was received. */
const PdbToolTime *
pdb_match_stamp_time(Matcher *m)
{
  if (!m->have_stamp)
    {
      if (!pdb_tool_time_from_stamp(m->stamp_text, m->now, &m->stamp_time))
        m->stamp_time = *received_time(m);
      m->have_stamp = TRUE;
    }
  return &m->stamp_time;
}

/* The text of a date macro, or NULL when @name is none. */
const gchar *
pdb_match_date_lookup(Matcher *m, const gchar *name, gssize *length)
{
  PdbToolTimeFamily family;
  PdbToolDateField field;
  PdbToolTime now;
  const PdbToolTime *t;

  if (!pdb_tool_date_macro_parse(name, &family, &field))
    return NULL;
  switch (family)
    {
    case PDB_TOOL_TIME_STAMP:
      t = pdb_match_stamp_time(m);
      break;
    case PDB_TOOL_TIME_CURRENT:
      pdb_tool_time_now(&now);
      t = &now;
      break;
    default:
      t = received_time(m);
      break;
    }
  g_string_truncate(m->date_text, 0);
  pdb_tool_date_macro_append(field, t, m->date_text);
  *length = m->date_text->len;
  return m->date_text->str;
}

const gchar *
pdb_match_store_date_lookup(const gchar *name, gssize *length, gpointer user_data)
{
  return pdb_match_date_lookup(user_data, name, length);
}

/* A probe expansion: TRUE in *user_data when a reference is a date macro. */
static const gchar *
probe_dates(const gchar *name, guint context_index, gssize *length, gpointer user_data)
{
  PdbToolTimeFamily family;
  PdbToolDateField field;

  (void) context_index;
  (void) length;
  if (pdb_tool_date_macro_parse(name, &family, &field))
    *(gboolean *) user_data = TRUE;
  return NULL;
}

gboolean
pdb_match_template_uses_dates(const PdbTemplate *tmpl, GString *scratch)
{
  gboolean dates = FALSE;

  if (pdb_template_is_stateful(tmpl))
    return TRUE;   /* expanding it to probe would change it */
  g_string_truncate(scratch, 0);
  pdb_template_append(tmpl, probe_dates, &dates, scratch);
  return dates;
}

static gboolean
value_uses_dates(const PdbValueDef *value, gpointer scratch)
{
  return strchr(value->template_text, '$') && pdb_match_template_uses_dates(value->compiled, scratch);
}

/* TRUE when a rule's <value> reads a date macro. */
gboolean
pdb_match_values_use_dates(const PdbDatabase *db, GString *scratch)
{
  return pdb_database_find_value(db, value_uses_dates, scratch) != NULL;
}

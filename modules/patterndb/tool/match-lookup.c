/*
 * match-lookup.c: what -T templates and -F filters of `patterndb match`
 * read: the message's values plus the macros scripts use ($MSGHDR, $TAGS,
 * the PRI macros, $SDATA, dates), and what -F's tags() and
 * flags(store-matches) see and write.
 */
#include "tool/match.h"

#include <string.h>

/* The store's values alone (for $MSGHDR). */
static const gchar *
store_lookup(const gchar *name, guint context_index, gssize *length, gpointer user_data)
{
  return context_index == 0 ? pdb_tool_message_get(user_data, name, length) : NULL;
}

const gchar *
pdb_match_template_lookup(const gchar *name, guint context_index, gssize *length, gpointer user_data)
{
  Matcher *m = user_data;

  /* as pdbtool: -T formats one message, so ${name}@N (N > 0) looks back
   * into nothing and is empty; $(context-length) is then 1 */
  if (context_index == PDB_TEMPLATE_CONTEXT_LENGTH_INDEX)
    return NULL;
  if (context_index != 0)
    return pdb_template_no_message;
  if (m->tmpl_dates)
    {
      const gchar *date = pdb_match_date_lookup(m, name, length);

      if (date)
        return date;
    }
  if (G_UNLIKELY(name[0] == PDB_TEMPLATE_VALUE_NAMES[0]) && strcmp(name, PDB_TEMPLATE_VALUE_NAMES) == 0)
    return pdb_tool_message_value_names(m->msg, length);
  /* the macros below start with one of these letters; most names skip them all */
  if (!name[0] || !strchr("MTPSFLB", name[0]))
    return pdb_tool_message_get(m->msg, name, length);
  if (strcmp(name, "MSG") == 0)
    name = "MESSAGE";
  else if (strcmp(name, "FULLHOST") == 0)   /* pdbtool: the host as read */
    name = "HOST";
  else if (strcmp(name, "MSGHDR") == 0)
    {
      g_string_truncate(m->scratch, 0);
      pdb_filter_append_msghdr(store_lookup, m->msg, m->scratch);
      *length = m->scratch->len;
      return m->scratch->str;
    }
  else if (strcmp(name, "TAGS") == 0)
    {
      g_string_truncate(m->scratch2, 0);
      pdb_tool_message_format_tags(m->msg, m->scratch2);
      *length = m->scratch2->len;
      return m->scratch2->str;
    }
  else
    {
      g_string_truncate(m->scratch, 0);
      if (pdb_tool_pri_macro_append(name, m->pri, m->scratch))
        {
          *length = m->scratch->len;
          return m->scratch->str;
        }
    }
  if (strcmp(name, "SDATA") == 0)
    {
      g_string_truncate(m->scratch, 0);
      pdb_tool_message_format_sdata(m->msg, m->scratch);
      *length = m->scratch->len;
      return m->scratch->str;
    }
  return pdb_tool_message_get(m->msg, name, length);
}

/* -F's flags(store-matches): $0..$N replace the message's earlier ones */
void
pdb_match_store_matches(const PdbFilterGroups *groups, gpointer user_data)
{
  Matcher *m = user_data;
  /* the groups may point into the store's own slots: copy them first */
  gchar **copies = g_new0(gchar *, groups->count);

  for (guint i = 0; i < groups->count; i++)
    copies[i] = groups->values[i] ? g_strndup(groups->values[i], groups->lengths[i]) : NULL;
  pdb_tool_message_clear_matches(m->msg);
  for (guint i = 0; i < groups->count; i++)
    if (copies[i])
      pdb_tool_message_set_handle(m->msg, PDB_TOOL_HANDLE_MATCH_0 + i, copies[i], groups->lengths[i],
                                  PDB_VALUE_STRING);
  for (guint n = 0; n < groups->name_count; n++)
    {
      guint g = groups->name_groups[n];

      pdb_tool_message_set(m->msg, groups->names[n], -1, copies[g], groups->lengths[g], PDB_VALUE_STRING);
    }
  for (guint i = 0; i < groups->count; i++)
    g_free(copies[i]);
  g_free(copies);
}

/* -F's tags() */
gboolean
pdb_match_store_has_tag(const gchar *tag, gpointer user_data)
{
  Matcher *m = user_data;

  return pdb_tool_message_has_tag(m->msg, tag);
}

/*
 * message-format.c: the outputs of the tool's name-value store: pdbtool's
 * NAME=value lines, the TAGS list and the JSON object, values in handle
 * order (the order names were first met, as 3.38 prints them).
 */
#include "tool/message-private.h"
#include "tool/json.h"
#include "db/list-repr.h"

#include <stdlib.h>
#include <string.h>

static int
compare_uint(const void *a, const void *b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

void
pdb_tool_message_sort_set(PdbToolMessage *msg)
{
  if (msg->set_handles.len > 1)
    qsort(msg->set_handles.data, msg->set_handles.len, sizeof(guint), compare_uint);
  if (msg->set_tags.len > 1)
    qsort(msg->set_tags.data, msg->set_tags.len, sizeof(guint), compare_uint);
}

void
pdb_tool_message_format_tags(PdbToolMessage *msg, GString *out)
{
  gboolean first = TRUE;

  pdb_tool_message_sort_set(msg);
  for (guint i = 0; i < msg->set_tags.len; i++)
    {
      guint id = msg->set_tags.data[i];

      if (!first)
        g_string_append_c(out, ',');
      const gchar *tag = g_ptr_array_index(msg->tag_names, id - 1);

      pdb_list_append_element(out, tag, strlen(tag));
      first = FALSE;
    }
}

void
pdb_tool_message_format_values(PdbToolMessage *msg, GString *out)
{
  pdb_tool_message_sort_set(msg);
  for (guint i = 0; i < msg->set_handles.len; i++)
    {
      guint h = msg->set_handles.data[i];
      const Slot *slot = &g_array_index(msg->slots, Slot, h - 1);

      g_string_append(out, g_ptr_array_index(msg->names, h - 1));
      g_string_append_c(out, '=');
      g_string_append_len(out, slot->str, slot->len);
      g_string_append_c(out, '\n');
    }
  g_string_append(out, "TAGS=");
  pdb_tool_message_format_tags(msg, out);
  g_string_append_c(out, '\n');
}

/* The value of @name as a JSON string, or null when it is not set. */
static void
append_json_value_or_null(PdbToolMessage *msg, const gchar *name, GString *out)
{
  gssize len;
  const gchar *v = pdb_tool_message_get(msg, name, &len);

  if (v)
    pdb_json_append_string(out, v, len);
  else
    g_string_append(out, "null");
}

void
pdb_tool_message_format_json(PdbToolMessage *msg, GString *out)
{
  gboolean first = TRUE;

  pdb_tool_message_sort_set(msg);
  g_string_append(out, "{\"class\":");
  append_json_value_or_null(msg, ".classifier.class", out);
  g_string_append(out, ",\"rule_id\":");
  append_json_value_or_null(msg, ".classifier.rule_id", out);
  g_string_append(out, ",\"tags\":[");
  for (guint i = 0; i < msg->set_tags.len; i++)
    {
      if (i)
        g_string_append_c(out, ',');
      pdb_json_append_string(out, g_ptr_array_index(msg->tag_names, msg->set_tags.data[i] - 1), -1);
    }
  g_string_append(out, "],\"values\":{");
  for (guint i = 0; i < msg->set_handles.len; i++)
    {
      guint h = msg->set_handles.data[i];
      const Slot *slot = &g_array_index(msg->slots, Slot, h - 1);

      if (!first)
        g_string_append_c(out, ',');
      first = FALSE;
      pdb_json_append_string(out, g_ptr_array_index(msg->names, h - 1), -1);
      g_string_append_c(out, ':');
      if ((slot->type == PDB_VALUE_INT64 && pdb_json_is_number(slot->str, slot->len, TRUE))
          || (slot->type == PDB_VALUE_DOUBLE && pdb_json_is_number(slot->str, slot->len, FALSE)))
        g_string_append_len(out, slot->str, slot->len);
      else
        pdb_json_append_string(out, slot->str, slot->len);
    }
  g_string_append(out, "}}");
}

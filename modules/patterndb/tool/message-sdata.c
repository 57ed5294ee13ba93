/*
 * message-sdata.c: the order of a message's .SDATA.* values and $SDATA
 * (see message-sdata.h for the rules, found by asking pdbtool 3.38; the
 * cases are in tests/differential/test-syslog-sdata.sh).
 *
 * Invariant: order->handles[0 .. len) are distinct handles whose names
 * start with ".SDATA.", in the order $SDATA prints them.
 */
#include "tool/message-sdata.h"

#include <string.h>

#define SDATA_PREFIX ".SDATA."
#define SDATA_PREFIX_LEN 7

gboolean
pdb_sdata_is_name(const gchar *name)
{
  return strncmp(name, SDATA_PREFIX, SDATA_PREFIX_LEN) == 0;
}

static const gchar *
handle_name(const GPtrArray *names, guint handle)
{
  return g_ptr_array_index(names, handle - 1);
}

/* Where a name entered after the header goes: after the last name that
 * shares its bytes up to its last '.', else first. */
static guint
later_position(const PdbSdataOrder *order, const gchar *name, const GPtrArray *names)
{
  const gchar *dot = strrchr(name, '.');
  gsize block = (gsize) (dot - name);

  for (guint i = order->len; i > 0; i--)
    {
      const gchar *other = handle_name(names, order->handles[i - 1]);

      if (strlen(other) > block && strncmp(other, name, block) == 0)
        return i;
    }
  return 0;
}

void
pdb_sdata_order_insert(PdbSdataOrder *order, guint handle, const GPtrArray *names, gboolean header)
{
  guint at = header ? order->len : later_position(order, handle_name(names, handle), names);

  if (order->len == order->cap)
    {
      order->cap = order->cap ? order->cap * 2 : 16;
      order->handles = g_renew(guint, order->handles, order->cap);
    }
  memmove(order->handles + at + 1, order->handles + at, (order->len - at) * sizeof(guint));
  order->handles[at] = handle;
  order->len++;
}

static void
append_escaped(GString *out, const gchar *value, gsize length)
{
  gsize start = 0;

  for (gsize i = 0; i < length; i++)
    if (value[i] == '"' || value[i] == '\\' || value[i] == ']')
      {
        g_string_append_len(out, value + start, i - start);
        g_string_append_c(out, '\\');
        start = i;
      }
  g_string_append_len(out, value + start, length - start);
}

void
pdb_sdata_order_format(const PdbSdataOrder *order, const GPtrArray *names,
                       PdbSdataValueFunc value_of, gpointer user_data, GString *out)
{
  const gchar *open_id = NULL;
  gsize open_id_len = 0;

  for (guint i = 0; i < order->len; i++)
    {
      const gchar *id = handle_name(names, order->handles[i]) + SDATA_PREFIX_LEN;
      const gchar *dot = strrchr(id, '.');
      gsize id_len = dot ? (gsize) (dot - id) : strlen(id);

      if (!open_id || id_len != open_id_len || memcmp(id, open_id, id_len) != 0)
        {
          if (open_id)
            g_string_append_c(out, ']');
          g_string_append_c(out, '[');
          g_string_append_len(out, id, id_len);
          open_id = id;
          open_id_len = id_len;
        }
      if (dot)
        {
          gsize length = 0;
          const gchar *value = value_of(order->handles[i], &length, user_data);

          g_string_append_c(out, ' ');
          g_string_append(out, dot + 1);
          g_string_append(out, "=\"");
          append_escaped(out, value, length);
          g_string_append_c(out, '"');
        }
    }
  if (open_id)
    g_string_append_c(out, ']');
}

void
pdb_sdata_order_clear(PdbSdataOrder *order)
{
  g_free(order->handles);
  order->handles = NULL;
  order->len = order->cap = 0;
}

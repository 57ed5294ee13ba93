/*
 * corr-host.c: the correlation host of `patterndb match` (see corr-host.h).
 *
 * It is pdb_nv_message_host with macros: a date macro without prefix or
 * with S_ reads the snapshot's own stamp (a generated message has the
 * stamp of the context's newest message), R_, P_ and C_ the wall clock
 * (in pdbtool a message is received, processed and printed within the
 * same run, so those are "now" there too). $TAGS and $MSGHDR are formatted
 * from the snapshot's tags and header values, the priority macros from
 * its priority (a message made for inherit-mode none has user.notice).
 */
#include "tool/corr-host.h"
#include "tool/pri-macros.h"

#include <string.h>

void
pdb_tool_snapshot_time(PdbNvMessage *msg, PdbToolTime *out)
{
  PdbNvTime stamp;

  if (!pdb_nv_message_get_stamp(msg, &stamp))
    {
      pdb_tool_time_now(out);
      return;
    }
  out->sec = stamp.sec;
  out->usec = stamp.usec;
  out->gmtoff = stamp.gmtoff;
}

/* $MSGHDR: the header the message was read with, else PROGRAM[PID]: */
static void
append_msghdr(PdbNvMessage *msg, GString *out)
{
  gssize len = 0;
  const gchar *v = pdb_nv_message_get(msg, "LEGACY_MSGHDR", &len);

  if (v)
    {
      g_string_append_len(out, v, len);
      return;
    }
  v = pdb_nv_message_get(msg, "PROGRAM", &len);
  if (!v || !len)
    return;
  g_string_append_len(out, v, len);
  v = pdb_nv_message_get(msg, "PID", &len);
  if (v && len)
    g_string_append_printf(out, "[%.*s]", (int) len, v);
  g_string_append(out, ": ");
}

/* $TAGS: the tags in the order they were set, comma separated */
static void
append_tags(PdbNvMessage *msg, GString *out)
{
  const GPtrArray *tags = pdb_nv_message_get_tags(msg);

  for (guint i = 0; i < tags->len; i++)
    {
      if (i)
        g_string_append_c(out, ',');
      g_string_append(out, g_ptr_array_index(tags, i));
    }
}

gint
pdb_tool_snapshot_pri(PdbNvMessage *msg)
{
  gint pri = pdb_nv_message_get_pri(msg);

  return pri >= 0 ? pri : PDB_TOOL_DEFAULT_PRI;
}

static gboolean
append_macro(gpointer macro_data, gpointer msg, const gchar *name, GString *out)
{
  PdbToolTimeFamily family;
  PdbToolDateField field;
  PdbToolTime t;

  (void) macro_data;
  if (strcmp(name, "TAGS") == 0)
    {
      append_tags(msg, out);
      return TRUE;
    }
  if (strcmp(name, "MSGHDR") == 0)
    {
      append_msghdr(msg, out);
      return TRUE;
    }
  if (pdb_tool_pri_macro_append(name, pdb_tool_snapshot_pri(msg), out))
    return TRUE;
  if (strcmp(name, "FULLHOST") == 0)
    {
      gssize len = 0;
      const gchar *host = pdb_nv_message_get(msg, "HOST", &len);

      if (host)
        g_string_append_len(out, host, len);
      return TRUE;
    }
  if (!pdb_tool_date_macro_parse(name, &family, &field))
    return FALSE;
  if (family == PDB_TOOL_TIME_STAMP)
    pdb_tool_snapshot_time(msg, &t);
  else
    pdb_tool_time_now(&t);
  pdb_tool_date_macro_append(field, &t, out);
  return TRUE;
}

static gpointer
host_ref(gpointer msg)
{
  return pdb_nv_message_host.ref(msg);
}

static void
host_unref(gpointer msg)
{
  pdb_nv_message_host.unref(msg);
}

static gpointer
host_create(gpointer base)
{
  return pdb_nv_message_host.create(base);
}

static void
host_merge(gpointer dst, gpointer src)
{
  pdb_nv_message_host.merge(dst, src);
}

static void
host_copy_time(gpointer dst, gpointer src)
{
  pdb_nv_message_host.copy_time(dst, src);
}

const PdbCorrelationHost pdb_tool_correlation_host =
{
  .ops = &pdb_nv_message_ops,
  .ref = host_ref,
  .unref = host_unref,
  .create = host_create,
  .merge = host_merge,
  .copy_time = host_copy_time,
  .append_macro = append_macro,
};

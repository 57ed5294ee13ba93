/*
 * sng-correlation.c: the PdbCorrelationHost for LogMessages.
 *
 * Contexts keep a reference to the LogMessage the parser classified (as
 * syslog-ng's own correlation does). Generated messages are new local
 * messages (timestamps: now); with an inherit mode they get a copy of the
 * base message's values (typed) and tags. Writing PROGRAM or PID drops
 * LEGACY_MSGHDR inside syslog-ng itself, which is what 3.38 shows.
 * Macros ($ISODATE, $R_YEAR, $TAGS ...) are syslog-ng's own, expanded for
 * the message they name with the parser's configuration's template options
 * (the correlation state's macro data, a LogTemplateOptions*).
 */
#include "sng-correlation.h"
#include "sng-compat.h"
#include "template/macros.h"
#include "message-ops.h"

#include <string.h>

static const gchar *
host_get(gpointer msg, const gchar *name, gssize *length)
{
  NVHandle handle = log_msg_get_value_handle(name);
  gssize len = 0;
  const gchar *value;

  if (!handle)
    return NULL;
  value = log_msg_get_value_if_set((LogMessage *) msg, handle, &len);
  if (length)
    *length = len;
  return value;
}

static void
host_set(gpointer msg, const gchar *name, const gchar *value, gssize length, PdbValueType type)
{
  LogMessageValueType t = LM_VT_STRING;

  if (type == PDB_VALUE_INT64)
    t = PDB_SNG_VT_INTEGER;
  else if (type == PDB_VALUE_DOUBLE)
    t = LM_VT_DOUBLE;
  log_msg_set_value_by_name_with_type((LogMessage *) msg, name, value, length, t);
}

static void
host_set_tag(gpointer msg, const gchar *tag)
{
  log_msg_set_tag_by_name((LogMessage *) msg, tag);
}

static void
host_clear_tag(gpointer msg, const gchar *tag)
{
  log_msg_clear_tag_by_name((LogMessage *) msg, tag);
}

static gboolean
host_has_tag(gpointer msg, const gchar *tag)
{
  return log_msg_is_tag_by_name((LogMessage *) msg, tag);
}

static void
host_unset(gpointer msg, const gchar *name)
{
  log_msg_unset_value_by_name((LogMessage *) msg, name);
}

/* host_get() with the value's type, for <value>s that are one plain reference. */
static const gchar *
host_get_typed(gpointer msg, const gchar *name, gssize *length, PdbValueType *type)
{
  NVHandle handle = log_msg_get_value_handle(strcmp(name, "MSG") == 0 ? "MESSAGE" : name);
  LogMessageValueType lm_type = LM_VT_STRING;
  gssize len = 0;
  const gchar *value;

  if (!handle)
    return NULL;
  value = log_msg_get_value_if_set_with_type((LogMessage *) msg, handle, &len, &lm_type);
  if (length)
    *length = len;
  *type = pdb_sng_value_type_from(lm_type);
  return value;
}

static const PdbMessageOps host_ops =
{
  .get = host_get,
  .set = host_set,
  .set_tag = host_set_tag,
  .clear_tag = host_clear_tag,
  .has_tag = host_has_tag,
  .unset = host_unset,
  .get_typed = host_get_typed,
};

static gpointer
host_ref(gpointer msg)
{
  return log_msg_ref((LogMessage *) msg);
}

static void
host_unref(gpointer msg)
{
  log_msg_unref((LogMessage *) msg);
}

static gboolean
copy_missing(NVHandle handle, const gchar *name, const gchar *value, gssize value_len, NVType type,
             gpointer user_data)
{
  LogMessage *dst = user_data;

  (void) name;
  gssize len;

  if (!log_msg_get_value_if_set(dst, handle, &len))
    log_msg_set_value_with_type(dst, handle, value, value_len, (LogMessageValueType) type);
  return FALSE;
}

static gboolean
copy_tag(const LogMessage *src, LogTagId tag_id, const gchar *name, gpointer user_data)
{
  (void) src;
  (void) name;
  log_msg_set_tag_by_id((LogMessage *) user_data, tag_id);
  return TRUE;
}

static void
host_merge(gpointer dst, gpointer src)
{
  log_msg_values_foreach((LogMessage *) src, copy_missing, dst);
}

static gpointer
host_create(gpointer base)
{
  LogMessage *msg = log_msg_new_local();

  if (base)
    {
      LogMessage *b = base;

      log_msg_values_foreach(b, copy_missing, msg);
      log_msg_tags_foreach(b, copy_tag, msg);
      msg->pri = b->pri;
      /* 3.38 clones the base message, so a generated message carries the
       * times of the context's newest message, not the time it fired. */
      for (gint i = 0; i < LM_TS_MAX; i++)
        msg->timestamps[i] = b->timestamps[i];
    }
  return msg;
}

/* inherit-mode none: 3.38 still stamps the new message with the newest
 * context message's time (RECVD stays "now", as there). */
static void
host_copy_time(gpointer dst, gpointer src)
{
  ((LogMessage *) dst)->timestamps[LM_TS_STAMP] = ((LogMessage *) src)->timestamps[LM_TS_STAMP];
}

static gboolean
host_append_macro(gpointer macro_data, gpointer msg, const gchar *name, GString *out)
{
  guint id = log_macro_lookup(name, strlen(name));

  if (!id)
    return FALSE;
  if (macro_data)
    {
      LogTemplateEvalOptions options = { macro_data, LTZ_LOCAL, 0, NULL, LM_VT_STRING };

      pdb_sng_macro_expand(id, &options, (LogMessage *) msg, out, NULL);
    }
  else
    log_macro_expand_simple(id, (LogMessage *) msg, out, NULL);
  return TRUE;
}

const PdbCorrelationHost pdb_sng_correlation_host =
{
  .ops = &host_ops,
  .ref = host_ref,
  .unref = host_unref,
  .create = host_create,
  .merge = host_merge,
  .copy_time = host_copy_time,
  .append_macro = host_append_macro,
};

/*
 * nv-message.c: the snapshot message of nv-message.h.
 *
 * Invariant: each name appears at most once in `values` and each tag at
 * most once in `tags`; a message is freed when its last reference goes.
 * A message is not locked: the correlation state only touches messages
 * under its own lock, and a host shares one only after it is finished.
 */
#include "correlation/nv-message.h"

#include <string.h>

typedef struct
{
  gchar *name;
  GString *value;
  PdbValueType type;
} NvPair;

struct _PdbNvMessage
{
  gint refs;
  GArray *values;   /* of NvPair */
  GPtrArray *tags;  /* of gchar* */
  PdbNvTime stamp;
  gboolean has_stamp;
};

PdbNvMessage *
pdb_nv_message_new(void)
{
  PdbNvMessage *msg = g_new0(PdbNvMessage, 1);

  msg->refs = 1;
  msg->values = g_array_new(FALSE, FALSE, sizeof(NvPair));
  msg->tags = g_ptr_array_new_with_free_func(g_free);
  return msg;
}

PdbNvMessage *
pdb_nv_message_ref(PdbNvMessage *msg)
{
  g_atomic_int_inc(&msg->refs);
  return msg;
}

void
pdb_nv_message_unref(PdbNvMessage *msg)
{
  if (!msg || !g_atomic_int_dec_and_test(&msg->refs))
    return;
  for (guint i = 0; i < msg->values->len; i++)
    {
      NvPair *p = &g_array_index(msg->values, NvPair, i);
      g_free(p->name);
      g_string_free(p->value, TRUE);
    }
  g_array_free(msg->values, TRUE);
  g_ptr_array_free(msg->tags, TRUE);
  g_free(msg);
}

static NvPair *
find(PdbNvMessage *msg, const gchar *name)
{
  for (guint i = 0; i < msg->values->len; i++)
    {
      NvPair *p = &g_array_index(msg->values, NvPair, i);
      if (strcmp(p->name, name) == 0)
        return p;
    }
  return NULL;
}

void
pdb_nv_message_set(PdbNvMessage *msg, const gchar *name, const gchar *value, gssize length,
                   PdbValueType type)
{
  NvPair *p = find(msg, name);

  if (length < 0)
    length = strlen(value);
  if (strcmp(name, "PROGRAM") == 0 || strcmp(name, "PID") == 0)
    {
      NvPair *h = find(msg, "LEGACY_MSGHDR");

      if (h)
        {
          guint i = h - &g_array_index(msg->values, NvPair, 0);

          g_free(h->name);
          g_string_free(h->value, TRUE);
          g_array_remove_index(msg->values, i);
          p = find(msg, name);
        }
    }
  if (!p)
    {
      NvPair n = { g_strdup(name), g_string_sized_new(length + 1), type };
      g_array_append_val(msg->values, n);
      p = &g_array_index(msg->values, NvPair, msg->values->len - 1);
    }
  g_string_truncate(p->value, 0);
  g_string_append_len(p->value, value, length);
  p->type = type;
}

const gchar *
pdb_nv_message_get(PdbNvMessage *msg, const gchar *name, gssize *length)
{
  NvPair *p = find(msg, name);

  if (!p)
    return NULL;
  if (length)
    *length = p->value->len;
  return p->value->str;
}

void
pdb_nv_message_set_stamp(PdbNvMessage *msg, const PdbNvTime *stamp)
{
  msg->stamp = *stamp;
  msg->has_stamp = TRUE;
}

gboolean
pdb_nv_message_get_stamp(PdbNvMessage *msg, PdbNvTime *stamp)
{
  if (msg->has_stamp)
    *stamp = msg->stamp;
  return msg->has_stamp;
}

gboolean
pdb_nv_message_has_tag(PdbNvMessage *msg, const gchar *tag)
{
  for (guint i = 0; i < msg->tags->len; i++)
    if (strcmp(g_ptr_array_index(msg->tags, i), tag) == 0)
      return TRUE;
  return FALSE;
}

void
pdb_nv_message_set_tag(PdbNvMessage *msg, const gchar *tag)
{
  if (!pdb_nv_message_has_tag(msg, tag))
    g_ptr_array_add(msg->tags, g_strdup(tag));
}

void
pdb_nv_message_clear_tag(PdbNvMessage *msg, const gchar *tag)
{
  for (guint i = 0; i < msg->tags->len; i++)
    if (strcmp(g_ptr_array_index(msg->tags, i), tag) == 0)
      {
        g_ptr_array_remove_index(msg->tags, i);
        return;
      }
}

void
pdb_nv_message_foreach(PdbNvMessage *msg, PdbNvValueFunc func, gpointer user_data)
{
  for (guint i = 0; i < msg->values->len; i++)
    {
      NvPair *p = &g_array_index(msg->values, NvPair, i);
      func(p->name, p->value->str, p->value->len, p->type, user_data);
    }
}

const GPtrArray *
pdb_nv_message_get_tags(PdbNvMessage *msg)
{
  return msg->tags;
}

/* ---- adapters ---- */

static const gchar *
ops_get(gpointer msg, const gchar *name, gssize *length)
{
  return pdb_nv_message_get(msg, name, length);
}

static void
ops_set(gpointer msg, const gchar *name, const gchar *value, gssize length, PdbValueType type)
{
  pdb_nv_message_set(msg, name, value, length, type);
}

static void
ops_set_tag(gpointer msg, const gchar *tag)
{
  pdb_nv_message_set_tag(msg, tag);
}

static void
ops_clear_tag(gpointer msg, const gchar *tag)
{
  pdb_nv_message_clear_tag(msg, tag);
}

const PdbMessageOps pdb_nv_message_ops = { ops_get, ops_set, ops_set_tag, ops_clear_tag };

static gpointer
host_ref(gpointer msg)
{
  return pdb_nv_message_ref(msg);
}

static void
host_unref(gpointer msg)
{
  pdb_nv_message_unref(msg);
}

static void
copy_missing(const gchar *name, const gchar *value, gsize length, PdbValueType type, gpointer user_data)
{
  if (!find(user_data, name))
    pdb_nv_message_set(user_data, name, value, length, type);
}

static void
host_merge(gpointer dst, gpointer src)
{
  pdb_nv_message_foreach(src, copy_missing, dst);
}

static gpointer
host_create(gpointer base)
{
  PdbNvMessage *msg = pdb_nv_message_new();
  PdbNvMessage *b = base;

  if (b)
    {
      pdb_nv_message_foreach(b, copy_missing, msg);
      for (guint i = 0; i < b->tags->len; i++)
        pdb_nv_message_set_tag(msg, g_ptr_array_index(b->tags, i));
      msg->stamp = b->stamp;
      msg->has_stamp = b->has_stamp;
    }
  return msg;
}

static void
host_copy_time(gpointer dst, gpointer src)
{
  PdbNvMessage *d = dst, *s = src;

  d->stamp = s->stamp;
  d->has_stamp = s->has_stamp;
}

const PdbCorrelationHost pdb_nv_message_host =
{
  .ops = &pdb_nv_message_ops,
  .ref = host_ref,
  .unref = host_unref,
  .create = host_create,
  .merge = host_merge,
  .copy_time = host_copy_time,
};

/*
 * nv-message.c: the snapshot message of nv-message.h.
 *
 * Storage: the names and values live in one byte buffer (`text`), each
 * pair an NvPair of offsets into it, so a snapshot or a copy costs a few
 * allocations, not two per value. A value rewritten no longer than it was
 * is overwritten in place; a longer one is appended and the old bytes are
 * left unused. Every name and value in `text` is NUL-terminated.
 *
 * Invariant: each name appears at most once in `values` and each tag at
 * most once in `tags`; a message is freed when its last reference goes.
 * A message is not locked: the correlation state only touches messages
 * under its own lock, and a host shares one only after it is finished.
 */
#include "correlation/nv-message.h"
#include "db/template.h"

#include <string.h>

typedef struct
{
  guint32 name;       /* offset of the name in text */
  guint32 name_len;
  guint32 value;      /* offset of the value in text */
  guint32 value_len;
  guint32 value_room; /* bytes available at `value` (without the NUL) */
  PdbValueType type;
} NvPair;

struct _PdbNvMessage
{
  gint refs;
  GArray *values;   /* of NvPair, in the order the names were first set */
  GString *text;    /* names and values */
  GPtrArray *tags;  /* of gchar* */
  PdbNvTime stamp;
  gboolean has_stamp;
  gint pri;         /* -1: none */
  gchar pri_text[12]; /* "PRI" as ops.get answers it */
  GString *names_text; /* PDB_TEMPLATE_VALUE_NAMES as ops.get answers it; NULL until asked */
};

PdbNvMessage *
pdb_nv_message_new(void)
{
  PdbNvMessage *msg = g_new0(PdbNvMessage, 1);

  msg->refs = 1;
  msg->values = g_array_new(FALSE, FALSE, sizeof(NvPair));
  msg->text = g_string_sized_new(256);
  msg->tags = g_ptr_array_new_with_free_func(g_free);
  msg->pri = -1;
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
  g_array_free(msg->values, TRUE);
  g_string_free(msg->text, TRUE);
  if (msg->names_text)
    g_string_free(msg->names_text, TRUE);
  g_ptr_array_free(msg->tags, TRUE);
  g_free(msg);
}

static NvPair *
find(PdbNvMessage *msg, const gchar *name, gsize name_len)
{
  for (guint i = 0; i < msg->values->len; i++)
    {
      NvPair *p = &g_array_index(msg->values, NvPair, i);

      if (p->name_len == name_len && memcmp(msg->text->str + p->name, name, name_len) == 0)
        return p;
    }
  return NULL;
}

/* Appends @length bytes and a NUL to text; returns their offset. */
static guint32
append_text(PdbNvMessage *msg, const gchar *bytes, gsize length)
{
  guint32 at = (guint32) msg->text->len;

  g_string_append_len(msg->text, bytes, length);
  g_string_append_c(msg->text, '\0');
  return at;
}

static void
add_pair(PdbNvMessage *msg, const gchar *name, gsize name_len, const gchar *value, gsize length,
         PdbValueType type)
{
  NvPair n;

  n.name = append_text(msg, name, name_len);
  n.name_len = (guint32) name_len;
  n.value = append_text(msg, value, length);
  n.value_len = n.value_room = (guint32) length;
  n.type = type;
  g_array_append_val(msg->values, n);
}

static void
drop_pair(PdbNvMessage *msg, const gchar *name)
{
  NvPair *p = find(msg, name, strlen(name));

  if (p)
    g_array_remove_index(msg->values, (guint) (p - &g_array_index(msg->values, NvPair, 0)));
}

void
pdb_nv_message_set(PdbNvMessage *msg, const gchar *name, const gchar *value, gssize length,
                   PdbValueType type)
{
  gsize name_len = strlen(name);
  NvPair *p;

  if (length < 0)
    length = strlen(value);
  if ((name_len == 7 && strcmp(name, "PROGRAM") == 0) || (name_len == 3 && strcmp(name, "PID") == 0))
    drop_pair(msg, "LEGACY_MSGHDR");
  p = find(msg, name, name_len);
  if (!p)
    {
      add_pair(msg, name, name_len, value, length, type);
      return;
    }
  if ((gsize) length <= p->value_room)
    {
      memmove(msg->text->str + p->value, value, length);
      msg->text->str[p->value + length] = '\0';
    }
  else
    {
      /* @value may point into text, which the append may move */
      gchar *copy = g_strndup(value, length);

      p->value = append_text(msg, copy, length);
      p->value_room = (guint32) length;
      g_free(copy);
    }
  p->value_len = (guint32) length;
  p->type = type;
}

void
pdb_nv_message_unset(PdbNvMessage *msg, const gchar *name)
{
  drop_pair(msg, name);
}

void
pdb_nv_message_add(PdbNvMessage *msg, const gchar *name, const gchar *value, gssize length,
                   PdbValueType type)
{
  if (length < 0)
    length = strlen(value);
  add_pair(msg, name, strlen(name), value, length, type);
}

const gchar *
pdb_nv_message_get(PdbNvMessage *msg, const gchar *name, gssize *length)
{
  NvPair *p = find(msg, name, strlen(name));

  if (!p)
    return NULL;
  if (length)
    *length = p->value_len;
  return msg->text->str + p->value;
}

void
pdb_nv_message_set_stamp(PdbNvMessage *msg, const PdbNvTime *stamp)
{
  msg->stamp = *stamp;
  msg->has_stamp = TRUE;
}

void
pdb_nv_message_set_pri(PdbNvMessage *msg, gint pri)
{
  msg->pri = pri;
}

gint
pdb_nv_message_get_pri(PdbNvMessage *msg)
{
  return msg->pri;
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

      func(msg->text->str + p->name, msg->text->str + p->value, p->value_len, p->type, user_data);
    }
}

const GPtrArray *
pdb_nv_message_get_tags(PdbNvMessage *msg)
{
  return msg->tags;
}

/* ---- adapters ---- */

/* Every set name, each followed by a NUL ($(names), $(values)). */
static const gchar *
value_names(PdbNvMessage *self, gssize *length)
{
  if (!self->names_text)
    self->names_text = g_string_new(NULL);
  g_string_truncate(self->names_text, 0);
  for (guint i = 0; i < self->values->len; i++)
    {
      const NvPair *p = &g_array_index(self->values, NvPair, i);

      g_string_append_len(self->names_text, self->text->str + p->name, p->name_len);
      g_string_append_c(self->names_text, '\0');
    }
  if (length)
    *length = self->names_text->len;
  return self->names_text->str;
}

static const gchar *
ops_get(gpointer msg, const gchar *name, gssize *length)
{
  PdbNvMessage *self = msg;
  const gchar *v = pdb_nv_message_get(msg, name, length);

  if (G_UNLIKELY(!v) && name[0] == PDB_TEMPLATE_VALUE_NAMES[0] && strcmp(name, PDB_TEMPLATE_VALUE_NAMES) == 0)
    return value_names(self, length);
  if (!v && self->pri >= 0 && strcmp(name, "PRI") == 0)
    {
      g_snprintf(self->pri_text, sizeof(self->pri_text), "%d", self->pri);
      if (length)
        *length = strlen(self->pri_text);
      return self->pri_text;
    }
  return v;
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

static gboolean
ops_has_tag(gpointer msg, const gchar *tag)
{
  return pdb_nv_message_has_tag(msg, tag);
}

static void
ops_unset(gpointer msg, const gchar *name)
{
  pdb_nv_message_unset(msg, name);
}

const PdbMessageOps pdb_nv_message_ops = { ops_get, ops_set, ops_set_tag, ops_clear_tag, ops_has_tag, ops_unset };

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
  PdbNvMessage *dst = user_data;

  if (!find(dst, name, strlen(name)))
    add_pair(dst, name, strlen(name), value, length, type);
}

static void
host_merge(gpointer dst, gpointer src)
{
  pdb_nv_message_foreach(src, copy_missing, dst);
}

/* A copy of @base's values (the pairs and their text as they are) and tags. */
static gpointer
host_create(gpointer base)
{
  PdbNvMessage *msg = pdb_nv_message_new();
  PdbNvMessage *b = base;

  if (b)
    {
      g_array_append_vals(msg->values, b->values->data, b->values->len);
      g_string_append_len(msg->text, b->text->str, b->text->len);
      for (guint i = 0; i < b->tags->len; i++)
        g_ptr_array_add(msg->tags, g_strdup(g_ptr_array_index(b->tags, i)));
      msg->stamp = b->stamp;
      msg->has_stamp = b->has_stamp;
      msg->pri = b->pri;
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

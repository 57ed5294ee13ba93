/*
 * message.c: the tool's reusable name-value store (see message.h).
 *
 * Invariant: a name's handle never changes once given, handles grow in the
 * order names are first met, and values[h].stamp == msg->stamp exactly
 * when name h is set in the current message (same for tags). Resetting a
 * message is one counter increment plus truncating two small arrays.
 * Setting a value copies it into the slot's own buffer, which only grows.
 */
#include "tool/message-private.h"
#include "db/filter-expr.h"
#include "db/template.h"

#include <stdlib.h>
#include <string.h>

static G_GNUC_NO_INLINE void
stack_grow(UintStack *st)
{
  st->cap = st->cap ? st->cap * 2 : 32;
  st->data = g_renew(guint, st->data, st->cap);
}

static inline void
stack_push(UintStack *st, guint v)
{
  if (G_UNLIKELY(st->len == st->cap))
    stack_grow(st);
  st->data[st->len++] = v;
}

/* 3.38's built-in value handles, in their numbering order. */
static const gchar *const builtin_names[] =
{
  "HOST", "HOST_FROM", "MESSAGE", "PROGRAM", "PID", "MSGID", "SOURCE", "LEGACY_MSGHDR",
  ".classifier.context_id", ".classifier.class", ".classifier.rule_id",
  /* 3.38's syslog parser numbers its Cisco-header names when it starts */
  ".SDATA.timeQuality.isSynced", ".SDATA.meta.sequenceId",
};

static guint
lookup_handle(PdbToolMessage *msg, const gchar *name, gssize length, gboolean create)
{
  gchar stack[128];
  const gchar *key = name;
  gchar *heap = NULL;
  gpointer found;

  if (length >= 0)
    {
      if ((gsize) length < sizeof(stack))
        {
          memcpy(stack, name, length);
          stack[length] = '\0';
          key = stack;
        }
      else
        key = heap = g_strndup(name, length);
    }
  found = g_hash_table_lookup(msg->handles, key);
  if (found || !create)
    {
      g_free(heap);
      return GPOINTER_TO_UINT(found);
    }

  gchar *owned = heap ? heap : g_strdup(key);
  Slot slot = { g_malloc(16), 0, 16, PDB_VALUE_STRING, 0, pdb_sdata_is_name(owned) };

  slot.str[0] = '\0';

  g_ptr_array_add(msg->names, owned);
  g_array_append_val(msg->slots, slot);
  g_hash_table_insert(msg->handles, owned, GUINT_TO_POINTER(msg->names->len));
  return msg->names->len;
}

static guint
lookup_tag(PdbToolMessage *msg, const gchar *tag, gboolean create)
{
  gpointer found = g_hash_table_lookup(msg->tag_ids, tag);
  guint32 zero = 0;

  if (found || !create)
    return GPOINTER_TO_UINT(found);
  gchar *owned = g_strdup(tag);
  g_ptr_array_add(msg->tag_names, owned);
  g_array_append_val(msg->tag_stamps, zero);
  g_hash_table_insert(msg->tag_ids, owned, GUINT_TO_POINTER(msg->tag_names->len));
  return msg->tag_names->len;
}

PdbToolMessage *
pdb_tool_message_new(void)
{
  PdbToolMessage *msg = g_new0(PdbToolMessage, 1);

  msg->handles = g_hash_table_new(g_str_hash, g_str_equal);
  msg->names = g_ptr_array_new_with_free_func(g_free);
  msg->slots = g_array_new(FALSE, FALSE, sizeof(Slot));
  msg->tag_ids = g_hash_table_new(g_str_hash, g_str_equal);
  msg->tag_names = g_ptr_array_new_with_free_func(g_free);
  msg->tag_stamps = g_array_new(FALSE, FALSE, sizeof(guint32));
  msg->stamp = 1;
  msg->pri = 13;
  msg->macro_text = g_string_new(NULL);
  msg->names_text = g_string_new(NULL);
  pointer_cache_init(&msg->name_cache, 256);
  pointer_cache_init(&msg->tag_cache, 64);
  for (gsize i = 0; i < G_N_ELEMENTS(builtin_names); i++)
    {
      lookup_handle(msg, builtin_names[i], -1, TRUE);
      /* 3.38 numbers the regex match values $0..$255 right after LEGACY_MSGHDR */
      if (i + 1 == PDB_TOOL_HANDLE_LEGACY_MSGHDR)
        for (guint m = 0; m < PDB_TOOL_MATCH_VALUES; m++)
          {
            gchar name[4];

            g_snprintf(name, sizeof(name), "%u", m);
            lookup_handle(msg, name, -1, TRUE);
          }
    }
  /* registered by 3.38's classifier before any database is read */
  lookup_tag(msg, ".classifier.unknown", TRUE);
  lookup_tag(msg, ".classifier.system", TRUE);
  return msg;
}

void
pdb_tool_message_free(PdbToolMessage *msg)
{
  if (!msg)
    return;
  for (guint i = 0; i < msg->slots->len; i++)
    g_free(g_array_index(msg->slots, Slot, i).str);
  g_string_free(msg->macro_text, TRUE);
  g_string_free(msg->names_text, TRUE);
  g_hash_table_destroy(msg->handles);
  g_ptr_array_free(msg->names, TRUE);
  g_array_free(msg->slots, TRUE);
  g_free(msg->set_handles.data);
  pdb_sdata_order_clear(&msg->sdata_order);
  g_hash_table_destroy(msg->tag_ids);
  g_ptr_array_free(msg->tag_names, TRUE);
  g_array_free(msg->tag_stamps, TRUE);
  g_free(msg->set_tags.data);
  pointer_cache_clear(&msg->name_cache);
  pointer_cache_clear(&msg->tag_cache);
  g_free(msg);
}

void
pdb_tool_message_reset(PdbToolMessage *msg)
{
  msg->stamp++;
  if (msg->stamp == 0)
    {
      /* wrapped after 4 billion messages: clear the stamps once */
      for (guint i = 0; i < msg->slots->len; i++)
        g_array_index(msg->slots, Slot, i).stamp = 0;
      for (guint i = 0; i < msg->tag_stamps->len; i++)
        g_array_index(msg->tag_stamps, guint32, i) = 0;
      msg->stamp = 1;
    }
  msg->set_handles.len = 0;
  msg->set_tags.len = 0;
  msg->header_end = 0;
  msg->sdata_set = FALSE;
}

PdbToolMessageMark
pdb_tool_message_mark(const PdbToolMessage *msg)
{
  return (PdbToolMessageMark) { msg->names->len, msg->tag_names->len };
}

gboolean
pdb_tool_message_marks_equal(PdbToolMessageMark a, PdbToolMessageMark b)
{
  return a.names == b.names && a.tags == b.tags;
}

void
pdb_tool_message_forget_after(PdbToolMessage *msg, PdbToolMessageMark mark)
{
  pdb_tool_message_reset(msg);
  while (msg->names->len > mark.names)
    {
      guint last = msg->names->len - 1;

      g_hash_table_remove(msg->handles, g_ptr_array_index(msg->names, last));
      g_free(g_array_index(msg->slots, Slot, last).str);
      g_array_set_size(msg->slots, last);
      g_ptr_array_set_size(msg->names, last);
    }
  while (msg->tag_names->len > mark.tags)
    {
      guint last = msg->tag_names->len - 1;

      g_hash_table_remove(msg->tag_ids, g_ptr_array_index(msg->tag_names, last));
      g_array_set_size(msg->tag_stamps, last);
      g_ptr_array_set_size(msg->tag_names, last);
    }
}

const gchar *
pdb_tool_message_name(const PdbToolMessage *msg, guint handle)
{
  return handle >= 1 && handle <= msg->names->len ? g_ptr_array_index(msg->names, handle - 1) : NULL;
}

const gchar *
pdb_tool_message_tag_name(const PdbToolMessage *msg, guint id)
{
  return id >= 1 && id <= msg->tag_names->len ? g_ptr_array_index(msg->tag_names, id - 1) : NULL;
}

void
pdb_tool_message_register_name(PdbToolMessage *msg, const gchar *name, gssize length)
{
  lookup_handle(msg, name, length, TRUE);
}

void
pdb_tool_message_register_tag(PdbToolMessage *msg, const gchar *tag)
{
  lookup_tag(msg, tag, TRUE);
}

static G_GNUC_NO_INLINE void
slot_grow(Slot *slot, gsize length)
{
  slot->cap = MAX(length + 1, slot->cap * 2);
  g_free(slot->str);
  slot->str = g_malloc(slot->cap);
}

/* The hot path of every value: inlined into its callers in this file. */
/* @by_name: @h may be a .SDATA.* name's (the built-in handles never are;
 * a constant in each inlined caller, so they skip the test). */
static inline void
slot_set(PdbToolMessage *msg, guint h, const gchar *value, gssize length, PdbValueType type,
         gboolean by_name)
{
  Slot *slot = &g_array_index(msg->slots, Slot, h - 1);

  if (length < 0)
    length = value ? strlen(value) : 0;
  if (slot->stamp != msg->stamp)
    {
      slot->stamp = msg->stamp;
      stack_push(&msg->set_handles, h);
      if (by_name)
        msg->sdata_set |= slot->sdata;
    }
  if (G_UNLIKELY((gsize) length >= slot->cap))
    slot_grow(slot, length);
  if (length)
    memcpy(slot->str, value, length);
  slot->str[length] = '\0';
  slot->len = length;
  slot->type = type;
}

void
pdb_tool_message_clear_matches(PdbToolMessage *msg)
{
  guint kept = 0;

  for (guint i = 0; i < msg->set_handles.len; i++)
    {
      guint h = msg->set_handles.data[i];

      if (h >= PDB_TOOL_HANDLE_MATCH_0 && h < PDB_TOOL_HANDLE_MATCH_0 + PDB_TOOL_MATCH_VALUES)
        g_array_index(msg->slots, Slot, h - 1).stamp = 0;
      else
        msg->set_handles.data[kept++] = h;
    }
  msg->set_handles.len = kept;
}

void
pdb_tool_message_set_handle(PdbToolMessage *msg, guint h, const gchar *value, gssize length,
                            PdbValueType type)
{
  slot_set(msg, h, value, length, type, FALSE);
}

void
pdb_tool_message_set(PdbToolMessage *msg, const gchar *name, gssize name_length,
                     const gchar *value, gssize length, PdbValueType type)
{
  slot_set(msg, lookup_handle(msg, name, name_length, TRUE), value, length, type, TRUE);
}

/* The id (from 1) a pointer cache @entry holds for @name when @names still
 * holds @name at that id; 0 otherwise (the entry is empty, or its id was
 * forgotten since, see pdb_tool_message_forget_after, or reused). */
static inline guint
cached_id_confirmed(const guint *entry, const GPtrArray *names, const gchar *name)
{
  guint id = *entry;

  return id && id <= names->len && strcmp(g_ptr_array_index(names, id - 1), name) == 0 ? id : 0;
}

/* lookup_handle() for a NUL-terminated name, through the pointer cache */
static guint
cached_handle(PdbToolMessage *msg, const gchar *name)
{
  guint *entry = pointer_cache_find(&msg->name_cache, name);
  guint h = cached_id_confirmed(entry, msg->names, name);

  if (!h)
    {
      h = lookup_handle(msg, name, -1, TRUE);
      pointer_cache_store(&msg->name_cache, entry, name, h);
    }
  return h;
}

static Slot *
find_set_slot(PdbToolMessage *msg, const gchar *name)
{
  guint h = cached_handle(msg, name);
  Slot *slot;

  if (!h)
    return NULL;
  slot = &g_array_index(msg->slots, Slot, h - 1);
  return slot->stamp == msg->stamp ? slot : NULL;
}

const gchar *
pdb_tool_message_get(PdbToolMessage *msg, const gchar *name, gssize *length)
{
  Slot *slot = find_set_slot(msg, name);

  if (!slot)
    return NULL;
  if (length)
    *length = slot->len;
  return slot->str;
}

gboolean
pdb_tool_message_get_type(PdbToolMessage *msg, const gchar *name, PdbValueType *type)
{
  Slot *slot = find_set_slot(msg, name);

  if (!slot)
    return FALSE;
  *type = slot->type;
  return TRUE;
}

/* lookup_tag() through a pointer cache (confirmed with strcmp, see PointerCache) */
static guint
cached_tag(PdbToolMessage *msg, const gchar *tag)
{
  guint *entry = pointer_cache_find(&msg->tag_cache, tag);
  guint id = cached_id_confirmed(entry, msg->tag_names, tag);

  if (!id)
    {
      id = lookup_tag(msg, tag, TRUE);
      pointer_cache_store(&msg->tag_cache, entry, tag, id);
    }
  return id;
}

void
pdb_tool_message_set_tag(PdbToolMessage *msg, const gchar *tag)
{
  guint id = cached_tag(msg, tag);
  guint32 *stamp = &g_array_index(msg->tag_stamps, guint32, id - 1);

  if (*stamp != msg->stamp)
    {
      *stamp = msg->stamp;
      stack_push(&msg->set_tags, id);
    }
}

void
pdb_tool_message_clear_tag(PdbToolMessage *msg, const gchar *tag)
{
  guint id = cached_tag(msg, tag);

  if (g_array_index(msg->tag_stamps, guint32, id - 1) != msg->stamp)
    return;
  g_array_index(msg->tag_stamps, guint32, id - 1) = 0;
  for (guint i = 0; i < msg->set_tags.len; i++)
    if (msg->set_tags.data[i] == id)
      {
        memmove(msg->set_tags.data + i, msg->set_tags.data + i + 1,
                (msg->set_tags.len - i - 1) * sizeof(guint));
        msg->set_tags.len--;
        break;
      }
}

gboolean
pdb_tool_message_has_tag(PdbToolMessage *msg, const gchar *tag)
{
  guint id = lookup_tag(msg, tag, FALSE);

  return id && g_array_index(msg->tag_stamps, guint32, id - 1) == msg->stamp;
}

void
pdb_tool_message_set_macro_func(PdbToolMessage *msg, PdbToolMacroFunc func, gpointer user_data)
{
  msg->macro_func = func;
  msg->macro_data = user_data;
}

static const gchar *
ops_get(gpointer msg, const gchar *name, gssize *length)
{
  PdbToolMessage *self = msg;

  if (G_UNLIKELY(self->macro_func))
    {
      const gchar *value = self->macro_func(name, length, self->macro_data);

      if (value)
        return value;
    }
  const gchar *value = pdb_tool_message_get(msg, name, length);

  if (G_UNLIKELY(!value) && name[0] == PDB_TEMPLATE_VALUE_NAMES[0] && strcmp(name, PDB_TEMPLATE_VALUE_NAMES) == 0)
    return pdb_tool_message_value_names(self, length);
  /* the macros filter expressions in $(if) read from the message */
  if (G_UNLIKELY(!value) && (strcmp(name, "PRI") == 0 || strcmp(name, "TAGS") == 0))
    {
      g_string_truncate(self->macro_text, 0);
      if (name[0] == 'P')
        g_string_append_printf(self->macro_text, "%d", self->pri);
      else
        pdb_tool_message_format_tags(self, self->macro_text);
      if (length)
        *length = self->macro_text->len;
      return self->macro_text->str;
    }
  return value;
}

void
pdb_tool_message_set_pri(PdbToolMessage *msg, gint pri)
{
  msg->pri = pri;
}

const gchar *
pdb_tool_message_value_names(PdbToolMessage *msg, gssize *length)
{
  g_string_truncate(msg->names_text, 0);
  for (guint i = 0; i < msg->set_handles.len; i++)
    {
      g_string_append(msg->names_text, g_ptr_array_index(msg->names, msg->set_handles.data[i] - 1));
      g_string_append_c(msg->names_text, '\0');
    }
  *length = msg->names_text->len;
  return msg->names_text->str;
}

void
pdb_tool_message_end_header(PdbToolMessage *msg)
{
  msg->header_end = msg->set_handles.len;
}

static const gchar *
sdata_value(guint handle, gsize *length, gpointer user_data)
{
  PdbToolMessage *msg = user_data;
  Slot *slot = &g_array_index(msg->slots, Slot, handle - 1);

  *length = slot->len;
  return slot->str;
}

/* set_handles is in the order values were first set (clearing $0..$255
 * keeps it, and those are set after the header): the .SDATA.* ones are
 * entered in that order, as 3.38 entered them when they were set. */
void
pdb_tool_message_format_sdata(PdbToolMessage *msg, GString *out)
{
  msg->sdata_order.len = 0;
  for (guint i = 0; msg->sdata_set && i < msg->set_handles.len; i++)
    {
      guint h = msg->set_handles.data[i];

      if (g_array_index(msg->slots, Slot, h - 1).sdata)
        pdb_sdata_order_insert(&msg->sdata_order, h, msg->names, i < msg->header_end);
    }
  pdb_sdata_order_format(&msg->sdata_order, msg->names, sdata_value, msg, out);
}

static void
ops_set(gpointer msg, const gchar *name, const gchar *value, gssize length, PdbValueType type)
{
  slot_set(msg, cached_handle(msg, name), value, length, type, TRUE);
}

static void
ops_set_tag(gpointer msg, const gchar *tag)
{
  pdb_tool_message_set_tag(msg, tag);
}

static void
ops_clear_tag(gpointer msg, const gchar *tag)
{
  pdb_tool_message_clear_tag(msg, tag);
}

static gboolean
ops_has_tag(gpointer msg, const gchar *tag)
{
  return pdb_tool_message_has_tag(msg, tag);
}

const PdbMessageOps pdb_tool_message_ops =
{
  .get = ops_get,
  .set = ops_set,
  .set_tag = ops_set_tag,
  .clear_tag = ops_clear_tag,
  .has_tag = ops_has_tag,
};

void
pdb_tool_message_foreach(PdbToolMessage *msg, PdbToolValueFunc value_func, PdbToolTagFunc tag_func,
                         gpointer user_data)
{
  pdb_tool_message_sort_set(msg);
  for (guint i = 0; value_func && i < msg->set_handles.len; i++)
    {
      guint h = msg->set_handles.data[i];
      const Slot *slot = &g_array_index(msg->slots, Slot, h - 1);

      if (slot->stamp == msg->stamp)
        value_func(g_ptr_array_index(msg->names, h - 1), slot->str, slot->len, slot->type,
                   user_data);
    }
  for (guint i = 0; tag_func && i < msg->set_tags.len; i++)
    {
      guint id = msg->set_tags.data[i];

      if (g_array_index(msg->tag_stamps, guint32, id - 1) == msg->stamp)
        tag_func(g_ptr_array_index(msg->tag_names, id - 1), user_data);
    }
}

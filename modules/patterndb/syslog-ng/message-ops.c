/*
 * message-ops.c: how classification results land in a LogMessage.
 *
 * Values keep their type (NUMBER as int64, FLOAT as double) so format-json
 * and typed destinations see numbers. A capture that is a slice of $MESSAGE
 * or $PROGRAM is stored as an indirect value (a reference into that value)
 * instead of a copy, as long as it fits the 16-bit offset/length of an
 * indirect entry and the name is not the referenced value itself. Tags known
 * to the database are set by their pre-resolved id.
 *
 * Name -> NVHandle, macro and tag lookups go first through the database's
 * memo (loaded-db.h: keyed by the name's address, no hashing of the text,
 * shared by all threads), then through a small per-thread cache keyed by
 * text, and only then through syslog-ng's registry, which takes a global
 * lock. Handles, macros and tag ids never change during the life of the
 * process, so a remembered answer is always right.
 *
 * Names in <value> templates resolve as in syslog-ng's own templates: a
 * macro ($DATE, $SOURCEIP, $MSGHDR ...) first, else a name-value pair.
 * Macro texts live in scratch buffers, released when the parser's
 * process() returns.
 */
#include "message-ops.h"
#include "sng-compat.h"

#include "logmsg/nvtable.h"
#include "template/macros.h"
#include "scratch-buffers.h"

#include <string.h>

#define PDB_SNG_HANDLE_CACHE_MAX 4096

static void
pdb_sng_handle_cache_free(gpointer cache)
{
  g_hash_table_destroy((GHashTable *) cache);
}

static GPrivate pdb_sng_handle_cache = G_PRIVATE_INIT(pdb_sng_handle_cache_free);

static NVHandle
pdb_sng_handle(const gchar *name)
{
  GHashTable *cache = g_private_get(&pdb_sng_handle_cache);

  if (!cache)
    {
      cache = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
      g_private_set(&pdb_sng_handle_cache, cache);
    }
  NVHandle handle = GPOINTER_TO_UINT(g_hash_table_lookup(cache, name));
  if (handle)
    return handle;
  handle = log_msg_get_value_handle(name);
  if (handle && g_hash_table_size(cache) < PDB_SNG_HANDLE_CACHE_MAX)
    g_hash_table_insert(cache, g_strdup(name), GUINT_TO_POINTER((guint) handle));
  return handle;
}

/* The handle of a name written into messages. */
static inline NVHandle
pdb_sng_db_handle(const PdbSngDb *db, const gchar *name)
{
  NVHandle handle = (NVHandle) pdb_sng_db_memo_get(db, PDB_SNG_MEMO_HANDLE, name);

  if (G_LIKELY(handle))
    return handle;
  handle = pdb_sng_handle(name);
  if (handle)
    pdb_sng_db_memo_put(db, PDB_SNG_MEMO_HANDLE, name, handle);
  return handle;
}

/* A name read by a template: a macro (*is_macro) or a name-value pair. */
static inline guint
pdb_sng_db_lookup_name(const PdbSngDb *db, const gchar *name, gboolean *is_macro)
{
  guint code = pdb_sng_db_memo_get(db, PDB_SNG_MEMO_LOOKUP, name);

  if (!code)
    {
      guint macro = log_macro_lookup(name, strlen(name));

      if (macro)
        code = (macro << 1) | 1;
      else
        {
          NVHandle handle = pdb_sng_handle(name);
          if (!handle)
            {
              *is_macro = FALSE;
              return 0;
            }
          code = (guint) handle << 1;
        }
      pdb_sng_db_memo_put(db, PDB_SNG_MEMO_LOOKUP, name, code);
    }
  *is_macro = code & 1;
  return code >> 1;
}

static LogMessageValueType
pdb_sng_value_type(PdbValueType type)
{
  switch (type)
    {
    case PDB_VALUE_INT64:
      return PDB_SNG_VT_INTEGER;
    case PDB_VALUE_DOUBLE:
      return LM_VT_DOUBLE;
    case PDB_VALUE_STRING:
    default:
      return LM_VT_STRING;
    }
}

/* TRUE if [value, value + length) lies inside [base, base + base_length). */
static gboolean
pdb_sng_slice_of(const gchar *value, gsize length, const gchar *base, gsize base_length)
{
  if (!base || value < base)
    return FALSE;
  gsize offset = (gsize) (value - base);
  return offset <= base_length && length <= base_length - offset;
}

static gboolean
pdb_sng_try_indirect(PdbSngMessage *m, NVHandle handle, const gchar *value, gsize length,
                     NVHandle ref_handle, const gchar *base, gsize base_length,
                     LogMessageValueType type)
{
  if (ref_handle == 0 || handle == ref_handle)
    return FALSE;
  if (!pdb_sng_slice_of(value, length, base, base_length))
    return FALSE;
  gsize offset = (gsize) (value - base);
  if (offset > G_MAXUINT16 || length > G_MAXUINT16)
    return FALSE;
  log_msg_set_value_indirect_with_type(m->msg, handle, ref_handle, (guint16) offset, (guint16) length, type);
  return TRUE;
}

/* A name's value (a macro's expansion lives in a scratch buffer) and, when
 * @type is not NULL, its type. */
static const gchar *
pdb_sng_get_with_type(PdbSngMessage *m, const gchar *name, gssize *length, LogMessageValueType *type)
{
  gboolean is_macro;
  guint id = pdb_sng_db_lookup_name(m->db, name, &is_macro);

  if (is_macro)
    {
      guint macro = id;
      GString *text = scratch_buffers_alloc();
      LogTemplateEvalOptions options = { m->template_options, LTZ_LOCAL, 0, NULL, LM_VT_STRING };

      pdb_sng_macro_expand(macro, &options, m->msg, text, type);
      if (length)
        *length = text->len;
      return text->str;
    }

  NVHandle handle = (NVHandle) id;
  gssize len = 0;
  const gchar *value = handle ? log_msg_get_value_if_set_with_type(m->msg, handle, &len, type) : NULL;

  if (length)
    *length = value ? len : 0;
  return value;
}

static const gchar *
pdb_sng_get(gpointer p, const gchar *name, gssize *length)
{
  return pdb_sng_get_with_type(p, name, length, NULL);
}

/* The engine's value type closest to syslog-ng's @type. */
PdbValueType
pdb_sng_value_type_from(LogMessageValueType type)
{
  if (pdb_sng_vt_is_int32(type))
    return PDB_VALUE_INT64;
  switch (type)
    {
    case PDB_SNG_VT_INTEGER:
      return PDB_VALUE_INT64;
    case LM_VT_DOUBLE:
      return PDB_VALUE_DOUBLE;
    default:
      return PDB_VALUE_STRING;
    }
}

static const gchar *
pdb_sng_get_typed(gpointer p, const gchar *name, gssize *length, PdbValueType *type)
{
  LogMessageValueType lm_type = LM_VT_STRING;
  const gchar *value = pdb_sng_get_with_type(p, name, length, &lm_type);

  *type = pdb_sng_value_type_from(lm_type);
  return value;
}

static void
pdb_sng_set(gpointer p, const gchar *name, const gchar *value, gssize length, PdbValueType type)
{
  PdbSngMessage *m = p;
  NVHandle handle = pdb_sng_db_handle(m->db, name);
  LogMessageValueType vt = pdb_sng_value_type(type);

  if (length < 0)
    length = strlen(value);
  if (pdb_sng_try_indirect(m, handle, value, length, m->message_handle, m->message, m->message_length, vt))
    return;
  if (pdb_sng_try_indirect(m, handle, value, length, m->program_handle, m->program, m->program_length, vt))
    return;
  log_msg_set_value_with_type(m->msg, handle, value, length, vt);
}

static void
pdb_sng_set_tag(gpointer p, const gchar *tag)
{
  PdbSngMessage *m = p;
  log_msg_set_tag_by_id(m->msg, (LogTagId) (pdb_sng_db_lookup_tag(m->db, tag) - 1));
}

static void
pdb_sng_clear_tag(gpointer p, const gchar *tag)
{
  PdbSngMessage *m = p;
  LogTagId id = (LogTagId) (pdb_sng_db_lookup_tag(m->db, tag) - 1);

  /* the common case: a message classified for the first time */
  if (log_msg_is_tag_by_id(m->msg, id))
    log_msg_clear_tag_by_id(m->msg, id);
}

/* The LogMessage that syslog-ng's templates (host-expr.c) evaluate over. */
static gpointer
pdb_sng_host_message(gpointer p)
{
  return ((PdbSngMessage *) p)->msg;
}

const PdbMessageOps pdb_sng_message_ops =
{
  .get = pdb_sng_get,
  .set = pdb_sng_set,
  .set_tag = pdb_sng_set_tag,
  .clear_tag = pdb_sng_clear_tag,
  .host_message = pdb_sng_host_message,
  .get_typed = pdb_sng_get_typed,
};

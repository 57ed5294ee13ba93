/*
 * loaded-db.c: load a pattern database for the daemon and remember what it
 * was loaded from.
 *
 * Invariant: a PdbSngDb never changes after pdb_sng_db_load() returns; any
 * number of threads may use it while they hold a reference. The stamps
 * cover the configured path itself (so a file added to a directory or a
 * replaced file is noticed) and every file the loader read.
 */
#include "loaded-db.h"

#include "logmsg/tags.h"
#include "messages.h"

#include <sys/stat.h>
#include <string.h>

typedef struct _PdbSngStamp
{
  gchar *path;
  gboolean exists;
  dev_t dev;
  ino_t ino;
  gint64 mtime_ns;
  gint64 size;
} PdbSngStamp;

struct _PdbSngStamps
{
  GArray *items;                /* of PdbSngStamp */
};

struct _PdbSngDb
{
  gint ref_cnt;
  PdbDatabase *db;
  GHashTable *tag_ids;          /* tag name (borrowed from db) -> id + 1 */
  gchar *path;
  PdbSngStamps *stamps;
};

static void
pdb_sng_stamp_clear(gpointer p)
{
  PdbSngStamp *stamp = p;
  g_free(stamp->path);
}

static void
pdb_sng_stamps_add(PdbSngStamps *stamps, const gchar *path)
{
  PdbSngStamp stamp = { .path = g_strdup(path) };
  struct stat st;

  if (stat(path, &st) == 0)
    {
      stamp.exists = TRUE;
      stamp.dev = st.st_dev;
      stamp.ino = st.st_ino;
      stamp.mtime_ns = (gint64) st.st_mtim.tv_sec * G_GINT64_CONSTANT(1000000000) + st.st_mtim.tv_nsec;
      stamp.size = st.st_size;
    }
  g_array_append_val(stamps->items, stamp);
}

static PdbSngStamps *
pdb_sng_stamps_take(const gchar *path, const GPtrArray *files)
{
  PdbSngStamps *stamps = g_new0(PdbSngStamps, 1);

  stamps->items = g_array_new(FALSE, TRUE, sizeof(PdbSngStamp));
  g_array_set_clear_func(stamps->items, pdb_sng_stamp_clear);
  pdb_sng_stamps_add(stamps, path);
  for (guint i = 0; files && i < files->len; i++)
    {
      const gchar *file = g_ptr_array_index(files, i);
      if (strcmp(file, path) != 0)
        pdb_sng_stamps_add(stamps, file);
    }
  return stamps;
}

gboolean
pdb_sng_stamps_equal(const PdbSngStamps *a, const PdbSngStamps *b)
{
  if (!a || !b || a->items->len != b->items->len)
    return FALSE;
  for (guint i = 0; i < a->items->len; i++)
    {
      const PdbSngStamp *x = &g_array_index(a->items, PdbSngStamp, i);
      const PdbSngStamp *y = &g_array_index(b->items, PdbSngStamp, i);

      if (strcmp(x->path, y->path) != 0 || x->exists != y->exists)
        return FALSE;
      if (x->exists && (x->dev != y->dev || x->ino != y->ino
                        || x->mtime_ns != y->mtime_ns || x->size != y->size))
        return FALSE;
    }
  return TRUE;
}

void
pdb_sng_stamps_free(PdbSngStamps *stamps)
{
  if (!stamps)
    return;
  g_array_free(stamps->items, TRUE);
  g_free(stamps);
}

static void
pdb_sng_db_warn(const gchar *message, gpointer user_data)
{
  msg_warning("patterndb: problem in pattern database",
              evt_tag_str("file", (const gchar *) user_data),
              evt_tag_str("warning", message));
}

static void
pdb_sng_db_resolve_tag(PdbSngDb *self, const gchar *tag)
{
  if (!tag || g_hash_table_contains(self->tag_ids, tag))
    return;
  LogTagId id = log_tags_get_by_name(tag);
  g_hash_table_insert(self->tag_ids, (gpointer) tag, GUINT_TO_POINTER((guint) id + 1));
}

static void
pdb_sng_db_resolve_tags(PdbSngDb *self)
{
  const GPtrArray *rules = pdb_database_get_rules(self->db);

  pdb_sng_db_resolve_tag(self, ".classifier.unknown");
  for (guint i = 0; rules && i < rules->len; i++)
    {
      const PdbRule *rule = g_ptr_array_index(rules, i);

      pdb_sng_db_resolve_tag(self, rule->class_tag);
      for (guint t = 0; rule->tags && t < rule->tags->len; t++)
        pdb_sng_db_resolve_tag(self, g_ptr_array_index(rule->tags, t));
    }
}

PdbSngDb *
pdb_sng_db_load(const gchar *path, const gchar *prefix, GError **error)
{
  PdbLoadOptions options =
  {
    .capture_prefix = prefix,
    .warning = pdb_sng_db_warn,
    .warning_data = (gpointer) path,
  };
  PdbSngStamps *before = pdb_sng_stamps_take(path, NULL);
  PdbDatabase *db = pdb_database_load(path, &options, error);

  if (!db)
    {
      pdb_sng_stamps_free(before);
      return NULL;
    }

  PdbSngDb *self = g_new0(PdbSngDb, 1);
  self->ref_cnt = 1;
  self->db = db;
  self->path = g_strdup(path);
  self->tag_ids = g_hash_table_new(g_str_hash, g_str_equal);
  self->stamps = pdb_sng_stamps_take(path, pdb_database_get_files(db));
  /* The path itself was stamped before reading: a change during the load
   * is then seen by the next check instead of being lost. */
  PdbSngStamp *first = &g_array_index(self->stamps->items, PdbSngStamp, 0);
  PdbSngStamp *early = &g_array_index(before->items, PdbSngStamp, 0);
  first->exists = early->exists;
  first->dev = early->dev;
  first->ino = early->ino;
  first->mtime_ns = early->mtime_ns;
  first->size = early->size;
  pdb_sng_stamps_free(before);
  pdb_sng_db_resolve_tags(self);
  return self;
}

PdbSngDb *
pdb_sng_db_ref(PdbSngDb *self)
{
  g_atomic_int_inc(&self->ref_cnt);
  return self;
}

void
pdb_sng_db_unref(PdbSngDb *self)
{
  if (!self || !g_atomic_int_dec_and_test(&self->ref_cnt))
    return;
  g_hash_table_destroy(self->tag_ids);
  pdb_sng_stamps_free(self->stamps);
  pdb_database_unref(self->db);
  g_free(self->path);
  g_free(self);
}

const PdbDatabase *
pdb_sng_db_get_database(const PdbSngDb *self)
{
  return self->db;
}

guint
pdb_sng_db_lookup_tag(const PdbSngDb *self, const gchar *tag)
{
  return GPOINTER_TO_UINT(g_hash_table_lookup(self->tag_ids, tag));
}

PdbSngStamps *
pdb_sng_db_stamp_files_now(const PdbSngDb *self)
{
  return pdb_sng_stamps_take(self->path, pdb_database_get_files(self->db));
}

gboolean
pdb_sng_db_matches(const PdbSngDb *self, const PdbSngStamps *stamps)
{
  return pdb_sng_stamps_equal(self->stamps, stamps);
}

gboolean
pdb_sng_db_is_current(const PdbSngDb *self)
{
  PdbSngStamps *now = pdb_sng_db_stamp_files_now(self);
  gboolean same = pdb_sng_db_matches(self, now);

  pdb_sng_stamps_free(now);
  return same;
}

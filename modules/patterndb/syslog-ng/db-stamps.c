/*
 * db-stamps.c: the files a database path means, and their stamps.
 *
 * Invariant: a PdbSngStamps never changes once taken. Each file is
 * stat()ed once, after the path was listed and before anything reads it;
 * the listing itself is the same one the loader is given (see
 * pdb_sng_stamps_take()), never a second walk.
 */
#include "db-stamps.h"

#include "db/database.h"

#include <string.h>
#include <sys/stat.h>

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
  gboolean listed;              /* FALSE: the path meant no file */
  GArray *items;                /* of PdbSngStamp, in load order */
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

PdbSngStamps *
pdb_sng_stamps_take(const gchar *const *paths, GPtrArray **files, GError **error)
{
  PdbSngStamps *stamps = g_new0(PdbSngStamps, 1);
  GPtrArray *listing = g_ptr_array_new_with_free_func(g_free);

  stamps->items = g_array_new(FALSE, TRUE, sizeof(PdbSngStamp));
  g_array_set_clear_func(stamps->items, pdb_sng_stamp_clear);
  stamps->listed = pdb_database_list_paths(paths, listing, error);
  for (guint i = 0; stamps->listed && i < listing->len; i++)
    pdb_sng_stamps_add(stamps, g_ptr_array_index(listing, i));
  if (files && stamps->listed)
    *files = listing;
  else
    {
      if (files)
        *files = NULL;
      g_ptr_array_unref(listing);
    }
  return stamps;
}

gboolean
pdb_sng_stamps_equal(const PdbSngStamps *a, const PdbSngStamps *b)
{
  if (!a || !b || a->listed != b->listed || a->items->len != b->items->len)
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

/*
 * db-stamps.h: what a configured database path means on disk, to tell
 * whether a loaded database is still the one the path would load.
 *
 * A PdbSngStamps lists the files the path means now (a file, a folder tree
 * or a glob, as pdb_database_list_files() lists them) and the stamp
 * (device, inode, mtime, size) of each. Two sets are equal when they list
 * the same files in the same order with the same stamps, so a file that
 * appears (in the folder, in a subfolder, or as a new match of the glob),
 * disappears, is replaced or is rewritten makes them differ; a change that
 * does not alter the listing (a README added beside the files) does not.
 */
#ifndef PDB_SNG_DB_STAMPS_H
#define PDB_SNG_DB_STAMPS_H

#include <glib.h>

typedef struct _PdbSngStamps PdbSngStamps;

/*
 * Lists the files @paths (NULL-terminated) mean now, as
 * pdb_database_list_paths() lists them, and stamps each. With @files non-NULL,
 * *@files receives the list (of gchar*, the caller owns it) in load order,
 * or NULL when the path means no file (then @error is set): a database
 * loaded from that list, after this call, is at least as new as the
 * stamps, so a change made while it loads is seen by the next comparison.
 * The stamps of a path that means no file compare equal to each other only.
 */
PdbSngStamps *pdb_sng_stamps_take(const gchar *const *paths, GPtrArray **files, GError **error);
gboolean pdb_sng_stamps_equal(const PdbSngStamps *a, const PdbSngStamps *b);
void pdb_sng_stamps_free(PdbSngStamps *stamps);

#endif

/*
 * loaded-db.h: a pattern database as the daemon holds it.
 *
 * A PdbSngDb is a loaded PdbDatabase plus what the glue needs next to it:
 * a memo of the NVHandles, macros and tag ids its names resolve to (tags
 * resolved at load, so the message path never takes syslog-ng's tag
 * registry lock for known tags, and never hashes a name's text),
 * and the stamps (db-stamps.h) of the files its path meant when it was
 * loaded, to tell whether the path would load something else now. It is immutable after
 * pdb_sng_db_load() and reference counted: readers take a reference, a
 * reload swaps the pointer and drops the old reference.
 */
#ifndef PDB_SNG_LOADED_DB_H
#define PDB_SNG_LOADED_DB_H

#include "db/database.h"
#include "db-stamps.h"
#include "cfg.h"

typedef struct _PdbSngDb PdbSngDb;

/* Loads @paths (NULL-terminated, at least one; their files form one
 * database, see pdb_database_list_paths()) with capture prefix @prefix (may be NULL); templates that
 * call functions and action conditions are compiled by syslog-ng with @cfg
 * (host-expr.h). On failure returns NULL and sets @error (its message names
 * file:line:column). */
PdbSngDb *pdb_sng_db_load(const gchar *const *paths, const gchar *prefix, GlobalConfig *cfg, GError **error);
/* FALSE when @self holds templates or filters compiled with another
 * configuration than @cfg (then load it again, as syslog-ng's own
 * db-parser() does on every reload). */
gboolean pdb_sng_db_fits_config(const PdbSngDb *self, GlobalConfig *cfg);
/* The per-rule counters (rule-stats.h) of the parser that uses @self; set
 * only while no thread classifies with @self (before it is published, in
 * init and deinit). Setting frees (unregisters) the previous ones. */
typedef struct _PdbSngRuleStats PdbSngRuleStats;
void pdb_sng_db_set_stats(PdbSngDb *self, PdbSngRuleStats *stats);
PdbSngRuleStats *pdb_sng_db_get_stats(const PdbSngDb *self);
PdbSngDb *pdb_sng_db_ref(PdbSngDb *self);
void pdb_sng_db_unref(PdbSngDb *self);

const PdbDatabase *pdb_sng_db_get_database(const PdbSngDb *self);
/* The syslog-ng tag id of @tag + 1 (registering the tag if syslog-ng does
 * not know it yet); the database's tags are resolved at load, other names
 * the first time they are asked for. */
guint pdb_sng_db_lookup_tag(const PdbSngDb *self, const gchar *tag);

/*
 * A memo of names (by address, checked by text) to what they resolve to,
 * shared by every thread that uses the database: lock-free, insert-only.
 * Values are never 0; memo_get() returns 0 for "not known (yet)", and
 * memo_put() may silently keep nothing (the memo is full there).
 */
typedef enum
{
  PDB_SNG_MEMO_HANDLE = 0,      /* name -> NVHandle (values written) */
  PDB_SNG_MEMO_LOOKUP,          /* template name -> macro or NVHandle (values read) */
  PDB_SNG_MEMO_TAG,             /* tag -> LogTagId + 1 */
  PDB_SNG_MEMO_KINDS,
} PdbSngMemoKind;

guint pdb_sng_db_memo_get(const PdbSngDb *self, PdbSngMemoKind kind, const gchar *name);
void pdb_sng_db_memo_put(const PdbSngDb *self, PdbSngMemoKind kind, const gchar *name, guint value);

/* Lists and stamps the files @self's path means now. */
PdbSngStamps *pdb_sng_db_stamp_files_now(const PdbSngDb *self);
/* TRUE if @self's path means the files @self was read from, unchanged. */
gboolean pdb_sng_db_is_current(const PdbSngDb *self);
/* TRUE if @stamps (from pdb_sng_db_stamp_files_now()) show the files @self was read from. */
gboolean pdb_sng_db_matches(const PdbSngDb *self, const PdbSngStamps *stamps);

#endif

/*
 * database.c: builds a PdbDatabase from a file, a directory or a glob, and
 * answers questions about it.
 *
 * Which files a path means:
 *   - a regular file: that file;
 *   - a directory: every regular file whose name ends in ".xml" or ".pdb"
 *     anywhere below it (following symbolic links, each directory once),
 *     skipping names that start with '.'; they are loaded in the order of
 *     their full paths compared with strcmp(), so "a/z.xml" comes before
 *     "b.xml" and the order never depends on the locale or readdir();
 *   - a path with '*', '?' or '[' that does not exist as written: a glob(3)
 *     pattern; matching files (and directories, expanded as above) are
 *     loaded in strcmp() order of their paths.
 * Several paths (pdb_database_list_paths()): the files of each, path after
 * path, each file once.
 * All files go into one database: rulesets with the same program pattern
 * merge across files. An error in any file fails the whole load.
 *
 * Invariant: after pdb_database_load() returns, the database never changes
 * (every tree is frozen), so any number of threads may classify with it.
 */
#include "db/database-private.h"
#include "db/schema.h"

#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

G_DEFINE_QUARK(pdb-db-error-quark, pdb_db_error)

static void
program_entry_free(PdbProgramEntry *entry)
{
  g_free(entry->pattern);
  g_free(entry);
}

PdbDatabase *
pdb_database_new(const PdbLoadOptions *options)
{
  PdbDatabase *db = g_new0(PdbDatabase, 1);

  db->ref_count = 1;
  db->files = g_ptr_array_new_with_free_func(g_free);
  db->rules = g_ptr_array_new_with_free_func((GDestroyNotify) pdb_rule_clear);
  db->rule_blocks = g_ptr_array_new_with_free_func(g_free);
  db->rulesets = g_ptr_array_new_with_free_func((GDestroyNotify) pdb_ruleset_free);
  db->programs_order = g_ptr_array_new_with_free_func((GDestroyNotify) program_entry_free);
  db->program_by_pattern = g_hash_table_new(g_str_hash, g_str_equal);
  db->strings = g_string_chunk_new(64 * 1024);
  if (options && options->capture_prefix && options->capture_prefix[0])
    db->capture_prefix = g_strdup(options->capture_prefix);
  if (options && options->record_names)
    db->names = pdb_name_registry_new();
  return db;
}

PdbDatabase *
pdb_database_ref(PdbDatabase *db)
{
  g_atomic_int_inc(&db->ref_count);
  return db;
}

void
pdb_database_unref(PdbDatabase *db)
{
  if (!db || !g_atomic_int_dec_and_test(&db->ref_count))
    return;

  pdb_database_stop_inserts(db);

  if (db->rule_by_id)
    g_hash_table_unref(db->rule_by_id);
  g_hash_table_unref(db->program_by_pattern);
  g_ptr_array_unref(db->programs_order);
  pdb_radix_free(db->programs);
  g_ptr_array_unref(db->rulesets);
  g_ptr_array_unref(db->rules);
  g_ptr_array_unref(db->rule_blocks);
  g_ptr_array_unref(db->files);
  g_free(db->version);
  g_free(db->pub_date);
  g_free(db->capture_prefix);
  g_string_chunk_free(db->strings);
  pdb_name_registry_free(db->names);
  g_free(db);
}

const gchar *
pdb_database_store(PdbDatabase *db, const gchar *text, gssize length)
{
  return g_string_chunk_insert_len(db->strings, text, length);
}

const gchar *
pdb_database_intern(PdbDatabase *db, const gchar *text)
{
  return g_string_chunk_insert_const(db->strings, text);
}

void
pdb_database_warn(const PdbLoadOptions *options, const gchar *format, ...)
{
  va_list args;
  va_start(args, format);
  gchar *message = g_strdup_vprintf(format, args);
  va_end(args);

  if (options && options->warning)
    options->warning(message, options->warning_data);
  else
    fprintf(stderr, "patterndb: warning: %s\n", message);
  g_free(message);
}

/* ---- building ---------------------------------------------------------- */

PdbRuleset *
pdb_database_lookup_program(PdbDatabase *db, const gchar *pattern)
{
  if (pattern[0] == '\0')
    return pdb_database_get_catch_all(db);

  PdbProgramEntry *entry = g_hash_table_lookup(db->program_by_pattern, pattern);
  return entry ? entry->ruleset : NULL;
}

PdbRuleset *
pdb_database_new_ruleset(PdbDatabase *db)
{
  PdbRuleset *ruleset = pdb_ruleset_new();

  if (db->capture_prefix)
    pdb_radix_set_capture_prefix(ruleset->messages, db->capture_prefix);
  g_ptr_array_add(db->rulesets, ruleset);
  return ruleset;
}

PdbRuleset *
pdb_database_get_catch_all(PdbDatabase *db)
{
  if (!db->catch_all)
    db->catch_all = pdb_database_new_ruleset(db);
  return db->catch_all;
}

void
pdb_database_add_program(PdbDatabase *db, const gchar *pattern, PdbRuleset *ruleset,
                         const PdbLocation *location, const PdbLocation *start)
{
  PdbProgramEntry *entry = g_new0(PdbProgramEntry, 1);

  entry->pattern = g_strdup(pattern);
  entry->ruleset = ruleset;
  entry->location = *location;
  entry->start = *start;
  g_ptr_array_add(db->programs_order, entry);
  g_hash_table_insert(db->program_by_pattern, entry->pattern, entry);
}

PdbRule *
pdb_database_new_rule(PdbDatabase *db)
{
  guint slot = db->rules->len % PDB_RULE_BLOCK;

  if (slot == 0)
    g_ptr_array_add(db->rule_blocks, g_new(PdbRule, PDB_RULE_BLOCK));

  PdbRule *rule = (PdbRule *) g_ptr_array_index(db->rule_blocks, db->rule_blocks->len - 1) + slot;
  /* zeroed one at a time, as it is handed out (the block's tail is never read) */
  *rule = (PdbRule) { 0 };
  pdb_rule_init(rule);
  rule->index = db->rules->len;
  g_ptr_array_add(db->rules, rule);
  return rule;
}

/*
 * The engine's messages may start with their own "file:line:column: ": the
 * place inside the pattern, counted from the location given at insert
 * (pdbtool's, after the pattern text). Returns the text after that prefix
 * and sets @location to the same place counted from @start, where the
 * pattern's text really begins; returns @message unchanged (and @location
 * untouched) when it has no such prefix.
 */
const gchar *
pdb_split_engine_location(const gchar *message, const PdbLocation *given, const PdbLocation *start,
                          PdbLocation *location)
{
  gsize file_length = given->file ? strlen(given->file) : 0;

  *location = *start;

  if (!file_length || strncmp(message, location->file, file_length) != 0 || message[file_length] != ':')
    return message;

  gchar *end = NULL;
  const gchar *p = message + file_length + 1;
  glong line = strtol(p, &end, 10);
  if (end == p || *end != ':')
    return message;
  p = end + 1;
  glong column = strtol(p, &end, 10);
  if (end == p || end[0] != ':' || end[1] != ' ')
    return message;

  /* Lines inside the pattern keep their columns; the first line shifts. */
  gint real_line = start->line + (gint) line - given->line;
  gint real_column = line == given->line ? start->column + (gint) column - given->column : (gint) column;
  location->line = real_line;
  location->column = real_column;
  return end + 2;
}

void
pdb_database_finish(PdbDatabase *db, const PdbLoadOptions *options)
{
  /* 3.38 builds the program tree (naming its captures) when loading ends */
  for (guint r = 0; db->names && r < db->rulesets->len; r++)
    {
      const PdbRuleset *ruleset = g_ptr_array_index(db->rulesets, r);

      for (guint p = 0; p < ruleset->program_patterns->len; p++)
        pdb_name_registry_add_pattern(db->names, g_ptr_array_index(ruleset->program_patterns, p));
    }
  db->programs = pdb_radix_new();
  if (db->capture_prefix)
    pdb_radix_set_capture_prefix(db->programs, db->capture_prefix);

  for (guint i = 0; i < db->programs_order->len; i++)
    {
      PdbProgramEntry *entry = g_ptr_array_index(db->programs_order, i);
      GError *error = NULL;

      if (!pdb_radix_insert(db->programs, entry->pattern, entry->ruleset, &entry->location, &error))
        {
          PdbLocation where;
          const gchar *explanation = pdb_split_engine_location(error->message, &entry->location,
                                                               &entry->start, &where);

          pdb_database_warn(options, "%s:%d:%d: ruleset '%s': program pattern '%s': %s",
                            where.file ? where.file : "", where.line, where.column,
                            entry->ruleset->name ? entry->ruleset->name : "",
                            entry->pattern, explanation);
          g_error_free(error);
        }
    }
  /* together: one block of memory for every tree's records (radix.h) */
  GPtrArray *trees = g_ptr_array_sized_new(db->rulesets->len + 1);

  g_ptr_array_add(trees, db->programs);
  for (guint i = 0; i < db->rulesets->len; i++)
    g_ptr_array_add(trees, ((PdbRuleset *) g_ptr_array_index(db->rulesets, i))->messages);
  pdb_radix_freeze_together_on((PdbRadix *const *) trees->pdata, trees->len, pdb_database_load_threads(options));
  g_ptr_array_free(trees, TRUE);
}

/* ---- which files a path means ------------------------------------------ */

static gint
compare_paths(gconstpointer a, gconstpointer b)
{
  return strcmp(*(const gchar *const *) a, *(const gchar *const *) b);
}

static gboolean
is_pattern_file_name(const gchar *name)
{
  return g_str_has_suffix(name, ".xml") || g_str_has_suffix(name, ".pdb");
}

/* Adds the pattern files below @dir to @files. @seen holds "dev:ino" of the
 * directories already walked (symbolic link loops). */
static gboolean
collect_directory(const gchar *dir, GPtrArray *files, GHashTable *seen, GError **error)
{
  struct stat st;

  if (stat(dir, &st) < 0)
    {
      int saved = errno;
      g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_IO, "%s: cannot open directory: %s",
                  dir, g_strerror(saved));
      return FALSE;
    }
  gchar *key = g_strdup_printf("%llu:%llu", (unsigned long long) st.st_dev, (unsigned long long) st.st_ino);
  if (g_hash_table_contains(seen, key))
    {
      g_free(key);
      return TRUE;
    }
  g_hash_table_add(seen, key);

  GError *local = NULL;
  GDir *handle = g_dir_open(dir, 0, &local);
  if (!handle)
    {
      g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_IO, "%s: cannot open directory: %s",
                  dir, local->message);
      g_error_free(local);
      return FALSE;
    }

  gboolean ok = TRUE;
  const gchar *name;
  while (ok && (name = g_dir_read_name(handle)) != NULL)
    {
      if (name[0] == '.')
        continue;
      gchar *path = g_build_filename(dir, name, NULL);
      if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        ok = collect_directory(path, files, seen, error);
      else if (is_pattern_file_name(name) && stat(path, &st) == 0 && S_ISREG(st.st_mode))
        {
          g_ptr_array_add(files, path);
          path = NULL;
        }
      g_free(path);
    }
  g_dir_close(handle);
  return ok;
}

static gboolean
has_glob_chars(const gchar *path)
{
  return strpbrk(path, "*?[") != NULL;
}

gboolean
pdb_database_list_files(const gchar *path, GPtrArray *files, GError **error)
{
  struct stat st;
  GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  gboolean ok = TRUE;

  if (stat(path, &st) == 0)
    {
      if (S_ISDIR(st.st_mode))
        {
          ok = collect_directory(path, files, seen, error);
          if (ok && files->len == 0)
            {
              g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_IO,
                          "%s: directory holds no pattern database file (*.xml or *.pdb)", path);
              ok = FALSE;
            }
        }
      else
        g_ptr_array_add(files, g_strdup(path));
    }
  else if (has_glob_chars(path))
    {
      glob_t matches;
      int rc = glob(path, 0, NULL, &matches);

      if (rc == GLOB_NOMATCH || (rc == 0 && matches.gl_pathc == 0))
        {
          g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_IO, "%s: no file matches this pattern", path);
          ok = FALSE;
        }
      else if (rc != 0)
        {
          g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_IO, "%s: cannot expand the pattern (%s)", path,
                      rc == GLOB_NOSPACE ? "out of memory" : "read error");
          ok = FALSE;
        }
      for (gsize i = 0; ok && i < matches.gl_pathc; i++)
        {
          const gchar *match = matches.gl_pathv[i];
          if (stat(match, &st) == 0 && S_ISDIR(st.st_mode))
            ok = collect_directory(match, files, seen, error);
          else
            g_ptr_array_add(files, g_strdup(match));
        }
      if (rc == 0 || rc == GLOB_NOMATCH)
        globfree(&matches);
    }
  else
    {
      int saved = errno;
      g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_IO, "%s: cannot open pattern database: %s",
                  path, g_strerror(saved));
      ok = FALSE;
    }

  g_hash_table_unref(seen);
  if (ok)
    g_ptr_array_sort(files, compare_paths);
  return ok;
}

/* Several paths: each lists its files as pdb_database_list_files() does, in
 * the order the paths are given; a directory that holds no pattern file adds
 * nothing (the user's own folder may still be empty), a file already listed
 * (the same device and inode, e.g. through a symbolic link) is not listed
 * again, and together they must mean at least one file. */
gboolean
pdb_database_list_paths(const gchar *const *paths, GPtrArray *files, GError **error)
{
  g_return_val_if_fail(paths != NULL && paths[0] != NULL, FALSE);
  if (!paths[1])
    return pdb_database_list_files(paths[0], files, error);

  GHashTable *listed = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  gboolean ok = TRUE;
  for (gsize p = 0; ok && paths[p]; p++)
    {
      GPtrArray *one = g_ptr_array_new_with_free_func(g_free);
      struct stat st;
      GError *local = NULL;

      if (stat(paths[p], &st) == 0 && S_ISDIR(st.st_mode))
        {
          GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
          ok = collect_directory(paths[p], one, seen, &local);
          g_hash_table_unref(seen);
          g_ptr_array_sort(one, compare_paths);
        }
      else
        ok = pdb_database_list_files(paths[p], one, &local);
      if (!ok)
        g_propagate_error(error, local);
      for (guint i = 0; ok && i < one->len; i++)
        {
          const gchar *file = g_ptr_array_index(one, i);
          gchar *key = stat(file, &st) == 0
                       ? g_strdup_printf("%llu:%llu", (unsigned long long) st.st_dev, (unsigned long long) st.st_ino)
                       : g_strdup(file);
          if (g_hash_table_add(listed, key))
            g_ptr_array_add(files, g_strdup(file));
        }
      g_ptr_array_unref(one);
    }
  g_hash_table_unref(listed);
  if (ok && files->len == 0)
    {
      gchar *joined = g_strjoinv(", ", (gchar **) paths);
      g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_IO,
                  "%s: none of these paths holds a pattern database file (*.xml or *.pdb)", joined);
      g_free(joined);
      ok = FALSE;
    }
  return ok;
}

PdbDatabase *
pdb_database_load(const gchar *path, const PdbLoadOptions *options, GError **error)
{
  GPtrArray *files = g_ptr_array_new_with_free_func(g_free);

  g_return_val_if_fail(path != NULL, NULL);
  PdbDatabase *db = pdb_database_list_files(path, files, error)
                    ? pdb_database_load_files(files, options, error) : NULL;
  g_ptr_array_unref(files);
  return db;
}

/* XSD validation of @file, for options->validate_schema. A file that is not
 * well-formed XML fails with the loader's error instead (file:line:column of
 * the first problem, as without validation): the schema check can only say
 * that the document could not be read. */
static gboolean
validate_file(const gchar *file, const PdbLoadOptions *options, GError **error)
{
  GError *schema_error = NULL;

  if (pdb_schema_validate_file(file, &schema_error))
    return TRUE;
  if (g_error_matches(schema_error, PDB_DB_ERROR, PDB_DB_ERROR_XML))
    {
      PdbDatabase *probe = pdb_database_new(options);
      gboolean loaded = pdb_loader_load_file(probe, file, options, PDB_LOADER_CHECK_FIRST, error)
                        == PDB_LOADER_LOADED;

      pdb_database_collect_inserts(probe, options, NULL, NULL);
      pdb_database_unref(probe);
      if (!loaded)
        {
          g_error_free(schema_error);
          return FALSE;
        }
    }
  g_propagate_error(error, schema_error);
  return FALSE;
}

/*
 * Loads @files into a new database. First (@again G_MAXUINT) each file in
 * one pass of the fast scanner; when one turns out to be outside its
 * subset after part of it went in, *@restart_at is set to its index and
 * NULL returned. Then again (@again that index) with every file checked
 * first: the files before it quietly (their warnings were given) and
 * without validating them again.
 */
static PdbDatabase *
load_files_pass(const GPtrArray *files, const PdbLoadOptions *options, guint again, guint *restart_at,
                GError **error)
{
  PdbDatabase *db = pdb_database_new(options);
  gboolean ok = TRUE;
  gboolean restarted = FALSE;

  for (guint i = 0; ok && i < files->len; i++)
    {
      const gchar *file = g_ptr_array_index(files, i);
      PdbLoaderFlags flags = 0;

      if (again != G_MAXUINT)
        flags = PDB_LOADER_CHECK_FIRST | (i < again ? PDB_LOADER_QUIET : 0);
      if (options && options->validate_schema && (again == G_MAXUINT || i > again))
        {
          /* the earlier files' warnings come before the check's */
          pdb_database_collect_inserts(db, options, NULL, NULL);
          ok = validate_file(file, options, error);
        }
      if (!ok)
        break;

      PdbLoaderResult result = pdb_loader_load_file(db, file, options, flags, error);
      if (result == PDB_LOADER_RESTART)
        {
          *restart_at = i;
          restarted = TRUE;
        }
      ok = result == PDB_LOADER_LOADED;
    }

  /* the earlier files' warnings are given, those of a file that restarts
   * are not the file's (held here and dropped) */
  GPtrArray *dropped = g_ptr_array_new_with_free_func(g_free);
  const gchar *restarting = restarted ? g_ptr_array_index(db->files, db->files->len - 1) : NULL;

  if (ok)
    pdb_database_freeze_rulesets(db, options);

  pdb_database_collect_inserts(db, options, restarting, dropped);
  g_ptr_array_unref(dropped);
  pdb_database_stop_inserts(db);
  if (!ok)
    {
      pdb_database_unref(db);
      return NULL;
    }
  if (!db->version)
    db->version = g_strdup("4");
  pdb_database_finish(db, options);
  return db;
}

PdbDatabase *
pdb_database_load_files(const GPtrArray *files, const PdbLoadOptions *options, GError **error)
{
  guint restart_at = G_MAXUINT;
  PdbDatabase *db = load_files_pass(files, options, G_MAXUINT, &restart_at, error);

  if (!db && restart_at != G_MAXUINT)
    db = load_files_pass(files, options, restart_at, &restart_at, error);
  return db;
}

/* ---- accessors --------------------------------------------------------- */

const gchar *
pdb_database_get_version(const PdbDatabase *db)
{
  return db->version;
}

const gchar *
pdb_database_get_pub_date(const PdbDatabase *db)
{
  return db->pub_date;
}

const GPtrArray *
pdb_database_get_files(const PdbDatabase *db)
{
  return db->files;
}

const GPtrArray *
pdb_database_get_rules(const PdbDatabase *db)
{
  return db->rules;
}

gboolean
pdb_database_correlates(const PdbDatabase *db)
{
  return db->n_correlating_rules > 0;
}

gboolean
pdb_database_has_values(const PdbDatabase *db)
{
  return db->n_rules_with_values > 0;
}

const PdbNameRegistry *
pdb_database_get_name_registry(const PdbDatabase *db)
{
  return db->names;
}

static const PdbValueDef *
rule_find_value(const PdbRule *rule, PdbValuePredicate pred, gpointer data)
{
  guint count = rule->values ? rule->values->len : 0;

  for (guint v = 0; v < count; v++)
    {
      const PdbValueDef *value = g_ptr_array_index(rule->values, v);

      if (value->compiled && pred(value, data))
        return value;
    }
  return NULL;
}

const PdbValueDef *
pdb_database_find_value(const PdbDatabase *db, PdbValuePredicate pred, gpointer data)
{
  const PdbValueDef *found = NULL;

  if (!db->n_rules_with_values)
    return NULL;
  for (guint i = 0; !found && db->rules && i < db->rules->len; i++)
    found = rule_find_value(g_ptr_array_index(db->rules, i), pred, data);
  return found;
}

const GPtrArray *
pdb_database_get_rulesets(const PdbDatabase *db)
{
  return db->rulesets;
}

const PdbRadix *
pdb_database_get_program_tree(const PdbDatabase *db)
{
  return db->programs;
}

/* The id index is built by the first lookup (loading never needs it): the
 * rules in file order, the first rule with an id wins. g_once keeps that
 * safe while other threads read the database. */
const PdbRule *
pdb_database_find_rule(const PdbDatabase *db, const gchar *rule_id)
{
  PdbDatabase *self = (PdbDatabase *) db;

  if (g_once_init_enter(&self->rule_by_id))
    {
      GHashTable *index = g_hash_table_new(g_str_hash, g_str_equal);

      for (guint i = 0; i < db->rules->len; i++)
        {
          PdbRule *rule = g_ptr_array_index(db->rules, i);

          if (rule->id && !g_hash_table_contains(index, rule->id))
            g_hash_table_insert(index, rule->id, rule);
        }
      g_once_init_leave(&self->rule_by_id, index);
    }
  return g_hash_table_lookup(db->rule_by_id, rule_id);
}

const PdbRuleset *
pdb_database_find_ruleset(const PdbDatabase *db, const gchar *program, gsize length)
{
  PdbMatch match;
  const PdbRuleset *ruleset = db->catch_all;

  pdb_match_init(&match);
  if (db->programs && pdb_radix_lookup(db->programs, program, length, &match))
    ruleset = match.value;
  pdb_match_clear(&match);
  return ruleset;
}

const PdbRuleset *
pdb_database_get_catch_all_ruleset(const PdbDatabase *db)
{
  return db->catch_all;
}

/*
 * test-db-common.h: helpers shared by the tests of modules/patterndb/db:
 * databases written to a temporary directory from strings, a warning
 * collector, and a recording message (PdbMessageOps) that keeps every
 * write in order so that tests can assert the reference's output order.
 */
#ifndef PDB_TEST_DB_COMMON_H
#define PDB_TEST_DB_COMMON_H

#include <criterion/criterion.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "db/database.h"

#ifndef PDB_TEST_DATA_DIR
#define PDB_TEST_DATA_DIR "tests/data/db"
#endif

/* ---- temporary files ---------------------------------------------------- */

G_GNUC_UNUSED static gchar *test_tmpdir;

G_GNUC_UNUSED static void
test_tmpdir_setup(void)
{
  test_tmpdir = g_dir_make_tmp("pdb-db-test-XXXXXX", NULL);
  cr_assert_not_null(test_tmpdir);
}

G_GNUC_UNUSED static void
remove_tree(const gchar *path)
{
  GDir *dir = g_dir_open(path, 0, NULL);

  if (dir)
    {
      const gchar *name;
      while ((name = g_dir_read_name(dir)) != NULL)
        {
          gchar *child = g_build_filename(path, name, NULL);
          if (g_file_test(child, G_FILE_TEST_IS_DIR) && !g_file_test(child, G_FILE_TEST_IS_SYMLINK))
            remove_tree(child);
          else
            g_unlink(child);
          g_free(child);
        }
      g_dir_close(dir);
    }
  g_rmdir(path);
}

G_GNUC_UNUSED static void
test_tmpdir_teardown(void)
{
  if (test_tmpdir)
    remove_tree(test_tmpdir);
  g_clear_pointer(&test_tmpdir, g_free);
}

/* Writes @contents to @name inside the temporary directory (creating
 * sub-directories) and returns the full path (owned by the caller). */
G_GNUC_UNUSED static gchar *
write_file(const gchar *name, const gchar *contents)
{
  gchar *path = g_build_filename(test_tmpdir, name, NULL);
  gchar *dir = g_path_get_dirname(path);

  g_mkdir_with_parents(dir, 0700);
  g_free(dir);
  cr_assert(g_file_set_contents(path, contents, -1, NULL), "cannot write %s", path);
  return path;
}

/* ---- warnings ------------------------------------------------------------ */

G_GNUC_UNUSED static void
collect_warning(const gchar *message, gpointer user_data)
{
  g_ptr_array_add((GPtrArray *) user_data, g_strdup(message));
}

/* Options whose warnings go into @warnings (a GPtrArray of gchar*). */
G_GNUC_UNUSED static PdbLoadOptions
options_collecting(GPtrArray *warnings)
{
  PdbLoadOptions options = { 0 };

  options.warning = collect_warning;
  options.warning_data = warnings;
  return options;
}

G_GNUC_UNUSED static gchar *
join_warnings(GPtrArray *warnings)
{
  GString *all = g_string_new(NULL);

  for (guint i = 0; i < warnings->len; i++)
    g_string_append_printf(all, "%s\n", (const gchar *) g_ptr_array_index(warnings, i));
  return g_string_free(all, FALSE);
}

/* ---- a recording message ------------------------------------------------ */

typedef struct _TestMessage
{
  GHashTable *values;     /* name -> value */
  GHashTable *types;      /* name -> GINT_TO_POINTER(type + 1) */
  GPtrArray *tags;        /* in the order set */
  GString *log;           /* every operation: "set name=value\n", "tag t\n", "clear t\n" */
} TestMessage;

G_GNUC_UNUSED static TestMessage *
test_message_new(void)
{
  TestMessage *msg = g_new0(TestMessage, 1);

  msg->values = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  msg->types = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  msg->tags = g_ptr_array_new_with_free_func(g_free);
  msg->log = g_string_new(NULL);
  return msg;
}

G_GNUC_UNUSED static void
test_message_free(TestMessage *msg)
{
  g_hash_table_unref(msg->values);
  g_hash_table_unref(msg->types);
  g_ptr_array_unref(msg->tags);
  g_string_free(msg->log, TRUE);
  g_free(msg);
}

static const gchar *
test_message_get(gpointer m, const gchar *name, gssize *length)
{
  TestMessage *msg = m;
  const gchar *value = g_hash_table_lookup(msg->values, name);

  if (value && length)
    *length = strlen(value);
  return value;
}

G_GNUC_UNUSED static void
test_message_set(gpointer m, const gchar *name, const gchar *value, gssize length, PdbValueType type)
{
  TestMessage *msg = m;
  gchar *copy = length < 0 ? g_strdup(value) : g_strndup(value, length);

  g_string_append_printf(msg->log, "set %s=%s%s\n", name, copy,
                         type == PDB_VALUE_INT64 ? " (int64)" : type == PDB_VALUE_DOUBLE ? " (double)" : "");
  g_hash_table_replace(msg->types, g_strdup(name), GINT_TO_POINTER(type + 1));
  g_hash_table_replace(msg->values, g_strdup(name), copy);
}

G_GNUC_UNUSED static void
test_message_set_tag(gpointer m, const gchar *tag)
{
  TestMessage *msg = m;

  g_string_append_printf(msg->log, "tag %s\n", tag);
  g_ptr_array_add(msg->tags, g_strdup(tag));
}

G_GNUC_UNUSED static void
test_message_clear_tag(gpointer m, const gchar *tag)
{
  TestMessage *msg = m;

  g_string_append_printf(msg->log, "clear %s\n", tag);
}

static const PdbMessageOps test_message_ops =
{
  test_message_get,
  test_message_set,
  test_message_set_tag,
  test_message_clear_tag,
};

#endif

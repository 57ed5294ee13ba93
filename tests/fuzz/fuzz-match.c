/*
 * fuzz-match.c: libFuzzer harness for classification.
 *
 * At start-up it loads a fixed set of databases (the unit-test databases,
 * the differential-test databases and the bundled pattern library, each as
 * its own PdbDatabase). Every input is split at its first NUL byte into a
 * program name and a message (no NUL: empty program, whole input as the
 * message) and classified against every database, then the result is
 * applied to a throw-away message so the capture and template code runs
 * too. Invariant checked: captures always lie inside the buffer they point
 * into; anything else (crash, leak, sanitizer report) is a libFuzzer failure.
 */
#include "db/database.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static GPtrArray *databases;

static const gchar *
fuzz_msg_get(gpointer msg, const gchar *name, gssize *length)
{
  const gchar *v = g_hash_table_lookup(msg, name);
  if (v && length)
    *length = (gssize) strlen(v);
  return v;
}

static void
fuzz_msg_set(gpointer msg, const gchar *name, const gchar *value, gssize length, PdbValueType type)
{
  (void) type;
  g_hash_table_replace(msg, g_strdup(name),
                       length < 0 ? g_strdup(value) : g_strndup(value, (gsize) length));
}

static void
fuzz_msg_tag(gpointer msg, const gchar *tag)
{
  (void) msg;
  (void) tag;
}

static const PdbMessageOps fuzz_ops = { fuzz_msg_get, fuzz_msg_set, fuzz_msg_tag, fuzz_msg_tag };

static void
fuzz_quiet(const gchar *message, gpointer user_data)
{
  (void) message;
  (void) user_data;
}

static void
fuzz_load(const gchar *path)
{
  PdbLoadOptions options = { 0 };
  options.warning = fuzz_quiet;
  GError *error = NULL;
  PdbDatabase *db = pdb_database_load(path, &options, &error);
  if (!db)
    {
      fprintf(stderr, "fuzz-match: cannot load %s: %s\n", path, error->message);
      g_error_free(error);
      abort();
    }
  g_ptr_array_add(databases, db);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void) argc;
  (void) argv;
  const gchar *srcdir = g_getenv("top_srcdir");
  if (!srcdir)
    srcdir = PDB_FUZZ_SRCDIR;
  databases = g_ptr_array_new();
  static const gchar *const paths[] = {
    "tests/data/db/valid-v4.xml",
    "tests/data/db/valid-v5.xml",
    "tests/data/db/valid-v6.xml",
    "tests/data/db/full-v6.xml",
    "tests/differential/db/elements.xml",
    "tests/differential/db/parsers.xml",
    "tests/differential/db/precedence.xml",
    "tests/differential/db/versions.xml",
    "contrib/patterns",
  };
  for (gsize i = 0; i < G_N_ELEMENTS(paths); i++)
    {
      gchar *path = g_build_filename(srcdir, paths[i], NULL);
      fuzz_load(path);
      g_free(path);
    }
  return 0;
}

static void
fuzz_check_captures(const PdbMatch *match, gsize length)
{
  for (guint i = 0; i < match->n_captures; i++)
    {
      const PdbCapture *c = &match->captures[i];
      if ((gsize) c->offset + c->length > length)
        abort();
    }
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  const gchar *input = (const gchar *) data;
  const gchar *nul = memchr(input, '\0', size);
  gsize program_length = nul ? (gsize) (nul - input) : 0;
  const gchar *message = nul ? nul + 1 : input;
  gsize message_length = nul ? size - program_length - 1 : size;

  /* pdb_result_apply() reads the buffers as NUL-terminated strings. */
  gchar *program = g_strndup(input, program_length);
  gchar *msgcopy = g_malloc(message_length + 1);
  memcpy(msgcopy, message, message_length);
  msgcopy[message_length] = '\0';

  PdbResult result;
  pdb_result_init(&result);
  for (guint i = 0; i < databases->len; i++)
    {
      pdb_database_classify(databases->pdata[i], program, program_length,
                            msgcopy, message_length, &result);
      fuzz_check_captures(&result.program_match, program_length);
      fuzz_check_captures(&result.message_match, message_length);
      GHashTable *msg = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
      g_hash_table_insert(msg, g_strdup("PROGRAM"), g_strdup(program));
      g_hash_table_insert(msg, g_strdup("MESSAGE"), g_strdup(msgcopy));
      pdb_result_apply(&result, program, msgcopy, &fuzz_ops, msg);
      g_hash_table_destroy(msg);
    }
  pdb_result_clear(&result);
  g_free(program);
  g_free(msgcopy);
  return 0;
}

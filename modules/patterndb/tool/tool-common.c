/*
 * tool-common.c: option parsing, database loading and output helpers
 * shared by the subcommands (see tool-common.h).
 *
 * Every error message goes to stderr in pdbtool's wording, so scripts that
 * grep for it keep working; only the exit codes differ (non-zero).
 */
#include "config.h"
#include "tool/tool-common.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static gboolean ignored_flag;
static gchar *ignored_string;

static gboolean
print_version(const gchar *name, const gchar *value, gpointer data, GError **error)
{
  printf("patterndb %s\n", PACKAGE_VERSION);
  exit(0);
}

static GOptionEntry global_entries[] =
{
  { "version", 'V', G_OPTION_FLAG_NO_ARG, G_OPTION_ARG_CALLBACK, (gpointer) print_version, "Print the version and exit", NULL },
  { "debug", 'd', 0, G_OPTION_ARG_NONE, &ignored_flag, "Enable debug/diagnostic messages on stderr (accepted for pdbtool compatibility)", NULL },
  { "verbose", 'v', 0, G_OPTION_ARG_NONE, &ignored_flag, "Enable verbose messages on stderr (accepted for pdbtool compatibility)", NULL },
  { "module", 0, 0, G_OPTION_ARG_STRING, &ignored_string, "Accepted and ignored (pdbtool loads syslog-ng modules; patterndb needs none)", "<module>" },
  { "module-path", 0, 0, G_OPTION_ARG_STRING, &ignored_string, "Accepted and ignored", "<path>" },
  { NULL }
};

gboolean
pdb_tool_parse_options(int *argc, char ***argv, const gchar *parameter,
                       const gchar *summary, const gchar *description,
                       GOptionEntry *entries)
{
  GOptionContext *ctx = g_option_context_new(parameter);
  GError *error = NULL;
  gboolean ok;
  gboolean has_verbose = FALSE, has_debug = FALSE;

  g_set_prgname("patterndb");
  g_option_context_set_summary(ctx, summary);
  if (description)
    g_option_context_set_description(ctx, description);
  g_option_context_add_main_entries(ctx, entries, NULL);
  /* a subcommand may define -v/-d itself (test -v); then skip the global one */
  for (GOptionEntry *e = entries; e->long_name; e++)
    {
      if (e->short_name == 'v')
        has_verbose = TRUE;
      if (e->short_name == 'd' || strcmp(e->long_name, "debug") == 0)
        has_debug = TRUE;
    }
  for (GOptionEntry *e = global_entries; e->long_name; e++)
    {
      GOptionEntry one[2] = { *e, { NULL } };

      if ((e->short_name == 'v' && has_verbose) || (e->short_name == 'd' && has_debug))
        continue;
      g_option_context_add_main_entries(ctx, one, NULL);
    }
  ok = g_option_context_parse(ctx, argc, argv, &error);
  if (!ok)
    {
      fprintf(stderr, "Error parsing command line arguments: %s\n", error->message);
      g_error_free(error);
    }
  g_option_context_free(ctx);
  g_free(ignored_string);
  ignored_string = NULL;
  return ok;
}

static guint tool_load_threads;

void
pdb_tool_set_load_threads(guint threads)
{
  tool_load_threads = threads;
}

PdbDatabase *
pdb_tool_load_database(const gchar *path, gboolean validate_schema)
{
  PdbLoadOptions options = { 0 };
  GError *error = NULL;
  PdbDatabase *db;

  options.validate_schema = validate_schema;
  options.load_threads = tool_load_threads;
  /* PATTERNDB_LOAD_THREADS=1: every command loads on one thread (tests
   * compare the two ways; see patterndb(1)) */
  const gchar *forced = g_getenv("PATTERNDB_LOAD_THREADS");
  if (forced && *forced)
    options.load_threads = (guint) g_ascii_strtoull(forced, NULL, 10);
  options.record_names = TRUE;
  db = pdb_database_load(path, &options, &error);
  if (db)
    return db;
  if (g_error_matches(error, PDB_DB_ERROR, PDB_DB_ERROR_IO))
    fprintf(stderr, "Error opening classifier configuration file; filename='%s', error='%s'\n",
            path, error->message);
  else
    fprintf(stderr, "Error parsing pattern database file; filename='%s', error='%s'\n",
            path, error ? error->message : "unknown error");
  g_clear_error(&error);
  return NULL;
}

gchar *
pdb_tool_unescape(const gchar *text)
{
  gsize length = strlen(text);

  /* g_strcompress() warns about a trailing backslash; pdbtool drops it */
  if (length > 0 && text[length - 1] == '\\')
    {
      gsize run = 0;
      while (run < length && text[length - 1 - run] == '\\')
        run++;
      if (run % 2 == 1)
        {
          gchar *cut = g_strndup(text, length - 1);
          gchar *out = g_strcompress(cut);
          g_free(cut);
          return out;
        }
    }
  return g_strcompress(text);
}

void
pdb_tool_flush(GString *out, FILE *stream, gsize threshold)
{
  if (out->len > threshold)
    {
      fwrite(out->str, 1, out->len, stream);
      g_string_truncate(out, 0);
    }
}

gboolean
pdb_tool_read_lines(const gchar *command, const gchar *path,
                    PdbToolLineFunc line_func, gpointer user_data)
{
  FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
  if (!f)
    {
      fprintf(stderr, "patterndb %s: cannot open %s: %s\n", command, path, g_strerror(errno));
      return FALSE;
    }
  gchar *line = NULL;
  size_t cap = 0;
  ssize_t n;
  while ((n = getline(&line, &cap, f)) >= 0)
    {
      if (n > 0 && line[n - 1] == '\n')
        n--;
      if (n > 0 && line[n - 1] == '\r')
        n--;
      line_func(line, (gsize) n, user_data);
    }
  gboolean ok = !ferror(f);
  if (!ok)
    fprintf(stderr, "patterndb %s: error reading %s: %s\n", command, path, g_strerror(errno));
  free(line);
  if (f != stdin)
    fclose(f);
  return ok;
}

void
pdb_tool_now_utc(struct tm *tm)
{
  const gchar *epoch = g_getenv("SOURCE_DATE_EPOCH");
  time_t t = epoch ? (time_t) g_ascii_strtoll(epoch, NULL, 10) : time(NULL);

  gmtime_r(&t, tm);
}

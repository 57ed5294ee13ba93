/*
 * mining-ga.c: Group Accuracy of the clustering on loghub-style samples.
 *
 * Usage: mining-ga STRUCTURED.csv...
 *        mining-ga --content STRUCTURED.csv   (prints the Content column, one line each)
 * Each file is a loghub `*_structured.csv`; its `Content` column is
 * clustered with default settings and compared with the ground truth
 * `EventId`: a line counts as correct when the set of lines in its cluster
 * is exactly the set of lines of its event. Prints one line per file,
 * "<name> <ga>", with GA to three decimals, then "average <ga>".
 * Exit status: 0, or 1 if a file cannot be read or has no such columns.
 * The thresholds are checked by tests/mining/test-group-accuracy.sh.
 */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "mining/cluster.h"

/* Splits one CSV record (RFC 4180 quoting, "" inside quotes) starting at
 * *pos; returns the fields or NULL at end of input. */
static GPtrArray *
csv_next_record(const gchar *text, gsize len, gsize *pos)
{
  if (*pos >= len)
    return NULL;
  GPtrArray *fields = g_ptr_array_new_with_free_func(g_free);
  GString *f = g_string_new(NULL);
  gsize i = *pos;
  gboolean quoted = FALSE;

  while (i < len)
    {
      gchar c = text[i];
      if (quoted)
        {
          if (c == '"' && i + 1 < len && text[i + 1] == '"')
            {
              g_string_append_c(f, '"');
              i += 2;
              continue;
            }
          if (c == '"')
            quoted = FALSE;
          else
            g_string_append_c(f, c);
          i++;
          continue;
        }
      if (c == '"')
        quoted = TRUE;
      else if (c == ',')
        {
          g_ptr_array_add(fields, g_string_free(f, FALSE));
          f = g_string_new(NULL);
        }
      else if (c == '\n')
        {
          i++;
          break;
        }
      else if (c != '\r')
        g_string_append_c(f, c);
      i++;
    }
  g_ptr_array_add(fields, g_string_free(f, FALSE));
  *pos = i;
  return fields;
}

static gint
column_index(GPtrArray *header, const gchar *name)
{
  for (guint i = 0; i < header->len; i++)
    if (strcmp(g_ptr_array_index(header, i), name) == 0)
      return (gint) i;
  return -1;
}

/* Group Accuracy of the default clustering on one structured CSV file. */
static gboolean
group_accuracy(const gchar *path, gdouble *result)
{
  gchar *text = NULL;
  gsize len = 0;
  GError *error = NULL;
  if (!g_file_get_contents(path, &text, &len, &error))
    {
      fprintf(stderr, "mining-ga: %s\n", error->message);
      g_error_free(error);
      return FALSE;
    }

  gsize pos = 0;
  GPtrArray *header = csv_next_record(text, len, &pos);
  gint content_col = column_index(header, "Content");
  gint event_col = column_index(header, "EventId");
  if (content_col < 0 || event_col < 0)
    {
      fprintf(stderr, "mining-ga: %s:1: expected a header with Content and EventId columns\n", path);
      g_ptr_array_free(header, TRUE);
      g_free(text);
      return FALSE;
    }

  PdbMiner *miner = pdb_miner_new(NULL);
  GPtrArray *truth = g_ptr_array_new_with_free_func(g_free);
  GPtrArray *rec;
  while ((rec = csv_next_record(text, len, &pos)))
    {
      if (rec->len > (guint) MAX(content_col, event_col))
        {
          const gchar *content = g_ptr_array_index(rec, content_col);
          pdb_miner_add_message(miner, content, strlen(content));
          g_ptr_array_add(truth, g_strdup(g_ptr_array_index(rec, event_col)));
        }
      g_ptr_array_free(rec, TRUE);
    }

  const GPtrArray *clusters = pdb_miner_finish(miner);
  guint n = truth->len;
  guint *pred = g_new0(guint, n);
  for (guint c = 0; c < clusters->len; c++)
    {
      const PdbMiningCluster *cl = g_ptr_array_index(clusters, c);
      for (guint k = 0; k < cl->members->len; k++)
        pred[g_array_index(cl->members, guint, k)] = c;
    }

  /* sizes of true groups, predicted clusters and their intersections */
  GHashTable *true_size = g_hash_table_new(g_str_hash, g_str_equal);
  GHashTable *pair_size = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < n; i++)
    {
      const gchar *ev = g_ptr_array_index(truth, i);
      g_hash_table_insert(true_size, (gpointer) ev,
                          GUINT_TO_POINTER(GPOINTER_TO_UINT(g_hash_table_lookup(true_size, ev)) + 1));
      gchar *key = g_strdup_printf("%s\x1f%u", ev, pred[i]);
      guint old = GPOINTER_TO_UINT(g_hash_table_lookup(pair_size, key));
      g_hash_table_replace(pair_size, key, GUINT_TO_POINTER(old + 1));
    }
  guint correct = 0;
  for (guint i = 0; i < n; i++)
    {
      const gchar *ev = g_ptr_array_index(truth, i);
      const PdbMiningCluster *cl = g_ptr_array_index(clusters, pred[i]);
      guint ts = GPOINTER_TO_UINT(g_hash_table_lookup(true_size, ev));
      gchar *key = g_strdup_printf("%s\x1f%u", ev, pred[i]);
      guint both = GPOINTER_TO_UINT(g_hash_table_lookup(pair_size, key));
      g_free(key);
      if (both == ts && both == cl->members->len)
        correct++;
    }

  g_hash_table_destroy(true_size);
  g_hash_table_destroy(pair_size);
  g_free(pred);
  pdb_miner_free(miner);
  g_ptr_array_free(truth, TRUE);
  g_ptr_array_free(header, TRUE);
  g_free(text);
  *result = n ? (gdouble) correct / n : 0.0;
  return TRUE;
}

/* Prints the Content column of @path, one message per line. */
static int
print_content(const gchar *path)
{
  gchar *text = NULL;
  gsize len = 0, pos = 0;
  GError *error = NULL;
  if (!g_file_get_contents(path, &text, &len, &error))
    {
      fprintf(stderr, "mining-ga: %s\n", error->message);
      g_error_free(error);
      return 1;
    }
  GPtrArray *header = csv_next_record(text, len, &pos);
  gint col = header ? column_index(header, "Content") : -1;
  GPtrArray *rec;
  while (col >= 0 && (rec = csv_next_record(text, len, &pos)))
    {
      if (rec->len > (guint) col)
        printf("%s\n", (const gchar *) g_ptr_array_index(rec, col));
      g_ptr_array_free(rec, TRUE);
    }
  if (header)
    g_ptr_array_free(header, TRUE);
  g_free(text);
  if (col < 0)
    fprintf(stderr, "mining-ga: %s:1: expected a header with a Content column\n", path);
  return col < 0 ? 1 : 0;
}

int
main(int argc, char **argv)
{
  if (argc == 3 && strcmp(argv[1], "--content") == 0)
    return print_content(argv[2]);

  gdouble sum = 0.0;
  int n = 0;

  if (argc < 2)
    {
      fprintf(stderr, "usage: mining-ga STRUCTURED.csv...\n");
      return 2;
    }
  for (int i = 1; i < argc; i++)
    {
      gdouble ga;
      if (!group_accuracy(argv[i], &ga))
        return 1;
      gchar *base = g_path_get_basename(argv[i]);
      gchar *cut = strchr(base, '_');
      if (cut)
        *cut = '\0';
      printf("%s %.3f\n", base, ga);
      g_free(base);
      sum += ga;
      n++;
    }
  printf("average %.3f\n", sum / n);
  return 0;
}

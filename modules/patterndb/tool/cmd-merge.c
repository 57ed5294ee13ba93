/*
 * cmd-merge.c: `patterndb merge`, pdbtool's merge subcommand.
 *
 * Concatenates the content of every pattern database file of a directory
 * under one fresh <patterndb version='V' pub_date='today'>. The content is
 * copied as text (comments and layout survive); each input is first parsed
 * with libxml2, so a broken file is reported and left out instead of
 * producing a broken output. Version 1 files are converted on the way
 * (<program> becomes <ruleset>, a rule's single <pattern>/<url> is wrapped in
 * <patterns>/<urls>). V is 6 when any input is version 6 (3.38 cannot read
 * the result then, but the inputs already needed a newer reader), else 4,
 * as pdbtool writes. The output is written to a temporary file and renamed,
 * so a reader never sees half of it.
 *
 * File order: the entries of a directory by name; with -s the files of a
 * directory come before its sub-directories (pdbtool's -s order). Without
 * -r, sub-directories are skipped. -G matches the full path (glob).
 */
#include "tool/commands.h"
#include "tool/tool-common.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct
{
  gboolean recursive;
  gboolean sort;
  gchar *glob;
} MergeOptions;

static gint
compare_strings(gconstpointer a, gconstpointer b)
{
  return strcmp(*(const gchar *const *) a, *(const gchar *const *) b);
}

static gboolean
list_files(const gchar *dir, const MergeOptions *opt, GPtrArray *out, GError **error)
{
  GDir *d = g_dir_open(dir, 0, error);
  GPtrArray *entries;
  const gchar *name;
  gboolean ok = TRUE;

  if (!d)
    return FALSE;
  entries = g_ptr_array_new_with_free_func(g_free);
  while ((name = g_dir_read_name(d)))
    g_ptr_array_add(entries, g_build_filename(dir, name, NULL));
  g_dir_close(d);
  g_ptr_array_sort(entries, compare_strings);
  /* with -s: files first (pass 0), then sub-directories (pass 1) */
  for (int pass = opt->sort ? 0 : -1; pass < 2 && ok; pass++)
    {
      for (guint i = 0; i < entries->len && ok; i++)
        {
          const gchar *path = g_ptr_array_index(entries, i);
          gboolean is_dir = g_file_test(path, G_FILE_TEST_IS_DIR);

          if (pass == 0 && is_dir)
            continue;
          if (pass == 1 && !is_dir)
            continue;
          if (is_dir)
            {
              if (opt->recursive)
                ok = list_files(path, opt, out, error);
              continue;
            }
          if (!g_file_test(path, G_FILE_TEST_IS_REGULAR))
            continue;
          if (opt->glob && !g_pattern_match_simple(opt->glob, path))
            continue;
          g_ptr_array_add(out, g_strdup(path));
        }
      if (pass == -1)
        break;
    }
  g_ptr_array_free(entries, TRUE);
  return ok;
}

/* Skips the prolog (declaration, comments, PIs, DOCTYPE, blanks); returns the
 * offset of the root's '<' or -1. */
static gssize
find_root_start(const gchar *text, gsize len)
{
  gsize pos = 0;

  while (pos < len)
    {
      if (g_ascii_isspace(text[pos]) || (pos == 0 && len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0))
        {
          pos += g_ascii_isspace(text[pos]) ? 1 : 3;
          continue;
        }
      if (text[pos] != '<')
        return -1;
      if (pos + 4 <= len && memcmp(text + pos, "<!--", 4) == 0)
        {
          const gchar *end = g_strstr_len(text + pos + 4, len - pos - 4, "-->");

          if (!end)
            return -1;
          pos = end - text + 3;
        }
      else if (pos + 2 <= len && (text[pos + 1] == '?' || text[pos + 1] == '!'))
        {
          const gchar *end = memchr(text + pos, '>', len - pos);

          if (!end)
            return -1;
          pos = end - text + 1;
        }
      else
        return pos;
    }
  return -1;
}

/* When a comment or a CDATA section starts at @at: the offset just past its
 * end (@len when it is not closed); 0 otherwise. Both are copied verbatim. */
static gsize
verbatim_section_end(const gchar *text, gsize len, gsize at)
{
  static const struct { const gchar *open, *close; } sections[] =
  {
    { "<!--", "-->" },
    { "<![CDATA[", "]]>" },
  };

  for (guint i = 0; i < G_N_ELEMENTS(sections); i++)
    {
      gsize n = strlen(sections[i].open);

      if (len - at >= n && memcmp(text + at, sections[i].open, n) == 0)
        {
          const gchar *e = g_strstr_len(text + at, len - at, sections[i].close);

          return e ? (gsize) (e - text) + strlen(sections[i].close) : len;
        }
    }
  return 0;
}

/* The end of a start tag that begins at @pos (quotes respected), or -1. */
static gssize
find_tag_end(const gchar *text, gsize len, gsize pos)
{
  gchar quote = 0;

  for (; pos < len; pos++)
    {
      if (quote)
        {
          if (text[pos] == quote)
            quote = 0;
        }
      else if (text[pos] == '"' || text[pos] == '\'')
        quote = text[pos];
      else if (text[pos] == '>')
        return pos;
    }
  return -1;
}

/*
 * v1 -> v4: rename <program>, wrap a rule's bare <pattern>/<url>. The text
 * is well-formed (checked by libxml2), so element boundaries are found by
 * name; comments and CDATA are copied without looking inside.
 */
static void
convert_v1(const gchar *text, gsize len, GString *out)
{
  gsize pos = 0;
  gint in_rule = 0, in_patterns = 0, in_urls = 0;

  while (pos < len)
    {
      const gchar *lt = memchr(text + pos, '<', len - pos);
      gsize at, tag_end;
      gboolean closing;
      const gchar *name;
      gsize name_len;

      if (!lt)
        {
          g_string_append_len(out, text + pos, len - pos);
          break;
        }
      at = lt - text;
      g_string_append_len(out, text + pos, at - pos);
      gsize verbatim_end = verbatim_section_end(text, len, at);
      if (verbatim_end)
        {
          g_string_append_len(out, text + at, verbatim_end - at);
          pos = verbatim_end;
          continue;
        }
      gssize te = find_tag_end(text, len, at);
      tag_end = te < 0 ? len - 1 : (gsize) te;
      closing = text[at + 1] == '/';
      name = text + at + (closing ? 2 : 1);
      name_len = 0;
      while (name + name_len < text + tag_end && !g_ascii_isspace(name[name_len])
             && name[name_len] != '/' && name[name_len] != '>')
        name_len++;
#define IS(n) (name_len == strlen(n) && memcmp(name, n, name_len) == 0)
      gboolean self_closing = text[tag_end - 1] == '/';
      if (IS("program"))
        {
          g_string_append(out, closing ? "</ruleset" : "<ruleset");
          g_string_append_len(out, name + name_len, text + tag_end + 1 - (name + name_len));
        }
      else if (IS("rule"))
        {
          in_rule += closing ? -1 : (self_closing ? 0 : 1);
          g_string_append_len(out, text + at, tag_end + 1 - at);
        }
      else if (IS("patterns") || IS("urls"))
        {
          gint *counter = IS("patterns") ? &in_patterns : &in_urls;

          *counter += closing ? -1 : (self_closing ? 0 : 1);
          g_string_append_len(out, text + at, tag_end + 1 - at);
        }
      else if ((IS("pattern") && in_rule > 0 && in_patterns == 0)
               || (IS("url") && in_rule > 0 && in_urls == 0))
        {
          const gchar *wrap = IS("pattern") ? "patterns" : "urls";

          if (!closing)
            g_string_append_printf(out, "<%s>\n", wrap);
          g_string_append_len(out, text + at, tag_end + 1 - at);
          if (closing || self_closing)
            g_string_append_printf(out, "\n</%s>", wrap);
        }
      else
        g_string_append_len(out, text + at, tag_end + 1 - at);
#undef IS
      pos = tag_end + 1;
    }
}

/*
 * Appends the content of @path's root element to @out. Returns FALSE (and
 * prints why) if the file is not a pattern database. *@version gets the
 * file's version attribute (4 when missing, as 3.38).
 */
static gboolean
append_file(const gchar *path, GString *out, gint *version)
{
  gchar *text = NULL;
  gsize len = 0;
  GError *error = NULL;
  xmlDocPtr doc;
  xmlNodePtr root;
  gssize start, start_end;
  const gchar *close;
  gboolean ok = FALSE;

  if (!g_file_get_contents(path, &text, &len, &error))
    {
      fprintf(stderr, "Error opening pattern database file; filename='%s', error='%s'\n", path, error->message);
      g_error_free(error);
      return FALSE;
    }
  doc = xmlReadMemory(text, (int) MIN(len, (gsize) G_MAXINT), path, NULL,
                      XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  if (!doc)
    {
      const xmlError *e = xmlGetLastError();

      fprintf(stderr, "Error parsing pattern database file; filename='%s', error='%s:%d:%d: %s'\n", path, path,
              e ? e->line : 0, e ? e->int2 : 0, e && e->message ? g_strchomp(e->message) : "not well-formed XML");
      goto done;
    }
  root = xmlDocGetRootElement(doc);
  if (!root || strcmp((const char *) root->name, "patterndb") != 0)
    {
      fprintf(stderr, "Error parsing pattern database file; filename='%s', error='%s: the root element is not <patterndb>'\n",
              path, path);
      goto done;
    }
  xmlChar *v = xmlGetProp(root, (const xmlChar *) "version");
  *version = v ? atoi((const char *) v) : 4;
  xmlFree(v);

  start = find_root_start(text, len);
  start_end = start < 0 ? -1 : find_tag_end(text, len, start);
  if (start_end < 0)
    {
      fprintf(stderr, "Error parsing pattern database file; filename='%s', error='%s: cannot find the <patterndb> element'\n",
              path, path);
      goto done;
    }
  ok = TRUE;
  if (text[start_end - 1] == '/')
    goto done;   /* <patterndb .../>: nothing to copy */
  close = g_strrstr_len(text, len, "</patterndb");
  if (!close || close < text + start_end)
    {
      ok = FALSE;
      fprintf(stderr, "Error parsing pattern database file; filename='%s', error='%s: cannot find </patterndb>'\n",
              path, path);
      goto done;
    }
  if (*version <= 1)
    convert_v1(text + start_end + 1, close - (text + start_end + 1), out);
  else
    g_string_append_len(out, text + start_end + 1, close - (text + start_end + 1));
done:
  if (doc)
    xmlFreeDoc(doc);
  g_free(text);
  return ok;
}

static const gchar merge_description[] =
  "Exit status: 0 success, 1 some input file could not be read or parsed (it is\n"
  "left out; the output is still written), 2 usage error or the output cannot be\n"
  "written.\n";

/* Writes @doc to @path through a temporary file renamed over it (a reader
 * sees the old file or the new one, never a part); errors go to stderr. */
static gboolean
write_atomically(const gchar *path, const GString *doc)
{
  gchar *tmp = g_strdup_printf("%s.tmp-XXXXXX", path);
  gint fd = g_mkstemp(tmp);
  gboolean ok = FALSE;

  if (fd < 0 || write(fd, doc->str, doc->len) != (gssize) doc->len || fsync(fd) != 0)
    {
      fprintf(stderr, "Error writing output file; filename='%s', error='%s'\n", path, g_strerror(errno));
      if (fd >= 0)
        {
          close(fd);
          g_unlink(tmp);
        }
    }
  else
    {
      fchmod(fd, 0644);
      close(fd);
      if (g_rename(tmp, path) != 0)
        {
          fprintf(stderr, "Error writing output file; filename='%s', error='%s'\n", path, g_strerror(errno));
          g_unlink(tmp);
        }
      else
        ok = TRUE;
    }
  g_free(tmp);
  return ok;
}

int
pdb_cmd_merge(int argc, char **argv)
{
  MergeOptions opt = { 0 };
  gchar *pdb = NULL, *dir = NULL;
  GOptionEntry entries[] =
  {
    { "pdb", 'p', 0, G_OPTION_ARG_FILENAME, &pdb, "Name of the output patterndb file (default " PDB_TOOL_DEFAULT_PDB ")", "<patterndb_file>" },
    { "directory", 'D', 0, G_OPTION_ARG_FILENAME, &dir, "Directory from merge pattern databases", "<directory>" },
    { "recursive", 'r', 0, G_OPTION_ARG_NONE, &opt.recursive, "Recurse into subdirectories", NULL },
    { "glob", 'G', 0, G_OPTION_ARG_STRING, &opt.glob, "Only merge files whose full path matches this glob", "<pattern>" },
    { "sort", 's', 0, G_OPTION_ARG_NONE, &opt.sort, "Files of a directory before its sub-directories", NULL },
    { NULL }
  };
  GPtrArray *files = NULL;
  GString *body = NULL, *doc = NULL;
  GError *error = NULL;
  gint max_version = 4, rc = PDB_TOOL_EXIT_USAGE;
  gboolean input_failed = FALSE;
  const gchar *out_path;

  if (!pdb_tool_parse_options(&argc, &argv, "merge", "Merge pattern databases", merge_description, entries))
    goto out;
  if (!dir)
    {
      fprintf(stderr, "No directory is specified to merge from\n");
      goto out;
    }
  out_path = pdb ? pdb : PDB_TOOL_DEFAULT_PDB;
  files = g_ptr_array_new_with_free_func(g_free);
  if (!list_files(dir, &opt, files, &error))
    {
      fprintf(stderr, "error getting filenames: %s\n", error->message);
      g_error_free(error);
      goto out;
    }
  body = g_string_new(NULL);
  for (guint i = 0; i < files->len; i++)
    {
      const gchar *path = g_ptr_array_index(files, i);
      gint version = 4;
      gsize before = body->len;

      /* never merge the previous output into the new one */
      gchar *canon_in = g_canonicalize_filename(path, NULL);
      gchar *canon_out = g_canonicalize_filename(out_path, NULL);
      gboolean is_output = strcmp(canon_in, canon_out) == 0;

      g_free(canon_in);
      g_free(canon_out);
      if (is_output)
        continue;
      if (!append_file(path, body, &version))
        {
          g_string_truncate(body, before);
          input_failed = TRUE;
          continue;
        }
      max_version = MAX(max_version, version >= 6 ? 6 : 4);
    }

  GDateTime *now = g_date_time_new_now_local();
  gchar *today = g_date_time_format(now, "%Y-%m-%d");

  g_date_time_unref(now);
  doc = g_string_new(NULL);
  g_string_append_printf(doc, "<?xml version='1.0' encoding='UTF-8'?>\n<patterndb version='%d' pub_date='%s'>",
                         max_version, today);
  g_free(today);
  g_string_append_len(doc, body->str, body->len);
  g_string_append(doc, "</patterndb>\n");

  if (!write_atomically(out_path, doc))
    goto out;
  rc = input_failed ? 1 : 0;
out:
  if (files)
    g_ptr_array_free(files, TRUE);
  if (body)
    g_string_free(body, TRUE);
  if (doc)
    g_string_free(doc, TRUE);
  g_free(pdb);
  g_free(dir);
  g_free(opt.glob);
  return rc;
}

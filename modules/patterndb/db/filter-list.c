/*
 * filter-list.c: tags(T ...) and in-list(FILE [value(]NAME[)]).
 *
 * Invariant: an in-list() node holds the lines of its file as they were
 * when the expression was compiled (3.38 reads the file once too).
 */
#include "db/filter-node.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* ---- tags() ---- */

static gboolean
tags_string_has(const gchar *list, gssize length, const gchar *tag)
{
  gsize n = strlen(tag);
  const gchar *end = list + length;

  if (length == 0)
    return FALSE;
  for (const gchar *p = list; p <= end;)
    {
      const gchar *comma = memchr(p, ',', end - p);
      const gchar *stop = comma ? comma : end;

      if ((gsize) (stop - p) == n && memcmp(p, tag, n) == 0)
        return TRUE;
      if (!comma)
        break;
      p = comma + 1;
    }
  return FALSE;
}

static gboolean
tags_eval(gconstpointer data, const PdbFilterSubject *subject)
{
  const GPtrArray *tags = data;
  const gchar *list = NULL;
  gssize length = 0;

  if (!subject->has_tag)
    list = pdb_filter_subject_get(subject, "TAGS", &length);
  for (guint i = 0; i < tags->len; i++)
    {
      const gchar *tag = g_ptr_array_index(tags, i);

      if (subject->has_tag ? subject->has_tag(tag, subject->user_data) : tags_string_has(list, length, tag))
        return TRUE;
    }
  return FALSE;
}

static void
tags_free(gpointer data)
{
  g_ptr_array_free(data, TRUE);
}

static void
tags_refs(gconstpointer data, PdbFilterRefFunc func, gpointer user_data)
{
  const GPtrArray *tags = data;

  for (guint i = 0; i < tags->len; i++)
    func(PDB_FILTER_REF_TAG, g_ptr_array_index(tags, i), user_data);
}

static const PdbFilterFuncOps tags_ops = { tags_eval, tags_free, NULL, tags_refs };

PdbFilterNode *
pdb_filter_parse_tags(PdbFilterParser *p)
{
  GPtrArray *tags;

  pdb_filter_advance(p);
  if (!pdb_filter_expect(p, PDB_FILTER_TOK_LPAREN, "'(' after tags"))
    return NULL;
  tags = g_ptr_array_new_with_free_func(g_free);
  while (p->lx.tok.kind == PDB_FILTER_TOK_WORD || p->lx.tok.kind == PDB_FILTER_TOK_STRING)
    g_ptr_array_add(tags, pdb_filter_parse_string(p));
  if (!pdb_filter_expect(p, PDB_FILTER_TOK_RPAREN, "a tag or ')'"))
    {
      g_ptr_array_free(tags, TRUE);
      return NULL;
    }
  return pdb_filter_node_new_func(&tags_ops, tags);
}

/* ---- in-list() ---- */

typedef struct
{
  gchar *name;            /* the value tested */
  GHashTable *lines;      /* the file's lines (keys only) */
} InList;

static gboolean
in_list_eval(gconstpointer data, const PdbFilterSubject *subject)
{
  const InList *self = data;
  gssize length;
  const gchar *v = pdb_filter_subject_get(subject, self->name, &length);
  gchar *copy = g_strndup(v, length);
  gboolean found = g_hash_table_contains(self->lines, copy);

  g_free(copy);
  return found;
}

static void
in_list_free(gpointer data)
{
  InList *self = data;

  g_free(self->name);
  if (self->lines)
    g_hash_table_destroy(self->lines);
  g_free(self);
}

static void
in_list_refs(gconstpointer data, PdbFilterRefFunc func, gpointer user_data)
{
  func(PDB_FILTER_REF_NAME, ((const InList *) data)->name, user_data);
}

static const PdbFilterFuncOps in_list_ops = { in_list_eval, in_list_free, NULL, in_list_refs };

/* 3.38's reading: lines of up to 16383 bytes (longer ones come in pieces),
 * each without its last byte (the newline, or the last character of a
 * final line without one), empty ones skipped. */
static gboolean
in_list_read(PdbFilterParser *p, gsize at, const gchar *file, GHashTable *lines)
{
  gchar line[16384];
  FILE *f = fopen(file, "r");

  if (!f)
    return pdb_filter_fail(p, at, "in-list(): cannot open '%s': %s", file, g_strerror(errno));
  while (fgets(line, sizeof(line), f))
    {
      gsize n = strlen(line);

      if (n)
        line[n - 1] = '\0';
      if (line[0])
        g_hash_table_add(lines, g_strdup(line));
    }
  fclose(f);
  return TRUE;
}

/* NAME or value(NAME), without a leading `$` */
static gchar *
in_list_name(PdbFilterParser *p)
{
  gchar *name;
  gsize at;

  if (pdb_filter_lex_is_keyword(&p->lx, "value"))
    {
      pdb_filter_advance(p);
      if (!pdb_filter_expect(p, PDB_FILTER_TOK_LPAREN, "'(' after value"))
        return NULL;
      at = p->lx.tok.start;
      name = pdb_filter_parse_string(p);
      if (name && !pdb_filter_expect(p, PDB_FILTER_TOK_RPAREN, "')' after the value name"))
        g_clear_pointer(&name, g_free);
    }
  else
    {
      at = p->lx.tok.start;
      name = pdb_filter_parse_string(p);
    }
  if (name && name[0] == '$')
    {
      pdb_filter_warn(p, at, "value names in filters need no '$' (only templates do); '%s' reads '%s'", name, name + 1);
      memmove(name, name + 1, strlen(name));
    }
  return name;
}

PdbFilterNode *
pdb_filter_parse_in_list(PdbFilterParser *p)
{
  InList *self = g_new0(InList, 1);
  gchar *file = NULL;
  gsize at;

  pdb_filter_advance(p);
  if (!pdb_filter_expect(p, PDB_FILTER_TOK_LPAREN, "'(' after in-list"))
    goto fail;
  at = p->lx.tok.start;
  file = pdb_filter_parse_string(p);
  if (!file || !(self->name = in_list_name(p)) || !pdb_filter_expect(p, PDB_FILTER_TOK_RPAREN, "')'"))
    goto fail;
  self->lines = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  if (!in_list_read(p, at, file, self->lines))
    goto fail;
  g_free(file);
  return pdb_filter_node_new_func(&in_list_ops, self);
fail:
  g_free(file);
  in_list_free(self);
  return NULL;
}

/*
 * lint-allow.c: silencing kinds of lint findings (see lint.h).
 *
 * Two ways, both by kind: `patterndb lint --ignore KIND,...` for the whole
 * run, and markers in the pattern files, XML comments that every loader
 * (pdbtool, syslog-ng, this one) skips and the XSD allows:
 *
 *   <!-- patterndb-lint: allow prefix-only, no-example; why it is fine -->
 *
 * A marker applies to the element it stands in: inside <rule> to that rule,
 * inside <ruleset> to every rule of that ruleset, directly inside
 * <patterndb> to the whole file. Text after ';' is the reason, for readers.
 *
 * A finding is silenced when its kind is ignored, allowed for its file, or
 * allowed for one of the rules it names (looked up in the finding's file
 * and in the file that rule comes from). A marker with an unknown kind is
 * itself reported (kind "lint-marker"), so a misspelling cannot silence
 * nothing unnoticed.
 */
#include "lint/lint-private.h"

#include <libxml/xmlreader.h>
#include <string.h>

#define MARKER_PREFIX "patterndb-lint:"

static const gchar *const known_kinds[] =
{
  "shadowed", "ambiguous", "duplicate-id", "no-example", "example-mismatch", "test-value",
  "prefix-only", "parser-follow", "loader", "rule-conflict", "never-matched", "shadowed-in-practice",
  "lint-marker", NULL
};

struct _PdbLintAllow
{
  GHashTable *ignored;   /* kind -> itself, for the whole run */
  GHashTable *scoped;    /* "file\nrule-id\nkind" or "file\n\nkind" -> itself */
};

static const gchar *
known_kind(const gchar *kind)
{
  for (guint i = 0; known_kinds[i]; i++)
    if (strcmp(known_kinds[i], kind) == 0)
      return known_kinds[i];
  return NULL;
}

PdbLintAllow *
pdb_lint_allow_new(void)
{
  PdbLintAllow *self = g_new0(PdbLintAllow, 1);

  self->ignored = g_hash_table_new(g_str_hash, g_str_equal);
  self->scoped = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  return self;
}

void
pdb_lint_allow_free(PdbLintAllow *self)
{
  if (!self)
    return;
  g_hash_table_unref(self->ignored);
  g_hash_table_unref(self->scoped);
  g_free(self);
}

gboolean
pdb_lint_allow_ignore(PdbLintAllow *self, const gchar *kinds, GError **error)
{
  gchar **words = g_strsplit_set(kinds, ", ", -1);
  gboolean ok = TRUE;

  for (guint i = 0; ok && words[i]; i++)
    {
      if (!words[i][0])
        continue;
      const gchar *kind = known_kind(words[i]);
      if (kind)
        g_hash_table_add(self->ignored, (gpointer) kind);
      else
        {
          gchar *list = g_strjoinv(", ", (gchar **) known_kinds);
          g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                      "--ignore: unknown kind '%s' (known: %s)", words[i], list);
          g_free(list);
          ok = FALSE;
        }
    }
  g_strfreev(words);
  return ok;
}

/* The scope a marker is read in, while one file is read. */
typedef struct
{
  PdbLintAllow *allow;
  const gchar *file;
  GPtrArray *findings;
  gchar *rule_id;             /* the open <rule>'s id, or NULL */
  gboolean in_ruleset;
  GPtrArray *ruleset_rules;   /* ids of the open ruleset's rules so far (gchar*) */
  GPtrArray *ruleset_kinds;   /* kinds allowed for the open ruleset (static) */
} MarkerScan;

static void
allow_scoped(PdbLintAllow *self, const gchar *file, const gchar *rule_id, const gchar *kind)
{
  g_hash_table_add(self->scoped, g_strdup_printf("%s\n%s\n%s", file, rule_id ? rule_id : "", kind));
}

static void
read_marker(MarkerScan *scan, const gchar *comment, gint line)
{
  while (g_ascii_isspace(*comment))
    comment++;
  if (!g_str_has_prefix(comment, MARKER_PREFIX))
    return;
  gchar *body = g_strdup(comment + strlen(MARKER_PREFIX));
  gchar *reason = strchr(body, ';');
  if (reason)
    *reason = '\0';
  gchar **words = g_strsplit_set(g_strstrip(body), ", \t\n", -1);
  guint w = 0;
  while (words[w] && !words[w][0])
    w++;
  if (!words[w] || strcmp(words[w], "allow") != 0)
    {
      PdbLocation at = { scan->file, line, 1 };
      pdb_lint_add(scan->findings, PDB_LINT_WARNING, "lint-marker", &at, NULL,
                   "a patterndb-lint marker must read 'patterndb-lint: allow KIND[, KIND...][; reason]'");
    }
  for (w = words[w] ? w + 1 : w; words[w]; w++)
    {
      if (!words[w][0])
        continue;
      const gchar *kind = known_kind(words[w]);
      if (!kind)
        {
          PdbLocation at = { scan->file, line, 1 };
          pdb_lint_add(scan->findings, PDB_LINT_WARNING, "lint-marker", &at, NULL,
                       "unknown kind '%s' in a patterndb-lint marker", words[w]);
        }
      else if (scan->rule_id)
        allow_scoped(scan->allow, scan->file, scan->rule_id, kind);
      else if (scan->in_ruleset)
        g_ptr_array_add(scan->ruleset_kinds, (gpointer) kind);
      else
        allow_scoped(scan->allow, scan->file, NULL, kind);
    }
  g_strfreev(words);
  g_free(body);
}

static void
close_ruleset(MarkerScan *scan)
{
  for (guint k = 0; k < scan->ruleset_kinds->len; k++)
    for (guint r = 0; r < scan->ruleset_rules->len; r++)
      allow_scoped(scan->allow, scan->file, g_ptr_array_index(scan->ruleset_rules, r),
                   g_ptr_array_index(scan->ruleset_kinds, k));
  g_ptr_array_set_size(scan->ruleset_rules, 0);
  g_ptr_array_set_size(scan->ruleset_kinds, 0);
  scan->in_ruleset = FALSE;
}

static void
scan_node(MarkerScan *scan, xmlTextReaderPtr reader)
{
  int type = xmlTextReaderNodeType(reader);
  const gchar *name = (const gchar *) xmlTextReaderConstLocalName(reader);

  if (type == XML_READER_TYPE_COMMENT)
    read_marker(scan, (const gchar *) xmlTextReaderConstValue(reader),
                (gint) xmlGetLineNo(xmlTextReaderCurrentNode(reader)));
  else if (type == XML_READER_TYPE_ELEMENT && name && strcmp(name, "ruleset") == 0
           && !xmlTextReaderIsEmptyElement(reader))
    scan->in_ruleset = TRUE;
  else if (type == XML_READER_TYPE_END_ELEMENT && name && strcmp(name, "ruleset") == 0)
    close_ruleset(scan);
  else if (type == XML_READER_TYPE_ELEMENT && name && strcmp(name, "rule") == 0
           && !xmlTextReaderIsEmptyElement(reader))
    {
      g_free(scan->rule_id);
      scan->rule_id = (gchar *) xmlTextReaderGetAttribute(reader, BAD_CAST "id");
      if (scan->rule_id)
        g_ptr_array_add(scan->ruleset_rules, g_strdup(scan->rule_id));
    }
  else if (type == XML_READER_TYPE_END_ELEMENT && name && strcmp(name, "rule") == 0)
    g_clear_pointer(&scan->rule_id, xmlFree);
}

void
pdb_lint_allow_read_markers(PdbLintAllow *self, const PdbDatabase *db, GPtrArray *findings)
{
  const GPtrArray *files = pdb_database_get_files(db);

  for (guint i = 0; files && i < files->len; i++)
    {
      const gchar *file = g_ptr_array_index(files, i);
      xmlTextReaderPtr reader = xmlReaderForFile(file, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR
                                                 | XML_PARSE_NOWARNING | XML_PARSE_HUGE);
      if (!reader)
        continue;
      MarkerScan scan = { self, file, findings, NULL, FALSE,
                          g_ptr_array_new_with_free_func(g_free), g_ptr_array_new() };
      while (xmlTextReaderRead(reader) == 1)
        scan_node(&scan, reader);
      xmlFreeTextReader(reader);
      if (scan.rule_id)
        xmlFree(scan.rule_id);
      g_ptr_array_unref(scan.ruleset_rules);
      g_ptr_array_unref(scan.ruleset_kinds);
    }
}

static gboolean
allowed(const PdbLintAllow *self, const gchar *file, const gchar *rule_id, const gchar *kind)
{
  gchar *key = g_strdup_printf("%s\n%s\n%s", file, rule_id ? rule_id : "", kind);
  gboolean found = g_hash_table_contains(self->scoped, key);

  g_free(key);
  return found;
}

static gboolean
silenced(const PdbLintAllow *self, const PdbDatabase *db, const PdbLintFinding *f)
{
  if (g_hash_table_contains(self->ignored, f->kind))
    return TRUE;
  if (f->file && allowed(self, f->file, NULL, f->kind))
    return TRUE;
  for (guint i = 0; i < f->rule_ids->len; i++)
    {
      const gchar *id = g_ptr_array_index(f->rule_ids, i);
      const PdbRule *rule = pdb_database_find_rule(db, id);

      if ((f->file && allowed(self, f->file, id, f->kind))
          || (rule && rule->location.file && allowed(self, rule->location.file, id, f->kind)))
        return TRUE;
    }
  return FALSE;
}

guint
pdb_lint_allow_filter(const PdbLintAllow *self, const PdbDatabase *db, GPtrArray *findings)
{
  guint removed = 0;

  for (guint i = findings->len; i-- > 0;)
    if (silenced(self, db, g_ptr_array_index(findings, i)))
      {
        g_ptr_array_remove_index(findings, i);
        removed++;
      }
  return removed;
}

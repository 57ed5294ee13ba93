/*
 * lint.c: the driver of `patterndb lint` and its findings.
 *
 * pdb_lint_database() runs every check over every ruleset (the catch-all
 * included) and then the database-wide ones (duplicate rule ids,
 * examples). It never changes the database. Findings own copies of every
 * string they show, so they outlive the database they describe.
 */
#include "lint/lint-private.h"

#include <stdlib.h>
#include <string.h>

PdbLintFinding *
pdb_lint_finding_new(PdbLintSeverity severity, const gchar *kind, const PdbLocation *location,
                     const gchar *message)
{
  PdbLintFinding *f = g_new0(PdbLintFinding, 1);

  f->severity = severity;
  f->kind = kind;
  if (location)
    {
      f->file = g_strdup(location->file);
      f->line = location->line;
      f->column = location->column;
    }
  f->rule_ids = g_ptr_array_new_with_free_func(g_free);
  f->message = g_strdup(message);
  return f;
}

void
pdb_lint_finding_free(PdbLintFinding *finding)
{
  if (!finding)
    return;
  g_free(finding->file);
  g_ptr_array_unref(finding->rule_ids);
  g_free(finding->message);
  g_free(finding->witness);
  g_free(finding);
}

PdbLintFinding *
pdb_lint_add(GPtrArray *findings, PdbLintSeverity severity, const gchar *kind,
             const PdbLocation *location, const PdbRule *const *rules, const gchar *format, ...)
{
  va_list args;
  gchar *message;
  PdbLintFinding *f;

  va_start(args, format);
  message = g_strdup_vprintf(format, args);
  va_end(args);
  f = pdb_lint_finding_new(severity, kind, location, message);
  g_free(message);
  for (guint i = 0; rules && rules[i]; i++)
    g_ptr_array_add(f->rule_ids, g_strdup(rules[i]->id));
  g_ptr_array_add(findings, f);
  return f;
}

/* "file:line:column: text": the file name may itself hold ':', so look for
 * the first ":<digits>:<digits>: " from the left. */
PdbLintFinding *
pdb_lint_finding_from_warning(const gchar *warning)
{
  for (const gchar *p = strchr(warning, ':'); p; p = strchr(p + 1, ':'))
    {
      gchar *end1, *end2;
      glong line = strtol(p + 1, &end1, 10);

      if (end1 == p + 1 || *end1 != ':')
        continue;
      glong column = strtol(end1 + 1, &end2, 10);
      if (end2 == end1 + 1 || end2[0] != ':' || end2[1] != ' ')
        continue;

      gchar *file = g_strndup(warning, p - warning);
      PdbLocation loc = { file, (gint) line, (gint) column };
      PdbLintFinding *f = pdb_lint_finding_new(PDB_LINT_WARNING, "loader", &loc, end2 + 2);

      g_free(file);
      return f;
    }
  return pdb_lint_finding_new(PDB_LINT_WARNING, "loader", NULL, warning);
}

static gint
compare_findings(gconstpointer pa, gconstpointer pb)
{
  const PdbLintFinding *a = *(const PdbLintFinding *const *) pa;
  const PdbLintFinding *b = *(const PdbLintFinding *const *) pb;
  gint c = g_strcmp0(a->file, b->file);

  if (c)
    return c;
  if (a->line != b->line)
    return a->line < b->line ? -1 : 1;
  if (a->column != b->column)
    return a->column < b->column ? -1 : 1;
  if ((c = strcmp(a->kind, b->kind)))
    return c;
  return strcmp(a->message, b->message);
}

void
pdb_lint_sort(GPtrArray *findings)
{
  g_ptr_array_sort(findings, compare_findings);
}

gchar *
pdb_lint_pair_key(const PdbRule *a, const PdbRule *b)
{
  if (a > b)
    {
      const PdbRule *t = a;
      a = b;
      b = t;
    }
  return g_strdup_printf("%p %p", (gconstpointer) a, (gconstpointer) b);
}

void
pdb_lint_pattern_location(const LintPattern *p, gsize offset, PdbLocation *out)
{
  const PdbLocation *start = &p->rule->pattern_places[p->index].start;

  *out = *start;
  for (gsize i = 0; i < offset && p->text[i]; i++)
    {
      if (p->text[i] == '\n')
        {
          out->line++;
          out->column = 1;
        }
      else
        out->column++;
    }
}

static void
lint_pattern_free(gpointer data)
{
  LintPattern *p = data;

  if (p->elements)
    pdb_pattern_free(p->elements);
  if (p->tokens)
    g_array_free(p->tokens, TRUE);
  g_free(p);
}

/* Source offsets: a literal's bytes are where its text is; "@@" is two
 * source bytes for one token; a parser reference runs to the next '@'. */
static void
tokenize(LintPattern *p)
{
  gsize pos = 0;

  p->tokens = g_array_new(FALSE, FALSE, sizeof(LintToken));
  for (guint i = 0; i < p->elements->len; i++)
    {
      const PdbElement *e = &g_array_index(p->elements, PdbElement, i);
      LintToken t = { NULL, 0, 0 };

      if (e->kind == PDB_ELEMENT_PARSER)
        {
          const gchar *end = p->text[pos] == '@' ? strchr(p->text + pos + 1, '@') : NULL;

          t.parser = e->parser;
          t.offset = pos;
          g_array_append_val(p->tokens, t);
          pos = end ? (gsize) (end - p->text) + 1 : pos + 1;
          continue;
        }
      pos = e->text - p->text;
      for (gsize k = 0; k < e->length; k++)
        {
          t.byte = (guchar) e->text[k];
          t.offset = pos + k;
          g_array_append_val(p->tokens, t);
        }
      pos += e->kind == PDB_ELEMENT_AT ? 2 : e->length;
    }
}

GPtrArray *
pdb_lint_ruleset_patterns(const PdbRuleset *rs)
{
  GPtrArray *patterns = g_ptr_array_new_with_free_func(lint_pattern_free);

  for (guint r = 0; rs->rules && r < rs->rules->len; r++)
    {
      const PdbRule *rule = g_ptr_array_index(rs->rules, r);

      for (guint i = 0; i < rule->n_patterns; i++)
        {
          LintPattern *p = g_new0(LintPattern, 1);

          p->rule = rule;
          p->index = i;
          p->text = rule->pattern_places[i].text;
          /* a pattern the loader refused is already a loader warning */
          p->elements = pdb_pattern_parse(p->text, NULL, NULL, NULL);
          if (!p->elements)
            {
              lint_pattern_free(p);
              continue;
            }
          tokenize(p);
          g_ptr_array_add(patterns, p);
        }
    }
  return patterns;
}

static void
check_duplicate_ids(const PdbDatabase *db, GPtrArray *findings)
{
  const GPtrArray *rules = pdb_database_get_rules(db);
  GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);

  for (guint i = 0; i < rules->len; i++)
    {
      const PdbRule *rule = g_ptr_array_index(rules, i);
      const PdbRule *first = g_hash_table_lookup(seen, rule->id);
      const PdbRule *ids[] = { rule, NULL };

      if (!first)
        {
          g_hash_table_insert(seen, rule->id, (gpointer) rule);
          continue;
        }
      pdb_lint_add(findings, PDB_LINT_ERROR, "duplicate-id", &rule->location, ids,
                   "rule id '%s' is already used by the rule at %s:%d:%d",
                   rule->id, first->location.file ? first->location.file : "<unknown>",
                   first->location.line, first->location.column);
    }
  g_hash_table_destroy(seen);
}

static void
lint_ruleset(const PdbRuleset *rs, GPtrArray *findings)
{
  GPtrArray *patterns;
  GHashTable *shadowed;

  if (!rs || !rs->rules || rs->rules->len == 0)
    return;
  patterns = pdb_lint_ruleset_patterns(rs);
  shadowed = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  pdb_lint_check_parsers(rs, patterns, findings);
  pdb_lint_check_shadowing(rs, patterns, findings, shadowed);
  pdb_lint_check_ambiguity(rs, patterns, findings, shadowed);
  g_hash_table_destroy(shadowed);
  g_ptr_array_unref(patterns);
}

void
pdb_lint_database(const PdbDatabase *db, GPtrArray *findings)
{
  pdb_lint_database_conflicts(db, FALSE, findings);
}

void
pdb_lint_database_conflicts(const PdbDatabase *db, gboolean conflicts, GPtrArray *findings)
{
  const GPtrArray *rulesets = pdb_database_get_rulesets(db);
  const PdbRuleset *catch_all = pdb_database_get_catch_all_ruleset(db);
  gboolean catch_all_listed = FALSE;

  for (guint i = 0; rulesets && i < rulesets->len; i++)
    {
      const PdbRuleset *rs = g_ptr_array_index(rulesets, i);

      catch_all_listed |= rs == catch_all;
      lint_ruleset(rs, findings);
    }
  if (!catch_all_listed)
    lint_ruleset(catch_all, findings);
  check_duplicate_ids(db, findings);
  pdb_lint_check_examples(db, conflicts, findings);
}

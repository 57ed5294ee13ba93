/*
 * match-direct.c: `match -f -T '${.classifier.rule_id}\n'` without the
 * message store (see match-direct.h).
 *
 * Invariant: a PdbMatchDirect exists only when the general path would print
 * exactly what this one prints: the template's references were all probed
 * at creation and are the two classifier names, and the database was
 * checked to never write them (captures, values) or to emit more messages
 * (actions, contexts). Per line it parses the header, classifies and
 * expands; it allocates nothing.
 */
#include "tool/match-direct.h"
#include "tool/syslog-line.h"

#include <string.h>

#define CLASS_NAME ".classifier.class"
#define RULE_ID_NAME ".classifier.rule_id"

struct _PdbMatchDirect
{
  const PdbDatabase *db;
  const PdbTemplate *tmpl;
  PdbResult result;
};

static gboolean
is_classifier_name(const gchar *name)
{
  return strcmp(name, RULE_ID_NAME) == 0 || strcmp(name, CLASS_NAME) == 0;
}

/* A probe expansion: every reference is looked up once; none may be other names. */
static const gchar *
probe_lookup(const gchar *name, guint context_index, gssize *length, gpointer user_data)
{
  gboolean *direct = user_data;

  (void) length;
  if (context_index != 0 || !is_classifier_name(name))
    *direct = FALSE;
  return NULL;
}

static gboolean
mentions_classifier(const gchar *text)
{
  return text && strstr(text, ".classifier.") != NULL;
}

static gboolean
rule_allows_direct(const PdbRule *rule)
{
  if (rule->context_id || (rule->actions && rule->actions->len > 0))
    return FALSE;
  for (guint i = 0; rule->values && i < rule->values->len; i++)
    if (mentions_classifier(((const PdbValueDef *) g_ptr_array_index(rule->values, i))->name))
      return FALSE;
  for (guint i = 0; rule->patterns && i < rule->patterns->len; i++)
    if (mentions_classifier(g_ptr_array_index(rule->patterns, i)))
      return FALSE;
  return TRUE;
}

PdbMatchDirect *
pdb_match_direct_new(const PdbDatabase *db, const PdbTemplate *tmpl)
{
  const GPtrArray *rules = pdb_database_get_rules(db);
  const GPtrArray *rulesets = pdb_database_get_rulesets(db);
  gboolean direct = TRUE;
  GString *probe;
  PdbMatchDirect *self;

  if (!tmpl || pdb_template_get_max_context_index(tmpl) > 0)
    return NULL;
  probe = g_string_new(NULL);
  pdb_template_append(tmpl, probe_lookup, &direct, probe);
  g_string_free(probe, TRUE);
  if (!direct)
    return NULL;
  for (guint i = 0; rules && i < rules->len; i++)
    if (!rule_allows_direct(g_ptr_array_index(rules, i)))
      return NULL;
  for (guint r = 0; rulesets && r < rulesets->len; r++)
    {
      const PdbRuleset *rs = g_ptr_array_index(rulesets, r);

      for (guint p = 0; rs->program_patterns && p < rs->program_patterns->len; p++)
        if (mentions_classifier(g_ptr_array_index(rs->program_patterns, p)))
          return NULL;
    }
  self = g_new0(PdbMatchDirect, 1);
  self->db = db;
  self->tmpl = tmpl;
  pdb_result_init(&self->result);
  return self;
}

void
pdb_match_direct_free(PdbMatchDirect *self)
{
  if (!self)
    return;
  pdb_result_clear(&self->result);
  g_free(self);
}

/* What pdb_result_apply() would have written for the two names. */
static const gchar *
result_lookup(const gchar *name, guint context_index, gssize *length, gpointer user_data)
{
  const PdbResult *result = user_data;
  const gchar *value = NULL;

  (void) context_index;
  if (result->kind == PDB_RESULT_NONE)
    return NULL;
  if (strcmp(name, RULE_ID_NAME) == 0)
    value = result->kind == PDB_RESULT_MATCH ? result->rule->id : NULL;
  else
    value = result->kind == PDB_RESULT_MATCH ? result->rule->class_name : "unknown";
  if (value)
    *length = -1;
  return value;
}

gboolean
pdb_match_direct_line(PdbMatchDirect *self, const gchar *line, gsize length, GString *out)
{
  static const gchar empty[] = "";
  PdbSyslogLine l;

  pdb_syslog_line_parse(line, length, &l);
  if (l.parse_error)
    return FALSE;
  pdb_database_classify(self->db, l.program.data ? l.program.data : empty, l.program.length,
                        l.message.data ? l.message.data : empty, l.message.length, &self->result);
  pdb_template_append(self->tmpl, result_lookup, &self->result, out);
  return TRUE;
}

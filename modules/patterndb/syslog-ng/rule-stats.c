/*
 * rule-stats.c: per-rule counters in syslog-ng's stats registry (see
 * rule-stats.h).
 */
#include "rule-stats.h"
#include "parser-counters.h"

#define RULE_STATS_LEVEL 1
#define TOTAL_STATS_LEVEL 0

struct _PdbSngRuleStats
{
  gchar *parser_id;
  guint n_rules;
  gchar **instances;              /* n_rules: "rule=<id>,class=<class>" */
  StatsCounterItem **rule_counters; /* n_rules; NULL below the stats level */
  StatsCounterItem *matched;
  StatsCounterItem *unknown;
  gboolean registered;            /* FALSE after pdb_sng_rule_stats_unregister() */
};

PdbSngRuleStats *
pdb_sng_rule_stats_new(const PdbDatabase *db, const gchar *parser_id)
{
  const GPtrArray *rules = pdb_database_get_rules(db);
  PdbSngRuleStats *self = g_new0(PdbSngRuleStats, 1);

  self->parser_id = g_strdup(parser_id);
  self->n_rules = rules ? rules->len : 0;
  self->instances = g_new0(gchar *, self->n_rules + 1);
  self->rule_counters = g_new0(StatsCounterItem *, self->n_rules);
  for (guint i = 0; i < self->n_rules; i++)
    {
      const PdbRule *rule = g_ptr_array_index(rules, i);

      self->instances[i] = g_strdup_printf("rule=%s,class=%s", rule->id, rule->class_name);
    }

  stats_lock();
  pdb_sng_parser_counter_register(FALSE, TOTAL_STATS_LEVEL, self->parser_id, "matched", &self->matched);
  pdb_sng_parser_counter_register(FALSE, TOTAL_STATS_LEVEL, self->parser_id, "unknown", &self->unknown);
  if (stats_check_level(RULE_STATS_LEVEL))
    for (guint i = 0; i < self->n_rules; i++)
      pdb_sng_parser_counter_register(FALSE, RULE_STATS_LEVEL, self->parser_id, self->instances[i],
                                      &self->rule_counters[i]);
  stats_unlock();
  self->registered = TRUE;
  return self;
}

void
pdb_sng_rule_stats_unregister(PdbSngRuleStats *self)
{
  if (!self || !self->registered)
    return;
  stats_lock();
  pdb_sng_parser_counter_unregister(FALSE, self->parser_id, "matched", &self->matched);
  pdb_sng_parser_counter_unregister(FALSE, self->parser_id, "unknown", &self->unknown);
  for (guint i = 0; i < self->n_rules; i++)
    pdb_sng_parser_counter_unregister(FALSE, self->parser_id, self->instances[i], &self->rule_counters[i]);
  stats_unlock();
  self->registered = FALSE;
}

void
pdb_sng_rule_stats_free(PdbSngRuleStats *self)
{
  if (!self)
    return;
  pdb_sng_rule_stats_unregister(self);
  g_strfreev(self->instances);
  g_free(self->rule_counters);
  g_free(self->parser_id);
  g_free(self);
}

void
pdb_sng_rule_stats_count(PdbSngRuleStats *self, const PdbResult *result)
{
  if (!self)
    return;
  /* the pointers turn NULL when the counters are unregistered while a
   * thread still classifies with the database: read each once */
  if (result->kind == PDB_RESULT_MATCH)
    {
      pdb_sng_parser_counter_inc(&self->matched);
      if (result->rule->index < self->n_rules)
        pdb_sng_parser_counter_inc(&self->rule_counters[result->rule->index]);
    }
  else
    pdb_sng_parser_counter_inc(&self->unknown);
}

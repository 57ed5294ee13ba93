/*
 * rule-stats.c: per-rule counters in syslog-ng's stats registry (see
 * rule-stats.h).
 */
#include "rule-stats.h"
#include "sng-compat.h"

#include "stats/stats-registry.h"

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

/* The only place that builds a stats key: parser component, the parser's
 * name, @instance. */
static void
rule_stats_key(StatsClusterKey *key, const gchar *parser_id, const gchar *instance)
{
  pdb_sng_stats_legacy_key(key, SCS_PARSER, parser_id, instance);
}

static void
register_one(gint level, const gchar *parser_id, const gchar *instance, StatsCounterItem **counter)
{
  StatsClusterKey key;

  rule_stats_key(&key, parser_id, instance);
  stats_register_counter(level, &key, SC_TYPE_PROCESSED, counter);
}

static void
unregister_one(const gchar *parser_id, const gchar *instance, StatsCounterItem **counter)
{
  StatsClusterKey key;

  if (!*counter)
    return;
  rule_stats_key(&key, parser_id, instance);
  stats_unregister_counter(&key, SC_TYPE_PROCESSED, counter);
}

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
  register_one(TOTAL_STATS_LEVEL, self->parser_id, "matched", &self->matched);
  register_one(TOTAL_STATS_LEVEL, self->parser_id, "unknown", &self->unknown);
  if (stats_check_level(RULE_STATS_LEVEL))
    for (guint i = 0; i < self->n_rules; i++)
      register_one(RULE_STATS_LEVEL, self->parser_id, self->instances[i], &self->rule_counters[i]);
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
  unregister_one(self->parser_id, "matched", &self->matched);
  unregister_one(self->parser_id, "unknown", &self->unknown);
  for (guint i = 0; i < self->n_rules; i++)
    unregister_one(self->parser_id, self->instances[i], &self->rule_counters[i]);
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
      stats_counter_inc(__atomic_load_n(&self->matched, __ATOMIC_RELAXED));
      if (result->rule->index < self->n_rules)
        stats_counter_inc(__atomic_load_n(&self->rule_counters[result->rule->index], __ATOMIC_RELAXED));
    }
  else
    stats_counter_inc(__atomic_load_n(&self->unknown, __ATOMIC_RELAXED));
}

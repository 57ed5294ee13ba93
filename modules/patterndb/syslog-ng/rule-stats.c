/*
 * rule-stats.c: per-rule counters in syslog-ng's stats registry (see
 * rule-stats.h).
 *
 * rule_slots[i] is the value of rule i (PdbRule.index), registered with
 * the database (at stats level 1 and above), or NULL when syslog-ng holds
 * a counter of its own under the rule's key; the rule's `counter` field
 * holds the same pointer (below the stats level: NULL), so that counting
 * reads the rule matching has just touched rather than a cache line of
 * rule_slots. Both are set before the database classifies anything (it is
 * not yet published to the threads) and not changed while it does; the
 * values outlive @self.
 */
#include "rule-stats.h"
#include "parser-counters.h"
#include "program-counters.h"

#define RULE_STATS_LEVEL 1
#define PROGRAM_STATS_LEVEL 1
#define TOTAL_STATS_LEVEL 0

struct _PdbSngRuleStats
{
  gchar *parser_id;
  guint n_rules;
  /* both n_rules long, or NULL below the stats level */
  const gchar **instances;        /* "rule=<id>,class=<class>", parser-counters.c's copies */
  atomic_gssize **rule_slots;     /* the rules' values (see above) */
  StatsCounterItem *matched;
  StatsCounterItem *unknown;
  StatsCounterItem *dropped;
  PdbSngProgramCounters *programs;
  gboolean registered;            /* FALSE after pdb_sng_rule_stats_unregister() */
};

/* The caller holds the stats lock. */
static void
pdb_sng_rule_stats_register_rules(PdbSngRuleStats *self, const PdbDatabase *db)
{
  const GPtrArray *rules = pdb_database_get_rules(db);

  self->n_rules = rules ? rules->len : 0;
  if (!stats_check_level(RULE_STATS_LEVEL))
    {
      for (guint i = 0; i < self->n_rules; i++)
        ((PdbRule *) g_ptr_array_index(rules, i))->counter = NULL;
      return;
    }
  self->instances = g_new0(const gchar *, self->n_rules);
  self->rule_slots = g_new0(atomic_gssize *, self->n_rules);

  GString *instance = g_string_sized_new(64);
  for (guint i = 0; i < self->n_rules; i++)
    {
      PdbRule *rule = g_ptr_array_index(rules, i);

      g_string_printf(instance, "rule=%s,class=%s", rule->id, rule->class_name);
      self->rule_slots[i] = pdb_sng_parser_external_counter_register(RULE_STATS_LEVEL, self->parser_id,
                                                                     instance->str, &self->instances[i]);
      rule->counter = self->rule_slots[i];
    }
  g_string_free(instance, TRUE);
}

PdbSngRuleStats *
pdb_sng_rule_stats_new(const PdbDatabase *db, const gchar *parser_id)
{
  PdbSngRuleStats *self = g_new0(PdbSngRuleStats, 1);

  self->parser_id = g_strdup(parser_id);
  self->programs = pdb_sng_program_counters_new(parser_id, PROGRAM_STATS_LEVEL);
  stats_lock();
  pdb_sng_parser_counter_register(FALSE, TOTAL_STATS_LEVEL, self->parser_id, "matched", &self->matched);
  pdb_sng_parser_counter_register(FALSE, TOTAL_STATS_LEVEL, self->parser_id, "unknown", &self->unknown);
  pdb_sng_parser_counter_register(FALSE, TOTAL_STATS_LEVEL, self->parser_id, "dropped", &self->dropped);
  pdb_sng_rule_stats_register_rules(self, db);
  stats_unlock();
  self->registered = TRUE;
  return self;
}

void
pdb_sng_rule_stats_unregister(PdbSngRuleStats *self)
{
  if (!self || !self->registered)
    return;
  pdb_sng_program_counters_close(self->programs);
  stats_lock();
  pdb_sng_parser_counter_unregister(FALSE, self->parser_id, "matched", &self->matched);
  pdb_sng_parser_counter_unregister(FALSE, self->parser_id, "unknown", &self->unknown);
  pdb_sng_parser_counter_unregister(FALSE, self->parser_id, "dropped", &self->dropped);
  /* the slots stay: a thread still classifying with this database counts
   * into them, and they are the values the next registration shows */
  for (guint i = 0; self->rule_slots && i < self->n_rules; i++)
    pdb_sng_parser_external_counter_unregister(self->parser_id, self->instances[i], self->rule_slots[i]);
  stats_unlock();
  self->registered = FALSE;
}

void
pdb_sng_rule_stats_free(PdbSngRuleStats *self)
{
  if (!self)
    return;
  pdb_sng_rule_stats_unregister(self);
  pdb_sng_program_counters_free(self->programs);
  g_free(self->instances);
  g_free(self->rule_slots);
  g_free(self->parser_id);
  g_free(self);
}

void
pdb_sng_rule_stats_count(PdbSngRuleStats *self, const PdbResult *result,
                         const gchar *program, gsize program_length, gboolean dropped)
{
  if (!self)
    return;
  /* the registered counters' pointers turn NULL when they are unregistered
   * while a thread still classifies with the database: read each once;
   * rule_slots and the values stay valid */
  if (result->kind == PDB_RESULT_MATCH)
    {
      pdb_sng_parser_counter_inc(&self->matched);
      atomic_gssize *slot = result->rule->counter;

      if (slot)
        pdb_sng_parser_external_counter_inc(slot);
      return;
    }
  pdb_sng_parser_counter_inc(&self->unknown);
  if (dropped)
    pdb_sng_parser_counter_inc(&self->dropped);
  pdb_sng_program_counters_inc(self->programs, program ? program : "", program ? program_length : 0);
}

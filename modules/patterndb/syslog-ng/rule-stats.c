/*
 * rule-stats.c: per-rule counters in syslog-ng's stats registry (see
 * rule-stats.h).
 */
#include "rule-stats.h"
#include "parser-counters.h"

#define RULE_STATS_LEVEL 1
#define PROGRAM_STATS_LEVEL 1
#define TOTAL_STATS_LEVEL 0
/* "unknown,program=" and a program name cut to fit */
#define PROGRAM_INSTANCE_SIZE 256

struct _PdbSngRuleStats
{
  gchar *parser_id;
  guint n_rules;
  /* both n_rules long, or NULL below the stats level */
  const gchar **instances;        /* "rule=<id>,class=<class>", parser-counters.c's copies */
  atomic_gssize **rule_slots;     /* the rules' values; NULL for a key taken by another counter */
  StatsCounterItem *matched;
  StatsCounterItem *unknown;
  StatsCounterItem *dropped;
  gboolean registered;            /* FALSE after pdb_sng_rule_stats_unregister() */
};

static void
pdb_sng_rule_stats_register_rules(PdbSngRuleStats *self, const PdbDatabase *db)
{
  const GPtrArray *rules = pdb_database_get_rules(db);

  self->n_rules = rules ? rules->len : 0;
  if (!stats_check_level(RULE_STATS_LEVEL))
    return;
  self->instances = g_new0(const gchar *, self->n_rules);
  self->rule_slots = g_new0(atomic_gssize *, self->n_rules);

  GString *instance = g_string_sized_new(64);
  for (guint i = 0; i < self->n_rules; i++)
    {
      const PdbRule *rule = g_ptr_array_index(rules, i);

      g_string_printf(instance, "rule=%s,class=%s", rule->id, rule->class_name);
      self->rule_slots[i] = pdb_sng_parser_external_counter_register(RULE_STATS_LEVEL, self->parser_id,
                                                                     instance->str, &self->instances[i]);
    }
  g_string_free(instance, TRUE);
}

PdbSngRuleStats *
pdb_sng_rule_stats_new(const PdbDatabase *db, const gchar *parser_id)
{
  PdbSngRuleStats *self = g_new0(PdbSngRuleStats, 1);

  self->parser_id = g_strdup(parser_id);
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
  g_free(self->instances);
  g_free(self->rule_slots);
  g_free(self->parser_id);
  g_free(self);
}

static void
pdb_sng_rule_stats_count_program(PdbSngRuleStats *self, const gchar *program, gsize program_length)
{
  gchar instance[PROGRAM_INSTANCE_SIZE];

  if (!stats_check_level(PROGRAM_STATS_LEVEL))
    return;
  g_snprintf(instance, sizeof(instance), "unknown,program=%.*s",
             (gint) MIN(program_length, PROGRAM_INSTANCE_SIZE), program ? program : "");
  pdb_sng_parser_dynamic_counter_inc(PROGRAM_STATS_LEVEL, self->parser_id, instance);
}

void
pdb_sng_rule_stats_count(PdbSngRuleStats *self, const PdbResult *result,
                         const gchar *program, gsize program_length, gboolean dropped)
{
  if (!self)
    return;
  /* the registered counters' pointers turn NULL when they are unregistered
   * while a thread still classifies with the database: read each once;
   * rule_slots and the slots themselves stay valid */
  if (result->kind == PDB_RESULT_MATCH)
    {
      pdb_sng_parser_counter_inc(&self->matched);
      if (self->rule_slots && result->rule->index < self->n_rules && self->rule_slots[result->rule->index])
        pdb_sng_parser_external_counter_inc(self->rule_slots[result->rule->index]);
      return;
    }
  pdb_sng_parser_counter_inc(&self->unknown);
  if (dropped)
    pdb_sng_parser_counter_inc(&self->dropped);
  pdb_sng_rule_stats_count_program(self, program, program_length);
}

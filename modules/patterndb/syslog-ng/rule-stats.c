/*
 * rule-stats.c: per-rule counters in syslog-ng's stats registry (see
 * rule-stats.h).
 *
 * rule_slots[i] is the value of rule i (PdbRule.index): NULL until the
 * rule's counter is registered (at stats level 1 on the rule's first
 * match, at level 2 and above when the database is loaded), then set
 * once, under the stats lock, and never changed. A pointer published
 * while @registered holds was registered; one published after
 * pdb_sng_rule_stats_unregister() (a thread still classifying with a
 * replaced database) only leads to the value, which the database that
 * replaced it registers when it needs it. Both sides read @registered and
 * write rule_slots under the stats lock, so unregistering sees exactly
 * the registered ones.
 */
#include "rule-stats.h"
#include "parser-counters.h"

#define RULE_STATS_LEVEL 1
#define EAGER_RULE_STATS_LEVEL 2
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
  atomic_gssize **rule_slots;     /* the rules' values (see above) */
  StatsCounterItem *matched;
  StatsCounterItem *unknown;
  StatsCounterItem *dropped;
  gboolean registered;            /* FALSE after pdb_sng_rule_stats_unregister() */
};

/* Where counts go whose key syslog-ng holds with a counter of its own. */
static atomic_gssize unshown_counts;

/* The value of @rule, registered if @self still is; the caller holds the
 * stats lock. */
static atomic_gssize *
pdb_sng_rule_stats_take_slot(PdbSngRuleStats *self, const PdbRule *rule)
{
  atomic_gssize *slot = self->rule_slots[rule->index];

  if (slot)
    return slot;

  gchar *instance = g_strdup_printf("rule=%s,class=%s", rule->id, rule->class_name);
  if (self->registered)
    slot = pdb_sng_parser_external_counter_register(RULE_STATS_LEVEL, self->parser_id, instance,
                                                    &self->instances[rule->index]);
  else
    slot = pdb_sng_parser_external_counter_slot(self->parser_id, instance, &self->instances[rule->index]);
  g_free(instance);
  if (!slot)
    slot = &unshown_counts;
  __atomic_store_n(&self->rule_slots[rule->index], slot, __ATOMIC_RELEASE);
  return slot;
}

static void
pdb_sng_rule_stats_prepare_rules(PdbSngRuleStats *self, const PdbDatabase *db)
{
  const GPtrArray *rules = pdb_database_get_rules(db);

  self->n_rules = rules ? rules->len : 0;
  if (!stats_check_level(RULE_STATS_LEVEL))
    return;
  self->instances = g_new0(const gchar *, self->n_rules);
  self->rule_slots = g_new0(atomic_gssize *, self->n_rules);
  if (stats_check_level(EAGER_RULE_STATS_LEVEL))
    for (guint i = 0; i < self->n_rules; i++)
      pdb_sng_rule_stats_take_slot(self, g_ptr_array_index(rules, i));
}

PdbSngRuleStats *
pdb_sng_rule_stats_new(const PdbDatabase *db, const gchar *parser_id)
{
  PdbSngRuleStats *self = g_new0(PdbSngRuleStats, 1);

  self->parser_id = g_strdup(parser_id);
  self->registered = TRUE;
  stats_lock();
  pdb_sng_parser_counter_register(FALSE, TOTAL_STATS_LEVEL, self->parser_id, "matched", &self->matched);
  pdb_sng_parser_counter_register(FALSE, TOTAL_STATS_LEVEL, self->parser_id, "unknown", &self->unknown);
  pdb_sng_parser_counter_register(FALSE, TOTAL_STATS_LEVEL, self->parser_id, "dropped", &self->dropped);
  pdb_sng_rule_stats_prepare_rules(self, db);
  stats_unlock();
  return self;
}

void
pdb_sng_rule_stats_unregister(PdbSngRuleStats *self)
{
  if (!self)
    return;
  stats_lock();
  if (self->registered)
    {
      pdb_sng_parser_counter_unregister(FALSE, self->parser_id, "matched", &self->matched);
      pdb_sng_parser_counter_unregister(FALSE, self->parser_id, "unknown", &self->unknown);
      pdb_sng_parser_counter_unregister(FALSE, self->parser_id, "dropped", &self->dropped);
      /* the slots stay: a thread still classifying with this database
       * counts into them, and they are the values the next registration
       * shows */
      for (guint i = 0; self->rule_slots && i < self->n_rules; i++)
        if (self->rule_slots[i] && self->rule_slots[i] != &unshown_counts)
          pdb_sng_parser_external_counter_unregister(self->parser_id, self->instances[i], self->rule_slots[i]);
      self->registered = FALSE;
    }
  stats_unlock();
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
pdb_sng_rule_stats_count_rule(PdbSngRuleStats *self, const PdbRule *rule)
{
  if (!self->rule_slots || rule->index >= self->n_rules)
    return;

  atomic_gssize *slot = __atomic_load_n(&self->rule_slots[rule->index], __ATOMIC_ACQUIRE);
  if (G_UNLIKELY(!slot))
    {
      stats_lock();
      slot = pdb_sng_rule_stats_take_slot(self, rule);
      stats_unlock();
    }
  pdb_sng_parser_external_counter_inc(slot);
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
      pdb_sng_rule_stats_count_rule(self, result->rule);
      return;
    }
  pdb_sng_parser_counter_inc(&self->unknown);
  if (dropped)
    pdb_sng_parser_counter_inc(&self->dropped);
  pdb_sng_rule_stats_count_program(self, program, program_length);
}

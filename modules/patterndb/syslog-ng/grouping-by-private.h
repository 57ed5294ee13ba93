/*
 * grouping-by-private.h: the grouping-by() LogParser's instance, shared by
 * grouping-by-options.c (the setters the grammar calls, filling the
 * options) and grouping-by.c (init, processing, aggregates, clone, free,
 * which read them). The options are set only while parsing; the state
 * only exists between init() and deinit().
 */
#ifndef PDB_SNG_GROUPING_BY_PRIVATE_H
#define PDB_SNG_GROUPING_BY_PRIVATE_H

#include "grouping-by.h"
#include "idle-tick.h"
#include "inject-mode.h"
#include "sng-compat.h"

#include "correlation/grouping.h"
#include "db/rule.h"

typedef struct _PdbGbValue
{
  gchar *name;
  LogTemplate *value;
} PdbGbValue;

typedef struct _PdbGroupingBy
{
  LogParser super;

  /* options */
  LogTemplate *key;
  LogTemplate *sort_key;
  PdbContextScope scope;
  FilterExprNode *where;
  FilterExprNode *having;
  FilterExprNode *trigger;
  gint timeout;                 /* < 1: not set (an error at init) */
  gboolean has_aggregate;
  GPtrArray *values;            /* PdbGbValue* */
  GArray *tags;                 /* LogTagId, registered while parsing (as 3.38 does,
                                 * which orders them before the source tags) */
  PdbInheritMode inherit_mode;
  PdbSngInjectMode inject_mode;
  gchar *prefix;
  guint context_limit;          /* 0: the default */
  guint copy;                   /* 0: the parser as written; N: its Nth clone (one
                                 * per further log path that references it) */
  guint copies_made;
  gchar *persist_name;          /* persist-name(), or NULL */

  /* state */
  NVHandle context_id_handle;   /* 0: .classifier.context_id is not set */
  gchar *generated_name;        /* what syslog-ng's core sees (see pdb_gb_build_generated_name) */
  gchar *persist_key;           /* unique in the configuration (persist-keys.h) */
  PdbGrouping *state;           /* NULL outside init()..deinit() */
  PdbGroupingHooks hooks;
  PdbSngTick tick;
  StatsCounterItem *counters[4]; /* GbCounter; NULL outside init()..deinit() */
  gchar *stats_id;              /* the counters' id, set at init */
} PdbGroupingBy;

typedef enum { GB_GROUPED, GB_SKIPPED, GB_AGGREGATED, GB_DISCARDED, GB_N_COUNTERS } GbCounter;

/* frees an aggregate() value (the GDestroyNotify of PdbGroupingBy.values) */
void pdb_gb_value_free(PdbGbValue *v);
/* unrefs *@slot (when set) and puts @expr (owned, or NULL) there */
void pdb_gb_replace_filter(FilterExprNode **slot, FilterExprNode *expr);

#endif

/*
 * match-stats.c: the counts of `patterndb match --stats` (see
 * match-stats.h). Rules are listed by hits (most first, then in database
 * order), programs by unknown lines (most first, then by name), never
 * matched rules in database order.
 */
#include "tool/match-stats.h"
#include "tool/json.h"

#include <string.h>

struct _PdbMatchStats
{
  const GPtrArray *rules;         /* of PdbRule*, the database's, in its order */
  guint64 *rule_hits;             /* rules->len, atomic */
  guint64 lines;                  /* atomic */
  guint64 matched;                /* atomic */
  GMutex lock;                    /* guards unknown_by_program */
  GHashTable *unknown_by_program; /* program -> guint64* */
};

PdbMatchStats *
pdb_match_stats_new(const PdbDatabase *db)
{
  PdbMatchStats *self = g_new0(PdbMatchStats, 1);

  self->rules = pdb_database_get_rules(db);
  self->rule_hits = g_new0(guint64, self->rules ? self->rules->len : 0);
  g_mutex_init(&self->lock);
  self->unknown_by_program = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  return self;
}

void
pdb_match_stats_free(PdbMatchStats *self)
{
  if (!self)
    return;
  g_hash_table_destroy(self->unknown_by_program);
  g_mutex_clear(&self->lock);
  g_free(self->rule_hits);
  g_free(self);
}

void
pdb_match_stats_add(PdbMatchStats *self, const PdbRule *rule, const gchar *program, gsize program_length)
{
  __atomic_fetch_add(&self->lines, 1, __ATOMIC_RELAXED);
  if (rule)
    {
      __atomic_fetch_add(&self->matched, 1, __ATOMIC_RELAXED);
      if (self->rules && rule->index < self->rules->len)
        __atomic_fetch_add(&self->rule_hits[rule->index], 1, __ATOMIC_RELAXED);
      return;
    }
  gchar *name = g_strndup(program ? program : "", program_length);

  g_mutex_lock(&self->lock);
  guint64 *count = g_hash_table_lookup(self->unknown_by_program, name);
  if (!count)
    {
      count = g_new0(guint64, 1);
      g_hash_table_insert(self->unknown_by_program, name, count);
    }
  else
    g_free(name);
  (*count)++;
  g_mutex_unlock(&self->lock);
}

/* ---- ordering ---- */

static gint
compare_rules_by_hits(gconstpointer a, gconstpointer b, gpointer user_data)
{
  const guint64 *hits = user_data;
  guint x = *(const guint *) a, y = *(const guint *) b;

  if (hits[x] != hits[y])
    return hits[x] > hits[y] ? -1 : 1;
  return x < y ? -1 : x > y;
}

/* The indexes of the rules that matched, most hits first. */
static GArray *
rules_by_hits(PdbMatchStats *self)
{
  GArray *order = g_array_new(FALSE, FALSE, sizeof(guint));

  for (guint i = 0; self->rules && i < self->rules->len; i++)
    if (self->rule_hits[i])
      g_array_append_val(order, i);
  g_array_sort_with_data(order, compare_rules_by_hits, self->rule_hits);
  return order;
}

typedef struct
{
  const gchar *program;
  guint64 count;
} ProgramCount;

static int
compare_programs(const void *a, const void *b)
{
  const ProgramCount *x = a, *y = b;

  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  return strcmp(x->program, y->program);
}

static GArray *
programs_by_unknown(PdbMatchStats *self)
{
  GArray *order = g_array_new(FALSE, FALSE, sizeof(ProgramCount));
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init(&iter, self->unknown_by_program);
  while (g_hash_table_iter_next(&iter, &key, &value))
    {
      ProgramCount pc = { key, *(guint64 *) value };

      g_array_append_val(order, pc);
    }
  g_array_sort(order, compare_programs);
  return order;
}

static gdouble
percent(guint64 part, guint64 whole)
{
  return whole ? 100.0 * (gdouble) part / (gdouble) whole : 0.0;
}

static const PdbRule *
rule_at(PdbMatchStats *self, guint i)
{
  return g_ptr_array_index(self->rules, i);
}

/* ---- output ---- */

void
pdb_match_stats_write_text(PdbMatchStats *self, GString *out)
{
  guint64 unknown = self->lines - self->matched;
  GArray *hits = rules_by_hits(self);
  GArray *programs = programs_by_unknown(self);
  guint n_rules = self->rules ? self->rules->len : 0;

  g_string_append_printf(out, "lines: %" G_GUINT64_FORMAT ", matched: %" G_GUINT64_FORMAT " (%.1f%%), "
                         "unknown: %" G_GUINT64_FORMAT " (%.1f%%)\n",
                         self->lines, self->matched, percent(self->matched, self->lines),
                         unknown, percent(unknown, self->lines));
  g_string_append_printf(out, "\nrules by hits (%u of %u rules matched):\n", hits->len, n_rules);
  if (hits->len)
    g_string_append(out, "        hits   share  class / rule id\n");
  for (guint k = 0; k < hits->len; k++)
    {
      guint i = g_array_index(hits, guint, k);

      g_string_append_printf(out, "%12" G_GUINT64_FORMAT " %6.1f%%  %s / %s\n", self->rule_hits[i],
                             percent(self->rule_hits[i], self->lines), rule_at(self, i)->class_name,
                             rule_at(self, i)->id);
    }
  g_string_append(out, "\nunknown by program:\n");
  for (guint k = 0; k < programs->len; k++)
    {
      const ProgramCount *pc = &g_array_index(programs, ProgramCount, k);

      g_string_append_printf(out, "%12" G_GUINT64_FORMAT " %6.1f%%  %s\n", pc->count,
                             percent(pc->count, self->lines), pc->program[0] ? pc->program : "(no program)");
    }
  g_string_append_printf(out, "\nrules that never matched (%u):\n", n_rules - hits->len);
  for (guint i = 0; i < n_rules; i++)
    if (!self->rule_hits[i])
      g_string_append_printf(out, "  %s / %s\n", rule_at(self, i)->class_name, rule_at(self, i)->id);
  g_array_free(hits, TRUE);
  g_array_free(programs, TRUE);
}

static void
append_member(GString *out, const gchar *name, const gchar *value)
{
  pdb_json_append_string(out, name, -1);
  g_string_append_c(out, ':');
  pdb_json_append_string(out, value, -1);
}

void
pdb_match_stats_write_json(PdbMatchStats *self, GString *out)
{
  GArray *hits = rules_by_hits(self);
  GArray *programs = programs_by_unknown(self);
  guint n_rules = self->rules ? self->rules->len : 0;
  gboolean first = TRUE;

  g_string_append_printf(out, "{\"lines\":%" G_GUINT64_FORMAT ",\"matched\":%" G_GUINT64_FORMAT
                         ",\"unknown\":%" G_GUINT64_FORMAT ",\"rules\":[",
                         self->lines, self->matched, self->lines - self->matched);
  for (guint k = 0; k < hits->len; k++)
    {
      guint i = g_array_index(hits, guint, k);

      g_string_append(out, k ? ",{" : "{");
      append_member(out, "id", rule_at(self, i)->id);
      g_string_append_c(out, ',');
      append_member(out, "class", rule_at(self, i)->class_name);
      g_string_append_printf(out, ",\"hits\":%" G_GUINT64_FORMAT ",\"share\":%.4f}", self->rule_hits[i],
                             self->lines ? (gdouble) self->rule_hits[i] / (gdouble) self->lines : 0.0);
    }
  g_string_append(out, "],\"unknown_by_program\":[");
  for (guint k = 0; k < programs->len; k++)
    {
      const ProgramCount *pc = &g_array_index(programs, ProgramCount, k);

      g_string_append(out, k ? ",{" : "{");
      append_member(out, "program", pc->program);
      g_string_append_printf(out, ",\"lines\":%" G_GUINT64_FORMAT "}", pc->count);
    }
  g_string_append(out, "],\"never_matched\":[");
  for (guint i = 0; i < n_rules; i++)
    if (!self->rule_hits[i])
      {
        g_string_append(out, first ? "{" : ",{");
        first = FALSE;
        append_member(out, "id", rule_at(self, i)->id);
        g_string_append_c(out, ',');
        append_member(out, "class", rule_at(self, i)->class_name);
        g_string_append_c(out, '}');
      }
  g_string_append(out, "]}\n");
  g_array_free(hits, TRUE);
  g_array_free(programs, TRUE);
}

/*
 * db-canon.h: a canonical text form of a load's outcome (every object the
 * loader fills in, with every location, in order; or the error), the
 * warnings included. Used to compare the loader's two XML front ends
 * (tests/unit/test-db-xml-scan.c and tests/fuzz/fuzz-load.c): equal text
 * means the database (or error) is the same.
 */
#ifndef PDB_TEST_DB_CANON_H
#define PDB_TEST_DB_CANON_H

#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "db/database-private.h"

static void
canon_loc(GString *out, const gchar *what, const PdbLocation *location)
{
  g_string_append_printf(out, " %s=%s:%d:%d", what, location->file ? location->file : "-",
                         location->line, location->column);
}

static void
canon_str(GString *out, const gchar *what, const gchar *value)
{
  if (value)
    g_string_append_printf(out, " %s='%s'", what, value);
  else
    g_string_append_printf(out, " %s=NULL", what);
}

static void
canon_strings(GString *out, const gchar *what, const GPtrArray *values)
{
  g_string_append_printf(out, " %s[", what);
  for (guint i = 0; values && i < values->len; i++)
    canon_str(out, "", g_ptr_array_index(values, i));
  g_string_append(out, " ]");
}

static void
canon_values(GString *out, const GPtrArray *values)
{
  for (guint i = 0; values && i < values->len; i++)
    {
      const PdbValueDef *v = g_ptr_array_index(values, i);
      g_string_append(out, "\n    value");
      canon_str(out, "name", v->name);
      canon_str(out, "template", v->template_text);
      canon_str(out, "type", v->type);
      g_string_append_printf(out, " value_type=%d", (gint) v->value_type);
      canon_loc(out, "at", &v->location);
    }
}

static void
canon_rule(GString *out, const PdbRule *rule)
{
  g_string_append(out, "\n  rule");
  canon_str(out, "id", rule->id);
  canon_str(out, "class", rule->class_name);
  canon_str(out, "class_tag", rule->class_tag);
  canon_str(out, "provider", rule->provider);
  canon_str(out, "context_id", rule->context_id);
  g_string_append_printf(out, " timeout=%d scope=%d", rule->context_timeout, (gint) rule->context_scope);
  canon_loc(out, "at", &rule->location);
  canon_str(out, "description", rule->description);
  canon_strings(out, "urls", rule->urls);
  canon_strings(out, "tags", rule->tags);
  for (guint i = 0; i < rule->n_patterns; i++)
    {
      g_string_append(out, "\n    pattern");
      canon_str(out, "", rule->pattern_places[i].text);
      canon_loc(out, "at", &rule->pattern_places[i].at);
      canon_loc(out, "start", &rule->pattern_places[i].start);
    }
  canon_values(out, rule->values);
  for (guint i = 0; rule->examples && i < rule->examples->len; i++)
    {
      const PdbExample *e = g_ptr_array_index(rule->examples, i);
      g_string_append(out, "\n    example");
      canon_str(out, "program", e->program);
      canon_str(out, "message", e->message);
      canon_loc(out, "at", &e->location);
      for (guint k = 0; e->test_values && k < e->test_values->len; k++)
        {
          const PdbTestValue *tv = g_ptr_array_index(e->test_values, k);
          g_string_append(out, "\n      test_value");
          canon_str(out, "name", tv->name);
          canon_str(out, "value", tv->value);
          canon_str(out, "type", tv->type);
        }
    }
  for (guint i = 0; rule->actions && i < rule->actions->len; i++)
    {
      const PdbAction *a = g_ptr_array_index(rule->actions, i);
      g_string_append_printf(out, "\n    action trigger=%d rate=%u/%u has_message=%d inherit=%d creates=%d"
                             " ctx_timeout=%d ctx_scope=%d",
                             (gint) a->trigger, a->rate_count, a->rate_period, a->has_message,
                             (gint) a->message.inherit_mode, a->creates_context,
                             a->create_context_timeout, (gint) a->create_context_scope);
      canon_str(out, "condition", a->condition);
      canon_str(out, "ctx_id", a->create_context_id);
      canon_loc(out, "at", &a->location);
      canon_strings(out, "tags", a->message.tags);
      canon_values(out, a->message.values);
    }
}

static void
canon_warning(const gchar *message, gpointer user_data)
{
  g_string_append_printf((GString *) user_data, "warning: %s\n", message);
}

/*
 * Loads @path with the front end @front ("libxml2", or NULL for the
 * default) and returns the canonical text of the outcome (g_free() it).
 */
static gchar *
canon_load(const gchar *path, const gchar *front)
{
  GString *out = g_string_new(NULL);
  PdbLoadOptions options = { 0 };
  GError *error = NULL;

  options.warning = canon_warning;
  options.warning_data = out;
  if (front && strcmp(front, "libxml2") == 0)
    options.xml_front_end = PDB_XML_FRONT_END_LIBXML2;
  else if (front && strcmp(front, "scanner") == 0)
    options.xml_front_end = PDB_XML_FRONT_END_SCANNER;
  PdbDatabase *db = pdb_database_load(path, &options, &error);
  if (!db)
    {
      g_string_append_printf(out, "error %d %s\n", error ? error->code : -1,
                             error ? error->message : "(no error set)");
      g_clear_error(&error);
      return g_string_free(out, FALSE);
    }

  g_string_append_printf(out, "version='%s' pub_date='%s'", db->version ? db->version : "",
                         db->pub_date ? db->pub_date : "");
  for (guint i = 0; i < db->programs_order->len; i++)
    {
      const PdbProgramEntry *p = g_ptr_array_index(db->programs_order, i);
      g_string_append(out, "\nprogram");
      canon_str(out, "", p->pattern);
      canon_str(out, "ruleset", p->ruleset ? p->ruleset->id : NULL);
      canon_loc(out, "at", &p->location);
      canon_loc(out, "start", &p->start);
    }
  for (guint i = 0; i < db->rulesets->len; i++)
    {
      const PdbRuleset *rs = g_ptr_array_index(db->rulesets, i);
      g_string_append(out, "\nruleset");
      canon_str(out, "name", rs->name);
      canon_str(out, "id", rs->id);
      canon_loc(out, "at", &rs->location);
      canon_str(out, "description", rs->description);
      canon_strings(out, "urls", rs->urls);
      canon_strings(out, "programs", rs->program_patterns);
      for (guint k = 0; rs->rules && k < rs->rules->len; k++)
        canon_str(out, "rule", ((const PdbRule *) g_ptr_array_index(rs->rules, k))->id);
    }
  for (guint i = 0; i < db->rules->len; i++)
    canon_rule(out, g_ptr_array_index(db->rules, i));
  g_string_append_c(out, '\n');
  pdb_database_unref(db);
  return g_string_free(out, FALSE);
}

#endif

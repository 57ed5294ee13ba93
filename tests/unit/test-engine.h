/*
 * test-engine.h: helpers shared by the engine's unit tests.
 *
 * A tree is built from a NULL-terminated list of patterns; pattern i gets
 * the value i+1 and is named "r<i+1>" in results. A lookup result is
 * rendered as one readable string, so that a table row can state what it
 * expects and a failure shows both sides:
 *
 *   "r2 complete s=root"      the 2nd pattern matched the whole input
 *   "r1 prefix:4 n=12"        the 1st pattern matched the first 4 bytes
 *   "none"                    no match
 *
 * Captures are listed in path order as name=value (NUMBER values are
 * shown as name=#value, FLOAT as name=~value).
 */
#ifndef TEST_ENGINE_H
#define TEST_ENGINE_H

#include <criterion/criterion.h>
#include <string.h>
#include "engine/radix.h"

/* Builds and freezes a tree; every insert must succeed. */
static inline PdbRadix *
te_build(const gchar *const *patterns)
{
  PdbRadix *radix = pdb_radix_new();

  for (gint i = 0; patterns[i]; i++)
    {
      GError *error = NULL;
      PdbLocation loc = { "test.xml", i + 1, 1 };
      gboolean ok = pdb_radix_insert(radix, patterns[i], GINT_TO_POINTER(i + 1), &loc, &error);
      cr_assert(ok, "inserting pattern %d '%s' failed: %s", i + 1, patterns[i],
                error ? error->message : "?");
    }
  pdb_radix_freeze(radix);
  return radix;
}

static inline gchar *
te_render(const gchar *input, const PdbMatch *m, gboolean found)
{
  GString *s = g_string_new("");

  if (!found)
    {
      g_string_free(s, TRUE);
      return g_strdup("none");
    }
  g_string_append_printf(s, "r%d", GPOINTER_TO_INT(m->value));
  if (m->complete)
    g_string_append(s, " complete");
  else
    g_string_append_printf(s, " prefix:%u", m->matched_length);
  for (guint i = 0; i < m->n_captures; i++)
    {
      const PdbCapture *c = &m->captures[i];
      const gchar *mark = c->type == PDB_VALUE_INT64 ? "#" : c->type == PDB_VALUE_DOUBLE ? "~" : "";
      g_string_append_printf(s, " %s=%s%.*s", c->name, mark, (int) c->length, input + c->offset);
    }
  return g_string_free(s, FALSE);
}

/* Looks @input (NUL-terminated here) up and renders the result. */
static inline gchar *
te_lookup_len(const PdbRadix *radix, const gchar *input, gsize length)
{
  PdbMatch m;
  gboolean found;
  gchar *r;

  pdb_match_init(&m);
  found = pdb_radix_lookup(radix, input, length, &m);
  r = te_render(input, &m, found);
  pdb_match_clear(&m);
  return r;
}

static inline gchar *
te_lookup(const PdbRadix *radix, const gchar *input)
{
  return te_lookup_len(radix, input, strlen(input));
}

#endif

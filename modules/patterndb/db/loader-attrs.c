/*
 * loader-attrs.c: attribute values of the loader's elements, and the small
 * parsers for them (context scope and timeout, templates, value names).
 *
 * Without entity substitution both front ends hand every '&' of an
 * attribute value (from &amp; or &#38;) over as the text "&#38;"; every
 * function here that returns a value turns it back.
 */
#include "db/loader-private.h"

#include <stdlib.h>
#include <string.h>

/*
 * Returns a newly allocated copy of the attribute's value, or NULL.
 * Without entity substitution libxml2 hands every '&' of an attribute value
 * (from &amp; or &#38;) over as the text "&#38;"; this turns it back.
 */
gchar *
attr_dup(const Attributes *attrs, const gchar *name)
{
  for (gint i = 0; i < attrs->count; i++)
    {
      const xmlChar **a = attrs->raw + i * 5;
      if (strcmp((const gchar *) a[0], name) != 0)
        continue;

      const gchar *p = (const gchar *) a[3];
      const gchar *end = (const gchar *) a[4];
      if (!memchr(p, '&', end - p))
        return g_strndup(p, end - p);

      GString *value = g_string_sized_new(end - p);
      while (p < end)
        {
          if (end - p >= 5 && memcmp(p, "&#38;", 5) == 0)
            {
              g_string_append_c(value, '&');
              p += 5;
            }
          else
            g_string_append_c(value, *p++);
        }
      return g_string_free(value, FALSE);
    }
  return NULL;
}

/*
 * The value of one attribute tuple (from attrs->raw, or NULL) in the
 * database's string pool, interned when @intern (providers), or NULL.
 * Decodes "&#38;" as attr_dup() does.
 */
gchar *
attr_pool(PdbLoader *self, const xmlChar **a, gboolean intern)
{
  if (!a)
    return NULL;

  const gchar *p = (const gchar *) a[3];
  const gchar *end = (const gchar *) a[4];
  if (!intern && !memchr(p, '&', end - p))
    return (gchar *) pdb_database_store(self->db, p, end - p);

  Attributes one = { 1, a };
  gchar *value = attr_dup(&one, (const gchar *) a[0]);
  const gchar *pooled = intern ? pdb_database_intern(self->db, value)
                               : pdb_database_store(self->db, value, -1);
  g_free(value);
  return (gchar *) pooled;
}

/* The value of one attribute tuple as a new string, or NULL. */
gchar *
attr_dup_one(const xmlChar **a)
{
  Attributes one = { 1, a };

  return a ? attr_dup(&one, (const gchar *) a[0]) : NULL;
}

/* ---- small parsers for attribute values -------------------------------- */

gboolean
parse_scope(PdbLoader *self, const gchar *value, PdbContextScope *scope)
{
  if (pdb_context_scope_from_string(value, FALSE, scope))
    return TRUE;
  loader_fail(self, PDB_DB_ERROR_STRUCTURE,
              "unknown context-scope '%s', expected one of process, program, host, global", value);
  return FALSE;
}

gint
parse_timeout(PdbLoader *self, const gchar *value)
{
  gchar *end = NULL;
  glong timeout = strtol(value, &end, 0);

  if (end == value || *end != '\0')
    {
      loader_warn(self, &self->start_location, "context-timeout '%s' is not a whole number, using %ld", value, timeout);
    }
  return (gint) CLAMP(timeout, G_MININT, G_MAXINT);
}

/* The db layer's compilation of @text; with a backend that takes the text,
 * also the backend's, in *host (db/expr-backend.h). */
PdbTemplate *
compile_template(PdbLoader *self, const gchar *what, const gchar *text, gboolean with_type_hint,
                 PdbHostExpr **host)
{
  GError *error = NULL;
  PdbTemplate *tmpl = NULL;

  if (!pdb_expr_compile_template(self->options ? self->options->backend : NULL, text, with_type_hint,
                                 &tmpl, host, &error))
    {
      loader_fail(self, PDB_DB_ERROR_TEMPLATE, "rule '%s': %s: template '%s' does not compile: %s",
                  self->rule ? self->rule->id : "", what, text, error->message);
      g_error_free(error);
    }
  return tmpl;
}

gchar *
prefixed_name(PdbLoader *self, const gchar *name)
{
  const gchar *prefix = self->db->capture_prefix;

  return g_strconcat(prefix ? prefix : "", name, NULL);
}

gint
attr_index(const Attributes *attrs, const gchar *name)
{
  for (gint i = 0; i < attrs->count; i++)
    if (strcmp((const gchar *) attrs->raw[i * 5], name) == 0)
      return i;
  return -1;
}

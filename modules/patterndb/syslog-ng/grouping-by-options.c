/*
 * grouping-by-options.c: the setters the grammar calls for grouping-by()'s
 * options (grouping-by.h). Each replaces what an earlier one set (a
 * template or filter given twice: the last one counts); names of modes take
 * `-` and `_` alike. Nothing here checks the options against each other:
 * init() does (grouping-by.c).
 */
#include "grouping-by-private.h"

#include "logmsg/tags.h"

void
pdb_grouping_by_set_key(LogParser *s, LogTemplate *key)
{
  PdbGroupingBy *self = (PdbGroupingBy *) s;

  log_template_unref(self->key);
  self->key = key;
}

void
pdb_grouping_by_set_sort_key(LogParser *s, LogTemplate *sort_key)
{
  PdbGroupingBy *self = (PdbGroupingBy *) s;

  log_template_unref(self->sort_key);
  self->sort_key = sort_key;
}

/* @text with `_` read as `-`, compared with @word. */
static gboolean
pdb_gb_word_is(const gchar *text, const gchar *word)
{
  gsize i;

  for (i = 0; text[i] && word[i]; i++)
    if ((text[i] == '_' ? '-' : text[i]) != word[i])
      return FALSE;
  return text[i] == word[i];
}

gboolean
pdb_grouping_by_set_scope(LogParser *s, const gchar *scope)
{
  return pdb_context_scope_from_string(scope, TRUE, &((PdbGroupingBy *) s)->scope);
}

void
pdb_gb_replace_filter(FilterExprNode **slot, FilterExprNode *expr)
{
  if (*slot)
    filter_expr_unref(*slot);
  *slot = expr;
}

void
pdb_grouping_by_set_where(LogParser *s, FilterExprNode *expr)
{
  pdb_gb_replace_filter(&((PdbGroupingBy *) s)->where, expr);
}

void
pdb_grouping_by_set_having(LogParser *s, FilterExprNode *expr)
{
  pdb_gb_replace_filter(&((PdbGroupingBy *) s)->having, expr);
}

void
pdb_grouping_by_set_trigger(LogParser *s, FilterExprNode *expr)
{
  pdb_gb_replace_filter(&((PdbGroupingBy *) s)->trigger, expr);
}

void
pdb_grouping_by_set_timeout(LogParser *s, gint timeout)
{
  ((PdbGroupingBy *) s)->timeout = timeout;
}

gboolean
pdb_grouping_by_set_inject_mode(LogParser *s, const gchar *mode)
{
  return pdb_sng_inject_mode_parse(mode, &((PdbGroupingBy *) s)->inject_mode);
}

void
pdb_grouping_by_set_prefix(LogParser *s, const gchar *prefix)
{
  PdbGroupingBy *self = (PdbGroupingBy *) s;

  g_free(self->prefix);
  self->prefix = (prefix && *prefix) ? g_strdup(prefix) : NULL;
}

void
pdb_grouping_by_set_persist_name(LogParser *s, const gchar *name)
{
  PdbGroupingBy *self = (PdbGroupingBy *) s;

  g_free(self->persist_name);
  self->persist_name = g_strdup(name);
}

void
pdb_grouping_by_set_context_limit(LogParser *s, guint limit)
{
  ((PdbGroupingBy *) s)->context_limit = limit;
}

void
pdb_grouping_by_begin_aggregate(LogParser *s)
{
  ((PdbGroupingBy *) s)->has_aggregate = TRUE;
}

void
pdb_gb_value_free(PdbGbValue *v)
{
  g_free(v->name);
  log_template_unref(v->value);
  g_free(v);
}

void
pdb_grouping_by_add_value(LogParser *s, const gchar *name, LogTemplate *value)
{
  PdbGroupingBy *self = (PdbGroupingBy *) s;
  PdbGbValue *v = g_new0(PdbGbValue, 1);

  v->name = g_strdup(name);
  v->value = value;
  g_ptr_array_add(self->values, v);
}

void
pdb_grouping_by_add_tag(LogParser *s, const gchar *tag)
{
  LogTagId id = log_tags_get_by_name(tag);

  g_array_append_val(((PdbGroupingBy *) s)->tags, id);
}

gboolean
pdb_grouping_by_set_inherit_mode(LogParser *s, const gchar *mode)
{
  PdbGroupingBy *self = (PdbGroupingBy *) s;

  if (pdb_gb_word_is(mode, "none"))
    self->inherit_mode = PDB_INHERIT_NONE;
  else if (pdb_gb_word_is(mode, "last-message"))
    self->inherit_mode = PDB_INHERIT_LAST_MESSAGE;
  else if (pdb_gb_word_is(mode, "context"))
    self->inherit_mode = PDB_INHERIT_CONTEXT;
  else
    return FALSE;
  return TRUE;
}

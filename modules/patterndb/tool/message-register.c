/*
 * message-register.c: gives a message store the names and tags of a
 * database before the first message, in the order the database mentions
 * them (capture names of program and message patterns, <value> names and
 * the names their templates read, tags), which is the order `match` prints
 * them in, as pdbtool does. Uses only message.h.
 */
#include "tool/message.h"
#include "db/filter-expr.h"

#include <string.h>

/* The capture names of a pattern, in order: @TYPE:name[:param]@, "@@" is a literal. */
static void
register_pattern_captures(PdbToolMessage *msg, const gchar *pattern)
{
  const gchar *p = pattern;

  while ((p = strchr(p, '@')))
    {
      const gchar *end;

      if (p[1] == '@')
        {
          p += 2;
          continue;
        }
      end = strchr(p + 1, '@');
      if (!end)
        return;
      const gchar *colon = memchr(p + 1, ':', end - p - 1);
      if (colon)
        {
          const gchar *name = colon + 1;
          const gchar *name_end = memchr(name, ':', end - name);

          if (!name_end)
            name_end = end;
          if (name_end > name)
            pdb_tool_message_register_name(msg, name, name_end - name);
        }
      p = end + 1;
    }
}

/* The names a template refers to ($name, ${name}), as compiling it does. */
static void
register_template_names(PdbToolMessage *msg, const gchar *text)
{
  const gchar *p = text;

  while (p && (p = strchr(p, '$')))
    {
      p++;
      if (*p == '{')
        {
          const gchar *end = strchr(p + 1, '}');
          const gchar *stop;

          if (!end)
            return;
          stop = g_strstr_len(p + 1, end - p - 1, ":-");
          pdb_tool_message_register_name(msg, p + 1, (stop ? stop : end) - p - 1);
          p = end + 1;
        }
      else
        {
          const gchar *start = p;

          while (g_ascii_isalnum(*p) || *p == '_')
            p++;
          if (p > start)
            pdb_tool_message_register_name(msg, start, p - start);
        }
    }
}

/* Tags of an action's message (its names go with the rule's, see below). */
static void
register_synthetic(PdbToolMessage *msg, const PdbSyntheticMessage *sm)
{
  for (guint i = 0; sm->tags && i < sm->tags->len; i++)
    pdb_tool_message_register_tag(msg, g_ptr_array_index(sm->tags, i));
}

/* What an action condition names, in the order 3.38 compiles it. */
static void
register_condition_name(PdbFilterRefKind kind, const gchar *text, gpointer user_data)
{
  if (kind == PDB_FILTER_REF_NAME)
    pdb_tool_message_register_name(user_data, text, -1);
  else if (kind == PDB_FILTER_REF_TEMPLATE)
    register_template_names(user_data, text);
}

static void
register_condition_tag(PdbFilterRefKind kind, const gchar *text, gpointer user_data)
{
  if (kind == PDB_FILTER_REF_TAG)
    pdb_tool_message_register_tag(user_data, text);
}

static void
register_filter_ref(PdbFilterRefKind kind, const gchar *text, gpointer user_data)
{
  register_condition_name(kind, text, user_data);
  register_condition_tag(kind, text, user_data);
}

void
pdb_tool_message_register_filter(PdbToolMessage *msg, const PdbFilterExpr *filter)
{
  pdb_filter_expr_foreach_ref(filter, register_filter_ref, msg);
}

void
pdb_tool_message_register_database(PdbToolMessage *msg, const PdbDatabase *db)
{
  const GPtrArray *rules = pdb_database_get_rules(db);
  const GPtrArray *rulesets = pdb_database_get_rulesets(db);

  /* Tags: the class tag when <rule> opens, then <tag>s as they are read. */
  for (guint i = 0; rules && i < rules->len; i++)
    {
      const PdbRule *rule = g_ptr_array_index(rules, i);

      if (rule->class_tag)
        pdb_tool_message_register_tag(msg, rule->class_tag);
      for (guint t = 0; rule->tags && t < rule->tags->len; t++)
        pdb_tool_message_register_tag(msg, g_ptr_array_index(rule->tags, t));
      for (guint a = 0; rule->actions && a < rule->actions->len; a++)
        {
          const PdbAction *action = g_ptr_array_index(rule->actions, a);

          pdb_filter_expr_foreach_ref(action->condition_expr, register_condition_tag, msg);
          if (action->has_message || action->creates_context)
            register_synthetic(msg, &action->message);
        }
    }
  /* Names: <value> templates are compiled while a ruleset is read, its
   * patterns go into the tree (naming their captures) when it closes, and
   * the program patterns when the file ends. Rules are walked in file
   * order; a change of ruleset stands for the closing tag. */
  GHashTable *owner = g_hash_table_new(g_direct_hash, g_direct_equal);
  GPtrArray *pending = g_ptr_array_new();
  const PdbRuleset *current = NULL;

  for (guint r = 0; rulesets && r < rulesets->len; r++)
    {
      const PdbRuleset *rs = g_ptr_array_index(rulesets, r);

      for (guint i = 0; rs->rules && i < rs->rules->len; i++)
        g_hash_table_insert(owner, g_ptr_array_index(rs->rules, i), (gpointer) rs);
    }
  for (guint i = 0; rules && i <= rules->len; i++)
    {
      const PdbRule *rule = i < rules->len ? g_ptr_array_index(rules, i) : NULL;
      const PdbRuleset *rs = rule ? g_hash_table_lookup(owner, rule) : NULL;

      if (!rule || rs != current)
        {
          for (guint k = 0; k < pending->len; k++)
            {
              const PdbRule *done = g_ptr_array_index(pending, k);

              for (guint p = 0; done->patterns && p < done->patterns->len; p++)
                register_pattern_captures(msg, g_ptr_array_index(done->patterns, p));
            }
          g_ptr_array_set_size(pending, 0);
          current = rs;
        }
      if (!rule)
        break;
      /* context-id is an attribute of <rule>, so it is compiled before the <value>s */
      if (rule->context_id)
        register_template_names(msg, rule->context_id);
      for (guint v = 0; rule->values && v < rule->values->len; v++)
        register_template_names(msg, ((PdbValueDef *) g_ptr_array_index(rule->values, v))->template_text);
      /* action messages are compiled as they are read, before the patterns go in;
       * before them the <action>'s condition and the <create-context>'s context-id */
      for (guint a = 0; rule->actions && a < rule->actions->len; a++)
        {
          const PdbAction *action = g_ptr_array_index(rule->actions, a);
          const PdbSyntheticMessage *sm = &action->message;

          pdb_filter_expr_foreach_ref(action->condition_expr, register_condition_name, msg);
          if (action->create_context_id)
            register_template_names(msg, action->create_context_id);
          for (guint v = 0; sm->values && v < sm->values->len; v++)
            register_template_names(msg, ((PdbValueDef *) g_ptr_array_index(sm->values, v))->template_text);
        }
      g_ptr_array_add(pending, (gpointer) rule);
    }
  g_ptr_array_free(pending, TRUE);
  g_hash_table_destroy(owner);
  for (guint r = 0; rulesets && r < rulesets->len; r++)
    {
      const PdbRuleset *rs = g_ptr_array_index(rulesets, r);

      for (guint p = 0; rs->program_patterns && p < rs->program_patterns->len; p++)
        register_pattern_captures(msg, g_ptr_array_index(rs->program_patterns, p));
    }
}

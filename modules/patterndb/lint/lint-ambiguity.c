/*
 * lint-ambiguity.c: messages that several rules match completely, where
 * which rule wins depends on the order the rules (or files) were loaded.
 *
 * Witnesses are the examples of the ruleset's rules and, for every
 * pattern, a message synthesized from it (literal bytes as written, a
 * typical value for each parser) that its own rule really matches. For a
 * witness that several rules match completely
 * (pdb_radix_foreach_complete_match), the winner in the real tree is
 * compared with the winner in a tree built from the same patterns in the
 * reverse order. If they differ, the outcome depends on load order: a
 * warning naming both rules and the witness. Pairs already reported as
 * shadowed are not repeated; each pair of rules is reported once.
 */
#include "lint/lint-private.h"

#include <string.h>

/* A value @p accepts on its own and that stops where it should, or FALSE. */
static gboolean
sample_value(const PdbParser *p, GString *out)
{
  switch (p->kind)
    {
    case PDB_PARSER_STRING:
      g_string_append(out, "a1");
      return TRUE;
    case PDB_PARSER_ESTRING:
      if (!p->param || !*p->param)
        return FALSE;
      g_string_append(out, "v");
      g_string_append(out, p->param);
      return TRUE;
    case PDB_PARSER_QSTRING:
      g_string_append_c(out, p->open_char);
      g_string_append(out, "q");
      g_string_append_c(out, p->close_char);
      return TRUE;
    case PDB_PARSER_NUMBER:
      g_string_append(out, "42");
      return TRUE;
    case PDB_PARSER_FLOAT:
      g_string_append(out, "4.5");
      return TRUE;
    case PDB_PARSER_IPV4:
    case PDB_PARSER_IPVANY:
      g_string_append(out, "192.0.2.1");
      return TRUE;
    case PDB_PARSER_IPV6:
      g_string_append(out, "2001:db8::1");
      return TRUE;
    case PDB_PARSER_MACADDR:
    case PDB_PARSER_LLADDR:
      g_string_append(out, "00:11:22:33:44:55");
      return TRUE;
    case PDB_PARSER_EMAIL:
      g_string_append(out, "user@example.com");
      return TRUE;
    case PDB_PARSER_HOSTNAME:
      g_string_append(out, "host.example.com");
      return TRUE;
    case PDB_PARSER_SET:
    case PDB_PARSER_OPTIONALSET:
      for (guint c = 1; c < 256; c++)
        if (pdb_byte_set_has(&p->set, (guchar) c))
          {
            g_string_append_c(out, (gchar) c);
            return TRUE;
          }
      return FALSE;
    case PDB_PARSER_ANYSTRING:
      g_string_append(out, "any text");
      return TRUE;
    case PDB_PARSER_NLSTRING:
      g_string_append(out, "line");
      return TRUE;
    default:
      return FALSE;
    }
}

static gchar *
synthesize(const LintPattern *p)
{
  GString *out = g_string_new(NULL);

  for (guint k = 0; k < p->tokens->len; k++)
    {
      const LintToken *t = &g_array_index(p->tokens, LintToken, k);

      if (!t->parser)
        g_string_append_c(out, (gchar) t->byte);
      else if (!sample_value(t->parser, out))
        {
          g_string_free(out, TRUE);
          return NULL;
        }
    }
  return g_string_free(out, FALSE);
}

typedef struct
{
  GPtrArray *rules;
} Collector;

static void
collect(gpointer value, gpointer user_data)
{
  Collector *c = user_data;

  for (guint i = 0; i < c->rules->len; i++)
    if (g_ptr_array_index(c->rules, i) == value)
      return;
  g_ptr_array_add(c->rules, value);
}

typedef struct
{
  const PdbRuleset *rs;
  PdbRadix *reversed;
  GPtrArray *findings;
  GHashTable *shadowed;
  GHashTable *reported;
} Ambiguity;

static void
check_witness(Ambiguity *self, const gchar *witness, const PdbRule *owner,
              const PdbLocation *where)
{
  gsize len = strlen(witness);
  Collector c = { g_ptr_array_new() };
  PdbMatch m1, m2;

  pdb_radix_foreach_complete_match(self->rs->messages, witness, len, collect, &c);
  /* a synthesized witness must match its own rule, else it proves nothing */
  if (c.rules->len >= 2 && (!owner || g_ptr_array_find(c.rules, owner, NULL)))
    {
      pdb_match_init(&m1);
      pdb_match_init(&m2);
      pdb_radix_lookup(self->rs->messages, witness, len, &m1);
      pdb_radix_lookup(self->reversed, witness, len, &m2);
      if (m1.value && m2.value && m1.complete && m2.complete && m1.value != m2.value)
        {
          const PdbRule *now = m1.value, *other = m2.value;
          gchar *key = pdb_lint_pair_key(now, other);

          if (!g_hash_table_contains(self->shadowed, key) && !g_hash_table_contains(self->reported, key))
            {
              const PdbRule *rules[] = { other, now, NULL };
              PdbLintFinding *f =
                pdb_lint_add(self->findings, PDB_LINT_WARNING, "ambiguous", &other->location, rules,
                             "rules '%s' and '%s' both match the whole message; '%s' wins only because it was loaded first",
                             other->id, now->id, now->id);

              f->witness = g_strdup(witness);
              g_hash_table_add(self->reported, key);
              key = NULL;
            }
          g_free(key);
        }
      pdb_match_clear(&m1);
      pdb_match_clear(&m2);
    }
  g_ptr_array_free(c.rules, TRUE);
}

void
pdb_lint_check_ambiguity(const PdbRuleset *rs, GPtrArray *patterns, GPtrArray *findings,
                         GHashTable *shadowed)
{
  Ambiguity self = { rs, pdb_radix_new(), findings, shadowed,
                     g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL) };

  if (!rs->messages || patterns->len < 2)
    goto out;
  for (gint i = (gint) rs->rules->len - 1; i >= 0; i--)
    {
      const PdbRule *rule = g_ptr_array_index(rs->rules, i);

      for (gint k = (gint) rule->n_patterns - 1; k >= 0; k--)
        pdb_radix_insert(self.reversed, rule->pattern_places[k].text, (gpointer) rule, NULL, NULL);
    }
  pdb_radix_freeze(self.reversed);

  for (guint i = 0; i < patterns->len; i++)
    {
      const LintPattern *p = g_ptr_array_index(patterns, i);
      gchar *witness = synthesize(p);
      PdbLocation loc;

      pdb_lint_pattern_location(p, 0, &loc);
      if (witness)
        check_witness(&self, witness, p->rule, &loc);
      g_free(witness);
    }
  for (guint r = 0; r < rs->rules->len; r++)
    {
      const PdbRule *rule = g_ptr_array_index(rs->rules, r);

      for (guint e = 0; rule->examples && e < rule->examples->len; e++)
        {
          const PdbExample *ex = g_ptr_array_index(rule->examples, e);

          if (ex->message)
            check_witness(&self, ex->message, NULL, &ex->location);
        }
    }
out:
  pdb_radix_free(self.reversed);
  g_hash_table_destroy(self.reported);
}

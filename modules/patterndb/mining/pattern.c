/*
 * pattern.c: aligning a cluster's members and choosing a parser per field.
 *
 * Invariant: a member is listed in `matching` only if the pattern, read
 * with 3.38's semantics, matches its whole message and captures exactly
 * the values recorded for it: every literal of the pattern is present at
 * the same place in the member, and each field's parser, started at the
 * field's offset, stops exactly where the next literal begins (checked per
 * member, not assumed). Members that break this (a different separator, a
 * value containing the delimiter, an empty value where the parser needs
 * one) still belong to the cluster but are not used as examples.
 */
#define _GNU_SOURCE 1   /* memmem */
#include "mining/pattern.h"
#include "mining/pattern-values.h"

#include <string.h>

typedef struct
{
  gboolean is_field;
  GString *literal;          /* literal elements */
  PdbMiningValue *spans;     /* field elements: one per member */
  PdbMiningField field;
} Elem;

typedef struct
{
  const PdbMiner *miner;
  const PdbMiningCluster *cluster;
  const gchar *const *messages;
  const PdbMiningPatternOptions *options;
  guint n;                   /* members */
  gboolean *ok;              /* per member */
  GArray *elems;             /* of Elem */
} Builder;

static const gchar *
member_message(Builder *b, guint k)
{
  return b->messages[g_array_index(b->cluster->members, guint, k)];
}

static const PdbMiningTokens *
member_tokens(Builder *b, guint k)
{
  return pdb_miner_get_tokens(b->miner, g_array_index(b->cluster->members, guint, k));
}

static void
add_literal(Builder *b, const gchar *text, gsize len)
{
  if (len == 0)
    return;
  if (b->elems->len > 0)
    {
      Elem *last = &g_array_index(b->elems, Elem, b->elems->len - 1);
      if (!last->is_field)
        {
          g_string_append_len(last->literal, text, len);
          return;
        }
    }
  Elem e = { FALSE, g_string_new_len(text, len), NULL, { NULL, NULL, NULL } };
  g_array_append_val(b->elems, e);
}

/* A column that must be literal (text between tokens): the most common
 * text wins, members with another text are marked as not matching, except
 * that when the next token is variable (@next_is_field), extra whitespace
 * after the common text moves into that token's value (@carry[k]: its
 * length): "user  0101 from" next to "user root from" is one event whose
 * value starts with a space. */
static void
add_fixed_column(Builder *b, const PdbMiningValue *spans, gboolean next_is_field, guint32 *carry)
{
  /* count each distinct text once (a hash of the slices, not a pairwise scan) */
  GHashTable *counts = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  guint best = 0, best_count = 0;
  for (guint k = 0; k < b->n; k++)
    {
      gchar *text = g_strndup(member_message(b, k) + spans[k].offset, spans[k].length);
      guint count = GPOINTER_TO_UINT(g_hash_table_lookup(counts, text)) + 1;
      if (count > best_count)
        {
          best = k;
          best_count = count;
        }
      g_hash_table_replace(counts, text, GUINT_TO_POINTER(count));
    }
  g_hash_table_destroy(counts);

  const gchar *text = member_message(b, best) + spans[best].offset;
  for (guint k = 0; k < b->n; k++)
    {
      const gchar *mine = member_message(b, k) + spans[k].offset;
      carry[k] = 0;
      if (spans[k].length == spans[best].length && memcmp(mine, text, spans[best].length) == 0)
        continue;
      if (next_is_field && spans[k].length > spans[best].length &&
          memcmp(mine, text, spans[best].length) == 0)
        carry[k] = spans[k].length - spans[best].length;
      else
        b->ok[k] = FALSE;
    }
  add_literal(b, text, spans[best].length);
}

static gboolean
is_cut_char(gchar c, const gchar *delimiters)
{
  return c == ' ' || strchr(delimiters, c) || strchr("-_/#<>{}|+*@", c);
}

/* A lone message's variable token (@key, its masked key, has "<*>"):
 * the text around the wildcard stays literal, the rest is a field. */
static gboolean
add_lone_variable(Builder *b, const PdbMiningValue *span, const gchar *key)
{
  const gchar *wild = strstr(key, PDB_MINING_WILDCARD);
  gsize prefix = wild - key;
  gsize suffix = strlen(wild + strlen(PDB_MINING_WILDCARD));
  const gchar *text = member_message(b, 0) + span->offset;
  if (prefix + suffix >= span->length ||
      memcmp(text, key, prefix) != 0 ||
      memcmp(text + span->length - suffix, wild + strlen(PDB_MINING_WILDCARD), suffix) != 0)
    return FALSE;
  add_literal(b, text, prefix);
  Elem e = { TRUE, NULL, g_new(PdbMiningValue, 1), { NULL, NULL, NULL } };
  e.spans[0].offset = span->offset + prefix;
  e.spans[0].length = span->length - prefix - suffix;
  g_array_append_val(b->elems, e);
  add_literal(b, text + span->length - suffix, suffix);
  return TRUE;
}

/* A token position: literal if the same everywhere, else prefix + field +
 * suffix; in a cluster of one message of several tokens, the masked
 * variables are the fields (@key: the cluster's key at this position; a
 * message of one token stays literal: a field would be all of it). */
static void
add_slot_column(Builder *b, const PdbMiningValue *spans, const gchar *key)
{
  if (b->n == 1 && b->cluster->n_slots > 1 && strstr(key, PDB_MINING_WILDCARD) &&
      add_lone_variable(b, &spans[0], key))
    return;

  const gchar *first = member_message(b, 0) + spans[0].offset;
  gsize min_len = spans[0].length;
  gboolean same = TRUE;
  for (guint k = 1; k < b->n; k++)
    {
      if (spans[k].length != spans[0].length ||
          memcmp(member_message(b, k) + spans[k].offset, first, spans[0].length) != 0)
        same = FALSE;
      min_len = MIN(min_len, spans[k].length);
    }
  if (same)
    {
      add_literal(b, first, spans[0].length);
      return;
    }

  const gchar *delims = b->options->delimiters;
  gsize p = 0;
  while (p < min_len)
    {
      gboolean all = TRUE;
      for (guint k = 1; k < b->n && all; k++)
        all = member_message(b, k)[spans[k].offset + p] == first[p];
      if (!all)
        break;
      p++;
    }
  while (p > 0 && !is_cut_char(first[p - 1], delims))
    p--;

  gsize s = 0;
  while (s < min_len - p)
    {
      gchar c = first[spans[0].length - 1 - s];
      gboolean all = TRUE;
      for (guint k = 1; k < b->n && all; k++)
        all = member_message(b, k)[spans[k].offset + spans[k].length - 1 - s] == c;
      if (!all)
        break;
      s++;
    }
  while (s > 0 && !is_cut_char(first[spans[0].length - s], delims))
    s--;

  add_literal(b, first, p);
  Elem e = { TRUE, NULL, g_new(PdbMiningValue, b->n), { NULL, NULL, NULL } };
  for (guint k = 0; k < b->n; k++)
    {
      e.spans[k].offset = spans[k].offset + p;
      e.spans[k].length = spans[k].length - p - s;
    }
  g_array_append_val(b->elems, e);
  add_literal(b, first + spans[0].length - s, s);
}

static void
align_members(Builder *b)
{
  guint n_slots = b->cluster->n_slots;
  PdbMiningValue *spans = g_new(PdbMiningValue, b->n);
  guint32 *carry = g_new0(guint32, b->n);

  for (guint col = 0; col <= 2 * n_slots; col++)
    {
      for (guint k = 0; k < b->n; k++)
        {
          const PdbMiningTokens *t = member_tokens(b, k);
          guint32 start, end;
          if (col % 2 == 1)
            {
              start = t->tokens[col / 2].start - carry[k];
              end = t->tokens[col / 2].end;
            }
          else
            {
              guint i = col / 2;
              start = i == 0 ? 0 : t->tokens[i - 1].end;
              end = i == n_slots ? (guint32) strlen(member_message(b, k)) : t->tokens[i].start;
            }
          spans[k].offset = start;
          spans[k].length = end - start;
        }
      if (col % 2 == 1)
        add_slot_column(b, spans, b->cluster->template_keys[col / 2]);
      else
        add_fixed_column(b, spans,
                         col / 2 < n_slots && pdb_mining_key_has_wildcard(b->cluster->template_keys[col / 2]),
                         carry);
    }
  g_free(carry);
  g_free(spans);
}

typedef gboolean (*ValuePredicate)(const gchar *v, gsize len);

/* TRUE if every matching member with a non-empty value satisfies @pred
 * (and there is at least one such member). */
static gboolean
all_values(Builder *b, const Elem *e, ValuePredicate pred)
{
  guint seen = 0;
  for (guint k = 0; k < b->n; k++)
    {
      if (!b->ok[k] || e->spans[k].length == 0)
        continue;
      if (!pred(member_message(b, k) + e->spans[k].offset, e->spans[k].length))
        return FALSE;
      seen++;
    }
  return seen > 0;
}

static gboolean
any_value_empty(Builder *b, const Elem *e)
{
  for (guint k = 0; k < b->n; k++)
    if (b->ok[k] && e->spans[k].length == 0)
      return TRUE;
  return FALSE;
}

static void
reject_empty_values(Builder *b, const Elem *e)
{
  for (guint k = 0; k < b->n; k++)
    if (e->spans[k].length == 0)
      b->ok[k] = FALSE;
}

static gboolean
any_value_contains(Builder *b, const Elem *e, gchar c)
{
  for (guint k = 0; k < b->n; k++)
    if (b->ok[k] && memchr(member_message(b, k) + e->spans[k].offset, c, e->spans[k].length))
      return TRUE;
  return FALSE;
}

/* Where ESTRING with delimiter @d, started at the field, stops for member k. */
static gboolean
estring_stops_at_field_end(Builder *b, const Elem *e, guint k, const gchar *d, gsize dlen)
{
  const gchar *msg = member_message(b, k);
  const gchar *start = msg + e->spans[k].offset;
  gsize rest = strlen(start);
  const gchar *hit = memmem(start, rest, d, dlen);
  return hit == start + e->spans[k].length;
}

/* ---- parser choice ------------------------------------------------------ */

static GString *
literal_before(Builder *b, guint i)
{
  if (i == 0)
    return NULL;
  Elem *e = &g_array_index(b->elems, Elem, i - 1);
  return e->is_field ? NULL : e->literal;
}

static GString *
literal_after(Builder *b, guint i)
{
  if (i + 1 >= b->elems->len)
    return NULL;
  Elem *e = &g_array_index(b->elems, Elem, i + 1);
  return e->is_field ? NULL : e->literal;
}

/* Turns field @i into the text of its first matching member; members
 * with another text there no longer match. */
static void
make_literal(Builder *b, guint i)
{
  Elem *e = &g_array_index(b->elems, Elem, i);
  guint best = 0;
  while (best < b->n && !b->ok[best])
    best++;
  if (best == b->n)
    best = 0;
  const gchar *text = member_message(b, best) + e->spans[best].offset;
  guint32 len = e->spans[best].length;
  for (guint k = 0; k < b->n; k++)
    if (e->spans[k].length != len || memcmp(member_message(b, k) + e->spans[k].offset, text, len) != 0)
      b->ok[k] = FALSE;
  e->is_field = FALSE;
  e->literal = g_string_new_len(text, len);
  g_free(e->spans);
  e->spans = NULL;
}

/* A lone message's last field that is one word: a STRING accepting the
 * word's punctuation, so that the rule does not take any ending (an
 * ANYSTRING would match, and absorb, every message with that start). */
static gboolean
lone_word_string(Builder *b, Elem *e)
{
  const gchar *v = member_message(b, 0) + e->spans[0].offset;
  GString *extra = g_string_new(NULL);
  gboolean word = e->spans[0].length > 0;
  for (guint32 j = 0; word && j < e->spans[0].length; j++)
    {
      if (g_ascii_isspace(v[j]) || v[j] == '@' || v[j] == ':')
        word = FALSE;
      else if (!g_ascii_isalnum(v[j]) && !strchr(extra->str, v[j]))
        g_string_append_c(extra, v[j]);
    }
  if (word)
    {
      e->field.parser = g_strdup("STRING");
      e->field.param = extra->len ? g_strdup(extra->str) : NULL;
    }
  g_string_free(extra, TRUE);
  return word;
}

static void
choose_parser(Builder *b, guint i)
{
  Elem *e = &g_array_index(b->elems, Elem, i);
  GString *before = literal_before(b, i);
  GString *after = literal_after(b, i);
  gchar next = after && after->len ? after->str[0] : '\0';
  const gchar *delims = b->options->delimiters;

  /* quotes around the values move into a QSTRING */
  if (before && before->len && after && after->len && (next == '"' || next == '\'') &&
      before->str[before->len - 1] == next && !any_value_contains(b, e, next))
    {
      e->field.parser = g_strdup("QSTRING");
      e->field.param = g_strdup_printf("%c", next);
      g_string_truncate(before, before->len - 1);
      g_string_erase(after, 0, 1);
      reject_empty_values(b, e);
      return;
    }
  /* a typed parser needs a value: with an empty one among them, ESTRING */
  if (any_value_empty(b, e) && after && after->len)
    ;
  else if (all_values(b, e, pdb_mining_value_is_number) && !g_ascii_isdigit(next))
    e->field.parser = g_strdup("NUMBER");
  else if (all_values(b, e, pdb_mining_value_is_ipv4) && !g_ascii_isdigit(next) && next != '.')
    e->field.parser = g_strdup("IPv4");
  else if (all_values(b, e, pdb_mining_value_is_ipv6) && !g_ascii_isxdigit(next) && next != ':' && next != '.')
    e->field.parser = g_strdup("IPv6");
  else if (all_values(b, e, pdb_mining_value_is_hostname) && !g_ascii_isalnum(next) && next != '-' && next != '.')
    e->field.parser = g_strdup("HOSTNAME");
  else if (!after && b->n == 1 && lone_word_string(b, e))
    ;
  else if (!after)
    e->field.parser = g_strdup("ANYSTRING");
  else if (all_values(b, e, pdb_mining_value_is_alnum) && !g_ascii_isalnum(next) && !strchr(delims, next) &&
           next != ' ' && next != '\t')
    e->field.parser = g_strdup("STRING");

  if (e->field.parser)
    {
      reject_empty_values(b, e);
      return;
    }

  /* ESTRING: the shortest start of the next literal that ends every value */
  gsize dlen;
  gsize limit = after->len;
  const gchar *at = memchr(after->str, '@', after->len);
  if (at)
    limit = at - after->str;
  if (limit == 0)
    {
      /* the next literal starts with '@', which no delimiter may contain:
       * a STRING that also accepts the values' punctuation, if it then
       * stops at that '@'; else the field becomes the most common value */
      GString *extra = g_string_new(NULL);
      for (guint k = 0; k < b->n; k++)
        {
          const gchar *v = member_message(b, k) + e->spans[k].offset;
          for (guint32 j = 0; b->ok[k] && j < e->spans[k].length; j++)
            if (!g_ascii_isalnum(v[j]) && !strchr(extra->str, v[j]))
              g_string_append_c(extra, v[j]);
        }
      if (!strchr(extra->str, '@'))
        {
          e->field.parser = g_strdup("STRING");
          e->field.param = extra->len ? g_strdup(extra->str) : NULL;
          g_string_free(extra, TRUE);
          reject_empty_values(b, e);
          return;
        }
      g_string_free(extra, TRUE);
      make_literal(b, i);
      return;
    }
  for (dlen = 1; dlen < limit; dlen++)
    {
      gboolean works = TRUE;
      for (guint k = 0; k < b->n && works; k++)
        if (b->ok[k])
          works = estring_stops_at_field_end(b, e, k, after->str, dlen);
      if (works)
        break;
    }
  /* a longer delimiter still stops there first; end it at a word boundary */
  while (dlen < limit && g_ascii_isalnum(after->str[dlen - 1]) && g_ascii_isalnum(after->str[dlen]))
    dlen++;
  for (guint k = 0; k < b->n; k++)
    if (b->ok[k] && !estring_stops_at_field_end(b, e, k, after->str, dlen))
      b->ok[k] = FALSE;
  e->field.parser = g_strdup("ESTRING");
  e->field.param = g_strndup(after->str, dlen);
  g_string_erase(after, 0, dlen);
}

static void
name_fields(Builder *b)
{
  GHashTable *used = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  guint dict = 0;
  for (guint i = 0; i < b->elems->len; i++)
    {
      Elem *e = &g_array_index(b->elems, Elem, i);
      if (!e->is_field)
        continue;
      GString *before = literal_before(b, i);
      gchar *name = pdb_mining_context_name(before ? before->str : NULL, e->field.parser);
      if (!name && b->options->named_parsers)
        name = g_strdup_printf(".dict.string%u", dict++);
      if (!name)
        {
          e->field.name = g_strdup("");
          continue;
        }
      if (g_hash_table_contains(used, name))
        {
          guint n = 2;
          gchar *alt;
          while (g_hash_table_contains(used, (alt = g_strdup_printf("%s_%u", name, n))))
            {
              g_free(alt);
              n++;
            }
          g_free(name);
          name = alt;
        }
      g_hash_table_add(used, g_strdup(name));
      e->field.name = name;
    }
  g_hash_table_destroy(used);
}

void
pdb_mining_append_literal(GString *out, const gchar *text, gssize length)
{
  if (length < 0)
    length = strlen(text);
  for (gssize i = 0; i < length; i++)
    {
      if (text[i] == '@')
        g_string_append(out, "@@");
      else
        g_string_append_c(out, text[i]);
    }
}

PdbMiningPattern *
pdb_mining_pattern_build(const PdbMiner *miner, const PdbMiningCluster *cluster,
                         const gchar *const *messages, const PdbMiningPatternOptions *options)
{
  PdbMiningPatternOptions defaults = { FALSE, PDB_MINING_DEFAULT_DELIMITERS };
  Builder b = { miner, cluster, messages, options ? options : &defaults, cluster->members->len,
                NULL, g_array_new(FALSE, FALSE, sizeof(Elem)) };
  if (!b.options->delimiters)
    b.options = &defaults;
  b.ok = g_new(gboolean, b.n);
  for (guint k = 0; k < b.n; k++)
    b.ok[k] = TRUE;

  align_members(&b);
  for (guint i = 0; i < b.elems->len; i++)
    if (g_array_index(b.elems, Elem, i).is_field)
      choose_parser(&b, i);
  name_fields(&b);

  PdbMiningPattern *p = g_new0(PdbMiningPattern, 1);
  GString *text = g_string_new(NULL);
  p->fields = g_ptr_array_new();
  for (guint i = 0; i < b.elems->len; i++)
    {
      Elem *e = &g_array_index(b.elems, Elem, i);
      if (!e->is_field)
        {
          pdb_mining_append_literal(text, e->literal->str, e->literal->len);
          continue;
        }
      PdbMiningField *f = g_new(PdbMiningField, 1);
      *f = e->field;
      e->field.parser = e->field.name = e->field.param = NULL;
      g_ptr_array_add(p->fields, f);
      g_string_append_printf(text, "@%s", f->parser);
      if (f->name[0] || f->param)
        g_string_append_printf(text, ":%s", f->name);
      if (f->param)
        g_string_append_printf(text, ":%s", f->param);
      g_string_append_c(text, '@');
    }
  p->text = g_string_free(text, FALSE);

  p->matching = g_array_new(FALSE, FALSE, sizeof(guint));
  p->values = g_array_new(FALSE, FALSE, sizeof(PdbMiningValue));
  for (guint k = 0; k < b.n; k++)
    {
      if (!b.ok[k])
        continue;
      g_array_append_val(p->matching, g_array_index(cluster->members, guint, k));
      for (guint i = 0; i < b.elems->len; i++)
        {
          Elem *e = &g_array_index(b.elems, Elem, i);
          if (e->is_field)
            g_array_append_val(p->values, e->spans[k]);
        }
    }

  for (guint i = 0; i < b.elems->len; i++)
    {
      Elem *e = &g_array_index(b.elems, Elem, i);
      if (e->literal)
        g_string_free(e->literal, TRUE);
      g_free(e->spans);
      g_free(e->field.parser);
      g_free(e->field.name);
      g_free(e->field.param);
    }
  g_array_free(b.elems, TRUE);
  g_free(b.ok);
  return p;
}

static void
field_free(gpointer p)
{
  PdbMiningField *f = p;
  g_free(f->parser);
  g_free(f->name);
  g_free(f->param);
  g_free(f);
}

void
pdb_mining_pattern_free(PdbMiningPattern *pattern)
{
  if (!pattern)
    return;
  g_free(pattern->text);
  g_ptr_array_set_free_func(pattern->fields, field_free);
  g_ptr_array_free(pattern->fields, TRUE);
  g_array_free(pattern->matching, TRUE);
  g_array_free(pattern->values, TRUE);
  g_free(pattern);
}

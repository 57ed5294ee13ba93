/*
 * test-engine-oracle.c: the tree against a naive reference matcher.
 *
 * The oracle knows nothing about nodes, splitting, first-byte dispatch or
 * the one-pass trick of radix-lookup.c. It states the documented
 * precedence directly on the patterns, seen as sequences of tokens (one per
 * literal byte, one per parser reference):
 *
 *   search(S, k, off): S = the patterns (insertion order, duplicates
 *   dropped: the first keeps the slot) whose first k tokens matched the
 *   input up to off.
 *     - input exhausted: the first pattern of S with exactly k tokens is a
 *       complete match; otherwise fail (no parser runs on an empty rest).
 *     - literal first: the patterns whose token k is the byte input[off].
 *     - then each distinct parser token at position k, in the order of its
 *       first appearance in S (= insertion order), run once (its own
 *       length, no alternatives); on failure below, the next one.
 *     - then, in pass 2 only, a pattern of S with exactly k tokens is a
 *       prefix match (pass 1 only notes that one exists).
 *   lookup = pass 1 (complete matches only), else pass 2 if pass 1 saw a
 *   prefix candidate.
 *
 * Its parsers (STRING, ESTRING, NUMBER, ANYSTRING, SET, QSTRING, IPv4) are
 * written again here from the reference table. Thousands of random cases
 * over a tiny alphabet (so prefixes are shared, parsers collide and
 * messages are near misses) with fixed seeds: the tree and the oracle must
 * agree on the value, on complete/prefix, on the matched length and on
 * every capture; and on the list of all complete matches.
 */
#include "test-engine.h"

/* --- the oracle's parsers --- */

typedef gssize (*OracleParse)(const gchar *param, const guchar *s, gsize n, gsize *vofs, gsize *vlen);

static gssize
o_string(const gchar *param, const guchar *s, gsize n, gsize *vofs, gsize *vlen)
{
  gsize i = 0;
  while (i < n && (g_ascii_isalnum(s[i]) || (param && s[i] && strchr(param, s[i]))))
    i++;
  *vofs = 0;
  *vlen = i;
  return i ? (gssize) i : -1;
}

static gssize
o_estring(const gchar *param, const guchar *s, gsize n, gsize *vofs, gsize *vlen)
{
  gsize d = strlen(param);
  for (gsize i = 0; i + d <= n; i++)
    if (memcmp(s + i, param, d) == 0)
      {
        *vofs = 0;
        *vlen = i;
        return i + d;
      }
  return -1;
}

static gssize
o_number(const gchar *param, const guchar *s, gsize n, gsize *vofs, gsize *vlen)
{
  gsize i = (n && (s[0] == '-' || s[0] == '+')) ? 1 : 0, start;
  gboolean hex = i + 1 < n && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X');

  if (hex)
    i += 2;
  start = i;
  while (i < n && (hex ? g_ascii_isxdigit(s[i]) : g_ascii_isdigit(s[i])))
    i++;
  *vofs = 0;
  *vlen = i;
  return i > start ? (gssize) i : -1;
}

static gssize
o_anystring(const gchar *param, const guchar *s, gsize n, gsize *vofs, gsize *vlen)
{
  *vofs = 0;
  *vlen = n;
  return n ? (gssize) n : -1;
}

static gssize
o_set(const gchar *param, const guchar *s, gsize n, gsize *vofs, gsize *vlen)
{
  gsize i = 0;
  while (i < n && s[i] && strchr(param, s[i]))
    i++;
  *vofs = 0;
  *vlen = i;
  return i ? (gssize) i : -1;
}

/* same quote: up to the next one; distinct open/close: nesting counted */
static gssize
o_qstring(const gchar *param, const guchar *s, gsize n, gsize *vofs, gsize *vlen)
{
  guchar open = param[0], close = param[1] ? param[1] : param[0];
  gint depth = 0;

  if (n == 0 || s[0] != open)
    return -1;
  for (gsize i = 1; i < n; i++)
    {
      if (s[i] == close && depth == 0)
        {
          *vofs = 1;
          *vlen = i - 1;
          return i + 1;
        }
      if (open != close && s[i] == close)
        depth--;
      else if (open != close && s[i] == open)
        depth++;
    }
  return -1;
}

/* d+.d+.d+.d+, each <= 255; a '.' right after an octet > 255 or an empty
 * octet (3.38 checks before stopping) fails too. */
static gssize
o_ipv4(const gchar *param, const guchar *s, gsize n, gsize *vofs, gsize *vlen)
{
  gsize i = 0;

  for (gint group = 0; group < 4; group++)
    {
      gsize start = i;
      guint value = 0;

      for (; i < n && g_ascii_isdigit(s[i]); i++)
        value = MIN(value * 10 + (guint) (s[i] - '0'), 1000u);
      if (i == start || value > 255)
        return -1;
      if (group < 3)
        {
          if (i >= n || s[i] != '.')
            return -1;
          i++;
        }
    }
  *vofs = 0;
  *vlen = i;
  return i;
}

typedef struct
{
  const gchar *text;        /* as written in a pattern */
  const gchar *name;        /* NULL: unnamed */
  const gchar *param;
  PdbValueType type;
  OracleParse parse;
  const gchar *samples[4];  /* input pieces the generator uses */
} MenuParser;

static const MenuParser menu[] =
{
  { "@STRING:x@", "x", NULL, PDB_VALUE_STRING, o_string, { "ab1", "a", "1b", "b" } },
  { "@STRING:y@", "y", NULL, PDB_VALUE_STRING, o_string, { "ba", "1", "a1a", "bb" } },
  { "@STRING:x:.@", "x", ".", PDB_VALUE_STRING, o_string, { "a.b", "1.1.1.1", "b", "." } },
  { "@ESTRING:x: @", "x", " ", PDB_VALUE_STRING, o_estring, { "a ", "ab= ", " ", "1.2 " } },
  { "@ESTRING:y:=@", "y", "=", PDB_VALUE_STRING, o_estring, { "a=", "=", "b a=", "1=" } },
  { "@ESTRING:x:ab@", "x", "ab", PDB_VALUE_STRING, o_estring, { "1ab", "ab", "b aab", "=ab" } },
  { "@NUMBER:x@", "x", NULL, PDB_VALUE_INT64, o_number, { "12", "-1", "0x1b", "+2" } },
  { "@NUMBER@", NULL, NULL, PDB_VALUE_INT64, o_number, { "1", "21", "-0", "0x" } },
  { "@ANYSTRING:y@", "y", NULL, PDB_VALUE_STRING, o_anystring, { "ab 1", "=", "a", " " } },
  { "@SET:x:ab@", "x", "ab", PDB_VALUE_STRING, o_set, { "ab", "b", "aab", "ba" } },
  { "@QSTRING:x:\"@", "x", "\"", PDB_VALUE_STRING, o_qstring, { "\"a b\"", "\"\"", "\"a", "\"=\"" } },
  { "@QSTRING:y:<>@", "y", "<>", PDB_VALUE_STRING, o_qstring, { "<a<b>>", "<a>", "<a<b>", "<>" } },
  { "@IPv4:x@", "x", NULL, PDB_VALUE_STRING, o_ipv4, { "1.2.1.1", "1.2.1.1.1", "1.2.1", "12.1.1.255" } },
};

/* --- patterns as tokens --- */

#define MAX_TOKENS 48
#define MAX_PATTERNS 10
#define MAX_CAPTURES 16

typedef struct
{
  gint parser;              /* -1: literal byte */
  guchar byte;
} Token;

typedef struct
{
  Token tokens[MAX_TOKENS];
  gint n_tokens;
  GString *text;
  gboolean duplicate;
} OPattern;

typedef struct
{
  const gchar *name;
  gsize offset, length;
  PdbValueType type;
} OCapture;

typedef struct
{
  const OPattern *patterns;
  gint n_patterns;
  const guchar *in;
  gsize len;
  gint pass;
  gboolean partial_seen;
  OCapture captures[MAX_CAPTURES];
  gint n_captures;
  /* result */
  gint value;
  gboolean complete;
  gsize matched_length;
  /* all-complete-matches mode */
  GString *all;
} Oracle;

static gint
_first_ending(Oracle *o, const gint *S, gint n, gint k)
{
  for (gint i = 0; i < n; i++)
    if (o->patterns[S[i]].n_tokens == k)
      return S[i];
  return -1;
}

static gboolean
o_search(Oracle *o, const gint *S, gint n, gint k, gsize off)
{
  gint sub[MAX_PATTERNS];
  gint m = 0;

  if (off == o->len)
    {
      gint p = _first_ending(o, S, n, k);
      if (p < 0)
        return FALSE;
      if (o->all)
        {
          g_string_append_printf(o->all, "r%d ", p + 1);
          return FALSE;
        }
      o->value = p + 1;
      o->complete = TRUE;
      o->matched_length = off;
      return TRUE;
    }

  for (gint i = 0; i < n; i++)
    {
      const OPattern *p = &o->patterns[S[i]];
      if (k < p->n_tokens && p->tokens[k].parser < 0 && p->tokens[k].byte == o->in[off])
        sub[m++] = S[i];
    }
  if (m && o_search(o, sub, m, k + 1, off + 1))
    return TRUE;

  gboolean tried[G_N_ELEMENTS(menu)] = { 0 };
  for (gint i = 0; i < n; i++)
    {
      const OPattern *p = &o->patterns[S[i]];
      if (k >= p->n_tokens || p->tokens[k].parser < 0 || tried[p->tokens[k].parser])
        continue;
      gint t = p->tokens[k].parser;
      tried[t] = TRUE;

      m = 0;
      for (gint j = i; j < n; j++)
        {
          const OPattern *q = &o->patterns[S[j]];
          if (k < q->n_tokens && q->tokens[k].parser == t)
            sub[m++] = S[j];
        }
      gsize vofs, vlen;
      gssize used = menu[t].parse(menu[t].param, o->in + off, o->len - off, &vofs, &vlen);
      if (used < 0)
        continue;
      gint saved = o->n_captures;
      if (menu[t].name)
        o->captures[o->n_captures++] = (OCapture) { menu[t].name, off + vofs, vlen, menu[t].type };
      if (o_search(o, sub, m, k + 1, off + used))
        return TRUE;
      o->n_captures = saved;
    }

  gint p = _first_ending(o, S, n, k);
  if (p >= 0 && !o->all)
    {
      if (o->pass == 1)
        o->partial_seen = TRUE;
      else
        {
          o->value = p + 1;
          o->complete = FALSE;
          o->matched_length = off;
          return TRUE;
        }
    }
  return FALSE;
}

static gchar *
o_render(Oracle *o, gboolean found)
{
  GString *s = g_string_new("");

  if (!found)
    {
      g_string_free(s, TRUE);
      return g_strdup("none");
    }
  g_string_append_printf(s, "r%d", o->value);
  if (o->complete)
    g_string_append(s, " complete");
  else
    g_string_append_printf(s, " prefix:%zu", o->matched_length);
  for (gint i = 0; i < o->n_captures; i++)
    {
      const OCapture *c = &o->captures[i];
      const gchar *mark = c->type == PDB_VALUE_INT64 ? "#" : c->type == PDB_VALUE_DOUBLE ? "~" : "";
      g_string_append_printf(s, " %s=%s%.*s", c->name, mark, (int) c->length, o->in + c->offset);
    }
  return g_string_free(s, FALSE);
}

static gchar *
o_lookup(const OPattern *patterns, gint n_patterns, const gchar *input)
{
  Oracle o = { patterns, n_patterns, (const guchar *) input, strlen(input), 1 };
  gint S[MAX_PATTERNS], n = 0;
  gboolean found;

  for (gint i = 0; i < n_patterns; i++)
    if (!patterns[i].duplicate)
      S[n++] = i;
  found = o_search(&o, S, n, 0, 0);
  if (!found && o.partial_seen)
    {
      o.pass = 2;
      o.n_captures = 0;
      found = o_search(&o, S, n, 0, 0);
    }
  return o_render(&o, found);
}

static gchar *
o_all_complete(const OPattern *patterns, gint n_patterns, const gchar *input)
{
  Oracle o = { patterns, n_patterns, (const guchar *) input, strlen(input), 1 };
  gint S[MAX_PATTERNS], n = 0;

  o.all = g_string_new("");
  for (gint i = 0; i < n_patterns; i++)
    if (!patterns[i].duplicate)
      S[n++] = i;
  o_search(&o, S, n, 0, 0);
  return g_string_free(o.all, FALSE);
}

/* --- the generator --- */

static const gchar alphabet[] = "ab1 =.";

static void
_add_literal(OPattern *p, const gchar *text)
{
  for (const gchar *c = text; *c && p->n_tokens < MAX_TOKENS; c++)
    {
      p->tokens[p->n_tokens++] = (Token) { -1, (guchar) *c };
      if (*c == '@')
        g_string_append(p->text, "@@");
      else
        g_string_append_c(p->text, *c);
    }
}

static void
_add_parser(OPattern *p, gint t)
{
  if (p->n_tokens < MAX_TOKENS)
    {
      p->tokens[p->n_tokens++] = (Token) { t, 0 };
      g_string_append(p->text, menu[t].text);
    }
}

static gboolean
_same_tokens(const OPattern *a, const OPattern *b)
{
  if (a->n_tokens != b->n_tokens)
    return FALSE;
  for (gint i = 0; i < a->n_tokens; i++)
    if (a->tokens[i].parser != b->tokens[i].parser
        || (a->tokens[i].parser < 0 && a->tokens[i].byte != b->tokens[i].byte))
      return FALSE;
  return TRUE;
}

static void
_random_literal(GRand *rand, gchar *buf, gint max)
{
  gint n = g_rand_int_range(rand, 1, max + 1);
  for (gint i = 0; i < n; i++)
    buf[i] = g_rand_int_range(rand, 0, 20) == 0 ? '@' : alphabet[g_rand_int_range(rand, 0, sizeof(alphabet) - 1)];
  buf[n] = '\0';
}

/* A pattern: often an earlier pattern's prefix plus new elements. */
static void
_generate_pattern(GRand *rand, OPattern *patterns, gint index)
{
  OPattern *p = &patterns[index];
  gint elements = g_rand_int_range(rand, 1, 5);

  p->text = g_string_new("");
  p->n_tokens = 0;
  if (index > 0 && g_rand_boolean(rand))
    {
      const OPattern *base = &patterns[g_rand_int_range(rand, 0, index)];
      gint keep = g_rand_int_range(rand, 0, base->n_tokens + 1);
      for (gint i = 0; i < keep; i++)
        {
          if (base->tokens[i].parser >= 0)
            _add_parser(p, base->tokens[i].parser);
          else
            {
              gchar c[2] = { (gchar) base->tokens[i].byte, 0 };
              _add_literal(p, c);
            }
        }
      elements = g_rand_int_range(rand, 0, 3);
    }
  for (gint e = 0; e < elements; e++)
    {
      gint last_parser = p->n_tokens ? p->tokens[p->n_tokens - 1].parser : -1;
      if (g_rand_int_range(rand, 0, 5) < 2 || last_parser >= 0)
        {
          gchar lit[8];
          _random_literal(rand, lit, 3);
          _add_literal(p, lit);
        }
      else
        _add_parser(p, g_rand_int_range(rand, 0, G_N_ELEMENTS(menu)));
    }
  if (p->n_tokens == 0)
    {
      gchar lit[8];
      _random_literal(rand, lit, 3);
      _add_literal(p, lit);
    }
  p->duplicate = FALSE;
  for (gint i = 0; i < index; i++)
    if (_same_tokens(&patterns[i], p))
      p->duplicate = TRUE;
}

/* A message: an instance of some pattern, then maybe mutated, cut or extended. */
static gchar *
_generate_message(GRand *rand, const OPattern *patterns, gint n_patterns)
{
  const OPattern *p = &patterns[g_rand_int_range(rand, 0, n_patterns)];
  GString *m = g_string_new("");

  for (gint i = 0; i < p->n_tokens; i++)
    {
      if (p->tokens[i].parser < 0)
        g_string_append_c(m, p->tokens[i].byte);
      else
        g_string_append(m, menu[p->tokens[i].parser].samples[g_rand_int_range(rand, 0, 4)]);
    }
  switch (g_rand_int_range(rand, 0, 6))
    {
    case 0:
      if (m->len)
        m->str[g_rand_int_range(rand, 0, m->len)] = alphabet[g_rand_int_range(rand, 0, sizeof(alphabet) - 1)];
      break;
    case 1:
      if (m->len)
        g_string_truncate(m, g_rand_int_range(rand, 0, m->len));
      break;
    case 2:
    {
      gchar lit[8];
      _random_literal(rand, lit, 4);
      g_string_append(m, lit);
      break;
    }
    default:
      break;
    }
  return g_string_free(m, FALSE);
}

static void
_collect(gpointer value, gpointer user_data)
{
  g_string_append_printf(user_data, "r%d ", GPOINTER_TO_INT(value));
}

static gchar *
_describe_set(const OPattern *patterns, gint n)
{
  GString *s = g_string_new("");
  for (gint i = 0; i < n; i++)
    g_string_append_printf(s, "\n    r%d '%s'%s", i + 1, patterns[i].text->str,
                           patterns[i].duplicate ? " (duplicate)" : "");
  return g_string_free(s, FALSE);
}

/* One seed: a random pattern set and many messages. Returns the cases run. */
static gint
_run_seed(guint32 seed, gint *complete_seen, gint *prefix_seen)
{
  GRand *rand = g_rand_new_with_seed(seed);
  OPattern patterns[MAX_PATTERNS];
  gint n_patterns = g_rand_int_range(rand, 2, MAX_PATTERNS + 1);
  PdbRadix *radix = pdb_radix_new();
  gint cases = 0;

  for (gint i = 0; i < n_patterns; i++)
    {
      GError *error = NULL;
      _generate_pattern(rand, patterns, i);
      gboolean ok = pdb_radix_insert(radix, patterns[i].text->str, GINT_TO_POINTER(i + 1), NULL, &error);
      cr_assert(ok != patterns[i].duplicate, "seed %u: pattern r%d '%s': insert %s (%s)", seed, i + 1,
                patterns[i].text->str, ok ? "accepted a duplicate" : "failed",
                error ? error->message : "");
      g_clear_error(&error);
    }
  pdb_radix_freeze(radix);

  for (gint k = 0; k < 40; k++)
    {
      gchar *message = _generate_message(rand, patterns, n_patterns);
      gchar *want = o_lookup(patterns, n_patterns, message);
      gchar *got = te_lookup(radix, message);

      if (strcmp(want, got) != 0)
        {
          gchar *set = _describe_set(patterns, n_patterns);
          cr_assert_fail("seed %u message '%s': oracle '%s', tree '%s'; patterns:%s", seed, message,
                         want, got, set);
        }
      if (strstr(want, "complete"))
        (*complete_seen)++;
      else if (strstr(want, "prefix"))
        (*prefix_seen)++;

      gchar *want_all = o_all_complete(patterns, n_patterns, message);
      GString *got_all = g_string_new("");
      pdb_radix_foreach_complete_match(radix, message, strlen(message), _collect, got_all);
      if (strcmp(want_all, got_all->str) != 0)
        {
          gchar *set = _describe_set(patterns, n_patterns);
          cr_assert_fail("seed %u message '%s': all complete matches: oracle '%s', tree '%s'; patterns:%s",
                         seed, message, want_all, got_all->str, set);
        }
      g_free(want_all);
      g_string_free(got_all, TRUE);
      g_free(want);
      g_free(got);
      g_free(message);
      cases++;
    }

  for (gint i = 0; i < n_patterns; i++)
    g_string_free(patterns[i].text, TRUE);
  pdb_radix_free(radix);
  g_rand_free(rand);
  return cases;
}

Test(engine_oracle, random_pattern_sets)
{
  gint cases = 0, complete = 0, prefix = 0;

  for (guint32 seed = 1; seed <= 1000; seed++)
    cases += _run_seed(seed, &complete, &prefix);
  cr_log_info("oracle: %d cases, %d complete, %d prefix, %d no match", cases, complete, prefix,
              cases - complete - prefix);
  cr_expect_geq(cases, 40000, "cases: %d", cases);
  /* the generator must exercise both kinds of matches, and misses */
  cr_expect_gt(complete, cases / 10, "complete matches: %d of %d", complete, cases);
  cr_expect_gt(prefix, cases / 20, "prefix matches: %d of %d", prefix, cases);
  cr_expect_lt(complete + prefix, cases - cases / 20, "non-matches: %d of %d",
               cases - complete - prefix, cases);
}

/* The oracle itself on hand-checked rows (so a broken oracle cannot agree
 * with a broken tree by accident). */
Test(engine_oracle, oracle_sanity)
{
  OPattern p[2];
  p[0].text = g_string_new("");
  p[1].text = g_string_new("");
  p[0].n_tokens = p[1].n_tokens = 0;
  p[0].duplicate = p[1].duplicate = FALSE;
  _add_literal(&p[0], "a ");
  _add_parser(&p[0], 6);           /* a @NUMBER:x@ */
  _add_literal(&p[1], "a ");
  _add_parser(&p[1], 0);           /* a @STRING:x@ b */
  _add_literal(&p[1], " b");
  gchar *r = o_lookup(p, 2, "a 12 b");
  cr_expect_str_eq(r, "r2 complete x=12");
  g_free(r);
  r = o_lookup(p, 2, "a 12 c");
  cr_expect_str_eq(r, "r1 prefix:4 x=#12");
  g_free(r);
  g_string_free(p[0].text, TRUE);
  g_string_free(p[1].text, TRUE);
}

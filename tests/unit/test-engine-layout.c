/*
 * test-engine-layout.c: the frozen layout of radix-node.h and what the
 * lookup skips because of it.
 *
 * - A parser's start set (pdb_parser_start_set()) never rejects a byte the
 *   parser could start with: for every parser kind and parameter, every
 *   first byte 0..255 and many continuations, a successful parse implies
 *   the byte is in the set (so skipping a parser child on it is safe). The
 *   sets are also not trivially full where they should not be.
 * - Records are in depth-first pre-order: every child lies after its
 *   parent and inside the parent's subtree range; the root is at 0.
 * - Equal parser references are compiled once for the whole tree, while
 *   each parser node keeps its own location (dump shows it).
 * - The build arena copes with keys larger than its chunks.
 * - Parser children use the tree's shared start sets, and their own past
 *   255 distinct ones.
 * - Keys of 64 KiB or more and 65,536 or more parser children get wide
 *   records that match, dump and explain like the others.
 * - The single-pass IPv4 parser agrees with the straightforward
 *   scan-then-validate version (kept here as the reference) on exhaustive
 *   short and random long inputs.
 */
#include "test-engine.h"
#include "engine/radix-node.h"

#include <string.h>

static const gchar *const references[] =
{
  "STRING:s", "STRING:s:._-", "STRING:s:@ ", "ESTRING:e: ", "ESTRING:e:", "ESTRING:e:ab",
  "QSTRING:q:\"", "QSTRING:q:<>", "QSTRING:q:''", "NUMBER:n", "FLOAT:f", "DOUBLE:d",
  "IPv4:i", "IPv6:i6", "IPvANY:ia", "MACADDR:m", "LLADDR:l", "LLADDR:l:2", "EMAIL:e",
  "EMAIL:e:<>", "HOSTNAME:h", "SET:s: ab", "OPTIONALSET:o:xy", "ANYSTRING:a", "NLSTRING:nl",
  "PCRE:p:[0-9]+x", NULL
};

/* Continuations that make each kind succeed for as many first bytes as possible. */
static const gchar *const tails[] =
{
  "", "1", "12", "a", "x", " ", ".", ":", "@", "\"", ">", "'", "\n", "\r\n", "-", "+",
  "2.3.4", ".2.3.4", "1.2.3", "::1", ":1", "1::2", "0:0:0:0:0:0:0:1", "::ffff:1.2.3.4",
  "a:bb:cc:dd:ee:ff", "1:22:33:44:55:66", "0x1f", "x1f", "e5", "5e-3", ".5",
  "@example.com", "x@example.com", "b.c", "bc.de", "-x.y", "bc@de.fg>", "ab", " ab",
  "9x", "23x", "\"", "\" tail", ">", "x>", "<a>>", "yx", "\xff", NULL
};

static void
_expect_superset(const gchar *reference)
{
  GError *error = NULL;
  PdbParser *p = pdb_parser_new(reference, NULL, &error);
  PdbByteSet starts;
  GRand *rand = g_rand_new_with_seed(42);
  guchar buf[64];

  cr_assert(p, "%s: %s", reference, error ? error->message : "");
  pdb_parser_start_set(p, &starts);
  for (guint c = 0; c < 256; c++)
    {
      gboolean accepted = FALSE;
      PdbParseResult res;

      for (gint t = 0; tails[t] && !accepted; t++)
        {
          gsize len = strlen(tails[t]);

          buf[0] = (guchar) c;
          memcpy(buf + 1, tails[t], len);
          accepted = pdb_parser_run(p, buf, len + 1, &res);
          cr_expect(!accepted || pdb_byte_set_has(&starts, (guchar) c),
                    "@%s@ accepts byte 0x%02x followed by '%s' but its start set lacks it",
                    reference, c, tails[t]);
        }
      /* random continuations over a small alphabet */
      for (gint round = 0; round < 200 && !accepted; round++)
        {
          static const gchar alphabet[] = "0123456789abcdefxyz.:@-+ \"<>'\n";
          gsize len = 1 + g_rand_int_range(rand, 0, 20);

          buf[0] = (guchar) c;
          for (gsize i = 1; i < len; i++)
            buf[i] = alphabet[g_rand_int_range(rand, 0, sizeof(alphabet) - 1)];
          accepted = pdb_parser_run(p, buf, len, &res);
          cr_expect(!accepted || pdb_byte_set_has(&starts, (guchar) c),
                    "@%s@ accepts byte 0x%02x followed by '%.*s' but its start set lacks it",
                    reference, c, (int) len - 1, buf + 1);
        }
    }
  g_rand_free(rand);
  pdb_parser_free(p);
}

Test(engine_layout, start_set_never_rejects_a_possible_start)
{
  for (gint i = 0; references[i]; i++)
    _expect_superset(references[i]);
}

/* The sets must be narrow where a kind allows it, or skipping would never happen. */
Test(engine_layout, start_set_is_narrow)
{
  static const struct
  {
    const gchar *reference;
    const gchar *in;
    const gchar *out;
  } rows[] =
  {
    { "NUMBER:n", "+-09", "a. x\"" },
    { "FLOAT:f", "+-.09", "ae x" },
    { "IPv4:i", "09", "a.:-" },
    { "IPv6:i", "09afAF:", "gx -" },
    { "MACADDR:m", "09aF", "g:-" },
    { "QSTRING:q:<>", "<", ">\"a" },
    { "STRING:s:._", "aZ9._", " -@" },
    { "SET:s: ab", " ab", "c.0" },
    { "HOSTNAME:h", "aZ9-", ". @" },
    { "ESTRING:e: ", " a\x01\xff", "" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS(rows); i++)
    {
      PdbParser *p = pdb_parser_new(rows[i].reference, NULL, NULL);
      PdbByteSet starts;

      cr_assert(p, "row %zu", i);
      pdb_parser_start_set(p, &starts);
      for (const gchar *c = rows[i].in; *c; c++)
        cr_expect(pdb_byte_set_has(&starts, (guchar) *c), "row %zu @%s@: '%c' should be in the set",
                  i, rows[i].reference, *c);
      for (const gchar *c = rows[i].out; *c; c++)
        cr_expect(!pdb_byte_set_has(&starts, (guchar) *c), "row %zu @%s@: '%c' should not be in the set",
                  i, rows[i].reference, *c);
      pdb_parser_free(p);
    }
}

/* Returns the end of @offset's subtree, checking every child on the way. */
static guint32
_check_preorder(const PdbRadix *r, guint32 offset, guint32 *count)
{
  const PdbFrozenNode *n = pdb_frozen_node(r, offset);
  const guint32 *children = pdb_frozen_children(n);
  guint32 end = offset + (guint32) pdb_frozen_record_size(n);

  (*count)++;
  for (guint32 c = 0; c < (guint32) n->n_literal + pdb_frozen_n_parser(n); c++)
    {
      cr_expect_eq(children[c], end, "node %u: child %u at %u, expected right after the previous "
                   "subtree at %u", offset, c, children[c], end);
      end = _check_preorder(r, children[c], count);
    }
  return end;
}

Test(engine_layout, records_in_preorder)
{
  const gchar *patterns[] =
  {
    "user @STRING:u@ logged in", "user root logged in", "user @STRING:u@ logged out",
    "user @ESTRING:x: @x", "user rot", "@NUMBER:n@ apples", "@NUMBER:n@", "x\ny", "user", NULL
  };
  PdbRadix *radix = te_build(patterns);
  guint32 count = 0;

  cr_expect_eq(_check_preorder(radix, 0, &count), radix->blob_size);
  cr_expect_eq(count, radix->n_nodes);
  gchar *got = te_lookup(radix, "user bob logged out");
  cr_expect_str_eq(got, "r3 complete u=bob");
  g_free(got);
  got = te_lookup(radix, "x\r\ny");
  cr_expect_str_eq(got, "r8 complete");
  g_free(got);
  pdb_radix_free(radix);
}

static void
_describe(gpointer value, GString *out, gpointer user_data)
{
  g_string_append_printf(out, "r%d", GPOINTER_TO_INT(value));
}

Test(engine_layout, equal_references_share_one_parser)
{
  const gchar *patterns[] =
  {
    "a @NUMBER:n@ x", "b @NUMBER:n@ y", "c @NUMBER:n@ z", "d @NUMBER:m@ z", "e @DOUBLE:n@", NULL
  };
  PdbRadix *radix = te_build(patterns);
  PdbRadixStats stats;
  GString *dump = g_string_new("");

  pdb_radix_get_stats(radix, &stats);
  cr_expect_eq(stats.parser_nodes, 5);
  cr_expect_eq(radix->n_parsers, 3, "NUMBER:n, NUMBER:m, DOUBLE:n: %u", radix->n_parsers);
  pdb_radix_dump(radix, dump, _describe, NULL);
  /* each node keeps the location of the pattern that created it */
  cr_expect(strstr(dump->str, "@NUMBER:n@ [test.xml:1:1]") != NULL, "%s", dump->str);
  cr_expect(strstr(dump->str, "@NUMBER:n@ [test.xml:2:1]") != NULL, "%s", dump->str);
  cr_expect(strstr(dump->str, "@NUMBER:n@ [test.xml:3:1]") != NULL, "%s", dump->str);
  cr_expect(strstr(dump->str, "@FLOAT:n@ [test.xml:5:1]") != NULL, "%s", dump->str);
  g_string_free(dump, TRUE);
  gchar *got = te_lookup(radix, "c 42 z");
  cr_expect_str_eq(got, "r3 complete n=#42");
  g_free(got);
  pdb_radix_free(radix);
}

/* A capture prefix set between inserts must not reuse parsers compiled
 * under the old prefix. */
Test(engine_layout, prefix_change_compiles_anew)
{
  PdbRadix *radix = pdb_radix_new();
  PdbMatch m;

  cr_assert(pdb_radix_insert(radix, "a @NUMBER:n@", GINT_TO_POINTER(1), NULL, NULL));
  pdb_radix_set_capture_prefix(radix, ".p.");
  cr_assert(pdb_radix_insert(radix, "b @NUMBER:n@", GINT_TO_POINTER(2), NULL, NULL));
  pdb_radix_freeze(radix);
  pdb_match_init(&m);
  cr_assert(pdb_radix_lookup(radix, "a 1", 3, &m));
  cr_expect_str_eq(m.captures[0].name, "n");
  cr_assert(pdb_radix_lookup(radix, "b 1", 3, &m));
  cr_expect_str_eq(m.captures[0].name, ".p.n");
  pdb_match_clear(&m);
  pdb_radix_free(radix);
}

Test(engine_layout, keys_larger_than_arena_chunks)
{
  gsize big = 300 * 1024;
  gchar *pattern = g_malloc(big + 16);
  PdbRadix *radix = pdb_radix_new();
  PdbMatch m;

  memset(pattern, 'k', big);
  strcpy(pattern + big, "@NUMBER:n@");
  cr_assert(pdb_radix_insert(radix, pattern, GINT_TO_POINTER(1), NULL, NULL));
  for (gint i = 0; i < 5000; i++)
    {
      gchar *p = g_strdup_printf("small %d @STRING:s@", i);
      cr_assert(pdb_radix_insert(radix, p, GINT_TO_POINTER(i + 2), NULL, NULL));
      g_free(p);
    }
  pdb_radix_freeze(radix);
  pdb_match_init(&m);
  memcpy(pattern + big, "77", 3);
  cr_expect(pdb_radix_lookup(radix, pattern, big + 2, &m) && m.value == GINT_TO_POINTER(1));
  cr_expect(pdb_radix_lookup(radix, "small 4999 x", 12, &m) && m.value == GINT_TO_POINTER(5001));
  pdb_match_clear(&m);
  pdb_radix_free(radix);
  g_free(pattern);
}

/* The first record in pre-order whose flags have @flag, or PDB_NO_NODE. */
static guint32
_find_flagged(const PdbRadix *r, guint16 flag)
{
  for (guint32 offset = 0; offset < r->blob_size;
       offset += (guint32) pdb_frozen_record_size(pdb_frozen_node(r, offset)))
    if (pdb_frozen_node(r, offset)->flags & flag)
      return offset;
  return PDB_NO_NODE;
}

/*
 * The fixed part has u16 key length and parser count; a node with a key of
 * 64 KiB or more gets a wide record with both as u32 (so does a node with
 * 65,536 parser children or more; that takes a minute to build, so it was
 * checked once by hand with this test and 70,000 "p" rules). A wide node
 * with a literal and two parser children must still be laid out in
 * pre-order, match, dump with each parser node's own location and explain
 * a non-match with the first rule of the closest subtree.
 */
Test(engine_layout, wide_records)
{
  const guint32 n_parsers = 3;
  const gsize key = PDB_NODE_NARROW_MAX + 4465;
  const gchar *tails[] = { "!", "@NUMBER:n@", "@STRING:s@ x" };
  PdbRadix *radix = pdb_radix_new();
  gchar *pattern = g_malloc(key + 16);
  PdbMatch m;
  guint32 count = 0;

  memset(pattern, 'k', key);
  for (guint32 i = 0; i < G_N_ELEMENTS(tails); i++)
    {
      strcpy(pattern + key, tails[i]);
      cr_assert(pdb_radix_insert(radix, pattern, GINT_TO_POINTER(i + 1), NULL, NULL));
    }
  for (guint32 i = 0; i < n_parsers; i++)
    {
      gchar *p = g_strdup_printf("p @NUMBER:v%u@ e%u", i, i);
      PdbLocation loc = { "wide.xml", (gint) i + 1, 3 };

      cr_assert(pdb_radix_insert(radix, p, GINT_TO_POINTER(i + 10), &loc, NULL), "%s", p);
      g_free(p);
    }
  pdb_radix_freeze(radix);

  cr_expect_eq(_check_preorder(radix, 0, &count), radix->blob_size);
  cr_expect_eq(count, radix->n_nodes);
  guint32 wide = _find_flagged(radix, PDB_NODE_WIDE);
  cr_assert_neq(wide, PDB_NO_NODE, "no wide record");
  const PdbFrozenNode *n = pdb_frozen_node(radix, wide);
  cr_expect_eq(pdb_frozen_key_length(n), key);
  cr_expect_eq(n->n_literal, 1);
  cr_expect_eq(pdb_frozen_n_parser(n), 2);
  cr_expect(memcmp(pdb_frozen_key(n), pattern, key) == 0);
  cr_expect_eq(pdb_frozen_first_bytes(n)[0], '!');
  for (guint32 offset = wide + (guint32) pdb_frozen_record_size(n); offset < radix->blob_size;
       offset += (guint32) pdb_frozen_record_size(pdb_frozen_node(radix, offset)))
    cr_expect(!pdb_frozen_is_wide(pdb_frozen_node(radix, offset)), "wide record at %u", offset);

  const struct
  {
    const gchar *tail;
    gint value;
  } rows[] = { { "!", 1 }, { "12", 2 }, { "ab x", 3 } };
  pdb_match_init(&m);
  for (gsize i = 0; i < G_N_ELEMENTS(rows); i++)
    {
      strcpy(pattern + key, rows[i].tail);
      cr_expect(pdb_radix_lookup(radix, pattern, strlen(pattern), &m) && m.complete
                && m.value == GINT_TO_POINTER(rows[i].value), "row %zu: k...%s", i, rows[i].tail);
    }
  cr_expect(pdb_radix_lookup(radix, "p 12 e2", 7, &m) && m.complete && m.value == GINT_TO_POINTER(12));
  cr_expect(m.n_captures == 1 && m.captures[0].offset == 2 && m.captures[0].length == 2);
  pdb_match_clear(&m);

  /* a non-match explained with the first rule of the closest subtree */
  PdbTrace t;
  pdb_match_init(&m);
  pdb_trace_init(&t);
  strcpy(pattern + key, "!");
  pattern[key - 3] = 'x';
  cr_expect(!pdb_radix_lookup_traced(radix, pattern, key + 1, &m, &t));
  cr_expect_eq(t.closest_value, GINT_TO_POINTER(1));
  cr_expect(!pdb_radix_lookup_traced(radix, "p 12 f", 6, &m, &t));
  cr_expect_eq(t.closest_value, GINT_TO_POINTER(10));
  pdb_trace_clear(&t);
  pdb_match_clear(&m);

  GString *dump = g_string_new("");
  pdb_radix_dump(radix, dump, NULL, NULL);
  for (guint32 i = 0; i < n_parsers; i++)
    {
      gchar *where = g_strdup_printf("@NUMBER:v%u@ [wide.xml:%u:3]", i, i + 1);

      cr_expect(strstr(dump->str, where) != NULL, "%s not in the dump", where);
      g_free(where);
    }
  cr_expect(strstr(dump->str, "@NUMBER:n@ [:0:0]") != NULL, "%.200s", dump->str + dump->len - 200);
  g_string_free(dump, TRUE);
  pdb_radix_free(radix);
  g_free(pattern);
}

/*
 * Parser children carry the index of their start set among the tree's
 * distinct ones; past 255 distinct sets the parser's own set is used. 300
 * SET parsers with 300 different sets (some equal to each other through
 * different names) must each still be skipped and run correctly.
 */
Test(engine_layout, shared_start_sets)
{
  const gint n = 300;
  PdbRadix *radix = pdb_radix_new();
  PdbMatch m;
  gchar chars[n][3];

  for (gint i = 0; i < n; i++)
    {
      chars[i][0] = (gchar) ('A' + i / 26 % 26);
      chars[i][1] = (gchar) ('a' + i % 26);
      chars[i][2] = '\0';
      gchar *p = g_strdup_printf("s @SET:v%d:%s@ e%d", i, chars[i], i);
      cr_assert(pdb_radix_insert(radix, p, GINT_TO_POINTER(i + 1), NULL, NULL), "%s", p);
      g_free(p);
      /* the same set under another name: shares the entry */
      p = g_strdup_printf("t @SET:w%d:%s@ e%d", i, chars[i], i);
      cr_assert(pdb_radix_insert(radix, p, GINT_TO_POINTER(n + i + 1), NULL, NULL), "%s", p);
      g_free(p);
    }
  pdb_radix_freeze(radix);
  cr_expect_eq(radix->n_parsers, (guint32) (2 * n));
  cr_expect_eq(radix->n_start_sets, PDB_START_SET_OWN, "%u", radix->n_start_sets);

  guint32 own = 0, shared = 0;
  for (guint32 offset = 0; offset < radix->blob_size;
       offset += (guint32) pdb_frozen_record_size(pdb_frozen_node(radix, offset)))
    {
      const PdbFrozenNode *node = pdb_frozen_node(radix, offset);
      const guint32 *pindex = pdb_frozen_child_parsers(node);

      for (guint32 k = 0; k < pdb_frozen_n_parser(node); k++)
        {
          const PdbFrozenParser *fp = &radix->parser_table[pdb_child_parser_index(pindex[k])];

          cr_expect(memcmp(pdb_child_parser_starts(radix, pindex[k]), &fp->starts, sizeof(PdbByteSet)) == 0,
                    "node %u child %u: wrong start set", offset, k);
          if (pindex[k] >> PDB_PARSER_INDEX_BITS == PDB_START_SET_OWN)
            own++;
          else
            shared++;
        }
    }
  cr_expect_eq(own, (guint32) (2 * (n - 255)), "%u", own);
  cr_expect_eq(shared, (guint32) (2 * 255), "%u", shared);

  pdb_match_init(&m);
  for (gint i = 0; i < n; i++)
    for (gint t = 0; t < 2; t++)
      {
        gchar *in = g_strdup_printf("%c %s%c e%d", t ? 't' : 's', chars[i], chars[i][0], i);
        cr_expect(pdb_radix_lookup(radix, in, strlen(in), &m) && m.complete
                  && m.value == GINT_TO_POINTER(t * n + i + 1) && m.n_captures == 1
                  && m.captures[0].length == 3, "%s", in);
        g_free(in);
      }
  pdb_match_clear(&m);
  pdb_radix_free(radix);
}

/* The reference: scan digits and dots, validate each octet at its dot. */
static gboolean
_ipv4_reference(const guchar *in, gsize avail, gsize *consumed)
{
  gint dots = 0;
  gint octet = -1;
  gsize n;

  for (n = 0; n < avail; n++)
    {
      if (in[n] == '.')
        {
          if (octet < 0 || octet > 255)
            return FALSE;
          if (dots == 3)
            break;
          dots++;
          octet = -1;
        }
      else if (in[n] >= '0' && in[n] <= '9')
        octet = MIN((octet < 0 ? 0 : octet * 10) + (in[n] - '0'), 100000);
      else
        break;
    }
  if (dots != 3 || octet < 0 || octet > 255)
    return FALSE;
  *consumed = n;
  return TRUE;
}

static void
_compare_ipv4(const PdbParser *p, const guchar *in, gsize len)
{
  gsize want = 0;
  PdbParseResult res = { 0 };
  gboolean expected = _ipv4_reference(in, len, &want);
  gboolean got = p->parse(p, in, len, &res);

  cr_assert_eq(got, expected, "'%.*s': parsed %d, reference %d", (int) len, in, got, expected);
  if (got)
    cr_assert(res.consumed == want && res.value_offset == 0 && res.value_length == want,
              "'%.*s': consumed %zu, reference %zu", (int) len, in, res.consumed, want);
}

Test(engine_layout, ipv4_agrees_with_reference)
{
  static const guchar alphabet[] = "0129.x";
  PdbParser *p = pdb_parser_new("IPv4:ip", NULL, NULL);
  GRand *rand = g_rand_new_with_seed(7);
  guchar buf[40];

  cr_assert(p);
  /* every string up to 8 bytes over a small alphabet */
  for (gsize len = 1; len <= 8; len++)
    {
      gsize total = 1;
      for (gsize i = 0; i < len; i++)
        total *= sizeof(alphabet) - 1;
      for (gsize v = 0; v < total; v++)
        {
          gsize x = v;
          for (gsize i = 0; i < len; i++, x /= sizeof(alphabet) - 1)
            buf[i] = alphabet[x % (sizeof(alphabet) - 1)];
          _compare_ipv4(p, buf, len);
        }
    }
  /* longer ones, digit-heavy so that whole addresses occur */
  for (gint round = 0; round < 200000; round++)
    {
      static const guchar digits[] = "0123456789012345678925.....x ";
      gsize len = g_rand_int_range(rand, 1, sizeof(buf));

      for (gsize i = 0; i < len; i++)
        buf[i] = digits[g_rand_int_range(rand, 0, sizeof(digits) - 1)];
      _compare_ipv4(p, buf, len);
    }
  g_rand_free(rand);
  pdb_parser_free(p);
}

/*
 * test-engine-parsers.c: every field parser, alone at the root of a tree
 * ("@TYPE:v:param@"), so the result shows how much it consumed
 * ("prefix:N") and what it stored. Rows marked [pdbtool] were checked
 * against Debian's pdbtool 3.38.1; rows marked [policy] are the newer
 * upstream behaviour our compatibility policy adopts.
 */
#include "test-engine.h"

typedef struct
{
  const gchar *pattern;
  const gchar *input;
  const gchar *expected;
} ParserRow;

static const ParserRow rows[] =
{
  /* STRING: alnum run >= 1, plus param chars; non-ASCII stops it */
  { "@STRING:v@", "abc def", "r1 prefix:3 v=abc" },
  { "@STRING:v@", "abc", "r1 complete v=abc" },
  { "@STRING:v@", " abc", "none" },
  { "@STRING:v@", "ab\xc3\xa9", "r1 prefix:2 v=ab" },
  { "@STRING:v:.-@", "a.b-c d", "r1 prefix:5 v=a.b-c" },
  { "@STRING:v@", "12a_b", "r1 prefix:3 v=12a" },
  /* ESTRING: up to the delimiter, which is consumed; empty value allowed [pdbtool] */
  { "@ESTRING:v: @", "abc def", "r1 prefix:4 v=abc" },
  { "@ESTRING:v:;@", ";rest", "r1 prefix:1 v=" },
  { "@ESTRING:v:->@", "a-b->c", "r1 prefix:5 v=a-b" },
  { "@ESTRING:v:->@", "abc-", "none" },
  { "@ESTRING:v: @", "abc", "none" },
  { "@ESTRING:v:@", "abc", "r1 complete v=abc" },              /* [pdbtool] empty delimiter: the rest */
  /* QSTRING: quotes stripped; distinct open/close nest [policy] */
  { "@QSTRING:v:\"@", "\"a b\" x", "r1 prefix:5 v=a b" },
  { "@QSTRING:v:\"@", "x\"a\"", "none" },
  { "@QSTRING:v:\"@", "\"abc", "none" },
  { "@QSTRING:v:\"@", "\"\"", "r1 complete v=" },
  { "@QSTRING:v:<>@", "<a<b>> x", "r1 prefix:6 v=a<b>" },
  { "@QSTRING:v:<>@", "<a<b> x", "none" },                     /* 3.38 gave "a<b" */
  { "@QSTRING:v:<>@", "<ab> x", "r1 prefix:4 v=ab" },
  { "@QSTRINGX:v:'@", "'q'", "r1 complete v=q" },               /* recognised by prefix */
  { "@QSTRING:v:|||@", "|a|", "r1 complete v=a" },              /* >2 chars: first char both ends */
  /* NUMBER */
  { "@NUMBER:v@", "123 x", "r1 prefix:3 v=#123" },
  { "@NUMBER:v@", "-12", "r1 complete v=#-12" },
  { "@NUMBER:v@", "+12", "r1 complete v=#+12" },               /* [policy] */
  { "@NUMBER:v@", "0x1F", "r1 complete v=#0x1F" },
  { "@NUMBER:v@", "0X1f", "r1 complete v=#0X1f" },
  { "@NUMBER:v@", "-0x1f", "r1 complete v=#-0x1f" },           /* [policy] */
  { "@NUMBER:v@", "+0x1f", "r1 complete v=#+0x1f" },           /* [policy] */
  { "@NUMBER:v@", "0x", "none" },                              /* [pdbtool] no fallback to "0" */
  { "@NUMBER:v@", "0xg", "none" },                             /* [pdbtool] */
  { "@NUMBER:v@", "007", "r1 complete v=#007" },               /* [pdbtool] */
  { "@NUMBER:v@", "-", "none" },                               /* [pdbtool] */
  { "@NUMBER:v@", "+", "none" },
  { "@NUMBER:v@", "12a", "r1 prefix:2 v=#12" },
  { "@NUMBER:v@", "a1", "none" },
  { "@NUMBER@", "42", "r1 complete" },                          /* unnamed: matched, not stored */
  { "@NUMBER::@", "42", "r1 complete" },
  /* FLOAT / DOUBLE, quirks [pdbtool] */
  { "@FLOAT:v@", "1.5", "r1 complete v=~1.5" },
  { "@FLOAT:v@", "-", "r1 complete v=~-" },
  { "@FLOAT:v@", ".", "r1 complete v=~." },
  { "@FLOAT:v@", ".5", "r1 complete v=~.5" },
  { "@FLOAT:v@", "1.2.3", "r1 prefix:3 v=~1.2" },
  { "@FLOAT:v@", "1e-3", "r1 complete v=~1e-3" },
  { "@FLOAT:v@", "-e5", "r1 complete v=~-e5" },
  { "@FLOAT:v@", "1.5e x", "r1 prefix:4 v=~1.5e" },
  { "@FLOAT:v@", "1e+3", "r1 complete v=~1e+3" },              /* [policy] */
  { "@FLOAT:v@", "+1.5", "r1 complete v=~+1.5" },              /* [policy] */
  { "@FLOAT:v@", "x", "none" },
  { "@DOUBLE:v@", "2.5", "r1 complete v=~2.5" },
  /* IPv4 */
  { "@IPv4:v@", "1.2.3.4", "r1 complete v=1.2.3.4" },
  { "@IPv4:v@", "1.2.3.4.5", "r1 prefix:7 v=1.2.3.4" },
  { "@IPv4:v@", "1.2.3.4.", "r1 prefix:7 v=1.2.3.4" },
  { "@IPv4:v@", "001.2.3.4", "r1 complete v=001.2.3.4" },
  { "@IPv4:v@", "1.2.3.256", "none" },
  { "@IPv4:v@", "256.1.1.1", "none" },
  { "@IPv4:v@", "1.2.3", "none" },
  { "@IPv4:v@", "1..2.3.4", "none" },
  { "@IPv4:v@", "1.2.3.4x", "r1 prefix:7 v=1.2.3.4" },
  /* IPv6 [pdbtool] */
  { "@IPv6:v@", "::1", "r1 complete v=::1" },
  { "@IPv6:v@", "::", "r1 complete v=::" },
  { "@IPv6:v@", "fe80::1:2 x", "r1 prefix:9 v=fe80::1:2" },
  { "@IPv6:v@", "1:2:3:4:5:6:7:8", "r1 complete v=1:2:3:4:5:6:7:8" },
  { "@IPv6:v@", "1:2:3:4:5:6:7:8:9", "r1 prefix:15 v=1:2:3:4:5:6:7:8" },
  { "@IPv6:v@", "1:2:3:4:5:6:7", "none" },
  { "@IPv6:v@", "::ffff:1.2.3.4", "r1 complete v=::ffff:1.2.3.4" },
  { "@IPv6:v@", "1::2: x", "r1 prefix:4 v=1::2" },              /* trailing ':' given back */
  { "@IPv6:v@", "1::2. x", "r1 prefix:4 v=1::2" },
  { "@IPv6:v@", "1:2", "none" },
  { "@IPv6:v@", "a::b::c", "none" },
  { "@IPv6:v@", "1::256.1.1.1", "r1 prefix:6 v=1::256" },
  { "@IPv6:v@", "1::1.2.3", "none" },
  /* IPvANY: IPv4 first, then IPv6 */
  { "@IPvANY:v@", "10.0.0.1", "r1 complete v=10.0.0.1" },
  { "@IPvANY:v@", "fe80::1", "r1 complete v=fe80::1" },
  { "@IPvANY:v@", "10.0", "none" },
  /* MACADDR: 1 to 6 groups [pdbtool] */
  { "@MACADDR:v@", "ab", "r1 complete v=ab" },
  { "@MACADDR:v@", "ab:cd:ef:01:23:45", "r1 complete v=ab:cd:ef:01:23:45" },
  { "@MACADDR:v@", "ab:cd:ef:01:23:45:67", "r1 prefix:17 v=ab:cd:ef:01:23:45" },
  { "@MACADDR:v@", "ab: x", "r1 prefix:2 v=ab" },
  { "@MACADDR:v@", "AB:CD", "r1 complete v=AB:CD" },
  { "@MACADDR:v@", "a", "none" },
  { "@MACADDR:v@", "ag:cd", "none" },
  /* LLADDR: up to N groups (default 20) [pdbtool] */
  { "@LLADDR:v:2@", "ab:cd:ef", "r1 prefix:5 v=ab:cd" },
  { "@LLADDR:v@", "01:02:03:04:05:06:07:08:09:10:11:12:13:14:15:16:17:18:19:20:21",
    "r1 prefix:59 v=01:02:03:04:05:06:07:08:09:10:11:12:13:14:15:16:17:18:19:20" },
  { "@LLADDR:v:8@", "01:02:03:04:05:06:07:08", "r1 complete v=01:02:03:04:05:06:07:08" },
  /* EMAIL: >= 2 host labels; strip chars left out [pdbtool] */
  { "@EMAIL:v@", "bob@example.com", "r1 complete v=bob@example.com" },
  { "@EMAIL:v@", "bob@localhost", "none" },
  { "@EMAIL:v:<>@", "<bob@example.com> x", "r1 prefix:17 v=bob@example.com" },
  { "@EMAIL:v@", ".bob@a.b", "none" },
  { "@EMAIL:v@", "bob.@a.b", "none" },
  { "@EMAIL:v@", "a.b@c.d. x", "r1 prefix:8 v=a.b@c.d." },
  { "@EMAIL:v@", "b..c@a.b", "r1 complete v=b..c@a.b" },
  /* HOSTNAME: >= 2 labels, may swallow a trailing '.' [pdbtool] */
  { "@HOSTNAME:v@", "a.b", "r1 complete v=a.b" },
  { "@HOSTNAME:v@", "localhost", "none" },
  { "@HOSTNAME:v@", "a.b.c. x", "r1 prefix:6 v=a.b.c." },
  { "@HOSTNAME:v@", "a-b.c_d", "r1 prefix:5 v=a-b.c" },
  { "@HOSTNAME:v@", ".a.b", "none" },
  /* SET / OPTIONALSET */
  { "@SET:v:ab@", "abba c", "r1 prefix:4 v=abba" },
  { "@SET:v:ab@", "c", "none" },
  { "@SET:v: \t@", " \t x", "r1 prefix:3 v= \t " },
  { "@OPTIONALSET:v:ab@", "abc", "r1 prefix:2 v=ab" },
  { "@OPTIONALSET:v:ab@", "c", "r1 prefix:0 v=" },
  /* ANYSTRING: the rest, at least one byte [pdbtool] */
  { "@ANYSTRING:v@", "a b c", "r1 complete v=a b c" },
  { "@ANYSTRING:v@", "", "none" },
  /* NLSTRING: up to the newline, CR dropped; to the end without one [policy] */
  { "@NLSTRING:v@", "abc\ndef", "r1 prefix:3 v=abc" },
  { "@NLSTRING:v@", "abc\r\ndef", "r1 prefix:3 v=abc" },
  { "@NLSTRING:v@", "abc", "r1 complete v=abc" },
  { "@NLSTRING:v@", "\nabc", "r1 prefix:0 v=" },
  /* PCRE: anchored at the current position, ':' allowed in the regex */
  { "@PCRE:v:[a-z]+[0-9]@", "abc1 x", "r1 prefix:4 v=abc1" },
  { "@PCRE:v:[0-9]+@", "a1", "none" },
  { "@PCRE:v:a:b@", "a:b", "r1 complete v=a:b" },
  { "@PCRE:v:(a+)+$@", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab", "none" },   /* match limit, no hang */
};

Test(engine_parsers, table)
{
  for (gsize i = 0; i < G_N_ELEMENTS(rows); i++)
    {
      const ParserRow *row = &rows[i];
      const gchar *patterns[] = { row->pattern, NULL };
      PdbRadix *radix = te_build(patterns);
      gchar *got = te_lookup(radix, row->input);

      cr_expect_str_eq(got, row->expected, "row %zu: pattern '%s' input '%s': expected '%s', got '%s'",
                       i, row->pattern, row->input, row->expected, got);
      g_free(got);
      pdb_radix_free(radix);
    }
}

/* Parsers after literal text, as in real patterns. */
static const ParserRow context_rows[] =
{
  { "n @NUMBER:v@ e", "n 12 e", "r1 complete v=#12" },
  { "n @NUMBER:v@ e", "n 12a e", "none" },
  { "e =@ESTRING:k:=@@ESTRING:v:;@end", "e ==x;end", "r1 complete k= v=x" },
  { "e =@ESTRING:k:;@@ESTRING:v:;@end", "e =;;end", "r1 complete k= v=" },   /* [pdbtool] */
  { "m @MACADDR:m@ end", "m ab end", "r1 complete m=ab" },                    /* [pdbtool] */
  { "m @MACADDR:m@ end", "m ab:cd:ef:01:23:45:67 end", "none" },             /* [pdbtool] */
  { "m @LLADDR:m:2@:ef end", "m ab:cd:ef end", "r1 complete m=ab:cd" },       /* [pdbtool] */
  { "hello @ANYSTRING:r@", "hello ", "none" },                                /* [pdbtool] */
  { "hello @ANYSTRING:r@", "hello", "none" },
  { "a @ESTRING:x:@", "a bc", "r1 complete x=bc" },                           /* [pdbtool] */
  { "a @ESTRING:x:@c", "a bc", "none" },                                      /* [pdbtool] */
  { "abc@OPTIONALSET:x:d@", "abc", "none" },                                  /* [pdbtool] no parser at end */
  { "abc@OPTIONALSET:x:d@", "abcz", "r1 prefix:3 x=" },                       /* [pdbtool] */
  { "ab@OPTIONALSET:x:d@c", "abc", "r1 complete x=" },                        /* [pdbtool] */
  { "me@@@STRING:h@", "me@host", "r1 complete h=host" },
  { "x @IPv6:v@", "x 1::256.1.1.1 e", "r1 prefix:8 v=1::256" },             /* [pdbtool] */
};

Test(engine_parsers, in_context)
{
  for (gsize i = 0; i < G_N_ELEMENTS(context_rows); i++)
    {
      const ParserRow *row = &context_rows[i];
      const gchar *patterns[] = { row->pattern, NULL };
      PdbRadix *radix = te_build(patterns);
      gchar *got = te_lookup(radix, row->input);

      cr_expect_str_eq(got, row->expected, "row %zu: pattern '%s' input '%s': expected '%s', got '%s'",
                       i, row->pattern, row->input, row->expected, got);
      g_free(got);
      pdb_radix_free(radix);
    }
}

typedef struct
{
  const gchar *pattern;
  gint code;
  const gchar *message_part;
} ErrorRow;

static const ErrorRow error_rows[] =
{
  { "a @IPV4:x@", PDB_RADIX_ERROR_UNKNOWN_PARSER, "known types: STRING" },   /* [pdbtool] case-sensitive */
  { "a @string:x@", PDB_RADIX_ERROR_UNKNOWN_PARSER, "'string'" },
  { "a @:x@", PDB_RADIX_ERROR_UNKNOWN_PARSER, "unknown parser type" },
  { "a @ b", PDB_RADIX_ERROR_STRAY_AT, "'@@'" },
  { "a@", PDB_RADIX_ERROR_STRAY_AT, "test.xml:1:2:" },
  { "mail me@host", PDB_RADIX_ERROR_STRAY_AT, "test.xml:1:8:" },
  { "@ESTRING:x@", PDB_RADIX_ERROR_BAD_PARAM, "ESTRING needs a parameter" },
  { "@QSTRING:x@", PDB_RADIX_ERROR_BAD_PARAM, "needs a parameter" },
  { "@QSTRING:x:@", PDB_RADIX_ERROR_BAD_PARAM, "quote characters" },
  { "@SET:x@", PDB_RADIX_ERROR_BAD_PARAM, "SET needs a parameter" },
  { "@OPTIONALSET:x@", PDB_RADIX_ERROR_BAD_PARAM, "needs a parameter" },
  { "@NLSTRING:x:y@", PDB_RADIX_ERROR_BAD_PARAM, "takes no parameter" },
  { "@PCRE:x@", PDB_RADIX_ERROR_BAD_PARAM, "PCRE needs a parameter" },
  { "@PCRE:x:(ab@", PDB_RADIX_ERROR_PCRE, "does not compile" },
  { "@LLADDR:x:abc@", PDB_RADIX_ERROR_BAD_PARAM, "maximum number of octets" },
  { "@LLADDR:x:0@", PDB_RADIX_ERROR_BAD_PARAM, "maximum number of octets" },
};

Test(engine_parsers, pattern_errors)
{
  for (gsize i = 0; i < G_N_ELEMENTS(error_rows); i++)
    {
      const ErrorRow *row = &error_rows[i];
      PdbRadix *radix = pdb_radix_new();
      PdbLocation loc = { "test.xml", 1, 1 };
      GError *error = NULL;
      gboolean ok = pdb_radix_insert(radix, row->pattern, GINT_TO_POINTER(1), &loc, &error);

      cr_expect(!ok, "row %zu: pattern '%s' was accepted", i, row->pattern);
      if (!ok)
        {
          cr_expect(error != NULL, "row %zu: no GError", i);
          cr_expect_eq(error->code, row->code, "row %zu: pattern '%s': code %d, expected %d (%s)",
                       i, row->pattern, error->code, row->code, error->message);
          cr_expect(strstr(error->message, row->message_part) != NULL,
                    "row %zu: pattern '%s': message '%s' lacks '%s'", i, row->pattern,
                    error->message, row->message_part);
          g_error_free(error);
        }
      pdb_radix_free(radix);
    }
}

/* Captures carry the parser's value type. */
Test(engine_parsers, value_types)
{
  const gchar *patterns[] = { "@NUMBER:n@ @FLOAT:f@ @STRING:s@", NULL };
  PdbRadix *radix = te_build(patterns);
  PdbMatch m;

  pdb_match_init(&m);
  cr_assert(pdb_radix_lookup(radix, "1 2.5 x", 7, &m));
  cr_assert_eq(m.n_captures, 3);
  cr_expect_eq(m.captures[0].type, PDB_VALUE_INT64);
  cr_expect_eq(m.captures[1].type, PDB_VALUE_DOUBLE);
  cr_expect_eq(m.captures[2].type, PDB_VALUE_STRING);
  cr_expect_eq(m.captures[1].offset, 2);
  cr_expect_eq(m.captures[1].length, 3);
  pdb_match_clear(&m);
  pdb_radix_free(radix);
}

/* The capture prefix (db-parser prefix()) is applied to every name. */
Test(engine_parsers, capture_prefix)
{
  PdbRadix *radix = pdb_radix_new();
  pdb_radix_set_capture_prefix(radix, ".p.");
  cr_assert(pdb_radix_insert(radix, "u @STRING:user@", GINT_TO_POINTER(1), NULL, NULL));
  pdb_radix_freeze(radix);
  gchar *got = te_lookup(radix, "u bob");
  cr_expect_str_eq(got, "r1 complete .p.user=bob");
  g_free(got);
  pdb_radix_free(radix);
}

/*
 * test-engine-precedence.c: THE MATCHING ORDER of radix-node.h, the tree's
 * construction rules (splitting, sharing, duplicates, errors), inputs that
 * are not C strings, dump output and traced lookups. Rows marked [pdbtool]
 * were checked against Debian's pdbtool 3.38.1.
 */
#include "test-engine.h"

#define MAX_PATTERNS 8

typedef struct
{
  const gchar *patterns[MAX_PATTERNS];
  const gchar *input;
  const gchar *expected;
} PrecedenceRow;

static const PrecedenceRow rows[] =
{
  /* literal before parser; backtracking from the literal into a parser [pdbtool] */
  { { "user @STRING:u@ logged in", "user root logged in", "user @STRING:u@ logged out" },
    "user root logged in", "r2 complete" },
  { { "user @STRING:u@ logged in", "user root logged in", "user @STRING:u@ logged out" },
    "user root logged out", "r3 complete u=root" },
  { { "user @STRING:u@ logged in", "user root logged in", "user @STRING:u@ logged out" },
    "user bob logged in", "r1 complete u=bob" },
  /* no backtracking inside one parser's length [pdbtool] */
  { { "g @STRING:s@bc" }, "g xbc", "none" },
  { { "g @ESTRING:s:b@c" }, "g xbc", "r1 complete s=x" },
  /* a complete match anywhere beats an earlier parser's prefix match [pdbtool] */
  { { "a @NUMBER:n@", "a @STRING:s@ b" }, "a 12 b", "r2 complete s=12" },
  /* pass 2: the first prefix match in search order [pdbtool] */
  { { "a @NUMBER:n@", "a @STRING:s@ b" }, "a 12 c", "r1 prefix:4 n=#12" },
  { { "k @NUMBER:n@ y", "k @STRING:s@" }, "k 12 q", "r2 prefix:4 s=12" },          /* [pdbtool] */
  { { "k @STRING:s@", "k @NUMBER:n@ y" }, "k 12 q", "r1 prefix:4 s=12" },          /* [pdbtool] */
  { { "k @NUMBER:n@ y", "k @STRING:s@ z", "k @NUMBER:n@" }, "k 12 z", "r2 complete s=12" },  /* [pdbtool] */
  /* the deepest value on the first failing path [pdbtool] */
  { { "a", "a b", "a b c" }, "a b x", "r2 prefix:3" },
  { { "x", "xab", "xac" }, "xa", "r1 prefix:1" },                                   /* [pdbtool] */
  { { "x", "xab", "xac" }, "xab", "r2 complete" },
  /* patterns match as prefixes [pdbtool] */
  { { "Failed password for @STRING:user@ from @IPv4:src_ip@" },
    "Failed password for bob from 10.0.0.1 extra trailing", "r1 prefix:37 user=bob src_ip=10.0.0.1" },
  /* program-name style: "sshd" catches "sshd2" [pdbtool] */
  { { "sshd", "cron" }, "sshd2", "r1 prefix:4" },
  { { "sshd", "cron" }, "ssh", "none" },
  /* a literal child only for its first byte; then parsers in insertion order */
  { { "a@STRING:s@ x", "ab@NUMBER:n@" }, "ab x", "r1 complete s=b" },                /* [pdbtool] */
  { { "p @STRING:a@", "p @STRING:b@" }, "p ab", "r1 complete a=ab" },                /* [pdbtool] */
  { { "p @STRING:a@ y", "p @STRING:b@ x", "p @STRING:a@ x" }, "p ab x", "r3 complete a=ab" },  /* [pdbtool] */
  { { "p @ESTRING:a: @x", "p @STRING:b@ y" }, "p ab y", "r2 complete b=ab" },
  /* no parser is tried on an empty rest [pdbtool] */
  { { "abc@OPTIONALSET:x:d@" }, "abc", "none" },
  { { "abc", "ab@OPTIONALSET:x:d@" }, "ab", "none" },
  { { "a", "ab@OPTIONALSET:x:d@" }, "ab", "r1 prefix:1" },
  /* Deliberate difference: 3.38 reads past the end of the message when a SET or
   * OPTIONALSET run reaches it (strchr() finds the terminating NUL), so such a
   * parser never completes a match and pdbtool answers r2 here. We stop at the
   * end of the input. */
  { { "b1@SET:x:ab@", "@STRING:x:.@" }, "b1b", "r1 complete x=b" },
  /* '@@' is a literal '@' */
  { { "me@@host", "me@@@STRING:h@" }, "me@host", "r1 complete" },
  { { "me@@host", "me@@@STRING:h@" }, "me@hast", "r2 complete h=hast" },
  /* CRLF: a CR in the input is skipped where the pattern has LF */
  { { "line1\nline2" }, "line1\r\nline2", "r1 complete" },
  { { "line1\nline2" }, "line1\nline2", "r1 complete" },
  { { "a\nb", "a\nc", "a@STRING:s@" }, "a\r\nc", "r2 complete" },
  { { "a\nb", "a\nc" }, "a\rc", "none" },
  { { "x@NLSTRING:l@\nnext" }, "xab\r\nnext", "r1 complete l=ab" },
};

Test(engine_precedence, table)
{
  for (gsize i = 0; i < G_N_ELEMENTS(rows); i++)
    {
      const PrecedenceRow *row = &rows[i];
      PdbRadix *radix = te_build(row->patterns);
      gchar *got = te_lookup(radix, row->input);
      gchar *patterns = g_strjoinv(" | ", (gchar **) row->patterns);

      cr_expect_str_eq(got, row->expected, "row %zu: patterns [%s] input '%s': expected '%s', got '%s'",
                       i, patterns, row->input, row->expected, got);
      g_free(patterns);
      g_free(got);
      pdb_radix_free(radix);
    }
}

static void
_describe(gpointer value, GString *out, gpointer user_data)
{
  g_string_append_printf(out, "rule_id='r%d'", GPOINTER_TO_INT(value));
}

static gchar *
_dump(const PdbRadix *radix)
{
  GString *out = g_string_new("");
  pdb_radix_dump(radix, out, _describe, NULL);
  return g_string_free(out, FALSE);
}

/* The same tree pdbtool 3.38.1 dumped (its locations replaced by ours) [pdbtool]. */
Test(engine_precedence, dump_layout)
{
  const gchar *patterns[] =
  {
    "user @STRING:u@ logged in", "user root logged in", "user @STRING:u@ logged out",
    "user @ESTRING:x: @x", "me@@host", "abc@@", "ab@NUMBER@", "ab@NUMBER::@z",
    "n @IPvANY:ip@", "q @QSTRING:q:<>@", "o @OPTIONALSET:o:ab@", NULL
  };
  const gchar *expected =
    "[0]\t'' \n"
    "[1]\t  'ab' \n"
    "[2]\t    'c' \n"
    "[3]\t      '@' rule_id='r6'\n"
    "[2]\t    @NUMBER:None@ [test.xml:7:1]'' rule_id='r7'\n"
    "[2]\t    @NUMBER:None@ [test.xml:8:1]'' \n"
    "[3]\t      'z' rule_id='r8'\n"
    "[1]\t  'me' \n"
    "[2]\t    '@' \n"
    "[3]\t      'host' rule_id='r5'\n"
    "[1]\t  'n ' \n"
    "[2]\t    @IP:ip@ [test.xml:9:1]'' rule_id='r9'\n"
    "[1]\t  'o ' \n"
    "[2]\t    @UNKNOWN:o@ [test.xml:11:1]'' rule_id='r11'\n"
    "[1]\t  'q ' \n"
    "[2]\t    @QSTRING:q@ [test.xml:10:1]'' rule_id='r10'\n"
    "[1]\t  'user ' \n"
    "[2]\t    'root logged in' rule_id='r2'\n"
    "[2]\t    @STRING:u@ [test.xml:1:1]'' \n"
    "[3]\t      ' logged ' \n"
    "[4]\t        'in' rule_id='r1'\n"
    "[4]\t        'out' rule_id='r3'\n"
    "[2]\t    @ESTRING:x@ [test.xml:4:1]'' \n"
    "[3]\t      'x' rule_id='r4'\n";
  PdbRadix *radix = te_build(patterns);
  gchar *got = _dump(radix);

  cr_expect_str_eq(got, expected, "dump differs:\n%s", got);
  g_free(got);
  pdb_radix_free(radix);
}

static PdbRadix *
_unfrozen(const gchar *const *patterns)
{
  PdbRadix *radix = pdb_radix_new();

  for (gint i = 0; patterns[i]; i++)
    {
      PdbLocation loc = { "test.xml", i + 1, 1 };
      cr_assert(pdb_radix_insert(radix, patterns[i], GINT_TO_POINTER(i + 1), &loc, NULL),
                "pattern %d '%s'", i + 1, patterns[i]);
    }
  return radix;
}

/* A failing insert leaves the tree exactly as it was (same dump, same answers). */
Test(engine_precedence, errors_leave_tree_unchanged)
{
  const gchar *base[] = { "user @STRING:u@ logged in", "user root logged in", "abc", NULL };
  const gchar *bad[] =
  {
    "user @STRING:u@ logged @BAD:x@",      /* unknown parser after shared nodes */
    "user root logged out @",              /* stray '@' after a would-be split */
    "user @ESTRING:u@ x",                  /* missing param */
    "user root logged in",                 /* duplicate literal */
    "user @STRING:u@ logged in",           /* duplicate through a parser */
    "abc",
  };
  PdbRadix *reference = te_build(base);
  gchar *expected = _dump(reference);

  for (gsize i = 0; i < G_N_ELEMENTS(bad); i++)
    {
      PdbRadix *radix = _unfrozen(base);
      GError *error = NULL;

      cr_expect(!pdb_radix_insert(radix, bad[i], GINT_TO_POINTER(99), NULL, &error),
                "bad pattern %zu '%s' was accepted", i, bad[i]);
      g_clear_error(&error);
      pdb_radix_freeze(radix);
      gchar *got = _dump(radix);
      cr_expect_str_eq(got, expected, "bad pattern %zu '%s' changed the tree:\n%s", i, bad[i], got);
      g_free(got);
      pdb_radix_free(radix);
    }
  g_free(expected);
  pdb_radix_free(reference);
}

/* The first of two identical patterns keeps the slot [pdbtool]. */
Test(engine_precedence, duplicates)
{
  PdbRadix *radix = pdb_radix_new();
  GError *error = NULL;
  PdbLocation loc = { "dup.xml", 7, 9 };

  cr_assert(pdb_radix_insert(radix, "a @NUMBER:n@ b", GINT_TO_POINTER(1), NULL, NULL));
  cr_assert(!pdb_radix_insert(radix, "a @NUMBER:n@ b", GINT_TO_POINTER(2), &loc, &error));
  cr_assert_eq(error->code, PDB_RADIX_ERROR_DUPLICATE);
  cr_expect(strstr(error->message, "dup.xml:7:9") != NULL, "%s", error->message);
  g_clear_error(&error);
  /* a different capture name or param is a different parser node: not a duplicate */
  cr_assert(pdb_radix_insert(radix, "a @NUMBER:m@ b", GINT_TO_POINTER(3), NULL, NULL));
  cr_assert(pdb_radix_insert(radix, "a @NUMBER:n:x@ b", GINT_TO_POINTER(4), NULL, NULL));
  cr_assert(pdb_radix_insert(radix, "a @DOUBLE:d@ b", GINT_TO_POINTER(5), NULL, NULL));
  cr_assert(!pdb_radix_insert(radix, "a @FLOAT:d@ b", GINT_TO_POINTER(6), NULL, &error),
            "DOUBLE and FLOAT are one parser");
  g_clear_error(&error);
  pdb_radix_freeze(radix);
  gchar *got = te_lookup(radix, "a 5 b");
  cr_expect_str_eq(got, "r1 complete n=#5");
  g_free(got);
  pdb_radix_free(radix);
}

/* Parser nodes are shared when type, name and param are equal [pdbtool]. */
Test(engine_precedence, shared_parser_nodes)
{
  const gchar *patterns[] =
  {
    "u @STRING:a@ x", "u @STRING:a@ y", "u @STRING:b@ z", "u @STRING:a:.@ w", "u @STRING@ v",
    "u @STRING::@ t", NULL
  };
  PdbRadix *radix = te_build(patterns);
  PdbRadixStats stats;

  pdb_radix_get_stats(radix, &stats);
  /* @STRING:a@ (shared by 1 and 2), :b@, :a:.@, unnamed without param, unnamed with "" */
  cr_expect_eq(stats.parser_nodes, 5, "parser nodes: %zu", stats.parser_nodes);
  cr_expect_eq(stats.values, 6);
  gchar *got = te_lookup(radix, "u q y");
  cr_expect_str_eq(got, "r2 complete a=q");
  g_free(got);
  got = te_lookup(radix, "u q t");
  cr_expect_str_eq(got, "r6 complete");
  g_free(got);
  pdb_radix_free(radix);
}

/* 3.38 accepts an empty pattern but it never matches [pdbtool]; we refuse it. */
Test(engine_precedence, empty_pattern)
{
  PdbRadix *radix = pdb_radix_new();
  GError *error = NULL;

  cr_assert(!pdb_radix_insert(radix, "", GINT_TO_POINTER(1), NULL, &error));
  cr_expect_eq(error->code, PDB_RADIX_ERROR_EMPTY_PATTERN);
  g_clear_error(&error);
  cr_assert(pdb_radix_insert(radix, "b", GINT_TO_POINTER(2), NULL, NULL));
  pdb_radix_freeze(radix);
  gchar *got = te_lookup(radix, "a");
  cr_expect_str_eq(got, "none");
  g_free(got);
  got = te_lookup(radix, "");
  cr_expect_str_eq(got, "none");
  g_free(got);
  pdb_radix_free(radix);
}

Test(engine_precedence, insert_after_freeze)
{
  PdbRadix *radix = pdb_radix_new();
  GError *error = NULL;

  cr_assert(pdb_radix_insert(radix, "a", GINT_TO_POINTER(1), NULL, NULL));
  pdb_radix_freeze(radix);
  cr_assert(!pdb_radix_insert(radix, "b", GINT_TO_POINTER(2), NULL, &error));
  cr_expect_eq(error->code, PDB_RADIX_ERROR_FROZEN);
  g_clear_error(&error);
  pdb_radix_free(radix);
}

/* Inputs are byte buffers: NULs and invalid UTF-8 are ordinary bytes. */
Test(engine_precedence, binary_input)
{
  const gchar *patterns[] =
  {
    "k=@ESTRING:v:;@end", "s @STRING:s@", "q @QSTRING:q:\"@!", "x\xff@ANYSTRING:r@", NULL
  };
  PdbRadix *radix = te_build(patterns);
  PdbMatch m;

  pdb_match_init(&m);
  cr_assert(pdb_radix_lookup(radix, "k=a\0b;end", 9, &m));
  cr_expect_eq(GPOINTER_TO_INT(m.value), 1);
  cr_expect(m.complete);
  cr_expect_eq(m.captures[0].offset, 2);
  cr_expect_eq(m.captures[0].length, 3, "ESTRING must look past the NUL");

  cr_assert(pdb_radix_lookup(radix, "s ab\0cd", 7, &m));
  cr_expect_eq(GPOINTER_TO_INT(m.value), 2);
  cr_expect(!m.complete);
  cr_expect_eq(m.captures[0].length, 2, "STRING stops at the NUL");

  cr_assert(pdb_radix_lookup(radix, "q \"\0\xc3\x28\"!", 8, &m));
  cr_expect_eq(GPOINTER_TO_INT(m.value), 3);
  cr_expect(m.complete);
  cr_expect_eq(m.captures[0].length, 3);

  cr_assert(pdb_radix_lookup(radix, "x\xff\xfe\0", 4, &m));
  cr_expect_eq(GPOINTER_TO_INT(m.value), 4);
  cr_expect_eq(m.captures[0].length, 2);

  /* the length is respected: bytes after it are never read */
  cr_expect(!pdb_radix_lookup(radix, "k=abc;end", 5, &m));
  pdb_match_clear(&m);
  pdb_radix_free(radix);
}

/* A 1 MiB message, through the parsers that scan. */
Test(engine_precedence, one_mib_input)
{
  const gsize size = 1 << 20;
  const gchar *patterns[] = { "big @ESTRING:a:;@end", "big @ANYSTRING:r@", "big @STRING:s@!", NULL };
  PdbRadix *radix = te_build(patterns);
  gchar *input = g_malloc(size);
  PdbMatch m;

  memcpy(input, "big ", 4);
  memset(input + 4, 'x', size - 4);
  pdb_match_init(&m);
  cr_assert(pdb_radix_lookup(radix, input, size, &m));
  cr_expect_eq(GPOINTER_TO_INT(m.value), 2, "ANYSTRING takes it (no ';', no '!')");
  cr_expect_eq(m.captures[0].length, size - 4);

  memcpy(input + size - 4, ";end", 4);
  cr_assert(pdb_radix_lookup(radix, input, size, &m));
  cr_expect_eq(GPOINTER_TO_INT(m.value), 1);
  cr_expect(m.complete);
  cr_expect_eq(m.captures[0].length, size - 8);
  pdb_match_clear(&m);
  g_free(input);
  pdb_radix_free(radix);
}

/* More captures than fit inline. */
Test(engine_precedence, many_captures)
{
  GString *pattern = g_string_new("");
  GString *input = g_string_new("");
  for (gint i = 0; i < 40; i++)
    {
      g_string_append_printf(pattern, "@NUMBER:n%d@ ", i);
      g_string_append_printf(input, "%d ", i);
    }
  const gchar *patterns[] = { pattern->str, NULL };
  PdbRadix *radix = te_build(patterns);
  PdbMatch m;

  pdb_match_init(&m);
  cr_assert(pdb_radix_lookup(radix, input->str, input->len, &m));
  cr_assert_eq(m.n_captures, 40);
  cr_expect_str_eq(m.captures[39].name, "n39");
  cr_expect_eq(m.captures[39].length, 2);
  /* reuse after overflow, then a prefix match needing the snapshot */
  cr_assert(pdb_radix_lookup(radix, input->str, input->len - 3, &m) == FALSE);
  pdb_match_clear(&m);
  g_string_free(pattern, TRUE);
  g_string_free(input, TRUE);
  pdb_radix_free(radix);
}

/* foreach_complete_match: every complete match (rule conflicts), nothing else. */
static void
_collect(gpointer value, gpointer user_data)
{
  g_string_append_printf(user_data, "r%d ", GPOINTER_TO_INT(value));
}

Test(engine_precedence, foreach_complete_match)
{
  const gchar *patterns[] =
  {
    "foo @STRING:a@", "foo bar", "foo @ESTRING:b: @", "foo @ANYSTRING:c@", "fo", NULL
  };
  PdbRadix *radix = te_build(patterns);
  GString *got = g_string_new("");

  pdb_radix_foreach_complete_match(radix, "foo bar", 7, _collect, got);
  cr_expect_str_eq(got->str, "r2 r1 r4 ");
  g_string_truncate(got, 0);
  pdb_radix_foreach_complete_match(radix, "foo bar baz", 11, _collect, got);
  cr_expect_str_eq(got->str, "r4 ");
  g_string_free(got, TRUE);
  pdb_radix_free(radix);
}

/* A traced lookup shows the winning path, or how far the best attempt got. */
Test(engine_precedence, traced_lookup)
{
  const gchar *patterns[] =
  {
    "user @STRING:u@ logged in", "user root logged in", "user @STRING:u@ logged out", NULL
  };
  PdbRadix *radix = te_build(patterns);
  PdbMatch m;
  PdbTrace t;

  pdb_match_init(&m);
  pdb_trace_init(&t);
  cr_assert(pdb_radix_lookup_traced(radix, "user root logged out", 20, &m, &t));
  cr_expect_eq(GPOINTER_TO_INT(m.value), 3);
  cr_assert_eq(t.steps->len, 4, "steps: %u", t.steps->len);
  PdbTraceStep *s = &g_array_index(t.steps, PdbTraceStep, 0);
  cr_expect(!s[0].is_parser);
  cr_expect_eq(s[0].literal_length, 5);
  cr_expect(strncmp(s[0].literal, "user ", 5) == 0);
  cr_expect(s[1].is_parser);
  cr_expect_str_eq(s[1].parser_type, "STRING");
  cr_expect_str_eq(s[1].parser_name, "u");
  cr_expect_eq(s[1].offset, 5);
  cr_expect_eq(s[1].length, 4);
  cr_expect_eq(s[3].offset, 17);
  cr_expect_eq(s[3].length, 3);
  cr_expect_eq(s[3].value_offset, 17);
  cr_expect_eq(s[3].value_length, 3);

  /* a parser step tells the stored value apart from what it consumed */
  const gchar *estring_patterns[] = { "Accepted @ESTRING:method: @for @QSTRING:user:<>@", NULL };
  PdbRadix *estring = te_build(estring_patterns);
  cr_assert(pdb_radix_lookup_traced(estring, "Accepted password for <bob>", 27, &m, &t));
  cr_assert_eq(t.steps->len, 4);
  s = &g_array_index(t.steps, PdbTraceStep, 0);
  cr_expect_eq(s[1].offset, 9);
  cr_expect_eq(s[1].length, 9, "ESTRING consumed 'password '");
  cr_expect_eq(s[1].value_offset, 9);
  cr_expect_eq(s[1].value_length, 8);
  cr_expect_eq(s[3].length, 5);
  cr_expect_eq(s[3].value_offset, 23);
  cr_expect_eq(s[3].value_length, 3);
  pdb_radix_free(estring);

  cr_assert(!pdb_radix_lookup_traced(radix, "user root logged up", 19, &m, &t));
  cr_expect_eq(t.furthest_offset, 17);
  cr_expect(t.closest_value != NULL);
  GString *expected = g_string_new("");
  for (guint i = 0; i < t.expected->len; i++)
    g_string_append_printf(expected, "%s;", (gchar *) g_ptr_array_index(t.expected, i));
  cr_expect(strstr(expected->str, "'in';") && strstr(expected->str, "'out';"),
            "expected at 17: %s", expected->str);
  g_string_free(expected, TRUE);

  cr_assert(!pdb_radix_lookup_traced(radix, "admin", 5, &m, &t));
  cr_expect_eq(t.furthest_offset, 0);
  cr_expect_eq(t.expected->len, 1);
  cr_expect_str_eq(g_ptr_array_index(t.expected, 0), "'user '");

  /* a parser that did not accept the text is named with its parameter */
  const gchar *number_patterns[] = { "n @NUMBER:n@ x", "n @ESTRING:e:;@ y", NULL };
  PdbRadix *numbers = te_build(number_patterns);
  cr_assert(!pdb_radix_lookup_traced(numbers, "n abc", 5, &m, &t));
  cr_expect_eq(t.furthest_offset, 2);
  cr_assert_eq(t.expected->len, 2);
  cr_expect_str_eq(g_ptr_array_index(t.expected, 0), "@NUMBER:n@");
  cr_expect_str_eq(g_ptr_array_index(t.expected, 1), "@ESTRING:e:;@");
  cr_expect_eq(GPOINTER_TO_INT(t.closest_value), 1);
  cr_assert(!pdb_radix_lookup_traced(numbers, "n 12 q", 6, &m, &t));
  cr_expect_eq(t.furthest_offset, 5);
  cr_expect_str_eq(g_ptr_array_index(t.expected, 0), "'x'");
  cr_expect_eq(GPOINTER_TO_INT(t.closest_value), 1);
  cr_assert_eq(t.steps->len, 3, "deepest path: 'n ', NUMBER, ' ' (the part of ' x' that matched)");
  cr_expect_eq(g_array_index(t.steps, PdbTraceStep, 2).literal_length, 1);
  cr_expect_eq(g_array_index(t.steps, PdbTraceStep, 2).length, 1);
  pdb_radix_free(numbers);

  /* the traced and the plain lookup agree */
  cr_assert(pdb_radix_lookup_traced(radix, "user bob logged in now", 22, &m, &t));
  gchar *traced = te_render("user bob logged in now", &m, TRUE);
  gchar *plain = te_lookup(radix, "user bob logged in now");
  cr_expect_str_eq(traced, plain);
  g_free(traced);
  g_free(plain);
  pdb_trace_clear(&t);
  pdb_match_clear(&m);
  pdb_radix_free(radix);
}

/* A frozen tree is shared by threads without a lock (PCRE included). */
typedef struct
{
  const PdbRadix *radix;
  gint mismatches;
} ThreadData;

static const gchar *thread_inputs[][2] =
{
  { "user root logged in", "r2 complete" },
  { "user bob logged out", "r3 complete u=bob" },
  { "id abc123 x", "r4 prefix:9 id=abc123" },
  { "n 42", "r5 complete n=#42" },
};

static gpointer
_thread_main(gpointer user_data)
{
  ThreadData *d = user_data;

  for (gint i = 0; i < 20000; i++)
    {
      const gchar **row = thread_inputs[i % G_N_ELEMENTS(thread_inputs)];
      gchar *got = te_lookup(d->radix, row[0]);
      if (strcmp(got, row[1]) != 0)
        g_atomic_int_inc(&d->mismatches);
      g_free(got);
    }
  return NULL;
}

Test(engine_precedence, concurrent_lookups)
{
  const gchar *patterns[] =
  {
    "user @STRING:u@ logged in", "user root logged in", "user @STRING:u@ logged out",
    "id @PCRE:id:[a-z]+[0-9]+@", "n @NUMBER:n@", NULL
  };
  PdbRadix *radix = te_build(patterns);
  ThreadData data = { radix, 0 };
  GThread *threads[4];

  for (gint i = 0; i < 4; i++)
    threads[i] = g_thread_new("lookup", _thread_main, &data);
  for (gint i = 0; i < 4; i++)
    g_thread_join(threads[i]);
  cr_expect_eq(data.mismatches, 0, "%d lookups gave a wrong answer", data.mismatches);
  pdb_radix_free(radix);
}

/* Literal keys of every length up to 40 compare every byte (the compare
 * uses word loads): a change at any position is a mismatch. */
Test(engine_precedence, literal_compare_every_length)
{
  for (gsize len = 1; len <= 40; len++)
    {
      gchar *key = g_malloc(len + 1);
      for (gsize i = 0; i < len; i++)
        key[i] = 'a' + (i * 7) % 26;
      key[len] = '\0';
      gchar *pattern = g_strconcat("=", key, NULL);
      const gchar *patterns[] = { pattern, NULL };
      PdbRadix *radix = te_build(patterns);

      gchar *got = te_lookup(radix, pattern);
      cr_expect_str_eq(got, "r1 complete", "length %zu: exact", len);
      g_free(got);
      for (gsize i = 1; i <= len; i++)
        {
          gchar *message = g_strdup(pattern);
          message[i] = message[i] == 'z' ? 'y' : 'z';
          got = te_lookup(radix, message);
          cr_expect_str_eq(got, "none", "length %zu: byte %zu changed in '%s'", len, i, message);
          g_free(got);
          g_free(message);
        }
      got = te_lookup_len(radix, pattern, len);   /* one byte short */
      cr_expect_str_eq(got, "none", "length %zu: truncated", len);
      g_free(got);
      pdb_radix_free(radix);
      g_free(pattern);
      g_free(key);
    }
}

/* Parser type names in dump output, as pdbtool 3.38.1 prints them [pdbtool]. */
Test(engine_precedence, dump_type_names)
{
  const gchar *patterns[] =
  {
    "a@STRING:s@", "b@ESTRING:e: @", "c@QSTRINGX:q:\"@", "d@NUMBER:n@", "e@DOUBLE:f@", "f@IPv4:i@",
    "g@IPv6:i@", "h@IPvANY:i@", "i@MACADDR:m@", "j@LLADDR:l@", "k@EMAIL:e@", "l@HOSTNAME:h@",
    "m@SET:s: @", "n@OPTIONALSET:o: @", "o@ANYSTRING:a@", "p@NLSTRING:n@", "q@PCRE:p:a@", "r@FLOAT:f@", NULL
  };
  const gchar *names[] =
  {
    "@STRING:s@", "@ESTRING:e@", "@QSTRING:q@", "@NUMBER:n@", "@FLOAT:f@", "@IPv4:i@", "@IPv6:i@",
    "@IP:i@", "@MACADDR:m@", "@LLADDR:l@", "@EMAIL:e@", "@HOSTNAME:h@", "@SET:s@", "@UNKNOWN:o@",
    "@ANYSTRING:a@", "@NLSTRING:n@", "@PCRE:p@", "@FLOAT:f@",
  };
  PdbRadix *radix = te_build(patterns);
  gchar *dump = _dump(radix);
  gchar **lines = g_strsplit(dump, "\n", -1);
  guint found = 0;

  for (guint i = 0; lines[i]; i++)
    {
      gchar *at = strchr(lines[i], '@');
      if (!at)
        continue;
      cr_assert_lt(found, G_N_ELEMENTS(names), "extra parser line '%s'", lines[i]);
      cr_expect(g_str_has_prefix(at, names[found]), "line '%s': expected '%s'", lines[i], names[found]);
      found++;
    }
  cr_expect_eq(found, G_N_ELEMENTS(names));
  g_strfreev(lines);
  g_free(dump);
  pdb_radix_free(radix);
}

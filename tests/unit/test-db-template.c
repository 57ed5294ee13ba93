/*
 * test-db-template.c: the template subset of db/template.h.
 *
 * Rows marked [pdbtool] were checked with Debian's pdbtool 3.38.1: a rule
 * with <value name="x">TEMPLATE</value> matched "foo 12 bob" with
 * `foo @NUMBER:n@ @STRING:user@`, and the printed x= (or the load error)
 * is the expected result here.
 */
#include <criterion/criterion.h>
#include <glib.h>
#include <string.h>

#include "db/database.h"
#include "db/template.h"

/* The message: user=bob, n=12, empty=""; one message back: user=alice. */
static const gchar *
lookup(const gchar *name, guint context_index, gssize *length, gpointer user_data)
{
  static const struct
  {
    guint index;
    const gchar *name;
    const gchar *value;
  } values[] =
  {
    { 0, "user", "bob" },
    { 0, "n", "12" },
    { 0, "empty", "" },
    { 0, ".classifier.class", "c" },
    { 1, "user", "alice" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS(values); i++)
    if (values[i].index == context_index && strcmp(values[i].name, name) == 0)
      {
        *length = -1;
        return values[i].value;
      }
  return NULL;
}

typedef struct
{
  const gchar *text;
  const gchar *expected;       /* NULL: compile error */
  PdbTypeHint hint;
  const gchar *error_part;     /* a substring of the error */
} TemplateRow;

static const TemplateRow value_rows[] =
{
  { "plain text", "plain text", PDB_TYPE_HINT_NONE, NULL },
  { "$user", "bob", PDB_TYPE_HINT_NONE, NULL },                           /* [pdbtool] */
  { "${user}", "bob", PDB_TYPE_HINT_NONE, NULL },                         /* [pdbtool] */
  { "$user.x", "bob.x", PDB_TYPE_HINT_NONE, NULL },                       /* [pdbtool] '.' ends a name */
  { "$.classifier.class", "$.classifier.class", PDB_TYPE_HINT_NONE, NULL }, /* [pdbtool] */
  { "${.classifier.class}", "c", PDB_TYPE_HINT_NONE, NULL },              /* [pdbtool] */
  { "$user_x", "", PDB_TYPE_HINT_NONE, NULL },                            /* [pdbtool] */
  { "$user$user", "bobbob", PDB_TYPE_HINT_NONE, NULL },                   /* [pdbtool] */
  { "${user}${n}", "bob12", PDB_TYPE_HINT_NONE, NULL },                   /* [pdbtool] */
  { "$$", "$", PDB_TYPE_HINT_NONE, NULL },                                /* [pdbtool] */
  { "$$$", "$$", PDB_TYPE_HINT_NONE, NULL },                              /* [pdbtool] */
  { "$${user}", "${user}", PDB_TYPE_HINT_NONE, NULL },                    /* [pdbtool] */
  { "a$$b", "a$b", PDB_TYPE_HINT_NONE, NULL },                            /* [pdbtool] */
  { "a$", "a$", PDB_TYPE_HINT_NONE, NULL },                               /* [pdbtool] */
  { "$ user", "$ user", PDB_TYPE_HINT_NONE, NULL },                       /* [pdbtool] */
  { "$-x", "$-x", PDB_TYPE_HINT_NONE, NULL },                             /* [pdbtool] */
  { "${user}@0", "bob", PDB_TYPE_HINT_NONE, NULL },                       /* [pdbtool] */
  /* outside a correlation context (the lookup answers no length: one
   * message) a look back is empty, as in 3.38 */
  { "${user}@1", "", PDB_TYPE_HINT_NONE, NULL },                          /* [pdbtool] */
  { "${user}@1x", "x", PDB_TYPE_HINT_NONE, NULL },                        /* [pdbtool] */
  { "${user}@@${n}", "bob@12", PDB_TYPE_HINT_NONE, NULL },                /* [pdbtool] */
  { "${user}@@@", "bob@@", PDB_TYPE_HINT_NONE, NULL },                    /* [pdbtool] */
  { "$user@@", "bob@@", PDB_TYPE_HINT_NONE, NULL },                       /* [pdbtool] */
  { "$(echo a)@@b", "a@b", PDB_TYPE_HINT_NONE, NULL },                    /* [pdbtool] */
  { "${nope:-d}@1", "", PDB_TYPE_HINT_NONE, NULL },                       /* [pdbtool] */
  { "${user}@99999999999", "", PDB_TYPE_HINT_NONE, NULL },                /* [pdbtool] */
  { "${user}@", "bob@", PDB_TYPE_HINT_NONE, NULL },                       /* [pdbtool] */
  { "${user}@x", "bob@x", PDB_TYPE_HINT_NONE, NULL },                     /* [pdbtool] */
  { "${user}@-1", "bob@-1", PDB_TYPE_HINT_NONE, NULL },                   /* [pdbtool] */
  { "$user@0", "bob@0", PDB_TYPE_HINT_NONE, NULL },                       /* [pdbtool] @N only after braces */
  { "${zz:-d}", "d", PDB_TYPE_HINT_NONE, NULL },                          /* [pdbtool] */
  { "${user:-d}", "bob", PDB_TYPE_HINT_NONE, NULL },                      /* [pdbtool] */
  { "${empty:-d}", "d", PDB_TYPE_HINT_NONE, NULL },
  { "${zz:-$user}", "$user", PDB_TYPE_HINT_NONE, NULL },                  /* [pdbtool] default is literal */
  { "${}", "", PDB_TYPE_HINT_NONE, NULL },                                /* [pdbtool] */
  { "${ user}", "", PDB_TYPE_HINT_NONE, NULL },                           /* [pdbtool] */
  { "$1", "", PDB_TYPE_HINT_NONE, NULL },                                 /* [pdbtool] */
  { "int64(${n})", "12", PDB_TYPE_HINT_INT64, NULL },                     /* [pdbtool] */
  { "int(${n})", "12", PDB_TYPE_HINT_INT32, NULL },                       /* [pdbtool] */
  { "int32(${n})", "12", PDB_TYPE_HINT_INT32, NULL },                     /* [pdbtool] */
  { "string(x)", "x", PDB_TYPE_HINT_STRING, NULL },                       /* [pdbtool] */
  { "literal(x)", "x", PDB_TYPE_HINT_LITERAL, NULL },                     /* [pdbtool] */
  { "boolean(x)", "x", PDB_TYPE_HINT_BOOLEAN, NULL },                     /* [pdbtool] */
  { "double(x)", "x", PDB_TYPE_HINT_DOUBLE, NULL },                       /* [pdbtool] */
  { "float(1)", "1", PDB_TYPE_HINT_DOUBLE, NULL },                        /* [pdbtool] */
  { "datetime(x)", "x", PDB_TYPE_HINT_DATETIME, NULL },                   /* [pdbtool] */
  { "list(x)", "x", PDB_TYPE_HINT_LIST, NULL },                           /* [pdbtool] */
  { "json(x)", "x", PDB_TYPE_HINT_JSON, NULL },                           /* [pdbtool] */
  { "null(x)", "x", PDB_TYPE_HINT_NULL, NULL },                           /* [pdbtool] */
  { "int64()", "", PDB_TYPE_HINT_INT64, NULL },                           /* [pdbtool] */
  { "string( $user )", " bob ", PDB_TYPE_HINT_STRING, NULL },             /* [pdbtool] */
  { "int64(()", "(", PDB_TYPE_HINT_INT64, NULL },                         /* [pdbtool] last ')' closes */
  { "x a(b)", "x a(b)", PDB_TYPE_HINT_NONE, NULL },                       /* [pdbtool] */
  { "(b)", "(b)", PDB_TYPE_HINT_NONE, NULL },                             /* [pdbtool] */
  { " int64(${n})", " int64(12)", PDB_TYPE_HINT_NONE, NULL },             /* [pdbtool] */
  { "int64(${n}) ", "int64(12) ", PDB_TYPE_HINT_NONE, NULL },             /* [pdbtool] */
  { "int64(${n}", "int64(12", PDB_TYPE_HINT_NONE, NULL },                 /* [pdbtool] */
  { "int64(${n})x", "int64(12)x", PDB_TYPE_HINT_NONE, NULL },             /* [pdbtool] */
  { "1a(b)", "1a(b)", PDB_TYPE_HINT_NONE, NULL },                         /* [pdbtool] */
  { "a.b(c)", "a.b(c)", PDB_TYPE_HINT_NONE, NULL },                       /* [pdbtool] */
  { "a-(b)", "a-(b)", PDB_TYPE_HINT_NONE, NULL },                         /* [pdbtool] */
  { "a b(c)", "a b(c)", PDB_TYPE_HINT_NONE, NULL },                       /* [pdbtool] */
  { "ab)", "ab)", PDB_TYPE_HINT_NONE, NULL },                             /* [pdbtool] */
  { "", "", PDB_TYPE_HINT_NONE, NULL },
  /* 3.38 rejects the whole database for these. */
  { "a(b)", NULL, PDB_TYPE_HINT_NONE, "unknown type 'a'" },              /* [pdbtool] */
  { "default(x)", NULL, PDB_TYPE_HINT_NONE, "unknown type 'default'" },  /* [pdbtool] */
  { "INT64(${n})", NULL, PDB_TYPE_HINT_NONE, "unknown type 'INT64'" },   /* [pdbtool] */
  { "int64 (${n})", NULL, PDB_TYPE_HINT_NONE, "unknown type 'int64 '" }, /* [pdbtool] */
  { "_a(b)", NULL, PDB_TYPE_HINT_NONE, "unknown type '_a'" },            /* [pdbtool] */
  { "a_b(c)", NULL, PDB_TYPE_HINT_NONE, "unknown type 'a_b'" },          /* [pdbtool] */
  { "a(b)c(d)", NULL, PDB_TYPE_HINT_NONE, "unknown type 'a'" },          /* [pdbtool] */
  { "x(y))", NULL, PDB_TYPE_HINT_NONE, "unknown type 'x'" },             /* [pdbtool] */
  { "integer(1)", NULL, PDB_TYPE_HINT_NONE, "unknown type 'integer'" },  /* [pdbtool] */
  { "nvp(x)", NULL, PDB_TYPE_HINT_NONE, "unknown type 'nvp'" },          /* [pdbtool] */
  { "${user", NULL, PDB_TYPE_HINT_NONE, "'}' is missing" },              /* [pdbtool] */
  { "${zz:d}", NULL, PDB_TYPE_HINT_NONE, "unknown substitution" },       /* [pdbtool] */
  { "$(nosuch x)", NULL, PDB_TYPE_HINT_NONE, "unknown template function 'nosuch'" }, /* [pdbtool] */
  { "$(ECHO x)", NULL, PDB_TYPE_HINT_NONE, "unknown template function 'ECHO'" },     /* [pdbtool] */
  { "$(echo x", NULL, PDB_TYPE_HINT_NONE, "')' is missing" },                        /* [pdbtool] */
  { "$(echo \"a\\\"b\")", NULL, PDB_TYPE_HINT_NONE, "quote at position 12" },       /* [pdbtool] no escapes in quotes */
  { "$(sanitize --bogus a)", NULL, PDB_TYPE_HINT_NONE, "Unknown option --bogus" }, /* [pdbtool] */
  { "$(sanitize -r)", NULL, PDB_TYPE_HINT_NONE, "Missing argument for -r" },
  { "$(echo ${user)", NULL, PDB_TYPE_HINT_NONE, "'}' is missing" },
  { "$(if (\"a\" eq \"a\") t)", NULL, PDB_TYPE_HINT_NONE, "$(if) requires three arguments" }, /* [pdbtool] */
  { "$(if (level(nosuch)) t f)", NULL, PDB_TYPE_HINT_NONE, "unknown level 'nosuch'" },   /* 3.38 refuses it too */
  { "int64(${n)", NULL, PDB_TYPE_HINT_NONE, "'}' is missing" },
};

Test(template, values_with_type_hints)
{
  for (gsize i = 0; i < G_N_ELEMENTS(value_rows); i++)
    {
      const TemplateRow *row = &value_rows[i];
      GError *error = NULL;
      PdbTemplate *tmpl = pdb_template_compile(row->text, TRUE, &error);

      if (!row->expected)
        {
          cr_expect_null(tmpl, "row %zu '%s': should not compile", i, row->text);
          if (error)
            {
              cr_expect(strstr(error->message, row->error_part) != NULL,
                        "row %zu '%s': error '%s' should contain '%s'", i, row->text, error->message,
                        row->error_part);
              cr_expect(error->domain == PDB_DB_ERROR && error->code == PDB_DB_ERROR_TEMPLATE,
                        "row %zu: error domain/code", i);
            }
          else
            cr_expect_fail("row %zu '%s': no error set", i, row->text);
          g_clear_error(&error);
          pdb_template_free(tmpl);
          continue;
        }

      cr_expect_not_null(tmpl, "row %zu '%s': %s", i, row->text, error ? error->message : "");
      if (!tmpl)
        {
          g_clear_error(&error);
          continue;
        }
      GString *out = g_string_new(NULL);
      pdb_template_append(tmpl, lookup, NULL, out);
      cr_expect_str_eq(out->str, row->expected, "row %zu '%s': got '%s', expected '%s'",
                       i, row->text, out->str, row->expected);
      cr_expect_eq(pdb_template_get_type_hint(tmpl), row->hint, "row %zu '%s': type hint %d, expected %d",
                   i, row->text, pdb_template_get_type_hint(tmpl), row->hint);
      g_string_free(out, TRUE);
      pdb_template_free(tmpl);
    }
}

Test(template, without_type_hint_parentheses_are_text)
{
  /* context-id is compiled without type hints: `a(b)` is plain text. */
  PdbTemplate *tmpl = pdb_template_compile("a($user)", FALSE, NULL);
  GString *out = g_string_new(NULL);

  cr_assert_not_null(tmpl);
  pdb_template_append(tmpl, lookup, NULL, out);
  cr_expect_str_eq(out->str, "a(bob)");
  cr_expect_eq(pdb_template_get_type_hint(tmpl), PDB_TYPE_HINT_NONE);
  g_string_free(out, TRUE);
  pdb_template_free(tmpl);
}

Test(template, context_index_and_literal_flags)
{
  static const struct
  {
    const gchar *text;
    guint max_index;
    gboolean literal;
  } rows[] =
  {
    { "abc", 0, TRUE },
    { "a$$b", 0, TRUE },
    { "$user", 0, FALSE },
    { "${user}@2 ${n}@10 ${x}", 10, FALSE },
    { "${user}@0", 0, FALSE },
  };

  for (gsize i = 0; i < G_N_ELEMENTS(rows); i++)
    {
      PdbTemplate *tmpl = pdb_template_compile(rows[i].text, TRUE, NULL);
      cr_assert_not_null(tmpl, "row %zu", i);
      cr_expect_eq(pdb_template_get_max_context_index(tmpl), rows[i].max_index,
                   "row %zu '%s': max index %u", i, rows[i].text, pdb_template_get_max_context_index(tmpl));
      cr_expect_eq(pdb_template_is_literal(tmpl), rows[i].literal, "row %zu '%s': literal", i, rows[i].text);
      pdb_template_free(tmpl);
    }
}

Test(template, context_lookup_receives_index)
{
  /* A lookup that answers with the index it was asked for. */
  PdbTemplate *tmpl = pdb_template_compile("${a}@3/${b}@0/$c", TRUE, NULL);
  GString *out = g_string_new(NULL);

  cr_assert_not_null(tmpl);
  pdb_template_append(tmpl, lookup, NULL, out);
  cr_expect_str_eq(out->str, "//");
  g_string_truncate(out, 0);
  pdb_template_append(tmpl, NULL, NULL, out);
  cr_expect_str_eq(out->str, "//", "no lookup: every reference is empty");
  g_string_free(out, TRUE);
  pdb_template_free(tmpl);
}

Test(template, type_hint_names)
{
  static const struct
  {
    const gchar *name;
    gboolean ok;
    PdbValueType value_type;
  } rows[] =
  {
    { "string", TRUE, PDB_VALUE_STRING },
    { "int64", TRUE, PDB_VALUE_INT64 },
    { "int32", TRUE, PDB_VALUE_INT64 },
    { "int", TRUE, PDB_VALUE_INT64 },
    { "double", TRUE, PDB_VALUE_DOUBLE },
    { "float", TRUE, PDB_VALUE_DOUBLE },
    { "boolean", TRUE, PDB_VALUE_STRING },
    { "datetime", TRUE, PDB_VALUE_STRING },
    { "Int64", FALSE, PDB_VALUE_STRING },
    { "integer", FALSE, PDB_VALUE_STRING },
    { "", FALSE, PDB_VALUE_STRING },
  };

  for (gsize i = 0; i < G_N_ELEMENTS(rows); i++)
    {
      PdbTypeHint hint = PDB_TYPE_HINT_NONE;
      gboolean ok = pdb_type_hint_parse(rows[i].name, -1, &hint);

      cr_expect_eq(ok, rows[i].ok, "row %zu '%s'", i, rows[i].name);
      if (ok)
        cr_expect_eq(pdb_type_hint_to_value_type(hint), rows[i].value_type, "row %zu '%s'", i, rows[i].name);
    }
}

Test(template, random_texts_compile_or_fail_cleanly)
{
  /* Texts over the template's special characters: each either compiles
   * and expands, or fails with a message; never anything else (ASan). */
  static const gchar alphabet[] = "$${}()@:-_.a1 x";
  GRand *rand = g_rand_new_with_seed(3838);
  gint compiled = 0, failed = 0;

  for (gint i = 0; i < 20000; i++)
    {
      gchar text[16];
      gint length = g_rand_int_range(rand, 0, sizeof(text));
      for (gint j = 0; j < length; j++)
        text[j] = alphabet[g_rand_int_range(rand, 0, sizeof(alphabet) - 1)];
      text[length] = '\0';

      GError *error = NULL;
      PdbTemplate *tmpl = pdb_template_compile(text, g_rand_boolean(rand), &error);
      if (tmpl)
        {
          GString *out = g_string_new(NULL);
          pdb_template_append(tmpl, lookup, NULL, out);
          g_string_free(out, TRUE);
          pdb_template_free(tmpl);
          cr_assert_null(error, "'%s': compiled and set an error", text);
          compiled++;
        }
      else
        {
          cr_assert(error && error->message[0], "'%s': failed without a message", text);
          g_error_free(error);
          failed++;
        }
    }
  cr_expect_gt(compiled, 1000);
  cr_expect_gt(failed, 1000);
  g_rand_free(rand);
}

/* Template functions: each row was a <value> in a rule that pdbtool 3.38.1
 * matched on "foo 12 bob" (user=bob, n=12); expected is what it printed. */
static const TemplateRow function_rows[] =
{
  { "$(echo ${user} x)", "bob x" },
  { "$(echo \"a  b\" 'c d' e\\ f)", "a  b c d e f" },
  { "$(echo $(uppercase ${user}) z)", "BOB z" },
  { "$(echo (a  b) c)", "(a  b) c" },
  { "$(echo $(echo \"a  b\")  c)", "a  b c" },
  { "$(echo a\\)b \"a)b\" 'a(b')", "a)b a)b a(b" },
  { "$( echo a )", "a" },
  { "$(echo \"\" \"\" x)", "  x" },
  { "$(echo $$x ${nope:-dflt})", "$x dflt" },
  { "$(echo \"t\\tt\")", "t\\tt" },
  { "$(echo a))", "a)" },
  { "x$()y", "y" },
  { "$(echo a)x$()", "a" },
  { "a${user}$()b", "abobb" },
  { "$(lowercase \"ÄB\" Cd)", "äb cd" },
  { "$(uppercase ${user} \"straße\")", "BOB STRASSE" },
  { "$(length ${user} \"\" ${nope} \"ä\")", "3 0 0 2" },
  { "$(length)", "" },
  { "$(substr ${user} 1)", "ob" },
  { "$(substr \"abcdef\" 1 3)", "bcd" },
  { "$(substr \"abcdef\" -3 2)", "de" },
  { "$(substr \"abcdef\" 2 -1)", "cde" },
  { "$(substr \"abcdef\" -6 2)", "ab" },
  { "$(substr \"abcdef\" 6)", "" },
  { "$(substr \"abcdef\" -99 2)", "" },
  { "$(substr \"abcdef\" 1 99)", "bcdef" },
  { "$(substr \"abcdef\" 2 0)", "" },
  { "$(substr \"abcdef\" \" 1\")", "bcdef" },
  { "$(substr \"abcdef\" \"1 \")", "" },
  { "$(substr \"abcdef\" 1x)", "" },
  { "$(substr \"abcdef\" ${n})", "" },
  { "$(substr \"abcdef\" 1 2 3)", "" },
  { "$(strip \"  a  \" \" b\" \"\" c \"a  b  \")", "a b c a  b" },
  { "$(sanitize a/b.c ${user})", "a_b.c/bob" },
  { "$(sanitize \"a\tb\")", "a_b" },
  { "$(sanitize --no-ctrl-chars --invalid-chars ab --replacement X a/b.c)", "X/X.c" },
  { "$(sanitize -i ab -i c abc)", "ab_" },
  { "$(sanitize --replacement=Z a/b)", "aZb" },
  { "$(sanitize -r \"\" a/b)", "a" },
  { "$(replace-delimiter \",.\" \";\" \"a,b.c\")", "a;b;c" },
  { "$(replace-delimiter \",\" \";:\" \"a,b\")", "a;b" },
  { "$(replace-delimiter \",\" \"\" \"a,b\")", "a" },
  { "$(replace-delimiter \",\" \";\")", "" },
  { "$(context-length)$(context-length x)", "11" },
  { "$(context-length $(nosuch) \"x y\")", "1" },          /* arguments are not even compiled */
  { "$(echo $(length a\\ b))", "1 1" },                     /* `\x` is undone inside groups too */
  { "$(echo (a\\ b))", "(a b)" },
  { "$(echo $(echo a\\)b))", "ab)" },
  { "$(echo (a \"b\\\\c\" d\\\\e))", "(a \"b\\\\c\" d\\e)" },  /* but not inside quotes */
  { "$(if (\"${user}\" == \"bob\") yes no)", "yes" },
  { "$(if (\"yes\" == \"no\") t f)", "t" },                /* numeric: both are 0 */
  { "$(if (\"10\" gt \"9\") t f)", "f" },
  { "$(if (not \"a\" eq \"b\" and not (\"c\" eq \"d\" or \"e\" eq \"f\")) t f)", "t" },
  { "$(if (\"a\" eq \"b\") $(uppercase ${user}) $(length ${user}@1))", "0" },
  { "$(echo $(if ('${n}' ne 'x') \"${user} ok\" f) z)", "bob ok z" },
};

Test(template, functions_as_pdbtool)
{
  for (gsize i = 0; i < G_N_ELEMENTS(function_rows); i++)
    {
      const TemplateRow *row = &function_rows[i];
      GError *error = NULL;
      PdbTemplate *tmpl = pdb_template_compile(row->text, TRUE, &error);

      cr_assert_not_null(tmpl, "row %zu '%s': does not compile: %s", i, row->text,
                         error ? error->message : "?");
      GString *out = g_string_new("prefix:");
      pdb_template_append(tmpl, lookup, NULL, out);
      cr_expect_str_eq(out->str + strlen("prefix:"), row->expected, "row %zu '%s'", i, row->text);
      g_string_free(out, TRUE);
      pdb_template_free(tmpl);
    }
}

/* $(context-length) asks the lookup at PDB_TEMPLATE_CONTEXT_LENGTH_INDEX. */
static const gchar *
context_lookup(const gchar *name, guint context_index, gssize *length, gpointer user_data)
{
  if (context_index == PDB_TEMPLATE_CONTEXT_LENGTH_INDEX)
    {
      cr_expect_str_eq(name, "");
      *length = -1;
      return user_data;
    }
  return lookup(name, context_index, length, NULL);
}

Test(template, context_length_and_reads_context)
{
  static const struct
  {
    const gchar *text;
    gboolean reads_context;
    guint max_index;
  } rows[] =
  {
    { "$(context-length)", TRUE, 0 },
    { "$(echo $(context-length))", TRUE, 0 },
    { "$(echo ${user}@2)", TRUE, 2 },
    { "${user}@1", TRUE, 1 },
    { "$(uppercase ${user})", FALSE, 0 },
    { "$(if (\"${user}@3\" eq \"x\") a b)", TRUE, 3 },
    { "$(if (\"$(context-length)\" > \"1\") a b)", TRUE, 0 },
    { "${user}", FALSE, 0 },
  };

  for (gsize i = 0; i < G_N_ELEMENTS(rows); i++)
    {
      PdbTemplate *tmpl = pdb_template_compile(rows[i].text, FALSE, NULL);

      cr_assert_not_null(tmpl, "row %zu '%s'", i, rows[i].text);
      cr_expect_eq(pdb_template_reads_context(tmpl), rows[i].reads_context, "row %zu '%s'", i, rows[i].text);
      cr_expect_eq(pdb_template_get_max_context_index(tmpl), rows[i].max_index, "row %zu '%s'", i, rows[i].text);
      pdb_template_free(tmpl);
    }

  PdbTemplate *tmpl = pdb_template_compile("n=$(context-length) $(length $(context-length)) ${user}@1", FALSE, NULL);
  GString *out = g_string_new(NULL);
  pdb_template_append(tmpl, context_lookup, (gpointer) "12", out);
  cr_expect_str_eq(out->str, "n=12 2 alice");
  g_string_truncate(out, 0);
  pdb_template_append(tmpl, lookup, NULL, out);
  cr_expect_str_eq(out->str, "n=1 1 ", "without a context it is 1 and @1 is empty");
  g_string_free(out, TRUE);
  pdb_template_free(tmpl);
}

/* A context of three messages; index 0 is the newest. */
static const gchar *
three_messages(const gchar *name, guint context_index, gssize *length, gpointer user_data)
{
  static const gchar *const n[] = { "3", "x", "5" };

  (void) user_data;
  *length = -1;
  if (context_index == PDB_TEMPLATE_CONTEXT_LENGTH_INDEX)
    return "3";
  if (context_index < G_N_ELEMENTS(n) && strcmp(name, "n") == 0)
    return n[context_index];
  return NULL;
}

Test(template, context_functions_over_a_context)
{
  static const struct
  {
    const gchar *text;
    const gchar *expected;
  } rows[] =
  {
    { "$(context-values ${n})", "5,x,3" },                 /* oldest first */
    { "$(sum ${n})|$(min ${n})|$(max ${n})|$(average ${n})", "8|3|5|4" },   /* "x" is skipped */
    { "$(grep (\"${n}\" ne \"x\") ${n} y)", "5,y,3,y" },
    { "$(context-lookup --max-count 1 (\"${n}\" ne \"x\") \"${n} z\")", "\"5 z\"" },
    { "$(echo ${n}@1)|$(context-length)@1|$(context-values ${n})@2|${n}@3|${nope:-d}@2", "x|1|5||d" },
    { "$(context-length)|$(list-count $(context-values ${n} ${n}))", "3|6" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS(rows); i++)
    {
      GError *error = NULL;
      PdbTemplate *tmpl = pdb_template_compile(rows[i].text, FALSE, &error);

      cr_assert_not_null(tmpl, "row %zu '%s': %s", i, rows[i].text, error ? error->message : "");
      cr_expect(pdb_template_reads_context(tmpl), "row %zu '%s' reads the context", i, rows[i].text);
      GString *out = g_string_new(NULL);
      pdb_template_append(tmpl, three_messages, NULL, out);
      cr_expect_str_eq(out->str, rows[i].expected, "row %zu '%s'", i, rows[i].text);
      g_string_free(out, TRUE);
      pdb_template_free(tmpl);
    }
}

Test(template, iterate_keeps_its_state_and_says_so)
{
  PdbTemplate *tmpl = pdb_template_compile("$(iterate \"$(+ 1 $_)\" 7)", FALSE, NULL);
  PdbTemplate *plain = pdb_template_compile("$(map \"$(+ 1 $_)\" 7,8)", FALSE, NULL);
  GString *out = g_string_new(NULL);

  cr_assert_not_null(tmpl);
  cr_expect(pdb_template_is_stateful(tmpl));
  cr_expect_not(pdb_template_is_stateful(plain));
  for (gint i = 0; i < 3; i++)
    {
      pdb_template_append(tmpl, lookup, NULL, out);
      g_string_append_c(out, ' ');
    }
  cr_expect_str_eq(out->str, "7 8 9 ");
  g_string_truncate(out, 0);
  pdb_template_append(plain, lookup, NULL, out);
  cr_expect_str_eq(out->str, "8,9");
  g_string_free(out, TRUE);
  pdb_template_free(tmpl);
  pdb_template_free(plain);
}

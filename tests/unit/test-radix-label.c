/*
 * test-radix-label.c: labels stored next to values in the frozen tree
 * (pdb_radix_set_label_func(), radix.h).
 *
 * The direct `match` path prints match->label instead of reading the rule,
 * so the label must always be the label of match->value: for complete
 * matches, for prefix (partial) matches, after a lookup that found nothing,
 * on nodes that also have children, and it must be absent when the function
 * gives none or a label is too long.
 */
#include "test-engine.h"

/* Value i+1 has the label "L<i+1>"; value 3 has none; value 4 one of 256 bytes. */
static const gchar *
label_of(gpointer value, gsize *length)
{
  static gchar labels[8][8];
  static gchar long_label[PDB_RADIX_MAX_LABEL + 2];
  gint v = GPOINTER_TO_INT(value);

  if (v == 3)
    return NULL;
  if (v == 4)
    {
      memset(long_label, 'x', sizeof(long_label) - 1);
      *length = PDB_RADIX_MAX_LABEL + 1;
      return long_label;
    }
  g_snprintf(labels[v % 8], sizeof(labels[0]), "L%d", v);
  *length = strlen(labels[v % 8]);
  return labels[v % 8];
}

static PdbRadix *
build_labelled(const gchar *const *patterns)
{
  PdbRadix *radix = pdb_radix_new();

  pdb_radix_set_label_func(radix, label_of);
  for (gint i = 0; patterns[i]; i++)
    cr_assert(pdb_radix_insert(radix, patterns[i], GINT_TO_POINTER(i + 1), NULL, NULL),
              "pattern %d", i + 1);
  pdb_radix_freeze(radix);
  return radix;
}

static const gchar *const patterns[] =
{
  "user @STRING:u@ logged in",        /* 1 */
  "user root",                        /* 2: has children below it */
  "user @STRING:u@ logged out",       /* 3: no label */
  "user @ESTRING:x: @x",              /* 4: label too long */
  "user root logged in",              /* 5 */
  "a",                                /* 6: one byte, a label of 2 */
  NULL
};

typedef struct
{
  const gchar *input;
  gint value;          /* 0: no match */
  const gchar *label;  /* NULL: none expected */
} Row;

Test(radix_label, label_follows_the_value)
{
  static const Row rows[] =
  {
    { "user bob logged in", 1, "L1" },
    { "user root", 2, "L2" },
    { "user root logged in", 5, "L5" },
    { "user root logged out", 3, NULL },
    { "user root and more", 2, "L2" },       /* prefix match on a node with children */
    { "user bob logged in and more", 1, "L1" },
    { "user a: x", 4, NULL },
    { "a", 6, "L6" },
    { "b", 0, NULL },
    { "user bob logged", 0, NULL },
  };
  PdbRadix *radix = build_labelled(patterns);
  PdbMatch m;

  pdb_match_init(&m);
  for (gsize i = 0; i < G_N_ELEMENTS(rows); i++)
    {
      const Row *row = &rows[i];
      gboolean found = pdb_radix_lookup(radix, row->input, strlen(row->input), &m);

      cr_expect_eq(found ? GPOINTER_TO_INT(m.value) : 0, row->value, "row %zu '%s': value r%d, want r%d",
                   i, row->input, found ? GPOINTER_TO_INT(m.value) : 0, row->value);
      if (!row->label)
        cr_expect_null(m.label, "row %zu '%s': label '%.*s', want none", i, row->input,
                       (int) m.label_length, m.label ? m.label : "");
      else
        cr_expect(m.label && m.label_length == strlen(row->label)
                  && memcmp(m.label, row->label, m.label_length) == 0,
                  "row %zu '%s': label '%.*s', want '%s'", i, row->input,
                  (int) m.label_length, m.label ? m.label : "", row->label);
    }
  pdb_match_clear(&m);
  pdb_radix_free(radix);
}

/* Without a label function nothing is stored and lookups give the same values. */
Test(radix_label, no_function_no_label)
{
  PdbRadix *plain = te_build(patterns);
  PdbRadix *labelled = build_labelled(patterns);
  static const gchar *const inputs[] = { "user bob logged in", "user root x", "a", "zz" };
  PdbMatch a, b;

  pdb_match_init(&a);
  pdb_match_init(&b);
  for (gsize i = 0; i < G_N_ELEMENTS(inputs); i++)
    {
      gboolean fa = pdb_radix_lookup(plain, inputs[i], strlen(inputs[i]), &a);
      gboolean fb = pdb_radix_lookup(labelled, inputs[i], strlen(inputs[i]), &b);

      cr_expect_eq(fa, fb, "'%s'", inputs[i]);
      cr_expect_eq(a.value, b.value, "'%s'", inputs[i]);
      cr_expect_eq(a.complete, b.complete, "'%s'", inputs[i]);
      cr_expect_eq(a.matched_length, b.matched_length, "'%s'", inputs[i]);
      cr_expect_null(a.label, "'%s': a tree without a label function has no labels", inputs[i]);
    }
  pdb_match_clear(&a);
  pdb_match_clear(&b);
  pdb_radix_free(plain);
  pdb_radix_free(labelled);
}

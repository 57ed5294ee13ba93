/*
 * loader-grammar.c: which element may stand inside which, as syslog-ng
 * 3.38's loader decides it (asked of pdbtool, pinned by
 * tests/differential/test-load-vs-pdbtool.sh).
 *
 * The `transitions` table below is the whole grammar. Its one subtlety is
 * the wrappers: <patterns> and <urls> in a <ruleset>, <patterns>, <tags>,
 * <values> and <urls> in a <rule>, <values> and <tags> in a <message>
 * change nothing in 3.38: what stands inside them is read as if it stood
 * in their parent. So <values> inside <patterns>, <tag> inside <values> or
 * <rules> inside a ruleset's <patterns> load; the loader warns about those
 * (loader.c), since only the element each wrapper is named for belongs in
 * it. A rule also takes <pattern>, <tag>, <value> and <url> directly.
 *
 * Invariant: the table is constant and its per-parent index is built once
 * (g_once), so lookups are thread-safe.
 */
#include "db/loader-private.h"

#include <string.h>

/* Element name of each state. */
static const gchar *const state_elements[] =
{
  [ST_DOCUMENT] = "document",
  [ST_PATTERNDB] = "patterndb",
  [ST_RULESET] = "ruleset",
  [ST_RULESET_PATTERN] = "pattern",
  [ST_RULESET_DESCRIPTION] = "description",
  [ST_RULESET_URL] = "url",
  [ST_RULES] = "rules",
  [ST_RULE] = "rule",
  [ST_RULE_PATTERN] = "pattern",
  [ST_RULE_DESCRIPTION] = "description",
  [ST_RULE_URL] = "url",
  [ST_TAG] = "tag",
  [ST_VALUE] = "value",
  [ST_EXAMPLES] = "examples",
  [ST_EXAMPLE] = "example",
  [ST_TEST_MESSAGE] = "test_message",
  [ST_TEST_VALUES] = "test_values",
  [ST_TEST_VALUE] = "test_value",
  [ST_ACTIONS] = "actions",
  [ST_ACTION] = "action",
  [ST_MESSAGE] = "message",
  [ST_CREATE_CONTEXT] = "create-context",
};

/* The elements wrappers are meant to hold: one string each, so that the
 * loader compares pointers (loader.c). */
static const gchar el_pattern[] = "pattern";
static const gchar el_url[] = "url";
static const gchar el_tag[] = "tag";
static const gchar el_value[] = "value";

/* A wrapper leaves the state as it is (@child == @parent) and names the
 * element it is meant to hold (@wraps); NULL for the other elements. */
static const struct
{
  LoaderState parent;
  const gchar *element;
  LoaderState child;
  const gchar *wraps;
} transitions[] =
{
  { ST_DOCUMENT, "patterndb", ST_PATTERNDB, NULL },
  { ST_PATTERNDB, "ruleset", ST_RULESET, NULL },
  { ST_RULESET, el_pattern, ST_RULESET_PATTERN, NULL },
  { ST_RULESET, "patterns", ST_RULESET, el_pattern },
  { ST_RULESET, "rules", ST_RULES, NULL },
  { ST_RULESET, "description", ST_RULESET_DESCRIPTION, NULL },
  { ST_RULESET, el_url, ST_RULESET_URL, NULL },
  { ST_RULESET, "urls", ST_RULESET, el_url },
  { ST_RULES, "rule", ST_RULE, NULL },
  { ST_RULE, "patterns", ST_RULE, el_pattern },
  { ST_RULE, el_pattern, ST_RULE_PATTERN, NULL },
  { ST_RULE, "description", ST_RULE_DESCRIPTION, NULL },
  { ST_RULE, "urls", ST_RULE, el_url },
  { ST_RULE, el_url, ST_RULE_URL, NULL },
  { ST_RULE, "tags", ST_RULE, el_tag },
  { ST_RULE, el_tag, ST_TAG, NULL },
  { ST_RULE, "values", ST_RULE, el_value },
  { ST_RULE, el_value, ST_VALUE, NULL },
  { ST_RULE, "examples", ST_EXAMPLES, NULL },
  { ST_RULE, "actions", ST_ACTIONS, NULL },
  { ST_EXAMPLES, "example", ST_EXAMPLE, NULL },
  { ST_EXAMPLE, "test_message", ST_TEST_MESSAGE, NULL },
  { ST_EXAMPLE, "test_values", ST_TEST_VALUES, NULL },
  { ST_TEST_VALUES, "test_value", ST_TEST_VALUE, NULL },
  { ST_ACTIONS, "action", ST_ACTION, NULL },
  { ST_ACTION, "message", ST_MESSAGE, NULL },
  { ST_ACTION, "create-context", ST_CREATE_CONTEXT, NULL },
  { ST_CREATE_CONTEXT, "message", ST_MESSAGE, NULL },
  { ST_MESSAGE, "values", ST_MESSAGE, el_value },
  { ST_MESSAGE, el_value, ST_VALUE, NULL },
  { ST_MESSAGE, "tags", ST_MESSAGE, el_tag },
  { ST_MESSAGE, el_tag, ST_TAG, NULL },
};

/* The transitions of each parent state, as indexes into transitions[]
 * (built once), so an element is looked up among its parent's few. */
#define MAX_CHILDREN 12

static struct
{
  guint8 count;
  guint8 index[MAX_CHILDREN];
} children_of[ST_COUNT];

void
loader_grammar_init(void)
{
  static gsize done = 0;

  if (g_once_init_enter(&done))
    {
      for (gsize i = 0; i < G_N_ELEMENTS(transitions); i++)
        {
          LoaderState parent = transitions[i].parent;

          g_assert(children_of[parent].count < MAX_CHILDREN);
          children_of[parent].index[children_of[parent].count++] = (guint8) i;
        }
      g_once_init_leave(&done, 1);
    }
}

gboolean
loader_grammar_child(LoaderState parent, const gchar *element, LoaderState *child,
                     const gchar **element_name, const gchar **wrapper, const gchar **wraps)
{
  for (guint k = 0; k < children_of[parent].count; k++)
    {
      gsize i = children_of[parent].index[k];

      if (transitions[i].element[0] != element[0] || strcmp(transitions[i].element, element) != 0)
        continue;
      *child = transitions[i].child;
      *element_name = transitions[i].element;
      *wrapper = transitions[i].wraps ? transitions[i].element : NULL;
      *wraps = transitions[i].wraps;
      return TRUE;
    }
  return FALSE;
}

gchar *
loader_grammar_expected(LoaderState parent)
{
  GString *expected = g_string_new(NULL);

  for (gsize i = 0; i < G_N_ELEMENTS(transitions); i++)
    {
      if (transitions[i].parent != parent)
        continue;
      if (expected->len)
        g_string_append(expected, ", ");
      g_string_append_printf(expected, "<%s>", transitions[i].element);
    }
  return g_string_free(expected, FALSE);
}

const gchar *
loader_grammar_element(LoaderState state)
{
  return state_elements[state];
}

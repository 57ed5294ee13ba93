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
 * Invariant: the table is constant; lookups are thread-safe.
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

/* @child == @parent with @wrapper set: a wrapper. */
static const struct
{
  LoaderState parent;
  const gchar *element;
  LoaderState child;
  gboolean wrapper;
} transitions[] =
{
  { ST_DOCUMENT, "patterndb", ST_PATTERNDB, FALSE },
  { ST_PATTERNDB, "ruleset", ST_RULESET, FALSE },
  { ST_RULESET, "pattern", ST_RULESET_PATTERN, FALSE },
  { ST_RULESET, "patterns", ST_RULESET, TRUE },
  { ST_RULESET, "rules", ST_RULES, FALSE },
  { ST_RULESET, "description", ST_RULESET_DESCRIPTION, FALSE },
  { ST_RULESET, "url", ST_RULESET_URL, FALSE },
  { ST_RULESET, "urls", ST_RULESET, TRUE },
  { ST_RULES, "rule", ST_RULE, FALSE },
  { ST_RULE, "patterns", ST_RULE, TRUE },
  { ST_RULE, "pattern", ST_RULE_PATTERN, FALSE },
  { ST_RULE, "description", ST_RULE_DESCRIPTION, FALSE },
  { ST_RULE, "urls", ST_RULE, TRUE },
  { ST_RULE, "url", ST_RULE_URL, FALSE },
  { ST_RULE, "tags", ST_RULE, TRUE },
  { ST_RULE, "tag", ST_TAG, FALSE },
  { ST_RULE, "values", ST_RULE, TRUE },
  { ST_RULE, "value", ST_VALUE, FALSE },
  { ST_RULE, "examples", ST_EXAMPLES, FALSE },
  { ST_RULE, "actions", ST_ACTIONS, FALSE },
  { ST_EXAMPLES, "example", ST_EXAMPLE, FALSE },
  { ST_EXAMPLE, "test_message", ST_TEST_MESSAGE, FALSE },
  { ST_EXAMPLE, "test_values", ST_TEST_VALUES, FALSE },
  { ST_TEST_VALUES, "test_value", ST_TEST_VALUE, FALSE },
  { ST_ACTIONS, "action", ST_ACTION, FALSE },
  { ST_ACTION, "message", ST_MESSAGE, FALSE },
  { ST_ACTION, "create-context", ST_CREATE_CONTEXT, FALSE },
  { ST_CREATE_CONTEXT, "message", ST_MESSAGE, FALSE },
  { ST_MESSAGE, "values", ST_MESSAGE, TRUE },
  { ST_MESSAGE, "value", ST_VALUE, FALSE },
  { ST_MESSAGE, "tags", ST_MESSAGE, TRUE },
  { ST_MESSAGE, "tag", ST_TAG, FALSE },
};

/* What each wrapper is named for. */
static const struct
{
  const gchar *wrapper;
  const gchar *wrapped;
} wrapped_elements[] =
{
  { "patterns", "pattern" },
  { "urls", "url" },
  { "tags", "tag" },
  { "values", "value" },
};

gboolean
loader_grammar_child(LoaderState parent, const gchar *element, LoaderState *child, const gchar **wrapper)
{
  for (gsize i = 0; i < G_N_ELEMENTS(transitions); i++)
    {
      if (transitions[i].parent != parent || transitions[i].element[0] != element[0]
          || strcmp(transitions[i].element, element) != 0)
        continue;
      *child = transitions[i].child;
      *wrapper = transitions[i].wrapper ? transitions[i].element : NULL;
      return TRUE;
    }
  return FALSE;
}

const gchar *
loader_grammar_wrapped(const gchar *wrapper)
{
  for (gsize i = 0; i < G_N_ELEMENTS(wrapped_elements); i++)
    if (strcmp(wrapped_elements[i].wrapper, wrapper) == 0)
      return wrapped_elements[i].wrapped;
  return NULL;
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

gboolean
loader_grammar_holds_text(LoaderState state)
{
  switch (state)
    {
    case ST_RULESET_PATTERN:
    case ST_RULESET_DESCRIPTION:
    case ST_RULESET_URL:
    case ST_RULE_PATTERN:
    case ST_RULE_DESCRIPTION:
    case ST_RULE_URL:
    case ST_TAG:
    case ST_VALUE:
    case ST_EXAMPLE:
    case ST_TEST_MESSAGE:
    case ST_TEST_VALUE:
      return TRUE;
    default:
      return FALSE;
    }
}

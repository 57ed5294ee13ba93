/*
 * template-func-context.c: the functions of the 3.38 basic set that read the
 * correlation context, take conditions or apply a template to each element
 * of a list, with the results pdbtool 3.38 gives:
 *
 *   $(context-length)         the number of messages in the context (1 outside
 *                             one); its arguments are ignored, not compiled
 *   $(context-values T...)    for each message of the context (oldest first),
 *                             each T expanded for it, as one list
 *   $(context-lookup [-m N] (COND) T...)  as context-values, for the messages
 *                             where COND holds; at most N of them (0: all)
 *   $(grep [-m N] (COND) T...)  as context-lookup, the values joined by `,`
 *                             without list quoting
 *   $(if (COND) THEN ELSE)    THEN when COND holds for the newest message, else ELSE
 *   $(or A...)                the first argument that is not empty
 *   $(map T L)                T expanded for each element of the list L (as $_),
 *                             as a list
 *   $(filter (COND) L)        the elements of L for which COND holds ($_ is the
 *                             element), decoded, joined by `,` (not re-quoted)
 *   $(iterate T INITIAL)      INITIAL at the first expansion, then T expanded
 *                             with $_ set to the previous result; the state
 *                             lives in the compiled call (one per database
 *                             load), shared by every message, as in 3.38
 * COND is a filter expression of db/filter-expr.h; inside a context function each
 * message is seen alone (as a context of one message), as in 3.38.
 */
#include "db/template-func-private.h"
#include "db/list-repr.h"

#include <string.h>

static gboolean
prepare_context_length(PdbTemplateCall *call, const gchar *name, const gchar *const *words, GError **error)
{
  /* 3.38 ignores the arguments without compiling them:
   * `$(context-length $(nosuch))` loads and is 1 */
  (void) call;
  (void) name;
  (void) words;
  (void) error;
  return TRUE;
}

static void
eval_context_length(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  gssize length = -1;
  const gchar *value = env->lookup ? env->lookup("", PDB_TEMPLATE_CONTEXT_LENGTH_INDEX, &length, env->data) : NULL;

  (void) call;
  if (!value)
    g_string_append_c(out, '1');
  else
    g_string_append_len(out, value, length < 0 ? (gssize) strlen(value) : length);
}

/* COND evaluated over what @lookup reads; tags() reads the TAGS macro. */
static gboolean
condition_holds(const PdbFilterExpr *cond, PdbTemplateLookupFunc lookup, gpointer data)
{
  PdbFilterSubject subject = { lookup, NULL, data, NULL };

  return pdb_filter_expr_eval(cond, &subject);
}

static gboolean
compile_condition(PdbTemplateCall *call, const gchar *name, const gchar *text, GError **error)
{
  GError *cond_error = NULL;

  call->cond = pdb_filter_expr_compile(text, &cond_error);
  if (!call->cond)
    {
      pdb_tf_set_error(error, "$(%s): %s", name, cond_error->message);
      g_error_free(cond_error);
      return FALSE;
    }
  return TRUE;
}

/* ---- over the messages of the context ---- */

static gboolean
prepare_lookup(PdbTemplateCall *call, const gchar *name, const gchar *const *words, GError **error)
{
  gint max_count = 0;
  GOptionEntry entries[] =
  {
    { "max-count", 'm', 0, G_OPTION_ARG_INT, &max_count, NULL, NULL },
    { NULL }
  };
  gchar **rest = pdb_tf_parse_options(name, words, entries, error);
  gboolean ok = FALSE;

  if (!rest)
    return FALSE;
  if (!rest[0] || !rest[1])
    pdb_tf_set_error(error, "$(%s) requires at least two arguments", name);
  else
    ok = compile_condition(call, name, rest[0], error)
         && pdb_tf_compile_words(call, name, (const gchar *const *) rest + 1, -1, error);
  call->number = max_count;
  g_strfreev(rest);
  return ok;
}

/* Appends the arguments for each message (oldest first) for which the
 * condition holds (or every message without one). */
static void
append_per_message(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out, gboolean as_list)
{
  guint count = pdb_tf_context_length(env);
  gint64 matched = 0;
  gboolean first = TRUE;
  GString *value = g_string_new(NULL);

  for (guint k = 0; k < count; k++)
    {
      PdbTfOneMessage one;

      pdb_tf_one_message_init(&one, env, count - 1 - k);
      if (call->cond && !condition_holds(call->cond, one.env.lookup, one.env.data))
        continue;
      matched++;
      for (guint i = 0; i < call->args->len; i++)
        {
          if (!first)
            g_string_append_c(out, ',');
          first = FALSE;
          if (!as_list)
            {
              pdb_tf_append_arg(call, i, &one.env, out);
              continue;
            }
          g_string_truncate(value, 0);
          pdb_tf_append_arg(call, i, &one.env, value);
          pdb_list_append_element(out, value->str, value->len);
        }
      if (call->number > 0 && matched >= call->number)
        break;
    }
  g_string_free(value, TRUE);
}

static void
eval_context_values(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  append_per_message(call, env, out, TRUE);
}

static void
eval_context_lookup(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  append_per_message(call, env, out, TRUE);
}

static void
eval_grep(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  append_per_message(call, env, out, FALSE);
}

/* ---- conditions ---- */

static gboolean
prepare_if(PdbTemplateCall *call, const gchar *name, const gchar *const *words, GError **error)
{
  if (!words[0] || !words[1] || !words[2] || words[3])
    {
      pdb_tf_set_error(error, "$(if) requires three arguments");
      return FALSE;
    }
  return compile_condition(call, name, words[0], error)
         && pdb_tf_compile_words(call, name, words + 1, 2, error);
}

static void
eval_if(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  pdb_tf_append_arg(call, condition_holds(call->cond, env->lookup, env->data) ? 0 : 1, env, out);
}

static void
eval_or(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  for (guint i = 0; i < call->args->len; i++)
    {
      gsize start = out->len;

      pdb_tf_append_arg(call, i, env, out);
      if (out->len > start)
        return;
    }
}

/* ---- over the elements of a list ---- */

/* TRUE when @words holds exactly two words; otherwise the error names
 * @example, the call written right. */
static gboolean
two_words(const gchar *const *words, const gchar *example, GError **error)
{
  if (words[0] && words[1] && !words[2])
    return TRUE;
  pdb_tf_set_error(error, "Wrong number of arguments. Example: %s.", example);
  return FALSE;
}

static gboolean
prepare_map(PdbTemplateCall *call, const gchar *name, const gchar *const *words, GError **error)
{
  if (!two_words(words, "$(map template list)", error))
    return FALSE;
  return pdb_tf_compile_words(call, name, words, 2, error);
}

static gboolean
prepare_filter(PdbTemplateCall *call, const gchar *name, const gchar *const *words, GError **error)
{
  if (!two_words(words, "$(filter expr list)", error))
    return FALSE;
  return compile_condition(call, name, words[0], error) && pdb_tf_compile_words(call, name, words + 1, 1, error);
}

typedef struct
{
  const PdbTemplateCall *call;
  const PdbTfEnv *env;
  GString *out;
  gsize start;
  GString *scratch;
} EachElement;

static gboolean
map_element(const gchar *element, gsize length, gpointer user_data)
{
  EachElement *e = user_data;
  PdbTfElement el;

  pdb_tf_element_init(&el, e->env, element, length);
  g_string_truncate(e->scratch, 0);
  pdb_tf_append_arg(e->call, 0, &el.env, e->scratch);
  pdb_tf_list_separate(e->out, e->start);
  pdb_list_append_element(e->out, e->scratch->str, e->scratch->len);
  return TRUE;
}

static gboolean
filter_element(const gchar *element, gsize length, gpointer user_data)
{
  EachElement *e = user_data;
  PdbTfElement el;

  pdb_tf_element_init(&el, e->env, element, length);
  if (condition_holds(e->call->cond, el.env.lookup, el.env.data))
    {
      /* 3.38 writes the decoded element as it is, without list quoting */
      pdb_tf_list_separate(e->out, e->start);
      g_string_append_len(e->out, element, length);
    }
  return TRUE;
}

static void
eval_over_list(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out, guint list_arg, PdbTfListEach each)
{
  GString *list = g_string_new(NULL);
  GPtrArray *lists = g_ptr_array_new();
  EachElement e = { call, env, out, out->len, g_string_new(NULL) };

  pdb_tf_append_arg(call, list_arg, env, list);
  g_ptr_array_add(lists, list);
  pdb_tf_list_scan(lists, 0, each, &e);
  g_ptr_array_free(lists, TRUE);
  g_string_free(list, TRUE);
  g_string_free(e.scratch, TRUE);
}

static void
eval_map(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  eval_over_list(call, env, out, 1, map_element);
}

static void
eval_filter(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  eval_over_list(call, env, out, 0, filter_element);
}

static gboolean
prepare_iterate(PdbTemplateCall *call, const gchar *name, const gchar *const *words, GError **error)
{
  if (!two_words(words, "$(iterate template initial-value)", error))
    return FALSE;
  call->state = g_string_new(words[1]);
  return pdb_tf_compile_words(call, name, words, 1, error);
}

static void
eval_iterate(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  PdbTemplateCall *mutable_call = (PdbTemplateCall *) call;
  GString *next = g_string_new(NULL);

  g_mutex_lock(&mutable_call->lock);
  PdbTfElement el;
  pdb_tf_element_init(&el, env, call->state->str, call->state->len);
  pdb_tf_append_arg(call, 0, &el.env, next);
  g_string_append_len(out, call->state->str, call->state->len);
  g_string_assign(mutable_call->state, next->str);
  g_mutex_unlock(&mutable_call->lock);
  g_string_free(next, TRUE);
}

const PdbTfDef pdb_tf_context_functions[] =
{
  { "context-length", prepare_context_length, eval_context_length, TRUE },
  { "context-values", NULL, eval_context_values, TRUE },
  { "context-lookup", prepare_lookup, eval_context_lookup, TRUE },
  { "grep", prepare_lookup, eval_grep, TRUE },
  { "if", prepare_if, eval_if, FALSE },
  { "or", NULL, eval_or, FALSE },
  { "map", prepare_map, eval_map, FALSE },
  { "filter", prepare_filter, eval_filter, FALSE },
  { "iterate", prepare_iterate, eval_iterate, FALSE },
  { NULL, NULL, NULL, FALSE },
};

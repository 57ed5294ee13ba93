/*
 * template-func.c: the dispatcher of the template functions `$(name arg...)`
 * of db/template.h, and the helpers their families share
 * (db/template-func-private.h).
 *
 * The functions are those of syslog-ng 3.38's basic set as `pdbtool match -T`
 * accepts them; each family file lists its functions with their 3.38
 * results:
 *   template-func-string.c   echo, length, substr, strip, sanitize, lowercase,
 *                            uppercase, replace-delimiter, padding, binary,
 *                            indent-multi-line, base64-encode, url-encode,
 *                            url-decode, basename, dirname, env
 *   template-func-net.c      ipv4-to-int, dns-resolve-ip
 *   template-func-numeric.c  + - * / %, round, ceil, floor, sum, min, max, average
 *   template-func-list.c     list-concat, list-append, list-head, list-nth,
 *                            list-tail, list-slice, list-count, list-search,
 *                            explode, implode
 *   template-func-context.c  context-length, context-values, context-lookup,
 *                            grep, if, or, map, filter, iterate
 *
 * Invariant: a compiled call owns its arguments and never changes after
 * compilation (except $(iterate)'s locked state).
 */
#include "db/template-func-private.h"
#include "db/database.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const PdbTfDef *const families[] =
{
  pdb_tf_string_functions,
  pdb_tf_numeric_functions,
  pdb_tf_list_functions,
  pdb_tf_context_functions,
  pdb_tf_net_functions,
  pdb_tf_pairs_functions,
};

static const PdbTfDef *
find_function(const gchar *name)
{
  for (gsize f = 0; f < G_N_ELEMENTS(families); f++)
    for (const PdbTfDef *def = families[f]; def->name; def++)
      if (strcmp(def->name, name) == 0)
        return def;
  return NULL;
}

void
pdb_tf_set_error(GError **error, const gchar *format, ...)
{
  va_list ap;

  va_start(ap, format);
  gchar *message = g_strdup_vprintf(format, ap);
  va_end(ap);
  g_set_error_literal(error, PDB_DB_ERROR, PDB_DB_ERROR_TEMPLATE, message);
  g_free(message);
}

void
pdb_template_call_free(PdbTemplateCall *call)
{
  if (!call)
    return;
  if (call->args)
    g_ptr_array_free(call->args, TRUE);
  pdb_filter_expr_free(call->cond);
  if (call->text)
    g_string_free(call->text, TRUE);
  if (call->state)
    g_string_free(call->state, TRUE);
  pdb_tf_free_regex(call->regex);
  pdb_tf_pairs_free(call->pairs);
  g_mutex_clear(&call->lock);
  g_free(call);
}

gboolean
pdb_tf_compile_words(PdbTemplateCall *call, const gchar *name, const gchar *const *words,
                     gint count, GError **error)
{
  for (gint w = 0; words[w] && (count < 0 || w < count); w++)
    {
      GError *arg_error = NULL;
      PdbTemplate *arg = pdb_template_compile(words[w], FALSE, &arg_error);

      if (!arg)
        {
          pdb_tf_set_error(error, "argument '%s' of $(%s): %s", words[w], name, arg_error->message);
          g_error_free(arg_error);
          return FALSE;
        }
      g_ptr_array_add(call->args, arg);
    }
  return TRUE;
}

PdbTemplateCall *
pdb_template_call_new(const gchar *name, const gchar *const *words, GError **error)
{
  const PdbTfDef *def = find_function(name);

  if (!def)
    {
      pdb_tf_set_error(error, "unknown template function '%s'; the functions of syslog-ng 3.38's "
                       "basic set are supported (patterndb(1), -T)", name);
      return NULL;
    }

  PdbTemplateCall *call = g_new0(PdbTemplateCall, 1);
  call->def = def;
  call->args = g_ptr_array_new_with_free_func((GDestroyNotify) pdb_template_free);
  g_mutex_init(&call->lock);

  gboolean ok = def->prepare ? def->prepare(call, name, words, error)
                             : pdb_tf_compile_words(call, name, words, -1, error);
  if (!ok)
    {
      pdb_template_call_free(call);
      return NULL;
    }
  return call;
}

guint
pdb_template_call_get_max_context_index(const PdbTemplateCall *call)
{
  guint max = 0;
  gboolean reads_context = FALSE;

  for (guint i = 0; i < call->args->len; i++)
    max = MAX(max, pdb_template_get_max_context_index(g_ptr_array_index(call->args, i)));
  pdb_filter_expr_scan(call->cond, &reads_context, &max);
  return max;
}

gboolean
pdb_template_call_reads_context(const PdbTemplateCall *call)
{
  gboolean reads_context = call->def->reads_context;
  guint max = 0;

  pdb_filter_expr_scan(call->cond, &reads_context, &max);
  if (reads_context)
    return TRUE;
  for (guint i = 0; i < call->args->len; i++)
    if (pdb_template_reads_context(g_ptr_array_index(call->args, i)))
      return TRUE;
  return FALSE;
}

gboolean
pdb_template_call_is_stateful(const PdbTemplateCall *call)
{
  if (call->state)
    return TRUE;
  for (guint i = 0; i < call->args->len; i++)
    if (pdb_template_is_stateful(g_ptr_array_index(call->args, i)))
      return TRUE;
  return FALSE;
}

void
pdb_template_call_append(const PdbTemplateCall *call, PdbTemplateLookupFunc lookup,
                         gpointer user_data, GString *out)
{
  PdbTfEnv env = { lookup, user_data };

  call->def->eval(call, &env, out);
}

void
pdb_template_call_append_at(const PdbTemplateCall *call, guint back, PdbTemplateLookupFunc lookup,
                            gpointer user_data, GString *out)
{
  PdbTfEnv env = { lookup, user_data };
  PdbTfOneMessage one;

  pdb_tf_one_message_init(&one, &env, back);
  call->def->eval(call, &one.env, out);
}

/* ---- helpers for the families ---- */

void
pdb_tf_append_arg(const PdbTemplateCall *call, guint i, const PdbTfEnv *env, GString *out)
{
  pdb_template_append(g_ptr_array_index(call->args, i), env->lookup, env->data, out);
}

GPtrArray *
pdb_tf_expand_args(const PdbTemplateCall *call, const PdbTfEnv *env)
{
  GPtrArray *values = g_ptr_array_new_full(call->args->len, NULL);

  for (guint i = 0; i < call->args->len; i++)
    {
      GString *value = g_string_new(NULL);

      pdb_tf_append_arg(call, i, env, value);
      g_ptr_array_add(values, value);
    }
  return values;
}

void
pdb_tf_free_values(GPtrArray *values)
{
  for (guint i = 0; i < values->len; i++)
    g_string_free(g_ptr_array_index(values, i), TRUE);
  g_ptr_array_free(values, TRUE);
}

gchar **
pdb_tf_parse_options(const gchar *name, const gchar *const *words, GOptionEntry *entries, GError **error)
{
  gint argc = 1;

  while (words[argc - 1])
    argc++;
  /* GOption takes the options out of argv without freeing them: @owned
   * keeps every string, @argv is what GOption rearranges */
  gchar **owned = g_new0(gchar *, argc + 1);
  gchar **argv = g_new0(gchar *, argc + 1);
  owned[0] = g_strdup(name);
  for (gint i = 1; i < argc; i++)
    owned[i] = g_strdup(words[i - 1]);
  memcpy(argv, owned, sizeof(gchar *) * argc);

  GOptionContext *ctx = g_option_context_new(name);
  g_option_context_set_help_enabled(ctx, FALSE);
  g_option_context_add_main_entries(ctx, entries, NULL);
  gboolean ok = g_option_context_parse(ctx, &argc, &argv, error);
  g_option_context_free(ctx);

  gchar **rest = NULL;
  if (ok)
    {
      /* the words left after the program name */
      rest = g_new0(gchar *, argc);
      for (gint i = 1; i < argc; i++)
        rest[i - 1] = g_strdup(argv[i]);
    }
  g_strfreev(owned);
  g_free(argv);
  return rest;
}

gboolean
pdb_tf_parse_dec(const gchar *text, gint64 *value)
{
  gchar *end;

  errno = 0;
  gint64 n = g_ascii_strtoll(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0')
    return FALSE;
  *value = n;
  return TRUE;
}

/* ---- environments over the correlation context ---- */

guint
pdb_tf_context_length(const PdbTfEnv *env)
{
  gssize length = -1;
  const gchar *text = env->lookup ? env->lookup("", PDB_TEMPLATE_CONTEXT_LENGTH_INDEX, &length, env->data) : NULL;

  if (!text)
    return 1;
  gchar buffer[24];
  gsize n = length < 0 ? strlen(text) : (gsize) length;
  if (n >= sizeof(buffer))
    return 1;
  memcpy(buffer, text, n);
  buffer[n] = '\0';
  guint64 count = g_ascii_strtoull(buffer, NULL, 10);
  return count == 0 ? 1 : (guint) MIN(count, G_MAXUINT - 1);
}

static const gchar *
one_message_lookup(const gchar *name, guint context_index, gssize *length, gpointer user_data)
{
  PdbTfOneMessage *one = user_data;

  if (context_index == PDB_TEMPLATE_CONTEXT_LENGTH_INDEX)
    {
      *length = 1;
      return "1";
    }
  if (context_index != 0 || !one->outer.lookup)
    return NULL;
  return one->outer.lookup(name, one->back, length, one->outer.data);
}

void
pdb_tf_one_message_init(PdbTfOneMessage *one, const PdbTfEnv *outer, guint back)
{
  one->outer = *outer;
  one->back = back;
  one->env.lookup = one_message_lookup;
  one->env.data = one;
}

static const gchar *
element_lookup(const gchar *name, guint context_index, gssize *length, gpointer user_data)
{
  PdbTfElement *el = user_data;

  if (context_index == 0 && strcmp(name, PDB_TEMPLATE_CONTEXT_ID) == 0)
    {
      *length = (gssize) el->element_length;
      return el->element;
    }
  return el->outer.lookup ? el->outer.lookup(name, context_index, length, el->outer.data) : NULL;
}

void
pdb_tf_element_init(PdbTfElement *el, const PdbTfEnv *outer, const gchar *element, gsize length)
{
  el->outer = *outer;
  el->element = element;
  el->element_length = length;
  el->env.lookup = element_lookup;
  el->env.data = el;
}

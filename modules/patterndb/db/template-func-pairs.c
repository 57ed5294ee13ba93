/*
 * template-func-pairs.c: $(names) and $(values), the value-pairs functions
 * of syslog-ng 3.38: the names (or the values, in the order of their
 * names) of the message's values a value-pairs selection takes, sorted by
 * name (byte order), as a list (list-repr.h).
 *
 * Options, in any order, each "--opt VALUE" or "--opt=VALUE":
 *   --scope/-s S[,S...]   nv-pairs (names without a leading '.'),
 *                         dot-nv-pairs (with it), all-nv-pairs, sdata
 *                         (.SDATA.*), none; '_' may stand for '-'. No
 *                         scope: nothing but keys and pairs.
 *   --exclude/-x GLOB, --key/-k GLOB[,GLOB...]: name patterns ('*' and '?'
 *                         only), the last one matching a name decides;
 *                         --key also opens a rekey block for its GLOB.
 *   --pair/-p NAME=TEMPLATE: an extra value (after the message's: it wins).
 *   --rekey/-r GLOB, then --add-prefix P, --replace-prefix OLD=NEW,
 *                         --shift N, --shift-levels N: renames, each block
 *                         applied in order to the name as renamed so far.
 *   --omit-empty-values;  --cast, --no-cast (accepted, no effect).
 * A word that is no option is a pair when it has a '=', else a key.
 *
 * Where 3.38 gives no answer to follow: it aborts on the scopes that take
 * macros (rfc3164, rfc5424, syslog-proto, selected-macros, core, base,
 * all-macros, everything: refused here at compile time) and dies of a
 * segmentation fault on any name pattern (--exclude, --key, a key word):
 * those are done as syslog-ng 4.8 does them (the differential test asserts
 * 3.38's crash and our answer separately).
 *
 * The message's value names come from the lookup (PDB_TEMPLATE_VALUE_NAMES);
 * a lookup that cannot list them gives no message values.
 *
 * Invariant: the compiled PdbTfPairs is immutable; pair i's template is
 * call->args[i].
 */
#include "db/template-func-private.h"
#include "db/list-repr.h"
#include "db/template.h"

#include <string.h>

enum
{
  SCOPE_NV_PAIRS = 1,
  SCOPE_DOT_NV_PAIRS = 2,
  SCOPE_SDATA = 4,
};

typedef enum
{
  STEP_ADD_PREFIX,
  STEP_REPLACE_PREFIX,
  STEP_SHIFT,
  STEP_SHIFT_LEVELS,
} StepKind;

typedef struct
{
  StepKind kind;
  gchar *text;      /* the prefix to add, or the one to replace */
  gchar *with;      /* STEP_REPLACE_PREFIX */
  gint64 count;     /* STEP_SHIFT, STEP_SHIFT_LEVELS */
} RekeyStep;

typedef struct
{
  GPatternSpec *glob;
  GArray *steps;    /* of RekeyStep */
} RekeyBlock;

typedef struct
{
  GPatternSpec *glob;
  gboolean include;
} NamePattern;

struct _PdbTfPairs
{
  guint scopes;
  gboolean omit_empty;
  GArray *patterns;      /* of NamePattern, in order */
  GPtrArray *rekeys;     /* of RekeyBlock*, in order */
  GPtrArray *pair_names; /* of gchar*; pair i's template is call->args[i] */
  GPtrArray *pair_templates; /* the template texts, while compiling */
};

static void
rekey_block_free(gpointer data)
{
  RekeyBlock *block = data;

  for (guint i = 0; i < block->steps->len; i++)
    {
      RekeyStep *step = &g_array_index(block->steps, RekeyStep, i);

      g_free(step->text);
      g_free(step->with);
    }
  g_array_free(block->steps, TRUE);
  g_pattern_spec_free(block->glob);
  g_free(block);
}

void
pdb_tf_pairs_free(PdbTfPairs *pairs)
{
  if (!pairs)
    return;
  for (guint i = 0; i < pairs->patterns->len; i++)
    g_pattern_spec_free(g_array_index(pairs->patterns, NamePattern, i).glob);
  g_array_free(pairs->patterns, TRUE);
  g_ptr_array_free(pairs->rekeys, TRUE);
  g_ptr_array_free(pairs->pair_names, TRUE);
  if (pairs->pair_templates)
    g_ptr_array_free(pairs->pair_templates, TRUE);
  g_free(pairs);
}

/* ---- compiling the options ---- */

static gboolean
add_scopes(PdbTfPairs *pairs, const gchar *list, GError **error)
{
  static const gchar *const with_macros[] =
  {
    "rfc3164", "core", "base", "rfc5424", "syslog-proto", "selected-macros", "all-macros", "everything",
  };
  gchar **names = g_strsplit(list, ",", -1);
  gboolean ok = TRUE;

  for (gchar **n = names; ok && *n; n++)
    {
      g_strdelimit(*n, "_", '-');
      if (strcmp(*n, "nv-pairs") == 0)
        pairs->scopes |= SCOPE_NV_PAIRS;
      else if (strcmp(*n, "dot-nv-pairs") == 0)
        pairs->scopes |= SCOPE_DOT_NV_PAIRS;
      else if (strcmp(*n, "all-nv-pairs") == 0)
        pairs->scopes |= SCOPE_NV_PAIRS | SCOPE_DOT_NV_PAIRS;
      else if (strcmp(*n, "sdata") == 0)
        pairs->scopes |= SCOPE_SDATA;
      else if (strcmp(*n, "none") != 0)
        {
          gboolean takes_macros = FALSE;

          for (gsize m = 0; m < G_N_ELEMENTS(with_macros); m++)
            takes_macros |= strcmp(*n, with_macros[m]) == 0;
          if (takes_macros)
            pdb_tf_set_error(error, "Error parsing value-pairs: scope %s takes macros, which the tool "
                             "does not list (pdbtool 3.38 aborts on it)", *n);
          else
            pdb_tf_set_error(error, "Error parsing value-pairs: unknown scope %s", *n);
          ok = FALSE;
        }
    }
  g_strfreev(names);
  return ok;
}

static void
add_pattern(PdbTfPairs *pairs, const gchar *glob, gboolean include)
{
  NamePattern pattern = { g_pattern_spec_new(glob), include };

  g_array_append_val(pairs->patterns, pattern);
}

static void
open_rekey(PdbTfPairs *pairs, const gchar *glob)
{
  RekeyBlock *block = g_new0(RekeyBlock, 1);

  block->glob = g_pattern_spec_new(glob);
  block->steps = g_array_new(FALSE, TRUE, sizeof(RekeyStep));
  g_ptr_array_add(pairs->rekeys, block);
}

static gboolean
add_pair(PdbTfPairs *pairs, const gchar *text, GError **error)
{
  const gchar *eq = strchr(text, '=');

  if (!eq)
    {
      pdb_tf_set_error(error, "Error parsing value-pairs: expected an equal sign in key=value pair");
      return FALSE;
    }
  g_ptr_array_add(pairs->pair_names, g_strndup(text, eq - text));
  g_ptr_array_add(pairs->pair_templates, g_strdup(eq + 1));
  return TRUE;
}

static gboolean
add_step(PdbTfPairs *pairs, const gchar *option, const gchar *value, GError **error)
{
  RekeyStep step = { 0 };

  if (pairs->rekeys->len == 0)
    {
      pdb_tf_set_error(error, "Error parsing value-pairs: --%s used without --key or --rekey", option);
      return FALSE;
    }
  if (strcmp(option, "add-prefix") == 0)
    {
      step.kind = STEP_ADD_PREFIX;
      step.text = g_strdup(value);
    }
  else if (strcmp(option, "replace-prefix") == 0)
    {
      const gchar *eq = strchr(value, '=');

      if (!eq)
        {
          pdb_tf_set_error(error, "Error parsing value-pairs: rekey replace-prefix construct should be "
                           "in the format string=replacement");
          return FALSE;
        }
      step.kind = STEP_REPLACE_PREFIX;
      step.text = g_strndup(value, eq - value);
      step.with = g_strdup(eq + 1);
    }
  else
    {
      step.kind = strcmp(option, "shift") == 0 ? STEP_SHIFT : STEP_SHIFT_LEVELS;
      if (!pdb_tf_parse_dec(value, &step.count) || step.count <= 0)
        {
          pdb_tf_set_error(error, "Error parsing value-pairs, argument to --%s is not numeric or not a "
                           "positive number", option);
          return FALSE;
        }
    }
  RekeyBlock *block = g_ptr_array_index(pairs->rekeys, pairs->rekeys->len - 1);
  g_array_append_val(block->steps, step);
  return TRUE;
}

/* One option with its value (NULL for a flag). */
static gboolean
apply_option(PdbTfPairs *pairs, const gchar *option, const gchar *value, GError **error)
{
  if (strcmp(option, "scope") == 0)
    return add_scopes(pairs, value, error);
  if (strcmp(option, "exclude") == 0)
    add_pattern(pairs, value, FALSE);
  else if (strcmp(option, "key") == 0)
    {
      gchar **keys = g_strsplit(value, ",", -1);

      for (gchar **k = keys; *k; k++)
        {
          add_pattern(pairs, *k, TRUE);
          open_rekey(pairs, *k);
        }
      g_strfreev(keys);
    }
  else if (strcmp(option, "rekey") == 0)
    open_rekey(pairs, value);
  else if (strcmp(option, "pair") == 0)
    return add_pair(pairs, value, error);
  else if (strcmp(option, "omit-empty-values") == 0)
    pairs->omit_empty = TRUE;
  else if (value)
    return add_step(pairs, option, value, error);
  return TRUE;
}

/* The long name of option @word ("--scope", "--scope=x", "-s"), whether it
 * takes a value; NULL when unknown. */
static const gchar *
option_name(const gchar *word, gsize *name_length, gboolean *takes_value)
{
  static const gchar *const valued[] =
  {
    "scope", "exclude", "key", "rekey", "pair", "add-prefix", "replace-prefix", "shift", "shift-levels",
  };
  static const gchar *const flags[] = { "omit-empty-values", "cast", "no-cast" };
  static const gchar shorts[] = "sxkrp";

  if (word[1] != '-')
    {
      const gchar *at = word[1] && !word[2] ? strchr(shorts, word[1]) : NULL;

      *takes_value = TRUE;
      *name_length = at ? strlen(valued[at - shorts]) : 0;
      return at ? valued[at - shorts] : NULL;
    }
  *name_length = strcspn(word + 2, "=");
  *takes_value = TRUE;
  for (gsize i = 0; i < G_N_ELEMENTS(valued); i++)
    if (strlen(valued[i]) == *name_length && strncmp(word + 2, valued[i], *name_length) == 0)
      return valued[i];
  *takes_value = FALSE;
  for (gsize i = 0; i < G_N_ELEMENTS(flags); i++)
    if (strlen(flags[i]) == *name_length && strncmp(word + 2, flags[i], *name_length) == 0)
      return flags[i];
  return NULL;
}

static gboolean
parse_words(PdbTfPairs *pairs, const gchar *const *words, GError **error)
{
  gboolean options_end = FALSE;

  for (guint w = 0; words[w]; w++)
    {
      const gchar *word = words[w];

      if (options_end || word[0] != '-' || !word[1])
        {
          gboolean ok = strchr(word, '=') ? add_pair(pairs, word, error)
                        : apply_option(pairs, "key", word, error);
          if (!ok)
            return FALSE;
          continue;
        }
      if (strcmp(word, "--") == 0)
        {
          options_end = TRUE;
          continue;
        }

      gsize length;
      gboolean takes_value;
      const gchar *option = option_name(word, &length, &takes_value);
      const gchar *inline_value = word[1] == '-' && word[2 + length] == '=' ? word + 3 + length : NULL;
      const gchar *value = inline_value;

      if (!option)
        {
          pdb_tf_set_error(error, "Unknown option %s", word);
          return FALSE;
        }
      if (takes_value && !value && !(value = words[++w]))
        {
          pdb_tf_set_error(error, "Missing argument for %s", word);
          return FALSE;
        }
      if (!apply_option(pairs, option, takes_value ? value : NULL, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
prepare_pairs(PdbTemplateCall *call, const gchar *name, const gchar *const *words, GError **error)
{
  PdbTfPairs *pairs = g_new0(PdbTfPairs, 1);

  pairs->patterns = g_array_new(FALSE, FALSE, sizeof(NamePattern));
  pairs->rekeys = g_ptr_array_new_with_free_func(rekey_block_free);
  pairs->pair_names = g_ptr_array_new_with_free_func(g_free);
  pairs->pair_templates = g_ptr_array_new_with_free_func(g_free);
  call->pairs = pairs;
  if (!parse_words(pairs, words, error))
    return FALSE;
  g_ptr_array_add(pairs->pair_templates, NULL);
  gboolean ok = pdb_tf_compile_words(call, name, (const gchar *const *) pairs->pair_templates->pdata, -1,
                                     error);
  g_ptr_array_free(pairs->pair_templates, TRUE);
  pairs->pair_templates = NULL;
  return ok;
}

/* ---- evaluation ---- */

static gboolean
glob_matches(GPatternSpec *glob, const gchar *name)
{
#if GLIB_CHECK_VERSION(2, 70, 0)
  return g_pattern_spec_match_string(glob, name);
#else
  return g_pattern_match_string(glob, name);
#endif
}

static gboolean
selected(const PdbTfPairs *pairs, const gchar *name)
{
  gboolean take = name[0] == '.' ? (pairs->scopes & SCOPE_DOT_NV_PAIRS) != 0
                  : (pairs->scopes & SCOPE_NV_PAIRS) != 0;

  if (strncmp(name, ".SDATA.", 7) == 0 && (pairs->scopes & SCOPE_SDATA))
    take = TRUE;
  for (guint i = 0; i < pairs->patterns->len; i++)
    {
      const NamePattern *pattern = &g_array_index(pairs->patterns, NamePattern, i);

      if (glob_matches(pattern->glob, name))
        take = pattern->include;
    }
  return take;
}

static void
apply_step(const RekeyStep *step, GString *key)
{
  switch (step->kind)
    {
    case STEP_ADD_PREFIX:
      g_string_prepend(key, step->text);
      break;
    case STEP_REPLACE_PREFIX:
      if (g_str_has_prefix(key->str, step->text))
        {
          g_string_erase(key, 0, strlen(step->text));
          g_string_prepend(key, step->with);
        }
      break;
    case STEP_SHIFT:
      /* a name shorter than the shift is left as it is (3.38) */
      if ((guint64) step->count <= key->len)
        g_string_erase(key, 0, step->count);
      break;
    case STEP_SHIFT_LEVELS:
      {
        const gchar *p = key->str;

        for (gint64 level = 0; p && level < step->count; level++)
          p = strchr(p, '.') ? strchr(p, '.') + 1 : NULL;
        if (p)
          g_string_erase(key, 0, p - key->str);
        break;
      }
    }
}

static gchar *
rekey(const PdbTfPairs *pairs, const gchar *name)
{
  GString *key = g_string_new(name);

  for (guint b = 0; b < pairs->rekeys->len; b++)
    {
      const RekeyBlock *block = g_ptr_array_index(pairs->rekeys, b);

      if (!glob_matches(block->glob, key->str))
        continue;
      for (guint s = 0; s < block->steps->len; s++)
        apply_step(&g_array_index(block->steps, RekeyStep, s), key);
    }
  return g_string_free(key, FALSE);
}

static void
take_value(const PdbTfPairs *pairs, GTree *taken, const gchar *name, const gchar *value, gsize length)
{
  if (pairs->omit_empty && length == 0)
    return;
  g_tree_replace(taken, rekey(pairs, name), g_string_new_len(value, length));
}

static gint
compare_names(gconstpointer a, gconstpointer b, gpointer unused)
{
  return strcmp(a, b);
}

static void
free_value(gpointer value)
{
  g_string_free(value, TRUE);
}

typedef struct
{
  GString *out;
  gboolean values;
  gsize start;
} Printer;

static gboolean
print_element(gpointer name, gpointer value, gpointer data)
{
  Printer *p = data;
  const GString *v = value;

  if (p->out->len > p->start)
    g_string_append_c(p->out, ',');
  if (p->values)
    pdb_list_append_element(p->out, v->str, v->len);
  else
    pdb_list_append_element(p->out, name, strlen(name));
  return FALSE;
}

static void
eval_pairs(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  const PdbTfPairs *pairs = call->pairs;
  GTree *taken = g_tree_new_full(compare_names, NULL, g_free, free_value);
  gssize names_length = 0;
  const gchar *names = env->lookup(PDB_TEMPLATE_VALUE_NAMES, 0, &names_length, env->data);

  if (names && names != pdb_template_no_message && names_length > 0)
    for (const gchar *name = names; name < names + names_length; name += strlen(name) + 1)
      {
        gssize length = 0;
        const gchar *value;

        if (!selected(pairs, name) || !(value = env->lookup(name, 0, &length, env->data)))
          continue;
        take_value(pairs, taken, name, value, length < 0 ? strlen(value) : (gsize) length);
      }
  for (guint i = 0; i < pairs->pair_names->len; i++)
    {
      GString *value = g_string_new(NULL);

      pdb_tf_append_arg(call, i, env, value);
      take_value(pairs, taken, g_ptr_array_index(pairs->pair_names, i), value->str, value->len);
      g_string_free(value, TRUE);
    }

  Printer printer = { out, call->def->variant != 0, out->len };
  g_tree_foreach(taken, print_element, &printer);
  g_tree_destroy(taken);
}

const PdbTfDef pdb_tf_pairs_functions[] =
{
  { "names", prepare_pairs, eval_pairs, FALSE, 0 },
  { "values", prepare_pairs, eval_pairs, FALSE, 1 },
  { NULL, NULL, NULL, FALSE, 0 },
};

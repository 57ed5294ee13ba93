/*
 * template-func-private.h: what the families of template functions
 * (template-func-string.c, -numeric.c, -list.c, -context.c, -net.c) share with the
 * dispatcher template-func.c. Internal to db/; not installed.
 *
 * A family exports a table of PdbTfDef rows. The dispatcher finds the row by
 * name, lets its prepare() consume the call's words (options, literal
 * arguments, conditions) and compile the rest as templates into call->args,
 * and calls its eval() to append the result.
 *
 * Invariant: a compiled call is immutable, except the state of $(iterate),
 * which is guarded by its own mutex; eval() may be called by any number of
 * threads at once.
 */
#ifndef PDB_DB_TEMPLATE_FUNC_PRIVATE_H
#define PDB_DB_TEMPLATE_FUNC_PRIVATE_H

#include "db/template-func.h"
#include "db/filter-expr.h"

G_BEGIN_DECLS

/* How a call reaches the message(s): the lookup of the template it is in. */
typedef struct
{
  PdbTemplateLookupFunc lookup;
  gpointer data;
} PdbTfEnv;

typedef struct _PdbTfDef PdbTfDef;
typedef struct _PdbTfPairs PdbTfPairs;   /* $(names), $(values): template-func-pairs.c */

struct _PdbTemplateCall
{
  const PdbTfDef *def;
  GPtrArray *args;          /* of PdbTemplate*, the compiled arguments */
  PdbFilterExpr *cond;       /* $(if), $(grep), $(filter), $(context-lookup) */
  gint64 number;            /* $(padding) width, $(grep) max-count, $(list-search) start */
  gint mode;                /* $(list-search) mode */
  gboolean ctrl_chars;      /* $(sanitize) */
  gchar replacement;        /* $(sanitize) */
  GString *text;            /* $(sanitize) set, $(padding) pattern, $(binary) octets,
                             * $(list-search) pattern */
  gpointer regex;           /* $(list-search --mode pcre): pcre2_code* */
  GMutex lock;              /* $(iterate) */
  GString *state;           /* $(iterate): the value to give next */
  PdbTfPairs *pairs;        /* $(names), $(values): the value-pairs selection */
};

struct _PdbTfDef
{
  const gchar *name;
  /* Consumes @words (NULL-terminated, borrowed): NULL means "compile every
   * word as an argument". */
  gboolean (*prepare)(PdbTemplateCall *call, const gchar *name, const gchar *const *words, GError **error);
  void (*eval)(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out);
  gboolean reads_context;   /* the result depends on the whole correlation context */
  gint variant;             /* the member of a family one eval serves (its operator, its kind); 0 when unused */
};

extern const PdbTfDef pdb_tf_string_functions[];
extern const PdbTfDef pdb_tf_numeric_functions[];
extern const PdbTfDef pdb_tf_list_functions[];
extern const PdbTfDef pdb_tf_context_functions[];
extern const PdbTfDef pdb_tf_net_functions[];
extern const PdbTfDef pdb_tf_pairs_functions[];

void pdb_tf_pairs_free(PdbTfPairs *pairs);

/* ---- helpers (template-func.c) ---- */

/* Compiles @words[from..] (or the first @count when @count >= 0) into call->args. */
gboolean pdb_tf_compile_words(PdbTemplateCall *call, const gchar *name, const gchar *const *words,
                              gint count, GError **error);
/* Appends argument @i expanded. */
void pdb_tf_append_arg(const PdbTemplateCall *call, guint i, const PdbTfEnv *env, GString *out);
/* Expands every argument into a new array of GString* (free with pdb_tf_free_values). */
GPtrArray *pdb_tf_expand_args(const PdbTemplateCall *call, const PdbTfEnv *env);
void pdb_tf_free_values(GPtrArray *values);
/* Parses GOption-style options from @words: fills @entries' targets, returns
 * the remaining words (a new NULL-terminated vector) or NULL with @error. */
gchar **pdb_tf_parse_options(const gchar *name, const gchar *const *words, GOptionEntry *entries,
                             GError **error);
/* A whole decimal number: optional blanks and sign, digits, nothing after
 * (3.38's parse_dec_number). */
gboolean pdb_tf_parse_dec(const gchar *text, gint64 *value);
void pdb_tf_set_error(GError **error, const gchar *format, ...) G_GNUC_PRINTF(2, 3);

/* The number of messages the call sees (1 outside a correlation context). */
guint pdb_tf_context_length(const PdbTfEnv *env);
/* An environment that sees only the message @back messages before the
 * newest one of @env, as a context of one message; @length_text is
 * scratch space owned by the caller. */
typedef struct
{
  PdbTfEnv outer;
  guint back;
  PdbTfEnv env;
} PdbTfOneMessage;
void pdb_tf_one_message_init(PdbTfOneMessage *one, const PdbTfEnv *outer, guint back);

/* An environment in which `$_` is @element and everything else is @outer's. */
typedef struct
{
  PdbTfEnv outer;
  const gchar *element;
  gsize element_length;
  PdbTfEnv env;
} PdbTfElement;
void pdb_tf_element_init(PdbTfElement *el, const PdbTfEnv *outer, const gchar *element, gsize length);

/* ---- lists (template-func-list.c) ---- */

/* Appends ',' unless @out is at @start or already ends with ','. */
void pdb_tf_list_separate(GString *out, gsize start);
/* Calls @each for every element of the lists @values (GString*), in order;
 * stops when it returns FALSE. */
typedef gboolean (*PdbTfListEach)(const gchar *element, gsize length, gpointer user_data);
void pdb_tf_list_scan(GPtrArray *values, guint from, PdbTfListEach each, gpointer user_data);
/* Frees a compiled $(list-search --mode pcre) pattern (NULL is fine). */
void pdb_tf_free_regex(gpointer regex);

G_END_DECLS

#endif

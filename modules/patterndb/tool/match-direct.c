/*
 * match-direct.c: `match -f -T '${.classifier.rule_id}\n'` without the
 * message store (see match-direct.h).
 *
 * Invariant: a PdbMatchDirect exists only when the general path would print
 * exactly what this one prints: the template's references were all probed
 * at creation and are the two classifier names, and the database was
 * checked to never write them (captures, values) or to emit more messages
 * (actions, contexts). Per line it parses the header, classifies and
 * expands; it allocates nothing.
 *
 * A template text made only of plain characters (no `$`) and the exact
 * references ${.classifier.rule_id} and ${.classifier.class} is expanded
 * from a plan (literal pieces and values copied straight into the output)
 * instead of through the template evaluator; the plan is used only if it
 * expanded to the same bytes as the compiled template for every kind of
 * result (match, unknown, none) when it was made.
 */
#include "tool/match-direct.h"
#include "tool/syslog-line.h"

#include <string.h>

#define CLASS_NAME ".classifier.class"
#define RULE_ID_NAME ".classifier.rule_id"

#define PLAN_MAX_PIECES 16

typedef enum
{
  PIECE_LITERAL,
  PIECE_RULE_ID,
  PIECE_CLASS,
} PieceKind;

typedef struct
{
  PieceKind kind;
  const gchar *text;       /* PIECE_LITERAL: into plan_text */
  gsize length;
} Piece;

struct _PdbMatchDirect
{
  const PdbDatabase *db;
  const PdbTemplate *tmpl;
  PdbResult result;
  gchar *plan_text;        /* NULL: no plan, the template is evaluated */
  Piece pieces[PLAN_MAX_PIECES];
  guint n_pieces;
  gboolean plan_needs_class; /* else the rule itself is never read: its id is the match's label */
};

static gboolean
is_classifier_name(const gchar *name)
{
  return strcmp(name, RULE_ID_NAME) == 0 || strcmp(name, CLASS_NAME) == 0;
}

/* A probe expansion: every reference is looked up once; none may be other names. */
static const gchar *
probe_lookup(const gchar *name, guint context_index, gssize *length, gpointer user_data)
{
  gboolean *direct = user_data;

  (void) length;
  if (context_index != 0 || !is_classifier_name(name))
    *direct = FALSE;
  return NULL;
}

static gboolean
mentions_classifier(const gchar *text)
{
  return text && strstr(text, ".classifier.") != NULL;
}

static gboolean
rule_allows_direct(const PdbRule *rule)
{
  if (rule->context_id || (rule->actions && rule->actions->len > 0))
    return FALSE;
  for (guint i = 0; rule->values && i < rule->values->len; i++)
    if (mentions_classifier(((const PdbValueDef *) g_ptr_array_index(rule->values, i))->name))
      return FALSE;
  return TRUE;
}

/* TRUE when a capture could write a classifier name: some name the
 * database mentions (every capture name of every rule and program pattern
 * is one, db/name-registry.h) has ".classifier." in it; without a
 * registry, every pattern's text is searched. */
static gboolean
captures_may_write_classifier(const PdbDatabase *db, const GPtrArray *rules)
{
  const PdbNameRegistry *registry = pdb_database_get_name_registry(db);

  if (registry)
    {
      const GPtrArray *names = pdb_name_registry_get_names(registry);

      for (guint i = 0; names && i < names->len; i++)
        if (mentions_classifier(g_ptr_array_index(names, i)))
          return TRUE;
      return FALSE;
    }
  for (guint r = 0; rules && r < rules->len; r++)
    {
      const PdbRule *rule = g_ptr_array_index(rules, r);

      for (guint i = 0; i < rule->n_patterns; i++)
        if (mentions_classifier(rule->pattern_places[i].text))
          return TRUE;
    }
  return FALSE;
}

/* Cuts @text into pieces; FALSE when it holds anything but plain
 * characters and the two exact references. */
static gboolean
plan_parse(PdbMatchDirect *self, const gchar *text)
{
  static const struct
  {
    const gchar *token;
    PieceKind kind;
  } refs[] =
  {
    { "${" RULE_ID_NAME "}", PIECE_RULE_ID },
    { "${" CLASS_NAME "}", PIECE_CLASS },
  };
  const gchar *p = text;

  self->n_pieces = 0;
  self->plan_needs_class = FALSE;
  while (*p)
    {
      Piece piece = { PIECE_LITERAL, p, 0 };

      if (*p == '$')
        {
          gsize i;

          for (i = 0; i < G_N_ELEMENTS(refs); i++)
            if (strncmp(p, refs[i].token, strlen(refs[i].token)) == 0)
              break;
          if (i == G_N_ELEMENTS(refs))
            return FALSE;
          p += strlen(refs[i].token);
          if (*p == '@')   /* ${name}@N reads the correlation context */
            return FALSE;
          piece.kind = refs[i].kind;
          if (piece.kind == PIECE_CLASS)
            self->plan_needs_class = TRUE;
        }
      else
        {
          while (*p && *p != '$')
            p++;
          piece.length = p - piece.text;
        }
      if (self->n_pieces == PLAN_MAX_PIECES)
        return FALSE;
      self->pieces[self->n_pieces++] = piece;
    }
  return TRUE;
}

static inline void
append_fast(GString *out, const gchar *text, gsize length)
{
  if (G_LIKELY(out->len + length < out->allocated_len))
    {
      memcpy(out->str + out->len, text, length);
      out->len += length;
      out->str[out->len] = '\0';
    }
  else
    g_string_append_len(out, text, length);
}

/* The plan's expansion for the values a result gives (NULL: unset;
 * @rule_id_length bytes of @rule_id). */
static void
plan_expand(const PdbMatchDirect *self, const gchar *rule_id, gsize rule_id_length,
            const gchar *class_name, GString *out)
{
  for (guint i = 0; i < self->n_pieces; i++)
    {
      const Piece *piece = &self->pieces[i];

      if (piece->kind == PIECE_LITERAL)
        append_fast(out, piece->text, piece->length);
      else
        {
          if (piece->kind == PIECE_RULE_ID)
            {
              if (rule_id)
                append_fast(out, rule_id, rule_id_length);
            }
          else if (class_name)
            append_fast(out, class_name, strlen(class_name));
        }
    }
}

typedef struct
{
  const gchar *rule_id;
  const gchar *class_name;
} ProbeValues;

static const gchar *
probe_values_lookup(const gchar *name, guint context_index, gssize *length, gpointer user_data)
{
  const ProbeValues *values = user_data;
  const gchar *value = strcmp(name, RULE_ID_NAME) == 0 ? values->rule_id : values->class_name;

  if (value)
    *length = -1;
  return value;
}

/* A plan for @text, kept only if it expands as @tmpl does for a match, an
 * unknown message and no ruleset (distinct values, so a swap shows). */
static void
plan_make(PdbMatchDirect *self, const gchar *text)
{
  static const ProbeValues probes[] =
  {
    { "rule-1 (Id)", "class_A" },
    { NULL, "unknown" },
    { NULL, NULL },
  };
  GString *want = g_string_new(NULL);
  GString *got = g_string_new(NULL);
  gboolean same = TRUE;

  self->plan_text = g_strdup(text);
  if (!plan_parse(self, self->plan_text))
    same = FALSE;
  for (gsize i = 0; same && i < G_N_ELEMENTS(probes); i++)
    {
      g_string_truncate(want, 0);
      g_string_truncate(got, 0);
      pdb_template_append(self->tmpl, probe_values_lookup, (gpointer) &probes[i], want);
      plan_expand(self, probes[i].rule_id, probes[i].rule_id ? strlen(probes[i].rule_id) : 0,
                  probes[i].class_name, got);
      same = g_string_equal(want, got);
    }
  if (!same)
    g_clear_pointer(&self->plan_text, g_free);
  g_string_free(want, TRUE);
  g_string_free(got, TRUE);
}

PdbMatchDirect *
pdb_match_direct_new(const PdbDatabase *db, const PdbTemplate *tmpl, const gchar *template_text)
{
  const GPtrArray *rules = pdb_database_get_rules(db);
  const GPtrArray *rulesets = pdb_database_get_rulesets(db);
  gboolean direct = TRUE;
  GString *probe;
  PdbMatchDirect *self;

  if (!tmpl || pdb_template_get_max_context_index(tmpl) > 0 || pdb_template_is_stateful(tmpl))
    return NULL;
  probe = g_string_new(NULL);
  pdb_template_append(tmpl, probe_lookup, &direct, probe);
  g_string_free(probe, TRUE);
  if (!direct)
    return NULL;
  /* with neither correlation nor values every rule allows it */
  for (guint i = 0; rules && (pdb_database_correlates(db) || pdb_database_has_values(db)) && i < rules->len; i++)
    if (!rule_allows_direct(g_ptr_array_index(rules, i)))
      return NULL;
  if (captures_may_write_classifier(db, rules))
    return NULL;
  for (guint r = 0; rulesets && r < rulesets->len; r++)
    {
      const PdbRuleset *rs = g_ptr_array_index(rulesets, r);

      for (guint p = 0; rs->program_patterns && p < rs->program_patterns->len; p++)
        if (mentions_classifier(g_ptr_array_index(rs->program_patterns, p)))
          return NULL;
    }
  self = g_new0(PdbMatchDirect, 1);
  self->db = db;
  self->tmpl = tmpl;
  pdb_result_init(&self->result);
  if (template_text)
    plan_make(self, template_text);
  return self;
}

void
pdb_match_direct_free(PdbMatchDirect *self)
{
  if (!self)
    return;
  pdb_result_clear(&self->result);
  g_free(self->plan_text);
  g_free(self);
}

/* What pdb_result_apply() would have written for the two names. */
static const gchar *
result_lookup(const gchar *name, guint context_index, gssize *length, gpointer user_data)
{
  const PdbResult *result = user_data;
  const gchar *value = NULL;

  (void) context_index;
  if (result->kind == PDB_RESULT_NONE)
    return NULL;
  if (strcmp(name, RULE_ID_NAME) == 0)
    value = result->kind == PDB_RESULT_MATCH ? result->rule->id : NULL;
  else
    value = result->kind == PDB_RESULT_MATCH ? result->rule->class_name : "unknown";
  if (value)
    *length = -1;
  return value;
}

/* The program and message of a line, FALSE when 3.38 cannot parse its header. */
static gboolean
line_program_message(const gchar *line, gsize length, PdbSlice *program, PdbSlice *message)
{
  static const gchar empty[] = "";

  if (!pdb_syslog_line_program_message(line, length, program, message))
    {
      PdbSyslogLine l;

      pdb_syslog_line_parse(line, length, &l);
      if (l.parse_error)
        return FALSE;
      *program = l.program;
      *message = l.message;
    }
  if (!program->data)
    program->data = empty;
  if (!message->data)
    message->data = empty;
  return TRUE;
}

/* Appends the template's expansion for @r. */
static void
expand_result(const PdbMatchDirect *self, const PdbResult *r, GString *out)
{
  if (self->plan_text)
    {
      const PdbMatch *m = &r->message_match;
      const gchar *rule_id = NULL, *class_name = NULL;
      gsize rule_id_length = 0;

      if (r->kind == PDB_RESULT_MATCH)
        {
          /* the label is the rule's id, in the tree record the lookup ended on */
          if (m->label)
            {
              rule_id = m->label;
              rule_id_length = m->label_length;
            }
          else if ((rule_id = r->rule->id))
            rule_id_length = strlen(rule_id);
          if (self->plan_needs_class)
            class_name = r->rule->class_name;
        }
      else if (r->kind == PDB_RESULT_UNKNOWN)
        class_name = "unknown";
      plan_expand(self, rule_id, rule_id_length, class_name, out);
    }
  else
    pdb_template_append(self->tmpl, result_lookup, (gpointer) r, out);
}

gboolean
pdb_match_direct_line(PdbMatchDirect *self, const gchar *line, gsize length, GString *out)
{
  PdbSlice program, message;

  if (!line_program_message(line, length, &program, &message))
    return FALSE;
  pdb_database_classify(self->db, program.data, program.length, message.data, message.length, &self->result);
  expand_result(self, &self->result, out);
  return TRUE;
}

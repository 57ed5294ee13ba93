/*
 * rule.h: what a patterndb XML file describes, as plain data.
 *
 * The loader (loader.c) fills these structures; nothing else creates them.
 * They are immutable once the database is loaded and are shared by every
 * thread that classifies with it. Everything is freed with the database:
 * a PdbRule's own strings (and those of its patterns, tags and urls) sit
 * in the database's string pool, the other structures own theirs. A rule
 * array that holds nothing may be an empty array shared by all rules:
 * read the arrays, never modify them.
 */
#ifndef PDB_DB_RULE_H
#define PDB_DB_RULE_H

#include "engine/radix.h"

G_BEGIN_DECLS

/* A compiled template (db/template.h). */
typedef struct _PdbTemplate PdbTemplate;
/* A template or condition compiled by the host's engine (db/expr-backend.h). */
typedef struct _PdbHostExpr PdbHostExpr;

typedef enum
{
  PDB_SCOPE_PROCESS = 0,   /* default: HOST + PROGRAM + PID + id */
  PDB_SCOPE_PROGRAM,       /* HOST + PROGRAM + id */
  PDB_SCOPE_HOST,          /* HOST + id */
  PDB_SCOPE_GLOBAL,        /* id only */
} PdbContextScope;

typedef enum
{
  PDB_INHERIT_NONE = 0,    /* default when neither attribute is given */
  PDB_INHERIT_LAST_MESSAGE,
  PDB_INHERIT_CONTEXT,
} PdbInheritMode;

typedef enum
{
  PDB_TRIGGER_MATCH = 0,
  PDB_TRIGGER_TIMEOUT,
} PdbActionTrigger;

/* <value name="n" type="t">template</value> */
typedef struct _PdbValueDef
{
  gchar *name;             /* with the database's capture prefix applied */
  gchar *template_text;    /* syslog-ng template syntax: $name, ${name}, ${name}@2 ... */
  gchar *type;             /* v6 type attribute, or NULL */
  PdbTemplate *compiled;   /* template_text compiled (with the 3.38 type-hint rule); NULL only
                            * when `host` is set and the db layer's engine refuses the text */
  PdbHostExpr *host;       /* set when the loader's backend evaluates it (db/expr-backend.h) */
  gchar *reference;        /* the name, when the text is one plain reference ($name, ${name})
                            * and neither `type` nor a cast is given: the value then takes
                            * the type of what it refers to (PdbMessageOps.get_typed), as 3.38 */
  PdbValueType value_type; /* what to pass to PdbMessageOps.set(): from `type`, else the cast */
  PdbLocation location;    /* of <value> */
} PdbValueDef;

/* <test_value name="n" type="t">expected</test_value> */
typedef struct _PdbTestValue
{
  gchar *name;
  gchar *value;
  gchar *type;             /* NULL unless given */
} PdbTestValue;

typedef struct _PdbExample
{
  gchar *program;          /* NULL: the example is skipped by `test`, as pdbtool does */
  gchar *message;
  GPtrArray *test_values;  /* of PdbTestValue* */
  PdbLocation location;    /* of <test_message> */
} PdbExample;

/* <message> inside an action or a create-context. */
typedef struct _PdbSyntheticMessage
{
  PdbInheritMode inherit_mode;
  GPtrArray *tags;         /* of gchar* */
  GPtrArray *values;       /* of PdbValueDef* */
} PdbSyntheticMessage;

typedef struct _PdbAction
{
  PdbActionTrigger trigger;
  gchar *condition;        /* filter expression, or NULL */
  struct _PdbFilterExpr *condition_expr;  /* `condition` compiled (db/filter-expr.h) */
  PdbHostExpr *condition_host; /* the condition compiled by the loader's backend, or NULL */
  guint rate_count;        /* 0: no rate limit; else rate_count per rate_period seconds */
  guint rate_period;
  gboolean has_message;
  PdbSyntheticMessage message;
  /* <create-context>: a new context seeded with `message` */
  gboolean creates_context;
  gchar *create_context_id;       /* template */
  PdbTemplate *create_context_id_template;
  PdbHostExpr *create_context_id_host; /* as PdbValueDef.host */
  gint create_context_timeout;
  PdbContextScope create_context_scope;
  PdbLocation location;
} PdbAction;

/* One <pattern>: its text and where it is in its file. */
typedef struct _PdbPatternPlace
{
  gchar *text;             /* verbatim, in the database's string pool */
  PdbLocation at;          /* given to the engine and shown by `dump`; as pdbtool, the column
                            * after the pattern text plus one */
  PdbLocation start;       /* where its text begins (messages) */
} PdbPatternPlace;

typedef struct _PdbRule
{
  gchar *id;
  gchar *class_name;       /* "system" when the XML gives none */
  gchar *class_tag;        /* ".classifier.<class>", cut at 31 bytes like 3.38 */
  gchar *provider;         /* may be NULL */
  gchar *context_id;       /* template, or NULL */
  PdbTemplate *context_id_template; /* context_id compiled, or NULL */
  PdbHostExpr *context_id_host;     /* as PdbValueDef.host */
  gint context_timeout;    /* seconds */
  PdbContextScope context_scope;
  guint n_patterns;        /* how many <pattern> elements it has */
  PdbPatternPlace *pattern_places; /* n_patterns entries (NULL when none): first_place
                                      for one pattern, else one allocation */
  PdbPatternPlace first_place;     /* the first pattern (most rules have one) */
  GPtrArray *tags;         /* of gchar* */
  GPtrArray *values;       /* of PdbValueDef* */
  GPtrArray *examples;     /* of PdbExample* */
  GPtrArray *actions;      /* of PdbAction* */
  gchar *description;      /* may be NULL */
  GPtrArray *urls;         /* of gchar* */
  PdbLocation location;    /* of <rule>; file string owned by the database */
  gpointer user_data;      /* free slot for the syslog-ng glue (compiled templates) */
  gpointer counter;        /* where the syslog-ng glue counts the rule's matches (next to
                            * index, which matching reads), or NULL */
  guint index;             /* its position in pdb_database_get_rules() */
} PdbRule;

/* One <ruleset>: the program patterns that select it and its message tree. */
typedef struct _PdbRuleset
{
  gchar *name;             /* attribute, informational only */
  gchar *id;
  GPtrArray *program_patterns; /* of gchar*; empty for the catch-all ruleset */
  GPtrArray *rules;        /* of PdbRule*, borrowed from the database */
  PdbRadix *messages;      /* message patterns -> PdbRule* */
  PdbLocation location;
  gchar *description;      /* may be NULL */
  GPtrArray *urls;         /* of gchar* */
} PdbRuleset;

const gchar *pdb_context_scope_to_string(PdbContextScope scope);
/* The scope named @name (process, program, host, global; ASCII case
 * ignored when @ignore_case), or FALSE. */
gboolean pdb_context_scope_from_string(const gchar *name, gboolean ignore_case, PdbContextScope *scope);
/* How many of HOST, PROGRAM, PID (in that order) a context key of @scope
 * holds: 3 for process ... 0 for global. */
guint pdb_context_scope_fields(PdbContextScope scope);
const gchar *pdb_inherit_mode_to_string(PdbInheritMode mode);
const gchar *pdb_action_trigger_to_string(PdbActionTrigger trigger);

G_END_DECLS

#endif

/*
 * loader.c: reads one patterndb XML file (versions 2 to 6) into a
 * PdbDatabase that is being built.
 *
 * Two front ends feed the same handlers (loader_start_element,
 * loader_end_element, loader_text, which take positions as arguments):
 * the fast scanner of xml-scan.c reads the file whole, checks that it is
 * well-formed and inside the small subset of XML that pattern databases
 * use, and only then reports it; any other file goes, untouched, through
 * libxml2 (the reference), so its messages and odd-input behaviour stay
 * libxml2's. libxml2's SAX2 parser pulls the file through a read callback
 * in small chunks (the pull parser needs no look-ahead scans, about 15%
 * fewer instructions than the push parser). Every element
 * goes through a small state machine (the `transitions` table below is the
 * whole grammar: which element may appear inside which), and every error
 * carries file:line:column: the '<' of the element concerned, or for stray
 * text the parser's position. Pattern locations follow pdbtool (the column
 * after the text, plus one), so `dump` prints what pdbtool prints. Rules are collected per
 * <ruleset> and inserted into the ruleset's message tree at </ruleset>, in
 * <pattern> order, as 3.38 does. Pattern problems the engine reports
 * (duplicates, unknown parsers, stray '@') are warnings; everything else is
 * an error that fails the file.
 *
 * Invariant: every object created here is owned by the database (or by an
 * object the database owns) from the moment it exists, so a failed load
 * frees everything by unreferencing the database.
 *
 * Security: no entity substitution (XML_PARSE_NOENT is never set and the
 * SAX handler has no getEntity, so a reference to a declared entity is an
 * error, not an expansion), no DTD loading, no network (XML_PARSE_NONET),
 * and files larger than PDB_LOADER_MAX_FILE_SIZE are refused.
 */
#define _GNU_SOURCE   /* memrchr() */
#include "db/database-private.h"
#include "db/template.h"
#include "db/xml-scan.h"

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#define PDB_LOADER_MAX_FILE_SIZE (256 * 1024 * 1024)
#define PDB_LOADER_CHUNK_SIZE (64 * 1024)
#define PDB_LOADER_MIN_VERSION 2
#define PDB_LOADER_MAX_VERSION 6

typedef enum
{
  ST_DOCUMENT,
  ST_PATTERNDB,
  ST_RULESET,
  ST_RULESET_PATTERNS,
  ST_RULESET_PATTERN,
  ST_RULESET_DESCRIPTION,
  ST_RULESET_URLS,
  ST_RULESET_URL,
  ST_RULES,
  ST_RULE,
  ST_RULE_PATTERNS,
  ST_RULE_PATTERN,
  ST_RULE_DESCRIPTION,
  ST_RULE_URLS,
  ST_RULE_URL,
  ST_TAGS,
  ST_TAG,
  ST_VALUES,
  ST_VALUE,
  ST_EXAMPLES,
  ST_EXAMPLE,
  ST_TEST_MESSAGE,
  ST_TEST_VALUES,
  ST_TEST_VALUE,
  ST_ACTIONS,
  ST_ACTION,
  ST_MESSAGE,
  ST_CREATE_CONTEXT,
  ST_COUNT
} LoaderState;

/* Element name of each state, for "inside <y>" in messages. */
static const gchar *const state_elements[] =
{
  [ST_DOCUMENT] = NULL,
  [ST_PATTERNDB] = "patterndb",
  [ST_RULESET] = "ruleset",
  [ST_RULESET_PATTERNS] = "patterns",
  [ST_RULESET_PATTERN] = "pattern",
  [ST_RULESET_DESCRIPTION] = "description",
  [ST_RULESET_URLS] = "urls",
  [ST_RULESET_URL] = "url",
  [ST_RULES] = "rules",
  [ST_RULE] = "rule",
  [ST_RULE_PATTERNS] = "patterns",
  [ST_RULE_PATTERN] = "pattern",
  [ST_RULE_DESCRIPTION] = "description",
  [ST_RULE_URLS] = "urls",
  [ST_RULE_URL] = "url",
  [ST_TAGS] = "tags",
  [ST_TAG] = "tag",
  [ST_VALUES] = "values",
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

/* The grammar: which element may appear inside which state. A rule accepts
 * <pattern>, <tag>, <value> and <url> directly as well as inside their
 * containers, as the 3.38 loader does. */
static const struct
{
  LoaderState parent;
  const gchar *element;
  LoaderState child;
} transitions[] =
{
  { ST_DOCUMENT, "patterndb", ST_PATTERNDB },
  { ST_PATTERNDB, "ruleset", ST_RULESET },
  { ST_RULESET, "pattern", ST_RULESET_PATTERN },
  { ST_RULESET, "patterns", ST_RULESET_PATTERNS },
  { ST_RULESET, "rules", ST_RULES },
  { ST_RULESET, "description", ST_RULESET_DESCRIPTION },
  { ST_RULESET, "url", ST_RULESET_URL },
  { ST_RULESET, "urls", ST_RULESET_URLS },
  { ST_RULESET_PATTERNS, "pattern", ST_RULESET_PATTERN },
  { ST_RULESET_URLS, "url", ST_RULESET_URL },
  { ST_RULES, "rule", ST_RULE },
  { ST_RULE, "patterns", ST_RULE_PATTERNS },
  { ST_RULE, "pattern", ST_RULE_PATTERN },
  { ST_RULE, "description", ST_RULE_DESCRIPTION },
  { ST_RULE, "urls", ST_RULE_URLS },
  { ST_RULE, "url", ST_RULE_URL },
  { ST_RULE, "tags", ST_TAGS },
  { ST_RULE, "tag", ST_TAG },
  { ST_RULE, "values", ST_VALUES },
  { ST_RULE, "value", ST_VALUE },
  { ST_RULE, "examples", ST_EXAMPLES },
  { ST_RULE, "actions", ST_ACTIONS },
  { ST_RULE_PATTERNS, "pattern", ST_RULE_PATTERN },
  { ST_RULE_URLS, "url", ST_RULE_URL },
  { ST_TAGS, "tag", ST_TAG },
  { ST_VALUES, "value", ST_VALUE },
  { ST_EXAMPLES, "example", ST_EXAMPLE },
  { ST_EXAMPLE, "test_message", ST_TEST_MESSAGE },
  { ST_EXAMPLE, "test_values", ST_TEST_VALUES },
  { ST_TEST_VALUES, "test_value", ST_TEST_VALUE },
  { ST_ACTIONS, "action", ST_ACTION },
  { ST_ACTION, "message", ST_MESSAGE },
  { ST_ACTION, "create-context", ST_CREATE_CONTEXT },
  { ST_CREATE_CONTEXT, "message", ST_MESSAGE },
  { ST_MESSAGE, "values", ST_VALUES },
  { ST_MESSAGE, "value", ST_VALUE },
  { ST_MESSAGE, "tags", ST_TAGS },
  { ST_MESSAGE, "tag", ST_TAG },
};

/* The transitions of each parent state, as indexes into transitions[]
 * (built once), so an element is looked up among its parent's few. */
#define MAX_CHILDREN 12

static struct
{
  guint8 count;
  guint8 index[MAX_CHILDREN];
} children_of[ST_COUNT];

static void
index_transitions(void)
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

static gboolean
state_holds_text(LoaderState state)
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
    case ST_TEST_MESSAGE:
    case ST_TEST_VALUE:
      return TRUE;
    default:
      return FALSE;
    }
}

/* An open element: its state and where its start tag begins. */
typedef struct _StackEntry
{
  LoaderState state;
  PdbLocation location;
} StackEntry;

/* A <ruleset> being read: its rules wait here until </ruleset>. */
typedef struct _PendingRuleset
{
  gchar *name;
  gchar *id;
  PdbLocation location;
  PdbRuleset *target;      /* chosen by the first <pattern>; NULL: catch-all */
  GPtrArray *rules;        /* of PdbRule*, borrowed from the database */
  gchar *description;
  GPtrArray *urls;         /* of gchar* */
} PendingRuleset;

typedef struct _PdbLoader
{
  PdbDatabase *db;
  const PdbLoadOptions *options;
  const gchar *file;        /* owned by db->files */
  xmlParserCtxtPtr ctxt;     /* libxml2 front end only: where its positions come from */
  PdbLocation here;         /* the front end's position, set before each event */
  GError *error;            /* the first error; parsing stops there */

  StackEntry *stack;        /* the open elements, stack[0] the document */
  guint depth;              /* entries in use (>= 1) */
  guint stack_capacity;
  GString *text;
  PdbLocation text_location; /* where the last piece of text ended (pdbtool's pattern location) */
  PdbLocation text_start;   /* where the text of the open element begins */
  gboolean in_start_tag;    /* inside on_start_element: errors point at start_location */
  gboolean in_end_tag;      /* inside on_end_element: errors point at the element's start */
  PdbLocation start_location; /* the '<' of the element being opened */

  PendingRuleset *ruleset;
  PdbRule *rule;
  PdbExample *example;
  PdbAction *action;
  PdbSyntheticMessage *message;
  gchar *value_name;        /* attributes of the open <value>/<test_value> */
  gchar *value_type;
  PdbLocation value_location;
  const PdbRule *last_rule_class; /* the last rule whose class was set (set_rule_class) */
  gsize last_class_length;  /* strlen() of its class_name */
  const gchar *last_provider; /* the last provider attribute, pooled */
} PdbLoader;

/* ---- positions and errors ---------------------------------------------- */

/* The position the front end reported with the current event (libxml2's
 * parser position, or the scanner's equivalent). */
static PdbLocation
loader_location(PdbLoader *self)
{
  return self->here;
}

/* libxml2's parser position. */
static PdbLocation
xml_location(PdbLoader *self)
{
  PdbLocation location = { self->file, 0, 0 };

  if (self->ctxt && self->ctxt->input)
    {
      location.line = self->ctxt->input->line;
      location.column = self->ctxt->input->col;
    }
  return location;
}

/*
 * Where the element whose start tag was just parsed begins (its '<'). The
 * SAX2 start callback runs with the parser at the tag's '>' (or "/>");
 * attribute values cannot hold a raw '<', so the nearest '<' before it is
 * the tag's start. Falls back to the parser position when the buffer does
 * not reach back that far.
 */
static PdbLocation
xml_element_location(PdbLoader *self)
{
  PdbLocation location = xml_location(self);

  if (!self->ctxt || !self->ctxt->input || !self->ctxt->input->cur || !self->ctxt->input->base)
    return location;

  const xmlChar *base = self->ctxt->input->base;
  const xmlChar *cur = self->ctxt->input->cur;
  const xmlChar *lt = memrchr(base, '<', cur - base + 1);
  if (!lt)
    return location;

  PdbXmlScanPos pos = { location.line, location.column };
  pdb_xml_scan_move_back(base, lt, cur, &pos);
  location.line = pos.line;
  location.column = pos.column;
  return location;
}

/* Where a problem found now is reported: the element being opened or
 * closed, else (text) the parser position. */
static PdbLocation
loader_error_location(PdbLoader *self)
{
  if (self->in_start_tag)
    return self->start_location;
  if (self->in_end_tag)
    return self->stack[self->depth - 1].location;
  return loader_location(self);
}

static void loader_fail(PdbLoader *self, gint code, const gchar *format, ...) G_GNUC_PRINTF(3, 4);

/* Records the first error (prefixed with file:line:column: the start of the
 * element being opened, else the parser position); parsing stops after the
 * current chunk. */
static void
loader_fail(PdbLoader *self, gint code, const gchar *format, ...)
{
  if (self->error)
    return;

  PdbLocation location = loader_error_location(self);
  va_list args;
  va_start(args, format);
  gchar *message = g_strdup_vprintf(format, args);
  va_end(args);

  g_set_error(&self->error, PDB_DB_ERROR, code, "%s:%d:%d: %s",
              self->file, location.line, location.column, message);
  g_free(message);
  /* No xmlStopParser() here: it frees the input that the attribute values
   * of the current callback point into. Every callback ignores what comes
   * after an error, and no further chunk is fed. */
}

static void loader_warn(PdbLoader *self, const PdbLocation *location, const gchar *format, ...) G_GNUC_PRINTF(3, 4);

static void
loader_warn(PdbLoader *self, const PdbLocation *location, const gchar *format, ...)
{
  PdbLocation here = location ? *location : loader_error_location(self);
  va_list args;
  va_start(args, format);
  gchar *message = g_strdup_vprintf(format, args);
  va_end(args);

  pdb_database_warn(self->options, "%s:%d:%d: %s", self->file, here.line, here.column, message);
  g_free(message);
}

/* ---- attributes -------------------------------------------------------- */

/* SAX2 gives attributes as 5-tuples (localname, prefix, URI, value, end). */
typedef struct _Attributes
{
  gint count;
  const xmlChar **raw;
} Attributes;

/*
 * Returns a newly allocated copy of the attribute's value, or NULL.
 * Without entity substitution libxml2 hands every '&' of an attribute value
 * (from &amp; or &#38;) over as the text "&#38;"; this turns it back.
 */
static gchar *
attr_dup(const Attributes *attrs, const gchar *name)
{
  for (gint i = 0; i < attrs->count; i++)
    {
      const xmlChar **a = attrs->raw + i * 5;
      if (strcmp((const gchar *) a[0], name) != 0)
        continue;

      const gchar *p = (const gchar *) a[3];
      const gchar *end = (const gchar *) a[4];
      if (!memchr(p, '&', end - p))
        return g_strndup(p, end - p);

      GString *value = g_string_sized_new(end - p);
      while (p < end)
        {
          if (end - p >= 5 && memcmp(p, "&#38;", 5) == 0)
            {
              g_string_append_c(value, '&');
              p += 5;
            }
          else
            g_string_append_c(value, *p++);
        }
      return g_string_free(value, FALSE);
    }
  return NULL;
}

/*
 * The value of one attribute tuple (from attrs->raw, or NULL) in the
 * database's string pool, interned when @intern (providers), or NULL.
 * Decodes "&#38;" as attr_dup() does.
 */
static gchar *
attr_pool(PdbLoader *self, const xmlChar **a, gboolean intern)
{
  if (!a)
    return NULL;

  const gchar *p = (const gchar *) a[3];
  const gchar *end = (const gchar *) a[4];
  if (!intern && !memchr(p, '&', end - p))
    return (gchar *) pdb_database_store(self->db, p, end - p);

  Attributes one = { 1, a };
  gchar *value = attr_dup(&one, (const gchar *) a[0]);
  const gchar *pooled = intern ? pdb_database_intern(self->db, value)
                               : pdb_database_store(self->db, value, -1);
  g_free(value);
  return (gchar *) pooled;
}

/* The value of one attribute tuple as a new string, or NULL. */
static gchar *
attr_dup_one(const xmlChar **a)
{
  Attributes one = { 1, a };

  return a ? attr_dup(&one, (const gchar *) a[0]) : NULL;
}

/* ---- small parsers for attribute values -------------------------------- */

static gboolean
parse_scope(PdbLoader *self, const gchar *value, PdbContextScope *scope)
{
  static const struct
  {
    const gchar *name;
    PdbContextScope scope;
  } scopes[] =
  {
    { "process", PDB_SCOPE_PROCESS },
    { "program", PDB_SCOPE_PROGRAM },
    { "host", PDB_SCOPE_HOST },
    { "global", PDB_SCOPE_GLOBAL },
  };

  for (gsize i = 0; i < G_N_ELEMENTS(scopes); i++)
    {
      if (strcmp(scopes[i].name, value) == 0)
        {
          *scope = scopes[i].scope;
          return TRUE;
        }
    }
  loader_fail(self, PDB_DB_ERROR_STRUCTURE,
              "unknown context-scope '%s', expected one of process, program, host, global", value);
  return FALSE;
}

static gint
parse_timeout(PdbLoader *self, const gchar *value)
{
  gchar *end = NULL;
  glong timeout = strtol(value, &end, 0);

  if (end == value || *end != '\0')
    {
      loader_warn(self, &self->start_location, "context-timeout '%s' is not a whole number, using %ld", value, timeout);
    }
  return (gint) CLAMP(timeout, G_MININT, G_MAXINT);
}

/* The db layer's compilation of @text; with a backend that takes the text,
 * also the backend's, in *host (db/expr-backend.h). */
static PdbTemplate *
compile_template(PdbLoader *self, const gchar *what, const gchar *text, gboolean with_type_hint,
                 PdbHostExpr **host)
{
  GError *error = NULL;
  PdbTemplate *tmpl = NULL;

  if (!pdb_expr_compile_template(self->options ? self->options->backend : NULL, text, with_type_hint,
                                 &tmpl, host, &error))
    {
      loader_fail(self, PDB_DB_ERROR_TEMPLATE, "rule '%s': %s: template '%s' does not compile: %s",
                  self->rule ? self->rule->id : "", what, text, error->message);
      g_error_free(error);
    }
  return tmpl;
}

/* With a backend, conditions are compiled at load: one the host refuses
 * makes the database fail, as it does in the host. */
static void
compile_condition(PdbLoader *self, PdbAction *action)
{
  GError *error = NULL;

  action->condition_host = pdb_host_expr_compile_condition(self->options->backend, action->condition, &error);
  if (!action->condition_host)
    {
      loader_fail(self, PDB_DB_ERROR_TEMPLATE, "rule '%s': action condition '%s' does not compile: %s",
                  self->rule ? self->rule->id : "", action->condition, error->message);
      g_error_free(error);
    }
}

static gchar *
prefixed_name(PdbLoader *self, const gchar *name)
{
  const gchar *prefix = self->db->capture_prefix;

  return g_strconcat(prefix ? prefix : "", name, NULL);
}

/* ---- element start handlers -------------------------------------------- */

static void
start_patterndb(PdbLoader *self, const Attributes *attrs)
{
  gchar *version = attr_dup(attrs, "version");
  gchar *pub_date = attr_dup(attrs, "pub_date");

  if (!version)
    {
      loader_warn(self, NULL, "patterndb version is unspecified, assuming v4 format; "
                  "add version='4' to <patterndb>");
      version = g_strdup("4");
    }

  gint number = atoi(version);
  if (number < PDB_LOADER_MIN_VERSION)
    loader_fail(self, PDB_DB_ERROR_STRUCTURE,
                "patterndb version '%s' is too old (versions %d to %d are supported); "
                "convert the file with `patterndb merge`",
                version, PDB_LOADER_MIN_VERSION, PDB_LOADER_MAX_VERSION);
  else if (number > PDB_LOADER_MAX_VERSION)
    loader_fail(self, PDB_DB_ERROR_STRUCTURE,
                "patterndb version '%s' is too new (versions %d to %d are supported)",
                version, PDB_LOADER_MIN_VERSION, PDB_LOADER_MAX_VERSION);
  else if (!self->db->version)
    {
      self->db->version = g_strdup(version);
      self->db->pub_date = g_strdup(pub_date);
    }
  g_free(version);
  g_free(pub_date);
}

static void
start_ruleset(PdbLoader *self, const Attributes *attrs)
{
  PendingRuleset *pending = g_new0(PendingRuleset, 1);

  pending->name = attr_dup(attrs, "name");
  pending->id = attr_dup(attrs, "id");
  pending->location = self->start_location;
  pending->rules = g_ptr_array_new();
  pending->urls = g_ptr_array_new_with_free_func(g_free);
  self->ruleset = pending;

  /* As 3.38: once a database has any ruleset, a program that no ruleset
   * selects is classified as unknown (not left untouched). */
  pdb_database_get_catch_all(self->db);
}

/* A rule's class (@a: its class attribute, NULL: none, "system"). The
 * class of the previous <rule> is most often the class of the next one,
 * so that one is reused without interning it again. */
static void
set_rule_class(PdbLoader *self, PdbRule *rule, const xmlChar **a)
{
  const gchar *raw = a ? (const gchar *) a[3] : "system";
  gsize length = a ? (gsize) ((const gchar *) a[4] - raw) : strlen(raw);

  if (self->last_rule_class && length == self->last_class_length
      && memcmp(self->last_rule_class->class_name, raw, length) == 0 && !memchr(raw, '&', length))
    {
      rule->class_name = self->last_rule_class->class_name;
      rule->class_tag = self->last_rule_class->class_tag;
      return;
    }
  gchar *value = a ? attr_dup_one(a) : NULL;
  pdb_rule_set_class(self->db, rule, value);
  g_free(value);
  self->last_class_length = strlen(rule->class_name);
  self->last_rule_class = rule;
}

static void
start_rule(PdbLoader *self, const Attributes *attrs)
{
  enum { A_ID, A_CLASS, A_PROVIDER, A_TIMEOUT, A_SCOPE, A_CONTEXT_ID, A_COUNT };
  static const gchar *const names[A_COUNT] =
  {
    "id", "class", "provider", "context-timeout", "context-scope", "context-id"
  };
  const xmlChar **found[A_COUNT] = { NULL };
  PdbRule *rule = pdb_rule_new();
  gchar *value;

  /* one pass over the attributes; they are then handled in a fixed order */
  for (gint i = 0; i < attrs->count; i++)
    {
      const xmlChar **a = attrs->raw + i * 5;

      for (gint k = 0; k < A_COUNT; k++)
        if (!found[k] && strcmp((const gchar *) a[0], names[k]) == 0)
          {
            found[k] = a;
            break;
          }
    }

  set_rule_class(self, rule, found[A_CLASS]);
  rule->location = self->start_location;
  pdb_database_add_rule(self->db, rule);
  self->rule = rule;
  g_ptr_array_add(self->ruleset->rules, rule);

  rule->id = attr_pool(self, found[A_ID], FALSE);
  if (!rule->id)
    {
      loader_fail(self, PDB_DB_ERROR_STRUCTURE, "<rule> has no id attribute; add id='...' (a unique name)");
      return;
    }
  pdb_database_index_rule(self->db, rule);

  if (found[A_PROVIDER])
    {
      const xmlChar **a = found[A_PROVIDER];
      gsize length = a[4] - a[3];

      /* as the class: most rules repeat the provider of the previous one */
      if (!(self->last_provider && strlen(self->last_provider) == length
            && memcmp(self->last_provider, a[3], length) == 0 && !memchr(a[3], '&', length)))
        self->last_provider = attr_pool(self, a, TRUE);
      rule->provider = (gchar *) self->last_provider;
    }

  value = attr_dup_one(found[A_TIMEOUT]);
  if (value)
    rule->context_timeout = parse_timeout(self, value);
  g_free(value);

  value = attr_dup_one(found[A_SCOPE]);
  if (value)
    parse_scope(self, value, &rule->context_scope);
  g_free(value);

  rule->context_id = attr_pool(self, found[A_CONTEXT_ID], FALSE);
  if (rule->context_id)
    rule->context_id_template = compile_template(self, "context-id", rule->context_id, FALSE,
                                                 &rule->context_id_host);
}

static void
start_value(PdbLoader *self, const Attributes *attrs, const gchar *element)
{
  g_free(self->value_name);
  g_free(self->value_type);
  self->value_name = attr_dup(attrs, "name");
  self->value_type = attr_dup(attrs, "type");
  self->value_location = self->start_location;

  if (!self->value_name)
    loader_fail(self, PDB_DB_ERROR_STRUCTURE, "<%s> has no name attribute in rule '%s'; add name='...'",
                element, self->rule ? self->rule->id : "");
}

static void
start_example(PdbLoader *self)
{
  self->example = pdb_example_new();
  self->example->location = self->start_location;
  pdb_rule_array_add(&self->rule->examples, self->example, (GDestroyNotify) pdb_example_free);
}

static void
start_test_message(PdbLoader *self, const Attributes *attrs)
{
  g_free(self->example->program);
  self->example->program = attr_dup(attrs, "program");
  self->example->location = self->start_location;
}

static void
start_action(PdbLoader *self, const Attributes *attrs)
{
  PdbAction *action = pdb_action_new();
  gchar *value;

  action->location = self->start_location;
  pdb_rule_array_add(&self->rule->actions, action, (GDestroyNotify) pdb_action_free);
  self->action = action;

  value = attr_dup(attrs, "trigger");
  if (value)
    {
      if (strcmp(value, "match") == 0)
        action->trigger = PDB_TRIGGER_MATCH;
      else if (strcmp(value, "timeout") == 0)
        action->trigger = PDB_TRIGGER_TIMEOUT;
      else
        loader_fail(self, PDB_DB_ERROR_STRUCTURE,
                    "unknown action trigger '%s' in rule '%s', expected one of match, timeout",
                    value, self->rule->id);
    }
  g_free(value);

  action->condition = attr_dup(attrs, "condition");
  if (action->condition && self->options && self->options->backend)
    compile_condition(self, action);

  value = attr_dup(attrs, "rate");
  if (value)
    {
      gchar *slash = strchr(value, '/');
      action->rate_count = (guint) MAX(atoi(value), 0);
      action->rate_period = slash ? (guint) MAX(atoi(slash + 1), 0) : 1;
      if (action->rate_period == 0)
        action->rate_period = 1;
    }
  g_free(value);
}

static void
start_create_context(PdbLoader *self, const Attributes *attrs)
{
  PdbAction *action = self->action;
  gchar *value;

  if (action->has_message || action->creates_context)
    {
      loader_fail(self, PDB_DB_ERROR_STRUCTURE,
                  "an <action> holds one <message> or one <create-context> (rule '%s')", self->rule->id);
      return;
    }
  action->creates_context = TRUE;

  value = attr_dup(attrs, "context-timeout");
  if (value)
    action->create_context_timeout = parse_timeout(self, value);
  g_free(value);

  value = attr_dup(attrs, "context-scope");
  if (value)
    parse_scope(self, value, &action->create_context_scope);
  g_free(value);

  action->create_context_id = attr_dup(attrs, "context-id");
  if (!action->create_context_id)
    loader_fail(self, PDB_DB_ERROR_STRUCTURE,
                "<create-context> has no context-id attribute in rule '%s'; add context-id='...'",
                self->rule->id);
  else
    action->create_context_id_template = compile_template(self, "create-context context-id",
                                                          action->create_context_id, FALSE,
                                                          &action->create_context_id_host);
}

static void
start_message(PdbLoader *self, const Attributes *attrs, LoaderState parent)
{
  PdbAction *action = self->action;
  PdbSyntheticMessage *message = &action->message;
  gchar *value;

  if (parent == ST_ACTION)
    {
      if (action->has_message || action->creates_context)
        {
          loader_fail(self, PDB_DB_ERROR_STRUCTURE,
                      "an <action> holds one <message> or one <create-context> (rule '%s')", self->rule->id);
          return;
        }
      action->has_message = TRUE;
    }
  self->message = message;

  value = attr_dup(attrs, "inherit-properties");
  if (value)
    {
      if (value[0] == 'T' || value[0] == 't' || value[0] == '1')
        message->inherit_mode = PDB_INHERIT_LAST_MESSAGE;
      else if (value[0] == 'F' || value[0] == 'f' || value[0] == '0')
        message->inherit_mode = PDB_INHERIT_NONE;
      else if (strcmp(value, "context") == 0)
        message->inherit_mode = PDB_INHERIT_CONTEXT;
      else
        loader_fail(self, PDB_DB_ERROR_STRUCTURE,
                    "unknown inherit-properties '%s' in rule '%s', expected one of TRUE, FALSE, context",
                    value, self->rule->id);
    }
  g_free(value);

  value = attr_dup(attrs, "inherit-mode");
  if (value)
    {
      if (strcmp(value, "none") == 0)
        message->inherit_mode = PDB_INHERIT_NONE;
      else if (strcmp(value, "last-message") == 0)
        message->inherit_mode = PDB_INHERIT_LAST_MESSAGE;
      else if (strcmp(value, "context") == 0)
        message->inherit_mode = PDB_INHERIT_CONTEXT;
      else
        loader_fail(self, PDB_DB_ERROR_STRUCTURE,
                    "unknown inherit-mode '%s' in rule '%s', expected one of none, last-message, context",
                    value, self->rule->id);
    }
  g_free(value);
}

/* ---- element end handlers ---------------------------------------------- */

/* A ruleset <pattern>: the first one picks (or creates) the ruleset, the
 * others are aliases that must not belong to another ruleset. */
static void
end_ruleset_pattern(PdbLoader *self, const gchar *pattern)
{
  PendingRuleset *pending = self->ruleset;
  PdbRuleset *existing = pdb_database_lookup_program(self->db, pattern);
  PdbLocation location = self->text_location;

  if (!pending->target)
    {
      if (existing)
        {
          pending->target = existing;
          return;
        }
      PdbRuleset *ruleset = pdb_database_new_ruleset(self->db);
      ruleset->name = g_strdup(pending->name);
      ruleset->id = g_strdup(pending->id);
      ruleset->location = pending->location;
      pending->target = ruleset;
      existing = NULL;
    }
  else if (existing && existing != pending->target)
    {
      loader_fail(self, PDB_DB_ERROR_STRUCTURE,
                  "Joining rulesets with mismatching program name sets: program '%s' already "
                  "selects ruleset '%s' (%s:%d), but this ruleset starts with program '%s'",
                  pattern, existing->name ? existing->name : "", existing->location.file,
                  existing->location.line,
                  pending->target->program_patterns->len ?
                  (const gchar *) g_ptr_array_index(pending->target->program_patterns, 0) : "");
      return;
    }

  if (!existing)
    {
      pdb_database_add_program(self->db, pattern, pending->target, &location, &self->text_start);
      g_ptr_array_add(pending->target->program_patterns, g_strdup(pattern));
    }
}

static void
end_ruleset(PdbLoader *self)
{
  PendingRuleset *pending = self->ruleset;
  PdbRuleset *target = pending->target;

  if (!target)
    target = pdb_database_get_catch_all(self->db);
  if (!target->name && !target->id)
    {
      target->name = g_strdup(pending->name);
      target->id = g_strdup(pending->id);
      target->location = pending->location;
    }
  if (!target->description && pending->description)
    target->description = g_strdup(pending->description);
  for (guint i = 0; i < pending->urls->len; i++)
    g_ptr_array_add(target->urls, g_strdup(g_ptr_array_index(pending->urls, i)));

  for (guint i = 0; i < pending->rules->len; i++)
    {
      PdbRule *rule = g_ptr_array_index(pending->rules, i);

      g_ptr_array_add(target->rules, rule);
      for (guint p = 0; p < rule->patterns->len; p++)
        {
          const gchar *pattern = g_ptr_array_index(rule->patterns, p);
          const PdbLocation *location = &rule->pattern_places[p].at;
          GError *error = NULL;

          if (!pdb_radix_insert(target->messages, pattern, rule, location, &error))
            {
              PdbLocation where;
              const gchar *explanation =
                pdb_split_engine_location(error->message, location,
                                          &rule->pattern_places[p].start, &where);

              loader_warn(self, &where, "rule '%s': %s", rule->id, explanation);
              g_error_free(error);
            }
        }
    }
}

static void
pending_ruleset_free(PendingRuleset *pending)
{
  if (!pending)
    return;
  g_free(pending->name);
  g_free(pending->id);
  g_ptr_array_unref(pending->rules);
  g_free(pending->description);
  g_ptr_array_unref(pending->urls);
  g_free(pending);
}

static void
end_value(PdbLoader *self, const gchar *text)
{
  PdbValueDef *value = pdb_value_def_new();
  PdbTypeHint hint = PDB_TYPE_HINT_NONE;

  value->name = prefixed_name(self, self->value_name);
  value->template_text = g_strdup(text);
  value->type = g_strdup(self->value_type);
  value->location = self->value_location;
  if (self->message)
    g_ptr_array_add(self->message->values, value);
  else
    pdb_rule_array_add(&self->rule->values, value, (GDestroyNotify) pdb_value_def_free);

  if (value->type && !pdb_type_hint_parse(value->type, -1, &hint))
    {
      loader_fail(self, PDB_DB_ERROR_STRUCTURE,
                  "rule '%s': value '%s': unknown type '%s', expected one of " PDB_TYPE_HINT_NAMES,
                  self->rule->id, self->value_name, value->type);
      return;
    }

  gchar *what = g_strdup_printf("value '%s'", self->value_name);
  value->compiled = compile_template(self, what, text, TRUE, &value->host);
  g_free(what);
  if (!value->compiled)
    return;
  if (!value->type)
    hint = pdb_template_get_type_hint(value->compiled);
  value->value_type = pdb_type_hint_to_value_type(hint);
  if (!value->type && hint == PDB_TYPE_HINT_NONE)
    value->reference = pdb_expr_plain_reference(text);
}

static void
end_test_value(PdbLoader *self, const gchar *text)
{
  PdbTestValue *value = pdb_test_value_new();

  value->name = g_strdup(self->value_name);
  value->value = g_strdup(text);
  value->type = g_strdup(self->value_type);
  g_ptr_array_add(self->example->test_values, value);
}

static void
end_text_element(PdbLoader *self, LoaderState state)
{
  const gchar *text = self->text->str;

  switch (state)
    {
    case ST_RULESET_PATTERN:
      end_ruleset_pattern(self, text);
      break;
    case ST_RULESET_DESCRIPTION:
      g_free(self->ruleset->description);
      self->ruleset->description = g_strdup(text);
      break;
    case ST_RULESET_URL:
      g_ptr_array_add(self->ruleset->urls, g_strdup(text));
      break;
    case ST_RULE_PATTERN:
      pdb_rule_add_pattern(self->rule, pdb_database_store(self->db, text, self->text->len),
                           &self->text_location, &self->text_start);
      break;
    case ST_RULE_DESCRIPTION:
      self->rule->description = (gchar *) pdb_database_store(self->db, text, self->text->len);
      break;
    case ST_RULE_URL:
      pdb_rule_array_add(&self->rule->urls, (gpointer) pdb_database_store(self->db, text, self->text->len),
                         NULL);
      break;
    case ST_TAG:
      if (self->message)
        g_ptr_array_add(self->message->tags, g_strdup(text));
      else
        pdb_rule_array_add(&self->rule->tags, (gpointer) pdb_database_intern(self->db, text), NULL);
      break;
    case ST_VALUE:
      end_value(self, text);
      break;
    case ST_TEST_MESSAGE:
      g_free(self->example->message);
      self->example->message = g_strdup(text);
      break;
    case ST_TEST_VALUE:
      end_test_value(self, text);
      break;
    default:
      break;
    }
}

/* ---- SAX callbacks ----------------------------------------------------- */

static LoaderState
top_state(PdbLoader *self)
{
  return self->stack[self->depth - 1].state;
}

static void
fail_unknown_element(PdbLoader *self, LoaderState parent, const gchar *element)
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
  if (parent == ST_DOCUMENT)
    loader_fail(self, PDB_DB_ERROR_STRUCTURE, "unknown element <%s> at the top level, expected %s",
                element, expected->str);
  else if (expected->len == 0)
    loader_fail(self, PDB_DB_ERROR_STRUCTURE, "unknown element <%s> inside <%s>, expected text only",
                element, state_elements[parent]);
  else
    loader_fail(self, PDB_DB_ERROR_STRUCTURE, "unknown element <%s> inside <%s>, expected one of %s",
                element, state_elements[parent], expected->str);
  g_string_free(expected, TRUE);
}

/* ---- events (both front ends) ----------------------------------------- */

/*
 * An element starts: @start is its '<' (as the libxml2 path computes it),
 * @tag_end the start tag's '>' (or the '/' of "/>"); @attrs as SAX2's.
 */
static void
loader_start_element(PdbLoader *self, const gchar *element, const Attributes *attributes,
                     const PdbLocation *start, const PdbLocation *tag_end)
{
  LoaderState parent = top_state(self);
  LoaderState child = ST_DOCUMENT;
  gboolean found = FALSE;
  Attributes attrs = *attributes;

  if (self->error)
    return;
  self->here = *tag_end;
  self->start_location = *start;
  self->in_start_tag = TRUE;
  for (guint k = 0; k < children_of[parent].count && !found; k++)
    {
      gsize i = children_of[parent].index[k];

      if (transitions[i].element[0] == element[0] && strcmp(transitions[i].element, element) == 0)
        {
          child = transitions[i].child;
          found = TRUE;
        }
    }
  if (!found)
    {
      fail_unknown_element(self, parent, element);
      self->in_start_tag = FALSE;
      return;
    }

  if (self->depth == self->stack_capacity)
    {
      self->stack_capacity *= 2;
      self->stack = g_renew(StackEntry, self->stack, self->stack_capacity);
    }
  self->stack[self->depth].state = child;
  self->stack[self->depth].location = self->start_location;
  self->depth++;
  g_string_truncate(self->text, 0);
  self->text_location = *tag_end;
  /* The parser stands on the start tag's '>': text begins one column on. */
  self->text_start = self->text_location;
  self->text_start.column++;

  switch (child)
    {
    case ST_PATTERNDB:
      start_patterndb(self, &attrs);
      break;
    case ST_RULESET:
      start_ruleset(self, &attrs);
      break;
    case ST_RULE:
      start_rule(self, &attrs);
      break;
    case ST_VALUE:
      start_value(self, &attrs, "value");
      break;
    case ST_TEST_VALUE:
      start_value(self, &attrs, "test_value");
      break;
    case ST_EXAMPLE:
      start_example(self);
      break;
    case ST_TEST_MESSAGE:
      start_test_message(self, &attrs);
      break;
    case ST_ACTION:
      start_action(self, &attrs);
      break;
    case ST_CREATE_CONTEXT:
      start_create_context(self, &attrs);
      break;
    case ST_MESSAGE:
      start_message(self, &attrs, parent);
      break;
    default:
      break;
    }
  self->in_start_tag = FALSE;
}

static void
loader_end_element(PdbLoader *self)
{
  LoaderState state = top_state(self);

  if (self->error)
    return;
  self->in_end_tag = TRUE;
  if (state_holds_text(state))
    end_text_element(self, state);

  switch (state)
    {
    case ST_RULESET:
      end_ruleset(self);
      pending_ruleset_free(self->ruleset);
      self->ruleset = NULL;
      break;
    case ST_RULE:
      self->rule = NULL;
      break;
    case ST_EXAMPLE:
      self->example = NULL;
      break;
    case ST_ACTION:
      self->action = NULL;
      break;
    case ST_MESSAGE:
      self->message = NULL;
      break;
    default:
      break;
    }
  self->in_end_tag = FALSE;
  self->depth--;
}

/* A piece of text; @end: the position just after it. */
static void
loader_text(PdbLoader *self, const gchar *text, gsize length, const PdbLocation *end)
{
  LoaderState state = top_state(self);

  if (self->error)
    return;
  self->here = *end;
  if (state_holds_text(state))
    {
      g_string_append_len(self->text, text, length);
      self->text_location = *end;
      /* pdbtool (GMarkup) reports the column after the text plus one. */
      self->text_location.column++;
      return;
    }
  for (gsize i = 0; i < length; i++)
    {
      if (!g_ascii_isspace(text[i]))
        {
          gint shown = (gint) MIN(length - i, 40);
          loader_fail(self, PDB_DB_ERROR_STRUCTURE, "unexpected text '%.*s' inside <%s>, expected only elements",
                      shown, text + i,
                      state == ST_DOCUMENT ? "document" : state_elements[state]);
          return;
        }
    }
}

/* ---- the libxml2 front end (SAX2 callbacks) ---------------------------- */

static void
on_start_element(void *user_data, const xmlChar *localname, const xmlChar *prefix,
                 const xmlChar *uri, int nb_namespaces, const xmlChar **namespaces,
                 int nb_attributes, int nb_defaulted, const xmlChar **attributes)
{
  PdbLoader *self = user_data;
  Attributes attrs = { nb_attributes, attributes };

  if (self->error)
    return;
  PdbLocation start = xml_element_location(self);
  PdbLocation tag_end = xml_location(self);
  loader_start_element(self, (const gchar *) localname, &attrs, &start, &tag_end);
}

static void
on_end_element(void *user_data, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri)
{
  PdbLoader *self = user_data;

  if (self->error)
    return;
  self->here = xml_location(self);
  loader_end_element(self);
}

static void
on_characters(void *user_data, const xmlChar *text, int length)
{
  PdbLoader *self = user_data;

  if (self->error)
    return;
  PdbLocation end = xml_location(self);
  loader_text(self, (const gchar *) text, (gsize) length, &end);
}

static void
on_reference(void *user_data, const xmlChar *name)
{
  PdbLoader *self = user_data;

  self->here = xml_location(self);

  loader_fail(self, PDB_DB_ERROR_XML, "entity reference '&%s;' is not supported "
              "(only &lt; &gt; &amp; &quot; &apos; and character references are)", (const gchar *) name);
}

static void
on_xml_error(void *user_data, xmlErrorPtr error)
{
  PdbLoader *self = user_data;

  if (self->error || error->level < XML_ERR_ERROR)
    return;

  gchar *message = g_strchomp(g_strdup(error->message ? error->message : "XML error"));
  g_set_error(&self->error, PDB_DB_ERROR, PDB_DB_ERROR_XML, "%s:%d:%d: %s",
              self->file, error->line, error->int2, message);
  g_free(message);
}

/* ---- the fast front end (xml-scan.c) ---------------------------------- */

static PdbLocation
scan_location(PdbLoader *self, const PdbXmlScanPos *pos)
{
  PdbLocation location = { self->file, pos->line, pos->column };
  return location;
}

static gboolean
scan_start_element(gpointer user_data, const gchar *name, gint n_attributes, const gchar **attributes,
                   const PdbXmlScanPos *start, const PdbXmlScanPos *tag_end)
{
  PdbLoader *self = user_data;
  Attributes attrs = { n_attributes, (const xmlChar **) attributes };
  PdbLocation start_location = scan_location(self, start);
  PdbLocation tag_end_location = scan_location(self, tag_end);

  loader_start_element(self, name, &attrs, &start_location, &tag_end_location);
  return !self->error;
}

static gboolean
scan_end_element(gpointer user_data)
{
  PdbLoader *self = user_data;

  loader_end_element(self);
  return !self->error;
}

static gboolean
scan_text(gpointer user_data, const gchar *text, gsize length, const PdbXmlScanPos *end)
{
  PdbLoader *self = user_data;
  PdbLocation end_location = scan_location(self, end);

  loader_text(self, text, length, &end_location);
  return !self->error;
}

/* The file's bytes (read whole, NUL-terminated) in an anonymous mapping, so
 * that pages already scanned can be given back while the database grows. */
typedef struct _FileImage
{
  gchar *bytes;
  gsize mapped;
} FileImage;

static void
scan_consumed(gpointer user_data, gsize offset)
{
  FileImage *image = user_data;
  gsize page = (gsize) sysconf(_SC_PAGESIZE);

  madvise(image->bytes, offset / page * page, MADV_DONTNEED);
}

/* What the scanner's events go to: the loader, and the image for
 * scan_consumed(). */
typedef struct _ScanTarget
{
  PdbLoader *loader;
  FileImage *image;
} ScanTarget;

static gboolean
scan_target_start(gpointer user_data, const gchar *name, gint n_attributes, const gchar **attributes,
                  const PdbXmlScanPos *start, const PdbXmlScanPos *tag_end)
{
  return scan_start_element(((ScanTarget *) user_data)->loader, name, n_attributes, attributes, start, tag_end);
}

static gboolean
scan_target_end(gpointer user_data)
{
  return scan_end_element(((ScanTarget *) user_data)->loader);
}

static gboolean
scan_target_text(gpointer user_data, const gchar *text, gsize length, const PdbXmlScanPos *end)
{
  return scan_text(((ScanTarget *) user_data)->loader, text, length, end);
}

static void
scan_target_consumed(gpointer user_data, gsize offset)
{
  scan_consumed(((ScanTarget *) user_data)->image, offset);
}

/* Reads the whole file (@size bytes when opened) into @image. FALSE when
 * that fails or the file changed size: the libxml2 path then reads it. */
static gboolean
read_image(int fd, gsize size, FileImage *image)
{
  gsize page = (gsize) sysconf(_SC_PAGESIZE);
  gsize got = 0;
  gchar extra;

  /* the scanner's padding reads as NUL bytes */
  image->mapped = (size + PDB_XML_SCAN_PADDING + page - 1) / page * page;
  /* MAP_POPULATE: one bulk fault instead of one per page in read() */
  image->bytes = mmap(NULL, image->mapped, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
  if (image->bytes == MAP_FAILED)
    {
      image->bytes = NULL;
      return FALSE;
    }
  while (got < size)
    {
      gssize n = read(fd, image->bytes + got, size - got);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      got += (gsize) n;
    }
  return read(fd, &extra, 1) == 0;
}

/*
 * Which front end reads the files. A testing aid (the differential tests
 * compare the two): PATTERNDB_XML=libxml2 in the environment sends every
 * file through libxml2, PATTERNDB_XML=scanner fails the files that the
 * fast scanner does not take instead of handing them to libxml2.
 */
typedef enum
{
  FRONT_END_AUTO,
  FRONT_END_LIBXML2,
  FRONT_END_SCANNER,
} FrontEnd;

static FrontEnd
xml_front_end(void)
{
  const gchar *force = getenv("PATTERNDB_XML");

  if (force && strcmp(force, "libxml2") == 0)
    return FRONT_END_LIBXML2;
  if (force && strcmp(force, "scanner") == 0)
    return FRONT_END_SCANNER;
  return FRONT_END_AUTO;
}

/*
 * Loads the file with the fast scanner when it is inside the scanner's
 * subset. Returns FALSE, having given nothing to the database, when the
 * file must go through libxml2: outside the subset, not well-formed, or
 * not readable in one go.
 */
static gboolean
load_with_scanner(PdbLoader *self, int fd, gsize size)
{
  static const PdbXmlScanEvents events =
  {
    scan_target_start, scan_target_end, scan_target_text, scan_target_consumed
  };
  FileImage image = { NULL, 0 };
  PdbXmlScanFacts facts;
  gboolean loaded = FALSE;

  if (read_image(fd, size, &image) && pdb_xml_scan_check(image.bytes, size, &facts))
    {
      ScanTarget target = { self, &image };
      pdb_xml_scan_events(image.bytes, size, &facts, &events, &target);
      loaded = TRUE;
    }
  if (image.bytes)
    munmap(image.bytes, image.mapped);
  return loaded;
}

/* ---- entry point ------------------------------------------------------- */

/* Opens @path for reading after checking that it is a regular file within
 * the size limit. Returns the descriptor, or -1 with @error set. */
static int
open_file(const gchar *path, gsize *size, GError **error)
{
  struct stat st;
  /* O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below). */
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

  if (fd < 0 || fstat(fd, &st) < 0)
    {
      int saved = errno;
      g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_IO, "%s: cannot open pattern database: %s",
                  path, g_strerror(saved));
      if (fd >= 0)
        close(fd);
      return -1;
    }
  if (!S_ISREG(st.st_mode))
    g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_IO, "%s: not a regular file", path);
  else if (st.st_size > PDB_LOADER_MAX_FILE_SIZE)
    g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_IO,
                "%s: file is %lld bytes, larger than the %d MiB limit for a pattern database file",
                path, (long long) st.st_size, PDB_LOADER_MAX_FILE_SIZE / (1024 * 1024));
  else if (st.st_size == 0)
    g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_XML, "%s: the file is empty, expected a <patterndb> document",
                path);
  else
    {
      *size = (gsize) st.st_size;
      return fd;
    }
  close(fd);
  return -1;
}

/* Reads up to sizeof the buffer; -1 with @error set on a read error. */
static gssize
read_chunk(int fd, const gchar *path, gchar *buffer, gsize size, GError **error)
{
  gssize n;

  do
    n = read(fd, buffer, size);
  while (n < 0 && errno == EINTR);
  if (n < 0)
    {
      int saved = errno;
      g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_IO, "%s: cannot read pattern database: %s",
                  path, g_strerror(saved));
    }
  return n;
}

void
pdb_xml_init(void)
{
  static gsize initialised = 0;

  if (g_once_init_enter(&initialised))
    {
      xmlInitParser();
      g_once_init_leave(&initialised, 1);
    }
}

/* What the parser's read callback reads from. */
typedef struct _PullSource
{
  int fd;
  const gchar *path;
  PdbLoader *loader;
} PullSource;

/* libxml2's read callback: bytes of the file, 0 at its end and after the
 * first error (so parsing stops at the end of what it has), -1 when
 * read() fails (the loader's error says why). */
static int
pull_read(void *context, char *buffer, int length)
{
  PullSource *source = context;
  gssize n;

  if (source->loader->error)
    return 0;
  n = read_chunk(source->fd, source->path, buffer, MIN(length, PDB_LOADER_CHUNK_SIZE),
                 &source->loader->error);
  return n < 0 ? -1 : (int) n;
}

/* Loads the file through libxml2's SAX2 pull parser (the reference front
 * end), reading it from @fd in chunks. */
static void
load_with_libxml2(PdbLoader *self, int fd, const gchar *path)
{
  xmlSAXHandler sax;
  memset(&sax, 0, sizeof(sax));
  sax.initialized = XML_SAX2_MAGIC;
  sax.startElementNs = on_start_element;
  sax.endElementNs = on_end_element;
  sax.characters = on_characters;
  sax.cdataBlock = on_characters;
  sax.reference = on_reference;
  sax.serror = on_xml_error;

  /* The parser copies the handler and pulls the file through pull_read(). */
  PullSource source = { fd, path, self };
  xmlParserCtxtPtr ctxt = xmlCreateIOParserCtxt(&sax, self, pull_read, NULL, &source,
                                                XML_CHAR_ENCODING_NONE);
  if (!ctxt)
    {
      if (!self->error)
        g_set_error(&self->error, PDB_DB_ERROR, PDB_DB_ERROR_XML, "%s: cannot create an XML parser", path);
    }
  else
    {
      xmlCtxtUseOptions(ctxt, XML_PARSE_NONET);
      ctxt->replaceEntities = 0;
      ctxt->loadsubset = 0;
      self->ctxt = ctxt;

      xmlParseDocument(ctxt);
      if (!self->error && !ctxt->wellFormed)
        g_set_error(&self->error, PDB_DB_ERROR, PDB_DB_ERROR_XML, "%s: not a well-formed XML document", path);

      self->ctxt = NULL;
      /* A DOCTYPE makes libxml2 keep a document for its declarations. */
      if (ctxt->myDoc)
        {
          xmlFreeDoc(ctxt->myDoc);
          ctxt->myDoc = NULL;
        }
      xmlFreeParserCtxt(ctxt);
    }
}

gboolean
pdb_loader_load_file(PdbDatabase *db, const gchar *path, const PdbLoadOptions *options, GError **error)
{
  gsize size = 0;

  pdb_xml_init();
  index_transitions();
  int fd = open_file(path, &size, error);
  if (fd < 0)
    return FALSE;

  gchar *file = g_strdup(path);
  g_ptr_array_add(db->files, file);

  PdbLoader self = { 0 };
  self.db = db;
  self.options = options;
  self.file = file;
  self.stack_capacity = 16;
  self.stack = g_new(StackEntry, self.stack_capacity);
  self.text = g_string_new(NULL);
  StackEntry document = { ST_DOCUMENT, { file, 1, 1 } };
  self.stack[0] = document;
  self.depth = 1;

  FrontEnd front_end = xml_front_end();
  if (front_end == FRONT_END_LIBXML2 || !load_with_scanner(&self, fd, size))
    {
      if (front_end == FRONT_END_SCANNER)
        g_set_error(&self.error, PDB_DB_ERROR, PDB_DB_ERROR_XML,
                    "%s: not inside the fast XML scanner's subset (PATTERNDB_XML=scanner)", path);
      else if (lseek(fd, 0, SEEK_SET) != 0)
        g_set_error(&self.error, PDB_DB_ERROR, PDB_DB_ERROR_IO, "%s: cannot read pattern database: %s",
                    path, g_strerror(errno));
      else
        load_with_libxml2(&self, fd, path);
    }

  close(fd);
  pending_ruleset_free(self.ruleset);
  g_free(self.value_name);
  g_free(self.value_type);
  g_free(self.stack);
  g_string_free(self.text, TRUE);

  if (self.error)
    {
      g_propagate_error(error, self.error);
      return FALSE;
    }
  return TRUE;
}

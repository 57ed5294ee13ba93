/*
 * loader-private.h: the state of one file being loaded, shared by the
 * loader's files and nothing else:
 *
 *   loader-grammar.c   which element may stand inside which (3.38's grammar)
 *   loader-attrs.c     attribute values and the small parsers for them
 *   loader-elements.c  what each element does to the database being built
 *   loader.c           events (both front ends), text pieces, errors,
 *                      opening the file, the entry point
 *   loader-libxml2.c   the libxml2 front end (the reference)
 *   loader-scan.c      the fast front end (xml-scan.c)
 *
 * Invariant: every object the loader creates is owned by the database (or
 * by an object the database owns) from the moment it exists, so a failed
 * load frees everything by unreferencing the database.
 */
#ifndef PDB_DB_LOADER_PRIVATE_H
#define PDB_DB_LOADER_PRIVATE_H

#include "db/database-private.h"
#include "db/template.h"
#include "db/expr-backend.h"

#include <libxml/parser.h>

G_BEGIN_DECLS

#define PDB_LOADER_MIN_VERSION 2
#define PDB_LOADER_MAX_VERSION 6

/*
 * The states of syslog-ng 3.38's loader. The containers <patterns>, <urls>,
 * <tags> and <values> are no states: as in 3.38 they are wrappers that
 * leave the state of their parent unchanged (loader-grammar.c).
 */
typedef enum
{
  ST_DOCUMENT,
  ST_PATTERNDB,
  ST_RULESET,
  ST_RULESET_PATTERN,
  ST_RULESET_DESCRIPTION,
  ST_RULESET_URL,
  ST_RULES,
  ST_RULE,
  ST_RULE_PATTERN,
  ST_RULE_DESCRIPTION,
  ST_RULE_URL,
  ST_TAG,
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

/* An open element: the state it puts the loader in, its name and the
 * element it is meant to hold when it is a wrapper (both NULL otherwise),
 * and where its start tag begins. */
typedef struct _StackEntry
{
  LoaderState state;
  const gchar *wrapper;
  const gchar *wraps;
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

/* SAX2 gives attributes as 5-tuples (localname, prefix, URI, value, end). */
typedef struct _Attributes
{
  gint count;
  const xmlChar **raw;
} Attributes;

typedef struct _PdbLoader
{
  PdbDatabase *db;
  const PdbLoadOptions *options;
  const gchar *file;        /* owned by db->files */
  xmlParserCtxtPtr ctxt;     /* libxml2 front end only: where its positions come from */
  PdbLocation here;         /* the front end's position, set before each event */
  GError *error;            /* the first error; parsing stops there */
  gboolean xml_tolerated;   /* libxml2 reported an error that 3.38 does not make (a warning) */
  goffset next_document;    /* libxml2: the offset of a document after the root one, or -1 */
  PdbLocation next_document_at; /* and its line and column */
  PdbLoaderFlags flags;
  gboolean scan_partial;    /* the fast front end reported events (loader-scan.c) */
  gboolean restart;         /* ... and then found the file outside its subset */
  GPtrArray *held_warnings; /* of gchar*: warnings held back while a one-pass
                               scan may still restart; NULL: none held */

  StackEntry *stack;        /* the open elements, stack[0] the document */
  guint depth;              /* entries in use (>= 1) */
  guint stack_capacity;

  /* The piece of text being read: as 3.38 (GMarkup) every run of text
   * between two pieces of markup inside the root element is one piece, an
   * empty run included, except inside an empty-element tag "<x/>" (which
   * has none); comments, CDATA sections and processing instructions end a
   * piece and give nothing (CDATA content is dropped, as 3.38 drops it). */
  GString *text;
  gboolean piece_open;      /* a piece has begun and not been handed over */
  guint pieces;             /* pieces handed to the open element so far */
  PdbLocation text_location; /* where the text ended (pdbtool's pattern location) */
  PdbLocation text_start;   /* where the piece begins */
  gboolean in_start_tag;    /* errors point at start_location */
  gboolean in_end_tag;      /* errors point at the element's start */
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

/* ---- loader.c: errors and events -------------------------------------- */

void loader_fail(PdbLoader *self, gint code, const gchar *format, ...) G_GNUC_PRINTF(3, 4);
/* @location NULL: the element being opened or closed, else the position. */
void loader_warn(PdbLoader *self, const PdbLocation *location, const gchar *format, ...) G_GNUC_PRINTF(3, 4);

/* An element starts: @start is its '<', @tag_end the start tag's '>' (or
 * the '/' of "/>"), @empty whether the tag is "<x/>"; @attrs as SAX2's. */
void loader_start_element(PdbLoader *self, const gchar *element, const Attributes *attrs,
                          const PdbLocation *start, const PdbLocation *tag_end, gboolean empty);
void loader_end_element(PdbLoader *self);
/* Character data; @end: the position just after it. */
void loader_text(PdbLoader *self, const gchar *text, gsize length, const PdbLocation *end);
/* A comment, CDATA section or processing instruction ends; @end: just
 * after it; @cdata: a CDATA section of @length bytes of content. */
void loader_markup(PdbLoader *self, gboolean cdata, gsize length, const PdbLocation *end);

/* The patterns of @rules (a ruleset that ended) into @tree: at once, or
 * queued for the database's insert worker (insert-worker.h). */
void loader_insert_rules(PdbLoader *self, PdbRadix *tree, GPtrArray *rules);

/* ---- loader-grammar.c --------------------------------------------------- */

/* Builds the grammar's index, once per process; before any lookup. */
void loader_grammar_init(void);
/* What @element does inside @parent: TRUE with @child set (and, when it
 * is a wrapper, @wrapper to its name and @wraps to the element it is meant
 * to hold, "pattern" for "patterns"; else both NULL), FALSE when 3.38
 * refuses it there. @element_name: the grammar's copy of the name (so a
 * wrapper's @wraps is compared by pointer). */
gboolean loader_grammar_child(LoaderState parent, const gchar *element, LoaderState *child,
                              const gchar **element_name, const gchar **wrapper, const gchar **wraps);
/* The elements 3.38 takes inside @parent, as "<a>, <b>" (g_free() it). */
gchar *loader_grammar_expected(LoaderState parent);
/* The name of the element that puts the loader in @state. */
const gchar *loader_grammar_element(LoaderState state);
/* Whether 3.38 reads the text of @state (or ignores it without error). */
static inline gboolean
loader_grammar_holds_text(LoaderState state)
{
  static const guint32 text_states =
    1u << ST_RULESET_PATTERN | 1u << ST_RULESET_DESCRIPTION | 1u << ST_RULESET_URL
    | 1u << ST_RULE_PATTERN | 1u << ST_RULE_DESCRIPTION | 1u << ST_RULE_URL | 1u << ST_TAG
    | 1u << ST_VALUE | 1u << ST_EXAMPLE | 1u << ST_TEST_MESSAGE | 1u << ST_TEST_VALUE;

  return (text_states >> state) & 1;
}

/* ---- loader-attrs.c ----------------------------------------------------- */

/* The attribute's value as a new string, or NULL ("&#38;" decoded). */
gchar *attr_dup(const Attributes *attrs, const gchar *name);
/* One attribute tuple (or NULL): its value as a new string, or NULL. */
gchar *attr_dup_one(const xmlChar **a);
/* One attribute tuple's value in the database's pool (interned when
 * @intern), or NULL. */
gchar *attr_pool(PdbLoader *self, const xmlChar **a, gboolean intern);
/* The position of attribute @name in the start tag (0 first), or -1. */
gint attr_index(const Attributes *attrs, const gchar *name);
gboolean parse_scope(PdbLoader *self, const gchar *value, PdbContextScope *scope);
gint parse_timeout(PdbLoader *self, const gchar *value);
PdbTemplate *compile_template(PdbLoader *self, const gchar *what, const gchar *text, gboolean with_type_hint,
                              PdbHostExpr **host);
gchar *prefixed_name(PdbLoader *self, const gchar *name);

/* ---- loader-elements.c -------------------------------------------------- */

/* @child was just opened inside @parent. */
void loader_elements_start(PdbLoader *self, LoaderState child, LoaderState parent, const Attributes *attrs);
/* One piece of text of the open @state. */
void loader_elements_text(PdbLoader *self, LoaderState state, const gchar *text, gsize length);
/* @state closes. */
void loader_elements_end(PdbLoader *self, LoaderState state);
void pending_ruleset_free(PendingRuleset *pending);

/* ---- the front ends ----------------------------------------------------- */

/* loader-scan.c: loads the file with the fast scanner when it is inside
 * the scanner's subset (TRUE). FALSE when it must go through libxml2:
 * having given nothing to the database when @check_first, or with
 * self->scan_partial set when it did. */
gboolean loader_read_with_scanner(PdbLoader *self, int fd, gsize size, gboolean check_first);
/* loader-libxml2.c: loads the file through libxml2 from @fd. */
void loader_read_with_libxml2(PdbLoader *self, int fd, const gchar *path);

G_END_DECLS

#endif

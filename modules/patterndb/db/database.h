/*
 * database.h: a loaded pattern database and classification with it.
 *
 *   PdbDatabase
 *     programs: PdbRadix   program pattern -> PdbRuleset
 *     catch_all: PdbRuleset (rulesets without <pattern>; any other program)
 *     rules:    every PdbRule, in file order
 *
 * Classification is two lookups: the program name in `programs` (prefix
 * matches allowed, as 3.38), then the message in the chosen ruleset's tree.
 * A database is immutable and reference counted, so a reload builds a new
 * one and swaps the pointer while readers finish with the old one.
 */
#ifndef PDB_DB_DATABASE_H
#define PDB_DB_DATABASE_H

#include "db/rule.h"
#include "db/template.h"
#include "db/expr-backend.h"
#include "db/name-registry.h"

G_BEGIN_DECLS

typedef struct _PdbDatabase PdbDatabase;

typedef enum
{
  PDB_DB_ERROR_IO,          /* missing, unreadable or not a regular file */
  PDB_DB_ERROR_XML,         /* not well-formed XML */
  PDB_DB_ERROR_STRUCTURE,   /* unknown element/attribute value, missing id, bad version ... */
  PDB_DB_ERROR_TEMPLATE,    /* a <value> or context-id template that does not compile */
  PDB_DB_ERROR_SCHEMA,      /* XSD validation failed (only with validate_schema) */
} PdbDatabaseError;

#define PDB_DB_ERROR pdb_db_error_quark()
GQuark pdb_db_error_quark(void);

/* Warnings: problems 3.38 only logs (duplicates, bad parsers, stray '@',
 * missing version). The text names file:line:column and the rule id. */
typedef void (*PdbWarningFunc)(const gchar *message, gpointer user_data);

/* Which XML reader the loader uses. Only tests choose: they compare the
 * two (AUTO: the fast scanner for the files inside its subset, libxml2 for
 * the others; SCANNER: fail the files outside the subset). */
typedef enum
{
  PDB_XML_FRONT_END_AUTO,
  PDB_XML_FRONT_END_LIBXML2,
  PDB_XML_FRONT_END_SCANNER,
} PdbXmlFrontEnd;

typedef struct _PdbLoadOptions
{
  const gchar *capture_prefix;  /* db-parser prefix(): prepended to captures and <value> names */
  gboolean validate_schema;     /* validate each file against its version's XSD first */
  PdbWarningFunc warning;       /* NULL: warnings go to stderr */
  gpointer warning_data;
  PdbXmlFrontEnd xml_front_end; /* tests only; 0 (AUTO) everywhere else */
  /* NULL: the db layer's own engine compiles and evaluates every template
   * and condition (the tool). Else the host's engine takes templates that
   * call functions and all conditions (db/expr-backend.h); the database
   * references it for as long as it lives. */
  PdbExprBackend *backend;
  /* keep the names and tags the files mention, in the order 3.38 meets
   * them (pdb_database_get_name_registry()); the tool numbers values by it */
  gboolean record_names;
  /* threads a load may use: 0, the default, two when the machine has two
   * processors and a file is big (insert-worker.h); 1, one */
  guint load_threads;
} PdbLoadOptions;

/*
 * Loads @path: a file, a directory (every *.xml and *.pdb below it, sorted by
 * path) or a glob. Errors name file:line:column and what was expected; on
 * error nothing is returned and nothing leaks. @options may be NULL.
 *
 * Directory order: every regular file named *.xml or *.pdb below the
 * directory (recursively, following symlinks, skipping names that start
 * with '.'), sorted by full path with strcmp(). A glob (a path with * ? or [
 * that does not exist as written) loads its matches (directories expanded
 * as above), also sorted with strcmp(). All files form one database.
 */
PdbDatabase *pdb_database_load(const gchar *path, const PdbLoadOptions *options, GError **error);
/* The two steps of pdb_database_load(), for callers that look at the files
 * before they are read (the daemon stamps them):
 * pdb_database_list_files() appends to @files (of gchar*, owned) the files
 * @path means now, in load order; FALSE with @error set when it means none
 * or cannot be read. pdb_database_load_files() loads @files, in that order,
 * into one database. */
gboolean pdb_database_list_files(const gchar *path, GPtrArray *files, GError **error);
/* The files of several paths (NULL-terminated, at least one), path after
 * path in the given order: each path's files as above, a file listed once
 * (by device and inode), a directory that holds no pattern file allowed as
 * long as the paths together mean at least one file. One path is exactly
 * pdb_database_list_files(). */
gboolean pdb_database_list_paths(const gchar *const *paths, GPtrArray *files, GError **error);
PdbDatabase *pdb_database_load_files(const GPtrArray *files, const PdbLoadOptions *options, GError **error);
PdbDatabase *pdb_database_ref(PdbDatabase *db);
void pdb_database_unref(PdbDatabase *db);

const gchar *pdb_database_get_version(const PdbDatabase *db);   /* "4", "6" ... of the first file */
const gchar *pdb_database_get_pub_date(const PdbDatabase *db);
/* The files that were read, in load order (every PdbLocation.file points into them). */
const GPtrArray *pdb_database_get_files(const PdbDatabase *db);   /* of gchar* */
const GPtrArray *pdb_database_get_rules(const PdbDatabase *db);   /* of PdbRule* */
const GPtrArray *pdb_database_get_rulesets(const PdbDatabase *db);/* of PdbRuleset* */
/* The first compiled rule <value> (rules in load order, values in file
 * order) for which `pred` is TRUE, or NULL. */
typedef gboolean (*PdbValuePredicate)(const PdbValueDef *value, gpointer data);
const PdbValueDef *pdb_database_find_value(const PdbDatabase *db, PdbValuePredicate pred, gpointer data);
/* Whether a rule has a context-id or actions (correlation), and whether a
 * rule has <value>s: counted while loading, so asking costs nothing. */
gboolean pdb_database_correlates(const PdbDatabase *db);
gboolean pdb_database_has_values(const PdbDatabase *db);
/* The names and tags in first-met order; NULL unless loaded with record_names. */
const PdbNameRegistry *pdb_database_get_name_registry(const PdbDatabase *db);
const PdbRadix *pdb_database_get_program_tree(const PdbDatabase *db);
const PdbRule *pdb_database_find_rule(const PdbDatabase *db, const gchar *rule_id);
/* The ruleset a program name selects (catch-all included), or NULL. */
const PdbRuleset *pdb_database_find_ruleset(const PdbDatabase *db, const gchar *program, gsize length);
/* The ruleset of programs no <pattern> selects (rulesets without <pattern>);
 * NULL only when the database has no ruleset at all. Not in the program tree. */
const PdbRuleset *pdb_database_get_catch_all_ruleset(const PdbDatabase *db);

typedef enum
{
  PDB_RESULT_NONE = 0,      /* no ruleset for this program (or empty db): set nothing */
  PDB_RESULT_UNKNOWN,       /* program matched, no rule: class "unknown" */
  PDB_RESULT_MATCH,
} PdbResultKind;

typedef struct _PdbResult
{
  PdbResultKind kind;
  const PdbRule *rule;        /* set when kind == PDB_RESULT_MATCH */
  const PdbRuleset *ruleset;  /* set unless kind == PDB_RESULT_NONE */
  PdbMatch program_match;     /* captures are offsets into the program */
  PdbMatch message_match;     /* captures are offsets into the message */
} PdbResult;

void pdb_result_init(PdbResult *result);
void pdb_result_clear(PdbResult *result);

/*
 * Thread-safe, lock-free, allocation-free in the common case. @result must
 * have been set up with pdb_result_init(); it may be reused for any number
 * of calls (each call forgets the previous result) and is released with
 * pdb_result_clear(). @program and @message are byte buffers (no NUL
 * needed); the captures in @result are offsets into them.
 */
void pdb_database_classify(const PdbDatabase *db,
                           const gchar *program, gsize program_length,
                           const gchar *message, gsize message_length,
                           PdbResult *result);

/*
 * How the caller's message is read and written, so that the same output
 * logic serves the command-line tool, the syslog-ng glue and the rsyslog
 * helper. `get` returns NULL for an unset name.
 */
typedef struct _PdbMessageOps
{
  const gchar *(*get)(gpointer msg, const gchar *name, gssize *length);
  void (*set)(gpointer msg, const gchar *name, const gchar *value, gssize length, PdbValueType type);
  void (*set_tag)(gpointer msg, const gchar *tag);
  void (*clear_tag)(gpointer msg, const gchar *tag);
  /* optional (NULL: tags cannot be read): TRUE when @msg has @tag; action
   * conditions' tags() asks it */
  gboolean (*has_tag)(gpointer msg, const gchar *tag);
  /* optional (NULL: values are never unset): removes @name from @msg; a
   * condition's flags(store-matches) unsets the earlier $0..$255 with it */
  void (*unset)(gpointer msg, const gchar *name);
  /* optional: the host's own message behind @msg, for a backend's templates
   * (db/expr-backend.h); NULL: @msg is that message */
  gpointer (*host_message)(gpointer msg);
  /* optional: get() that also says the value's type (a <value> that is one
   * plain reference takes it, as in 3.38; NULL: such values are strings) */
  const gchar *(*get_typed)(gpointer msg, const gchar *name, gssize *length, PdbValueType *type);
} PdbMessageOps;

/*
 * Writes what a match writes, in the reference's order: .classifier.class,
 * .classifier.rule_id, program captures, message captures, the class tag
 * and rule tags, then rule <values> (templates evaluated against @msg as it
 * is by then). For PDB_RESULT_UNKNOWN: class "unknown" and its tag only.
 * @program and @message must be the buffers given to pdb_database_classify().
 */
void pdb_result_apply(const PdbResult *result,
                      const gchar *program, const gchar *message,
                      const PdbMessageOps *ops, gpointer msg);

/*
 * The steps of pdb_result_apply(), for the correlation code that evaluates
 * values with a context:
 *   pdb_result_apply_match(): class and rule_id, program and message
 *     captures (for UNKNOWN: class "unknown" and its tag; NONE: nothing);
 *   pdb_rule_apply_tags(): clears .classifier.unknown, sets the class tag
 *     and the rule tags;
 *   pdb_values_apply(): each PdbValueDef* of @values in order, evaluated
 *     with @lookup (which sees values set earlier in the same call when it
 *     reads the message) and written with ops->set() and its value type.
 * .classifier.context_id (the rule's context-id expanded against the
 * message) is written by pdb_result_apply() between captures and tags.
 */
void pdb_result_apply_match(const PdbResult *result,
                            const gchar *program, const gchar *message,
                            const PdbMessageOps *ops, gpointer msg);
void pdb_rule_apply_tags(const PdbRule *rule, const PdbMessageOps *ops, gpointer msg);
void pdb_values_apply(const GPtrArray *values, PdbTemplateLookupFunc lookup, gpointer lookup_data,
                      const PdbMessageOps *ops, gpointer msg);
/* The same, and values a backend compiled (PdbValueDef.host) are evaluated
 * over @scope (NULL: over @msg alone). */
void pdb_values_apply_in_scope(const GPtrArray *values, PdbTemplateLookupFunc lookup, gpointer lookup_data,
                               const PdbExprScope *scope, const PdbMessageOps *ops, gpointer msg);

G_END_DECLS

#endif

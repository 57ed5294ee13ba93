/*
 * database-private.h: the PdbDatabase structure, shared by the files of
 * db/ only (database.c builds and frees it, loader.c fills it from XML,
 * classify.c reads it). Nothing outside db/ includes this header.
 */
#ifndef PDB_DB_DATABASE_PRIVATE_H
#define PDB_DB_DATABASE_PRIVATE_H

#include "db/database.h"

G_BEGIN_DECLS

/* A program pattern (ruleset <pattern>) and the ruleset it selects. */
typedef struct _PdbProgramEntry
{
  gchar *pattern;
  PdbRuleset *ruleset;     /* borrowed from PdbDatabase.rulesets */
  PdbLocation location;    /* as pdbtool: after the pattern text, plus one */
  PdbLocation start;       /* where the pattern text begins */
} PdbProgramEntry;

struct _PdbDatabase
{
  gint ref_count;
  gchar *version;          /* of the first file, as written ("4" when missing) */
  gchar *pub_date;         /* of the first file, or NULL */
  GPtrArray *files;        /* of gchar*: paths read, in load order; owns the strings
                              that every PdbLocation.file points to */
  GPtrArray *rules;        /* of PdbRule*, in file order; the structures sit in
                              rule_blocks, the array clears them (pdb_rule_clear) */
  GPtrArray *rule_blocks;  /* of PdbRule[PDB_RULE_BLOCK], owned; the last one is
                              filled up to rules->len % PDB_RULE_BLOCK */
  GPtrArray *rulesets;     /* of PdbRuleset*, owned, in creation order */
  GHashTable *rule_by_id;  /* id -> PdbRule* (the first rule with that id); NULL
                              until the first pdb_database_find_rule() */
  GPtrArray *programs_order; /* of PdbProgramEntry*, owned, first-seen order */
  GHashTable *program_by_pattern; /* pattern -> PdbProgramEntry* */
  PdbRuleset *catch_all;   /* rulesets without <pattern>; NULL until a ruleset is loaded */
  PdbRadix *programs;      /* built and frozen by pdb_database_finish() */
  gchar *capture_prefix;   /* PdbLoadOptions.capture_prefix, or NULL */
  PdbNameRegistry *names; /* when loaded with record_names, else NULL (name-registry.h) */
  GStringChunk *strings;   /* the rules' strings (rule.c): freed with the database only */
  guint n_correlating_rules; /* rules with a context-id or actions */
  guint n_rules_with_values;
  struct _PdbInsertWorker *insert_worker; /* while loading a big file on two threads, else
                                             NULL (insert-worker.h) */
};

/* Rules are allocated this many at a time (pdb_database_new_rule). */
#define PDB_RULE_BLOCK 128

PdbDatabase *pdb_database_new(const PdbLoadOptions *options);
/* The ruleset a program pattern belongs to, or NULL. "" is the catch-all. */
PdbRuleset *pdb_database_lookup_program(PdbDatabase *db, const gchar *pattern);
/* Creates an empty ruleset (its message tree gets the capture prefix). */
PdbRuleset *pdb_database_new_ruleset(PdbDatabase *db);
/* Makes @pattern select @ruleset. */
void pdb_database_add_program(PdbDatabase *db, const gchar *pattern, PdbRuleset *ruleset,
                              const PdbLocation *location, const PdbLocation *start);
/* The catch-all ruleset, created on first use. */
PdbRuleset *pdb_database_get_catch_all(PdbDatabase *db);
/* A new empty rule (pdb_rule_init()), the database's last: it lives as
 * long as the database. */
PdbRule *pdb_database_new_rule(PdbDatabase *db);
/* Builds the program tree and freezes every tree. Warnings go to @options. */
void pdb_database_finish(PdbDatabase *db, const PdbLoadOptions *options);

/* Copies @length bytes of @text (-1: up to its NUL) into the database's
 * string pool; the copy lives as long as the database. */
const gchar *pdb_database_store(PdbDatabase *db, const gchar *text, gssize length);
/* The same for strings that repeat (class names, tags, providers): equal
 * strings get one copy. */
const gchar *pdb_database_intern(PdbDatabase *db, const gchar *text);

/* How many threads loading may use (PdbLoadOptions.load_threads): 1 or 2. */
guint pdb_database_load_threads(const PdbLoadOptions *options);
/* Waits for the insert jobs queued so far (insert-worker.h), gives their
 * warnings (held in @held when they are @file's) and settles the name
 * registry; nothing without a worker. */
void pdb_database_collect_inserts(PdbDatabase *db, const PdbLoadOptions *options, const gchar *file,
                                  GPtrArray *held);
/* Once every file is read: freezes the rulesets' trees on this thread
 * (from the first) and on the worker (from the last, after its last
 * insert job) until they meet, then collects the jobs as above; nothing
 * without a worker. */
void pdb_database_freeze_rulesets(PdbDatabase *db, const PdbLoadOptions *options);
/* Ends the worker thread, dropping what its jobs hold (a load that failed). */
void pdb_database_stop_inserts(PdbDatabase *db);

/* Emits a warning through @options (or stderr). */
void pdb_database_warn(const PdbLoadOptions *options, const gchar *format, ...) G_GNUC_PRINTF(2, 3);

/*
 * The engine's messages may start with their own "file:line:column: ": the
 * place inside the pattern, counted from @given (the location passed at
 * insert). Returns the text after that prefix and sets @location to the
 * same place counted from @start, where the pattern text really begins;
 * returns @message unchanged, and sets @location to @start, without one.
 */
const gchar *pdb_split_engine_location(const gchar *message, const PdbLocation *given,
                                       const PdbLocation *start, PdbLocation *location);

/* Initialises libxml2 once per process, from whichever thread loads first
 * (xmlInitParser() is not safe to race in libxml2 2.9). */
void pdb_xml_init(void);

/* How pdb_loader_load_file() reads a file. */
typedef enum
{
  /* the fast scanner checks the whole file before loading it, so the
   * load never ends in PDB_LOADER_RESTART (else both in one pass) */
  PDB_LOADER_CHECK_FIRST = 1 << 0,
  /* no warnings (a file loaded again after a restart) */
  PDB_LOADER_QUIET = 1 << 1,
} PdbLoaderFlags;

typedef enum
{
  PDB_LOADER_FAILED,     /* @error set */
  PDB_LOADER_LOADED,
  /* the one pass found the file outside the scanner's subset after it had
   * put part of it into @db: throw @db away and load every file again with
   * PDB_LOADER_CHECK_FIRST (the warnings of this file were not given) */
  PDB_LOADER_RESTART,
} PdbLoaderResult;

/* One file into @db (loader.c). */
PdbLoaderResult pdb_loader_load_file(PdbDatabase *db, const gchar *path, const PdbLoadOptions *options,
                                     PdbLoaderFlags flags, GError **error);

/* rule.c: constructors and destructors of the plain data of rule.h. */
/* A rule without strings: the loader sets the class (pdb_rule_set_class()) first. */
/* Sets up a zeroed rule / frees what it owns (not the structure itself,
 * which belongs to the database's rule blocks). */
void pdb_rule_init(PdbRule *rule);
void pdb_rule_clear(PdbRule *rule);
PdbRuleset *pdb_ruleset_new(void);
void pdb_ruleset_free(PdbRuleset *ruleset);
PdbValueDef *pdb_value_def_new(void);
void pdb_value_def_free(PdbValueDef *value);
PdbTestValue *pdb_test_value_new(void);
void pdb_test_value_free(PdbTestValue *value);
PdbExample *pdb_example_new(void);
void pdb_example_free(PdbExample *example);
PdbAction *pdb_action_new(void);
void pdb_action_free(PdbAction *action);
void pdb_synthetic_message_init(PdbSyntheticMessage *message);
void pdb_synthetic_message_clear(PdbSyntheticMessage *message);
/* Sets class_name (NULL: "system") and the class tag cut to 31 bytes (both pooled). */
void pdb_rule_set_class(PdbDatabase *db, PdbRule *rule, const gchar *class_name);
/* Appends to one of a rule's arrays, replacing the shared empty array by a
 * new one (freeing its elements with @free_func) on the first element. */
void pdb_rule_array_add(GPtrArray **array, gpointer element, GDestroyNotify free_func);
/* Adds a <pattern> (@text owned by the database) with its two locations. */
void pdb_rule_add_pattern(PdbRule *rule, const gchar *text, const PdbLocation *at, const PdbLocation *start);

G_END_DECLS

#endif

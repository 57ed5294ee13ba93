/*
 * lint.h: static checks of a loaded pattern database (`patterndb lint`).
 *
 * pdb_lint_database() looks at every ruleset of a database and returns
 * findings: rules that can never win (shadowed), rules whose winner on one
 * message depends on load order (ambiguous), duplicate rule ids, rules
 * without examples, examples that do not match their rule or carry wrong
 * test values, patterns that match only a prefix of their own examples and
 * parsers that cannot match what follows them. Each finding names
 * file:line:column, the rule ids involved and says in one line what is
 * wrong. Findings are plain data owned by the returned array.
 *
 * Severity (the exit status of `patterndb lint` follows it):
 *   ERROR   the database does something its author cannot have meant: a
 *           rule or pattern that can never match or never win, a duplicate
 *           id, an example that is classified differently or with wrong
 *           values;
 *   WARNING a smell: no example, load-order-dependent winner, prefix-only
 *           match, and the loader's own warnings.
 */
#ifndef PDB_LINT_LINT_H
#define PDB_LINT_LINT_H

#include "db/database.h"

G_BEGIN_DECLS

typedef enum
{
  PDB_LINT_WARNING = 1,
  PDB_LINT_ERROR = 2,
} PdbLintSeverity;

typedef struct _PdbLintFinding
{
  PdbLintSeverity severity;
  const gchar *kind;       /* static: "shadowed", "ambiguous", "duplicate-id", "no-example",
                            * "example-mismatch", "test-value", "prefix-only",
                            * "parser-follow", "loader", "rule-conflict",
                            * "never-matched", "shadowed-in-practice",
                            * "lint-marker" */
  gchar *file;             /* may be NULL (a loader warning without location) */
  gint line;
  gint column;
  GPtrArray *rule_ids;     /* of gchar*, owned; may be empty */
  gchar *message;          /* one line */
  gchar *witness;          /* a message showing the problem, or NULL */
} PdbLintFinding;

PdbLintFinding *pdb_lint_finding_new(PdbLintSeverity severity, const gchar *kind,
                                     const PdbLocation *location, const gchar *message);
void pdb_lint_finding_free(PdbLintFinding *finding);

/*
 * Turns one loader warning ("file:line:column: text") into a finding of
 * kind "loader", severity WARNING.
 */
PdbLintFinding *pdb_lint_finding_from_warning(const gchar *warning);

/* Appends the findings about @db to @findings (of PdbLintFinding*, which
 * should free its elements with pdb_lint_finding_free). */
void pdb_lint_database(const PdbDatabase *db, GPtrArray *findings);
/* The same, and with @conflicts a WARNING "rule-conflict" for each other
 * rule that matches an example whole (`patterndb test` reports those as
 * rule conflicts). */
void pdb_lint_database_conflicts(const PdbDatabase *db, gboolean conflicts, GPtrArray *findings);

/*
 * Findings from a log (lint-log.c): feed every line's program and message
 * to a PdbLintLog made for @db, then pdb_lint_log_check() adds a WARNING
 * "never-matched" for each rule that won no line and "shadowed-in-practice"
 * for each that matched lines whole but always lost to another rule.
 */
typedef struct _PdbLintLog PdbLintLog;
PdbLintLog *pdb_lint_log_new(const PdbDatabase *db);
void pdb_lint_log_free(PdbLintLog *log);
void pdb_lint_log_add(PdbLintLog *log, const gchar *program, gsize program_length,
                      const gchar *message, gsize message_length);
void pdb_lint_log_check(PdbLintLog *log, const gchar *log_name, GPtrArray *findings);

/* Sorts by file, line, column, kind, message: a stable, diffable order. */
void pdb_lint_sort(GPtrArray *findings);

/*
 * Silencing kinds of findings (lint-allow.c): for the whole run
 * (pdb_lint_allow_ignore(), "prefix-only,no-example"; FALSE with @error for
 * an unknown kind) and by "<!-- patterndb-lint: allow KIND, ...; reason -->"
 * markers in the files of @db, which apply to the rule, ruleset or file they
 * stand in (pdb_lint_allow_read_markers(); a marker it cannot read becomes a
 * "lint-marker" finding). pdb_lint_allow_filter() removes the silenced
 * findings and returns how many.
 */
typedef struct _PdbLintAllow PdbLintAllow;
PdbLintAllow *pdb_lint_allow_new(void);
void pdb_lint_allow_free(PdbLintAllow *allow);
gboolean pdb_lint_allow_ignore(PdbLintAllow *allow, const gchar *kinds, GError **error);
void pdb_lint_allow_read_markers(PdbLintAllow *allow, const PdbDatabase *db, GPtrArray *findings);
guint pdb_lint_allow_filter(const PdbLintAllow *allow, const PdbDatabase *db, GPtrArray *findings);

G_END_DECLS

#endif

/*
 * correlation.h: correlation contexts, actions and synthetic messages.
 *
 * A PdbCorrelation holds the live contexts of one parser (or of one
 * `patterndb match` run). A context is keyed by the rule's context-scope
 * fields of the message (process: HOST+PROGRAM+PID, program: HOST+PROGRAM,
 * host: HOST, global: none) plus the expanded context-id, and keeps the
 * messages that matched into it, as handles of the caller's own message
 * type (PdbCorrelationHost says how to ref, read, create and merge them;
 * correlation/nv-message.h is a ready-made snapshot type).
 *
 * Time: the correlation clock follows message timestamps capped at the
 * current time (pdb_correlation_process) and is moved on by the caller's
 * idle timer (pdb_correlation_advance_time); it never goes back. A context
 * expires when the clock passes (goes beyond, as 3.38) its last message's
 * time plus the timeout of the rule that matched last; expiry runs that
 * rule's timeout actions.
 *
 * Inheritance (3.38): last-message copies the context's newest message
 * (values and tags); context copies the newest message and then fills in
 * the values only older messages have (newest first), so tags come from the
 * newest message only; none starts empty but for the newest message's time
 * (PdbCorrelationHost.copy_time). The newest message is the one a match
 * action fires on, or the last message of an expiring context. Then, in every mode, the scope
 * fields of the context are written (none when the rule has no context).
 *
 * Limit: at most max_contexts live contexts (PDB_CORRELATION_DEFAULT_MAX_CONTEXTS
 * when 0 is given). Opening one more first expires the context whose expiry
 * is nearest (its timeout actions fire as for a normal expiry).
 *
 * ${CONTEXT_ID}: the id of the context (the expanded context-id, or the
 * create-context id) in the templates 3.38 evaluates with a context: rule
 * <value>s, action messages, the seed of a create-context. It is empty in
 * conditions, in a create-context's id and without a context.
 *
 * Time of actions: as 3.38's timer wheel, a context's timeout actions run
 * with the clock at the context's expiry (so their rate limits refill up to
 * then and a context they create expires counting from then), and the
 * clock then moves on to its target.
 *
 * Rate limits (rate="N/M"): one bucket per rule, action and the rule's
 * context-scope fields of the message the action fires on (the context's
 * newest message on a timeout), holding up to N tokens; it starts full and
 * gains (elapsed << 8) / ((M << 8) / N) tokens, 3.38's fixed point.
 *
 * Emission: synthetic messages are handed to the caller's emit function
 * after the state lock is released, in the order they were generated; the
 * callee borrows the message (ref it to keep it). Messages from timeouts the
 * clock passed come before the triggering message's own actions.
 *
 * Locking: one mutex guards the whole state (contexts, timers, rate
 * buckets); classification itself never takes it. Rules and templates are
 * read from the database, which each context keeps referenced, so a reload
 * may swap the database while contexts of the old one live on.
 */
#ifndef PDB_CORRELATION_CORRELATION_H
#define PDB_CORRELATION_CORRELATION_H

#include "db/database.h"
#include "correlation/context-table.h"

G_BEGIN_DECLS

#define PDB_CORRELATION_DEFAULT_MAX_CONTEXTS PDB_CONTEXT_TABLE_DEFAULT_MAX

typedef struct _PdbCorrelationHost
{
  const PdbMessageOps *ops;                /* get/set/set_tag on messages */
  gpointer (*ref)(gpointer msg);
  void (*unref)(gpointer msg);
  /* a new message: empty when @base is NULL, else a copy of @base's values and tags */
  gpointer (*create)(gpointer base);
  /* copies each value of @src that @dst does not have (tags are not copied) */
  void (*merge)(gpointer dst, gpointer src);
  /* optional (NULL: the host keeps no time): gives @dst, made by create(NULL)
   * for inherit-mode none, the message time ($STAMP) of @src, the context's
   * newest message. As 3.38 every generated message carries that time;
   * with a base, create() copies the base's timestamps itself. */
  void (*copy_time)(gpointer dst, gpointer src);
  /* optional (NULL: names are values only): appends the text of the macro
   * @name of @msg ($DATE, $ISODATE, $R_YEAR ... as 3.38 prints them for the
   * message's own times) to @out; FALSE when @name is no macro. Macros go
   * before values of the same name, as in syslog-ng. @macro_data is what
   * pdb_correlation_set_macro_data() gave (the host's formatting options). */
  gboolean (*append_macro)(gpointer macro_data, gpointer msg, const gchar *name, GString *out);
} PdbCorrelationHost;

/* @msg is borrowed for the duration of the call. */
typedef void (*PdbCorrelationEmitFunc)(gpointer msg, gpointer user_data);

typedef struct _PdbCorrelation PdbCorrelation;

/* @host must outlive the state. */
PdbCorrelation *pdb_correlation_new(const PdbCorrelationHost *host, guint max_contexts);
/* Drops every context without running actions. */
void pdb_correlation_free(PdbCorrelation *self);

/*
 * Correlates @msg, which pdb_result_apply() has already written @result
 * into: first the clock moves to MIN(@stamp, @now) (expiring what it
 * passes), then, when the rule has a context-id, @msg joins its context,
 * then the rule's match actions run (condition, rate, message or
 * create-context). @db is the database @result comes from. When the
 * rule's <values> look back (`${name}@N`, N > 0) they are evaluated again
 * over the context (@0 = @msg) and written into @msg before the actions
 * run, as 3.38 does.
 */
void pdb_correlation_process(PdbCorrelation *self, PdbDatabase *db, const PdbResult *result,
                             gpointer msg, gint64 stamp, gint64 now,
                             PdbCorrelationEmitFunc emit, gpointer emit_data);

/* Moves the clock to MIN(@stamp, @now) (never back) and expires what it
 * passes; pdb_correlation_process() does the same first, so a caller that
 * prints timeout messages before the message that caused them calls this
 * before classifying. */
void pdb_correlation_set_time(PdbCorrelation *self, gint64 stamp, gint64 now,
                              PdbCorrelationEmitFunc emit, gpointer emit_data);

/* TRUE when a <value> of @rule depends on its context: it refers to an
 * earlier message (`${name}@N`, N > 0), to $(context-length) or to
 * ${CONTEXT_ID}. */
gboolean pdb_correlation_rule_values_look_back(const PdbRule *rule);

/* Moves the clock on by @seconds (the idle timer) and expires what it passes. */
void pdb_correlation_advance_time(PdbCorrelation *self, gint64 seconds,
                                  PdbCorrelationEmitFunc emit, gpointer emit_data);
/* Expires every context, nearest expiry first (end of input of `match`). */
void pdb_correlation_expire_all(PdbCorrelation *self, PdbCorrelationEmitFunc emit, gpointer emit_data);

/* What append_macro() gets as @macro_data from now on (NULL at first). */
void pdb_correlation_set_macro_data(PdbCorrelation *self, gpointer macro_data);

/* A new bound (0: the default); takes effect when the next context opens. */
void pdb_correlation_set_max_contexts(PdbCorrelation *self, guint max_contexts);
guint pdb_correlation_get_context_count(PdbCorrelation *self);
gint64 pdb_correlation_get_time(PdbCorrelation *self);

G_END_DECLS

#endif

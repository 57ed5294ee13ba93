/*
 * grouping.h: the state of a grouping-by() parser: contexts of messages
 * that share a key, closed by a trigger, by their timeout or by the limit.
 *
 * The caller (modules/patterndb/syslog-ng/grouping-by.c) builds the key
 * (scope fields plus the expanded key template, with
 * pdb_context_key_append_part()), decides whether a context is complete
 * (trigger) and builds its aggregate (close). The contexts, the clock and
 * the expiry order are a PdbContextTable (context-table.h), the same as
 * db-parser correlation's.
 *
 * Clock (as syslog-ng 3.38's grouping-by()): it follows message timestamps
 * capped at the current time and never goes back; the caller's idle timer
 * moves it on by the real time elapsed (pdb_grouping_advance_time). Each
 * message that joins a context sets the context's expiry to clock +
 * timeout; a context expires when the clock goes beyond its expiry.
 * Contexts expire in expiry order, and in the order their expiry was set
 * when it is the same (setting the same expiry again keeps the place).
 *
 * Limit: at most max_contexts live contexts (PDB_GROUPING_DEFAULT_MAX_CONTEXTS
 * when 0 is given). Opening one more first closes the context whose expiry
 * is nearest, as if it had expired (its aggregate is emitted).
 *
 * Locking: one mutex guards all of it. The hooks run under it (they must
 * not call back into the same state); the aggregates they return are
 * emitted after it is released, in the order they were made: contexts the
 * clock expired first, then one closed by the limit, then the context the
 * message triggered.
 */
#ifndef PDB_CORRELATION_GROUPING_H
#define PDB_CORRELATION_GROUPING_H

#include "correlation/context-table.h"

G_BEGIN_DECLS

#define PDB_GROUPING_DEFAULT_MAX_CONTEXTS PDB_CONTEXT_TABLE_DEFAULT_MAX

/* How messages are kept (fixed for the life of the state). */
typedef struct _PdbGroupingMessageOps
{
  gpointer (*ref)(gpointer msg);
  void (*unref)(gpointer msg);
} PdbGroupingMessageOps;

/* What the caller decides, given for each call (the state keeps no pointer
 * to its caller, so it can be handed from one parser to the next). */
typedef struct _PdbGroupingHooks
{
  /* TRUE when the context is complete; @messages holds the context, oldest
   * first, the message that just joined last. NULL: never. */
  gboolean (*trigger)(GPtrArray *messages, gpointer user_data);
  /* The context closes (trigger, timeout or limit): returns its aggregate
   * (a reference the state takes over) or NULL for none. It may reorder
   * @messages. */
  gpointer (*close)(GPtrArray *messages, gpointer user_data);
  /* Receives each aggregate after the lock is released; borrows it. */
  void (*emit)(gpointer msg, gpointer user_data);
  gpointer user_data;
} PdbGroupingHooks;

typedef struct _PdbGrouping PdbGrouping;

/* @ops must outlive the state. */
PdbGrouping *pdb_grouping_new(const PdbGroupingMessageOps *ops, guint max_contexts);
/* Drops every context without closing it (no aggregates). */
void pdb_grouping_free(PdbGrouping *self);

/*
 * Moves the clock to MIN(@stamp, @now) (never back), expiring what it
 * passes; adds @msg (referenced) to the context of @key (opening it, after
 * making room under the limit), then closes the context if the trigger
 * says so, else sets its expiry to clock + @timeout.
 */
void pdb_grouping_add(PdbGrouping *self, const gchar *key, gsize key_len, gpointer msg,
                      gint64 stamp, gint64 now, gint64 timeout, const PdbGroupingHooks *hooks);

/* Moves the clock to MIN(@stamp, @now) (never back) and expires what it passes. */
void pdb_grouping_set_time(PdbGrouping *self, gint64 stamp, gint64 now, const PdbGroupingHooks *hooks);
/* Moves the clock on by @seconds (the idle timer) and expires what it passes. */
void pdb_grouping_advance_time(PdbGrouping *self, gint64 seconds, const PdbGroupingHooks *hooks);

/* A new bound (0: the default); takes effect when the next context opens. */
void pdb_grouping_set_max_contexts(PdbGrouping *self, guint max_contexts);
guint pdb_grouping_get_context_count(PdbGrouping *self);
gint64 pdb_grouping_get_time(PdbGrouping *self);

G_END_DECLS

#endif

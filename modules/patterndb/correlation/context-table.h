/*
 * context-table.h: keyed contexts of messages, the clock they expire by,
 * their expiry order and a bound on their number. It is the state of both
 * db-parser correlation (correlation.c) and grouping-by() (grouping.c);
 * what a context means and what happens when it ends is the owner's.
 *
 * Key: opaque bytes; pdb_context_key_append_part() builds keys from fields
 * so that no two field lists make the same key.
 *
 * Clock (syslog-ng 3.38's timer wheel, one-second ticks): it never goes
 * back. pdb_context_table_advance() expires every context whose expiry the
 * target passes (expiry < target), nearest first, with the clock at that
 * context's expiry while it ends (an owner that schedules a new context
 * then counts from there), and then sets the clock to the target.
 * Contexts expiring at the same second end in the order their expiry was
 * set; scheduling a context again for the same second keeps its place.
 *
 * Limit: opening a context while max_contexts are findable first ends the
 * nearest scheduled ones, as if they had expired.
 *
 * Ending: the context leaves the table, the owner's end function runs on
 * it, then the table frees it (its messages are unreffed, its data freed).
 * An end function may open and schedule other contexts.
 *
 * Not locked: the owner's lock guards the table.
 */
#ifndef PDB_CORRELATION_CONTEXT_TABLE_H
#define PDB_CORRELATION_CONTEXT_TABLE_H

#include <glib.h>

G_BEGIN_DECLS

/* The bound on live contexts when a parser sets none (context-limit()). */
#define PDB_CONTEXT_TABLE_DEFAULT_MAX 100000

typedef struct _PdbContext
{
  GPtrArray *messages;   /* oldest first, one reference each (the table's unref) */
  gpointer data;         /* the owner's; freed with the table's data_free */
  gint64 expires;        /* read-only; G_MININT64 until first scheduled */
} PdbContext;

typedef struct _PdbContextTable PdbContextTable;

/* Ends @ctx, which is already out of the table; the table frees it after. */
typedef void (*PdbContextEndFunc)(PdbContext *ctx, gpointer user_data);

/* @unref drops a message reference; @data_free frees PdbContext.data (may be NULL). */
PdbContextTable *pdb_context_table_new(GDestroyNotify unref, GDestroyNotify data_free, guint max_contexts);
/* Frees every context without ending it. */
void pdb_context_table_free(PdbContextTable *self);

/* Appends "<length>:<value>" to a key. */
void pdb_context_key_append_part(GString *key, const gchar *value, gssize length);

PdbContext *pdb_context_table_find(PdbContextTable *self, const gchar *key, gsize key_len);
/*
 * A new, unscheduled context findable under @key, after ending the nearest
 * contexts (through @end) while the limit is reached. A context already
 * under @key stops being findable but stays scheduled (it is replaced).
 */
PdbContext *pdb_context_table_open(PdbContextTable *self, const gchar *key, gsize key_len,
                                   PdbContextEndFunc end, gpointer user_data);
/* Sets @ctx to expire at @expires (see the header comment for the order). */
void pdb_context_table_schedule(PdbContextTable *self, PdbContext *ctx, gint64 expires);
/* Ends @ctx now (through @end) and frees it. */
void pdb_context_table_close(PdbContextTable *self, PdbContext *ctx, PdbContextEndFunc end, gpointer user_data);

gint64 pdb_context_table_get_time(PdbContextTable *self);
/* Moves the clock to @target (never back), ending what it passes. */
void pdb_context_table_advance(PdbContextTable *self, gint64 target, PdbContextEndFunc end, gpointer user_data);
/* Ends every scheduled context, nearest first, each with the clock at its
 * expiry; then the clock comes back to where it was (3.38's expire-all). */
void pdb_context_table_expire_all(PdbContextTable *self, PdbContextEndFunc end, gpointer user_data);

/* The number of findable contexts. */
guint pdb_context_table_count(PdbContextTable *self);
/* A new bound (0: @fallback); takes effect when the next context opens. */
void pdb_context_table_set_max(PdbContextTable *self, guint max_contexts);

G_END_DECLS

#endif

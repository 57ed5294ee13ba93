/*
 * rate-limit.h: the token buckets of actions' rate="N/M" limits, with
 * syslog-ng 3.38's arithmetic.
 *
 * A bucket is named by an opaque key (the caller's: rule, action and scope
 * fields). It is created full (N tokens) at its first use and, whenever
 * the clock has moved on, gains (elapsed << 8) / ((M << 8) / N) tokens, up
 * to N: 1/256 fixed point, so 3/10 refills its first token after 4 s, not
 * 3.33 s. A gain of 0 leaves the bucket's time where it was, so time
 * accumulates until a whole token is due. Not locked: the caller's lock
 * guards it.
 */
#ifndef PDB_CORRELATION_RATE_LIMIT_H
#define PDB_CORRELATION_RATE_LIMIT_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct _PdbRateLimits PdbRateLimits;

PdbRateLimits *pdb_rate_limits_new(void);
void pdb_rate_limits_free(PdbRateLimits *self);

/* TRUE, taking a token, when the bucket @key of a @count/@period limit has
 * one at @now (seconds). @count 0 is no limit; @period 0 counts as 1. */
gboolean pdb_rate_limits_take(PdbRateLimits *self, const gchar *key, guint count, guint period, gint64 now);

G_END_DECLS

#endif

/*
 * rate-limit.c: token buckets of rate="N/M" (see rate-limit.h).
 *
 * Invariant: 0 <= tokens <= the count the bucket was last used with; a
 * bucket's time only moves when it gains tokens.
 */
#include "correlation/rate-limit.h"

typedef struct
{
  gint64 last;
  gint64 tokens;
} Bucket;

struct _PdbRateLimits
{
  GHashTable *buckets;   /* key -> Bucket* (both owned) */
};

PdbRateLimits *
pdb_rate_limits_new(void)
{
  PdbRateLimits *self = g_new0(PdbRateLimits, 1);

  self->buckets = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  return self;
}

void
pdb_rate_limits_free(PdbRateLimits *self)
{
  if (!self)
    return;
  g_hash_table_destroy(self->buckets);
  g_free(self);
}

/* Tokens gained in @elapsed seconds, as 3.38 counts them. */
static gint64
refill(gint64 elapsed, guint count, guint period)
{
  gint64 per_token = ((gint64) period << 8) / count;   /* 1/256 s per token */

  if (per_token == 0)
    return count;   /* more than 256 per second: 3.38 divides by zero here */
  return (elapsed << 8) / per_token;
}

gboolean
pdb_rate_limits_take(PdbRateLimits *self, const gchar *key, guint count, guint period, gint64 now)
{
  Bucket *b;

  if (count == 0)
    return TRUE;
  if (period == 0)
    period = 1;
  b = g_hash_table_lookup(self->buckets, key);
  if (!b)
    {
      b = g_new0(Bucket, 1);
      b->last = now;
      b->tokens = count;
      g_hash_table_insert(self->buckets, g_strdup(key), b);
    }
  else
    {
      gint64 gained = refill(now - b->last, count, period);

      if (gained != 0)
        {
          b->tokens = MIN(b->tokens + gained, (gint64) count);
          b->last = now;
        }
    }
  if (b->tokens <= 0)
    return FALSE;
  b->tokens--;
  return TRUE;
}

/*
 * idle-tick.c: the 1-second idle timer of a correlation clock.
 *
 * Invariant: last_us never exceeds the real time of the last touch or tick
 * by more than the carried fraction, so the seconds added by ticks never
 * run ahead of the real time elapsed since the last touch.
 */
#include "idle-tick.h"

static void
pdb_sng_tick_arm(PdbSngTick *self)
{
  iv_validate_now();
  self->timer.expires = iv_now;
  self->timer.expires.tv_sec += 1;
  iv_timer_register(&self->timer);
}

static void
pdb_sng_tick_fire(void *cookie)
{
  PdbSngTick *self = cookie;
  gint64 now = g_get_real_time();
  gint64 seconds = 0;

  g_mutex_lock(&self->lock);
  gint64 diff = now - self->last_us;
  if (diff >= G_USEC_PER_SEC)
    {
      seconds = diff / G_USEC_PER_SEC;
      self->last_us += seconds * G_USEC_PER_SEC;
    }
  else if (diff < 0)
    self->last_us = now;
  g_mutex_unlock(&self->lock);

  if (seconds)
    self->advance(seconds, self->user_data);
  pdb_sng_tick_arm(self);
}

void
pdb_sng_tick_init(PdbSngTick *self, PdbSngTickFunc advance, gpointer user_data)
{
  g_mutex_init(&self->lock);
  IV_TIMER_INIT(&self->timer);
  self->timer.cookie = self;
  self->timer.handler = pdb_sng_tick_fire;
  self->advance = advance;
  self->user_data = user_data;
}

void
pdb_sng_tick_clear(PdbSngTick *self)
{
  g_mutex_clear(&self->lock);
}

void
pdb_sng_tick_start(PdbSngTick *self)
{
  pdb_sng_tick_touch(self);
  if (!iv_timer_registered(&self->timer))
    pdb_sng_tick_arm(self);
}

void
pdb_sng_tick_stop(PdbSngTick *self)
{
  if (iv_timer_registered(&self->timer))
    iv_timer_unregister(&self->timer);
}

void
pdb_sng_tick_touch(PdbSngTick *self)
{
  gint64 now = g_get_real_time();

  g_mutex_lock(&self->lock);
  self->last_us = now;
  g_mutex_unlock(&self->lock);
}

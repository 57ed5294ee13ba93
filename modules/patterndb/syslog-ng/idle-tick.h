/*
 * idle-tick.h: the 1-second timer in the main loop that keeps a
 * correlation clock (db-parser() contexts, grouping-by() contexts) moving
 * while no message moves it, as 3.38 does: each tick adds the whole
 * seconds of real time elapsed since the clock was last brought up to
 * date, by a message (pdb_sng_tick_touch()) or by a tick; the fraction of
 * a second left over is carried to the next tick. A clock that went back
 * (the system time was set back) restarts the count from now.
 *
 * Threads: touch() may run on any thread (it takes the tick's lock); the
 * timer itself, start() and stop() run on the main loop thread.
 */
#ifndef PDB_SNG_IDLE_TICK_H
#define PDB_SNG_IDLE_TICK_H

#include <glib.h>
#include <iv.h>

/* Moves the clock on by @seconds (>= 1). */
typedef void (*PdbSngTickFunc)(gint64 seconds, gpointer user_data);

typedef struct _PdbSngTick
{
  struct iv_timer timer;
  GMutex lock;                  /* guards last_us */
  gint64 last_us;               /* real time the clock was last brought up to date */
  PdbSngTickFunc advance;
  gpointer user_data;
} PdbSngTick;

void pdb_sng_tick_init(PdbSngTick *self, PdbSngTickFunc advance, gpointer user_data);
void pdb_sng_tick_clear(PdbSngTick *self);
/* Starts the timer (the clock counts as up to date now); stop() is a no-op
 * on a stopped tick. */
void pdb_sng_tick_start(PdbSngTick *self);
void pdb_sng_tick_stop(PdbSngTick *self);
/* A message brought the clock up to date now. */
void pdb_sng_tick_touch(PdbSngTick *self);

#endif

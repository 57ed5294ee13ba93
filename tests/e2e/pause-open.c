/*
 * pause-open.c: a test-only LD_PRELOAD library that holds a process inside
 * open() of one given file until the test lets it go on, so that a test
 * can change files at an exact point of a database load (the daemon code
 * has no hook of its own for this).
 *
 *   PDB_PAUSE_OPEN_FILE  the path, exactly as passed to open(), to stop at
 *   PDB_PAUSE_OPEN_DIR   the handshake folder
 *
 * open(PDB_PAUSE_OPEN_FILE) stops only when DIR/armed exists; it removes
 * DIR/armed (one stop per arming), creates DIR/paused, waits until
 * DIR/release exists, removes DIR/release and DIR/paused, and only then
 * opens the file. Every other open() goes straight through.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

typedef int (*OpenFunc)(const char *path, int flags, ...);

static void
path_in(char *buffer, size_t size, const char *dir, const char *name)
{
  snprintf(buffer, size, "%s/%s", dir, name);
}

static void
maybe_pause(const char *path)
{
  const char *target = getenv("PDB_PAUSE_OPEN_FILE");
  const char *dir = getenv("PDB_PAUSE_OPEN_DIR");
  char armed[4096], paused[4096], release[4096];

  if (!target || !dir || !path || strcmp(path, target) != 0)
    return;
  path_in(armed, sizeof(armed), dir, "armed");
  if (unlink(armed) != 0)
    return;
  path_in(paused, sizeof(paused), dir, "paused");
  path_in(release, sizeof(release), dir, "release");
  FILE *mark = fopen(paused, "w");
  if (mark)
    fclose(mark);
  struct timespec step = { 0, 10 * 1000 * 1000 };
  while (access(release, F_OK) != 0)
    nanosleep(&step, NULL);
  unlink(release);
  unlink(paused);
}

static int
call_open(const char *name, const char *path, int flags, va_list args)
{
  mode_t mode = 0;

  if (flags & (O_CREAT | O_TMPFILE))
    mode = (mode_t) va_arg(args, int);
  maybe_pause(path);
  OpenFunc real = (OpenFunc) dlsym(RTLD_NEXT, name);
  return real(path, flags, mode);
}

int
open(const char *path, int flags, ...)
{
  va_list args;
  va_start(args, flags);
  int fd = call_open("open", path, flags, args);
  va_end(args);
  return fd;
}

int
open64(const char *path, int flags, ...)
{
  va_list args;
  va_start(args, flags);
  int fd = call_open("open64", path, flags, args);
  va_end(args);
  return fd;
}

/* mem-latency: the time of one cache miss to DRAM on this machine
 * (contrib/bench, built only for `make bench`). It is the physical limit of
 * a classifier whose database is larger than the caches: each line of a
 * uniform stream reads at least one record nobody touched recently, so on
 * one core, without overlapping lines, a line cannot take less than one
 * such miss. run-bench.py prints it next to our time per line.
 *
 * How: a chain of pointers, one per 64-byte line, in a random cyclic
 * order over SIZE MiB (default 256, far above any last-level cache); each
 * load needs the previous one's result, so nothing overlaps them and the
 * hardware prefetchers cannot guess the next line. The buffer is on
 * ordinary 4 KiB pages, as a frozen tree is while it is young, so most
 * loads also miss the TLB. Prints nanoseconds per load (median of 5
 * rounds of 4 million loads).
 *
 * Invariant: the chain is one cycle through every line (Sattolo's
 * shuffle), so a round never settles into a short, cached loop.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define LINE 64
#define LOADS (4u * 1024 * 1024)
#define ROUNDS 5

static uint64_t
next_random(uint64_t *state)
{
  /* xorshift64*: enough for a shuffle */
  *state ^= *state >> 12;
  *state ^= *state << 25;
  *state ^= *state >> 27;
  return *state * 2685821657736338717ULL;
}

static int
compare_doubles(const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

int
main(int argc, char **argv)
{
  size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 256;
  size_t lines = mib * 1024 * 1024 / LINE;

  if (lines < 2)
    {
      fprintf(stderr, "usage: %s [SIZE-MiB]\n", argv[0]);
      return 2;
    }
  char *buf = aligned_alloc(LINE, lines * LINE);
  size_t *order = malloc(lines * sizeof(size_t));
  if (!buf || !order)
    {
      fprintf(stderr, "%s: out of memory\n", argv[0]);
      return 2;
    }
  for (size_t i = 0; i < lines; i++)
    order[i] = i;
  uint64_t state = 0x9e3779b97f4a7c15ULL;
  for (size_t i = lines - 1; i > 0; i--)
    {
      size_t j = next_random(&state) % i;   /* Sattolo: j < i, one cycle */
      size_t t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
  for (size_t i = 0; i < lines; i++)
    *(void **) (buf + order[i] * LINE) = buf + order[(i + 1) % lines] * LINE;
  free(order);

  double ns[ROUNDS];
  void **p = (void **) buf;
  for (int r = 0; r < ROUNDS; r++)
    {
      struct timespec a, b;
      clock_gettime(CLOCK_MONOTONIC, &a);
      for (unsigned i = 0; i < LOADS; i++)
        p = *p;
      clock_gettime(CLOCK_MONOTONIC, &b);
      ns[r] = ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / LOADS;
    }
  qsort(ns, ROUNDS, sizeof(double), compare_doubles);
  /* the pointer is printed nowhere but must not be optimised away */
  printf("%.1f\n", ns[ROUNDS / 2] + (p == NULL ? 1e-9 : 0));
  free(buf);
  return 0;
}

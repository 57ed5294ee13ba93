/*
 * radix-region.c: one block of memory for the blobs of several frozen
 * trees (a database's: one tree per program, each a few KiB to a few
 * MiB), merged into 2 MiB pages later when the kernel does that
 * (transparent huge pages, advised once the blobs are written).
 *
 * Why: a lookup on a big database jumps between records spread over
 * megabytes; with 4 KiB pages nearly every jump also misses the TLB
 * (14 MB of records at 100,000 rules are 3,500 pages, more than the
 * second-level TLB holds), with 2 MiB pages a handful of entries cover
 * it all. Blobs of separate malloc() calls would each start a page of
 * their own, so the trees are frozen together into one region.
 *
 *   base (2 MiB aligned)                         cursor         length
 *   | blob of tree 1 |pad| blob of tree 2 |pad| ... | (never touched) |
 *
 * Invariant: blobs are handed out in order, each 64-byte aligned, from
 * one mapping that never moves; the region lives while a tree (or the
 * freezer) holds a reference; the part after the last blob is returned to
 * the system once freezing is done, and was never touched before.
 */
#include "engine/radix-node.h"

#include <sys/mman.h>

#define PDB_REGION_PAGE ((gsize) 2 * 1024 * 1024)

struct _PdbBlobRegion
{
  gint refs;
  guchar *base;
  gsize length;            /* mapped bytes from base */
  gsize cursor;            /* next free byte */
};

static gsize
_round_up(gsize n, gsize unit)
{
  return (n + unit - 1) / unit * unit;
}

PdbBlobRegion *
pdb_blob_region_new(gsize capacity)
{
  /* over-map by a page to cut out a 2 MiB aligned range */
  gsize length = _round_up(capacity, PDB_REGION_PAGE);
  gsize mapped = length + PDB_REGION_PAGE;
  guchar *raw = mmap(NULL, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                     -1, 0);

  if (raw == MAP_FAILED)
    return NULL;
  guchar *base = (guchar *) _round_up((gsize) raw, PDB_REGION_PAGE);
  gsize head = (gsize) (base - raw);

  if (head)
    munmap(raw, head);
  if (mapped - head > length)
    munmap(base + length, mapped - head - length);

  PdbBlobRegion *region = g_new0(PdbBlobRegion, 1);
  region->refs = 1;
  region->base = base;
  region->length = length;
  return region;
}

guchar *
pdb_blob_region_reserve(PdbBlobRegion *region, gsize bound)
{
  if (region->length - region->cursor < bound)
    return NULL;
  return region->base + region->cursor;
}

void
pdb_blob_region_keep(PdbBlobRegion *region, const guchar *blob, gsize size)
{
  g_assert(blob == region->base + region->cursor && size <= region->length - region->cursor);
  region->cursor = MIN(_round_up(region->cursor + size, PDB_BLOB_REGION_ALIGN), region->length);
  g_atomic_int_inc(&region->refs);
}

void
pdb_blob_region_trim(PdbBlobRegion *region)
{
  gsize used = _round_up(region->cursor, PDB_REGION_PAGE);

  if (used < region->length)
    {
      munmap(region->base + used, region->length - used);
      region->length = used;
    }
  /* Advice only, and only now that the records are written: faulting
   * fresh huge pages while freezing stalled 60-110 ms in about a third of
   * the loads of 100,000 rules on a VM (doc/performance.md, round 11);
   * the written small pages are merged into huge ones by khugepaged in a
   * process that lives on (the daemon). */
  if (region->length)
    madvise(region->base, region->length, MADV_HUGEPAGE);
}

void
pdb_blob_region_unref(PdbBlobRegion *region)
{
  if (!region || !g_atomic_int_dec_and_test(&region->refs))
    return;
  if (region->length)
    munmap(region->base, region->length);
  g_free(region);
}

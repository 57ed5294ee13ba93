/*
 * radix-arena.c: a bump allocator for the build-time tree (nodes, keys,
 * child arrays). Loading 100,000 patterns creates about a million small
 * objects that all die together when the tree is frozen, so they are cut
 * from large chunks and released in one go instead of one free() each.
 *
 * The trees of one database share an arena (pdb_radix_new_beside()):
 * loading 100,000 rules takes tens of MB of it, so chunks keep doubling
 * up to 2 MiB, and once the arena holds PDB_ARENA_HUGE_AFTER bytes, new
 * chunks are mapped on their own, 2 MiB aligned with the advice to use
 * huge pages, which saves most of the page faults (about 10% of the load
 * time). Not before: a huge page is resident as a whole from its first
 * byte on, which would make a small database's half-used last chunk cost
 * more memory than pdbtool needs for all of it. Unmapping gives the
 * chunks back to the system at once.
 *
 * Invariant: memory handed out stays valid and unmoved until the last
 * reference is dropped (pdb_arena_unref()); every block is aligned for
 * any scalar or pointer (8 bytes); nothing is ever freed individually;
 * only one thread allocates from an arena at a time.
 */
#include "engine/radix-node.h"

#include <string.h>
#include <sys/mman.h>

#define PDB_ARENA_FIRST_CHUNK 1024        /* a tree of a few patterns stays small */
#define PDB_ARENA_CHUNK ((gsize) 2 * 1024 * 1024) /* chunks double from the first up to this */
#define PDB_ARENA_ALIGN 8
#define PDB_ARENA_HUGE_AFTER ((gsize) 8 * 1024 * 1024)

typedef struct _PdbArenaChunk PdbArenaChunk;
struct _PdbArenaChunk
{
  PdbArenaChunk *next;
  gsize size;
  gsize used;
  gsize mapped;            /* 0: malloc()ed; else the length of its own mapping */
  /* followed by the memory, 8-aligned (the header is 32 bytes) */
};

struct _PdbArena
{
  PdbArenaChunk *chunks;   /* newest first; allocation happens in the newest */
  gsize total;             /* bytes obtained from the system, for statistics */
  gint refs;
};

G_STATIC_ASSERT(sizeof(PdbArenaChunk) % PDB_ARENA_ALIGN == 0);

PdbArena *
pdb_arena_new(void)
{
  PdbArena *arena = g_new0(PdbArena, 1);

  arena->refs = 1;
  return arena;
}

PdbArena *
pdb_arena_ref(PdbArena *arena)
{
  arena->refs++;
  return arena;
}

void
pdb_arena_unref(PdbArena *arena)
{
  if (!arena || --arena->refs > 0)
    return;
  while (arena->chunks)
    {
      PdbArenaChunk *chunk = arena->chunks;

      arena->chunks = chunk->next;
      if (chunk->mapped)
        munmap(chunk, chunk->mapped);
      else
        g_free(chunk);
    }
  g_free(arena);
}

/* A chunk of @length bytes, header included (more if it was mapped): a
 * big one of a big arena on huge pages if it can. */
static PdbArenaChunk *
_chunk_new(const PdbArena *arena, gsize length)
{
  PdbArenaChunk *chunk = NULL;

  if (length >= PDB_ARENA_CHUNK && arena->total >= PDB_ARENA_HUGE_AFTER)
    {
      /* over-map to cut out a 2 MiB aligned range (a huge page must be aligned) */
      gsize mapped = (length + PDB_ARENA_CHUNK - 1) / PDB_ARENA_CHUNK * PDB_ARENA_CHUNK;
      guchar *raw = mmap(NULL, mapped + PDB_ARENA_CHUNK, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

      if (raw != MAP_FAILED)
        {
          guchar *base = (guchar *) (((gsize) raw + PDB_ARENA_CHUNK - 1) / PDB_ARENA_CHUNK
                                     * PDB_ARENA_CHUNK);

          if (base > raw)
            munmap(raw, (gsize) (base - raw));
          munmap(base + mapped, PDB_ARENA_CHUNK - (gsize) (base - raw));
          madvise(base, mapped, MADV_HUGEPAGE);
          chunk = (PdbArenaChunk *) base;
          chunk->mapped = length = mapped;
        }
    }
  if (!chunk)
    {
      chunk = g_malloc(length);
      chunk->mapped = 0;
    }
  chunk->size = length - sizeof(PdbArenaChunk);
  chunk->used = 0;
  return chunk;
}

gpointer
pdb_arena_alloc(PdbArena *arena, gsize size)
{
  PdbArenaChunk *c = arena->chunks;

  size = (size + PDB_ARENA_ALIGN - 1) & ~(gsize) (PDB_ARENA_ALIGN - 1);
  if (G_UNLIKELY(!c || c->size - c->used < size))
    {
      /* a request larger than a quarter chunk gets a chunk of its own, kept
       * behind the current one so that the current chunk's rest is not lost */
      gsize length = c ? MIN((sizeof(PdbArenaChunk) + c->size) * 2, PDB_ARENA_CHUNK)
                       : PDB_ARENA_FIRST_CHUNK;
      gboolean own = size > length / 4;
      PdbArenaChunk *fresh = _chunk_new(arena, own ? sizeof(PdbArenaChunk) + size : length);

      arena->total += sizeof(PdbArenaChunk) + fresh->size;
      if (c && own)
        {
          fresh->next = c->next;
          c->next = fresh;
        }
      else
        {
          fresh->next = c;
          arena->chunks = fresh;
        }
      c = fresh;
    }
  gpointer p = (guchar *) (c + 1) + c->used;
  c->used += size;
  return p;
}

gpointer
pdb_arena_alloc0(PdbArena *arena, gsize size)
{
  gpointer p = pdb_arena_alloc(arena, size);

  memset(p, 0, size);
  return p;
}

gchar *
pdb_arena_strndup(PdbArena *arena, const gchar *s, gsize length)
{
  gchar *p = pdb_arena_alloc(arena, length + 1);

  memcpy(p, s, length);
  p[length] = '\0';
  return p;
}

gsize
pdb_arena_size(const PdbArena *arena)
{
  return arena ? arena->total : 0;
}

/*
 * radix-arena.c: a bump allocator for the build-time tree (nodes, keys,
 * child arrays). Loading 100,000 patterns creates about a million small
 * objects that all die together when the tree is frozen, so they are cut
 * from large chunks and released in one go instead of one free() each.
 *
 * Invariant: memory handed out stays valid and unmoved until
 * pdb_arena_free(); every block is aligned for any scalar or pointer
 * (8 bytes); nothing is ever freed individually.
 */
#include "engine/radix-node.h"

#include <string.h>

#define PDB_ARENA_FIRST_CHUNK 1024        /* a tree of a few patterns stays small */
#define PDB_ARENA_CHUNK (64 * 1024)       /* chunks double from the first up to this */
#define PDB_ARENA_ALIGN 8

typedef struct _PdbArenaChunk PdbArenaChunk;
struct _PdbArenaChunk
{
  PdbArenaChunk *next;
  gsize size;
  gsize used;
  /* followed by the memory, 8-aligned (the header is 24 bytes) */
};

struct _PdbArena
{
  PdbArenaChunk *chunks;   /* newest first; allocation happens in the newest */
  gsize total;             /* bytes obtained from malloc, for statistics */
};

G_STATIC_ASSERT(sizeof(PdbArenaChunk) % PDB_ARENA_ALIGN == 0);

PdbArena *
pdb_arena_new(void)
{
  return g_new0(PdbArena, 1);
}

void
pdb_arena_free(PdbArena *arena)
{
  if (!arena)
    return;
  while (arena->chunks)
    {
      PdbArenaChunk *next = arena->chunks->next;
      g_free(arena->chunks);
      arena->chunks = next;
    }
  g_free(arena);
}

/* A chunk with room for @size (already aligned) bytes, made the one
 * allocation happens in unless it is a chunk of its own (see below). */
static G_GNUC_NO_INLINE PdbArenaChunk *
arena_new_chunk(PdbArena *arena, gsize size)
{
  PdbArenaChunk *c = arena->chunks;
  /* a request larger than a quarter chunk gets a chunk of its own, kept
   * behind the current one so that the current chunk's rest is not lost */
  gsize chunk_size = c ? MIN(c->size * 2, (gsize) PDB_ARENA_CHUNK) : PDB_ARENA_FIRST_CHUNK;

  if (size > chunk_size / 4)
    chunk_size = size;
  PdbArenaChunk *fresh = g_malloc(sizeof(PdbArenaChunk) + chunk_size);

  fresh->size = chunk_size;
  fresh->used = 0;
  arena->total += sizeof(PdbArenaChunk) + chunk_size;
  if (c && chunk_size == size)
    {
      fresh->next = c->next;
      c->next = fresh;
    }
  else
    {
      fresh->next = c;
      arena->chunks = fresh;
    }
  return fresh;
}

/* The allocation itself, inlined into the three entry points below. */
static inline gpointer
arena_alloc(PdbArena *arena, gsize size)
{
  PdbArenaChunk *c = arena->chunks;

  size = (size + PDB_ARENA_ALIGN - 1) & ~(gsize) (PDB_ARENA_ALIGN - 1);
  if (G_UNLIKELY(!c || c->size - c->used < size))
    c = arena_new_chunk(arena, size);
  gpointer p = (guchar *) (c + 1) + c->used;
  c->used += size;
  return p;
}

gpointer
pdb_arena_alloc(PdbArena *arena, gsize size)
{
  return arena_alloc(arena, size);
}

gpointer
pdb_arena_alloc0(PdbArena *arena, gsize size)
{
  gpointer p = arena_alloc(arena, size);

  memset(p, 0, size);
  return p;
}

gchar *
pdb_arena_strndup(PdbArena *arena, const gchar *s, gsize length)
{
  gchar *p = arena_alloc(arena, length + 1);

  memcpy(p, s, length);
  p[length] = '\0';
  return p;
}

gsize
pdb_arena_size(const PdbArena *arena)
{
  return arena ? arena->total : 0;
}

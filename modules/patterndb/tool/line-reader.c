/*
 * line-reader.c: the blocks and messages of line-reader.h.
 *
 * Invariant: `pending` holds the bytes read after the end of the last
 * block returned (the start of an unfinished message), and the next block
 * begins with them, so every block begins on a message boundary.
 */
#define _GNU_SOURCE   /* memrchr() */
#include "tool/line-reader.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct _PdbLineReader
{
  int fd;
  gchar *name;
  GString *pending;
  gboolean eof;
  gboolean failed;
};

PdbLineReader *
pdb_line_reader_new(int fd, const gchar *name)
{
  PdbLineReader *reader = g_new0(PdbLineReader, 1);

  reader->fd = fd;
  reader->name = g_strdup(name);
  reader->pending = g_string_new(NULL);
  return reader;
}

void
pdb_line_reader_free(PdbLineReader *reader)
{
  if (!reader)
    return;
  g_string_free(reader->pending, TRUE);
  g_free(reader->name);
  g_free(reader);
}

gboolean
pdb_line_reader_failed(const PdbLineReader *reader)
{
  return reader->failed;
}

/* Where a block of @length bytes (starting on a message boundary) may end:
 * after its last terminator; else after its last whole maximal piece;
 * else, at the end of the input, at its end. 0: it cannot end yet. */
static gsize
block_cut(const gchar *s, gsize length, gboolean input_ended)
{
  const gchar *nl = memrchr(s, '\n', length);
  gsize after_nl = nl ? (gsize) (nl - s) + 1 : 0;
  /* a NUL after the last '\n' ends a message too (NULs are rare: only the tail is searched) */
  const gchar *nul = memrchr(s + after_nl, '\0', length - after_nl);

  if (nul)
    return (gsize) (nul - s) + 1;
  if (nl)
    return after_nl;
  if (input_ended)
    return length;
  return length - length % PDB_LINE_MAX_BYTES;
}

/* One read() of up to @size bytes appended to @block: FALSE at the end of
 * input or on an error. */
static gboolean
read_more(PdbLineReader *reader, GString *block, gsize size)
{
  gsize had = block->len;

  g_string_set_size(block, had + size);
  for (;;)
    {
      gssize n = read(reader->fd, block->str + had, size);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          fprintf(stderr, "Error reading input file; filename='%s', error='%s'\n", reader->name,
                  g_strerror(errno));
          reader->failed = TRUE;
        }
      g_string_set_size(block, had + (n > 0 ? (gsize) n : 0));
      if (n <= 0)
        reader->eof = TRUE;
      return n > 0;
    }
}

gboolean
pdb_line_reader_next(PdbLineReader *reader, GString *block, gsize min_length)
{
  /* a block asked to be small is read in reads of its size, so that it
   * stays about that small (tests cut inputs into many blocks that way) */
  gsize read_size = min_length > 0 && min_length < PDB_LINE_READ_CHUNK ? min_length : PDB_LINE_READ_CHUNK;

  g_string_truncate(block, 0);
  g_string_append_len(block, reader->pending->str, reader->pending->len);
  g_string_truncate(reader->pending, 0);

  for (;;)
    {
      gboolean filled = block->len > 0 && block->len >= min_length;

      if (reader->eof || filled)
        {
          /* after a read error the unfinished message is dropped, not taken as the last one */
          gsize cut = block_cut(block->str, block->len, reader->eof && !reader->failed);

          if (cut > 0)
            {
              g_string_append_len(reader->pending, block->str + cut, block->len - cut);
              g_string_truncate(block, cut);
              return TRUE;
            }
          if (reader->eof)
            {
              g_string_truncate(block, 0);
              return FALSE;
            }
        }
      read_more(reader, block, read_size);
    }
}

void
pdb_lines_foreach(const gchar *block, gsize length, PdbLineFunc func, gpointer user_data)
{
  const gchar *end = block + length;
  const gchar *p = block;
  /* the next '\n' and the next NUL at or after p (NULL: none left), each searched once */
  const gchar *nl = memchr(block, '\n', length);
  const gchar *nul = memchr(block, '\0', length);

  while (p < end)
    {
      if (nl && nl < p)
        nl = memchr(p, '\n', end - p);
      if (nul && nul < p)
        nul = memchr(p, '\0', end - p);

      const gchar *stop = nul && (!nl || nul < nl) ? nul : nl;
      gsize line_length = (gsize) ((stop ? stop : end) - p);
      gsize next;

      if (line_length >= PDB_LINE_MAX_BYTES)
        next = line_length = PDB_LINE_MAX_BYTES;
      else
        next = stop ? line_length + 1 : line_length;
      while (line_length > 0 && p[line_length - 1] == '\r')
        line_length--;
      func(p, line_length, user_data);
      p += next;
    }
}

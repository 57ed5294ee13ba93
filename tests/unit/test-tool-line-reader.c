/*
 * test-tool-line-reader.c: how `match -f` cuts its input into messages
 * (tool/line-reader.c).
 *
 * 1. The cutting rules, one row each, as pdbtool 3.38 cuts (each row was
 *    checked with pdbtool's -T '${PROGRAM}|${MSG}|' on the same bytes;
 *    tests/perf/test-match-parallel.sh compares the whole tool with it).
 * 2. Blocks never change the messages: whatever block size is asked for,
 *    and however a pipe hands the bytes over, reading block by block gives
 *    the messages of one pass over the whole input, in order.
 */
#include "tool/line-reader.h"

#include <criterion/criterion.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#define LIMIT PDB_LINE_MAX_BYTES

static void
collect(const gchar *line, gsize length, gpointer user_data)
{
  g_ptr_array_add(user_data, g_bytes_new(line, length));
}

static GPtrArray *
messages_of(const gchar *input, gsize length)
{
  GPtrArray *messages = g_ptr_array_new_with_free_func((GDestroyNotify) g_bytes_unref);

  pdb_lines_foreach(input, length, collect, messages);
  return messages;
}

/* @expected: the messages, each as (text, length) with length -1 for strlen */
typedef struct
{
  const gchar *text;
  gssize length;
} Expected;

static void
assert_messages(GPtrArray *messages, const Expected *expected, guint n_expected, const gchar *label)
{
  cr_assert_eq(messages->len, n_expected, "%s: %u messages, expected %u", label, messages->len, n_expected);
  for (guint i = 0; i < n_expected; i++)
    {
      gsize length = expected[i].length < 0 ? strlen(expected[i].text) : (gsize) expected[i].length;
      gsize got_length;
      const gchar *got = g_bytes_get_data(g_ptr_array_index(messages, i), &got_length);

      cr_assert_eq(got_length, length, "%s: message %u has %zu bytes, expected %zu", label, i, got_length, length);
      cr_assert(length == 0 || memcmp(got, expected[i].text, length) == 0, "%s: message %u differs", label, i);
    }
}

#define CHECK(input, ...) \
  do { \
    static const gchar in_[] = input; \
    const Expected ex_[] = { __VA_ARGS__ }; \
    GPtrArray *m_ = messages_of(in_, sizeof(in_) - 1); \
    assert_messages(m_, ex_, G_N_ELEMENTS(ex_), #input); \
    g_ptr_array_unref(m_); \
  } while (0)

Test(line_reader, terminators_and_carriage_returns)
{
  CHECK("a\nb\n", { "a", -1 }, { "b", -1 });
  CHECK("a\nb", { "a", -1 }, { "b", -1 });
  CHECK("\n\n", { "", 0 }, { "", 0 });
  CHECK("a\0\0b\n", { "a", -1 }, { "", 0 }, { "b", -1 });
  CHECK("a\r\nb\r", { "a", -1 }, { "b", -1 });
  /* every trailing CR goes, before a NUL too; inner ones stay */
  CHECK("f\rg\r\r\r\nc\r\r\0\r\r\n", { "f\rg", -1 }, { "c", -1 }, { "", 0 });
  CHECK("h\r\t\r\ni \r \n", { "h\r\t", -1 }, { "i \r ", -1 });
}

Test(line_reader, no_messages_in_nothing)
{
  GPtrArray *messages = messages_of("", 0);

  cr_assert_eq(messages->len, 0);
  g_ptr_array_unref(messages);
}

/* A line of n bytes of 'x', then @tail. */
static GString *
long_line(gsize n, const gchar *tail, gsize tail_length)
{
  GString *s = g_string_new(NULL);

  for (gsize i = 0; i < n; i++)
    g_string_append_c(s, 'x');
  g_string_append_len(s, tail, tail_length);
  return s;
}

static void
check_lengths(const GString *input, const gsize *lengths, guint n, const gchar *label)
{
  GPtrArray *messages = messages_of(input->str, input->len);

  cr_assert_eq(messages->len, n, "%s: %u messages, expected %u", label, messages->len, n);
  for (guint i = 0; i < n; i++)
    cr_assert_eq(g_bytes_get_size(g_ptr_array_index(messages, i)), lengths[i],
                 "%s: message %u has %zu bytes, expected %zu", label, i,
                 g_bytes_get_size(g_ptr_array_index(messages, i)), lengths[i]);
  g_ptr_array_unref(messages);
}

Test(line_reader, long_lines_are_cut_at_the_limit)
{
  struct
  {
    gsize x;
    const gchar *tail;
    gsize tail_length;
    gsize lengths[4];
    guint n;
  } rows[] =
  {
    { LIMIT - 1, "\n", 1, { LIMIT - 1 }, 1 },
    { LIMIT, "\n", 1, { LIMIT, 0 }, 2 },             /* a multiple of the limit: an empty message */
    { LIMIT + 1, "\n", 1, { LIMIT, 1 }, 2 },
    { 2 * LIMIT + 5, "", 0, { LIMIT, LIMIT, 5 }, 3 },  /* no terminator at all */
    { LIMIT - 1, "\r\n", 2, { LIMIT - 1, 0 }, 2 },   /* the cut piece ends in '\r' and loses it */
    { LIMIT - 1, "\r\r\n", 3, { LIMIT - 1, 0 }, 2 },
    { LIMIT - 2, "\r\r\n", 3, { LIMIT - 2, 0 }, 2 },  /* cut before the CRs are dropped */
    { LIMIT - 3, "\r\r\n", 3, { LIMIT - 3 }, 1 },
    { LIMIT + 3, "\0y", 2, { LIMIT, 3, 1 }, 3 },
  };

  for (guint r = 0; r < G_N_ELEMENTS(rows); r++)
    {
      GString *input = long_line(rows[r].x, rows[r].tail, rows[r].tail_length);
      gchar *label = g_strdup_printf("row %u", r);

      check_lengths(input, rows[r].lengths, rows[r].n, label);
      g_free(label);
      g_string_free(input, TRUE);
    }
}

/* ---- 2. blocks ---- */

typedef struct
{
  int fd;
  const GString *input;
  guint32 seed;
} Writer;

/* Writes the input in pieces of random size (1 byte to 200 KiB), so reads see any split. */
static gpointer
write_in_pieces(gpointer data)
{
  Writer *w = data;
  GRand *rand = g_rand_new_with_seed(w->seed);
  gsize at = 0;

  while (at < w->input->len)
    {
      gsize wanted = (gsize) g_rand_int_range(rand, 1, 200 * 1024);   /* not inside MIN(): it evaluates twice */
      gsize piece = MIN(w->input->len - at, wanted);
      gssize n = write(w->fd, w->input->str + at, piece);

      cr_assert(n > 0);
      at += (gsize) n;
    }
  close(w->fd);
  g_rand_free(rand);
  return NULL;
}

/* Random lines: mostly short, some CRs, NULs and lines longer than the limit. */
static GString *
random_input(guint32 seed)
{
  GRand *rand = g_rand_new_with_seed(seed);
  GString *s = g_string_new(NULL);

  while (s->len < 1200 * 1024)
    {
      gint kind = g_rand_int_range(rand, 0, 100);
      gsize n = kind < 2 ? (gsize) g_rand_int_range(rand, LIMIT - 3, 3 * LIMIT + 3)
                         : (gsize) g_rand_int_range(rand, 0, 120);

      for (gsize i = 0; i < n; i++)
        g_string_append_c(s, g_rand_int_range(rand, 0, 30) == 0 ? '\r' : 'a' + g_rand_int_range(rand, 0, 26));
      if (kind < 95)
        g_string_append_c(s, '\n');
      else if (kind < 98)
        g_string_append_c(s, '\0');
      else
        g_string_append(s, "\r\r\n");
    }
  if (seed % 2)
    g_string_append(s, "last line without a terminator\r");
  g_rand_free(rand);
  return s;
}

Test(line_reader, blocks_give_the_messages_of_one_pass)
{
  const gsize min_lengths[] = { 0, 7, 4096, LIMIT, 1024 * 1024 };

  for (guint32 seed = 1; seed <= 4; seed++)
    {
      GString *input = random_input(seed);
      GPtrArray *expected = messages_of(input->str, input->len);

      for (guint k = 0; k < G_N_ELEMENTS(min_lengths); k++)
        {
          int pipe_fds[2];
          cr_assert_eq(pipe(pipe_fds), 0);
          Writer writer = { pipe_fds[1], input, seed * 31 + k };
          GThread *thread = g_thread_new("writer", write_in_pieces, &writer);
          PdbLineReader *reader = pdb_line_reader_new(pipe_fds[0], "pipe");
          GString *block = g_string_new(NULL);
          GPtrArray *got = g_ptr_array_new_with_free_func((GDestroyNotify) g_bytes_unref);
          gsize largest = 0;

          while (pdb_line_reader_next(reader, block, min_lengths[k]))
            {
              cr_assert_gt(block->len, 0);
              largest = MAX(largest, block->len);
              pdb_lines_foreach(block->str, block->len, collect, got);
            }
          cr_assert_not(pdb_line_reader_failed(reader));
          /* bounded memory: a block never grows past its size, a read and one long piece */
          cr_assert_leq(largest, min_lengths[k] + PDB_LINE_READ_CHUNK + LIMIT,
                        "seed %u, min %zu: a block of %zu bytes", seed, min_lengths[k], largest);
          cr_assert_eq(got->len, expected->len, "seed %u, min %zu: %u messages, expected %u",
                       seed, min_lengths[k], got->len, expected->len);
          for (guint i = 0; i < expected->len; i++)
            cr_assert(g_bytes_equal(g_ptr_array_index(got, i), g_ptr_array_index(expected, i)),
                      "seed %u, min %zu: message %u differs", seed, min_lengths[k], i);
          g_thread_join(thread);
          g_ptr_array_unref(got);
          g_string_free(block, TRUE);
          pdb_line_reader_free(reader);
          close(pipe_fds[0]);
        }
      g_ptr_array_unref(expected);
      g_string_free(input, TRUE);
    }
}

/* A small block size gives small blocks (the threads of `match` get many of them). */
Test(line_reader, small_blocks_stay_small)
{
  GString *input = g_string_new(NULL);
  int pipe_fds[2];

  for (guint i = 0; i < 1000; i++)
    g_string_append_printf(input, "%099u\n", i);
  cr_assert_eq(pipe(pipe_fds), 0);
  Writer writer = { pipe_fds[1], input, 5 };
  GThread *thread = g_thread_new("writer", write_in_pieces, &writer);
  PdbLineReader *reader = pdb_line_reader_new(pipe_fds[0], "pipe");
  GString *block = g_string_new(NULL);
  guint blocks = 0;
  gsize total = 0;

  while (pdb_line_reader_next(reader, block, 4096))
    {
      cr_assert_leq(block->len, 2 * 4096, "a block of %zu bytes", block->len);
      cr_assert_eq(block->len % 100, 0, "a block of %zu bytes: not whole lines", block->len);
      blocks++;
      total += block->len;
    }
  cr_assert_eq(total, input->len);
  cr_assert_geq(blocks, input->len / (2 * 4096));
  g_thread_join(thread);
  g_string_free(block, TRUE);
  g_string_free(input, TRUE);
  pdb_line_reader_free(reader);
  close(pipe_fds[0]);
}

Test(line_reader, a_read_error_is_reported_with_the_file_name)
{
  /* reading a directory fails with EISDIR */
  int fd = open("/", O_RDONLY);
  PdbLineReader *reader;
  GString *block = g_string_new(NULL);

  cr_assert_geq(fd, 0);
  reader = pdb_line_reader_new(fd, "/");
  cr_assert_not(pdb_line_reader_next(reader, block, 0));
  cr_assert(pdb_line_reader_failed(reader));
  cr_assert_eq(block->len, 0);
  pdb_line_reader_free(reader);
  g_string_free(block, TRUE);
  close(fd);
}

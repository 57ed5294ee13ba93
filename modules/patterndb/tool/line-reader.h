/*
 * line-reader.h: cutting an input stream into messages the way pdbtool's
 * `match -f` (syslog-ng 3.38's file reader) does, in blocks that can be
 * classified apart, one after the other or on several threads.
 *
 * Messages: a message ends at '\n' or at a NUL byte; the last line needs
 * no terminator. A line of PDB_LINE_MAX_BYTES (3.38's log-msg-size) or
 * more is cut into messages of exactly that size, the rest of the line
 * being one more message (an empty one when the line's length is a
 * multiple of the limit). Then every '\r' at the end of a message is
 * dropped (all of them, before a NUL too, and at the end of a cut piece:
 * "a\r\r\0" is "a"), as 3.38's reader does.
 *
 * Blocks: every block starts and ends on a message boundary, so how a
 * block is cut into messages does not depend on any other block:
 *
 *   stream  |msg\n|msg\0|msg\r\n|msg ... (64 KiB, no '\n') ... |msg\n|ms|
 *   blocks  [ block 1                ][ block 2                ][ block 3 ...
 *           a block ends after its last terminator; the unfinished message
 *           after it opens the next block. A block without any terminator
 *           (a line longer than a block) ends after its last whole
 *           PDB_LINE_MAX_BYTES piece; at the end of input the rest is the
 *           last message.
 *
 * Memory stays bounded whatever the input: a block holds at most about
 * @min_length + PDB_LINE_READ_CHUNK + PDB_LINE_MAX_BYTES bytes.
 */
#ifndef PDB_TOOL_LINE_READER_H
#define PDB_TOOL_LINE_READER_H

#include <glib.h>

G_BEGIN_DECLS

#define PDB_LINE_MAX_BYTES 65536
#define PDB_LINE_READ_CHUNK (256 * 1024)

typedef struct _PdbLineReader PdbLineReader;

/* Reads @fd (not owned, not closed); @name is for error messages. */
PdbLineReader *pdb_line_reader_new(int fd, const gchar *name);
void pdb_line_reader_free(PdbLineReader *reader);

/*
 * Replaces the content of @block with the next block. It reads until the
 * block holds at least @min_length bytes or the input ends (0: until it
 * holds at least one whole message), in reads of PDB_LINE_READ_CHUNK, or
 * of @min_length when that is smaller (then a block is about @min_length
 * bytes, or one message when messages are longer). FALSE when the input is exhausted
 * (the block is empty) or reading failed: then the error (naming the file)
 * is on stderr and pdb_line_reader_failed() is TRUE.
 */
gboolean pdb_line_reader_next(PdbLineReader *reader, GString *block, gsize min_length);
gboolean pdb_line_reader_failed(const PdbLineReader *reader);

/* Calls @func for every message of a block, in order. */
typedef void (*PdbLineFunc)(const gchar *line, gsize length, gpointer user_data);
void pdb_lines_foreach(const gchar *block, gsize length, PdbLineFunc func, gpointer user_data);

G_END_DECLS

#endif

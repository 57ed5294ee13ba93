/*
 * loader.c: reads one patterndb XML file (versions 2 to 6) into a
 * PdbDatabase that is being built, the way syslog-ng 3.38 reads it.
 *
 * Two front ends (loader-scan.c, the fast path, and loader-libxml2.c, the
 * reference) report the same events to the functions here, which keep the
 * stack of open elements, ask loader-grammar.c whether each element may
 * stand where it does, cut the text into pieces as 3.38 does and hand
 * elements and pieces to loader-elements.c. Every error carries
 * file:line:column: the '<' of the element concerned, or for stray text
 * the parser's position. Pattern locations follow pdbtool (the column
 * after the text, plus one), so `dump` prints what pdbtool prints.
 *
 * Pieces of text: 3.38's XML reader (GMarkup) reports the text of an
 * element in pieces cut by comments, CDATA sections and processing
 * instructions, an empty piece included (so "<value name='v'></value>"
 * sets v to "" while "<value name='v'/>" sets nothing), and drops what a
 * CDATA section holds; 3.38's loader then reads each piece on its own.
 * The loader does the same and warns where a file relies on it.
 *
 * Files larger than PDB_LOADER_MAX_FILE_SIZE are refused.
 */
#include "db/loader-private.h"
#include "db/insert-worker.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PDB_LOADER_MAX_FILE_SIZE (256 * 1024 * 1024)

/* ---- errors ------------------------------------------------------------ */

/* Where a problem found now is reported: the element being opened or
 * closed, else (text) the front end's position. */
static PdbLocation
loader_error_location(PdbLoader *self)
{
  if (self->in_start_tag)
    return self->start_location;
  if (self->in_end_tag)
    return self->stack[self->depth - 1].location;
  return self->here;
}

/* Records the first error (prefixed with file:line:column); the front end
 * stops at the next event. */
void
loader_fail(PdbLoader *self, gint code, const gchar *format, ...)
{
  if (self->error)
    return;

  PdbLocation location = loader_error_location(self);
  va_list args;
  va_start(args, format);
  gchar *message = g_strdup_vprintf(format, args);
  va_end(args);

  g_set_error(&self->error, PDB_DB_ERROR, code, "%s:%d:%d: %s",
              self->file, location.line, location.column, message);
  g_free(message);
}

void
loader_warn(PdbLoader *self, const PdbLocation *location, const gchar *format, ...)
{
  if (self->flags & PDB_LOADER_QUIET)
    return;
  /* the patterns of earlier rulesets warn first, as when inserted at once */
  pdb_database_collect_inserts(self->db, self->options, self->file, self->held_warnings);

  PdbLocation here = location ? *location : loader_error_location(self);
  va_list args;
  va_start(args, format);
  gchar *message = g_strdup_vprintf(format, args);
  va_end(args);

  gchar *placed = g_strdup_printf("%s:%d:%d: %s", self->file, here.line, here.column, message);
  g_free(message);
  if (self->held_warnings)
    g_ptr_array_add(self->held_warnings, placed);
  else
    {
      pdb_database_warn(self->options, "%s", placed);
      g_free(placed);
    }
}

/* Gives the warnings held back so far (@drop: throws them away). */
static void
release_held_warnings(PdbLoader *self, gboolean drop)
{
  if (!self->held_warnings)
    return;
  for (guint i = 0; !drop && i < self->held_warnings->len; i++)
    pdb_database_warn(self->options, "%s", (const gchar *) g_ptr_array_index(self->held_warnings, i));
  g_ptr_array_unref(self->held_warnings);
  self->held_warnings = NULL;
}

/* ---- pieces of text ---------------------------------------------------- */

static LoaderState
top_state(PdbLoader *self)
{
  return self->stack[self->depth - 1].state;
}

/* A piece begins at @at (inside the root element only, as in GMarkup). */
static inline void
open_piece(PdbLoader *self, const PdbLocation *at, const PdbLocation *start)
{
  self->text->len = 0;
  self->text->str[0] = '\0';
  self->piece_open = self->depth > 1;
  self->text_location = *at;
  self->text_start = *start;
}

/* Hands the piece being read to the open element, which holds text. */
static void
hand_over_open_piece(PdbLoader *self)
{
  LoaderState state = top_state(self);

  self->piece_open = FALSE;
  if (self->pieces == 1 && state != ST_EXAMPLE)
    loader_warn(self, &self->stack[self->depth - 1].location,
                "the text of <%s> is cut in pieces by a comment, CDATA section or processing "
                "instruction; syslog-ng 3.38 reads each piece on its own (so does this loader)",
                loader_grammar_element(state));
  loader_elements_text(self, state, self->text->str, self->text->len);
  self->pieces++;
}

static inline void
hand_over_piece(PdbLoader *self)
{
  if (!self->piece_open)
    return;
  /* most pieces are the blanks between elements */
  if (!loader_grammar_holds_text(top_state(self)))
    self->piece_open = FALSE;
  else
    hand_over_open_piece(self);
}

/* ---- events (both front ends) ----------------------------------------- */

static void
push_element(PdbLoader *self, LoaderState state, const gchar *wrapper, const gchar *wraps)
{
  if (self->depth == self->stack_capacity)
    {
      self->stack_capacity *= 2;
      self->stack = g_renew(StackEntry, self->stack, self->stack_capacity);
    }
  self->stack[self->depth].state = state;
  self->stack[self->depth].wrapper = wrapper;
  self->stack[self->depth].wraps = wraps;
  self->stack[self->depth].location = self->start_location;
  self->depth++;
}

static void
fail_unknown_element(PdbLoader *self, LoaderState parent, const gchar *element)
{
  gchar *expected = loader_grammar_expected(parent);
  const gchar *inside = self->stack[self->depth - 1].wrapper;

  if (parent == ST_DOCUMENT)
    loader_fail(self, PDB_DB_ERROR_STRUCTURE, "unknown element <%s> at the top level, expected %s",
                element, expected);
  else if (expected[0] == '\0')
    loader_fail(self, PDB_DB_ERROR_STRUCTURE, "unknown element <%s> inside <%s>, expected text only",
                element, loader_grammar_element(parent));
  else if (inside)
    loader_fail(self, PDB_DB_ERROR_STRUCTURE, "unknown element <%s> inside <%s> (read as if in <%s>), "
                "expected one of %s", element, inside, loader_grammar_element(parent), expected);
  else
    loader_fail(self, PDB_DB_ERROR_STRUCTURE, "unknown element <%s> inside <%s>, expected one of %s",
                element, loader_grammar_element(parent), expected);
  g_free(expected);
}

void
loader_start_element(PdbLoader *self, const gchar *element, const Attributes *attrs,
                     const PdbLocation *start, const PdbLocation *tag_end, gboolean empty)
{
  LoaderState parent = top_state(self);
  const StackEntry *top = &self->stack[self->depth - 1];
  LoaderState child;
  const gchar *name, *wrapper, *wraps;

  if (self->error)
    return;
  self->here = *tag_end;
  hand_over_piece(self);
  if (self->error)
    return;
  self->start_location = *start;
  self->in_start_tag = TRUE;
  if (!loader_grammar_child(parent, element, &child, &name, &wrapper, &wraps))
    {
      fail_unknown_element(self, parent, element);
      self->in_start_tag = FALSE;
      return;
    }
  if (top->wraps && top->wraps != name)
    loader_warn(self, NULL, "<%s> inside <%s>: syslog-ng 3.38 reads it as if it stood in <%s>; "
                "move it out of <%s>", element, top->wrapper, loader_grammar_element(parent), top->wrapper);

  push_element(self, child, wrapper, wraps);
  self->pieces = 0;
  /* The front end stands on the start tag's '>': text begins one column on. */
  PdbLocation text_start = *tag_end;
  text_start.column++;
  open_piece(self, tag_end, &text_start);
  self->piece_open = !empty;

  if (!wrapper)
    loader_elements_start(self, child, parent, attrs);
  self->in_start_tag = FALSE;
}

void
loader_end_element(PdbLoader *self)
{
  LoaderState state = top_state(self);
  gboolean wrapper = self->stack[self->depth - 1].wrapper != NULL;

  if (self->error)
    return;
  self->in_end_tag = TRUE;
  hand_over_piece(self);
  if (!wrapper)
    loader_elements_end(self, state);
  self->in_end_tag = FALSE;
  self->depth--;
  self->pieces = 0;
  open_piece(self, &self->here, &self->here);
}

void
loader_text(PdbLoader *self, const gchar *text, gsize length, const PdbLocation *end)
{
  LoaderState state = top_state(self);

  if (self->error)
    return;
  self->here = *end;
  if (loader_grammar_holds_text(state))
    {
      g_string_append_len(self->text, text, length);
      self->text_location = *end;
      /* pdbtool (GMarkup) reports the column after the text plus one. */
      self->text_location.column++;
      if (state == ST_EXAMPLE && self->text->len == length)
        for (gsize i = 0; i < length; i++)
          if (!g_ascii_isspace(text[i]))
            {
              loader_warn(self, NULL, "text inside <example> (syslog-ng 3.38 ignores it)");
              break;
            }
      return;
    }
  for (gsize i = 0; i < length; i++)
    {
      if (!g_ascii_isspace(text[i]))
        {
          gint shown = (gint) MIN(length - i, 40);
          const gchar *inside = self->stack[self->depth - 1].wrapper;
          loader_fail(self, PDB_DB_ERROR_STRUCTURE, "unexpected text '%.*s' inside <%s>, expected only elements",
                      shown, text + i, inside ? inside : loader_grammar_element(state));
          return;
        }
    }
}

void
loader_markup(PdbLoader *self, gboolean cdata, gsize length, const PdbLocation *end)
{
  LoaderState state = top_state(self);

  if (self->error)
    return;
  self->here = *end;
  if (cdata && length > 0 && loader_grammar_holds_text(state) && state != ST_EXAMPLE)
    loader_warn(self, NULL, "a CDATA section inside <%s>: syslog-ng 3.38 ignores what it holds "
                "(so does this loader); write the text with &lt; &amp; instead",
                loader_grammar_element(state));
  hand_over_piece(self);
  open_piece(self, end, end);
}

/* ---- patterns into trees --------------------------------------------- */

void
loader_insert_rules(PdbLoader *self, PdbRadix *tree, GPtrArray *rules)
{
  gboolean quiet = (self->flags & PDB_LOADER_QUIET) != 0;

  if (!self->db->insert_worker)
    {
      PdbInsertJob *job = pdb_insert_job_new(tree, rules, self->file, quiet, self->db->names);

      pdb_insert_job_run(job);
      pdb_insert_job_give_warnings(job, self->options, self->file, self->held_warnings);
      pdb_insert_job_free(job);
      return;
    }

  PdbNameRegistry *part = NULL;

  if (self->db->names)
    {
      part = pdb_name_registry_new();
      pdb_name_registry_add_part(self->db->names, part);
    }
  pdb_insert_worker_queue(self->db->insert_worker, pdb_insert_job_new(tree, rules, self->file, quiet, part));
}

/* ---- the file ---------------------------------------------------------- */

/* Opens @path for reading after checking that it is a regular file within
 * the size limit. Returns the descriptor, or -1 with @error set. */
static int
open_file(const gchar *path, gsize *size, GError **error)
{
  struct stat st;
  /* O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below). */
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

  if (fd < 0 || fstat(fd, &st) < 0)
    {
      int saved = errno;
      g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_IO, "%s: cannot open pattern database: %s",
                  path, g_strerror(saved));
      if (fd >= 0)
        close(fd);
      return -1;
    }
  if (!S_ISREG(st.st_mode))
    g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_IO, "%s: not a regular file", path);
  else if (st.st_size > PDB_LOADER_MAX_FILE_SIZE)
    g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_IO,
                "%s: file is %lld bytes, larger than the %d MiB limit for a pattern database file",
                path, (long long) st.st_size, PDB_LOADER_MAX_FILE_SIZE / (1024 * 1024));
  else if (st.st_size == 0)
    g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_XML, "%s: the file is empty, expected a <patterndb> document",
                path);
  else
    {
      *size = (gsize) st.st_size;
      return fd;
    }
  close(fd);
  return -1;
}

static void
loader_read(PdbLoader *self, int fd, gsize size, const gchar *path)
{
  PdbXmlFrontEnd front_end = self->options ? self->options->xml_front_end : PDB_XML_FRONT_END_AUTO;
  gboolean check_first = (self->flags & PDB_LOADER_CHECK_FIRST) != 0;

  /* one pass: warnings wait until the file is known to be inside the subset */
  if (front_end != PDB_XML_FRONT_END_LIBXML2 && !check_first && !(self->flags & PDB_LOADER_QUIET))
    self->held_warnings = g_ptr_array_new_with_free_func(g_free);
  if (front_end != PDB_XML_FRONT_END_LIBXML2 && loader_read_with_scanner(self, fd, size, check_first))
    {
      release_held_warnings(self, FALSE);
      return;
    }
  /* what the one pass gave (an error of the loader too) is not the file's */
  release_held_warnings(self, TRUE);
  g_clear_error(&self->error);
  if (self->scan_partial && front_end != PDB_XML_FRONT_END_SCANNER)
    {
      self->restart = TRUE;
      return;
    }
  if (front_end == PDB_XML_FRONT_END_SCANNER)
    g_set_error(&self->error, PDB_DB_ERROR, PDB_DB_ERROR_XML,
                "%s: not inside the fast XML scanner's subset (xml_front_end scanner)", path);
  else if (lseek(fd, 0, SEEK_SET) != 0)
    g_set_error(&self->error, PDB_DB_ERROR, PDB_DB_ERROR_IO, "%s: cannot read pattern database: %s",
                path, g_strerror(errno));
  else
    loader_read_with_libxml2(self, fd, path);
}

PdbLoaderResult
pdb_loader_load_file(PdbDatabase *db, const gchar *path, const PdbLoadOptions *options,
                     PdbLoaderFlags flags, GError **error)
{
  gsize size = 0;

  pdb_xml_init();
  loader_grammar_init();
  int fd = open_file(path, &size, error);
  if (fd < 0)
    return PDB_LOADER_FAILED;

  gchar *file = g_strdup(path);
  g_ptr_array_add(db->files, file);
  if (!db->insert_worker && size >= PDB_INSERT_WORKER_MIN_FILE && pdb_database_load_threads(options) > 1)
    db->insert_worker = pdb_insert_worker_new();

  PdbLoader self = { 0 };
  self.db = db;
  self.options = options;
  self.flags = flags;
  self.file = file;
  self.stack_capacity = 16;
  self.stack = g_new(StackEntry, self.stack_capacity);
  self.text = g_string_new(NULL);
  StackEntry document = { ST_DOCUMENT, NULL, NULL, { file, 1, 1 } };
  self.stack[0] = document;
  self.depth = 1;

  loader_read(&self, fd, size, path);

  close(fd);
  pending_ruleset_free(self.ruleset);
  g_free(self.value_name);
  g_free(self.value_type);
  g_free(self.stack);
  g_string_free(self.text, TRUE);

  if (self.restart)
    return PDB_LOADER_RESTART;
  if (self.error)
    {
      g_propagate_error(error, self.error);
      return PDB_LOADER_FAILED;
    }
  return PDB_LOADER_LOADED;
}

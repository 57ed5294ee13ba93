/*
 * loader-libxml2.c: the loader's reference front end, libxml2's SAX2 pull
 * parser, which reads the file through a read callback in small chunks and
 * hands its events to loader.c.
 *
 * Security: no entity substitution (XML_PARSE_NOENT is never set and the
 * SAX handler has no getEntity, so a reference to a declared entity is an
 * error, not an expansion), no DTD loading, no network (XML_PARSE_NONET).
 */
#define _GNU_SOURCE   /* memrchr() */
#include "db/loader-private.h"
#include "db/xml-scan.h"

#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#define PDB_LOADER_CHUNK_SIZE (64 * 1024)

/* libxml2's parser position. */
static PdbLocation
xml_location(PdbLoader *self)
{
  PdbLocation location = { self->file, 0, 0 };

  if (self->ctxt && self->ctxt->input)
    {
      location.line = self->ctxt->input->line;
      location.column = self->ctxt->input->col;
    }
  return location;
}

/*
 * Where the element whose start tag was just parsed begins (its '<'). The
 * SAX2 start callback runs with the parser at the tag's '>' (or "/>");
 * attribute values cannot hold a raw '<', so the nearest '<' before it is
 * the tag's start. Falls back to the parser position when the buffer does
 * not reach back that far.
 */
static PdbLocation
xml_element_location(PdbLoader *self)
{
  PdbLocation location = xml_location(self);

  if (!self->ctxt || !self->ctxt->input || !self->ctxt->input->cur || !self->ctxt->input->base)
    return location;

  const xmlChar *base = self->ctxt->input->base;
  const xmlChar *cur = self->ctxt->input->cur;
  const xmlChar *lt = memrchr(base, '<', cur - base + 1);
  if (!lt)
    return location;

  PdbXmlScanPos pos = { location.line, location.column };
  pdb_xml_scan_move_back(base, lt, cur, &pos);
  location.line = pos.line;
  location.column = pos.column;
  return location;
}

/*
 * Called at every event: after an error it tolerated libxml2 marks the
 * document not well-formed, and then drops every entity reference (even
 * &amp;) without a word; the document is well-formed again for us.
 */
static inline void
xml_event(PdbLoader *self)
{
  if (self->xml_tolerated && self->ctxt)
    self->ctxt->wellFormed = 1;
}

/* ---- the libxml2 front end (SAX2 callbacks) ---------------------------- */

static void
on_start_element(void *user_data, const xmlChar *localname, const xmlChar *prefix,
                 const xmlChar *uri, int nb_namespaces, const xmlChar **namespaces,
                 int nb_attributes, int nb_defaulted, const xmlChar **attributes)
{
  PdbLoader *self = user_data;
  Attributes attrs = { nb_attributes, attributes };

  if (self->error)
    return;
  xml_event(self);
  PdbLocation start = xml_element_location(self);
  PdbLocation tag_end = xml_location(self);
  /* the parser stands on the start tag's '>', or on the '/' of "/>" */
  gboolean empty = self->ctxt && self->ctxt->input && self->ctxt->input->cur
                   && self->ctxt->input->cur[0] == '/';
  loader_start_element(self, (const gchar *) localname, &attrs, &start, &tag_end, empty);
}

static void
on_end_element(void *user_data, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri)
{
  PdbLoader *self = user_data;

  if (self->error)
    return;
  xml_event(self);
  self->here = xml_location(self);
  loader_end_element(self);
}

static void
on_characters(void *user_data, const xmlChar *text, int length)
{
  PdbLoader *self = user_data;

  if (self->error)
    return;
  xml_event(self);
  PdbLocation end = xml_location(self);
  loader_text(self, (const gchar *) text, (gsize) length, &end);
}

/* A comment, processing instruction or CDATA section: ends a piece of text. */
static void
on_comment(void *user_data, const xmlChar *value)
{
  PdbLoader *self = user_data;

  if (self->error)
    return;
  xml_event(self);
  PdbLocation end = xml_location(self);
  loader_markup(self, FALSE, 0, &end);
}

static void
on_processing_instruction(void *user_data, const xmlChar *target, const xmlChar *data)
{
  on_comment(user_data, NULL);
}

static void
on_cdata(void *user_data, const xmlChar *text, int length)
{
  PdbLoader *self = user_data;

  if (self->error)
    return;
  xml_event(self);
  PdbLocation end = xml_location(self);
  loader_markup(self, TRUE, (gsize) length, &end);
}

static void
on_reference(void *user_data, const xmlChar *name)
{
  PdbLoader *self = user_data;

  self->here = xml_location(self);

  loader_fail(self, PDB_DB_ERROR_XML, "entity reference '&%s;' is not supported "
              "(only &lt; &gt; &amp; &quot; &apos; and character references are)", (const gchar *) name);
}

/*
 * "]]>" in text (GMarkup takes it as text). libxml2's fast path for ASCII
 * text reports it with the parser still at the start of the run and goes
 * on after its first ']', so the text up to there never reaches us: hand
 * it over here. Its slow path (a run with other characters) keeps the
 * text and stands on the "]]>" itself, after other text of the run.
 * FALSE when the input does not look like either.
 */
static gboolean
restore_cdata_end_text(PdbLoader *self)
{
  xmlParserInputPtr input = self->ctxt ? self->ctxt->input : NULL;

  if (!input || !input->cur || !input->end || input->cur >= input->end)
    return FALSE;
  const gchar *cur = (const gchar *) input->cur;
  const gchar *end = (const gchar *) input->end;
  const gchar *seq = memmem(cur, end - cur, "]]>", 3);
  if (!seq)
    return FALSE;
  if (seq == cur && cur > (const gchar *) input->base)
    {
      const gchar *base = (const gchar *) input->base;
      const gchar *lt = memrchr(base, '<', cur - base);
      gboolean other = FALSE;

      for (const gchar *p = lt ? lt : base; p < cur && !other; p++)
        other = (guchar) *p >= 0x80;
      /* after a tag or a reference a run starts afresh (fast path, the
       * ']' is lost); a '>' of text after other characters leaves it open */
      if (cur[-1] != '>' && cur[-1] != ';' && cur[-1] != ']')
        return TRUE;
      if (cur[-1] == '>' && other)
        return FALSE;
    }
  PdbLocation here = xml_location(self);
  loader_text(self, cur, seq + 1 - cur, &here);
  return TRUE;
}

/*
 * Errors of libxml2 that 3.38 (GMarkup) does not make, and after which
 * libxml2's recovery mode goes on exactly as GMarkup does: TRUE, with a
 * warning, when @error is one. A control character in content (raw or as a
 * reference) is handed to the loader as the text it stands for, as
 * GMarkup reads it; a repeated attribute keeps its first value (3.38
 * mostly the last).
 */
static gboolean
tolerate_xml_error(PdbLoader *self, xmlErrorPtr error)
{
  PdbLocation at = { self->file, error->line, error->int2 };
  const gchar *what = "";
  gchar *message = g_strchomp(g_strdup(error->message ? error->message : ""));

  switch (error->code)
    {
    case XML_ERR_ATTRIBUTE_REDEFINED:
      what = "; this loader takes the first value, 3.38 mostly the last";
      break;
    case XML_ERR_HYPHEN_IN_COMMENT:
    case XML_ERR_RESERVED_XML_NAME:
    case XML_ERR_UNKNOWN_VERSION:
      break;
    case XML_ERR_DOCUMENT_END:
      /* more after the root element: GMarkup reads on, and so do we
       * (loader_read_with_libxml2) unless an encoding was converted */
      if (!self->ctxt || !self->ctxt->input || !self->ctxt->input->buf || self->ctxt->input->buf->encoder
          || !self->ctxt->input->cur || self->ctxt->input->cur[0] != '<')
        {
          g_free(message);
          return FALSE;
        }
      self->next_document = (goffset) self->ctxt->input->consumed
                            + (self->ctxt->input->cur - self->ctxt->input->base);
      self->next_document_at = at;
      what = "; it reads what follows as another document, so does this loader";
      break;
    case XML_ERR_MISPLACED_CDATA_END:
      if (!restore_cdata_end_text(self))
        {
          g_free(message);
          return FALSE;
        }
      break;
    case XML_ERR_INVALID_CHAR:
      if (!self->ctxt || self->ctxt->instate != XML_PARSER_CONTENT || error->int1 < 1 || error->int1 >= 0x20)
        {
          g_free(message);
          return FALSE;
        }
      /* a reference right after it would be dropped (see xml_event()) */
      if (self->ctxt->input && self->ctxt->input->cur && self->ctxt->input->cur[0] == '&')
        {
          g_free(message);
          return FALSE;
        }
      gchar c = (gchar) error->int1;
      PdbLocation here = xml_location(self);
      loader_text(self, &c, 1, &here);
      break;
    default:
      g_free(message);
      return FALSE;
    }
  self->xml_tolerated = TRUE;
  loader_warn(self, &at, "%s (syslog-ng 3.38 loads this too%s)", message, what);
  g_free(message);
  return TRUE;
}

static void
on_xml_error(void *user_data, xmlErrorPtr error)
{
  PdbLoader *self = user_data;

  if (self->error || error->level < XML_ERR_ERROR)
    return;
  if (tolerate_xml_error(self, error))
    return;

  gchar *message = g_strchomp(g_strdup(error->message ? error->message : "XML error"));
  g_set_error(&self->error, PDB_DB_ERROR, PDB_DB_ERROR_XML, "%s:%d:%d: %s",
              self->file, error->line, error->int2, message);
  g_free(message);
}


/* Reads up to sizeof the buffer; -1 with @error set on a read error. */
static gssize
read_chunk(int fd, const gchar *path, gchar *buffer, gsize size, GError **error)
{
  gssize n;

  do
    n = read(fd, buffer, size);
  while (n < 0 && errno == EINTR);
  if (n < 0)
    {
      int saved = errno;
      g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_IO, "%s: cannot read pattern database: %s",
                  path, g_strerror(saved));
    }
  return n;
}

void
pdb_xml_init(void)
{
  static gsize initialised = 0;

  if (g_once_init_enter(&initialised))
    {
      xmlInitParser();
      g_once_init_leave(&initialised, 1);
    }
}

/* What the parser's read callback reads from: @prefix first (blanks that
 * put a later document at its line and column), then the file. */
typedef struct _PullSource
{
  int fd;
  const gchar *path;
  PdbLoader *loader;
  GString *prefix;
  gsize prefix_sent;
} PullSource;

/* libxml2's read callback: bytes of the file, 0 at its end and after the
 * first error (so parsing stops at the end of what it has), -1 when
 * read() fails (the loader's error says why). */
static int
pull_read(void *context, char *buffer, int length)
{
  PullSource *source = context;
  gssize n;

  if (source->loader->error)
    return 0;
  if (source->prefix && source->prefix_sent < source->prefix->len)
    {
      n = MIN((gsize) length, source->prefix->len - source->prefix_sent);
      memcpy(buffer, source->prefix->str + source->prefix_sent, n);
      source->prefix_sent += n;
      return (int) n;
    }
  n = read_chunk(source->fd, source->path, buffer, MIN(length, PDB_LOADER_CHUNK_SIZE),
                 &source->loader->error);
  return n < 0 ? -1 : (int) n;
}

/* Parses one document from @source. */
static void
parse_document(PdbLoader *self, PullSource *source, const gchar *path)
{
  xmlSAXHandler sax;
  memset(&sax, 0, sizeof(sax));
  sax.initialized = XML_SAX2_MAGIC;
  sax.startElementNs = on_start_element;
  sax.endElementNs = on_end_element;
  sax.characters = on_characters;
  sax.cdataBlock = on_cdata;
  sax.comment = on_comment;
  sax.processingInstruction = on_processing_instruction;
  sax.reference = on_reference;
  sax.serror = on_xml_error;

  /* The parser copies the handler and pulls the file through pull_read(). */
  xmlParserCtxtPtr ctxt = xmlCreateIOParserCtxt(&sax, self, pull_read, NULL, source, XML_CHAR_ENCODING_NONE);
  if (!ctxt)
    {
      if (!self->error)
        g_set_error(&self->error, PDB_DB_ERROR, PDB_DB_ERROR_XML, "%s: cannot create an XML parser", path);
      return;
    }
  /* recovery, to go on after a tolerated error (on_xml_error); any other
   * error stops the load, since pull_read() then ends the input */
  xmlCtxtUseOptions(ctxt, XML_PARSE_NONET | XML_PARSE_RECOVER);
  ctxt->replaceEntities = 0;
  ctxt->loadsubset = 0;
  self->ctxt = ctxt;

  xmlParseDocument(ctxt);
  if (!self->error && !ctxt->wellFormed && !self->xml_tolerated)
    g_set_error(&self->error, PDB_DB_ERROR, PDB_DB_ERROR_XML, "%s: not a well-formed XML document", path);

  self->ctxt = NULL;
  /* A DOCTYPE makes libxml2 keep a document for its declarations. */
  if (ctxt->myDoc)
    {
      xmlFreeDoc(ctxt->myDoc);
      ctxt->myDoc = NULL;
    }
  xmlFreeParserCtxt(ctxt);
}

/* Loads the file through libxml2's SAX2 pull parser (the reference front
 * end), reading it from @fd in chunks; after the root element, a further
 * document (GMarkup takes several) is parsed from where it starts, behind
 * blanks that keep its lines and columns. */
void
loader_read_with_libxml2(PdbLoader *self, int fd, const gchar *path)
{
  PullSource source = { fd, path, self, NULL, 0 };

  self->next_document = -1;
  parse_document(self, &source, path);
  while (!self->error && self->next_document >= 0)
    {
      PdbLocation at = self->next_document_at;

      if (lseek(fd, self->next_document, SEEK_SET) != self->next_document)
        {
          g_set_error(&self->error, PDB_DB_ERROR, PDB_DB_ERROR_IO, "%s: cannot read pattern database: %s",
                      path, g_strerror(errno));
          break;
        }
      self->next_document = -1;
      if (!source.prefix)
        source.prefix = g_string_new(NULL);
      g_string_truncate(source.prefix, 0);
      for (gint i = 1; i < at.line; i++)
        g_string_append_c(source.prefix, '\n');
      for (gint i = 1; i < at.column; i++)
        g_string_append_c(source.prefix, ' ');
      source.prefix_sent = 0;
      parse_document(self, &source, path);
    }
  if (source.prefix)
    g_string_free(source.prefix, TRUE);
}

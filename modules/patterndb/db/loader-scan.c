/*
 * loader-scan.c: the loader's fast front end. The scanner of xml-scan.c
 * reads the file whole and checks that it is well-formed and inside the
 * small subset of XML that pattern databases use; any other file goes
 * through libxml2 (loader-libxml2.c), so its messages and odd-input
 * behaviour stay libxml2's. Either the check runs over the whole file
 * before anything is reported to loader.c (check_first), or both run in
 * one pass: a file then found outside the subset after it gave the
 * loader something leaves self->scan_partial set, and the caller must
 * throw the database away and load again (database.c does).
 */
#include "db/loader-private.h"
#include "db/xml-scan.h"

#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

/* The file's bytes (read whole, NUL-terminated) in an anonymous mapping, so
 * that pages already scanned can be given back while the database grows. */
typedef struct _FileImage
{
  gchar *bytes;
  gsize mapped;
} FileImage;

/* What the scanner's events go to: the loader, and the image. */
typedef struct _ScanTarget
{
  PdbLoader *loader;
  FileImage *image;
} ScanTarget;

/* Every event reaches the loader through here. */
static inline PdbLoader *
reporting_to(gpointer user_data)
{
  PdbLoader *self = ((ScanTarget *) user_data)->loader;

  self->scan_partial = TRUE;
  return self;
}

static PdbLocation
scan_location(PdbLoader *self, const PdbXmlScanPos *pos)
{
  PdbLocation location = { self->file, pos->line, pos->column };
  return location;
}

static gboolean
scan_target_start(gpointer user_data, const gchar *name, gint n_attributes, const gchar **attributes,
                  const PdbXmlScanPos *start, const PdbXmlScanPos *tag_end, gboolean empty)
{
  PdbLoader *self = reporting_to(user_data);
  Attributes attrs = { n_attributes, (const xmlChar **) attributes };
  PdbLocation start_location = scan_location(self, start);
  PdbLocation tag_end_location = scan_location(self, tag_end);

  loader_start_element(self, name, &attrs, &start_location, &tag_end_location, empty);
  return !self->error;
}

static gboolean
scan_target_end(gpointer user_data)
{
  PdbLoader *self = reporting_to(user_data);

  loader_end_element(self);
  return !self->error;
}

static gboolean
scan_target_text(gpointer user_data, const gchar *text, gsize length, const PdbXmlScanPos *end)
{
  PdbLoader *self = reporting_to(user_data);
  PdbLocation end_location = scan_location(self, end);

  loader_text(self, text, length, &end_location);
  return !self->error;
}

static gboolean
scan_target_markup(gpointer user_data, gboolean cdata, gsize length, const PdbXmlScanPos *end)
{
  PdbLoader *self = reporting_to(user_data);
  PdbLocation end_location = scan_location(self, end);

  loader_markup(self, cdata, length, &end_location);
  return !self->error;
}

static void
scan_target_consumed(gpointer user_data, gsize offset)
{
  FileImage *image = ((ScanTarget *) user_data)->image;
  gsize page = (gsize) sysconf(_SC_PAGESIZE);

  madvise(image->bytes, offset / page * page, MADV_DONTNEED);
}

/* Reads the whole file (@size bytes when opened) into @image. FALSE when
 * that fails or the file changed size: the libxml2 path then reads it. */
static gboolean
read_image(int fd, gsize size, FileImage *image)
{
  gsize page = (gsize) sysconf(_SC_PAGESIZE);
  gsize got = 0;
  gchar extra;

  /* the scanner's padding reads as NUL bytes */
  image->mapped = (size + PDB_XML_SCAN_PADDING + page - 1) / page * page;
  /* MAP_POPULATE: one bulk fault instead of one per page in read() */
  image->bytes = mmap(NULL, image->mapped, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
  if (image->bytes == MAP_FAILED)
    {
      image->bytes = NULL;
      return FALSE;
    }
  while (got < size)
    {
      gssize n = read(fd, image->bytes + got, size - got);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      got += (gsize) n;
    }
  return read(fd, &extra, 1) == 0;
}

gboolean
loader_read_with_scanner(PdbLoader *self, int fd, gsize size, gboolean check_first)
{
  static const PdbXmlScanEvents events =
  {
    scan_target_start, scan_target_end, scan_target_text, scan_target_markup, scan_target_consumed
  };
  FileImage image = { NULL, 0 };
  PdbXmlScanFacts facts;
  gboolean loaded = FALSE;

  ScanTarget target = { self, &image };

  if (!read_image(fd, size, &image))
    loaded = FALSE;
  else if (!check_first)
    loaded = pdb_xml_scan_check_and_report(image.bytes, size, &events, &target);
  else if (pdb_xml_scan_check(image.bytes, size, &facts))
    {
      pdb_xml_scan_events(image.bytes, size, &facts, &events, &target);
      loaded = TRUE;
    }
  if (image.bytes)
    munmap(image.bytes, image.mapped);
  return loaded;
}

/*
 * xml-scan.h: a small XML scanner for the subset of XML that pattern
 * database files use, the loader's fast path (libxml2 stays the reference
 * and the fallback; see xml-scan.c for the subset).
 */
#ifndef PDB_DB_XML_SCAN_H
#define PDB_DB_XML_SCAN_H

#include <glib.h>

/* A position as libxml2 reports it: line and column, both from 1; the
 * column counts characters (not bytes) since the line's start. */
typedef struct _PdbXmlScanPos
{
  gint line;
  gint column;
} PdbXmlScanPos;

/*
 * What the scanner reports. Strings are only valid during the call.
 * Attributes come as libxml2's SAX2 5-tuples (name, NULL, NULL, value,
 * value end), with the value decoded as libxml2 decodes it without entity
 * substitution: every '&' it stands for is written "&#38;".
 * Each callback returns FALSE to stop the scan.
 */
typedef struct _PdbXmlScanEvents
{
  /* @start: where the loader places the element (see xml-scan.c);
   * @tag_end: the start tag's '>' (or the '/' of "/>"); @empty: "<x/>",
   * whose end_element follows at once. */
  gboolean (*start_element)(gpointer user_data, const gchar *name, gint n_attributes,
                            const gchar **attributes, const PdbXmlScanPos *start,
                            const PdbXmlScanPos *tag_end, gboolean empty);
  gboolean (*end_element)(gpointer user_data);
  /* A run of character data; @end: just after it. */
  gboolean (*text)(gpointer user_data, const gchar *text, gsize length, const PdbXmlScanPos *end);
  /* A comment or CDATA section inside the root element (@cdata, with
   * @length bytes of content, not reported as text); @end: just after it. */
  gboolean (*markup)(gpointer user_data, gboolean cdata, gsize length, const PdbXmlScanPos *end);
  /* Optional: the bytes before @offset will not be read again. */
  void (*consumed)(gpointer user_data, gsize offset);
} PdbXmlScanEvents;

/* Bytes the caller provides after the document: a NUL byte, then bytes
 * that may be read but are ignored (the scanner reads 16 bytes at a time). */
#define PDB_XML_SCAN_PADDING 16

/* What the check learnt about a document, for the event pass. */
typedef struct _PdbXmlScanFacts
{
  gboolean ascii;          /* no byte above 0x7F: columns are byte offsets */
  gboolean attrs_verbatim; /* no attribute value holds a reference, TAB or LF:
                              every value is its raw bytes */
} PdbXmlScanFacts;

/*
 * Checks @buffer (@length bytes followed by PDB_XML_SCAN_PADDING bytes, the
 * first of them NUL): TRUE when the document is well-formed and inside the
 * subset, with @facts filled in.
 */
gboolean pdb_xml_scan_check(const gchar *buffer, gsize length, PdbXmlScanFacts *facts);

/*
 * Reports the document of a buffer that passed pdb_xml_scan_check() (this
 * pass relies on it and skips the checks) until its end or until a
 * callback returns FALSE.
 */
void pdb_xml_scan_events(const gchar *buffer, gsize length, const PdbXmlScanFacts *facts,
                         const PdbXmlScanEvents *events, gpointer user_data);

/*
 * Both in one pass: checks @buffer as pdb_xml_scan_check() does while
 * reporting it as pdb_xml_scan_events() does, each event once the check
 * has passed everything before the position it reports; after a callback
 * returns FALSE it reports nothing more but checks on to the end. FALSE
 * when the document is outside the subset, after reporting a prefix of it
 * (maybe none) that the caller must then undo.
 */
gboolean pdb_xml_scan_check_and_report(const gchar *buffer, gsize length, const PdbXmlScanEvents *events,
                                       gpointer user_data);

/*
 * Where both front ends place an element: @pos is the position of @end
 * (the start tag's end) in a buffer starting at @base; it is moved back to
 * @lt (the tag's '<'): fewer columns on the same line, or the byte column
 * of @lt on an earlier line, never below column 1.
 */
void pdb_xml_scan_move_back(const guchar *base, const guchar *lt, const guchar *end, PdbXmlScanPos *pos);

#endif

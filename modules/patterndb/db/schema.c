/*
 * schema.c: XSD validation of pattern database files (see schema.h).
 *
 * Each call parses the schema, reads the document without network access
 * or entity substitution, validates it and frees everything again; nothing
 * is cached, so the functions are safe to call from any thread.
 */
#include "db/schema.h"
#include "db/database-private.h"

#include <libxml/parser.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlschemas.h>
#include <stdlib.h>
#include <string.h>

#ifndef PDB_XSD_INSTALL_DIR
#define PDB_XSD_INSTALL_DIR "/usr/share/patterndb/xsd"
#endif
#ifndef PDB_XSD_SOURCE_DIR
#define PDB_XSD_SOURCE_DIR "contrib/xsd"
#endif
#ifndef PDB_SYSLOG_NG_XSD_DIR
#define PDB_SYSLOG_NG_XSD_DIR "/usr/share/syslog-ng/xsd"
#endif

/* At most this many problems are listed in one error. */
#define PDB_SCHEMA_MAX_REPORTED 10

gint
pdb_schema_sniff_version(const gchar *path, GError **error)
{
  pdb_xml_init();

  xmlTextReaderPtr reader = xmlReaderForFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  gint version = -1;

  if (!reader)
    {
      g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_IO, "%s: cannot open pattern database", path);
      return -1;
    }
  while (xmlTextReaderRead(reader) == 1)
    {
      if (xmlTextReaderNodeType(reader) != XML_READER_TYPE_ELEMENT)
        continue;
      xmlChar *value = xmlTextReaderGetAttribute(reader, BAD_CAST "version");
      version = value ? atoi((const char *) value) : 4;
      xmlFree(value);
      break;
    }
  xmlFreeTextReader(reader);
  if (version < 0)
    g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_XML, "%s: no root element found", path);
  return version;
}

gchar *
pdb_schema_find_xsd(gint version, GError **error)
{
  const gchar *dirs[] =
  {
    g_getenv("PDB_XSD_DIR"),
    PDB_XSD_INSTALL_DIR,
    PDB_XSD_SOURCE_DIR,
    PDB_SYSLOG_NG_XSD_DIR,
  };
  gchar *name = g_strdup_printf("patterndb-%d.xsd", version);
  GString *searched = g_string_new(NULL);

  for (gsize i = 0; i < G_N_ELEMENTS(dirs); i++)
    {
      if (!dirs[i] || !dirs[i][0])
        continue;
      gchar *path = g_build_filename(dirs[i], name, NULL);
      if (g_file_test(path, G_FILE_TEST_IS_REGULAR))
        {
          g_free(name);
          g_string_free(searched, TRUE);
          return path;
        }
      g_free(path);
      g_string_append_printf(searched, "%s%s", searched->len ? ", " : "", dirs[i]);
    }
  g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_SCHEMA,
              "no schema %s for patterndb version %d (searched %s; set PDB_XSD_DIR)",
              name, version, searched->str);
  g_free(name);
  g_string_free(searched, TRUE);
  return NULL;
}

typedef struct _Problems
{
  const gchar *file;
  GString *text;
  guint count;
} Problems;

static void
collect_problem(void *user_data, xmlErrorPtr error)
{
  Problems *problems = user_data;

  if (error->level < XML_ERR_ERROR)
    return;
  problems->count++;
  if (problems->count > PDB_SCHEMA_MAX_REPORTED)
    return;

  gchar *message = g_strchomp(g_strdup(error->message ? error->message : "invalid"));
  g_string_append_printf(problems->text, "%s%s:%d: %s", problems->text->len ? "\n" : "",
                         error->file ? error->file : problems->file, error->line, message);
  g_free(message);
}

gboolean
pdb_schema_validate_file(const gchar *path, GError **error)
{
  pdb_xml_init();
  gint version = pdb_schema_sniff_version(path, error);
  if (version < 0)
    return FALSE;

  gchar *xsd = pdb_schema_find_xsd(version, error);
  if (!xsd)
    return FALSE;

  Problems problems = { path, g_string_new(NULL), 0 };
  gboolean ok = FALSE;
  xmlSchemaParserCtxtPtr parser = xmlSchemaNewParserCtxt(xsd);
  xmlSchemaSetParserStructuredErrors(parser, collect_problem, &problems);
  xmlSchemaPtr schema = xmlSchemaParse(parser);
  xmlSchemaFreeParserCtxt(parser);

  if (!schema)
    {
      g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_SCHEMA, "%s: cannot load schema %s:\n%s",
                  path, xsd, problems.text->str);
      goto out;
    }

  problems.count = 0;
  g_string_truncate(problems.text, 0);
  xmlDocPtr doc = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  if (!doc)
    {
      g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_XML, "%s: not a well-formed XML document", path);
      xmlSchemaFree(schema);
      goto out;
    }

  xmlSchemaValidCtxtPtr validator = xmlSchemaNewValidCtxt(schema);
  xmlSchemaSetValidStructuredErrors(validator, collect_problem, &problems);
  int rc = xmlSchemaValidateDoc(validator, doc);
  xmlSchemaFreeValidCtxt(validator);
  xmlFreeDoc(doc);
  xmlSchemaFree(schema);

  if (rc != 0)
    {
      if (problems.count > PDB_SCHEMA_MAX_REPORTED)
        g_string_append_printf(problems.text, "\n(%u more problems)", problems.count - PDB_SCHEMA_MAX_REPORTED);
      g_set_error(error, PDB_DB_ERROR, PDB_DB_ERROR_SCHEMA, "%s does not validate against %s:\n%s",
                  path, xsd, problems.text->len ? problems.text->str : "(no details)");
      goto out;
    }
  ok = TRUE;

out:
  g_string_free(problems.text, TRUE);
  g_free(xsd);
  return ok;
}

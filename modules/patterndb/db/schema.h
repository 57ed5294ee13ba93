/*
 * schema.h: validation of a pattern database file against the XSD of its
 * version, in process with libxml2 (no xmllint).
 *
 * The version comes from the root element's `version` attribute (4 when it
 * is missing). The schema file patterndb-<version>.xsd is searched in:
 *   1. $PDB_XSD_DIR
 *   2. the installed directory, $(datadir)/patterndb/xsd (our patterndb-6.xsd)
 *   3. contrib/xsd of the source tree (for tests before `make install`)
 *   4. syslog-ng's own directory, /usr/share/syslog-ng/xsd (versions 1 to 5)
 */
#ifndef PDB_DB_SCHEMA_H
#define PDB_DB_SCHEMA_H

#include <glib.h>

G_BEGIN_DECLS

/* The version a file declares (atoi of the attribute), 4 when it has none,
 * -1 with @error set when the file cannot be read or parsed that far. */
gint pdb_schema_sniff_version(const gchar *path, GError **error);

/* The path of the XSD for @version, newly allocated, or NULL with @error
 * (naming the directories searched) when there is none. */
gchar *pdb_schema_find_xsd(gint version, GError **error);

/* Validates @path; on failure @error (PDB_DB_ERROR_SCHEMA) lists the first
 * problems as "file:line: message", one per line. */
gboolean pdb_schema_validate_file(const gchar *path, GError **error);

G_END_DECLS

#endif

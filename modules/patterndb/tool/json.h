/*
 * json.h: the little JSON the tool needs, written by hand.
 *
 * Writing: append JSON string literals (escaping control characters and
 * replacing invalid UTF-8 with U+FFFD, so the output is always valid JSON
 * whatever bytes a log message carries).
 *
 * Reading: pick string members out of one flat JSON object (rsyslog's
 * "fulljson" lines). Nested values are skipped, not interpreted. The
 * reader never reads past the given length and rejects anything that is
 * not a well-formed object.
 */
#ifndef PDB_TOOL_JSON_H
#define PDB_TOOL_JSON_H

#include <glib.h>

/* Appends "..." with @value escaped; @length may be -1 for NUL-terminated. */
void pdb_json_append_string(GString *out, const gchar *value, gssize length);

/* TRUE if @s is a number in JSON's grammar (with @integer: an integer);
 * NUMBER and FLOAT values are written unquoted only then (hex, a leading
 * '+' or a lone '-' stay strings). */
gboolean pdb_json_is_number(const gchar *s, gsize len, gboolean integer);

/*
 * Parses @text as one JSON object and calls @member for every member whose
 * value is a string (decoded into @scratch; valid until the next call).
 * Returns FALSE if @text is not a well-formed JSON object.
 */
typedef void (*PdbJsonMemberFunc)(const gchar *name, const gchar *value, gsize value_length,
                                  gpointer user_data);
gboolean pdb_json_parse_object(const gchar *text, gsize length, PdbJsonMemberFunc member,
                               gpointer user_data);

#endif

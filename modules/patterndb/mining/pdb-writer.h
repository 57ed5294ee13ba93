/*
 * pdb-writer.h: writing mined patterns as a patterndb XML file.
 *
 * The output is a version 6 patterndb (the structure is the same in
 * version 5, which is what Debian's pdbtool 3.38 reads):
 *
 *   <patterndb version='6' pub_date='YYYY-MM-DD'>
 *     <ruleset name='PROGRAM' id='...'>
 *       <pattern>PROGRAM</pattern>       (omitted for the catch-all ruleset)
 *       <rules>
 *         <rule provider='patternize' id='...' class='system'>
 *           <!-- support: N -->
 *           <patterns><pattern>...</pattern></patterns>
 *           <examples><example><test_message program='...'>...</test_message>
 *             <test_values><test_value name='...'>...</test_value>...
 *
 * Ids are stable: derived from a SHA-1 of the program and the pattern, so
 * mining the same input twice gives the same file.
 */
#ifndef PDB_MINING_PDB_WRITER_H
#define PDB_MINING_PDB_WRITER_H

#include "mining/pattern.h"

G_BEGIN_DECLS

/* Appends @text XML-escaped (&, <, >, ', "). */
void pdb_mining_xml_escape(GString *out, const gchar *text, gssize length);

/* A UUID-shaped id from the SHA-1 of @a, a NUL and @b. Free with g_free(). */
gchar *pdb_mining_stable_id(const gchar *a, const gchar *b);

void pdb_mining_xml_begin(GString *out, const gchar *version, const gchar *pub_date);
/* @program NULL: a catch-all ruleset named @name without <pattern>. */
void pdb_mining_xml_begin_ruleset(GString *out, const gchar *name, const gchar *program);
/*
 * One rule for @pattern with @support lines; up to @samples examples from
 * the pattern's matching members (distinct messages first), with
 * test_message program=@test_program and a test_value per named field.
 */
void pdb_mining_xml_rule(GString *out, const gchar *test_program, const PdbMiningPattern *pattern,
                         guint support, const gchar *const *messages, guint samples);
void pdb_mining_xml_end_ruleset(GString *out);

/* The examples pdb_mining_xml_rule() writes: indexes into
 * @pattern->matching, distinct messages first, at most @samples. */
GArray *pdb_mining_pick_examples(const PdbMiningPattern *pattern, const gchar *const *messages, guint samples);
void pdb_mining_xml_end(GString *out);

G_END_DECLS

#endif

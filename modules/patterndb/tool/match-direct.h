/*
 * match-direct.h: the short path of `patterndb match -f` for -T templates
 * that only print the classification (${.classifier.rule_id},
 * ${.classifier.class}), the bulk-classification case.
 *
 * Such output does not depend on any other value, tag or macro, so the
 * line is classified and the template expanded straight from the PdbResult:
 * no message store is filled, no capture, tag or <value> is written. The
 * output is byte-identical to the general path; pdb_match_direct_new()
 * refuses (returns NULL) whenever it could differ.
 */
#ifndef PDB_TOOL_MATCH_DIRECT_H
#define PDB_TOOL_MATCH_DIRECT_H

#include "db/database.h"
#include "db/template.h"

G_BEGIN_DECLS

typedef struct _PdbMatchDirect PdbMatchDirect;

/*
 * NULL unless @tmpl reads nothing but .classifier.rule_id and
 * .classifier.class of the current message, and nothing in @db can write
 * those names or make more output: no rule with actions or a context-id,
 * no pattern capture or <value> whose name mentions ".classifier.". The
 * caller uses it only without -F, --json, --explain and -D.
 * Both @db and @tmpl must outlive the result. @template_text (may be NULL)
 * is the text @tmpl was compiled from: when it is plain text and the two
 * references only, lines are expanded without the template evaluator.
 */
PdbMatchDirect *pdb_match_direct_new(const PdbDatabase *db, const PdbTemplate *tmpl,
                                     const gchar *template_text);
void pdb_match_direct_free(PdbMatchDirect *direct);

/*
 * Classifies one syslog line and appends the template's expansion to @out.
 * FALSE (and nothing appended) when the line needs the general path: a
 * header 3.38 cannot parse, whose message is an error text.
 */
gboolean pdb_match_direct_line(PdbMatchDirect *direct, const gchar *line, gsize length, GString *out);

G_END_DECLS

#endif

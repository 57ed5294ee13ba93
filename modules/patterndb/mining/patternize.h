/*
 * patternize.h: from log lines to a patterndb file (`patterndb patternize`).
 *
 * Lines are grouped by program (one ruleset per program; without a
 * program, one catch-all ruleset named "patternize" as pdbtool names it),
 * clustered per program (cluster.h), and each cluster whose size reaches
 * the support threshold becomes a rule (pattern.h, pdb-writer.h).
 *
 * By default (support < 0) every cluster becomes a rule, so every message
 * type in the input, recurring or seen once, gets one: what an
 * artificial-ignorance loop needs from a file of unknown messages. A
 * support >= 0 is a percentage of all input lines, as in pdbtool. With
 * iterate_outliers, the clusters below the threshold are considered again
 * with the threshold taken relative to their own line count, until no
 * cluster reaches it (pdbtool's -o, applied to our clusters).
 */
#ifndef PDB_MINING_PATTERNIZE_H
#define PDB_MINING_PATTERNIZE_H

#include "mining/pattern.h"

G_BEGIN_DECLS

typedef struct _PdbPatternizeOptions
{
  gdouble support;             /* percent of lines as pdbtool's -S; < 0 (default): every cluster */
  gboolean iterate_outliers;
  guint samples;               /* examples per rule, default 1 */
  PdbMiningOptions mining;
  PdbMiningPatternOptions pattern;
} PdbPatternizeOptions;

void pdb_patternize_options_init(PdbPatternizeOptions *options);

typedef struct _PdbPatternizer PdbPatternizer;

PdbPatternizer *pdb_patternizer_new(const PdbPatternizeOptions *options);
void pdb_patternizer_free(PdbPatternizer *p);

/* Whether a message can be mined and written to XML: non-empty, valid
 * UTF-8, no control characters except tab. */
gboolean pdb_patternize_message_is_usable(const gchar *message, gsize length);

/*
 * Adds a line. @program NULL (or -p mode): the catch-all group. Returns
 * FALSE (and counts it as skipped) if the message is not usable.
 */
gboolean pdb_patternizer_add(PdbPatternizer *p, const gchar *program, gsize program_length,
                             const gchar *message, gsize message_length);
guint pdb_patternizer_get_n_lines(const PdbPatternizer *p);
guint pdb_patternizer_get_n_skipped(const PdbPatternizer *p);

/* The version to write: the lowest whose format holds what the writer
 * (pdb-writer.c) writes. Version 3 brought <examples> with
 * <test_message program=''> and <test_values> (version 2 has no examples);
 * nothing of later versions is written (<actions> came with 4). pdbtool
 * 3.38 loads versions 3 to 5. */
#define PDB_MINING_XML_VERSION "3"

/* Clusters everything and writes the database; returns the number of rules. */
guint pdb_patternizer_write(PdbPatternizer *p, GString *out, const gchar *version, const gchar *pub_date);

G_END_DECLS

#endif

/*
 * lint-log.c: findings from a log (`patterndb lint --log FILE`): what the
 * rules did with real messages.
 *
 *   never-matched (WARNING)  a rule that classified none of the log's lines;
 *   shadowed-in-practice (WARNING)  a rule that matches some lines whole but
 *                            never wins one: another rule always comes first
 *                            (the witness is the first such line).
 *
 * The caller splits the log into program and message (the tool reads
 * syslog lines) and feeds every line; the counts are per rule index.
 */
#include "lint/lint-private.h"

#include <string.h>

struct _PdbLintLog
{
  const PdbDatabase *db;
  guint64 lines;
  guint64 *wins;                /* per rule index */
  guint64 *whole_matches;       /* per rule index: matched whole, won or not */
  const PdbRule **first_winner; /* per rule index: the winner of its first lost line */
  gchar **first_witness;        /* per rule index: that line's message */
};

PdbLintLog *
pdb_lint_log_new(const PdbDatabase *db)
{
  PdbLintLog *self = g_new0(PdbLintLog, 1);
  guint n = pdb_database_get_rules(db)->len;

  self->db = db;
  self->wins = g_new0(guint64, n);
  self->whole_matches = g_new0(guint64, n);
  self->first_winner = g_new0(const PdbRule *, n);
  self->first_witness = g_new0(gchar *, n + 1);
  return self;
}

void
pdb_lint_log_free(PdbLintLog *self)
{
  if (!self)
    return;
  g_free(self->wins);
  g_free(self->whole_matches);
  g_free(self->first_winner);
  g_strfreev(self->first_witness);
  g_free(self);
}

typedef struct
{
  PdbLintLog *log;
  const PdbRule *winner;
  const gchar *message;
  gsize length;
} LineMatch;

static void
note_whole_match(gpointer value, gpointer user_data)
{
  LineMatch *lm = user_data;
  const PdbRule *rule = value;

  lm->log->whole_matches[rule->index]++;
  if (rule != lm->winner && lm->winner && !lm->log->first_winner[rule->index])
    {
      lm->log->first_winner[rule->index] = lm->winner;
      lm->log->first_witness[rule->index] = g_strndup(lm->message, lm->length);
    }
}

void
pdb_lint_log_add(PdbLintLog *self, const gchar *program, gsize program_length,
                 const gchar *message, gsize message_length)
{
  PdbResult result;
  const PdbRuleset *rs;

  self->lines++;
  pdb_result_init(&result);
  pdb_database_classify(self->db, program, program_length, message, message_length, &result);
  if (result.kind == PDB_RESULT_MATCH)
    self->wins[result.rule->index]++;
  rs = result.ruleset;
  if (rs && rs->messages)
    {
      LineMatch lm = { self, result.kind == PDB_RESULT_MATCH ? result.rule : NULL, message, message_length };

      pdb_radix_foreach_complete_match(rs->messages, message, message_length, note_whole_match, &lm);
    }
  pdb_result_clear(&result);
}

void
pdb_lint_log_check(PdbLintLog *self, const gchar *log_name, GPtrArray *findings)
{
  const GPtrArray *rules = pdb_database_get_rules(self->db);

  for (guint i = 0; i < rules->len; i++)
    {
      const PdbRule *rule = g_ptr_array_index(rules, i);
      const PdbRule *involved[] = { rule, self->first_winner[i], NULL };

      if (self->wins[i])
        continue;
      if (self->whole_matches[i])
        {
          PdbLintFinding *f = pdb_lint_add(findings, PDB_LINT_WARNING, "shadowed-in-practice", &rule->location,
                                           involved, "rule '%s' matches %" G_GUINT64_FORMAT " line%s of %s "
                                           "whole but wins none: rule '%s' comes first",
                                           rule->id, self->whole_matches[i],
                                           self->whole_matches[i] == 1 ? "" : "s", log_name,
                                           self->first_winner[i]->id);
          f->witness = g_strdup(self->first_witness[i]);
        }
      else
        pdb_lint_add(findings, PDB_LINT_WARNING, "never-matched", &rule->location, involved,
                     "rule '%s' classified none of the %" G_GUINT64_FORMAT " lines of %s",
                     rule->id, self->lines, log_name);
    }
}

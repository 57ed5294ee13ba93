/*
 * lint-parsers.c: parsers that cannot match what follows them.
 *
 * Parsers are greedy and never give bytes back (radix-node.h), so some
 * neighbours make a pattern impossible to match at all. Every rule here is
 * a proof, not a guess (an error when it fires):
 *   - @ANYSTRING@ takes the whole rest, so anything after it never matches;
 *   - @STRING@ takes every alphanumeric byte and every byte of its extra
 *     set, @SET@ every byte of its set, @NUMBER@ every digit: the byte right
 *     after them can never be one of those, nor the start of a parser whose
 *     first-byte range lies entirely inside that set (@STRING@@IPv4@);
 *   - @NLSTRING@ stops only before a newline (or at the end), so literal
 *     text after it must start with LF or CR.
 */
#include "lint/lint-private.h"

/* Does greedy parser @p always swallow byte @c? */
static gboolean
swallows(const PdbParser *p, guchar c)
{
  switch (p->kind)
    {
    case PDB_PARSER_STRING:
      return g_ascii_isalnum(c) || (p->has_set && pdb_byte_set_has(&p->set, c));
    case PDB_PARSER_SET:
      return pdb_byte_set_has(&p->set, c);
    case PDB_PARSER_NUMBER:
      return g_ascii_isdigit(c);
    default:
      return FALSE;
    }
}

static gboolean
swallows_range(const PdbParser *p, guchar first, guchar last)
{
  for (guint c = first; c <= last; c++)
    if (!swallows(p, (guchar) c))
      return FALSE;
  return TRUE;
}

/* A byte as shown in a message: 'a', or escaped when unprintable. */
static gchar *
show_byte(guchar c)
{
  gchar raw[2] = { (gchar) c, 0 };

  if (c >= 0x20 && c < 0x7f)
    return g_strdup_printf("'%c'", c);
  if (c >= 0x80)
    return g_strdup_printf("'\\x%02x'", c);
  gchar *escaped = g_strescape(raw, NULL);
  gchar *shown = g_strdup_printf("'%s'", escaped);
  g_free(escaped);
  return shown;
}

static void
report(const PdbRuleset *rs G_GNUC_UNUSED, const LintPattern *p, const LintToken *t,
       GPtrArray *findings, const gchar *why)
{
  PdbLocation loc;
  const PdbRule *rules[] = { p->rule, NULL };

  pdb_lint_pattern_location(p, t->offset, &loc);
  pdb_lint_add(findings, PDB_LINT_ERROR, "parser-follow", &loc, rules,
               "@%s@ %s; pattern %u of rule '%s' can never match",
               t->parser->type_text, why, p->index + 1, p->rule->id);
}

void
pdb_lint_check_parsers(const PdbRuleset *rs, GPtrArray *patterns, GPtrArray *findings)
{
  for (guint i = 0; i < patterns->len; i++)
    {
      const LintPattern *p = g_ptr_array_index(patterns, i);

      for (guint k = 0; k + 1 < p->tokens->len; k++)
        {
          const LintToken *t = &g_array_index(p->tokens, LintToken, k);
          const LintToken *next = &g_array_index(p->tokens, LintToken, k + 1);
          gchar *why = NULL;

          if (!t->parser)
            continue;
          if (t->parser->kind == PDB_PARSER_ANYSTRING)
            why = g_strdup("takes the rest of the message, so nothing may follow it");
          else if (!next->parser && swallows(t->parser, next->byte))
            {
              gchar *b = show_byte(next->byte);
              why = g_strdup_printf("also takes the %s that follows it", b);
              g_free(b);
            }
          else if (next->parser && next->parser->kind != PDB_PARSER_PCRE
                   && swallows_range(t->parser, next->parser->first, next->parser->last))
            why = g_strdup_printf("takes every byte the following @%s@ could start with",
                                  next->parser->type_text);
          else if (t->parser->kind == PDB_PARSER_NLSTRING && !next->parser
                   && next->byte != '\n' && next->byte != '\r')
            {
              gchar *b = show_byte(next->byte);
              why = g_strdup_printf("stops only before a newline, but %s follows it", b);
              g_free(b);
            }
          if (why)
            {
              report(rs, p, t, findings, why);
              g_free(why);
              break;
            }
        }
    }
}

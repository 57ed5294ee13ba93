/*
 * match-debug.c: what --debug-pattern, --debug-csv and --explain print for a message
 * (see match.h).
 */
#include "tool/match.h"

#include <string.h>

/* ---- -D / -C: how the pattern covered the message ---- */

#define COLOR_LITERAL "\033[01;32m"
#define COLOR_PARSER "\033[0;33m"
#define COLOR_PARTIAL "\033[01;31m"
#define COLOR_TRAILING "\033[01;34m"
#define COLOR_RESET "\033[01;0m"

static void
colored(GString *out, gboolean color, const gchar *code, const gchar *text, gsize len)
{
  if (color)
    g_string_append(out, code);
  g_string_append_len(out, text, len);
  g_string_append(out, COLOR_RESET);
}

void
pdb_match_print_debug_pattern(Matcher *m, const gchar *message, gsize length)
{
  const PdbRuleset *rs = m->result.ruleset;
  gboolean color = m->opt->color;
  PdbMatch match;
  PdbTrace trace;
  GString *out = m->out;
  guint32 covered = 0;

  if (!rs || !rs->messages)
    return;
  pdb_match_init(&match);
  pdb_trace_init(&trace);
  pdb_radix_lookup_traced(rs->messages, message, length, &match, &trace);
  for (guint i = 0; i < trace.steps->len; i++)
    {
      const PdbTraceStep *s = &g_array_index(trace.steps, PdbTraceStep, i);

      if (s->offset + s->length > covered)
        covered = s->offset + s->length;
    }
  if (m->opt->debug_csv)
    {
      guint32 last_keylen = 0;
      guint n = 0;

      g_string_append(out, "PDBTOOL_HEADER=i:len:key;keylen:match_off;match_len:parser_type:parser_name\n");
      g_string_append_printf(out, "PDBTOOL_DEBUG=%u:0:0:0:0::\n", n++);
      for (guint i = 0; i < trace.steps->len; i++)
        {
          const PdbTraceStep *s = &g_array_index(trace.steps, PdbTraceStep, i);

          if (!s->is_parser)
            {
              last_keylen = s->literal_length;
              g_string_append_printf(out, "PDBTOOL_DEBUG=%u:%u:%u:0:0::\n", n++, s->length, s->literal_length);
              continue;
            }
          g_string_append_printf(out, "PDBTOOL_DEBUG=%u:%u:%u:%u:%u:%s:%s\n", n++, s->length, last_keylen,
                                 s->value_offset, s->value_length, s->parser_type,
                                 s->parser_name ? s->parser_name : "");
          g_string_append_printf(out, "PDBTOOL_DEBUG=%u:0:-1:0:0::\n", n++);
        }
    }
  else
    {
      g_string_append(out, "Pattern matching part:\n");
      colored(out, color, COLOR_LITERAL, "", 0);
      for (guint i = 0; i < trace.steps->len; i++)
        {
          const PdbTraceStep *s = &g_array_index(trace.steps, PdbTraceStep, i);

          if (!s->is_parser)
            {
              colored(out, color, COLOR_LITERAL, s->literal, s->literal_length);
              continue;
            }
          if (color)
            g_string_append(out, COLOR_PARSER);
          g_string_append_printf(out, "@%s:%s=", s->parser_type, s->parser_name ? s->parser_name : "");
          g_string_append_len(out, message + s->value_offset, s->value_length);
          g_string_append(out, "@" COLOR_RESET);
          colored(out, color, COLOR_PARTIAL, "", 0);
        }
      colored(out, color, COLOR_TRAILING, message + MIN(covered, length), length - MIN(covered, length));
      g_string_append(out, "\nMatching part:\n");
      colored(out, color, COLOR_LITERAL, "", 0);
      for (guint i = 0; i < trace.steps->len; i++)
        {
          const PdbTraceStep *s = &g_array_index(trace.steps, PdbTraceStep, i);

          colored(out, color, s->is_parser ? COLOR_PARSER : COLOR_LITERAL, message + s->offset, s->length);
          if (s->is_parser)
            colored(out, color, COLOR_PARTIAL, "", 0);
        }
      g_string_append(out, "\nValues:\n");
    }
  pdb_trace_clear(&trace);
  pdb_match_clear(&match);
}

/* ---- --explain: why a message did not match ---- */

static void
append_quoted(GString *out, const gchar *text, gsize len)
{
  g_string_append_c(out, '\'');
  for (gsize i = 0; i < len; i++)
    {
      guchar c = text[i];

      if (c == '\n')
        g_string_append(out, "\\n");
      else if (c == '\t')
        g_string_append(out, "\\t");
      else if (c < 32 || c == 127)
        g_string_append_printf(out, "\\x%02x", c);
      else
        g_string_append_c(out, c);
    }
  g_string_append_c(out, '\'');
}

void
pdb_match_print_explanation(Matcher *m, const gchar *program, gsize program_length,
                  const gchar *message, gsize length)
{
  GString *out = m->out;
  const PdbResult *r = &m->result;

  if (r->kind == PDB_RESULT_NONE || !r->ruleset || !r->ruleset->messages
      || !r->ruleset->rules || r->ruleset->rules->len == 0)
    {
      g_string_append(out, "EXPLAIN: no ruleset selects program ");
      append_quoted(out, program, program_length);
      g_string_append(out, " and the database has no catch-all ruleset (a <ruleset> without <pattern>)\n\n");
      return;
    }
  if (r->kind == PDB_RESULT_MATCH)
    {
      if (!r->message_match.complete)
        {
          g_string_append_printf(out, "EXPLAIN: rule '%s' matched only the first %u of %zu bytes; 3.38 accepts such prefix matches and ignores the rest: ",
                                 r->rule->id, r->message_match.matched_length, length);
          append_quoted(out, message + MIN(r->message_match.matched_length, length),
                        length - MIN(r->message_match.matched_length, length));
          g_string_append(out, "\n\n");
        }
      else
        g_string_append_printf(out, "EXPLAIN: rule '%s' matched the whole message\n\n", r->rule->id);
      return;
    }

  PdbMatch match;
  PdbTrace trace;
  const PdbRule *closest;
  guint32 at;

  pdb_match_init(&match);
  pdb_trace_init(&trace);
  pdb_radix_lookup_traced(r->ruleset->messages, message, length, &match, &trace);
  at = MIN(trace.furthest_offset, length);
  closest = trace.closest_value;
  g_string_append(out, "EXPLAIN: no rule matched; the best attempt stopped at column ");
  g_string_append_printf(out, "%u (byte offset %u)\n", at + 1, at);
  g_string_append(out, "  matched:  ");
  append_quoted(out, message, at);
  g_string_append(out, "\n  rest:     ");
  append_quoted(out, message + at, length - at);
  g_string_append_c(out, '\n');
  if (closest)
    {
      g_string_append_printf(out, "  closest rule: '%s'", closest->id);
      if (closest->location.file)
        g_string_append_printf(out, " (%s:%d)", closest->location.file, closest->location.line);
      g_string_append_c(out, '\n');
      for (guint i = 0; i < closest->n_patterns; i++)
        g_string_append_printf(out, "  pattern:  '%s'\n", closest->pattern_places[i].text);
    }
  if (trace.expected && trace.expected->len)
    {
      g_string_append(out, "  expected at that point: ");
      for (guint i = 0; i < trace.expected->len; i++)
        {
          if (i)
            g_string_append(out, " or ");
          g_string_append(out, g_ptr_array_index(trace.expected, i));
        }
      g_string_append_c(out, '\n');
    }
  g_string_append_c(out, '\n');
  pdb_trace_clear(&trace);
  pdb_match_clear(&match);
}

/*
 * pdb-writer.c: the patterndb XML that `patternize` prints.
 *
 * Invariant: everything written from the input (patterns, messages,
 * values, names) goes through pdb_mining_xml_escape(), so the output is
 * well-formed for any message the caller accepted (valid UTF-8 without
 * control characters other than tab).
 */
#include "mining/pdb-writer.h"

#include <string.h>

void
pdb_mining_xml_escape(GString *out, const gchar *text, gssize length)
{
  if (length < 0)
    length = strlen(text);
  for (gssize i = 0; i < length; i++)
    {
      switch (text[i])
        {
        case '&': g_string_append(out, "&amp;"); break;
        case '<': g_string_append(out, "&lt;"); break;
        case '>': g_string_append(out, "&gt;"); break;
        case '\'': g_string_append(out, "&apos;"); break;
        case '"': g_string_append(out, "&quot;"); break;
        default: g_string_append_c(out, text[i]); break;
        }
    }
}

gchar *
pdb_mining_stable_id(const gchar *a, const gchar *b)
{
  GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA1);
  g_checksum_update(sum, (const guchar *) a, strlen(a));
  g_checksum_update(sum, (const guchar *) "", 1);
  g_checksum_update(sum, (const guchar *) b, strlen(b));
  const gchar *hex = g_checksum_get_string(sum);
  gchar *id = g_strdup_printf("%.8s-%.4s-%.4s-%.4s-%.12s", hex, hex + 8, hex + 12, hex + 16, hex + 20);
  g_checksum_free(sum);
  return id;
}

void
pdb_mining_xml_begin(GString *out, const gchar *version, const gchar *pub_date)
{
  g_string_append_printf(out, "<?xml version='1.0' encoding='UTF-8'?>\n"
                              "<patterndb version='%s' pub_date='%s'>\n", version, pub_date);
}

void
pdb_mining_xml_begin_ruleset(GString *out, const gchar *name, const gchar *program)
{
  gchar *id = pdb_mining_stable_id("ruleset", program ? program : "");
  g_string_append(out, "  <ruleset name='");
  pdb_mining_xml_escape(out, name, -1);
  g_string_append_printf(out, "' id='%s'>\n", id);
  if (program)
    {
      GString *literal = g_string_new(NULL);
      pdb_mining_append_literal(literal, program, -1);
      g_string_append(out, "    <pattern>");
      pdb_mining_xml_escape(out, literal->str, literal->len);
      g_string_free(literal, TRUE);
      g_string_append(out, "</pattern>\n");
    }
  g_string_append(out, "    <rules>\n");
  g_free(id);
}

static gboolean
already_used(const gchar *const *messages, const GArray *chosen, const gchar *message)
{
  for (guint i = 0; i < chosen->len; i++)
    {
      guint k = g_array_index(chosen, guint, i);
      if (strcmp(messages[k], message) == 0)
        return TRUE;
    }
  return FALSE;
}

GArray *
pdb_mining_pick_examples(const PdbMiningPattern *pattern, const gchar *const *messages, guint samples)
{
  /* indexes into pattern->matching: distinct messages, input order */
  GArray *chosen = g_array_new(FALSE, FALSE, sizeof(guint));
  GArray *chosen_lines = g_array_new(FALSE, FALSE, sizeof(guint));
  for (guint i = 0; i < pattern->matching->len && chosen->len < samples; i++)
    {
      guint line = g_array_index(pattern->matching, guint, i);
      if (already_used(messages, chosen_lines, messages[line]))
        continue;
      g_array_append_val(chosen, i);
      g_array_append_val(chosen_lines, line);
    }
  g_array_free(chosen_lines, TRUE);
  return chosen;
}

void
pdb_mining_xml_rule(GString *out, const gchar *test_program, const PdbMiningPattern *pattern,
                    guint support, const gchar *const *messages, guint samples)
{
  gchar *id = pdb_mining_stable_id(test_program, pattern->text);
  g_string_append_printf(out, "      <rule provider='patternize' id='%s' class='system'>\n"
                              "        <!-- support: %u -->\n"
                              "        <patterns>\n"
                              "          <pattern>", id, support);
  pdb_mining_xml_escape(out, pattern->text, -1);
  g_string_append(out, "</pattern>\n        </patterns>\n");
  g_free(id);

  GArray *chosen = pdb_mining_pick_examples(pattern, messages, samples);

  if (chosen->len > 0)
    {
      guint n_fields = pattern->fields->len;
      g_string_append(out, "        <examples>\n");
      for (guint c = 0; c < chosen->len; c++)
        {
          guint i = g_array_index(chosen, guint, c);
          const gchar *msg = messages[g_array_index(pattern->matching, guint, i)];
          g_string_append(out, "          <example>\n            <test_message program='");
          pdb_mining_xml_escape(out, test_program, -1);
          g_string_append(out, "'>");
          pdb_mining_xml_escape(out, msg, -1);
          g_string_append(out, "</test_message>\n");

          gboolean any_named = FALSE;
          for (guint f = 0; f < n_fields; f++)
            {
              const PdbMiningField *field = g_ptr_array_index(pattern->fields, f);
              if (!field->name[0])
                continue;
              if (!any_named)
                g_string_append(out, "            <test_values>\n");
              any_named = TRUE;
              const PdbMiningValue *v = &g_array_index(pattern->values, PdbMiningValue, i * n_fields + f);
              g_string_append(out, "              <test_value name='");
              pdb_mining_xml_escape(out, field->name, -1);
              g_string_append(out, "'>");
              pdb_mining_xml_escape(out, msg + v->offset, v->length);
              g_string_append(out, "</test_value>\n");
            }
          if (any_named)
            g_string_append(out, "            </test_values>\n");
          g_string_append(out, "          </example>\n");
        }
      g_string_append(out, "        </examples>\n");
    }
  g_string_append(out, "      </rule>\n");
  g_array_free(chosen, TRUE);
}

void
pdb_mining_xml_end_ruleset(GString *out)
{
  g_string_append(out, "    </rules>\n  </ruleset>\n");
}

void
pdb_mining_xml_end(GString *out)
{
  g_string_append(out, "</patterndb>\n");
}

/*
 * tree-walk.c: walks a radix tree through its dump (see tree-walk.h).
 *
 * Each node's line of pdb_radix_dump() is "[depth]\t<indent><key> <value>".
 * The describe callback writes a marker that cannot occur in the dump's
 * own text (\x01 + index into a table of values + \x02), so values are
 * found without parsing keys; parser nodes are recognised by the '@' that
 * starts their key (a literal key always starts with a quote).
 */
#include "tool/tree-walk.h"

#include <stdlib.h>
#include <string.h>

static void
describe_marker(gpointer value, GString *out, gpointer user_data)
{
  GPtrArray *values = user_data;

  g_string_append_printf(out, "\001%u\002", values->len);
  g_ptr_array_add(values, value);
}

void
pdb_tool_walk_tree(const PdbRadix *radix, const PdbTreeVisitor *visitor, gpointer user_data)
{
  GString *dump = g_string_new(NULL);
  GPtrArray *values = g_ptr_array_new();
  const gchar *p, *end;

  pdb_radix_dump(radix, dump, describe_marker, values);
  p = dump->str;
  end = dump->str + dump->len;
  while (p < end)
    {
      const gchar *line_end = memchr(p, '\n', end - p);
      const gchar *q, *marker;

      if (!line_end)
        line_end = end;
      /* "[N]\t" then indentation */
      q = memchr(p, '\t', line_end - p);
      if (q && line_end - p > 0 && *p == '[')
        {
          q++;
          while (q < line_end && *q == ' ')
            q++;
          if (q < line_end && *q == '@' && visitor->parser)
            {
              const gchar *colon = memchr(q + 1, ':', line_end - q - 1);
              const gchar *at = colon ? memchr(colon + 1, '@', line_end - colon - 1) : NULL;

              if (colon && at)
                {
                  gchar *type = g_strndup(q + 1, colon - q - 1);
                  gchar *name = g_strndup(colon + 1, at - colon - 1);

                  /* the dump shows an unnamed parser as "None", as 3.38 does;
                   * (a capture really called None is listed as unnamed too) */
                  if (strcmp(name, "None") == 0)
                    name[0] = '\0';

                  visitor->parser(type, name, user_data);
                  g_free(type);
                  g_free(name);
                }
            }
          marker = memchr(q, '\001', line_end - q);
          if (marker && visitor->value)
            {
              guint idx = (guint) strtoul(marker + 1, NULL, 10);

              if (idx < values->len)
                visitor->value(g_ptr_array_index(values, idx), user_data);
            }
        }
      p = line_end + 1;
    }
  g_ptr_array_free(values, TRUE);
  g_string_free(dump, TRUE);
}

/*
 * list-repr.c: one element of a syslog-ng 3.38 list (see list-repr.h).
 */
#include "db/list-repr.h"

#include <string.h>

static void
append_escaped(GString *out, const gchar *value, gsize length, gchar quote)
{
  for (gsize i = 0; i < length; i++)
    {
      guchar c = (guchar) value[i];

      switch (c)
        {
        case '\b': g_string_append(out, "\\b"); break;
        case '\f': g_string_append(out, "\\f"); break;
        case '\n': g_string_append(out, "\\n"); break;
        case '\r': g_string_append(out, "\\r"); break;
        case '\t': g_string_append(out, "\\t"); break;
        case '\\': g_string_append(out, "\\\\"); break;
        default:
          if (c == (guchar) quote && quote == '"')
            g_string_append(out, "\\\"");
          else if (c < 0x20)
            g_string_append_printf(out, "\\x%02x", c);
          else
            g_string_append_c(out, (gchar) c);
        }
    }
}

void
pdb_list_append_element(GString *out, const gchar *value, gsize length)
{
  if (length == 0)
    {
      g_string_append(out, "\"\"");
      return;
    }
  gboolean apostrophe = memchr(value, '\'', length) != NULL;
  gboolean quote = memchr(value, '"', length) != NULL;

  if (!apostrophe && !quote)
    {
      /* 3.38 looks only up to the first NUL */
      gsize visible = strnlen(value, length);
      if (strcspn(value, "\b\f\n\r\t\\ ,") >= visible)
        {
          g_string_append_len(out, value, length);
          return;
        }
    }
  gchar with = (quote && !apostrophe) ? '\'' : '"';
  g_string_append_c(out, with);
  append_escaped(out, value, length, with);
  g_string_append_c(out, with);
}

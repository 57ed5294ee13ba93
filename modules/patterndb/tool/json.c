/*
 * json.c: a JSON string writer and a flat-object reader.
 *
 * Invariant of the reader: every access is checked against the end of the
 * buffer, nesting is bounded (PDB_JSON_MAX_DEPTH), and a malformed input
 * makes pdb_json_parse_object() return FALSE without calling back for
 * members after the error. Member names and values are decoded (escapes,
 * \uXXXX with surrogate pairs) into GStrings owned by the parser.
 */
#include "tool/json.h"

#include <string.h>

#define PDB_JSON_MAX_DEPTH 64

void
pdb_json_append_string(GString *out, const gchar *value, gssize length)
{
  static const gchar hex[] = "0123456789abcdef";
  const gchar *p = value;
  const gchar *end;

  if (length < 0)
    length = strlen(value);
  end = value + length;

  g_string_append_c(out, '"');
  while (p < end)
    {
      guchar c = (guchar) *p;

      if (c >= 0x80)
        {
          /* Valid UTF-8 is copied as it is; any other byte becomes U+FFFD. */
          gunichar uc = g_utf8_get_char_validated(p, end - p);
          if (uc != (gunichar) -1 && uc != (gunichar) -2)
            {
              const gchar *after = g_utf8_next_char(p);
              g_string_append_len(out, p, after - p);
              p = after;
              continue;
            }
          g_string_append(out, "\xef\xbf\xbd");
          p++;
          continue;
        }
      switch (c)
        {
        case '"': g_string_append(out, "\\\""); break;
        case '\\': g_string_append(out, "\\\\"); break;
        case '\n': g_string_append(out, "\\n"); break;
        case '\r': g_string_append(out, "\\r"); break;
        case '\t': g_string_append(out, "\\t"); break;
        default:
          if (c < 0x20)
            {
              g_string_append(out, "\\u00");
              g_string_append_c(out, hex[c >> 4]);
              g_string_append_c(out, hex[c & 15]);
            }
          else
            g_string_append_c(out, c);
        }
      p++;
    }
  g_string_append_c(out, '"');
}

gboolean
pdb_json_is_number(const gchar *s, gsize len, gboolean integer)
{
  gsize i = 0;

  if (i < len && s[i] == '-')
    i++;
  if (i >= len || !g_ascii_isdigit(s[i]))
    return FALSE;
  if (s[i] == '0' && i + 1 < len && g_ascii_isdigit(s[i + 1]))
    return FALSE;
  while (i < len && g_ascii_isdigit(s[i]))
    i++;
  if (integer)
    return i == len;
  if (i < len && s[i] == '.')
    {
      i++;
      if (i >= len || !g_ascii_isdigit(s[i]))
        return FALSE;
      while (i < len && g_ascii_isdigit(s[i]))
        i++;
    }
  if (i < len && (s[i] == 'e' || s[i] == 'E'))
    {
      i++;
      if (i < len && (s[i] == '+' || s[i] == '-'))
        i++;
      if (i >= len || !g_ascii_isdigit(s[i]))
        return FALSE;
      while (i < len && g_ascii_isdigit(s[i]))
        i++;
    }
  return i == len;
}

typedef struct
{
  const gchar *p;
  const gchar *end;
} JsonCursor;

static void
skip_blanks(JsonCursor *c)
{
  while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
    c->p++;
}

static gint
hex_value(gchar ch)
{
  if (ch >= '0' && ch <= '9')
    return ch - '0';
  if (ch >= 'a' && ch <= 'f')
    return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F')
    return ch - 'A' + 10;
  return -1;
}

static gboolean
read_hex4(JsonCursor *c, guint *out)
{
  guint v = 0;

  if (c->end - c->p < 4)
    return FALSE;
  for (gint i = 0; i < 4; i++)
    {
      gint h = hex_value(c->p[i]);
      if (h < 0)
        return FALSE;
      v = (v << 4) | h;
    }
  c->p += 4;
  *out = v;
  return TRUE;
}

/* Reads a string literal at the cursor; decodes it into @out if not NULL. */
static gboolean
read_string(JsonCursor *c, GString *out)
{
  if (c->p >= c->end || *c->p != '"')
    return FALSE;
  c->p++;
  if (out)
    g_string_truncate(out, 0);
  while (c->p < c->end)
    {
      gchar ch = *c->p++;

      if (ch == '"')
        return TRUE;
      if ((guchar) ch < 0x20)
        return FALSE;
      if (ch != '\\')
        {
          if (out)
            g_string_append_c(out, ch);
          continue;
        }
      if (c->p >= c->end)
        return FALSE;
      ch = *c->p++;
      gchar simple = 0;
      switch (ch)
        {
        case '"': simple = '"'; break;
        case '\\': simple = '\\'; break;
        case '/': simple = '/'; break;
        case 'b': simple = '\b'; break;
        case 'f': simple = '\f'; break;
        case 'n': simple = '\n'; break;
        case 'r': simple = '\r'; break;
        case 't': simple = '\t'; break;
        case 'u':
          {
            guint cp;
            if (!read_hex4(c, &cp))
              return FALSE;
            if (cp >= 0xd800 && cp < 0xdc00 && c->end - c->p >= 6 && c->p[0] == '\\' && c->p[1] == 'u')
              {
                JsonCursor look = { c->p + 2, c->end };
                guint low;
                if (read_hex4(&look, &low) && low >= 0xdc00 && low < 0xe000)
                  {
                    cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
                    c->p = look.p;
                  }
              }
            if (cp >= 0xd800 && cp < 0xe000)
              cp = 0xfffd;   /* a lone surrogate cannot be written as UTF-8 */
            if (out)
              g_string_append_unichar(out, cp);
            continue;
          }
        default:
          return FALSE;
        }
      if (out)
        g_string_append_c(out, simple);
    }
  return FALSE;
}

static gboolean skip_value(JsonCursor *c, gint depth);

static gboolean
skip_container(JsonCursor *c, gint depth, gchar close, gboolean has_keys)
{
  c->p++;
  skip_blanks(c);
  if (c->p < c->end && *c->p == close)
    {
      c->p++;
      return TRUE;
    }
  while (c->p < c->end)
    {
      if (has_keys)
        {
          if (!read_string(c, NULL))
            return FALSE;
          skip_blanks(c);
          if (c->p >= c->end || *c->p != ':')
            return FALSE;
          c->p++;
        }
      if (!skip_value(c, depth + 1))
        return FALSE;
      skip_blanks(c);
      if (c->p >= c->end)
        return FALSE;
      if (*c->p == close)
        {
          c->p++;
          return TRUE;
        }
      if (*c->p != ',')
        return FALSE;
      c->p++;
      skip_blanks(c);
    }
  return FALSE;
}

static gboolean
skip_literal(JsonCursor *c, const gchar *word)
{
  gsize n = strlen(word);

  if ((gsize) (c->end - c->p) < n || memcmp(c->p, word, n) != 0)
    return FALSE;
  c->p += n;
  return TRUE;
}

static gboolean
skip_number(JsonCursor *c)
{
  const gchar *start = c->p;

  while (c->p < c->end && strchr("+-0123456789.eE", *c->p) && *c->p)
    c->p++;
  return c->p > start;
}

static gboolean
skip_value(JsonCursor *c, gint depth)
{
  if (depth > PDB_JSON_MAX_DEPTH)
    return FALSE;
  skip_blanks(c);
  if (c->p >= c->end)
    return FALSE;
  switch (*c->p)
    {
    case '{': return skip_container(c, depth, '}', TRUE);
    case '[': return skip_container(c, depth, ']', FALSE);
    case '"': return read_string(c, NULL);
    case 't': return skip_literal(c, "true");
    case 'f': return skip_literal(c, "false");
    case 'n': return skip_literal(c, "null");
    default: return skip_number(c);
    }
}

gboolean
pdb_json_parse_object(const gchar *text, gsize length, PdbJsonMemberFunc member, gpointer user_data)
{
  JsonCursor c = { text, text + length };
  GString *name = g_string_sized_new(32);
  GString *value = g_string_sized_new(256);
  gboolean ok = FALSE;

  skip_blanks(&c);
  if (c.p >= c.end || *c.p != '{')
    goto out;
  c.p++;
  skip_blanks(&c);
  if (c.p < c.end && *c.p == '}')
    {
      c.p++;
      goto trailing;
    }
  while (c.p < c.end)
    {
      if (!read_string(&c, name))
        goto out;
      skip_blanks(&c);
      if (c.p >= c.end || *c.p != ':')
        goto out;
      c.p++;
      skip_blanks(&c);
      if (c.p < c.end && *c.p == '"')
        {
          if (!read_string(&c, value))
            goto out;
          member(name->str, value->str, value->len, user_data);
        }
      else if (!skip_value(&c, 1))
        goto out;
      skip_blanks(&c);
      if (c.p >= c.end)
        goto out;
      if (*c.p == '}')
        {
          c.p++;
          goto trailing;
        }
      if (*c.p != ',')
        goto out;
      c.p++;
      skip_blanks(&c);
    }
  goto out;

trailing:
  skip_blanks(&c);
  ok = (c.p == c.end);
out:
  g_string_free(name, TRUE);
  g_string_free(value, TRUE);
  return ok;
}

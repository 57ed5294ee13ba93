/*
 * pattern-values.c: the value classes behind a field's parser, and the
 * field names taken from the text before a field.
 *
 * Invariant: the functions look only at the bytes they are given and
 * keep no state.
 */
#include "mining/pattern.h"
#include "mining/pattern-values.h"

#include <arpa/inet.h>
#include <string.h>

/* ---- value classes ------------------------------------------------------ */

gboolean
pdb_mining_value_is_number(const gchar *v, gsize len)
{
  gsize i = (len > 0 && v[0] == '-') ? 1 : 0;
  if (i >= len || len - i > 18)
    return FALSE;
  for (; i < len; i++)
    if (!g_ascii_isdigit(v[i]))
      return FALSE;
  return TRUE;
}

static gboolean
value_is_ip(const gchar *v, gsize len, int family)
{
  gchar buf[64];
  guchar addr[16];
  if (len == 0 || len >= sizeof(buf))
    return FALSE;
  memcpy(buf, v, len);
  buf[len] = '\0';
  return inet_pton(family, buf, addr) == 1;
}

gboolean
pdb_mining_value_is_ipv4(const gchar *v, gsize len)
{
  return value_is_ip(v, len, AF_INET);
}

gboolean
pdb_mining_value_is_ipv6(const gchar *v, gsize len)
{
  return memchr(v, ':', len) && !memchr(v, '.', len) && value_is_ip(v, len, AF_INET6);
}

gboolean
pdb_mining_value_is_hostname(const gchar *v, gsize len)
{
  gboolean dot = FALSE, alpha = FALSE;
  gsize label = 0;
  for (gsize i = 0; i < len; i++)
    {
      if (v[i] == '.')
        {
          if (label == 0)
            return FALSE;
          dot = TRUE;
          label = 0;
        }
      else if (g_ascii_isalnum(v[i]) || v[i] == '-')
        {
          alpha |= g_ascii_isalpha(v[i]);
          label++;
        }
      else
        return FALSE;
    }
  return dot && label > 0 && (alpha || pdb_mining_value_is_ipv4(v, len));
}

gboolean
pdb_mining_value_is_alnum(const gchar *v, gsize len)
{
  if (len == 0)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isalnum(v[i]))
      return FALSE;
  return TRUE;
}

/* ---- naming ------------------------------------------------------------- */

static const gchar *const noun_words[] =
{
  "port", "pid", "uid", "gid", "user", "host", "session", "interface", "node", "block",
  "version", "id", "device", "file", "path", "size", "code", "status", "job", "task",
  "process", "thread", "address", "ip", "domain", "service", "client", "server", "queue",
  "group", "account", "uri", "url", "method", "state", "request", "channel", "pool", NULL
};

static gboolean
is_name_char(gchar c)
{
  return g_ascii_isalnum(c) || c == '_' || c == '-' || c == '.';
}

gchar *
pdb_mining_context_name(const gchar *before, const gchar *parser)
{
  if (!before)
    return NULL;
  gsize len = strlen(before);
  gboolean is_ip = strcmp(parser, "IPv4") == 0 || strcmp(parser, "IPv6") == 0;
  gboolean is_number = strcmp(parser, "NUMBER") == 0;

  if (len > 1 && before[len - 1] == '=')
    {
      gsize end = len - 1, start = end;
      while (start > 0 && is_name_char(before[start - 1]))
        start--;
      if (start == end || before[start] == '.' || before[start] == '-')
        return NULL;
      return g_strndup(before + start, end - start);
    }

  gsize end = len;
  while (end > 0 && (before[end - 1] == ' ' || before[end - 1] == ':' || before[end - 1] == '\t'))
    end--;
  if (end == len)      /* the word must be separated from the field */
    return NULL;
  gsize start = end;
  while (start > 0 && g_ascii_isalpha(before[start - 1]))
    start--;
  if (start == end || (start > 0 && is_name_char(before[start - 1])))
    return NULL;

  gchar *word = g_ascii_strdown(before + start, end - start);
  gchar *name = NULL;
  if (strcmp(word, "user") == 0 || strcmp(word, "username") == 0 || strcmp(word, "login") == 0)
    name = g_strdup("user");
  else if (strcmp(word, "for") == 0)
    name = (is_ip || is_number || strcmp(parser, "HOSTNAME") == 0) ? NULL : g_strdup("user");
  else if (strcmp(word, "from") == 0)
    name = g_strdup(is_ip ? "src_ip" : "src_host");
  else if (strcmp(word, "to") == 0)
    name = is_ip ? g_strdup("dst_ip") : NULL;
  else
    {
      for (guint i = 0; noun_words[i]; i++)
        if (strcmp(word, noun_words[i]) == 0)
          {
            name = g_strdup(word);
            break;
          }
    }
  g_free(word);
  return name;
}


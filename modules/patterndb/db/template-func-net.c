/*
 * template-func-net.c: the address functions of the 3.38 basic set, with the
 * results pdbtool 3.38 gives:
 *
 *   $(ipv4-to-int A...)       each address (inet_aton syntax: 1.2.3 is
 *                             1.2.0.3, 010 is octal) as a number, joined by
 *                             commas; an invalid one repeats the previous
 *                             argument's number, or is empty when no
 *                             argument before it was valid (3.38 prints
 *                             what its buffer held)
 *   $(dns-resolve-ip [opts] IP)  the address (inet_aton or IPv6 syntax)
 *                             written back in its canonical form, or with
 *                             --use-dns yes (the default) the host name its
 *                             reverse lookup gives (the address when there is
 *                             none); an invalid address gives nothing.
 *                             Options (-d) --use-dns yes|no|persist_only,
 *                             (-f) --use-fqdn yes|no (no: the name up to its
 *                             first dot), (-n) --normalize-hostnames yes|no
 *                             (lower case), (-c) --dns-cache yes|no (no
 *                             effect here). 3.38's pdbtool crashes when it
 *                             looks a name up with its DNS cache on (the
 *                             default); here the lookup is made.
 *                             Exactly one argument; more is a compile error.
 */
#include "db/template-func-private.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <string.h>
#include <sys/socket.h>

static void
eval_ipv4_to_int(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  GPtrArray *v = pdb_tf_expand_args(call, env);
  gboolean have = FALSE;
  struct in_addr addr;

  for (guint i = 0; i < v->len; i++)
    {
      if (i > 0)
        g_string_append_c(out, ',');
      /* 3.38 keeps the address of the call's previous argument when one is
       * invalid (and prints leftover memory when the first is) */
      if (inet_aton(((GString *) g_ptr_array_index(v, i))->str, &addr))
        have = TRUE;
      if (have)
        g_string_append_printf(out, "%" G_GUINT32_FORMAT, (guint32) ntohl(addr.s_addr));
    }
  pdb_tf_free_values(v);
}

/* The flags of $(dns-resolve-ip), kept in call->mode. */
enum
{
  DNS_USE_DNS = 1,
  DNS_USE_FQDN = 2,
  DNS_NORMALIZE = 4,
};

static gboolean
is_yes(const gchar *value, gboolean otherwise)
{
  if (!value)
    return otherwise;
  return g_ascii_strcasecmp(value, "yes") == 0 || g_ascii_strcasecmp(value, "on") == 0
         || strcmp(value, "1") == 0;
}

static gboolean
prepare_dns_resolve_ip(PdbTemplateCall *call, const gchar *name, const gchar *const *words, GError **error)
{
  gchar *use_dns = NULL, *use_fqdn = NULL, *normalize = NULL, *cache = NULL;
  GOptionEntry entries[] =
  {
    { "use-dns", 'd', 0, G_OPTION_ARG_STRING, &use_dns, NULL, NULL },
    { "use-fqdn", 'f', 0, G_OPTION_ARG_STRING, &use_fqdn, NULL, NULL },
    { "normalize-hostnames", 'n', 0, G_OPTION_ARG_STRING, &normalize, NULL, NULL },
    { "dns-cache", 'c', 0, G_OPTION_ARG_STRING, &cache, NULL, NULL },
    { NULL }
  };
  gchar **rest = pdb_tf_parse_options(name, words, entries, error);
  gboolean ok = FALSE;

  if (!rest)
    goto done;
  if (rest[0] && rest[1])
    {
      pdb_tf_set_error(error, "dns-resolve-ip: too many arguments provided. usage: $(dns-resolve-ip [OPTIONS] IP)");
      goto done;
    }
  call->mode = (is_yes(use_dns, TRUE) ? DNS_USE_DNS : 0) | (is_yes(use_fqdn, FALSE) ? DNS_USE_FQDN : 0)
               | (is_yes(normalize, FALSE) ? DNS_NORMALIZE : 0);
  ok = pdb_tf_compile_words(call, name, (const gchar *const *) rest, -1, error);
done:
  g_strfreev(rest);
  g_free(use_dns);
  g_free(use_fqdn);
  g_free(normalize);
  g_free(cache);
  return ok;
}

/* Parses @text as 3.38 does (inet_aton, then IPv6) into @sa. */
static gboolean
parse_address(const gchar *text, struct sockaddr_storage *sa, socklen_t *length)
{
  memset(sa, 0, sizeof(*sa));
  struct sockaddr_in *in4 = (struct sockaddr_in *) sa;
  if (inet_aton(text, &in4->sin_addr))
    {
      in4->sin_family = AF_INET;
      *length = sizeof(*in4);
      return TRUE;
    }
  struct sockaddr_in6 *in6 = (struct sockaddr_in6 *) sa;
  if (inet_pton(AF_INET6, text, &in6->sin6_addr) == 1)
    {
      in6->sin6_family = AF_INET6;
      *length = sizeof(*in6);
      return TRUE;
    }
  return FALSE;
}

static void
append_host_name(GString *out, const gchar *host, gint mode)
{
  gsize start = out->len;
  const gchar *dot = (mode & DNS_USE_FQDN) ? NULL : strchr(host, '.');

  g_string_append_len(out, host, dot ? (gssize) (dot - host) : -1);
  if (mode & DNS_NORMALIZE)
    for (gsize i = start; i < out->len; i++)
      out->str[i] = g_ascii_tolower(out->str[i]);
}

static void
eval_dns_resolve_ip(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  /* 3.38 crashes without an argument; here it is empty */
  if (call->args->len != 1)
    return;

  GString *text = g_string_new(NULL);
  struct sockaddr_storage sa;
  socklen_t length;
  gchar host[NI_MAXHOST];

  pdb_tf_append_arg(call, 0, env, text);
  if (parse_address(text->str, &sa, &length))
    {
      if ((call->mode & DNS_USE_DNS)
          && getnameinfo((struct sockaddr *) &sa, length, host, sizeof(host), NULL, 0, NI_NAMEREQD) == 0)
        append_host_name(out, host, call->mode);
      else if (getnameinfo((struct sockaddr *) &sa, length, host, sizeof(host), NULL, 0, NI_NUMERICHOST) == 0)
        g_string_append(out, host);
    }
  g_string_free(text, TRUE);
}

const PdbTfDef pdb_tf_net_functions[] =
{
  { "ipv4-to-int", NULL, eval_ipv4_to_int, FALSE },
  { "dns-resolve-ip", prepare_dns_resolve_ip, eval_dns_resolve_ip, FALSE },
  { NULL, NULL, NULL, FALSE },
};

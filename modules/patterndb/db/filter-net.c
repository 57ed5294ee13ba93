/*
 * filter-net.c: netmask(ADDR[/BITS|/MASK]) and netmask6(ADDR[/BITS]) on
 * the sender's address (the subject's SOURCEIP; a message without one, as
 * every message of `match`, comes from 127.0.0.1 or ::1, as in 3.38).
 *
 * 3.38's readings of odd arguments, kept: netmask() takes what inet_aton()
 * takes ("10.1" is 10.0.0.1), an address it cannot read is 0.0.0.0, /0
 * matches everything, and a prefix outside 0..32 gives the mask that 3.38's
 * 32-bit shifts give on x86 (shift counts taken modulo 32). netmask6() with
 * an address inet_pton() cannot read, or a prefix outside 1..128, never
 * matches; an IPv4 sender never matches netmask6(), nor an IPv6 one netmask().
 *
 * Invariant: a node holds its network address already masked.
 */
#include "db/filter-node.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

typedef struct
{
  guint32 address;   /* network byte order, masked */
  guint32 mask;      /* network byte order */
} Netmask4;

typedef struct
{
  gboolean valid;
  guint8 network[16];
  gint prefix;       /* 1..128 */
} Netmask6;

static void
mask6(const guint8 *address, gint prefix, guint8 *out)
{
  for (gint i = 0; i < 16; i++)
    {
      gint bits = CLAMP(prefix - 8 * i, 0, 8);

      out[i] = address[i] & (guint8) (0xff00u >> bits);
    }
}

/* The sender as IPv4 (*is_v6 FALSE) or IPv6 bytes; FALSE when unreadable. */
static gboolean
source_address(const PdbFilterSubject *subject, guint8 *bytes, gboolean *is_v6)
{
  gssize length;
  const gchar *v = pdb_filter_subject_get(subject, "SOURCEIP", &length);
  gchar *text;
  gboolean ok;

  if (!length)
    return FALSE;
  text = g_strndup(v, length);
  *is_v6 = FALSE;
  ok = inet_pton(AF_INET, text, bytes) == 1;
  if (!ok)
    {
      *is_v6 = TRUE;
      ok = inet_pton(AF_INET6, text, bytes) == 1;
    }
  g_free(text);
  return ok;
}

static gboolean
netmask4_eval(gconstpointer data, const PdbFilterSubject *subject)
{
  const Netmask4 *self = data;
  guint8 bytes[16];
  gboolean is_v6;
  guint32 addr;

  if (!source_address(subject, bytes, &is_v6))
    addr = htonl(INADDR_LOOPBACK);
  else if (is_v6)
    return FALSE;
  else
    memcpy(&addr, bytes, 4);
  return (addr & self->mask) == self->address;
}

static gboolean
netmask6_eval(gconstpointer data, const PdbFilterSubject *subject)
{
  const Netmask6 *self = data;
  guint8 bytes[16], network[16];
  gboolean is_v6;

  if (!self->valid)
    return FALSE;
  if (!source_address(subject, bytes, &is_v6))
    memcpy(bytes, &in6addr_loopback, 16);
  else if (!is_v6)
    return FALSE;
  mask6(bytes, self->prefix, network);
  return memcmp(network, self->network, 16) == 0;
}

static const PdbFilterFuncOps netmask4_ops = { netmask4_eval, g_free, NULL, NULL };
static const PdbFilterFuncOps netmask6_ops = { netmask6_eval, g_free, NULL, NULL };

static Netmask4 *
netmask4_new(const gchar *cidr)
{
  Netmask4 *self = g_new0(Netmask4, 1);
  const gchar *slash = strchr(cidr, '/');
  struct in_addr a = { 0 }, m = { 0 };

  if (strlen(cidr) >= 32 || !slash)
    {
      inet_aton(cidr, &a);
      m.s_addr = 0xffffffffu;
    }
  else
    {
      gchar *host = g_strndup(cidr, slash - cidr);

      inet_aton(host, &a);
      g_free(host);
      if (strchr(slash + 1, '.'))
        inet_aton(slash + 1, &m);
      else
        {
          glong prefix = strtol(slash + 1, NULL, 10);
          guint32 bits = (guint32) prefix;   /* 3.38 keeps it in an int: the low 32 bits */
          guint32 ones = (1u << (bits & 31)) - 1;

          m.s_addr = bits == 32 ? 0xffffffffu : htonl(ones << ((32u - bits) & 31));
        }
    }
  self->mask = m.s_addr;
  self->address = a.s_addr & m.s_addr;
  return self;
}

static Netmask6 *
netmask6_new(const gchar *cidr)
{
  Netmask6 *self = g_new0(Netmask6, 1);
  const gchar *slash = strchr(cidr, '/');
  gchar *host = NULL;
  guint8 bytes[16];

  if (strlen(cidr) >= INET6_ADDRSTRLEN + 5 || !slash)
    {
      host = g_strdup(cidr);
      self->prefix = 128;
    }
  else
    {
      gint32 prefix = (gint32) (guint32) strtol(slash + 1, NULL, 10);   /* 3.38: an int */

      self->prefix = prefix > 0 && prefix < 129 ? prefix : 0;
      if (self->prefix)
        host = g_strndup(cidr, slash - cidr);
    }
  self->valid = host && host[0] && strlen(host) < INET6_ADDRSTRLEN && inet_pton(AF_INET6, host, bytes) == 1;
  if (self->valid)
    mask6(bytes, self->prefix, self->network);
  g_free(host);
  return self;
}

static PdbFilterNode *
parse_netmask(PdbFilterParser *p, gboolean v6)
{
  gchar *cidr;
  PdbFilterNode *node;

  pdb_filter_advance(p);
  if (!pdb_filter_expect(p, PDB_FILTER_TOK_LPAREN, v6 ? "'(' after netmask6" : "'(' after netmask"))
    return NULL;
  cidr = pdb_filter_parse_string(p);
  if (!cidr)
    return NULL;
  if (!pdb_filter_expect(p, PDB_FILTER_TOK_RPAREN, "')' after the address"))
    {
      g_free(cidr);
      return NULL;
    }
  node = v6 ? pdb_filter_node_new_func(&netmask6_ops, netmask6_new(cidr))
         : pdb_filter_node_new_func(&netmask4_ops, netmask4_new(cidr));
  g_free(cidr);
  return node;
}

PdbFilterNode *
pdb_filter_parse_netmask(PdbFilterParser *p)
{
  return parse_netmask(p, FALSE);
}

PdbFilterNode *
pdb_filter_parse_netmask6(PdbFilterParser *p)
{
  return parse_netmask(p, TRUE);
}

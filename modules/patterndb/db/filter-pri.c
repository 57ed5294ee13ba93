/*
 * filter-pri.c: level()/priority()/severity() and facility() on the
 * message's PRI (the subject's "PRI"; 13, user.notice, when unset).
 *
 * Names are 3.38's (case-insensitive); a range `a..b` covers both ends and
 * everything between, in either order. facility(N) with one number tests
 * the facility code (PRI / 8) for equality, so it also reaches codes no
 * name has.
 *
 * Invariant: a node holds a bit set of the levels or facilities it accepts
 * (bit n: code n), or one facility code.
 */
#include "db/filter-node.h"

#include <stdlib.h>
#include <string.h>

typedef struct
{
  const gchar *name;
  gint code;
} Name;

static const Name levels[] =
{
  { "emerg", 0 }, { "panic", 0 }, { "alert", 1 }, { "crit", 2 }, { "err", 3 }, { "error", 3 },
  { "warning", 4 }, { "warn", 4 }, { "notice", 5 }, { "info", 6 }, { "debug", 7 },
};

static const Name facilities[] =
{
  { "kern", 0 }, { "user", 1 }, { "mail", 2 }, { "daemon", 3 }, { "auth", 4 }, { "syslog", 5 },
  { "lpr", 6 }, { "news", 7 }, { "uucp", 8 }, { "cron", 9 }, { "authpriv", 10 }, { "ftp", 11 },
  { "ntp", 12 }, { "security", 13 }, { "console", 14 }, { "solaris-cron", 15 },
  { "local0", 16 }, { "local1", 17 }, { "local2", 18 }, { "local3", 19 },
  { "local4", 20 }, { "local5", 21 }, { "local6", 22 }, { "local7", 23 },
};

typedef struct
{
  gboolean is_facility;
  gboolean exact;         /* facility(N): code == N */
  guint32 bits;           /* else: the accepted codes */
  gint64 code;
} PriFilter;

static gint
message_pri(const PdbFilterSubject *subject)
{
  gssize length;
  const gchar *v = pdb_filter_subject_get(subject, "PRI", &length);

  return length ? atoi(v) : 13;
}

static gboolean
pri_eval(gconstpointer data, const PdbFilterSubject *subject)
{
  const PriFilter *self = data;
  gint pri = message_pri(subject);
  gint code = self->is_facility ? (pri & 0x3f8) >> 3 : pri & 7;

  if (self->exact)
    return code == self->code;
  return code < 32 && (self->bits & (1u << code)) != 0;
}

static const PdbFilterFuncOps pri_ops = { pri_eval, g_free, NULL, NULL };

static gboolean
lookup_name(PdbFilterParser *p, const Name *names, gsize count, const gchar *what, gint *code)
{
  gsize at = p->lx.tok.start;
  gchar *name = pdb_filter_parse_string(p);

  if (!name)
    return FALSE;
  for (gsize i = 0; i < count; i++)
    if (g_ascii_strcasecmp(names[i].name, name) == 0)
      {
        *code = names[i].code;
        g_free(name);
        return TRUE;
      }
  pdb_filter_fail(p, at, "unknown %s '%s'", what, name);
  g_free(name);
  return FALSE;
}

/* NAME or NAME..NAME, repeated up to ')' (at least one). */
static gboolean
parse_name_list(PdbFilterParser *p, const Name *names, gsize count, const gchar *what, guint32 *bits)
{
  do
    {
      gint a, b;

      if (!lookup_name(p, names, count, what, &a))
        return FALSE;
      b = a;
      if (p->lx.tok.kind == PDB_FILTER_TOK_DOTDOT)
        {
          pdb_filter_advance(p);
          if (!lookup_name(p, names, count, what, &b))
            return FALSE;
        }
      for (gint c = MIN(a, b); c <= MAX(a, b); c++)
        *bits |= 1u << c;
    }
  while (p->lx.tok.kind != PDB_FILTER_TOK_RPAREN);
  pdb_filter_advance(p);
  return TRUE;
}

static PdbFilterNode *
parse_pri(PdbFilterParser *p, gboolean is_facility)
{
  PriFilter *self = g_new0(PriFilter, 1);
  const gchar *what = is_facility ? "facility" : "level";
  gboolean ok;

  self->is_facility = is_facility;
  pdb_filter_advance(p);
  ok = pdb_filter_expect(p, PDB_FILTER_TOK_LPAREN, is_facility ? "'(' after facility" : "'(' after level");
  if (ok && is_facility && p->lx.tok.kind == PDB_FILTER_TOK_NUMBER)
    {
      self->exact = TRUE;
      self->code = (guint32) p->lx.tok.number & 0x7fffffff;
      pdb_filter_advance(p);
      ok = pdb_filter_expect(p, PDB_FILTER_TOK_RPAREN, "')' after the facility code");
    }
  else if (ok)
    ok = is_facility ? parse_name_list(p, facilities, G_N_ELEMENTS(facilities), what, &self->bits)
         : parse_name_list(p, levels, G_N_ELEMENTS(levels), what, &self->bits);
  if (!ok)
    {
      g_free(self);
      return NULL;
    }
  return pdb_filter_node_new_func(&pri_ops, self);
}

PdbFilterNode *
pdb_filter_parse_level(PdbFilterParser *p)
{
  return parse_pri(p, FALSE);
}

PdbFilterNode *
pdb_filter_parse_facility(PdbFilterParser *p)
{
  return parse_pri(p, TRUE);
}

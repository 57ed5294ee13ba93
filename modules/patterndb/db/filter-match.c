/*
 * filter-match.c: match(), program(), host(), message() and source(): a
 * pattern tested against one value, a template, or "$MSGHDR$MESSAGE".
 *
 * Matchers, as 3.38's (type()):
 *   pcre (the default but for source(), whose default is string; posix is
 *       read as pcre, as 3.38 does since 3.14)
 *       the regex anywhere in the value; ignore-case/icase, utf8/unicode
 *   string
 *       the whole value; flags(prefix): its start; flags(substring): any
 *       part; ignore-case compares ASCII letters without case
 *   glob
 *       the whole value, `*` and `?`; flags are ignored
 * flags(store-matches): a pcre match hands $0..$N (at most 256 groups) to
 * the subject's store_matches (3.38 writes them into the message; string
 * and glob matchers store nothing). Other flags 3.38 accepts (global,
 * newline, disable-jit, dupnames) change nothing a condition can see.
 *
 * Invariant: a node owns its compiled regex or glob; evaluation allocates
 * its own match data, so threads may share the node.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "db/filter-node.h"

#include <pcre2.h>
#include <string.h>

typedef enum
{
  MATCHER_PCRE,
  MATCHER_STRING,
  MATCHER_GLOB,
} MatcherType;

enum
{
  FLAG_ICASE = 1 << 0,
  FLAG_UTF8 = 1 << 1,
  FLAG_PREFIX = 1 << 2,
  FLAG_SUBSTRING = 1 << 3,
  FLAG_STORE = 1 << 4,
};

#define MAX_STORED_MATCHES 256

typedef struct
{
  gchar *value_name;      /* the value tested; NULL: tmpl, or $MSGHDR$MESSAGE */
  PdbTemplate *tmpl;      /* template(): the text tested */
  gchar *pattern;
  MatcherType type;
  guint flags;
  pcre2_code *code;
  GPatternSpec *glob;
  GPtrArray *refs;        /* value names ("n" + name) and templates ("t" + text), as written */
} Matcher;

static void
matcher_free(gpointer data)
{
  Matcher *self = data;

  g_free(self->value_name);
  pdb_template_free(self->tmpl);
  g_free(self->pattern);
  if (self->code)
    pcre2_code_free(self->code);
  if (self->glob)
    g_pattern_spec_free(self->glob);
  g_ptr_array_free(self->refs, TRUE);
  g_free(self);
}

static gboolean
string_matches(const Matcher *self, const gchar *value, gsize length)
{
  gsize n = strlen(self->pattern);
  gboolean icase = (self->flags & FLAG_ICASE) != 0;

  if (self->flags & FLAG_PREFIX)
    return length >= n && (icase ? g_ascii_strncasecmp(value, self->pattern, n) : strncmp(value, self->pattern, n)) == 0;
  if (self->flags & FLAG_SUBSTRING)
    {
      for (gsize i = 0; i + n <= length; i++)
        if ((icase ? g_ascii_strncasecmp(value + i, self->pattern, n) : memcmp(value + i, self->pattern, n)) == 0)
          return TRUE;
      return FALSE;
    }
  return length == n && (icase ? g_ascii_strncasecmp(value, self->pattern, n) : memcmp(value, self->pattern, n)) == 0;
}

/* flags(store-matches): $0..$N of a successful match to the subject */
static void
store_groups(const Matcher *self, const PdbFilterSubject *subject, pcre2_match_data *md, gint rc,
             const gchar *value)
{
  const gchar *values[MAX_STORED_MATCHES];
  gsize lengths[MAX_STORED_MATCHES];
  const gchar *names[MAX_STORED_MATCHES];
  guint name_groups[MAX_STORED_MATCHES];
  PCRE2_SIZE *ovector = pcre2_get_ovector_pointer(md);
  PdbFilterGroups groups = { MIN((guint) rc, MAX_STORED_MATCHES), values, lengths, 0, names, name_groups };
  guint32 name_count = 0, entry_size = 0;
  PCRE2_SPTR table = NULL;

  for (guint i = 0; i < groups.count; i++)
    {
      values[i] = ovector[2 * i] == PCRE2_UNSET ? NULL : value + ovector[2 * i];
      lengths[i] = values[i] ? ovector[2 * i + 1] - ovector[2 * i] : 0;
    }
  /* the name table is sorted by name (3.38 stores names in that order); an
   * entry is a 2-byte group number, then the NUL-terminated name */
  pcre2_pattern_info(self->code, PCRE2_INFO_NAMECOUNT, &name_count);
  pcre2_pattern_info(self->code, PCRE2_INFO_NAMEENTRYSIZE, &entry_size);
  pcre2_pattern_info(self->code, PCRE2_INFO_NAMETABLE, &table);
  for (guint32 n = 0; table && n < name_count; n++)
    {
      PCRE2_SPTR entry = table + n * entry_size;
      guint group = (entry[0] << 8) | entry[1];

      if (group < groups.count && values[group] && groups.name_count < MAX_STORED_MATCHES)
        {
          names[groups.name_count] = (const gchar *) entry + 2;
          name_groups[groups.name_count++] = group;
        }
    }
  subject->store_matches(&groups, subject->user_data);
}

static gboolean
matches(const Matcher *self, const gchar *value, gsize length, const PdbFilterSubject *subject)
{
  switch (self->type)
    {
    case MATCHER_PCRE:
      {
        pcre2_match_data *md = pcre2_match_data_create_from_pattern(self->code, NULL);
        gint rc = pcre2_match(self->code, (PCRE2_SPTR) value, length, 0, 0, md, NULL);

        if (rc > 0 && (self->flags & FLAG_STORE) && subject->store_matches)
          store_groups(self, subject, md, rc, value);
        pcre2_match_data_free(md);
        return rc >= 0;
      }
    case MATCHER_STRING:
      return string_matches(self, value, length);
    case MATCHER_GLOB:
      {
        gchar *copy = g_strndup(value, length);
        gboolean r = g_pattern_spec_match_string(self->glob, copy);

        g_free(copy);
        return r;
      }
    }
  return FALSE;
}

static gboolean
matcher_eval(gconstpointer data, const PdbFilterSubject *subject)
{
  const Matcher *self = data;
  GString *text;
  gboolean r;
  gssize length;

  if (self->value_name)
    {
      const gchar *v = pdb_filter_subject_get(subject, self->value_name, &length);

      return matches(self, v, length, subject);
    }
  text = g_string_new(NULL);
  if (self->tmpl)
    pdb_template_append(self->tmpl, subject->lookup, subject->user_data, text);
  else
    {
      gssize probe = -1;
      const gchar *hdr = subject->lookup ? subject->lookup("MSGHDR", 0, &probe, subject->user_data) : NULL;
      const gchar *msg;

      if (hdr)
        g_string_append_len(text, hdr, probe < 0 ? (gssize) strlen(hdr) : probe);
      else
        pdb_filter_append_msghdr(subject->lookup, subject->user_data, text);
      msg = pdb_filter_subject_get(subject, "MESSAGE", &length);
      g_string_append_len(text, msg, length);
    }
  r = matches(self, text->str, text->len, subject);
  g_string_free(text, TRUE);
  return r;
}

static void
matcher_scan(gconstpointer data, gboolean *reads_context, guint *max_index)
{
  const Matcher *self = data;

  if (!self->tmpl)
    return;
  *reads_context |= pdb_template_reads_context(self->tmpl);
  *max_index = MAX(*max_index, pdb_template_get_max_context_index(self->tmpl));
}

static void
matcher_refs(gconstpointer data, PdbFilterRefFunc func, gpointer user_data)
{
  const Matcher *self = data;

  for (guint i = 0; i < self->refs->len; i++)
    {
      const gchar *ref = g_ptr_array_index(self->refs, i);

      func(ref[0] == 'n' ? PDB_FILTER_REF_NAME : PDB_FILTER_REF_TEMPLATE, ref + 1, user_data);
    }
}

static const PdbFilterFuncOps matcher_ops = { matcher_eval, matcher_free, matcher_scan, matcher_refs };

static gboolean
compile_pattern(PdbFilterParser *p, gsize at, Matcher *self)
{
  gint errcode;
  PCRE2_SIZE erroff;
  PCRE2_UCHAR buf[256];
  guint32 options = 0;

  if (self->type == MATCHER_GLOB)
    self->glob = g_pattern_spec_new(self->pattern);
  if (self->type != MATCHER_PCRE)
    return TRUE;
  if (self->flags & FLAG_ICASE)
    options |= PCRE2_CASELESS;
  if (self->flags & FLAG_UTF8)
    options |= PCRE2_UTF;
  self->code = pcre2_compile((PCRE2_SPTR) self->pattern, PCRE2_ZERO_TERMINATED, options, &errcode, &erroff, NULL);
  if (self->code)
    return TRUE;
  pcre2_get_error_message(errcode, buf, sizeof(buf));
  return pdb_filter_fail(p, at, "the regular expression '%s' does not compile at offset %u: %s",
                         self->pattern, (guint) erroff, (const gchar *) buf);
}

static gboolean
parse_type(PdbFilterParser *p, Matcher *self)
{
  gsize at = p->lx.tok.start;
  gchar *type = pdb_filter_parse_string(p);
  gboolean ok = TRUE;

  if (!type)
    return FALSE;
  if (strcmp(type, "pcre") == 0 || strcmp(type, "posix") == 0)
    {
      self->type = MATCHER_PCRE;
      if (type[1] == 'o')
        pdb_filter_warn(p, at, "posix regular expressions are read as pcre, as syslog-ng 3.14 and later do");
    }
  else if (strcmp(type, "string") == 0)
    self->type = MATCHER_STRING;
  else if (strcmp(type, "glob") == 0)
    self->type = MATCHER_GLOB;
  else
    ok = pdb_filter_fail(p, at, "unknown matcher type '%s' (pcre, posix, string or glob)", type);
  g_free(type);
  return ok;
}

static gboolean
parse_flags(PdbFilterParser *p, Matcher *self)
{
  static const struct { const gchar *name; guint flag; } known[] =
  {
    { "ignore-case", FLAG_ICASE }, { "icase", FLAG_ICASE }, { "utf8", FLAG_UTF8 }, { "unicode", FLAG_UTF8 },
    { "prefix", FLAG_PREFIX }, { "substring", FLAG_SUBSTRING }, { "store-matches", FLAG_STORE }, { "global", 0 },
    { "newline", 0 }, { "disable-jit", 0 }, { "dupnames", 0 },
  };

  while (p->lx.tok.kind == PDB_FILTER_TOK_WORD || p->lx.tok.kind == PDB_FILTER_TOK_STRING)
    {
      gsize at = p->lx.tok.start, i;
      gchar *flag = pdb_filter_parse_string(p);

      g_strdelimit(flag, "_", '-');
      for (i = 0; i < G_N_ELEMENTS(known) && strcmp(known[i].name, flag) != 0; i++)
        ;
      if (i == G_N_ELEMENTS(known))
        {
          pdb_filter_fail(p, at, "unknown matcher flag '%s'", flag);
          g_free(flag);
          return FALSE;
        }
      self->flags |= known[i].flag;
      g_free(flag);
    }
  return TRUE;
}

/* value(NAME): a name, not a template (a leading `$` is dropped, as 3.38 does) */
static gboolean
parse_value(PdbFilterParser *p, Matcher *self)
{
  gsize at = p->lx.tok.start;
  gchar *name = pdb_filter_parse_string(p);
  const gchar *bare;

  if (!name)
    return FALSE;
  bare = name[0] == '$' ? name + 1 : name;
  if (bare != name)
    pdb_filter_warn(p, at, "value names in filters need no '$' (only templates do); '%s' reads '%s'", name, bare);
  if (bare[0] == '(' || strchr(bare, '$'))
    {
      pdb_filter_fail(p, at, "value() takes a value name, not a template ('%s'; use template())", name);
      g_free(name);
      return FALSE;
    }
  g_free(self->value_name);
  self->value_name = g_strdup(bare);
  g_ptr_array_add(self->refs, g_strconcat("n", bare, NULL));
  pdb_template_free(self->tmpl);
  self->tmpl = NULL;
  g_free(name);
  return TRUE;
}

static gboolean
parse_template(PdbFilterParser *p, Matcher *self)
{
  gchar *source = NULL;
  PdbTemplate *tmpl = pdb_filter_parse_template(p, NULL, &source);

  if (!tmpl)
    return FALSE;
  g_ptr_array_add(self->refs, g_strconcat("t", source, NULL));
  g_free(source);
  pdb_template_free(self->tmpl);
  self->tmpl = tmpl;
  g_clear_pointer(&self->value_name, g_free);
  return TRUE;
}

/* The options up to ')': type() and flags(); value() and template() for match(). */
static gboolean
parse_options(PdbFilterParser *p, Matcher *self, gboolean is_match)
{
  while (p->lx.tok.kind != PDB_FILTER_TOK_RPAREN)
    {
      gboolean ok;

      if (pdb_filter_lex_is_keyword(&p->lx, "type"))
        ok = (pdb_filter_advance(p), pdb_filter_expect(p, PDB_FILTER_TOK_LPAREN, "'(' after type"))
             && parse_type(p, self);
      else if (pdb_filter_lex_is_keyword(&p->lx, "flags"))
        ok = (pdb_filter_advance(p), pdb_filter_expect(p, PDB_FILTER_TOK_LPAREN, "'(' after flags"))
             && parse_flags(p, self);
      else if (is_match && pdb_filter_lex_is_keyword(&p->lx, "value"))
        ok = (pdb_filter_advance(p), pdb_filter_expect(p, PDB_FILTER_TOK_LPAREN, "'(' after value"))
             && parse_value(p, self);
      else if (is_match && pdb_filter_lex_is_keyword(&p->lx, "template"))
        ok = (pdb_filter_advance(p), pdb_filter_expect(p, PDB_FILTER_TOK_LPAREN, "'(' after template"))
             && parse_template(p, self);
      else
        return pdb_filter_fail(p, p->lx.tok.start, "expected %s or ')', found %s",
                               is_match ? "value(), template(), type(), flags()" : "type(), flags()",
                               pdb_filter_token_name(p));
      if (!ok || !pdb_filter_expect(p, PDB_FILTER_TOK_RPAREN, "')' after the option"))
        return FALSE;
    }
  pdb_filter_advance(p);
  return TRUE;
}

PdbFilterNode *
pdb_filter_parse_match(PdbFilterParser *p)
{
  static const struct { const gchar *function; const gchar *value; } fixed[] =
  {
    { "program", "PROGRAM" }, { "host", "HOST" }, { "message", "MESSAGE" }, { "source", "SOURCE" },
  };
  Matcher *self = g_new0(Matcher, 1);
  gboolean is_match = pdb_filter_lex_is_keyword(&p->lx, "match");
  gsize at;

  self->refs = g_ptr_array_new_with_free_func(g_free);
  for (gsize i = 0; i < G_N_ELEMENTS(fixed); i++)
    if (pdb_filter_lex_is_keyword(&p->lx, fixed[i].function))
      self->value_name = g_strdup(fixed[i].value);
  /* 3.38: source() compares the source's name as a whole string unless type() says otherwise */
  if (pdb_filter_lex_is_keyword(&p->lx, "source"))
    self->type = MATCHER_STRING;
  pdb_filter_advance(p);
  if (!pdb_filter_expect(p, PDB_FILTER_TOK_LPAREN, "'(' after the function name"))
    goto fail;
  at = p->lx.tok.start;
  self->pattern = pdb_filter_parse_string(p);
  if (!self->pattern || !parse_options(p, self, is_match) || !compile_pattern(p, at, self))
    goto fail;
  if (is_match && !self->value_name && !self->tmpl)
    pdb_filter_warn(p, at, "match() without value() reads \"$MSGHDR$MESSAGE\", which syslog-ng deprecates; "
                    "message() and program() are faster");
  return pdb_filter_node_new_func(&matcher_ops, self);
fail:
  matcher_free(self);
  return NULL;
}

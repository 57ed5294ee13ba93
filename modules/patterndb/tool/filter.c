/*
 * filter.c: the filter functions of filter.h, compiled and evaluated. The
 * lexer and the not/and/or grammar around the functions are shared with
 * action conditions (db/expr-lex.c).
 *
 * Invariant: a compiled filter is a tree that owns its strings and compiled
 * regexes; evaluation never allocates (match data is kept per node) and
 * never changes the message.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "tool/filter.h"
#include "db/expr-lex.h"

#include <pcre2.h>
#include <string.h>

typedef enum
{
  NODE_AND,
  NODE_OR,
  NODE_NOT,
  NODE_TAGS,
  NODE_MATCH,
} NodeKind;

typedef enum
{
  MATCH_PCRE,
  MATCH_STRING,
  MATCH_GLOB,
} MatchType;

typedef struct _Node Node;
struct _Node
{
  NodeKind kind;
  Node *left, *right;       /* AND/OR: both; NOT: left */
  GPtrArray *tags;          /* TAGS */
  gchar *value_name;        /* MATCH: NULL = $MSGHDR$MESSAGE */
  gchar *pattern;
  MatchType type;
  gboolean ignore_case;
  gboolean substring;       /* type(string): flags(substring); else exact */
  gboolean prefix;          /* type(string): flags(prefix) */
  pcre2_code *code;
  pcre2_match_data *match_data;
  GPatternSpec *glob;
};

struct _PdbToolFilter
{
  Node *root;
};

typedef struct
{
  PdbExprLexer lx;
  GError **error;
} Parser;

/* syslog-ng's filter syntax as pdbtool users write it: words may hold `-`
 * and `.`, keywords are lower case, regex escapes survive in strings */
static const PdbExprSyntax filter_syntax = { " \t\n", "_-.", FALSE, TRUE };

static void
node_free(Node *n)
{
  if (!n)
    return;
  node_free(n->left);
  node_free(n->right);
  if (n->tags)
    g_ptr_array_free(n->tags, TRUE);
  g_free(n->value_name);
  g_free(n->pattern);
  if (n->match_data)
    pcre2_match_data_free(n->match_data);
  if (n->code)
    pcre2_code_free(n->code);
  if (n->glob)
    g_pattern_spec_free(n->glob);
  g_free(n);
}

static gboolean
parse_error(Parser *p, const gchar *what)
{
  if (p->error && !*p->error)
    g_set_error(p->error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "filter expression, column %zu: %s (supported: %s)", p->lx.pos + 1, what,
                PDB_TOOL_FILTER_FUNCTIONS);
  return FALSE;
}

static gboolean
peek_char(Parser *p, gchar c)
{
  return pdb_expr_lex_peek(&p->lx) == c;
}

static gboolean
expect_char(Parser *p, gchar c)
{
  gchar msg[32];

  if (pdb_expr_lex_accept(&p->lx, c))
    return TRUE;
  g_snprintf(msg, sizeof(msg), "expected '%c'", c);
  return parse_error(p, msg);
}

/* "..." or '...' (see db/expr-lex.h for escapes); bare words too. */
static gchar *
parse_string(Parser *p)
{
  gboolean unterminated;
  gchar *s = pdb_expr_lex_quoted(&p->lx, &unterminated);

  if (s)
    return s;
  if (unterminated)
    {
      parse_error(p, "unterminated string");
      return NULL;
    }
  s = pdb_expr_lex_word(&p->lx);
  if (!s)
    parse_error(p, "expected a string");
  return s;
}

static gboolean
compile_match(Parser *p, Node *n)
{
  if (n->type == MATCH_PCRE)
    {
      int errcode;
      PCRE2_SIZE erroff;

      n->code = pcre2_compile((PCRE2_SPTR) n->pattern, PCRE2_ZERO_TERMINATED,
                              n->ignore_case ? PCRE2_CASELESS : 0, &errcode, &erroff, NULL);
      if (!n->code)
        {
          PCRE2_UCHAR buf[256];
          gchar *msg;

          pcre2_get_error_message(errcode, buf, sizeof(buf));
          msg = g_strdup_printf("regular expression '%s' does not compile at offset %zu: %s",
                                n->pattern, (gsize) erroff, (const gchar *) buf);
          parse_error(p, msg);
          g_free(msg);
          return FALSE;
        }
      n->match_data = pcre2_match_data_create_from_pattern(n->code, NULL);
    }
  else if (n->type == MATCH_GLOB)
    n->glob = g_pattern_spec_new(n->pattern);
  return TRUE;
}

/* The options of match()/program()/...: value(), type(), flags(). */
static gboolean
parse_match_options(Parser *p, Node *n, gboolean allow_value)
{
  while (!peek_char(p, ')'))
    {
      gsize at = p->lx.pos;
      gchar *opt = pdb_expr_lex_word(&p->lx);
      gboolean ok = TRUE;

      if (!opt)
        return parse_error(p, "expected value(), type(), flags() or ')'");
      if (!expect_char(p, '('))
        {
          g_free(opt);
          return FALSE;
        }
      if (strcmp(opt, "value") == 0 && allow_value)
        {
          g_free(n->value_name);
          n->value_name = parse_string(p);
          ok = n->value_name != NULL;
          if (ok && n->value_name[0] == '$')
            {
              /* value("$NAME") is accepted by syslog-ng too */
              gchar *bare = g_strdup(n->value_name + 1);

              g_free(n->value_name);
              n->value_name = bare;
            }
        }
      else if (strcmp(opt, "type") == 0)
        {
          gchar *t = parse_string(p);

          ok = t != NULL;
          if (ok && strcmp(t, "pcre") == 0)
            n->type = MATCH_PCRE;
          else if (ok && strcmp(t, "string") == 0)
            n->type = MATCH_STRING;
          else if (ok && strcmp(t, "glob") == 0)
            n->type = MATCH_GLOB;
          else if (ok)
            {
              p->lx.pos = at;
              ok = parse_error(p, "type() must be pcre, string or glob");
            }
          g_free(t);
        }
      else if (strcmp(opt, "flags") == 0)
        {
          while (ok && !peek_char(p, ')'))
            {
              gchar *f = parse_string(p);

              ok = f != NULL;
              if (ok && (strcmp(f, "ignore-case") == 0 || strcmp(f, "ignore_case") == 0))
                n->ignore_case = TRUE;
              else if (ok && strcmp(f, "substring") == 0)
                n->substring = TRUE;
              else if (ok && strcmp(f, "prefix") == 0)
                n->prefix = TRUE;
              else if (ok && strcmp(f, "store-matches") != 0 && strcmp(f, "store_matches") != 0
                       && strcmp(f, "utf8") != 0)
                {
                  p->lx.pos = at;
                  ok = parse_error(p, "unsupported flag");
                }
              g_free(f);
            }
        }
      else
        {
          p->lx.pos = at;
          ok = parse_error(p, "unsupported option");
        }
      g_free(opt);
      if (!ok || !expect_char(p, ')'))
        return FALSE;
    }
  return TRUE;
}

/* One filter function call; the boolean grammar (db/expr-lex.h) has
 * already skipped the blanks before it. */
static gpointer
parse_call(PdbExprLexer *lx, gpointer user_data)
{
  Parser *p = user_data;
  gsize at;
  gchar *fn;
  Node *n;

  at = p->lx.pos;
  fn = pdb_expr_lex_word(&p->lx);
  if (!fn)
    {
      parse_error(p, lx->text[lx->pos] ? "expected a filter function" : "unexpected end of expression");
      return NULL;
    }
  if (!expect_char(p, '('))
    {
      g_free(fn);
      return NULL;
    }
  n = g_new0(Node, 1);
  if (strcmp(fn, "tags") == 0)
    {
      n->kind = NODE_TAGS;
      n->tags = g_ptr_array_new_with_free_func(g_free);
      while (!peek_char(p, ')'))
        {
          gchar *t = parse_string(p);

          if (!t)
            goto fail;
          g_ptr_array_add(n->tags, t);
          if (peek_char(p, ','))
            p->lx.pos++;
        }
      p->lx.pos++;
    }
  else if (strcmp(fn, "match") == 0 || strcmp(fn, "program") == 0
           || strcmp(fn, "host") == 0 || strcmp(fn, "message") == 0)
    {
      n->kind = NODE_MATCH;
      n->pattern = parse_string(p);
      if (!n->pattern)
        goto fail;
      if (strcmp(fn, "program") == 0)
        n->value_name = g_strdup("PROGRAM");
      else if (strcmp(fn, "host") == 0)
        n->value_name = g_strdup("HOST");
      else if (strcmp(fn, "message") == 0)
        n->value_name = g_strdup("MESSAGE");
      if (!parse_match_options(p, n, strcmp(fn, "match") == 0) || !compile_match(p, n))
        goto fail;
      p->lx.pos++;
    }
  else
    {
      p->lx.pos = at;
      parse_error(p, "unsupported filter function");
      goto fail;
    }
  g_free(fn);
  return n;
fail:
  g_free(fn);
  node_free(n);
  return NULL;
}

static gpointer
combine(PdbExprBoolOp op, gpointer left, gpointer right, gpointer user_data)
{
  Node *n = g_new0(Node, 1);

  (void) user_data;
  n->kind = op == PDB_EXPR_AND ? NODE_AND : op == PDB_EXPR_OR ? NODE_OR : NODE_NOT;
  n->left = left;
  n->right = right;
  return n;
}

static void
free_node(gpointer node)
{
  node_free(node);
}

static void
expected(PdbExprLexer *lx, const gchar *what, gpointer user_data)
{
  gchar *msg = g_strdup_printf("expected %s", what);

  (void) lx;
  parse_error(user_data, msg);
  g_free(msg);
}

PdbToolFilter *
pdb_tool_filter_compile(const gchar *expression, GError **error)
{
  static const PdbExprBoolGrammar grammar = { parse_call, combine, free_node, expected };
  Parser p = { .error = error };
  Node *root;
  PdbToolFilter *f;

  pdb_expr_lex_init(&p.lx, expression, &filter_syntax);
  root = pdb_expr_parse_bool(&p.lx, &grammar, &p);
  if (!root)
    return NULL;
  pdb_expr_lex_accept(&p.lx, ';');
  if (pdb_expr_lex_peek(&p.lx))
    {
      node_free(root);
      parse_error(&p, "unexpected text after the expression");
      return NULL;
    }
  f = g_new0(PdbToolFilter, 1);
  f->root = root;
  return f;
}

void
pdb_tool_filter_free(PdbToolFilter *filter)
{
  if (!filter)
    return;
  node_free(filter->root);
  g_free(filter);
}

void
pdb_tool_append_msghdr(PdbToolMessage *msg, GString *out)
{
  gssize len;
  const gchar *v = pdb_tool_message_get(msg, "LEGACY_MSGHDR", &len);

  if (v)
    {
      g_string_append_len(out, v, len);
      return;
    }
  v = pdb_tool_message_get(msg, "PROGRAM", &len);
  if (!v || !len)
    return;
  g_string_append_len(out, v, len);
  v = pdb_tool_message_get(msg, "PID", &len);
  if (v && len)
    {
      g_string_append_c(out, '[');
      g_string_append_len(out, v, len);
      g_string_append_c(out, ']');
    }
  g_string_append(out, ": ");
}

static gboolean
eval_match(const Node *n, PdbToolMessage *msg, GString *scratch)
{
  const gchar *subject;
  gssize len = 0;

  if (n->value_name)
    {
      subject = pdb_tool_message_get(msg, n->value_name, &len);
      if (!subject)
        {
          subject = "";
          len = 0;
        }
    }
  else
    {
      const gchar *m;
      gssize mlen;

      g_string_truncate(scratch, 0);
      pdb_tool_append_msghdr(msg, scratch);
      m = pdb_tool_message_get(msg, "MESSAGE", &mlen);
      if (m)
        g_string_append_len(scratch, m, mlen);
      subject = scratch->str;
      len = scratch->len;
    }
  switch (n->type)
    {
    case MATCH_PCRE:
      return pcre2_match(n->code, (PCRE2_SPTR) subject, len, 0, 0, n->match_data, NULL) >= 0;
    case MATCH_STRING:
      {
        /* syslog-ng's string matcher: the whole value, or with
         * flags(prefix)/flags(substring) its start/any part */
        gsize plen = strlen(n->pattern);
        gchar *a = n->ignore_case ? g_ascii_strdown(subject, len) : g_strndup(subject, len);
        gchar *b = n->ignore_case ? g_ascii_strdown(n->pattern, -1) : g_strdup(n->pattern);
        gboolean r;

        if (n->substring)
          r = strstr(a, b) != NULL;
        else if (n->prefix)
          r = (gsize) len >= plen && strncmp(a, b, plen) == 0;
        else
          r = (gsize) len == plen && strcmp(a, b) == 0;
        g_free(a);
        g_free(b);
        return r;
      }
    case MATCH_GLOB:
      {
        gchar *copy = g_strndup(subject, len);
        gboolean r = g_pattern_spec_match_string(n->glob, copy);

        g_free(copy);
        return r;
      }
    }
  return FALSE;
}

static gboolean
eval(const Node *n, PdbToolMessage *msg, GString *scratch)
{
  switch (n->kind)
    {
    case NODE_AND:
      return eval(n->left, msg, scratch) && eval(n->right, msg, scratch);
    case NODE_OR:
      return eval(n->left, msg, scratch) || eval(n->right, msg, scratch);
    case NODE_NOT:
      return !eval(n->left, msg, scratch);
    case NODE_TAGS:
      for (guint i = 0; i < n->tags->len; i++)
        if (pdb_tool_message_has_tag(msg, g_ptr_array_index(n->tags, i)))
          return TRUE;
      return FALSE;
    case NODE_MATCH:
      return eval_match(n, msg, scratch);
    }
  return FALSE;
}

gboolean
pdb_tool_filter_eval(const PdbToolFilter *filter, PdbToolMessage *msg, GString *scratch)
{
  return eval(filter->root, msg, scratch);
}

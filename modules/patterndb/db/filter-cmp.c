/*
 * filter-cmp.c: comparisons `A OP B` (filter-expr.h) and the template
 * operands that match(template()) shares.
 *
 * An operand is a template ("..." '...' or a word), a number (its decimal
 * text, type int64), a float (its text, type double) or a cast
 * TYPE(string-or-number). Comparison modes, as 3.38 decides them:
 *   eq ne lt gt le ge      bytes (memcmp, then the shorter is smaller)
 *   == != < > <= >=        numeric: each side as glibc's atoi() reads it
 *                          (strtol: blanks, sign, decimal digits, saturated
 *                          at the 64-bit range; then only the low 32 bits
 *                          are kept, so "4294967297" is 1 and
 *                          "99999999999999999999" is -1); but type-aware
 *                          when either operand is a number, a float or a cast
 *   === !==                type-aware, and types must be equal (===)
 * Type-aware (3.38's JavaScript-like rules): two strings, two lists or two
 * JSON values compare as bytes; NULL equals only NULL (for == and !=);
 * otherwise both sides become numbers (strings and ints and doubles by
 * strict parsing, "0x" hex allowed, out of the double range NaN, else NaN;
 * booleans 1 for t/T/1 first, else 0; datetimes in milliseconds, see
 * datetime_msec(), 0 when unreadable; NULL 0; lists and JSON NaN) and any NaN makes everything false but `!=`.
 * An operand without a cast is a string: so are the values of a pattern
 * database to 3.38's conditions, typed <value>s and @NUMBER@ captures
 * included (tests/differential/filters/typed.xml).
 *
 * Invariant: a node owns its two templates and is never changed.
 */
#include "db/filter-node.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum
{
  OP_EQ = 1,
  OP_LT = 2,
  OP_GT = 4,
};

typedef enum
{
  MODE_NUMERIC,
  MODE_BYTES,
  MODE_TYPED,
  MODE_TYPE_AND_VALUE,
} CmpMode;

typedef struct
{
  PdbTemplate *tmpl;
  gchar *source;          /* the template's text */
  PdbTypeHint type;       /* PDB_TYPE_HINT_NONE: a string */
} Operand;

typedef struct
{
  Operand a, b;
  guint op;               /* OP_* bits that make it true */
  CmpMode mode;
} Comparison;

typedef struct
{
  gboolean is_nan, is_int;
  gint64 i;
  gdouble d;
} Number;

/* ---- evaluation ---- */

/* glibc's atoi(): (int) strtol(s, NULL, 10), strtol saturating at the
 * 64-bit range and the conversion keeping the low 32 bits */
static gint32
atoi_338(const gchar *s)
{
  gint64 v = strtoll(s, NULL, 10);

  return (gint32) (guint32) (guint64) v;
}

static gint
compare_bytes(const GString *a, const GString *b)
{
  gint c = memcmp(a->str, b->str, MIN(a->len, b->len));

  if (c != 0)
    return c;
  return a->len == b->len ? 0 : a->len < b->len ? -1 : 1;
}

static gboolean
result_of(guint op, gint c)
{
  return (c == 0 && (op & OP_EQ)) || (c < 0 && (op & OP_LT)) || (c > 0 && (op & OP_GT));
}

static void
parse_number(const gchar *s, Number *n)
{
  const gchar *p = s;
  gchar *end;

  memset(n, 0, sizeof(*n));
  while (g_ascii_isspace(*p))
    p++;
  if (*p == '+' || *p == '-')
    p++;
  errno = 0;
  n->i = g_ascii_strtoll(s, &end, p[0] == '0' && (p[1] == 'x' || p[1] == 'X') ? 16 : 10);
  if (end != s && *end == '\0' && errno == 0)
    {
      n->is_int = TRUE;
      return;
    }
  errno = 0;
  n->d = g_ascii_strtod(s, &end);
  n->is_nan = end == s || *end != '\0' || isnan(n->d) || errno == ERANGE;
}

/* 3.38's datetime cast in milliseconds: seconds as strtoll() reads them
 * (saturated, then times 1000 wrapping at 64 bits), an optional `.` and a
 * fraction read by strtoll() from at most its next 9 bytes (so a sign or
 * blank counts as a digit place; further digits are skipped), nothing else
 * after it. FALSE when something else follows. */
static gboolean
datetime_msec(const gchar *s, gint64 *msec)
{
  gchar *end;
  gint64 sec = strtoll(s, &end, 10), nsec = 0;

  if (*end == '.')
    {
      gchar digits[10];
      gchar *stop;

      g_strlcpy(digits, end + 1, sizeof(digits));
      nsec = strtoll(digits, &stop, 10);
      for (glong places = stop - digits; places < 9; places++)
        nsec *= 10;
      end += 1 + (stop - digits);
      while (g_ascii_isdigit(*end))
        end++;
    }
  if (*end)
    return FALSE;
  *msec = (gint64) ((guint64) sec * 1000u + (guint64) (nsec / 1000 / 1000));
  return TRUE;
}

static void
to_number(const GString *value, PdbTypeHint type, Number *n)
{
  memset(n, 0, sizeof(*n));
  n->is_int = TRUE;
  switch (type)
    {
    case PDB_TYPE_HINT_LIST:
    case PDB_TYPE_HINT_JSON:
      n->is_nan = TRUE;
      break;
    case PDB_TYPE_HINT_NULL:
      break;
    case PDB_TYPE_HINT_BOOLEAN:
      n->i = value->str[0] == 't' || value->str[0] == 'T' || value->str[0] == '1';
      break;
    case PDB_TYPE_HINT_DATETIME:
      if (!datetime_msec(value->str, &n->i))
        n->i = 0;
      break;
    default:
      parse_number(value->str, n);
      break;
    }
}

static gint
compare_numbers(const Number *x, const Number *y)
{
  if (x->is_int && y->is_int)
    return x->i < y->i ? -1 : x->i > y->i;
  gdouble a = x->is_int ? (gdouble) x->i : x->d, b = y->is_int ? (gdouble) y->i : y->d;

  return a < b ? -1 : a > b;
}

static PdbTypeHint
value_type(PdbTypeHint hint)
{
  if (hint == PDB_TYPE_HINT_NONE || hint == PDB_TYPE_HINT_LITERAL)
    return PDB_TYPE_HINT_STRING;
  return hint;
}

static gboolean
typed_result(const Comparison *self, const GString *a, PdbTypeHint ta, const GString *b, PdbTypeHint tb)
{
  Number x, y;
  gboolean bytes_like = ta == PDB_TYPE_HINT_STRING || ta == PDB_TYPE_HINT_LIST || ta == PDB_TYPE_HINT_JSON;

  if (ta == tb && bytes_like)
    return result_of(self->op, compare_bytes(a, b));
  if (ta == PDB_TYPE_HINT_NULL || tb == PDB_TYPE_HINT_NULL)
    {
      if (self->op == (OP_LT | OP_GT))
        return ta != tb;
      if (self->op == OP_EQ)
        return ta == tb;
    }
  to_number(a, ta, &x);
  to_number(b, tb, &y);
  if (x.is_nan || y.is_nan)
    return self->op == (OP_LT | OP_GT);
  return result_of(self->op, compare_numbers(&x, &y));
}

static gboolean
comparison_eval(gconstpointer data, const PdbFilterSubject *subject)
{
  const Comparison *self = data;
  GString *a = g_string_new(NULL), *b = g_string_new(NULL);
  PdbTypeHint ta = value_type(self->a.type), tb = value_type(self->b.type);
  gboolean r;

  pdb_template_append(self->a.tmpl, subject->lookup, subject->user_data, a);
  pdb_template_append(self->b.tmpl, subject->lookup, subject->user_data, b);
  switch (self->mode)
    {
    case MODE_NUMERIC:
      {
        gint32 x = atoi_338(a->str), y = atoi_338(b->str);

        r = result_of(self->op, x < y ? -1 : x > y);
        break;
      }
    case MODE_BYTES:
      r = result_of(self->op, compare_bytes(a, b));
      break;
    case MODE_TYPE_AND_VALUE:
      if (ta != tb)
        {
          r = self->op != OP_EQ;
          break;
        }
      /* fall through */
    default:
      r = typed_result(self, a, ta, b, tb);
      break;
    }
  g_string_free(a, TRUE);
  g_string_free(b, TRUE);
  return r;
}

static void
comparison_free(gpointer data)
{
  Comparison *self = data;

  pdb_template_free(self->a.tmpl);
  pdb_template_free(self->b.tmpl);
  g_free(self->a.source);
  g_free(self->b.source);
  g_free(self);
}

static void
operand_scan(const Operand *o, gboolean *reads_context, guint *max_index)
{
  *reads_context |= pdb_template_reads_context(o->tmpl);
  *max_index = MAX(*max_index, pdb_template_get_max_context_index(o->tmpl));
}

static void
comparison_scan(gconstpointer data, gboolean *reads_context, guint *max_index)
{
  const Comparison *self = data;

  operand_scan(&self->a, reads_context, max_index);
  operand_scan(&self->b, reads_context, max_index);
}

static void
comparison_refs(gconstpointer data, PdbFilterRefFunc func, gpointer user_data)
{
  const Comparison *self = data;

  func(PDB_FILTER_REF_TEMPLATE, self->a.source, user_data);
  func(PDB_FILTER_REF_TEMPLATE, self->b.source, user_data);
}

static const PdbFilterFuncOps comparison_ops = { comparison_eval, comparison_free, comparison_scan, comparison_refs };

/* ---- parsing ---- */

static PdbTemplate *
compile_template(PdbFilterParser *p, gsize at, const gchar *text)
{
  GError *error = NULL;
  PdbTemplate *tmpl = pdb_template_compile(text, FALSE, &error);

  if (!tmpl)
    {
      pdb_filter_fail(p, at, "the template '%s' does not compile: %s", text, error->message);
      g_error_free(error);
    }
  return tmpl;
}

/* TYPE(string-or-number), the current token being TYPE */
static PdbTemplate *
parse_cast(PdbFilterParser *p, PdbTypeHint *hint, gchar **source)
{
  gsize at = p->lx.tok.start;
  gchar *text;
  PdbTemplate *tmpl;

  if (!pdb_type_hint_parse(p->lx.tok.text->str, -1, hint))
    {
      pdb_filter_fail(p, at, "unknown type '%s' (%s)", p->lx.tok.text->str, PDB_TYPE_HINT_NAMES);
      return NULL;
    }
  pdb_filter_advance(p);
  pdb_filter_advance(p);
  if (p->lx.tok.kind != PDB_FILTER_TOK_NUMBER && p->lx.tok.kind != PDB_FILTER_TOK_FLOAT
      && p->lx.tok.kind != PDB_FILTER_TOK_WORD && p->lx.tok.kind != PDB_FILTER_TOK_STRING)
    {
      pdb_filter_fail(p, p->lx.tok.start, "expected a string or a number in the cast, found %s",
                      pdb_filter_token_name(p));
      return NULL;
    }
  at = p->lx.tok.start;
  text = g_strdup(p->lx.tok.text->str);
  pdb_filter_advance(p);
  tmpl = compile_template(p, at, text);
  if (tmpl && !pdb_filter_expect(p, PDB_FILTER_TOK_RPAREN, "')' after the cast"))
    g_clear_pointer(&tmpl, pdb_template_free);
  if (tmpl && source)
    *source = g_strdup(text);
  g_free(text);
  return tmpl;
}

static gboolean
is_reserved_word(const PdbFilterParser *p)
{
  static const gchar *const words[] =
  {
    "and", "or", "not", "match", "program", "host", "message", "source", "tags", "level", "priority",
    "severity", "facility", "netmask", "netmask6", "in-list", "filter", "value", "template", "type", "flags",
  };

  for (gsize i = 0; i < G_N_ELEMENTS(words); i++)
    if (pdb_filter_lex_is_keyword(&p->lx, words[i]))
      return TRUE;
  return FALSE;
}

PdbTemplate *
pdb_filter_parse_template(PdbFilterParser *p, PdbTypeHint *hint, gchar **source)
{
  PdbTypeHint local;
  gsize at = p->lx.tok.start;
  gchar *text;
  PdbTemplate *tmpl;

  hint = hint ? hint : &local;
  *hint = PDB_TYPE_HINT_NONE;
  switch (p->lx.tok.kind)
    {
    case PDB_FILTER_TOK_NUMBER:
      *hint = PDB_TYPE_HINT_INT64;
      text = g_strdup_printf("%" G_GINT64_FORMAT, p->lx.tok.number);
      break;
    case PDB_FILTER_TOK_FLOAT:
      *hint = PDB_TYPE_HINT_DOUBLE;
      text = g_strdup(p->lx.tok.text->str);
      break;
    case PDB_FILTER_TOK_WORD:
      if (is_reserved_word(p))
        {
          pdb_filter_fail(p, at, "'%s' cannot start a comparison", p->lx.tok.text->str);
          return NULL;
        }
      if (p->lx.text[p->lx.pos + strspn(p->lx.text + p->lx.pos, " \t\r\n,")] == '(')
        return parse_cast(p, hint, source);
      /* fall through */
    case PDB_FILTER_TOK_STRING:
      text = g_strdup(p->lx.tok.text->str);
      break;
    default:
      pdb_filter_fail(p, at, "expected a template, a number or a cast, found %s", pdb_filter_token_name(p));
      return NULL;
    }
  pdb_filter_advance(p);
  tmpl = compile_template(p, at, text);
  if (tmpl && source)
    *source = g_strdup(text);
  g_free(text);
  return tmpl;
}

static gboolean
parse_operator(PdbFilterParser *p, Comparison *self)
{
  static const struct { const gchar *word; guint op; CmpMode mode; } ops[] =
  {
    { "==", OP_EQ, MODE_NUMERIC }, { "!=", OP_LT | OP_GT, MODE_NUMERIC }, { "<", OP_LT, MODE_NUMERIC },
    { "<=", OP_LT | OP_EQ, MODE_NUMERIC }, { ">", OP_GT, MODE_NUMERIC }, { ">=", OP_GT | OP_EQ, MODE_NUMERIC },
    { "eq", OP_EQ, MODE_BYTES }, { "ne", OP_LT | OP_GT, MODE_BYTES }, { "lt", OP_LT, MODE_BYTES },
    { "le", OP_LT | OP_EQ, MODE_BYTES }, { "gt", OP_GT, MODE_BYTES }, { "ge", OP_GT | OP_EQ, MODE_BYTES },
    { "===", OP_EQ, MODE_TYPE_AND_VALUE }, { "!==", OP_LT | OP_GT, MODE_TYPE_AND_VALUE },
  };

  if (p->lx.tok.kind == PDB_FILTER_TOK_WORD)
    for (gsize i = 0; i < G_N_ELEMENTS(ops); i++)
      if (strcmp(p->lx.tok.text->str, ops[i].word) == 0)
        {
          self->op = ops[i].op;
          self->mode = ops[i].mode;
          pdb_filter_advance(p);
          return TRUE;
        }
  return pdb_filter_fail(p, p->lx.tok.start, "expected a comparison operator (== != < <= > >= eq ne lt le gt ge "
                         "=== !==) or a filter function, found %s", pdb_filter_token_name(p));
}

PdbFilterNode *
pdb_filter_parse_comparison(PdbFilterParser *p)
{
  Comparison *self = g_new0(Comparison, 1);

  if (!(self->a.tmpl = pdb_filter_parse_template(p, &self->a.type, &self->a.source)) || !parse_operator(p, self)
      || !(self->b.tmpl = pdb_filter_parse_template(p, &self->b.type, &self->b.source)))
    {
      comparison_free(self);
      return NULL;
    }
  if (self->mode == MODE_NUMERIC && (self->a.type != PDB_TYPE_HINT_NONE || self->b.type != PDB_TYPE_HINT_NONE))
    self->mode = MODE_TYPED;
  return pdb_filter_node_new_func(&comparison_ops, self);
}

/*
 * template-func-numeric.c: the numeric functions of the 3.38 basic set, with
 * the results pdbtool 3.38 gives:
 *
 *   $(+ A B) $(- A B) $(* A B) $(/ A B) $(% A B)
 *       A and B are whole decimal numbers (blanks and a sign before the
 *       digits, nothing after; within 64 bits) or else floating point numbers
 *       as strtod() reads them (1.5, 1e3, 0x10, inf, nan; not beyond double's
 *       range). Two whole numbers give a whole number (64-bit, wrapping:
 *       `$(+ 9223372036854775807 1)` is -9223372036854775808), otherwise the
 *       result is printed with "%.20f". A division or remainder by zero (or
 *       by a float smaller than DBL_EPSILON), a wrong number of arguments or
 *       an argument that is not a number gives "NaN".
 *       Deliberate difference: 3.38 dies (SIGFPE) on -9223372036854775808 / -1
 *       and % -1; here they are -9223372036854775808 and 0.
 *   $(round X [P])      X rounded half away from zero to P (0..20, default 0)
 *                       decimals, printed with "%.Pf"; NaN for a bad X or P
 *   $(ceil X) $(floor X)  X rounded up/down, as a 64-bit whole number (a
 *                       value beyond that range, inf and nan give
 *                       -9223372036854775808, as 3.38 on x86-64 does)
 *   $(sum X) $(min X) $(max X) $(average X)
 *       X (one argument; more is a compile error) is expanded for every
 *       message of the correlation context; the whole decimal numbers among
 *       the results are summed (wrapping), compared or averaged (the sum
 *       divided by their count, truncated); empty when there is none.
 */
#include "db/template-func-private.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <string.h>

typedef struct
{
  gboolean is_float;
  gint64 i;
  gdouble d;
} Number;

static gboolean
parse_number(const gchar *text, Number *n)
{
  if (pdb_tf_parse_dec(text, &n->i))
    {
      n->is_float = FALSE;
      return TRUE;
    }

  gchar *end;
  errno = 0;
  n->d = g_ascii_strtod(text, &end);
  if (errno != 0 || end == text || *end != '\0')
    return FALSE;
  n->is_float = TRUE;
  return TRUE;
}

static gdouble
as_double(const Number *n)
{
  return n->is_float ? n->d : (gdouble) n->i;
}

static void
append_int(GString *out, gint64 value)
{
  g_string_append_printf(out, "%" G_GINT64_FORMAT, value);
}

static void
append_float(GString *out, gdouble value, gint precision)
{
  gchar buffer[G_ASCII_DTOSTR_BUF_SIZE + 400];
  gchar format[16];

  g_snprintf(format, sizeof(format), "%%.%df", precision);
  g_ascii_formatd(buffer, sizeof(buffer), format, value);
  g_string_append(out, buffer);
}

/* The two operands of a binary function, or FALSE. */
static gboolean
operands(const PdbTemplateCall *call, const PdbTfEnv *env, Number *a, Number *b)
{
  if (call->args->len != 2)
    return FALSE;
  GPtrArray *v = pdb_tf_expand_args(call, env);
  gboolean ok = parse_number(((GString *) g_ptr_array_index(v, 0))->str, a)
                && parse_number(((GString *) g_ptr_array_index(v, 1))->str, b);
  pdb_tf_free_values(v);
  return ok;
}

static gboolean
is_zero(const Number *n)
{
  return n->is_float ? fabs(n->d) < DBL_EPSILON : n->i == 0;
}

static void
eval_arithmetic(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  gchar op = (gchar) call->def->variant;
  Number a, b;

  if (!operands(call, env, &a, &b) || ((op == '/' || op == '%') && is_zero(&b)))
    {
      g_string_append(out, "NaN");
      return;
    }
  if (!a.is_float && !b.is_float)
    {
      guint64 x = (guint64) a.i, y = (guint64) b.i;
      gint64 r;

      switch (op)
        {
        case '+': r = (gint64) (x + y); break;
        case '-': r = (gint64) (x - y); break;
        case '*': r = (gint64) (x * y); break;
        case '/': r = (b.i == -1) ? (gint64) (0 - x) : a.i / b.i; break;
        default: r = (b.i == -1) ? 0 : a.i % b.i; break;
        }
      append_int(out, r);
      return;
    }

  gdouble x = as_double(&a), y = as_double(&b), r;
  switch (op)
    {
    case '+': r = x + y; break;
    case '-': r = x - y; break;
    case '*': r = x * y; break;
    case '/': r = x / y; break;
    default: r = fmod(x, y); break;
    }
  append_float(out, r, 20);
}

/* The one operand of round/ceil/floor (and round's precision), or FALSE. */
static gboolean
unary_operand(const PdbTemplateCall *call, const PdbTfEnv *env, guint max_args, gdouble *x, gint64 *precision)
{
  if (call->args->len < 1 || call->args->len > max_args)
    return FALSE;
  GPtrArray *v = pdb_tf_expand_args(call, env);
  Number n;
  gboolean ok = parse_number(((GString *) g_ptr_array_index(v, 0))->str, &n);

  *precision = 0;
  if (ok && v->len > 1)
    ok = pdb_tf_parse_dec(((GString *) g_ptr_array_index(v, 1))->str, precision)
         && *precision >= 0 && *precision <= 20;
  pdb_tf_free_values(v);
  *x = as_double(&n);
  return ok;
}

static void
eval_round(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  gdouble x;
  gint64 precision;

  if (!unary_operand(call, env, 2, &x, &precision))
    {
      g_string_append(out, "NaN");
      return;
    }
  gdouble scale = pow(10, (gdouble) precision);
  append_float(out, round(x * scale) / scale, (gint) precision);
}

/* (gint64) of @x as x86-64 converts: out of range, inf and nan give INT64_MIN. */
static gint64
to_int64(gdouble x)
{
  if (!(x >= -9223372036854775808.0 && x < 9223372036854775808.0))
    return G_MININT64;
  return (gint64) x;
}

static void
eval_ceil_floor(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  gboolean up = call->def->variant;
  gdouble x;
  gint64 precision;

  if (!unary_operand(call, env, 1, &x, &precision))
    {
      g_string_append(out, "NaN");
      return;
    }
  append_int(out, to_int64(up ? ceil(x) : floor(x)));
}

/* ---- aggregates over the correlation context ---- */

static gboolean
prepare_aggregate(PdbTemplateCall *call, const gchar *name, const gchar *const *words, GError **error)
{
  if (!words[0] || words[1])
    {
      pdb_tf_set_error(error, "$(%s) requires only one argument", name);
      return FALSE;
    }
  return pdb_tf_compile_words(call, name, words, -1, error);
}

typedef enum { AGG_SUM, AGG_MIN, AGG_MAX, AGG_AVERAGE } Aggregate;

static void
eval_aggregate(const PdbTemplateCall *call, const PdbTfEnv *env, GString *out)
{
  Aggregate kind = call->def->variant;
  guint count = pdb_tf_context_length(env);
  guint64 found = 0;
  gint64 acc = 0;
  GString *value = g_string_new(NULL);

  for (guint k = 0; k < count; k++)
    {
      PdbTfOneMessage one;
      gint64 n;

      pdb_tf_one_message_init(&one, env, count - 1 - k);
      g_string_truncate(value, 0);
      pdb_tf_append_arg(call, 0, &one.env, value);
      if (!pdb_tf_parse_dec(value->str, &n))
        continue;
      if (found++ == 0)
        acc = n;
      else if (kind == AGG_SUM || kind == AGG_AVERAGE)
        acc = (gint64) ((guint64) acc + (guint64) n);
      else if ((kind == AGG_MIN && n < acc) || (kind == AGG_MAX && n > acc))
        acc = n;
    }
  g_string_free(value, TRUE);
  if (found == 0)
    return;
  append_int(out, kind == AGG_AVERAGE ? acc / (gint64) found : acc);
}

const PdbTfDef pdb_tf_numeric_functions[] =
{
  { "+", NULL, eval_arithmetic, FALSE, '+' },
  { "-", NULL, eval_arithmetic, FALSE, '-' },
  { "*", NULL, eval_arithmetic, FALSE, '*' },
  { "/", NULL, eval_arithmetic, FALSE, '/' },
  { "%", NULL, eval_arithmetic, FALSE, '%' },
  { "round", NULL, eval_round, FALSE },
  { "ceil", NULL, eval_ceil_floor, FALSE, TRUE },
  { "floor", NULL, eval_ceil_floor, FALSE, FALSE },
  { "sum", prepare_aggregate, eval_aggregate, TRUE, AGG_SUM },
  { "min", prepare_aggregate, eval_aggregate, TRUE, AGG_MIN },
  { "max", prepare_aggregate, eval_aggregate, TRUE, AGG_MAX },
  { "average", prepare_aggregate, eval_aggregate, TRUE, AGG_AVERAGE },
  { NULL, NULL, NULL, FALSE, 0 },
};

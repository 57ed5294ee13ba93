/*
 * filter-expr.h: syslog-ng 3.38's filter expressions, as pattern databases
 * use them in <action condition="..."> and $(if), and as `patterndb match
 * -F` takes them. One implementation for all three; the syslog-ng module may
 * swap in the daemon's own compiler behind the same calls.
 *
 * The language (the lexer is db/filter-lex.h):
 *   E or E, E and E, not E, ( E ), E ; E (and), E ;
 *       `not` binds tightest, then `and`, then `or`, then `;`; keywords are
 *       lower case. Parsing stops after the first complete expression:
 *       whatever follows it is ignored unless it continues it (so
 *       `tags("a") OR tags("b")` is `tags("a")`), as in 3.38. A `#` comment
 *       must end with a newline: 3.38 crashes (SIGSEGV) while it loads a
 *       condition whose comment runs to the end; here it does not compile.
 *   A OP B          comparison of two operands: "template" or 'template' or
 *                   a bare word (a template), a number (int64), a float, or
 *                   a cast TYPE(string-or-number) with a 3.38 type name.
 *                   == != < > <= >=: numeric, both sides converted as C's
 *                   atoi() does on glibc (strtol, saturated at 64 bits, then
 *                   truncated to 32 bits: "4294967296" == "0"), unless either
 *                   operand is a number or a cast: then type-aware (see
 *                   db/filter-cmp.c). eq ne lt gt le ge: byte strings.
 *                   === !==: type and value.
 *   match(RE [value(NAME)] [template(T)] [type(..)] [flags(..)])
 *                   RE on value NAME, on the template T, else on
 *                   "$MSGHDR$MESSAGE"; the last of value()/template() counts
 *   program(RE ..), host(RE ..), message(RE ..), source(RE ..)
 *                   on PROGRAM, HOST, MESSAGE, SOURCE (source() defaults
 *                   to type(string): the whole name); flags(store-matches)
 *                   hands the groups of a matching regex to the subject;
 *                   type(pcre|posix|
 *                   string|glob), flags(ignore-case icase utf8 unicode
 *                   substring prefix store-matches global newline
 *                   disable-jit dupnames); string: the whole value, a prefix
 *                   or a substring; glob ignores ignore-case
 *   tags(T ...)     the message has any of the tags
 *   level(L ...), priority(), severity()   names or ranges `info..err`
 *   facility(F ...) names or ranges, or one number (the facility code)
 *   netmask(A[/bits|/mask]), netmask6(A[/bits])   the sender's address
 *                   (SOURCEIP; a message without one is 127.0.0.1 / ::1)
 *   in-list(FILE [value(]NAME[)])   the value is a line of FILE (read at
 *                   compile time, as 3.38: each line loses its last byte,
 *                   empty lines are skipped)
 *   filter(NAME) and filter plugins do not compile: pdbtool has no named
 *                   filters or plugins either.
 *
 * Everything the expression reads about a message comes from a
 * PdbFilterSubject: values and macros through a template lookup (index 0 is
 * the message the functions test: the newest of a correlation context;
 * templates in comparisons may look back with ${name}@N), PRI ("13" when
 * unset) for level() and facility(), SOURCEIP for netmask(), MSGHDR (else
 * built from LEGACY_MSGHDR, PROGRAM and PID), and tags through has_tag.
 */
#ifndef PDB_DB_FILTER_EXPR_H
#define PDB_DB_FILTER_EXPR_H

#include "db/template.h"

G_BEGIN_DECLS

/* The groups of a regex match that flags(store-matches) hands over. */
typedef struct
{
  guint count;                     /* $0..$(count-1), at most 256 */
  const gchar *const *values;      /* NULL for a group that took no part */
  const gsize *lengths;
  guint name_count;                /* named groups, in the order 3.38 stores them */
  const gchar *const *names;
  const guint *name_groups;        /* the group number of each name (< count) */
} PdbFilterGroups;

typedef struct
{
  PdbTemplateLookupFunc lookup;
  /* TRUE when the message at index 0 has @tag; NULL: read "TAGS" (a comma-separated list) */
  gboolean (*has_tag)(const gchar *tag, gpointer user_data);
  gpointer user_data;
  /* optional: flags(store-matches) of a regex that matched hands over its
   * groups, which 3.38 writes into the message: $0..$N replacing the
   * earlier ones, then each named group (that took part) under its name */
  void (*store_matches)(const PdbFilterGroups *groups, gpointer user_data);
} PdbFilterSubject;

typedef struct _PdbFilterExpr PdbFilterExpr;

/* NULL and @error (PDB_DB_ERROR_STRUCTURE, "column N: ...") when @text is
 * not an expression 3.38 accepts. */
PdbFilterExpr *pdb_filter_expr_compile(const gchar *text, GError **error);
void pdb_filter_expr_free(PdbFilterExpr *expr);
/* What 3.38 warns about while it compiles the text ("column N: ..."): match()
 * without value() or template(), a `$` before a value name, type(posix).
 * NULL when there is nothing. */
const GPtrArray *pdb_filter_expr_get_warnings(const PdbFilterExpr *expr);

gboolean pdb_filter_expr_eval(const PdbFilterExpr *expr, const PdbFilterSubject *subject);

/* ORs into *reads_context and MAXes into *max_index what the expression's
 * templates need from a correlation context. */
void pdb_filter_expr_scan(const PdbFilterExpr *expr, gboolean *reads_context, guint *max_index);

/* What an expression refers to, in the order 3.38 meets them while it
 * compiles the text (its name and tag numbering follows that order). */
typedef enum
{
  PDB_FILTER_REF_NAME,       /* a value name: match(value()), in-list() */
  PDB_FILTER_REF_TEMPLATE,   /* the text of a template (comparison operands, match(template())) */
  PDB_FILTER_REF_TAG,        /* tags() */
} PdbFilterRefKind;

typedef void (*PdbFilterRefFunc)(PdbFilterRefKind kind, const gchar *text, gpointer user_data);
void pdb_filter_expr_foreach_ref(const PdbFilterExpr *expr, PdbFilterRefFunc func, gpointer user_data);

/* 3.38's $MSGHDR from values: LEGACY_MSGHDR when set, else "PROGRAM[PID]: "
 * (no brackets without PID, empty without PROGRAM). */
void pdb_filter_append_msghdr(PdbTemplateLookupFunc lookup, gpointer user_data, GString *out);

/* The function list, for messages: "match(), program(), ..." */
#define PDB_FILTER_FUNCTIONS "match(), program(), host(), message(), source(), tags(), level(), facility(), netmask(), netmask6(), in-list() and comparisons"

G_END_DECLS

#endif

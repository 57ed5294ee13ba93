/*
 * template.h: the subset of syslog-ng's template language that pattern
 * databases use in <value> texts and context-id attributes.
 *
 *   literal text        copied as is; a `$` that starts nothing is literal
 *   $$                  a literal `$`
 *   $name               name runs over [A-Za-z0-9_] (so `$user.x` is
 *                       `${user}` followed by ".x", as in 3.38)
 *   ${name}             any name up to `}` (`${.classifier.class}`)
 *   ${name:-default}    `default` (literal text) when the value is unset or empty
 *   $_ ${_}             the CONTEXT_ID macro (PDB_TEMPLATE_CONTEXT_ID), as in 3.38
 *   ${name}@N           the value N messages back in the correlation
 *                       context; @0 is the current message. Beyond the
 *                       start of the context it is empty (the default too).
 *   $(call ...)@N       the call evaluated for the message N back, as a
 *                       context of that one message (@0 too:
 *                       `$(context-length)@0` is 1 in any context).
 *   ${name}@@ $(...)@@  a literal `@` (3.38: `${user}@@${tty}` is user@tty);
 *                       `@` followed by anything else than `@` or a digit
 *                       stays literal, and `@` after `$name` or text is
 *                       always literal (`$x@1` is the value then "@1").
 *
 * Type hints (3.38 `log_template_compile_with_type_hint`): a text that
 * starts with a letter or `_`, continues with [A-Za-z0-9_], optional blanks
 * and `(`, and ends with `)` is a cast `type(template)`. The type must be one
 * of string, literal, boolean, int, int32, int64, double, float, datetime,
 * list, json, null (exactly, case-sensitive, no blank before `(`), otherwise
 * the template does not compile ("Unknown type specified in type hinting"):
 * `a(b)` fails, `x a(b)`, `1a(b)`, `(b)` and `int64(x) ` are plain text.
 *
 * Template functions (db/template-func.c lists them and their 3.38 results):
 *   $(name arg...)      the call ends at the `)` that closes it; inside,
 *                       `\x` is x, "..." and '...' hide blanks and
 *                       parentheses (no escapes inside them), and a
 *                       parenthesised group keeps its quotes; words are
 *                       separated by blanks, quotes are removed, and each
 *                       word is compiled as a template (so calls nest:
 *                       `$(echo $(uppercase ${user}))`). `$()` is empty
 *                       and, as in 3.38, drops the literal text just
 *                       before it (`x$()y` is "y").
 *   An unknown function, an unclosed `$(` or quote is a compile error.
 *   $(context-length) asks the lookup function for the name "" at
 *   PDB_TEMPLATE_CONTEXT_LENGTH_INDEX; a lookup that answers NULL (no
 *   context) makes it 1, as 3.38 outside a context.
 *
 * A compiled PdbTemplate is immutable and may be evaluated by any number of
 * threads at once.
 */
#ifndef PDB_DB_TEMPLATE_H
#define PDB_DB_TEMPLATE_H

#include "engine/radix.h"

G_BEGIN_DECLS

typedef enum
{
  PDB_TYPE_HINT_NONE = 0,   /* no cast: a string */
  PDB_TYPE_HINT_STRING,
  PDB_TYPE_HINT_LITERAL,
  PDB_TYPE_HINT_BOOLEAN,
  PDB_TYPE_HINT_INT32,      /* "int" and "int32" */
  PDB_TYPE_HINT_INT64,
  PDB_TYPE_HINT_DOUBLE,     /* "double" and "float" */
  PDB_TYPE_HINT_DATETIME,
  PDB_TYPE_HINT_LIST,
  PDB_TYPE_HINT_JSON,
  PDB_TYPE_HINT_NULL,
} PdbTypeHint;

/* The accepted type names, for error messages: "string, literal, ..." */
#define PDB_TYPE_HINT_NAMES "string, literal, boolean, int, int32, int64, double, float, datetime, list, json, null"

/* Parses an exact type name; FALSE if @name is not one. */
gboolean pdb_type_hint_parse(const gchar *name, gssize length, PdbTypeHint *hint);
const gchar *pdb_type_hint_to_string(PdbTypeHint hint);
/* The engine's value type closest to @hint (ints -> INT64, double -> DOUBLE, others STRING). */
PdbValueType pdb_type_hint_to_value_type(PdbTypeHint hint);

typedef struct _PdbTemplate PdbTemplate;

/*
 * Compiles @text. With @with_type_hint (values), a cast is recognised as
 * described above; without it (context-id) the text is a plain template.
 * On error returns NULL and sets @error (PDB_DB_ERROR_TEMPLATE) with a
 * message that says what is wrong, without any file location.
 */
PdbTemplate *pdb_template_compile(const gchar *text, gboolean with_type_hint, GError **error);
void pdb_template_free(PdbTemplate *tmpl);

PdbTypeHint pdb_template_get_type_hint(const PdbTemplate *tmpl);
/* The largest @N of any ${name}@N reference (0 when none looks back). */
guint pdb_template_get_max_context_index(const PdbTemplate *tmpl);
/* TRUE when the template looks back (${name}@N, N > 0) or uses
 * $(context-length): its value depends on the correlation context. */
gboolean pdb_template_reads_context(const PdbTemplate *tmpl);
/* TRUE when the template is literal text only (no references). */
gboolean pdb_template_is_literal(const PdbTemplate *tmpl);
/* TRUE when expanding the template changes what it gives next time
 * ($(iterate)): callers must not expand it to probe what it reads. */
gboolean pdb_template_is_stateful(const PdbTemplate *tmpl);

/*
 * Looks up @name in the message @context_index messages back (0: the current
 * one). Returns NULL when unset; *length may be set to -1 for a NUL-terminated
 * value.
 */
typedef const gchar *(*PdbTemplateLookupFunc)(const gchar *name, guint context_index,
                                              gssize *length, gpointer user_data);

/* What a lookup function returns for ${name}@N when the context has no
 * message N back: as 3.38, the reference then writes nothing, not even its
 * `:-` default (an unset value of a message that exists gets the default). */
extern const gchar pdb_template_no_message[];

/* The context index at which a lookup function is asked for the number of
 * messages in the correlation context (name ""), as decimal text. */
#define PDB_TEMPLATE_CONTEXT_LENGTH_INDEX G_MAXUINT
/* The macro that names the correlation context (`$_` is the same); a
 * lookup may answer it, otherwise a correlation context's lookup is asked
 * for .classifier.context_id. $(map) and $(filter) set it to the element. */
#define PDB_TEMPLATE_CONTEXT_ID "CONTEXT_ID"
/* A name no value has: a lookup asked for it answers the names of every
 * value set in the message (context index 0), each followed by a NUL, with
 * their total length; NULL when it cannot list them. $(names) and
 * $(values) read it. */
#define PDB_TEMPLATE_VALUE_NAMES "\001names"
/* The largest N of ${name}@N kept (larger ones are beyond any context). */
#define PDB_TEMPLATE_MAX_CONTEXT_INDEX (G_MAXUINT - 1)

/* Appends the expansion of @tmpl to @out. */
void pdb_template_append(const PdbTemplate *tmpl, PdbTemplateLookupFunc lookup,
                         gpointer user_data, GString *out);

G_END_DECLS

#endif

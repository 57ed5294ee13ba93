/*
 * filter-node.h: inside db/filter-expr.h. The compiled tree, the parser
 * state the function parsers share, and one entry point per family of
 * filter functions (each in its own file):
 *
 *   filter-parse.c   not/and/or/;/( ), dispatch on the function name
 *   filter-cmp.c     comparisons (A OP B)
 *   filter-match.c   match(), program(), host(), message(), source()
 *   filter-pri.c     level()/priority()/severity(), facility()
 *   filter-net.c     netmask(), netmask6()
 *   filter-list.c    tags(), in-list()
 *   filter-eval.c    evaluation, scan, free, and the subject's helpers
 *
 * Invariant: a compiled tree is immutable; a function's state (`data`) is
 * owned by its node and freed through its ops. Evaluation may allocate
 * scratch memory but changes nothing shared, so threads may share a tree.
 */
#ifndef PDB_DB_FILTER_NODE_H
#define PDB_DB_FILTER_NODE_H

#include "db/filter-expr.h"
#include "db/filter-lex.h"

G_BEGIN_DECLS

typedef struct
{
  gboolean (*eval)(gconstpointer data, const PdbFilterSubject *subject);
  void (*free)(gpointer data);
  /* NULL when the function reads no template */
  void (*scan)(gconstpointer data, gboolean *reads_context, guint *max_index);
  /* NULL when the function refers to no name, template or tag */
  void (*refs)(gconstpointer data, PdbFilterRefFunc func, gpointer user_data);
} PdbFilterFuncOps;

typedef enum
{
  PDB_FILTER_NODE_AND,
  PDB_FILTER_NODE_OR,
  PDB_FILTER_NODE_NOT,       /* left only */
  PDB_FILTER_NODE_FUNC,      /* ops and data */
} PdbFilterNodeKind;

typedef struct _PdbFilterNode PdbFilterNode;
struct _PdbFilterNode
{
  PdbFilterNodeKind kind;
  PdbFilterNode *left, *right;
  const PdbFilterFuncOps *ops;
  gpointer data;
};

PdbFilterNode *pdb_filter_node_new_func(const PdbFilterFuncOps *ops, gpointer data);
void pdb_filter_node_free(PdbFilterNode *node);
gboolean pdb_filter_node_eval(const PdbFilterNode *node, const PdbFilterSubject *subject);
void pdb_filter_node_scan(const PdbFilterNode *node, gboolean *reads_context, guint *max_index);
void pdb_filter_node_refs(const PdbFilterNode *node, PdbFilterRefFunc func, gpointer user_data);

/* ---- the parser state ---- */

typedef struct
{
  PdbFilterLexer lx;
  GError **error;
  GPtrArray *warnings;       /* of gchar*, NULL until the first */
} PdbFilterParser;

/* Reads the next token. */
void pdb_filter_advance(PdbFilterParser *p);

/* Sets the error (the first one only) at byte @at; returns FALSE/NULL-ish. */
gboolean pdb_filter_fail(PdbFilterParser *p, gsize at, const gchar *format, ...) G_GNUC_PRINTF(3, 4);
/* Records a warning ("column N: ...") for the expression. */
void pdb_filter_warn(PdbFilterParser *p, gsize at, const gchar *format, ...) G_GNUC_PRINTF(3, 4);
/* Consumes a token of @kind or fails with "expected @what". */
gboolean pdb_filter_expect(PdbFilterParser *p, PdbFilterTokenKind kind, const gchar *what);
/* 3.38's `string`: a word or a quoted string; a new string, or NULL after failing. */
gchar *pdb_filter_parse_string(PdbFilterParser *p);
/* The current token as text for messages ("end of text" at the end). */
const gchar *pdb_filter_token_name(const PdbFilterParser *p);

/* Function parsers: called with the function's name as the current token.
 * Each returns a new node, or NULL after failing. */
PdbFilterNode *pdb_filter_parse_comparison(PdbFilterParser *p);
PdbFilterNode *pdb_filter_parse_match(PdbFilterParser *p);
PdbFilterNode *pdb_filter_parse_level(PdbFilterParser *p);
PdbFilterNode *pdb_filter_parse_facility(PdbFilterParser *p);
PdbFilterNode *pdb_filter_parse_netmask(PdbFilterParser *p);
PdbFilterNode *pdb_filter_parse_netmask6(PdbFilterParser *p);
PdbFilterNode *pdb_filter_parse_tags(PdbFilterParser *p);
PdbFilterNode *pdb_filter_parse_in_list(PdbFilterParser *p);

/* An operand (filter-cmp.c): a quoted template or word, a number, a float
 * or a cast; *hint and *source (each may be NULL) get its type and its
 * template text (a new string). NULL after failing. */
PdbTemplate *pdb_filter_parse_template(PdbFilterParser *p, PdbTypeHint *hint, gchar **source);

/* ---- evaluation helpers ---- */

/* The value @name of the message at index 0; "" when unset. */
const gchar *pdb_filter_subject_get(const PdbFilterSubject *subject, const gchar *name, gssize *length);

G_END_DECLS

#endif

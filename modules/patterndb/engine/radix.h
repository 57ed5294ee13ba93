/*
 * radix.h: the pattern-matching engine's public interface.
 *
 * A PdbRadix maps patterns (literal text mixed with @PARSER@ references)
 * to opaque values (a rule, or a program's ruleset). It is built once with
 * pdb_radix_insert(), frozen with pdb_radix_freeze(), and from then on it is
 * immutable: any number of threads may call pdb_radix_lookup() at the same
 * time without a lock. A reload builds a new tree and swaps a pointer.
 *
 * NODE LAYOUT AND MATCHING ORDER: see the comment block in radix-node.h
 * (the drawing of the tree, the two-pass search, and the precedence rules
 * that users rely on).
 *
 * Ownership: pdb_radix_new() returns a tree you own; free it with
 * pdb_radix_free(). Values are borrowed: the tree never frees them.
 * Strings passed in are copied. Captures point into the input buffer.
 */
#ifndef PDB_ENGINE_RADIX_H
#define PDB_ENGINE_RADIX_H

#include <glib.h>

G_BEGIN_DECLS

/* Where a pattern came from, for warnings and `dump` output. */
typedef struct _PdbLocation
{
  const gchar *file;   /* borrowed; may be NULL */
  gint line;
  gint column;
} PdbLocation;

typedef enum
{
  PDB_VALUE_STRING = 0,
  PDB_VALUE_INT64,     /* @NUMBER@ */
  PDB_VALUE_DOUBLE,    /* @FLOAT@ / @DOUBLE@ */
} PdbValueType;

/* One extracted value: a slice of the input, never a copy. */
typedef struct _PdbCapture
{
  const gchar *name;   /* owned by the tree (prefix already applied); never NULL */
  guint32 offset;      /* into the input given to pdb_radix_lookup() */
  guint32 length;
  PdbValueType type;
} PdbCapture;

#define PDB_MATCH_INLINE_CAPTURES 16

/*
 * The result of a lookup. Lives on the caller's stack; the common case
 * (<= PDB_MATCH_INLINE_CAPTURES values) allocates nothing.
 */
typedef struct _PdbMatch
{
  gpointer value;          /* the matched pattern's value, NULL if no match */
  const gchar *label;      /* the value's label (pdb_radix_set_label_func()), inline in the
                            * tree, not NUL-terminated; NULL if none */
  guint32 label_length;
  gboolean complete;       /* TRUE: the whole input was consumed; FALSE: prefix match */
  guint32 matched_length;  /* how much of the input the pattern covered */
  guint n_captures;
  guint capacity;
  PdbCapture *captures;    /* == inline_captures unless more were needed */
  guint64 steps;           /* work done (nodes visited + parser calls), for bound tests */
  PdbCapture inline_captures[PDB_MATCH_INLINE_CAPTURES];
} PdbMatch;

void pdb_match_init(PdbMatch *match);
/* Forgets the result; frees heap storage if the captures overflowed. */
void pdb_match_clear(PdbMatch *match);

typedef struct _PdbRadix PdbRadix;

typedef enum
{
  PDB_RADIX_ERROR_DUPLICATE,      /* same pattern already has a value; first one kept */
  PDB_RADIX_ERROR_UNKNOWN_PARSER, /* @FOO:x@ with an unknown type (types are case-sensitive) */
  PDB_RADIX_ERROR_STRAY_AT,       /* a single '@' that does not start a reference; write '@@' */
  PDB_RADIX_ERROR_BAD_PARAM,      /* missing or invalid parser parameter */
  PDB_RADIX_ERROR_PCRE,           /* the regular expression does not compile */
  PDB_RADIX_ERROR_FROZEN,         /* insert after pdb_radix_freeze() */
  PDB_RADIX_ERROR_EMPTY_PATTERN,  /* "": 3.38 accepts it but it never matches; we refuse it */
} PdbRadixError;

#define PDB_RADIX_ERROR pdb_radix_error_quark()
GQuark pdb_radix_error_quark(void);

PdbRadix *pdb_radix_new(void);
void pdb_radix_free(PdbRadix *radix);

/*
 * Labels: short byte strings stored inside the frozen tree next to each
 * value (a rule's id), so that a caller that only prints the label never
 * touches the value itself (one cache miss less per lookup on big trees).
 * pdb_radix_insert() calls @func once per pattern, while the value is
 * fresh in the cache, and the freeze copies the answer, which must stay
 * valid until then; a label longer than PDB_RADIX_MAX_LABEL bytes, or a
 * NULL answer, stores none (match->label is then NULL and the caller reads
 * the value). Set before the first insert.
 */
#define PDB_RADIX_MAX_LABEL 255
typedef const gchar *(*PdbRadixLabelFunc)(gpointer value, gsize *length);
void pdb_radix_set_label_func(PdbRadix *radix, PdbRadixLabelFunc func);

/* Every capture name inserted afterwards gets this prefix (db-parser prefix()). */
void pdb_radix_set_capture_prefix(PdbRadix *radix, const gchar *prefix);

/*
 * Inserts a pattern. On any problem returns FALSE, sets @error (a
 * PDB_RADIX_ERROR code whose message says what is wrong and what to write
 * instead) and leaves the tree as if the pattern had never been inserted.
 * The message already starts with "file:line:column: " (of the offending
 * '@' for syntax errors, of @location otherwise; "<pattern>" when
 * @location is NULL). @location is copied and shown by pdb_radix_dump().
 * @value must not be NULL.
 */
gboolean pdb_radix_insert(PdbRadix *radix, const gchar *pattern, gpointer value,
                          const PdbLocation *location, GError **error);

/*
 * pdb_radix_insert(), telling @func the capture names of the pattern's
 * parsers (as written, without the capture prefix), in pattern order,
 * once the whole pattern has parsed and before it goes into the tree (so
 * also when the insert then fails as a duplicate; a pattern that does not
 * parse tells nothing). A tree's parsers are shared by equal references,
 * and @func hears each parser's name only the first time that parser is
 * met by this function: callers that keep a set of names (the database's
 * name registry) lose nothing and skip the repeats without a lookup.
 * Unnamed parsers tell nothing.
 */
typedef void (*PdbRadixNameFunc)(const gchar *name, gpointer user_data);
gboolean pdb_radix_insert_telling_names(PdbRadix *radix, const gchar *pattern, gpointer value,
                                        const PdbLocation *location, PdbRadixNameFunc func,
                                        gpointer user_data, GError **error);

/* Compacts the tree for matching. No inserts after this; lookups, dump and
 * stats need it (they g_critical() on an unfrozen tree). */
void pdb_radix_freeze(PdbRadix *radix);
/*
 * Freezes @n_trees trees (those not frozen yet) like pdb_radix_freeze(),
 * with their records in one shared block when they are big together
 * (PDB_BLOB_REGION_MIN bytes or more), on 2 MiB pages if the kernel has
 * transparent huge pages: lookups on a big database then miss the TLB
 * far less (radix-region.c). Each tree is still freed on its own. Smaller
 * trees are malloc()ed: the last huge page is resident as a whole, which
 * would cost a 10,000-rule database more than its records.
 */
#define PDB_BLOB_REGION_MIN ((gsize) 8 * 1024 * 1024)
void pdb_radix_freeze_together(PdbRadix *const *trees, guint n_trees);
/* The same on up to @threads threads: with two or more, trees that need a
 * shared block are cut into two runs of about equal size, each frozen into
 * a block of its own, the second run on a thread of its own. */
void pdb_radix_freeze_together_on(PdbRadix *const *trees, guint n_trees, guint threads);

/*
 * The same one tree at a time, for a caller that spreads a database's
 * trees over threads itself (db/insert-worker.c): each thread freezes its
 * trees into a block of its own. pdb_radix_block_new() reserves @capacity
 * bytes of address space (nothing is touched before it is used) and
 * returns NULL below PDB_BLOB_REGION_MIN; a tree that does not fit in its
 * block (or with a NULL block) gets memory of its own. Each tree is still
 * freed on its own; pdb_radix_block_done() gives back what its trees did
 * not use.
 */
typedef struct _PdbBlobRegion PdbBlobRegion;
PdbBlobRegion *pdb_radix_block_new(gsize capacity);
void pdb_radix_freeze_in(PdbRadix *radix, PdbBlobRegion *block);
void pdb_radix_block_done(PdbBlobRegion *block);
/* The bytes the tree's frozen records may take (grows with each insert). */
gsize pdb_radix_get_blob_bound(const PdbRadix *radix);

/*
 * Matches @input (a byte buffer: NULs and invalid UTF-8 allowed; at most
 * 4 GiB) with the 3.38 precedence: a complete match anywhere wins; otherwise
 * the first prefix match in search order. Returns TRUE if @match->value was
 * set. @match must have been initialised with pdb_match_init(); it is reset
 * here (its heap storage, if any, is reused). Captures are listed in path
 * order; an unnamed parser (@NUMBER@) stores nothing.
 */
gboolean pdb_radix_lookup(const PdbRadix *radix, const gchar *input, gsize length,
                          PdbMatch *match);

/* Calls @func for every value whose pattern matches the whole @input, in
 * search order (rule-conflict detection in `patterndb test`). */
typedef void (*PdbRadixValueFunc)(gpointer value, gpointer user_data);
void pdb_radix_foreach_complete_match(const PdbRadix *radix, const gchar *input, gsize length,
                                      PdbRadixValueFunc func, gpointer user_data);

/*
 * A step of a traced lookup: which node of the winning path covered which
 * part of the input (`patterndb match -D`), or, for a failed lookup, how far
 * the best attempt got (`patterndb match --explain`).
 */
typedef struct _PdbTraceStep
{
  gboolean is_parser;
  const gchar *literal;     /* node's literal key (not NUL-terminated: literal_length) */
  guint32 literal_length;
  const gchar *parser_type; /* as 3.38 prints it: "ESTRING", "IP" (IPvANY), "UNKNOWN" (OPTIONALSET) */
  const gchar *parser_name; /* capture name, "" if unnamed */
  const gchar *parser_param;
  guint32 offset;           /* input offset where this node started */
  guint32 length;           /* input bytes this node consumed */
  guint32 value_offset;     /* parsers: the stored value (ESTRING without its delimiter, */
  guint32 value_length;     /* QSTRING without quotes); literals: same as offset/length */
} PdbTraceStep;

typedef struct _PdbTrace
{
  GArray *steps;            /* of PdbTraceStep along the winning (or deepest) path */
  guint32 furthest_offset;  /* deepest input offset any attempt reached */
  gpointer closest_value;   /* a value below the deepest node reached (for explanations) */
  GPtrArray *expected;      /* strings: what would have been accepted at furthest_offset:
                             * "'text'" for literal text, "@TYPE:name:param@" for a parser */
} PdbTrace;

void pdb_trace_init(PdbTrace *trace);
void pdb_trace_clear(PdbTrace *trace);
gboolean pdb_radix_lookup_traced(const PdbRadix *radix, const gchar *input, gsize length,
                                 PdbMatch *match, PdbTrace *trace);

/*
 * Writes the tree in pdbtool's `dump` layout: one line per node with its
 * depth in brackets, indentation, the literal key or @TYPE:name@ and its
 * [file:line:col], then what @describe_value appends for nodes with a value.
 */
typedef void (*PdbRadixDescribeFunc)(gpointer value, GString *out, gpointer user_data);
void pdb_radix_dump(const PdbRadix *radix, GString *out,
                    PdbRadixDescribeFunc describe_value, gpointer user_data);

/* A number given to the tree when it is frozen, never 0 and never given to
 * another tree of the process (for callers that cache lookup results: a
 * reloaded tree at the same address has a new serial). 0 before freezing. */
guint32 pdb_radix_get_serial(const PdbRadix *radix);

/* Statistics for benchmarks and `patterndb dump --stats`. */
typedef struct _PdbRadixStats
{
  gsize nodes;
  gsize parser_nodes;
  gsize values;
  gsize bytes;             /* memory held by the tree */
} PdbRadixStats;
void pdb_radix_get_stats(const PdbRadix *radix, PdbRadixStats *stats);

G_END_DECLS

#endif

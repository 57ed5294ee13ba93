/*
 * radix-node.h: the radix tree's nodes, engine-internal.
 *
 * THE TREE
 * ========
 * Patterns are cut into elements: literal text, a literal '@' (written
 * `@@`, always a node of its own) and parser references. Literal text is
 * path-compressed; a parser reference is a node of its own with an empty
 * key. Inserting, in this order,
 *
 *   1 "user @STRING:u@ logged in"     3 "user @STRING:u@ logged out"
 *   2 "user root logged in"           4 "user @ESTRING:x: @x"
 *
 * gives
 *
 *   [''] --u--> ['user ']
 *                  |-- literal 'r' --> ['root logged in'] = 2
 *                  |-- parser #0 ----> [@STRING:u@] --' '--> [' logged ']
 *                  |                                          |-- 'i' -> ['in']  = 1
 *                  |                                          `-- 'o' -> ['out'] = 3
 *                  `-- parser #1 ----> [@ESTRING:x: @] --'x'--> ['x'] = 4
 *
 * Every node has at most one literal child per first byte (a common prefix
 * is split into an intermediate node: inserting "user rot" would split
 * 'root logged in' into 'ro' -> {'ot logged in', 't'}), and an ordered list
 * of parser children in INSERTION ORDER. A parser node is shared only when
 * kind, capture name and param are all equal (`@STRING:a@` and
 * `@STRING:b@` are two siblings). The first pattern that reaches a node
 * with a value keeps it; a later identical pattern is a
 * PDB_RADIX_ERROR_DUPLICATE and changes nothing.
 *
 * THE FROZEN LAYOUT
 * =================
 * pdb_radix_freeze() writes every node as one variable-size record into a
 * single byte array (`blob`), in depth-first pre-order: a node's first
 * child follows it directly, a subtree is one contiguous range, and the
 * path a lookup walks down is mostly forward in memory. A node is named by
 * the byte offset of its record (the root is at 0). For the tree above:
 *
 *   blob: [''] ['user '] ['root logged in'=2] [@STRING:u@] [' logged '] ['in'=1] ['out'=3] [@ESTRING:x: @] ['x'=4]
 *           |     |  children: 'r' -> ['root..'], #0 -> [@STRING:u@], #1 -> [@ESTRING..]
 *           |     `- (right after its parent: the first child)
 *           `- children: 'u' -> ['user ']
 *
 *   one record (starts at a multiple of 4)
 *   +------------+----------+-----------+-------+
 *   | key_length | n_parser | n_literal | flags |  PdbFrozenNode, 8 bytes
 *   |    u16     |   u16    |    u16    |  u16  |
 *   +------------+----------+-----------+-------+-------------------+
 *   | only if flags has PDB_NODE_WIDE (a key of 64 KiB or more, or  |
 *   |   65,536 parser children or more): key_length, n_parser as   |
 *   |   u32 x 2, and the u16 fields above are not used             |
 *   | key bytes, inline                       key_length           |
 *   | first byte of each literal child        n_literal            |
 *   | padding to 4                                                 |
 *   | child offsets: literal children (by first byte), then        |
 *   |   parser children (insertion order)     u32 x (n_literal + n_parser)
 *   | parser of each parser child: start set  u32 x n_parser       |
 *   |   id << 24 | index in parser_table      (PDB_PARSER_INDEX_BITS)
 *   | value, if flags has PDB_NODE_HAS_VALUE  pointer (unaligned)  |
 *   | label, if flags has PDB_NODE_HAS_LABEL  u8 length + bytes    |
 *   | padding to 4                                                 |
 *   +--------------------------------------------------------------+
 *
 * The fixed part is 8 bytes because the records a lookup visits are its
 * cache misses (at 1,000-10,000 rules most of the L1 misses of a
 * message): the key, its first bytes and the child offsets must share the
 * cache line the visit touches first. What only `dump`
 * and tracing need is not in the record: a parser node's location is in
 * parser_nodes (sorted by record offset, found by binary search,
 * pdb_frozen_parser_node()), and the node with a value that explains a
 * non-match is found by walking the subtree's records
 * (pdb_frozen_any_value(): pre-order, so the first record with a value).
 *
 * So a visit reads one record: the key compare starts right after the
 * fixed part, literal dispatch scans the first-byte list, and a parser
 * child is tried by its index in `parser_table` without touching the
 * child's record. Each DISTINCT parser reference is compiled once per tree
 * (`parsers`, shared through the build-time parser cache) and copied by
 * value into the contiguous, cache-line aligned `parser_table` together
 * with its start set (pdb_parser_start_set(): every byte an accepted input
 * can start with) and a copy of a short param; a parser child whose start
 * set lacks the next input byte is skipped without running it, and the
 * start sets the filter reads are the tree's distinct ones (`start_sets`,
 * a few lines that stay in cache). What a parser node has of its own (its
 * location, for `dump`) is in `parser_nodes`.
 * Nothing is allocated, copied or locked per lookup (captures are offsets
 * into the caller's buffer). The label (a rule's id, given by the
 * tree's label function at insert) sits right after the value, in the
 * record the walk has just read, so printing it costs no further miss.
 * The trees of a big database keep their blobs in one region on huge
 * pages (radix-region.c), so that the walk's jumps miss the TLB less.
 *
 * On a big blob a visit also prefetches the few cache lines after its
 * record: in pre-order they hold the first child and, on the unbranched
 * tail of a path (every path of a large database ends in one: a chain of
 * literal and parser nodes leading to one rule), the rest of the path
 * (radix-lookup.c, PDB_PREFETCH_LINES).
 *
 * The build-time tree lives in a bump arena (radix-arena.c) that is
 * dropped in one go after the freeze; keys are cut from it once and shared
 * by the nodes a split creates. Inserting also counts a bound of the
 * blob's size (blob_bound), so that the freeze writes it in one walk.
 *
 * THE MATCHING ORDER (the contract users rely on; 3.38 semantics)
 * ==================
 * visit(node, offset):
 *   a. Match the node's literal key at offset. A CR in the input is
 *      skipped where the key has LF (CRLF input matches LF patterns). On a
 *      mismatch, or if the input ends inside the key, the node fails.
 *   b. Input exhausted exactly at the node's end: a COMPLETE match if the
 *      node has a value, else the node fails. Parsers are not tried on an
 *      empty rest (so ANYSTRING, OPTIONALSET, NLSTRING never match "").
 *   c. LITERAL CHILD FIRST: the child whose key starts with the next input
 *      byte (input "\r\n" counts as "\n" here), if any, is visited.
 *   d. ONLY IF THAT FAILS, PARSER CHILDREN IN INSERTION ORDER: each parser
 *      whose first-byte filter accepts the next byte is run; the parser
 *      alone fixes how much it consumes (greedy, no alternative lengths:
 *      we never backtrack inside one parser's length); its child is
 *      visited at offset + consumed. On failure its capture is dropped and
 *      the next parser is tried (backtracking).
 *   e. If everything below failed and the node has a value, it is a
 *      PARTIAL (prefix) candidate and the node fails.
 * The lookup is the first COMPLETE match in this order; if there is none,
 * the FIRST PARTIAL candidate in this order (3.38 runs the search twice,
 * "pass 1" and "pass 2"; we get the same answer in one pass by keeping a
 * copy of the captures of the first candidate). The remaining input after
 * a prefix match is ignored.
 *
 * THE BOUND ON WORK
 * =================
 * A node is entered only from its parent, and a parent tries each child at
 * most once, at the single offset where the parent ended. By induction
 * every node is visited at most once per lookup, at one offset (the path
 * from the root is unique and every step on it is deterministic). So a
 * lookup does at most N node visits and at most P parser calls (N nodes,
 * P parser nodes in the tree): `steps` <= N + P <= 2N, whatever the input,
 * and backtracking can never go exponential; a failed (node, offset) pair
 * never recurs, so no memo table is needed. Time is O(sum over visited
 * parser nodes of the parser's scan) <= O(P x input length), plus the
 * literal comparisons (each input byte compared by at most one node per
 * path). PCRE parsers are bounded by PDB_PCRE_MATCH_LIMIT.
 * tests/unit/test-engine-bounds.c checks steps <= N + P on pathological
 * trees (5000 parser siblings, 3^7 alternative paths, 300-deep chains over
 * 64 KiB of delimiters) and that the search there really was exhaustive.
 * Recursion depth is at most the number of nodes on one path (a node whose
 * last alternative is a single child continues in the same frame).
 */
#ifndef PDB_ENGINE_RADIX_NODE_H
#define PDB_ENGINE_RADIX_NODE_H

#include "engine/radix.h"
#include "engine/parser.h"
#include "engine/pattern.h"

#include <string.h>

G_BEGIN_DECLS

#define PDB_NO_PARSER G_MAXUINT32

/* --- the bump allocator of the build-time tree (radix-arena.c) --- */
typedef struct _PdbArena PdbArena;
PdbArena *pdb_arena_new(void);
void pdb_arena_free(PdbArena *arena);
gpointer pdb_arena_alloc(PdbArena *arena, gsize size);
gpointer pdb_arena_alloc0(PdbArena *arena, gsize size);
gchar *pdb_arena_strndup(PdbArena *arena, const gchar *s, gsize length);
gsize pdb_arena_size(const PdbArena *arena);

/* --- one block for the blobs of trees frozen together (radix-region.c) --- */
#define PDB_BLOB_REGION_ALIGN ((gsize) 64)   /* each blob starts on a cache line */
/* NULL when the system refuses the mapping (callers then use malloc). */
PdbBlobRegion *pdb_blob_region_new(gsize capacity);
/* Where the next blob goes if it takes at most @bound bytes, or NULL. */
guchar *pdb_blob_region_reserve(PdbBlobRegion *region, gsize bound);
/* The blob at the reserved place took @size bytes; its tree holds a reference. */
void pdb_blob_region_keep(PdbBlobRegion *region, const guchar *blob, gsize size);
/* Unmaps the part no blob was put in. */
void pdb_blob_region_trim(PdbBlobRegion *region);
void pdb_blob_region_unref(PdbBlobRegion *region);
/* pdb_radix_freeze_together_on() with another threshold for the region
 * (tests). */
void pdb_radix_freeze_together_above(PdbRadix *const *trees, guint n_trees, gsize region_min, guint threads);

/* --- the build-time tree (radix-build.c); everything lives in the arena --- */
typedef struct _PdbBuildNode PdbBuildNode;
struct _PdbBuildNode      /* 64 bytes on 64-bit: a 100,000-rule database has about 500,000 */
{
  union
  {
    const gchar *key;      /* literal nodes: the key (may be ""), not NUL-terminated */
    const gchar *file;     /* parser nodes: location of the pattern that created it (interned) */
  };
  PdbParser *parser;       /* borrowed from PdbRadix.parser_cache; NULL for literal nodes */
  gpointer value;
  const gchar *label;      /* the label function's answer for value, asked at insert while
                            * the value is hot in cache (the freeze only copies it); or NULL */
  PdbBuildNode **children; /* n_children literal children sorted by first byte, then
                            * n_pchildren parser children in insertion order; behind
                            * its capacity pointers, the literal children's first
                            * key bytes (radix-build.c) */
  guint32 key_length;      /* 0 for parser nodes */
  guint32 n_pchildren;
  guint32 capacity;        /* of children */
  guint16 n_children;      /* <= 256: one per first byte */
  guint8 has_value;
  guint8 label_length;     /* <= PDB_RADIX_MAX_LABEL */
  gint32 line, column;     /* parser nodes: location of the pattern that created it */
};

static inline PdbBuildNode *
pdb_build_pchild(const PdbBuildNode *node, guint32 i)
{
  return node->children[node->n_children + i];
}

/* Frees the build-time tree and the parser cache. */
void pdb_radix_release_build(PdbRadix *radix);
/* Frees what pdb_radix_freeze() built (radix-freeze.c); safe on an unfrozen tree. */
void pdb_radix_free_frozen(PdbRadix *radix);

/* --- the frozen tree (radix-freeze.c) --- */

/* The fixed part of a node record; the variable part follows it (see THE
 * FROZEN LAYOUT above). Records start at multiples of 4 in PdbRadix.blob
 * and a node is named by the byte offset of its record. Read the key
 * length and the number of parser children with pdb_frozen_key_length()
 * and pdb_frozen_n_parser(): a record with PDB_NODE_WIDE (a key of 64 KiB
 * or more, or 65,536 parser children or more) has them as two u32 right
 * after the fixed part and the u16 fields are not used. */
typedef struct _PdbFrozenNode
{
  guint16 key_length;
  guint16 n_parser;        /* parser children */
  guint16 n_literal;       /* literal children (<= 256: one per first byte) */
  guint16 flags;
} PdbFrozenNode;

/* What a node's record can take in the blob besides its key, value and
 * label: the fixed part, wide counts, padding twice, and the first byte,
 * child offset and parser index its parent keeps for it. Inserting adds
 * this up (blob_bound) so that the freeze can write in one walk. */
#define PDB_RECORD_BOUND (sizeof(PdbFrozenNode) + 2 * sizeof(guint32) + 3 + 1 + 2 * sizeof(guint32) + 3)

G_STATIC_ASSERT(sizeof(PdbFrozenNode) == 8);

#define PDB_NO_NODE G_MAXUINT32

#define PDB_NODE_HAS_VALUE 0x1
#define PDB_NODE_KEY_HAS_LF 0x2   /* key contains '\n': use the CRLF-aware compare */
#define PDB_NODE_HAS_LABEL 0x4    /* the value is followed by its label (u8 length, bytes) */
#define PDB_NODE_IS_PARSER 0x8    /* a parser node: its PdbParserNode is in parser_nodes */
#define PDB_NODE_WIDE 0x10        /* key length and parser count are u32 after the fixed part */

#define PDB_NODE_NARROW_MAX G_MAXUINT16

#define PDB_CACHE_LINE 64
#define PDB_FROZEN_PARAM_INLINE 32

/* A distinct compiled parser (equal references share one entry), with the
 * bytes an input it accepts can start with. Entries start on cache lines
 * (parser_table is allocated aligned), so what a parse reads first (parse,
 * param, capture_name) is one line, and a short param (ESTRING's
 * delimiter) is copied into the entry instead of being another miss. */
typedef struct _PdbFrozenParser
{
  PdbParser parser;        /* a copy; the strings belong to PdbRadix.parsers[i], but param
                            * points to param_copy below when that holds it */
  PdbByteSet starts;       /* pdb_parser_start_set() */
  gchar param_copy[PDB_FROZEN_PARAM_INLINE];
} __attribute__((aligned(PDB_CACHE_LINE))) PdbFrozenParser;

/* A parser child's entry in a record: its parser's index into
 * parser_table in the low PDB_PARSER_INDEX_BITS bits, and in the top 8
 * bits the index of the parser's start set in start_sets (equal sets are
 * stored once, so the first-byte filter reads a few hot cache lines and
 * touches the parser's own entry only when the byte passes), or
 * PDB_START_SET_OWN when the tree has more than 255 distinct start sets:
 * then parser_table[i].starts is used. */
#define PDB_PARSER_INDEX_BITS 24
#define PDB_PARSER_INDEX_MASK ((1u << PDB_PARSER_INDEX_BITS) - 1)
#define PDB_START_SET_OWN 255u

/* What a parser node has of its own: where it was written. parser_nodes
 * is in pre-order, so sorted by offset (pdb_frozen_parser_node()). */
typedef struct _PdbParserNode
{
  PdbLocation location;
  guint32 parser;          /* index into parsers / parser_table */
  guint32 offset;          /* the node's record */
} PdbParserNode;

struct _PdbRadix
{
  gboolean frozen;
  gchar *capture_prefix;
  GStringChunk *strings;   /* interned location file names */
  const gchar *last_file;  /* the caller's file name of the last interned location, and */
  const gchar *last_file_copy; /* its copy in strings: a loader passes one pointer per file */
  PdbBuildNode *root;      /* until frozen */
  PdbArena *arena;         /* holds root and everything below it, until frozen */
  GHashTable *parser_cache;/* "prefix@reference" -> PdbParser: every parser of the build tree */
  GArray *elements;        /* while building: one pattern's elements, empty between inserts */
  gsize blob_bound;        /* while building: at least the blob's size (the freeze allocates
                            * this much and writes in one walk, instead of measuring first) */
  guint32 n_nodes;         /* counted while building */
  guint32 n_parser_nodes;  /* counted while building */

  /* after freeze */
  guchar *blob;            /* node records, depth-first pre-order; the root is at 0 */
  PdbBlobRegion *region;   /* holds blob when frozen together with other trees, else NULL
                            * (blob is then malloc()ed) */
  gsize blob_size;
  gsize n_values;
  PdbParser **parsers;     /* distinct parsers (owned) */
  PdbFrozenParser *parser_table;   /* the same, by value, contiguous (lookups read these) */
  guint32 n_parsers;
  PdbByteSet *start_sets; /* distinct start sets of parser_table (at most 255) */
  guint32 n_start_sets;
  PdbParserNode *parser_nodes; /* n_parser_nodes, in blob order */
  PdbRadixLabelFunc label_func;    /* labels stored next to values at freeze, or NULL */
  guint32 serial;          /* pdb_radix_get_serial() */
};

static inline const PdbFrozenNode *
pdb_frozen_node(const PdbRadix *r, guint32 offset)
{
  return (const PdbFrozenNode *) (r->blob + offset);
}

static inline gboolean
pdb_frozen_is_wide(const PdbFrozenNode *n)
{
  return (n->flags & PDB_NODE_WIDE) != 0;
}

static inline guint32
pdb_frozen_key_length(const PdbFrozenNode *n)
{
  guint32 v;

  if (G_LIKELY(!pdb_frozen_is_wide(n)))
    return n->key_length;
  memcpy(&v, n + 1, sizeof(v));
  return v;
}

static inline guint32
pdb_frozen_n_parser(const PdbFrozenNode *n)
{
  guint32 v;

  if (G_LIKELY(!pdb_frozen_is_wide(n)))
    return n->n_parser;
  memcpy(&v, (const guchar *) (n + 1) + sizeof(guint32), sizeof(v));
  return v;
}

/* The variable part, in this order: the key (right after the fixed part,
 * so that the first compare touches the record's first cache line), the
 * first byte of each literal child, padding to 4, the child offsets, the
 * parser index of each parser child, and the value if the node has one. */
static inline const guchar *
pdb_frozen_key(const PdbFrozenNode *n)
{
  return (const guchar *) (n + 1) + (pdb_frozen_is_wide(n) ? 2 * sizeof(guint32) : 0);
}

/* The first key byte of each literal child. */
static inline const guchar *
pdb_frozen_first_bytes(const PdbFrozenNode *n)
{
  return pdb_frozen_key(n) + pdb_frozen_key_length(n);
}

/* The child offsets of a record whose first-byte list is at @first
 * (for callers that already have it), aligned to 4 after the list. */
static inline const guint32 *
pdb_frozen_children_after(const guchar *first, guint n_literal)
{
  guintptr end = (guintptr) (first + n_literal);

  return (const guint32 *) ((end + 3) & ~(guintptr) 3);
}

/* Child offsets: literal children (by first byte), then parser children. */
static inline const guint32 *
pdb_frozen_children(const PdbFrozenNode *n)
{
  return pdb_frozen_children_after(pdb_frozen_first_bytes(n), n->n_literal);
}

/* The parser (index into parser_table) of each parser child. */
static inline const guint32 *
pdb_frozen_child_parsers(const PdbFrozenNode *n)
{
  return pdb_frozen_children(n) + n->n_literal + pdb_frozen_n_parser(n);
}

/* Only for nodes with PDB_NODE_HAS_VALUE. */
static inline gpointer
pdb_frozen_value(const PdbFrozenNode *n)
{
  gpointer v;

  memcpy(&v, pdb_frozen_child_parsers(n) + pdb_frozen_n_parser(n), sizeof(v));
  return v;
}

/* Only for nodes with PDB_NODE_HAS_LABEL: the label's length byte, then its bytes. */
static inline const guchar *
pdb_frozen_label(const PdbFrozenNode *n)
{
  return (const guchar *) (pdb_frozen_child_parsers(n) + pdb_frozen_n_parser(n)) + sizeof(gpointer);
}

/* The size of @n's record (to its padded end: the next record in pre-order starts there). */
static inline gsize
pdb_frozen_record_size(const PdbFrozenNode *n)
{
  const guchar *end = (const guchar *) (pdb_frozen_child_parsers(n) + pdb_frozen_n_parser(n));

  if (n->flags & PDB_NODE_HAS_VALUE)
    end += sizeof(gpointer);
  if (n->flags & PDB_NODE_HAS_LABEL)
    end += 1 + end[0];
  return (((gsize) (end - (const guchar *) n)) + 3) & ~(gsize) 3;
}

static inline guint32
pdb_child_parser_index(guint32 packed)
{
  return packed & PDB_PARSER_INDEX_MASK;
}

/* The start set of a parser child (see PDB_PARSER_INDEX_BITS). */
static inline const PdbByteSet *
pdb_child_parser_starts(const PdbRadix *r, guint32 packed)
{
  guint32 set = packed >> PDB_PARSER_INDEX_BITS;

  if (G_LIKELY(set != PDB_START_SET_OWN))
    return &r->start_sets[set];
  return &r->parser_table[packed & PDB_PARSER_INDEX_MASK].starts;
}

/* The PdbParserNode of a parser node (binary search by offset), NULL for a literal node. */
const PdbParserNode *pdb_frozen_parser_node(const PdbRadix *r, const PdbFrozenNode *n);

/* The parser of a parser node, NULL for a literal node. */
static inline const PdbParser *
pdb_frozen_node_parser(const PdbRadix *r, const PdbFrozenNode *n)
{
  const PdbParserNode *pn = pdb_frozen_parser_node(r, n);

  return pn ? r->parsers[pn->parser] : NULL;
}

/* The first node with a value in pre-order in @offset's subtree (what a
 * non-match is explained with), or PDB_NO_NODE. Walks the subtree's
 * records (contiguous in pre-order) until one has a value. */
guint32 pdb_frozen_any_value(const PdbRadix *r, guint32 offset);

G_END_DECLS

#endif

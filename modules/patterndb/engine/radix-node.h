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
 * pdb_radix_freeze() copies the tree breadth-first into one array of
 * 32-byte PdbFrozenNode, so that the children of a node are contiguous:
 *
 *   nodes[n.children ..]                       literal children, sorted by first byte
 *   nodes[n.children + n.n_literal ..]         parser children, insertion order
 *   first_bytes[n.children .. + n.n_literal]   their first key bytes (memchr dispatch)
 *
 *   PdbFrozenNode (32 bytes)
 *   +------------+------------+----------+----------+-----------+-------+--------+-------+
 *   | key_offset | key_length | children | n_parser | n_literal | flags | parser | value |
 *   |    u32     |    u32     |   u32    |   u32    |    u16    |  u16  |  u32   |  ptr  |
 *   +------------+------------+----------+----------+-----------+-------+--------+-------+
 *
 * Keys live in one byte pool (`keys`), parsers in `parsers` (parser nodes
 * index it; literal nodes have PDB_NO_PARSER). Nothing is allocated, copied
 * or locked per lookup (captures are offsets into the caller's buffer).
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

G_BEGIN_DECLS

#define PDB_NO_PARSER G_MAXUINT32

/* --- pattern elements (pattern-parse.c) --- */
typedef enum
{
  PDB_ELEMENT_LITERAL,     /* text without '@' */
  PDB_ELEMENT_AT,          /* a literal '@' (from "@@"): always its own node */
  PDB_ELEMENT_PARSER,
} PdbElementKind;

typedef struct _PdbElement
{
  PdbElementKind kind;
  const gchar *text;       /* LITERAL/AT: points into the pattern */
  gsize length;
  PdbParser *parser;       /* PARSER: owned by the element until inserted */
} PdbElement;

/* Splits @pattern into elements (GArray of PdbElement). Errors name the
 * location (file:line:column of the offending character). */
GArray *pdb_pattern_parse(const gchar *pattern, const gchar *capture_prefix,
                          const PdbLocation *location, GError **error);
void pdb_pattern_free(GArray *elements);

/* --- the bump allocator of the build-time tree (radix-arena.c) --- */
typedef struct _PdbArena PdbArena;
PdbArena *pdb_arena_new(void);
void pdb_arena_free(PdbArena *arena);
gpointer pdb_arena_alloc(PdbArena *arena, gsize size);
gpointer pdb_arena_alloc0(PdbArena *arena, gsize size);
gchar *pdb_arena_strndup(PdbArena *arena, const gchar *s, gsize length);
gsize pdb_arena_size(const PdbArena *arena);

/* --- the build-time tree (radix-build.c); everything lives in the arena --- */
typedef struct _PdbBuildNode PdbBuildNode;
struct _PdbBuildNode
{
  const gchar *key;        /* literal key (may be ""), NULL for parser nodes; not NUL-terminated */
  guint32 key_length;
  gboolean has_value;
  PdbParser *parser;       /* listed in PdbRadix.build_parsers; NULL for literal nodes */
  gpointer value;
  PdbBuildNode **children; /* literal children sorted by first byte */
  PdbBuildNode **pchildren;/* parser children in insertion order */
  guint32 n_children, cap_children;
  guint32 n_pchildren, cap_pchildren;
};

/* Frees the build-time tree and the parsers still in build_parsers. */
void pdb_radix_release_build(PdbRadix *radix);
/* Frees what pdb_radix_freeze() built (radix-freeze.c); safe on an unfrozen tree. */
void pdb_radix_free_frozen(PdbRadix *radix);

/* --- the frozen tree (radix-freeze.c) --- */
typedef struct _PdbFrozenNode
{
  guint32 key_offset;
  guint32 key_length;
  guint32 children;        /* index of the first child in nodes[] */
  guint32 n_parser;
  guint16 n_literal;
  guint16 flags;
  guint32 parser;          /* index into parsers, or PDB_NO_PARSER */
  gpointer value;
} PdbFrozenNode;

#define PDB_NODE_HAS_VALUE 0x1
#define PDB_NODE_KEY_HAS_LF 0x2   /* key contains '\n': use the CRLF-aware compare */

struct _PdbRadix
{
  gboolean frozen;
  gchar *capture_prefix;
  GStringChunk *strings;   /* interned location file names */
  PdbBuildNode *root;      /* until frozen */
  PdbArena *arena;         /* holds root and everything below it, until frozen */
  GPtrArray *build_parsers;/* every parser in the build tree (owned), until frozen */

  /* after freeze */
  PdbFrozenNode *nodes;
  guint32 n_nodes;
  guchar *first_bytes;     /* first key byte of each node (literal dispatch) */
  guchar *keys;
  gsize keys_length;
  PdbParser **parsers;
  guint32 n_parsers;
  guint32 *any_value;      /* per node: a node with a value in its subtree, or G_MAXUINT32 */
  gsize n_values;
};

G_END_DECLS

#endif

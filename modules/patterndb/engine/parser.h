/*
 * parser.h: the field parsers (@STRING@, @NUMBER@, ...), engine-internal.
 *
 * A PdbParser is compiled once from the text of a reference
 * (`TYPE:name:param`) and is then immutable, so any number of threads may
 * call its parse function at once. A parse function looks at a byte buffer
 * with an explicit length (never past it, never relying on a NUL), decides
 * alone how many bytes it consumes (there are no alternative lengths: the
 * tree never backtracks inside one parser), and says which slice of the
 * consumed bytes is the stored value (QSTRING strips quotes, ESTRING drops
 * its delimiter, EMAIL drops the strip characters).
 *
 * The tree only calls a parser with at least one byte of input, and only
 * when that first byte is in its start set (pdb_parser_start_set(), a
 * subset of [first, last], the first-byte filter that pdb_parser_run()
 * applies).
 */
#ifndef PDB_ENGINE_PARSER_H
#define PDB_ENGINE_PARSER_H

#include "engine/radix.h"

G_BEGIN_DECLS

typedef enum
{
  PDB_PARSER_STRING,
  PDB_PARSER_ESTRING,
  PDB_PARSER_QSTRING,
  PDB_PARSER_NUMBER,
  PDB_PARSER_FLOAT,       /* also written DOUBLE */
  PDB_PARSER_IPV4,
  PDB_PARSER_IPV6,
  PDB_PARSER_IPVANY,
  PDB_PARSER_MACADDR,
  PDB_PARSER_LLADDR,
  PDB_PARSER_EMAIL,
  PDB_PARSER_HOSTNAME,
  PDB_PARSER_SET,
  PDB_PARSER_OPTIONALSET,
  PDB_PARSER_ANYSTRING,
  PDB_PARSER_NLSTRING,
  PDB_PARSER_PCRE,
} PdbParserKind;

/* What one successful parse produced, relative to the parser's start. */
typedef struct _PdbParseResult
{
  gsize consumed;
  gsize value_offset;
  gsize value_length;
} PdbParseResult;

/* The common outcome: the parser consumed @n bytes and stores all of them. */
static inline gboolean
pdb_parse_result_whole(PdbParseResult *r, gsize n)
{
  r->value_offset = 0;
  r->consumed = r->value_length = n;
  return TRUE;
}

typedef struct _PdbParser PdbParser;
typedef gboolean (*PdbParseFunc)(const PdbParser *parser, const guchar *input, gsize avail,
                                 PdbParseResult *result);

/* A set of bytes, for STRING's extra characters, SET, OPTIONALSET and
 * EMAIL's strip characters. The NUL byte is never a member. */
typedef struct _PdbByteSet
{
  guint32 bits[8];
} PdbByteSet;

static inline gboolean
pdb_byte_set_has(const PdbByteSet *set, guchar c)
{
  return (set->bits[c >> 5] >> (c & 31)) & 1;
}

void pdb_byte_set_init(PdbByteSet *set, const gchar *chars);

/* Field order matters: what a parse reads (up to lladdr_parts) fits the
 * first 64 bytes, so running a frozen parser touches one cache line of its
 * table entry (plus the set for STRING-like kinds, the param copy for
 * ESTRING); what only loading and dumping read comes last. */
struct _PdbParser
{
  PdbParserKind kind;
  PdbParseFunc parse;
  guchar first, last;       /* first-byte filter, inclusive (unsigned bytes) */
  PdbValueType value_type;
  gchar *param;             /* NULL when the reference has no 3rd part; "" is distinct */
  gchar *capture_name;      /* prefix + name; NULL when unnamed (matched, not stored) */

  /* compiled state, by kind */
  gsize delim_length;             /* ESTRING (delimiter is param) */
  guchar open_char, close_char;   /* QSTRING */
  gboolean has_set;
  guint lladdr_parts;             /* LLADDR, MACADDR */
  PdbByteSet set;           /* STRING extras, SET, OPTIONALSET, EMAIL strip */
  gpointer pcre;                  /* PCRE: PdbPcre, see parser-pcre.c */

  gchar *type_text;         /* as written: "DOUBLE", "QSTRING_X" ... */
  gchar *name;              /* as written; NULL or "" when unnamed */
  guint ref_count;                /* pdb_parser_ref() / pdb_parser_free() */
  guint32 table_index;            /* a tree's parser cache: place in its frozen parser table */
  gboolean name_told;             /* pdb_radix_insert_telling_names() has told its name */
};

/*
 * Compiles the reference text between the two '@' (e.g. "ESTRING:user: ").
 * @capture_prefix may be NULL. Returns NULL and sets a PDB_RADIX_ERROR on an
 * unknown type, a missing/invalid parameter or a bad regex; the message does
 * not carry a location (the caller adds it).
 */
PdbParser *pdb_parser_new(const gchar *reference, const gchar *capture_prefix, GError **error);
/* A parser is reference-counted (a tree compiles each distinct reference
 * once and shares it); pdb_parser_free() drops one reference. */
PdbParser *pdb_parser_ref(PdbParser *parser);
void pdb_parser_free(PdbParser *parser);

/* Nodes are shared when kind, capture name and param are all equal. */
gboolean pdb_parser_equal(const PdbParser *a, const PdbParser *b);

/* The name 3.38 prints in `dump` and `match -D`: "IP" for IPvANY,
 * "UNKNOWN" for OPTIONALSET, "FLOAT" for DOUBLE. */
const gchar *pdb_parser_display_type(const PdbParser *parser);

/*
 * Every byte an input this parser accepts can start with (a superset: a
 * byte outside it means the parser fails on any input starting with it,
 * whatever follows). Already within [first, last]. The tree keeps one per
 * distinct parser to skip failing parser children without running them.
 */
void pdb_parser_start_set(const PdbParser *parser, PdbByteSet *starts);

/* "STRING, ESTRING, ..." for error messages. */
const gchar *pdb_parser_known_types(void);

static inline gboolean
pdb_parser_run(const PdbParser *parser, const guchar *input, gsize avail, PdbParseResult *result)
{
  if (input[0] < parser->first || input[0] > parser->last)
    return FALSE;
  return parser->parse(parser, input, avail, result);
}

/* The parse functions, one per family file. */
gboolean pdb_parser_parse_string(const PdbParser *p, const guchar *in, gsize avail, PdbParseResult *r);
gboolean pdb_parser_parse_estring(const PdbParser *p, const guchar *in, gsize avail, PdbParseResult *r);
gboolean pdb_parser_parse_qstring(const PdbParser *p, const guchar *in, gsize avail, PdbParseResult *r);
gboolean pdb_parser_parse_set(const PdbParser *p, const guchar *in, gsize avail, PdbParseResult *r);
gboolean pdb_parser_parse_optionalset(const PdbParser *p, const guchar *in, gsize avail, PdbParseResult *r);
gboolean pdb_parser_parse_anystring(const PdbParser *p, const guchar *in, gsize avail, PdbParseResult *r);
gboolean pdb_parser_parse_nlstring(const PdbParser *p, const guchar *in, gsize avail, PdbParseResult *r);
gboolean pdb_parser_parse_number(const PdbParser *p, const guchar *in, gsize avail, PdbParseResult *r);
gboolean pdb_parser_parse_float(const PdbParser *p, const guchar *in, gsize avail, PdbParseResult *r);
gboolean pdb_parser_parse_ipv4(const PdbParser *p, const guchar *in, gsize avail, PdbParseResult *r);
gboolean pdb_parser_parse_ipv6(const PdbParser *p, const guchar *in, gsize avail, PdbParseResult *r);
gboolean pdb_parser_parse_ipvany(const PdbParser *p, const guchar *in, gsize avail, PdbParseResult *r);
gboolean pdb_parser_parse_lladdr(const PdbParser *p, const guchar *in, gsize avail, PdbParseResult *r);
gboolean pdb_parser_parse_email(const PdbParser *p, const guchar *in, gsize avail, PdbParseResult *r);
gboolean pdb_parser_parse_hostname(const PdbParser *p, const guchar *in, gsize avail, PdbParseResult *r);
gboolean pdb_parser_parse_pcre(const PdbParser *p, const guchar *in, gsize avail, PdbParseResult *r);

/* parser-pcre.c: compile/free the PCRE state (anchored, JIT, match limit). */
gboolean pdb_parser_pcre_compile(PdbParser *parser, GError **error);
void pdb_parser_pcre_free(PdbParser *parser);

/* The PCRE match limit: a regex that needs more backtracking steps than
 * this on one input fails instead of running for a long time. */
#define PDB_PCRE_MATCH_LIMIT 100000

G_END_DECLS

#endif

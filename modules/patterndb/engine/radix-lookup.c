/*
 * radix-lookup.c: matching an input against the frozen tree, following
 * THE MATCHING ORDER of radix-node.h, in three flavours: the plain lookup,
 * the traced lookup (`match -D`, explaining non-matches) and "every
 * complete match" (rule conflicts in `patterndb test`).
 *
 * Invariant: the tree is only read; all per-lookup state lives in a
 * Lookup on the caller's stack; the common case (<= 16 captures, no
 * trace) allocates nothing. Captures are (offset, length) slices of the
 * caller's buffer, pushed when a parser matches and popped when the
 * subtree below it fails, so at any time they describe the current path.
 */
#include "engine/radix-node.h"

#include <string.h>

#define PDB_TRACE_MAX_EXPECTED 32

/* A node's first child, and the rest of a path that branches no more, are
 * the records right after it (pre-order): on a blob of at least
 * PDB_PREFETCH_MIN_BLOB bytes, each visit prefetches the next
 * PDB_PREFETCH_LINES cache lines, so that walking a chain costs about one
 * memory latency instead of one per node (measured: about -25% of the
 * lookup's CPU time at 100,000 rules, 450 KB per program tree; at 10,000
 * rules, 45 KB per tree, it gained nothing, so smaller trees skip it).
 * Prefetching past the blob's end is harmless (prefetches never fault). */
#define PDB_PREFETCH_LINES 5
#define PDB_PREFETCH_MIN_BLOB (256 * 1024)

typedef struct _Lookup
{
  const PdbRadix *r;
  const guchar *in;
  gsize len;
  PdbMatch *match;

  /* foreach mode: every complete match is reported and the search goes on */
  PdbRadixValueFunc each;
  gpointer each_data;

  /* the first partial (prefix) candidate in search order */
  gboolean have_partial;
  gpointer partial_value;
  const PdbFrozenNode *partial_node;
  gsize partial_length;
  guint n_partial;
  guint partial_capacity;
  PdbCapture *partial_captures;

  guint64 steps;           /* copied to match->steps at the end */
  gboolean prefetch;       /* the blob is big: prefetch the records that follow a visited one */

  /* traced lookups only */
  PdbTrace *trace;
  GArray *path;            /* of PdbTraceStep: the current path */
  GArray *partial_path;    /* copy of path at the first partial candidate */

  /* last: not initialised by _lookup_init() */
  PdbCapture partial_inline[PDB_MATCH_INLINE_CAPTURES];
} Lookup;

static void
_captures_reserve(PdbCapture **captures, guint *capacity, PdbCapture *inline_storage, guint needed)
{
  guint new_capacity;

  if (needed <= *capacity)
    return;
  new_capacity = MAX(needed, *capacity * 2);
  if (*captures == inline_storage)
    {
      PdbCapture *heap = g_new(PdbCapture, new_capacity);
      memcpy(heap, inline_storage, sizeof(PdbCapture) * *capacity);
      *captures = heap;
    }
  else
    *captures = g_renew(PdbCapture, *captures, new_capacity);
  *capacity = new_capacity;
}

static inline void
_push_capture(Lookup *l, const PdbParser *parser, gsize pos, const PdbParseResult *res)
{
  PdbMatch *m = l->match;

  if (G_UNLIKELY(m->n_captures == m->capacity))
    _captures_reserve(&m->captures, &m->capacity, m->inline_captures, m->n_captures + 1);
  PdbCapture *c = &m->captures[m->n_captures++];
  c->name = parser->capture_name;
  c->offset = pos + res->value_offset;
  c->length = res->value_length;
  c->type = parser->value_type;
}

static void
_save_partial(Lookup *l, const PdbFrozenNode *n, gsize pos)
{
  PdbMatch *m = l->match;

  l->have_partial = TRUE;
  l->partial_value = pdb_frozen_value(n);
  l->partial_node = n;
  l->partial_length = pos;
  _captures_reserve(&l->partial_captures, &l->partial_capacity, l->partial_inline, m->n_captures);
  memcpy(l->partial_captures, m->captures, sizeof(PdbCapture) * m->n_captures);
  l->n_partial = m->n_captures;
  if (l->trace)
    {
      g_array_set_size(l->partial_path, 0);
      g_array_append_vals(l->partial_path, l->path->data, l->path->len);
    }
}

/* The result's value and label from the node that has them. */
static inline void
_set_value(PdbMatch *m, const PdbFrozenNode *n)
{
  m->value = pdb_frozen_value(n);
  if (n->flags & PDB_NODE_HAS_LABEL)
    {
      const guchar *label = pdb_frozen_label(n);

      m->label = (const gchar *) label + 1;
      m->label_length = label[0];
    }
}

/* --- tracing (only when l->trace is set) --- */

static gchar *
_describe_node(const PdbRadix *r, guint32 index)
{
  const PdbFrozenNode *n = pdb_frozen_node(r, index);
  const PdbParser *p = pdb_frozen_node_parser(r, n);

  if (p)
    return g_strdup_printf("@%s:%s%s%s@", p->type_text, p->name ? p->name : "",
                           p->param ? ":" : "", p->param ? p->param : "");
  return g_strdup_printf("'%.*s'", (int) pdb_frozen_key_length(n), pdb_frozen_key(n));
}

/* Something failed at input offset @pos in the subtree of @index, and
 * @expected (owned) would have been accepted there. */
static void
_note(Lookup *l, guint32 index, gsize pos, gchar *expected)
{
  PdbTrace *t = l->trace;

  if (pos > t->furthest_offset || (pos == 0 && t->expected->len == 0))
    {
      t->furthest_offset = pos;
      g_ptr_array_set_size(t->expected, 0);
      g_array_set_size(t->steps, 0);
      g_array_append_vals(t->steps, l->path->data, l->path->len);
      guint32 any = pdb_frozen_any_value(l->r, index);
      t->closest_value = any != PDB_NO_NODE ? pdb_frozen_value(pdb_frozen_node(l->r, any)) : NULL;
    }
  if (pos == t->furthest_offset && t->expected->len < PDB_TRACE_MAX_EXPECTED)
    {
      for (guint i = 0; i < t->expected->len; i++)
        if (strcmp(g_ptr_array_index(t->expected, i), expected) == 0)
          {
            g_free(expected);
            return;
          }
      g_ptr_array_add(t->expected, expected);
      return;
    }
  g_free(expected);
}

static void
_note_children(Lookup *l, guint32 index, gsize pos)
{
  const PdbFrozenNode *n = pdb_frozen_node(l->r, index);
  const guint32 *children = pdb_frozen_children(n);
  guint32 count = (guint32) n->n_literal + pdb_frozen_n_parser(n);

  if (count == 0)
    _note(l, index, pos, g_strdup("nothing more (the pattern ended before the message)"));
  for (guint32 c = 0; c < count; c++)
    _note(l, index, pos, _describe_node(l->r, children[c]));
}

static void
_push_step(Lookup *l, const PdbFrozenNode *n, const PdbParser *p, gsize pos, gsize length,
           const PdbParseResult *res)
{
  PdbTraceStep s = { 0 };

  s.is_parser = p != NULL;
  if (p)
    {
      s.parser_type = pdb_parser_display_type(p);
      s.parser_name = p->name ? p->name : "";
      s.parser_param = p->param;
    }
  else
    {
      s.literal = (const gchar *) pdb_frozen_key(n);
      s.literal_length = pdb_frozen_key_length(n);
    }
  s.offset = pos;
  s.length = length;
  s.value_offset = res ? pos + res->value_offset : pos;
  s.value_length = res ? res->value_length : length;
  g_array_append_val(l->path, s);
}

/* --- the search --- */

static inline guint64
_load64(const guchar *p)
{
  guint64 v;
  memcpy(&v, p, 8);
  return v;
}

static inline guint32
_load32(const guchar *p)
{
  guint32 v;
  memcpy(&v, p, 4);
  return v;
}

/* Equality of two byte strings with word loads (overlapping at the end), no call. */
static inline gboolean
_bytes_equal(const guchar *a, const guchar *b, gsize n)
{
  if (n >= 8)
    {
      for (; n > 8; a += 8, b += 8, n -= 8)
        if (_load64(a) != _load64(b))
          return FALSE;
      return _load64(a + n - 8) == _load64(b + n - 8);
    }
  if (n >= 4)
    return _load32(a) == _load32(b) && _load32(a + n - 4) == _load32(b + n - 4);
  if (n >= 2)
    return a[0] == b[0] && a[1] == b[1] && a[n - 1] == b[n - 1];
  return n == 0 || a[0] == b[0];
}

/* The literal child of @n (first-byte list @first) whose key starts with @c, or -1. */
static inline gint
_literal_child(const PdbFrozenNode *n, const guchar *first, guchar c)
{
  if (n->n_literal == 1)
    return first[0] == c ? 0 : -1;
  if (n->n_literal <= 8)
    {
      for (guint k = 0; k < n->n_literal; k++)
        if (first[k] == c)
          return k;
      return -1;
    }
  const guchar *hit = memchr(first, c, n->n_literal);
  return hit ? hit - first : -1;
}

/*
 * Compares the node's key with the input at @off (CR skipped where the key
 * has LF). Returns TRUE and the input offset after the key if the whole key
 * matched. On a mismatch it returns FALSE; when tracing it also says where
 * the difference is (*end in the input, *key_end in the key).
 */
static inline gboolean
_match_key(const Lookup *l, const PdbFrozenNode *n, const guchar *key, gsize klen, gsize off,
           gsize *end, gsize *key_end)
{
  const guchar *in = l->in + off;
  gsize avail = l->len - off;
  gsize i = 0, j = 0;

  if (G_LIKELY(!(n->flags & PDB_NODE_KEY_HAS_LF)))
    {
      if (avail >= klen && _bytes_equal(in, key, klen))
        {
          *end = off + klen;
          *key_end = klen;
          return TRUE;
        }
      if (G_LIKELY(!l->trace))
        return FALSE;
    }
  while (i < avail && j < klen)
    {
      if (in[i] == '\r' && key[j] == '\n')
        {
          i++;
          if (i == avail)
            break;
        }
      if (in[i] != key[j])
        break;
      i++;
      j++;
    }
  *end = off + i;
  *key_end = j;
  return j == klen;
}

static gboolean
_visit(Lookup *l, guint32 index, gsize off)
{
  const PdbRadix *r = l->r;
  const PdbFrozenNode *n;
  const guint32 *children;
  guint path_mark = G_UNLIKELY(l->trace) ? l->path->len : 0;
  guint entry_captures = l->match->n_captures;
  gsize pos, key_pos;
  guint32 n_parser, key_length;
  const guchar *key, *first;

  /* Nodes whose only remaining alternative is one child continue here
   * instead of recursing; a failure anywhere below unwinds to this frame's
   * entry state (captures, trace path). */
again:
  n = pdb_frozen_node(r, index);
  if (l->prefetch)
    for (guint line = 1; line <= PDB_PREFETCH_LINES; line++)
      __builtin_prefetch((const guchar *) n + 64 * line);
  l->steps++;
  /* the record's fields once per visit (the accessors check PDB_NODE_WIDE each time) */
  if (G_LIKELY(!pdb_frozen_is_wide(n)))
    {
      key = (const guchar *) (n + 1);
      key_length = n->key_length;
      n_parser = n->n_parser;
    }
  else
    {
      key = pdb_frozen_key(n);
      key_length = pdb_frozen_key_length(n);
      n_parser = pdb_frozen_n_parser(n);
    }
  first = key + key_length;
  /* a. the node's literal key at off (CRLF input matches LF keys) */
  if (!_match_key(l, n, key, key_length, off, &pos, &key_pos))
    {
      if (G_UNLIKELY(l->trace))
        {
          /* the deepest path shows the part of the key that did match */
          if (key_pos > 0)
            {
              _push_step(l, n, NULL, off, pos - off, NULL);
              g_array_index(l->path, PdbTraceStep, l->path->len - 1).literal_length = key_pos;
            }
          _note(l, index, pos, g_strdup_printf("'%.*s'", (int) (key_length - key_pos),
                                               key + key_pos));
        }
      goto fail;
    }
  if (G_UNLIKELY(l->trace) && key_length)
    _push_step(l, n, NULL, off, pos - off, NULL);

  /* b. input exhausted at the node's end: complete if it has a value;
   * parsers never run on an empty rest */
  if (pos == l->len)
    {
      if (n->flags & PDB_NODE_HAS_VALUE)
        {
          if (!l->each)
            {
              _set_value(l->match, n);
              l->match->complete = TRUE;
              l->match->matched_length = pos;
              return TRUE;
            }
          l->each(pdb_frozen_value(n), l->each_data);
        }
      else if (G_UNLIKELY(l->trace))
        _note_children(l, index, pos);
      goto fail;
    }

  children = pdb_frozen_children_after(first, n->n_literal);

  /* c. literal child first */
  if (n->n_literal)
    {
      gsize cpos = pos;
      guchar c = l->in[pos];
      gint k;

      if (c == '\r' && pos + 1 < l->len && l->in[pos + 1] == '\n')
        {
          cpos++;
          c = '\n';
        }
      k = _literal_child(n, first, c);
      if (k >= 0)
        {
          /* nothing to fall back to here: continue in the child without recursing */
          if (n_parser == 0 && !(n->flags & PDB_NODE_HAS_VALUE))
            {
              index = children[k];
              off = cpos;
              goto again;
            }
          if (_visit(l, children[k], cpos))
            return TRUE;
        }
      else if (G_UNLIKELY(l->trace))
        for (guint32 m = 0; m < n->n_literal; m++)
          _note(l, index, pos, _describe_node(r, children[m]));
    }

  /* d. then parser children in insertion order, backtracking; a parser
   * whose start set lacks the next byte is skipped without being run */
  if (n_parser)
    {
      const guint32 *pchildren = children + n->n_literal;
      const guint32 *pindex = pchildren + n_parser;
      guchar c = l->in[pos];

      for (guint32 k = 0; k < n_parser; k++)
        {
          guint32 packed = pindex[k];
          const PdbFrozenParser *fp = &r->parser_table[pdb_child_parser_index(packed)];
          const PdbParser *parser = &fp->parser;
          PdbParseResult res;
          guint saved = l->match->n_captures;

          l->steps++;
          /* the shared start set (a few hot lines) before the parser's own entry */
          if (!pdb_byte_set_has(pdb_child_parser_starts(r, packed), c))
            {
              if (G_UNLIKELY(l->trace))
                _note(l, pchildren[k], pos, _describe_node(r, pchildren[k]));
              continue;
            }
          __builtin_prefetch(r->blob + pchildren[k]);   /* overlaps the parse */
          if (!parser->parse(parser, l->in + pos, l->len - pos, &res))
            {
              if (G_UNLIKELY(l->trace))
                _note(l, pchildren[k], pos, _describe_node(r, pchildren[k]));
              continue;
            }
          if (parser->capture_name)
            _push_capture(l, parser, pos, &res);
          if (G_UNLIKELY(l->trace))
            _push_step(l, NULL, parser, pos, res.consumed, &res);
          if (k + 1 == n_parser && !(n->flags & PDB_NODE_HAS_VALUE))
            {
              index = pchildren[k];
              off = pos + res.consumed;
              goto again;
            }
          if (_visit(l, pchildren[k], pos + res.consumed))
            return TRUE;
          l->match->n_captures = saved;
          if (G_UNLIKELY(l->trace))
            g_array_set_size(l->path, l->path->len - 1);
        }
    }

  /* e. a prefix candidate */
  if ((n->flags & PDB_NODE_HAS_VALUE) && !l->have_partial && !l->each)
    _save_partial(l, n, pos);

fail:
  l->match->n_captures = entry_captures;
  if (G_UNLIKELY(l->trace))
    g_array_set_size(l->path, path_mark);
  return FALSE;
}

static void
_lookup_init(Lookup *l, const PdbRadix *r, const gchar *input, gsize length, PdbMatch *match)
{
  /* field by field: the partial_* values are only read once have_partial
   * is set, path and partial_path only when tracing */
  l->r = r;
  l->in = (const guchar *) input;
  l->len = length;
  l->match = match;
  l->each = NULL;
  l->each_data = NULL;
  l->have_partial = FALSE;
  l->n_partial = 0;
  l->partial_captures = l->partial_inline;
  l->partial_capacity = PDB_MATCH_INLINE_CAPTURES;
  l->steps = 0;
  l->prefetch = r->blob_size >= PDB_PREFETCH_MIN_BLOB;
  l->trace = NULL;
  l->path = l->partial_path = NULL;

  match->value = NULL;
  match->label = NULL;
  match->label_length = 0;
  match->complete = FALSE;
  match->matched_length = 0;
  match->n_captures = 0;
  match->steps = 0;
}

static gboolean
_run(Lookup *l)
{
  PdbMatch *m = l->match;
  gboolean found;

  if (!l->r->frozen)
    {
      g_critical("pdb_radix_lookup() on a tree that was not frozen with pdb_radix_freeze()");
      return FALSE;
    }
  if (l->len > G_MAXUINT32)
    return FALSE;
  found = _visit(l, 0, 0);
  m->steps = l->steps;
  if (!found && l->have_partial)
    {
      _set_value(m, l->partial_node);
      m->complete = FALSE;
      m->matched_length = l->partial_length;
      _captures_reserve(&m->captures, &m->capacity, m->inline_captures, l->n_partial);
      memcpy(m->captures, l->partial_captures, sizeof(PdbCapture) * l->n_partial);
      m->n_captures = l->n_partial;
      found = TRUE;
      if (l->trace)
        {
          g_array_set_size(l->trace->steps, 0);
          g_array_append_vals(l->trace->steps, l->partial_path->data, l->partial_path->len);
        }
    }
  else if (found && l->trace)
    {
      g_array_set_size(l->trace->steps, 0);
      g_array_append_vals(l->trace->steps, l->path->data, l->path->len);
    }
  if (!found)
    m->n_captures = 0;
  if (l->partial_captures != l->partial_inline)
    g_free(l->partial_captures);
  return found;
}

gboolean
pdb_radix_lookup(const PdbRadix *radix, const gchar *input, gsize length, PdbMatch *match)
{
  Lookup l;

  _lookup_init(&l, radix, input, length, match);
  return _run(&l);
}

void
pdb_radix_foreach_complete_match(const PdbRadix *radix, const gchar *input, gsize length,
                                 PdbRadixValueFunc func, gpointer user_data)
{
  PdbMatch match;
  Lookup l;

  pdb_match_init(&match);
  _lookup_init(&l, radix, input, length, &match);
  l.each = func;
  l.each_data = user_data;
  _run(&l);
  pdb_match_clear(&match);
}

void
pdb_trace_init(PdbTrace *trace)
{
  memset(trace, 0, sizeof(*trace));
  trace->steps = g_array_new(FALSE, TRUE, sizeof(PdbTraceStep));
  trace->expected = g_ptr_array_new_with_free_func(g_free);
}

void
pdb_trace_clear(PdbTrace *trace)
{
  if (trace->steps)
    g_array_free(trace->steps, TRUE);
  if (trace->expected)
    g_ptr_array_free(trace->expected, TRUE);
  memset(trace, 0, sizeof(*trace));
}

gboolean
pdb_radix_lookup_traced(const PdbRadix *radix, const gchar *input, gsize length,
                        PdbMatch *match, PdbTrace *trace)
{
  Lookup l;
  gboolean found;

  _lookup_init(&l, radix, input, length, match);
  g_array_set_size(trace->steps, 0);
  g_ptr_array_set_size(trace->expected, 0);
  trace->furthest_offset = 0;
  trace->closest_value = NULL;
  l.trace = trace;
  l.path = g_array_new(FALSE, TRUE, sizeof(PdbTraceStep));
  l.partial_path = g_array_new(FALSE, TRUE, sizeof(PdbTraceStep));
  found = _run(&l);
  g_array_free(l.path, TRUE);
  g_array_free(l.partial_path, TRUE);
  return found;
}

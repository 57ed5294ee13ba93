/*
 * radix-build.c: creating a tree and inserting patterns into the mutable
 * build-time tree (see radix-node.h for the shape and the rules).
 *
 * Invariant: pdb_radix_insert() either inserts the whole pattern or leaves
 * the tree exactly as it was. It first parses the pattern (every syntax,
 * parser and regex error happens there), then walks the tree read-only to
 * detect a duplicate, and only then mutates; the mutation cannot fail.
 * (Parsers compiled for a refused pattern may stay in the tree's parser
 * cache; they are never reached.) Nodes, keys and child arrays are cut
 * from the tree's arena and never freed one by one; parser nodes borrow
 * their compiled parser from the cache, which owns it.
 *
 * The insert algorithm, per literal element, at node N with text s:
 *   case 1: s is empty: stay at N.
 *   case 2: N has no literal child starting with s[0]: add child s; go there.
 *   case 3: the child C's key is a prefix of s: go to C with the rest of s.
 *   case 4: s and C's key share only a prefix of length k < |C.key|:
 *           split C at k (C keeps key[0..k), a new node takes key[k..],
 *           C's value and children), then continue at C with s[k..].
 * A parser element goes to the parser child equal to it, or a new one
 * appended at the end of the list (insertion order is matching order).
 */
#include "engine/radix-node.h"

#include <string.h>

G_DEFINE_QUARK(pdb-radix-error-quark, pdb_radix_error)

void
pdb_match_init(PdbMatch *match)
{
  /* the inline captures are only read below n_captures: not cleared */
  memset(match, 0, offsetof(PdbMatch, inline_captures));
  match->captures = match->inline_captures;
  match->capacity = PDB_MATCH_INLINE_CAPTURES;
}

void
pdb_match_clear(PdbMatch *match)
{
  if (match->captures && match->captures != match->inline_captures)
    g_free(match->captures);
  pdb_match_init(match);
}

static PdbBuildNode *
_node_new(PdbRadix *self)
{
  self->n_nodes++;
  self->blob_bound += PDB_RECORD_BOUND;
  return pdb_arena_alloc0(self->arena, sizeof(PdbBuildNode));
}

/* @key must live in the arena (keys are never copied again: a split
 * shares the bytes of the node it splits). */
static PdbBuildNode *
_node_new_literal(PdbRadix *self, const gchar *key, gsize length)
{
  PdbBuildNode *node = _node_new(self);

  node->key = key;
  node->key_length = length;
  self->blob_bound += length;
  return node;
}

/* The parser cache's hash (keys are references such as "@ESTRING:user: @",
 * looked up for every parser of every pattern): 8 bytes at a time. */
static guint
_reference_hash(gconstpointer key)
{
  const gchar *s = key;
  gsize length = strlen(s);
  guint64 h = (guint64) length * G_GUINT64_CONSTANT(0x9E3779B97F4A7C15);
  guint64 word;

  for (; length >= 8; s += 8, length -= 8)
    {
      memcpy(&word, s, 8);
      h = (h ^ word) * G_GUINT64_CONSTANT(0xFF51AFD7ED558CCD);
      h ^= h >> 29;
    }
  word = 0;
  memcpy(&word, s, length);
  h = (h ^ word) * G_GUINT64_CONSTANT(0xFF51AFD7ED558CCD);
  return (guint) (h ^ (h >> 32));
}

PdbRadix *
pdb_radix_new(void)
{
  PdbRadix *self = g_new0(PdbRadix, 1);

  self->strings = g_string_chunk_new(256);
  self->arena = pdb_arena_new();
  self->parser_cache = g_hash_table_new_full(_reference_hash, g_str_equal, g_free,
                                             (GDestroyNotify) pdb_parser_free);
  self->root = _node_new_literal(self, "", 0);
  return self;
}

void
pdb_radix_free(PdbRadix *self)
{
  if (!self)
    return;
  pdb_radix_release_build(self);
  pdb_radix_free_frozen(self);
  g_free(self->capture_prefix);
  g_string_chunk_free(self->strings);
  g_free(self);
}

/* Drops the build-time tree in one go (the arena), and the cache's
 * references to the parsers (a frozen tree holds its own). */
void
pdb_radix_release_build(PdbRadix *self)
{
  if (self->parser_cache)
    {
      g_hash_table_destroy(self->parser_cache);
      self->parser_cache = NULL;
    }
  if (self->elements)
    {
      g_array_free(self->elements, TRUE);
      self->elements = NULL;
    }
  pdb_arena_free(self->arena);
  self->arena = NULL;
  self->root = NULL;
}

void
pdb_radix_set_label_func(PdbRadix *self, PdbRadixLabelFunc func)
{
  if (self->frozen || self->n_nodes > 1)
    {
      /* labels are asked for at insert */
      g_critical("pdb_radix_set_label_func() after the first insert");
      return;
    }
  self->label_func = func;
}

void
pdb_radix_set_capture_prefix(PdbRadix *self, const gchar *prefix)
{
  g_free(self->capture_prefix);
  self->capture_prefix = g_strdup(prefix);
}

/* The first key bytes of a node's literal children, in their order: kept
 * right behind the capacity pointers of its children block, so that a
 * search reads one small array instead of every child it probes. */
static inline guchar *
_firsts(const PdbBuildNode *node)
{
  return (guchar *) (node->children + node->capacity);
}

/* Binary search by first byte (unsigned); *index = insertion point. */
static PdbBuildNode *
_find_literal_child(const PdbBuildNode *node, guchar c, guint *index)
{
  const guchar *firsts = node->n_children ? _firsts(node) : NULL;
  guint lo = 0, hi = node->n_children;

  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      guchar k = firsts[mid];

      if (k == c)
        {
          if (index)
            *index = mid;
          return node->children[mid];
        }
      if (k < c)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (index)
    *index = lo;
  return NULL;
}

static PdbBuildNode *
_find_parser_child(const PdbBuildNode *node, const PdbParser *parser)
{
  for (guint i = 0; i < node->n_pchildren; i++)
    {
      PdbBuildNode *child = pdb_build_pchild(node, i);
      if (pdb_parser_equal(child->parser, parser))
        return child;
    }
  return NULL;
}

static gsize
_common_prefix(const gchar *a, gsize alen, const gchar *b, gsize blen)
{
  gsize n = 0, m = MIN(alen, blen);

  while (n < m && a[n] == b[n])
    n++;
  return n;
}

/* Makes room for one more child in a node's arena-backed children block
 * (doubling; the old block is abandoned to the arena). The block holds
 * capacity pointers, then capacity first bytes (_firsts()). */
static void
_grow(PdbRadix *self, PdbBuildNode *node)
{
  guint32 len = (guint32) node->n_children + node->n_pchildren;

  if (len < node->capacity)
    return;
  guint32 new_capacity = node->capacity ? node->capacity * 2 : 2;
  PdbBuildNode **fresh = pdb_arena_alloc(self->arena, (sizeof(PdbBuildNode *) + 1) * new_capacity);

  if (len)
    memcpy(fresh, node->children, sizeof(PdbBuildNode *) * len);
  if (node->n_children)
    memcpy(fresh + new_capacity, _firsts(node), node->n_children);
  node->children = fresh;
  node->capacity = new_capacity;
}

static void
_add_literal_child(PdbRadix *self, PdbBuildNode *node, PdbBuildNode *child)
{
  guint index;

  _find_literal_child(node, (guchar) child->key[0], &index);
  _grow(self, node);
  /* the parser children behind move up too */
  memmove(node->children + index + 1, node->children + index,
          sizeof(PdbBuildNode *) * (node->n_children + node->n_pchildren - index));
  node->children[index] = child;
  guchar *firsts = _firsts(node);
  memmove(firsts + index + 1, firsts + index, node->n_children - index);
  firsts[index] = (guchar) child->key[0];
  node->n_children++;
}

/* Case 4: keeps key[0..k) in @node, moves the rest and everything below to
 * a new child (which shares the key bytes). */
static void
_split(PdbRadix *self, PdbBuildNode *node, gsize k)
{
  PdbBuildNode *tail = _node_new_literal(self, node->key + k, node->key_length - k);

  self->blob_bound -= node->key_length - k;   /* the bytes moved to tail were counted */
  tail->value = node->value;
  tail->label = node->label;
  tail->label_length = node->label_length;
  tail->has_value = node->has_value;
  tail->children = node->children;
  tail->n_children = node->n_children;
  tail->n_pchildren = node->n_pchildren;
  tail->capacity = node->capacity;
  node->value = NULL;
  node->label = NULL;
  node->label_length = 0;
  node->has_value = FALSE;
  node->children = NULL;
  node->n_children = 0;
  node->n_pchildren = node->capacity = 0;
  node->key_length = k;
  _add_literal_child(self, node, tail);
}

static PdbBuildNode *
_insert_literal(PdbRadix *self, PdbBuildNode *node, const gchar *s, gsize len)
{
  while (len > 0)
    {
      PdbBuildNode *child = _find_literal_child(node, (guchar) s[0], NULL);

      if (!child)
        {
          child = _node_new_literal(self, pdb_arena_strndup(self->arena, s, len), len); /* case 2 */
          _add_literal_child(self, node, child);
          return child;
        }
      gsize k = _common_prefix(child->key, child->key_length, s, len);
      if (k < child->key_length)
        _split(self, child, k);                                             /* case 4 */
      node = child;                                                         /* case 3 */
      s += k;
      len -= k;
    }
  return node;                                                              /* case 1 */
}

static PdbBuildNode *
_insert_parser(PdbRadix *self, PdbBuildNode *node, PdbElement *el, const PdbLocation *location)
{
  PdbBuildNode *child = _find_parser_child(node, el->parser);

  if (child)
    return child;
  child = _node_new(self);
  self->n_parser_nodes++;
  child->parser = el->parser;   /* the cache keeps it alive */
  if (location)
    {
      child->line = location->line;
      child->column = location->column;
      if (location->file)
        {
          /* Interning hashes the whole name, so it is done once per file,
           * not once per parser (loading is linear in rules). The text is
           * compared too, in case a caller reuses one buffer for several
           * names (compared only at the same address, which the caller
           * has just handed over, so it is live memory). */
          if (location->file != self->last_file || strcmp(location->file, self->last_file_copy) != 0)
            {
              self->last_file_copy = g_string_chunk_insert_const(self->strings, location->file);
              self->last_file = location->file;
            }
          child->file = self->last_file_copy;
        }
    }
  _grow(self, node);
  node->children[node->n_children + node->n_pchildren++] = child;
  return child;
}

static gchar *
_location_text(const PdbLocation *location)
{
  if (!location)
    return g_strdup("<pattern>");
  return g_strdup_printf("%s:%d:%d", location->file ? location->file : "<pattern>",
                         location->line, location->column);
}

/* Tells @func the names of the parsers in @elements not told before. */
static void
_tell_names(GArray *elements, PdbRadixNameFunc func, gpointer user_data)
{
  for (guint e = 0; e < elements->len; e++)
    {
      PdbElement *el = &g_array_index(elements, PdbElement, e);

      if (el->kind != PDB_ELEMENT_PARSER || el->parser->name_told)
        continue;
      el->parser->name_told = TRUE;
      if (el->parser->name && el->parser->name[0])
        func(el->parser->name, user_data);
    }
}

gboolean
pdb_radix_insert(PdbRadix *self, const gchar *pattern, gpointer value,
                 const PdbLocation *location, GError **error)
{
  return pdb_radix_insert_telling_names(self, pattern, value, location, NULL, NULL, error);
}

gboolean
pdb_radix_insert_telling_names(PdbRadix *self, const gchar *pattern, gpointer value,
                               const PdbLocation *location, PdbRadixNameFunc func,
                               gpointer user_data, GError **error)
{
  GArray *elements;
  PdbBuildNode *node;

  g_return_val_if_fail(self != NULL && pattern != NULL, FALSE);
  if (self->frozen)
    {
      gchar *where = _location_text(location);
      g_set_error(error, PDB_RADIX_ERROR, PDB_RADIX_ERROR_FROZEN,
                  "%s: cannot insert pattern '%s': the tree is frozen; build a new tree instead",
                  where, pattern);
      g_free(where);
      return FALSE;
    }
  if (!pattern[0])
    {
      gchar *where = _location_text(location);
      g_set_error(error, PDB_RADIX_ERROR, PDB_RADIX_ERROR_EMPTY_PATTERN,
                  "%s: empty pattern: it could never match (3.38 ignores it too); "
                  "write the text the message starts with", where);
      g_free(where);
      return FALSE;
    }
  if (!self->elements)
    self->elements = g_array_sized_new(FALSE, FALSE, sizeof(PdbElement), 16);
  elements = self->elements;
  if (!pdb_pattern_parse_into(elements, pattern, self->capture_prefix, location, self->parser_cache,
                              error))
    return FALSE;
  if (func)
    _tell_names(elements, func, user_data);

  /* A duplicate's path exists already, so walking it creates nothing:
   * the tree is then as before, as the error promises. */
  node = self->root;
  for (guint e = 0; e < elements->len; e++)
    {
      PdbElement *el = &g_array_index(elements, PdbElement, e);

      if (el->kind == PDB_ELEMENT_PARSER)
        node = _insert_parser(self, node, el, location);
      else
        node = _insert_literal(self, node, el->text, el->length);
    }
  if (node->has_value)
    {
      gchar *where = _location_text(location);
      g_set_error(error, PDB_RADIX_ERROR, PDB_RADIX_ERROR_DUPLICATE,
                  "%s: duplicate pattern '%s': an identical pattern was inserted before and "
                  "keeps its place; remove one of them", where, pattern);
      g_free(where);
      pdb_pattern_clear(elements);
      return FALSE;
    }
  node->value = value;
  node->has_value = TRUE;
  self->blob_bound += sizeof(gpointer);
  if (self->label_func)
    {
      gsize length = 0;
      const gchar *label = self->label_func(value, &length);

      if (label && length <= PDB_RADIX_MAX_LABEL)
        {
          node->label = label;
          node->label_length = (guint8) length;
          self->blob_bound += 1 + length;
        }
    }
  pdb_pattern_clear(elements);
  return TRUE;
}

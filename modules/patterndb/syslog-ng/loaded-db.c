/*
 * loaded-db.c: load a pattern database for the daemon and remember what it
 * was loaded from.
 *
 * Invariant: a PdbSngDb never changes after pdb_sng_db_load() returns; any
 * number of threads may use it while they hold a reference. Its stamps
 * (db-stamps.h) are taken from the listing of the configured path before
 * any file is read, and the loader reads exactly that listing: a file
 * that changes while the database loads, or a file that starts to match
 * (a new file in a subfolder, a new match of a glob), makes the next
 * comparison differ.
 *
 * The one exception is the memo (name -> NVHandle, macro or tag id), which
 * only grows and never changes an answer once given. It is keyed by the
 * address of the name: every name the classification hands to the message
 * ops (capture, <value> and template names, tags, the .classifier.*
 * literals) lives as long as the database, so its address identifies it
 * without hashing the text. Each entry also keeps a copy of the text, and a
 * hit requires the text to be equal, so a name that lives in a transient
 * buffer can only miss, never get another name's answer. Short names are
 * copied into the entry itself, so the check reads the entry's cache line
 * only.
 *
 * Memo concurrency (insert-only open addressing, no lock): an inserter
 * claims an empty slot with a compare-and-swap on `key` (NULL -> name);
 * only the winner writes `text` or `copy`, then publishes `value` with an
 * atomic store (a full barrier in glib). A reader that finds its name in
 * `key` reads `value` atomically and uses the entry only when it is
 * non-zero, which orders its reads of `text` and `copy` after the winner's
 * writes. A reader that sees value 0 (insert in progress) resolves the slow
 * way. Keys, texts, copies and values are never modified again until the
 * last unref frees the memo.
 */
#include "loaded-db.h"
#include "rule-stats.h"
#include "host-expr.h"

#include "logmsg/tags.h"
#include "messages.h"

#include <string.h>

/* Probes per lookup before giving up (the memo is then full around there). */
#define PDB_SNG_MEMO_PROBES 8
#define PDB_SNG_MEMO_MIN 256
#define PDB_SNG_MEMO_MAX (1 << 17)

/* Names shorter than this are checked against a copy inside the entry
 * (one cache line), longer ones against a copy of their own. */
#define PDB_SNG_MEMO_INLINE 20

typedef struct _PdbSngMemoEntry
{
  const gchar *key;             /* the name's address; NULL: free (atomic) */
  guint value;                  /* the answer; 0: being inserted (atomic) */
  gchar text[PDB_SNG_MEMO_INLINE]; /* the name, if shorter than PDB_SNG_MEMO_INLINE */
  gchar *copy;                  /* else its copy; NULL for short names */
} PdbSngMemoEntry;

typedef struct _PdbSngMemo
{
  guint mask;                   /* capacity - 1 (a power of two) */
  PdbSngMemoEntry *entries;
} PdbSngMemo;

struct _PdbSngDb
{
  gint ref_cnt;
  PdbDatabase *db;
  PdbSngMemo memos[PDB_SNG_MEMO_KINDS];
  gchar **paths;                /* what it was loaded from (NULL-terminated) */
  PdbSngStamps *stamps;
  GlobalConfig *compiled_with;  /* the config of its syslog-ng templates and filters, or NULL */
  PdbSngRuleStats *stats;       /* its per-rule counters while a parser uses it, or NULL */
};

static void
pdb_sng_db_warn(const gchar *message, gpointer user_data)
{
  msg_warning("patterndb: problem in pattern database",
              evt_tag_str("file", (const gchar *) user_data),
              evt_tag_str("warning", message));
}

/* --- the memo ------------------------------------------------------------- */

static void
pdb_sng_memo_init(PdbSngMemo *memo, guint expected)
{
  guint capacity = PDB_SNG_MEMO_MIN;

  while (capacity < PDB_SNG_MEMO_MAX && capacity < 2 * expected)
    capacity *= 2;
  memo->mask = capacity - 1;
  memo->entries = g_new0(PdbSngMemoEntry, capacity);
}

static void
pdb_sng_memo_clear(PdbSngMemo *memo)
{
  if (!memo->entries)
    return;
  for (guint i = 0; i <= memo->mask; i++)
    g_free(memo->entries[i].copy);
  g_free(memo->entries);
  memo->entries = NULL;
}

static inline guint
pdb_sng_memo_slot(const PdbSngMemo *memo, const gchar *name)
{
  guint64 h = (guint64) (gsize) name * G_GUINT64_CONSTANT(0x9E3779B97F4A7C15);

  return (guint) (h >> 32) & memo->mask;
}

guint
pdb_sng_db_memo_get(const PdbSngDb *self, PdbSngMemoKind kind, const gchar *name)
{
  const PdbSngMemo *memo = &self->memos[kind];
  guint slot = pdb_sng_memo_slot(memo, name);

  for (guint probe = 0; probe < PDB_SNG_MEMO_PROBES; probe++, slot = (slot + 1) & memo->mask)
    {
      PdbSngMemoEntry *entry = &memo->entries[slot];
      const gchar *key = g_atomic_pointer_get(&entry->key);

      if (!key)
        return 0;
      if (key != name)
        continue;
      guint value = (guint) g_atomic_int_get((gint *) &entry->value);
      if (value && strcmp(entry->copy ? entry->copy : entry->text, name) == 0)
        return value;
      /* being inserted, or the same address now holds another text */
      return 0;
    }
  return 0;
}

void
pdb_sng_db_memo_put(const PdbSngDb *self, PdbSngMemoKind kind, const gchar *name, guint value)
{
  /* The memo is the one mutable part of a shared database (see the top). */
  PdbSngMemo *memo = (PdbSngMemo *) &self->memos[kind];
  guint slot = pdb_sng_memo_slot(memo, name);

  g_assert(value != 0);
  for (guint probe = 0; probe < PDB_SNG_MEMO_PROBES; probe++, slot = (slot + 1) & memo->mask)
    {
      PdbSngMemoEntry *entry = &memo->entries[slot];

      if (g_atomic_pointer_compare_and_exchange(&entry->key, NULL, name))
        {
          gsize length = strlen(name);

          if (length < PDB_SNG_MEMO_INLINE)
            memcpy(entry->text, name, length + 1);
          else
            entry->copy = g_strdup(name);
          g_atomic_int_set((gint *) &entry->value, (gint) value);
          return;
        }
      if (g_atomic_pointer_get(&entry->key) == name)
        return;                 /* someone else memoised this address */
    }
  /* full around here: the caller resolves this name the slow way each time */
}

/* How many names of each kind the database can hand to the message ops, as
 * a size hint for the memos (they work, more slowly, when it is too low). */
static void
pdb_sng_db_count_names(const PdbDatabase *db, guint counts[PDB_SNG_MEMO_KINDS])
{
  const GPtrArray *rules = pdb_database_get_rules(db);

  counts[PDB_SNG_MEMO_HANDLE] = counts[PDB_SNG_MEMO_LOOKUP] = counts[PDB_SNG_MEMO_TAG] = 16;
  for (guint i = 0; rules && i < rules->len; i++)
    {
      const PdbRule *rule = g_ptr_array_index(rules, i);

      counts[PDB_SNG_MEMO_TAG] += 1 + (rule->tags ? rule->tags->len : 0);
      for (guint p = 0; p < rule->n_patterns; p++)
        for (const gchar *c = rule->pattern_places[p].text; *c; c++)
          counts[PDB_SNG_MEMO_HANDLE] += *c == '@';
      for (guint v = 0; rule->values && v < rule->values->len; v++)
        {
          const PdbValueDef *value = g_ptr_array_index(rule->values, v);

          counts[PDB_SNG_MEMO_HANDLE]++;
          for (const gchar *c = value->template_text; c && *c; c++)
            counts[PDB_SNG_MEMO_LOOKUP] += *c == '$';
        }
    }
  counts[PDB_SNG_MEMO_HANDLE] /= 2;
}

/* Tags are registered with syslog-ng at load, rule by rule in file order:
 * the class tag, the rule's tags, the tags of its action messages. That is
 * the order 3.38's loader registers them in, and $TAGS lists tags in the
 * order they were registered. Resolved tags are remembered, so the message
 * path never takes syslog-ng's tag registry lock for the database's own tags. */
static void
pdb_sng_db_resolve_tag(PdbSngDb *self, const gchar *tag)
{
  if (!tag || pdb_sng_db_memo_get(self, PDB_SNG_MEMO_TAG, tag))
    return;
  pdb_sng_db_memo_put(self, PDB_SNG_MEMO_TAG, tag, (guint) log_tags_get_by_name(tag) + 1);
}

static void
pdb_sng_db_resolve_tags(PdbSngDb *self)
{
  const GPtrArray *rules = pdb_database_get_rules(self->db);

  for (guint i = 0; rules && i < rules->len; i++)
    {
      const PdbRule *rule = g_ptr_array_index(rules, i);

      pdb_sng_db_resolve_tag(self, rule->class_tag);
      for (guint t = 0; rule->tags && t < rule->tags->len; t++)
        pdb_sng_db_resolve_tag(self, g_ptr_array_index(rule->tags, t));
      for (guint a = 0; rule->actions && a < rule->actions->len; a++)
        {
          const PdbAction *action = g_ptr_array_index(rule->actions, a);
          const GPtrArray *tags = action->message.tags;

          for (guint t = 0; tags && t < tags->len; t++)
            pdb_sng_db_resolve_tag(self, g_ptr_array_index(tags, t));
        }
    }
}

PdbSngDb *
pdb_sng_db_load(const gchar *const *paths, const gchar *prefix, GlobalConfig *cfg, GError **error)
{
  gchar *shown = g_strjoinv(" ", (gchar **) paths);
  PdbExprBackend *backend = cfg ? pdb_sng_host_expr_new(cfg) : NULL;
  PdbLoadOptions options =
  {
    .capture_prefix = prefix,
    .warning = pdb_sng_db_warn,
    .warning_data = shown,
    .backend = backend,
  };
  GPtrArray *files;
  PdbSngStamps *stamps = pdb_sng_stamps_take(paths, &files, error);
  PdbDatabase *db = files ? pdb_database_load_files(files, &options, error) : NULL;

  if (files)
    g_ptr_array_unref(files);
  gboolean host_compiled = backend && pdb_sng_host_expr_used(backend);

  pdb_expr_backend_unref(backend);
  g_free(shown);
  if (!db)
    {
      pdb_sng_stamps_free(stamps);
      return NULL;
    }

  PdbSngDb *self = g_new0(PdbSngDb, 1);
  self->ref_cnt = 1;
  self->db = db;
  self->paths = g_strdupv((gchar **) paths);
  self->stamps = stamps;
  self->compiled_with = host_compiled ? cfg : NULL;
  guint counts[PDB_SNG_MEMO_KINDS];
  pdb_sng_db_count_names(db, counts);
  for (guint k = 0; k < PDB_SNG_MEMO_KINDS; k++)
    pdb_sng_memo_init(&self->memos[k], counts[k]);
  pdb_sng_db_resolve_tags(self);
  return self;
}

PdbSngDb *
pdb_sng_db_ref(PdbSngDb *self)
{
  g_atomic_int_inc(&self->ref_cnt);
  return self;
}

void
pdb_sng_db_unref(PdbSngDb *self)
{
  if (!self || !g_atomic_int_dec_and_test(&self->ref_cnt))
    return;
  pdb_sng_rule_stats_free(self->stats);
  for (guint k = 0; k < PDB_SNG_MEMO_KINDS; k++)
    pdb_sng_memo_clear(&self->memos[k]);
  pdb_sng_stamps_free(self->stamps);
  pdb_database_unref(self->db);
  g_strfreev(self->paths);
  g_free(self);
}

const PdbDatabase *
pdb_sng_db_get_database(const PdbSngDb *self)
{
  return self->db;
}

guint
pdb_sng_db_lookup_tag(const PdbSngDb *self, const gchar *tag)
{
  guint id = pdb_sng_db_memo_get(self, PDB_SNG_MEMO_TAG, tag);

  if (id)
    return id;
  id = (guint) log_tags_get_by_name(tag) + 1;
  pdb_sng_db_memo_put(self, PDB_SNG_MEMO_TAG, tag, id);
  return id;
}

PdbSngStamps *
pdb_sng_db_stamp_files_now(const PdbSngDb *self)
{
  return pdb_sng_stamps_take((const gchar *const *) self->paths, NULL, NULL);
}

gboolean
pdb_sng_db_matches(const PdbSngDb *self, const PdbSngStamps *stamps)
{
  return pdb_sng_stamps_equal(self->stamps, stamps);
}

gboolean
pdb_sng_db_fits_config(const PdbSngDb *self, GlobalConfig *cfg)
{
  return !self->compiled_with || self->compiled_with == cfg;
}

gboolean
pdb_sng_db_is_current(const PdbSngDb *self)
{
  PdbSngStamps *now = pdb_sng_db_stamp_files_now(self);
  gboolean same = pdb_sng_db_matches(self, now);

  pdb_sng_stamps_free(now);
  return same;
}

void
pdb_sng_db_set_stats(PdbSngDb *self, PdbSngRuleStats *stats)
{
  PdbSngRuleStats *old = self->stats;

  self->stats = stats;
  pdb_sng_rule_stats_free(old);
}

PdbSngRuleStats *
pdb_sng_db_get_stats(const PdbSngDb *self)
{
  return self->stats;
}

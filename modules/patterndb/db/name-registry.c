/*
 * name-registry.c: ordered sets of names and tags (see name-registry.h).
 * Each sequence is a GPtrArray of owned strings plus a hash set over the
 * same strings; a string is in the array exactly when it is in the set.
 */
#include "db/name-registry.h"
#include "db/filter-expr.h"

#include <string.h>

typedef struct
{
  GPtrArray *order;   /* of gchar*, owned */
  GHashTable *seen;   /* the same strings, borrowed from @order */
} OrderedSet;

/* A name that waits in the queue (name NULL: the names of @part). */
typedef struct
{
  PdbNameRegistry *part;
  gchar *name;
} QueuedName;

struct _PdbNameRegistry
{
  OrderedSet names;
  OrderedSet tags;
  /* of QueuedName: from the first part added until the next settle, names
   * wait here in the order they came; NULL while no part waits */
  GArray *queued;
};

static void
ordered_set_init(OrderedSet *set)
{
  set->order = g_ptr_array_new_with_free_func(g_free);
  set->seen = g_hash_table_new(g_str_hash, g_str_equal);
}

static void
ordered_set_clear(OrderedSet *set)
{
  g_hash_table_destroy(set->seen);
  g_ptr_array_unref(set->order);
}

/* Looks the text up before copying it: nearly every call repeats a name
 * met before (100,000 rules mention a few hundred names). */
static void
ordered_set_add(OrderedSet *set, const gchar *text, gssize length)
{
  gchar small[128];
  gchar *owned = NULL;
  const gchar *key = text;

  if (length >= 0)
    {
      gchar *buf = (gsize) length < sizeof(small) ? small : (owned = g_malloc(length + 1));

      memcpy(buf, text, length);
      buf[length] = '\0';
      key = buf;
    }
  if (!g_hash_table_contains(set->seen, key))
    {
      gchar *copy = owned ? g_steal_pointer(&owned) : g_strdup(key);

      g_ptr_array_add(set->order, copy);
      g_hash_table_add(set->seen, copy);
    }
  g_free(owned);
}

PdbNameRegistry *
pdb_name_registry_new(void)
{
  PdbNameRegistry *registry = g_new0(PdbNameRegistry, 1);

  ordered_set_init(&registry->names);
  ordered_set_init(&registry->tags);
  return registry;
}

static void
queued_name_clear(gpointer p)
{
  QueuedName *queued = p;

  pdb_name_registry_free(queued->part);
  g_free(queued->name);
}

void
pdb_name_registry_free(PdbNameRegistry *registry)
{
  if (!registry)
    return;
  if (registry->queued)
    g_array_unref(registry->queued);
  ordered_set_clear(&registry->names);
  ordered_set_clear(&registry->tags);
  g_free(registry);
}

void
pdb_name_registry_add_name(PdbNameRegistry *registry, const gchar *name, gssize length)
{
  if (!registry)
    return;
  if (registry->queued)
    {
      QueuedName queued = { NULL, length < 0 ? g_strdup(name) : g_strndup(name, length) };

      g_array_append_val(registry->queued, queued);
      return;
    }
  ordered_set_add(&registry->names, name, length);
}

void
pdb_name_registry_add_part(PdbNameRegistry *registry, PdbNameRegistry *part)
{
  QueuedName queued = { part, NULL };

  if (!registry->queued)
    {
      registry->queued = g_array_new(FALSE, FALSE, sizeof(QueuedName));
      g_array_set_clear_func(registry->queued, queued_name_clear);
    }
  g_array_append_val(registry->queued, queued);
}

void
pdb_name_registry_settle(PdbNameRegistry *registry)
{
  if (!registry || !registry->queued)
    return;

  GArray *queued = g_steal_pointer(&registry->queued);

  for (guint i = 0; i < queued->len; i++)
    {
      const QueuedName *q = &g_array_index(queued, QueuedName, i);

      if (q->name)
        ordered_set_add(&registry->names, q->name, -1);
      for (guint n = 0; q->part && n < q->part->names.order->len; n++)
        ordered_set_add(&registry->names, g_ptr_array_index(q->part->names.order, n), -1);
    }
  g_array_unref(queued);
}

void
pdb_name_registry_add_tag(PdbNameRegistry *registry, const gchar *tag)
{
  if (!registry)
    return;
  ordered_set_add(&registry->tags, tag, -1);
}

void
pdb_name_registry_add_pattern(PdbNameRegistry *registry, const gchar *pattern)
{
  const gchar *p = pattern;

  if (!registry)
    return;

  while ((p = strchr(p, '@')))
    {
      if (p[1] == '@')
        {
          p += 2;
          continue;
        }
      const gchar *end = strchr(p + 1, '@');

      if (!end)
        return;
      const gchar *colon = memchr(p + 1, ':', end - p - 1);

      if (colon)
        {
          const gchar *name = colon + 1;
          const gchar *name_end = memchr(name, ':', end - name);

          if (!name_end)
            name_end = end;
          if (name_end > name)
            pdb_name_registry_add_name(registry, name, name_end - name);
        }
      p = end + 1;
    }
}

void
pdb_name_registry_add_template(PdbNameRegistry *registry, const gchar *text)
{
  const gchar *p = text;

  if (!registry)
    return;

  while (p && (p = strchr(p, '$')))
    {
      p++;
      if (*p == '{')
        {
          const gchar *end = strchr(p + 1, '}');

          if (!end)
            return;
          const gchar *stop = g_strstr_len(p + 1, end - p - 1, ":-");

          pdb_name_registry_add_name(registry, p + 1, (stop ? stop : end) - p - 1);
          p = end + 1;
        }
      else
        {
          const gchar *start = p;

          while (g_ascii_isalnum(*p) || *p == '_')
            p++;
          if (p > start)
            pdb_name_registry_add_name(registry, start, p - start);
        }
    }
}

static void
add_filter_ref(PdbFilterRefKind kind, const gchar *text, gpointer user_data)
{
  PdbNameRegistry *registry = user_data;

  if (kind == PDB_FILTER_REF_NAME)
    pdb_name_registry_add_name(registry, text, -1);
  else if (kind == PDB_FILTER_REF_TEMPLATE)
    pdb_name_registry_add_template(registry, text);
  else if (kind == PDB_FILTER_REF_TAG)
    pdb_name_registry_add_tag(registry, text);
}

void
pdb_name_registry_add_filter(PdbNameRegistry *registry, const PdbFilterExpr *filter)
{
  if (registry && filter)
    pdb_filter_expr_foreach_ref(filter, add_filter_ref, registry);
}

const GPtrArray *
pdb_name_registry_get_names(const PdbNameRegistry *registry)
{
  g_assert(!registry->queued);
  return registry->names.order;
}

const GPtrArray *
pdb_name_registry_get_tags(const PdbNameRegistry *registry)
{
  return registry->tags.order;
}

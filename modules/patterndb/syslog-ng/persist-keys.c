/*
 * persist-keys.c: one persist key per parser and configuration.
 *
 * The claims live in a ModuleConfig stored in the configuration
 * (cfg->module_config), so they are freed with it and a new configuration
 * starts with none. For each base key they keep the parsers that claimed
 * it, in claim order; a parser's position there is its duplicate number.
 * Parser addresses are only compared, never followed (the parsers belong
 * to the same configuration and are freed with it). Claims happen in
 * init(), on the main loop thread only, so no lock is taken.
 */
#include "persist-keys.h"

#include "module-config.h"

#define PDB_SNG_PERSIST_KEYS_NAME "patterndb-persist-keys"

typedef struct _PdbSngPersistKeys
{
  ModuleConfig super;
  GHashTable *claims;           /* base key -> GPtrArray of parser addresses */
} PdbSngPersistKeys;

static void
pdb_sng_persist_keys_free(ModuleConfig *s)
{
  PdbSngPersistKeys *self = (PdbSngPersistKeys *) s;

  g_hash_table_unref(self->claims);
  module_config_free_method(s);
}

static PdbSngPersistKeys *
pdb_sng_persist_keys_of(GlobalConfig *cfg)
{
  PdbSngPersistKeys *self = g_hash_table_lookup(cfg->module_config, PDB_SNG_PERSIST_KEYS_NAME);

  if (!self)
    {
      self = g_new0(PdbSngPersistKeys, 1);
      self->super.free_fn = pdb_sng_persist_keys_free;
      self->claims = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
                                           (GDestroyNotify) g_ptr_array_unref);
      g_hash_table_insert(cfg->module_config, g_strdup(PDB_SNG_PERSIST_KEYS_NAME), self);
    }
  return self;
}

gchar *
pdb_sng_persist_key_claim(GlobalConfig *cfg, const gchar *base, gconstpointer parser)
{
  PdbSngPersistKeys *self = pdb_sng_persist_keys_of(cfg);
  GPtrArray *claimants = g_hash_table_lookup(self->claims, base);
  guint position;

  if (!claimants)
    {
      claimants = g_ptr_array_new();
      g_hash_table_insert(self->claims, g_strdup(base), claimants);
    }
  for (position = 0; position < claimants->len; position++)
    if (g_ptr_array_index(claimants, position) == parser)
      break;
  if (position == claimants->len)
    g_ptr_array_add(claimants, (gpointer) parser);
  if (position == 0)
    return g_strdup(base);
  return g_strdup_printf("%s,dup=%u", base, position + 1);
}

/*
 * persist-keys.h: the keys under which db-parser() and grouping-by() hand
 * their state (database, correlation contexts) to the next configuration
 * through syslog-ng's persist store (cfg_persist_config_add/fetch).
 *
 * Invariant: within one configuration no two parsers get the same key, so
 * a reload never hands one parser's state to another. A parser builds a
 * base key from what identifies it across reloads (persist-name() or its
 * options, and its clone number); the first parser of the configuration
 * that claims a base gets the base itself, the n-th one (n >= 2, in the
 * order the parsers are initialised, which is the configuration's order)
 * gets "base,dup=n". A parser that claims again in the same configuration
 * (init after a failed reload) gets its first answer.
 */
#ifndef PDB_SNG_PERSIST_KEYS_H
#define PDB_SNG_PERSIST_KEYS_H

#include "cfg.h"

/* A newly allocated key for @parser (only its address is used) in @cfg. */
gchar *pdb_sng_persist_key_claim(GlobalConfig *cfg, const gchar *base, gconstpointer parser);

#endif

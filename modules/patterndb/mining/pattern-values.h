/*
 * pattern-values.h: value classes for choosing a field's parser (private
 * to pattern.c and pattern-values.c).
 *
 * Each predicate says whether one value (not NUL-terminated, @len bytes)
 * is entirely of its class, as the parser of that name would accept it
 * whole: NUMBER ([-]digits), IPv4, IPv6, HOSTNAME (dotted
 * labels), alphanumeric (STRING without extra characters).
 */
#ifndef PDB_MINING_PATTERN_VALUES_H
#define PDB_MINING_PATTERN_VALUES_H

#include <glib.h>

gboolean pdb_mining_value_is_number(const gchar *v, gsize len);
gboolean pdb_mining_value_is_ipv4(const gchar *v, gsize len);
gboolean pdb_mining_value_is_ipv6(const gchar *v, gsize len);
gboolean pdb_mining_value_is_hostname(const gchar *v, gsize len);
gboolean pdb_mining_value_is_alnum(const gchar *v, gsize len);

#endif

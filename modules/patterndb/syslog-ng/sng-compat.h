/* sng-compat.h: the one place where the module meets the differences
 * between the syslog-ng versions it builds against (3.38 and 4.x).
 *
 * configure probes the installed syslog-ng's headers (m4/pdb-syslog-ng.m4)
 * and records what they offer in config.h; this header turns that into
 * names the rest of the glue uses unconditionally. No other file of the
 * module tests a syslog-ng version or one of these config.h macros.
 *
 *   PDB_SNG_VT_INTEGER        the value type of integers set by the module
 *                             (3.x LM_VT_INT64, 4.x LM_VT_INTEGER)
 *   pdb_sng_vt_is_int32()     TRUE for 3.x's 32-bit integer type; 4.x has one
 *                             integer type only, so always FALSE there
 *   pdb_sng_macro_expand()    log_macro_expand() without escaping, whichever
 *                             signature the headers declare
 *   pdb_sng_persist_add()     cfg_persist_config_add(), replacing what the key
 *                             held (3.x's force flag set)
 *   pdb_sng_parser_template() a LogParser's message-template(), or NULL
 *   pdb_sng_template_text()   the text a LogTemplate was compiled from
 *   pdb_sng_stats_legacy_key() a counter key from component, id and instance
 *                             (3.x's key, 4.x's legacy key)
 *   pdb_sng_config_is_4x()    TRUE when the configuration has syslog-ng 4.x
 *                             semantics (@version 4.0 or later; 3.38 takes
 *                             that too), where 4.x's own parsers behave
 *                             otherwise (doc/syslog-ng-versions.md)
 */
#ifndef PDB_SNG_COMPAT_H
#define PDB_SNG_COMPAT_H

#include <config.h>
#include "syslog-ng.h"
#include "cfg.h"
#include "logmsg/logmsg.h"
#include "parser/parser-expr.h"
#include "template/macros.h"
#include "template/templates.h"
#include "stats/stats-cluster-logpipe.h"

#if HAVE_DECL_LM_VT_INTEGER
#define PDB_SNG_VT_INTEGER LM_VT_INTEGER
#else
#define PDB_SNG_VT_INTEGER LM_VT_INT64
#endif

static inline gboolean
pdb_sng_vt_is_int32(LogMessageValueType type)
{
#if HAVE_DECL_LM_VT_INT32
  return type == LM_VT_INT32;
#else
  (void) type;
  return FALSE;
#endif
}

static inline gboolean
pdb_sng_macro_expand(gint id, LogTemplateEvalOptions *options, const LogMessage *msg,
                     GString *result, LogMessageValueType *type)
{
#if PDB_SNG_MACRO_EXPAND_TAKES_ESCAPE
  return log_macro_expand(id, FALSE, options, msg, result, type);
#else
  return log_macro_expand(id, options, msg, result, type);
#endif
}

static inline void
pdb_sng_persist_add(GlobalConfig *cfg, const gchar *name, gpointer value, GDestroyNotify destroy)
{
#if PDB_SNG_PERSIST_ADD_TAKES_FORCE
  cfg_persist_config_add(cfg, name, value, destroy, TRUE);
#else
  cfg_persist_config_add(cfg, name, value, destroy);
#endif
}

static inline LogTemplate *
pdb_sng_parser_template(LogParser *parser)
{
#if HAVE_LOGPARSER_TEMPLATE_OBJ
  return parser->template_obj;
#else
  return parser->template;
#endif
}

static inline const gchar *
pdb_sng_template_text(const LogTemplate *template)
{
#if HAVE_LOGTEMPLATE_TEMPLATE_STR
  return template->template_str;
#else
  return template->template;
#endif
}

static inline void
pdb_sng_stats_legacy_key(StatsClusterKey *key, guint16 component, const gchar *id, const gchar *instance)
{
#if HAVE_DECL_STATS_CLUSTER_LOGPIPE_KEY_LEGACY_SET
  stats_cluster_logpipe_key_legacy_set(key, component, id, instance);
#else
  stats_cluster_logpipe_key_set(key, component, id, instance);
#endif
}

static inline gboolean
pdb_sng_config_is_4x(GlobalConfig *cfg)
{
  return !cfg_is_config_version_older(cfg, VERSION_VALUE_4_0);
}

#endif

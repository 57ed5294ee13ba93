/*
 * patterndb-plugin.c: what syslog-ng sees of the module (libpatterndb.so).
 *
 * Two parser plugins, `db-parser` and `patterndb`, share one implementation.
 * `db-parser` replaces the parser of syslog-ng's own libdbparser.so when the
 * configuration says `@module patterndb` (the last registration of a name
 * wins); `patterndb` is claimed by no other module, so it always selects
 * ours. `grouping-by` is ours too (grouping-by.c): with both names
 * registered here, nothing in a configuration that loads us makes
 * syslog-ng autoload libdbparser.so; an explicit `@module dbparser` after
 * ours switches both names back to syslog-ng's.
 *
 * Only module_info and patterndb_module_init are exported (the rest of the
 * module is built with -fvisibility=hidden and a version script), so this
 * module and libdbparser.so can live in one process without symbol clashes.
 */
#include "patterndb-parser.h"
#include "plugin.h"
#include "plugin-types.h"
#include "syslog-ng-config.h"
#include "logmsg/tags.h"

#define PDB_SNG_EXPORT __attribute__((visibility("default")))

static Plugin pdb_sng_plugins[] =
{
  {
    .type = LL_CONTEXT_PARSER,
    .name = "db-parser",
    .parser = &patterndb_parser,
  },
  {
    .type = LL_CONTEXT_PARSER,
    .name = "patterndb",
    .parser = &patterndb_parser,
  },
  {
    .type = LL_CONTEXT_PARSER,
    .name = "grouping-by",
    .parser = &pdb_grouping_by_parser,
  },
};

PDB_SNG_EXPORT gboolean patterndb_module_init(PluginContext *context, CfgArgs *args);

PDB_SNG_EXPORT gboolean
patterndb_module_init(PluginContext *context, CfgArgs *args)
{
  (void) args;
  plugin_register(context, pdb_sng_plugins, G_N_ELEMENTS(pdb_sng_plugins));
  /* as 3.38's module: the unknown tag and the tag of the default class
   * ("system") are registered before any source's tag, so $TAGS lists
   * them first */
  log_tags_get_by_name(".classifier.unknown");
  log_tags_get_by_name(".classifier.system");
  return TRUE;
}

PDB_SNG_EXPORT const ModuleInfo module_info =
{
  .canonical_name = "patterndb",
  .version = SYSLOG_NG_VERSION,
  .description = "patterndb: radix-tree message classification, db-parser() and patterndb() parsers "
                 "(drop-in for syslog-ng's db-parser), and grouping-by()",
  .core_revision = SYSLOG_NG_SOURCE_REVISION,
  .plugins = pdb_sng_plugins,
  .plugins_len = G_N_ELEMENTS(pdb_sng_plugins),
};

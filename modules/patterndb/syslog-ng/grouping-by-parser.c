/*
 * grouping-by-parser.c: the keywords of grouping-by() and the CfgParser
 * syslog-ng calls when a configuration names it. The grammar is the
 * module's one (patterndb-grammar.ym, which starts either db-parser() or
 * grouping-by()); only the keyword table differs from db-parser()'s.
 *
 * The lexer treats `-` and `_` alike, so each keyword is spelled once with
 * underscores. `key`, `scope`, `value`, `tags` and `persist-name` are core
 * keywords, listed so that this table documents every option.
 */
#include "grouping-by-parser.h"
#include "patterndb-grammar.h"

int patterndb_parse(CfgLexer *lexer, LogParser **instance, gpointer arg);

static CfgLexerKeyword pdb_grouping_by_keywords[] =
{
  { "grouping_by",        KW_GROUPING_BY },
  { "key",                KW_KEY },
  { "sort_key",           KW_SORT_KEY },
  { "scope",              KW_SCOPE },
  { "where",              KW_WHERE },
  { "having",             KW_HAVING },
  { "trigger",            KW_TRIGGER },
  { "timeout",            KW_TIMEOUT },
  { "aggregate",          KW_AGGREGATE },
  { "value",              KW_VALUE },
  { "tags",               KW_TAGS },
  { "inherit_mode",       KW_INHERIT_MODE },
  { "inject_mode",        KW_INJECT_MODE },
  { "prefix",             KW_PREFIX },
  { "context_limit",      KW_CONTEXT_LIMIT },
  { "persist_name",       KW_PERSIST_NAME },
  { NULL }
};

static gint
pdb_grouping_by_parse(CfgLexer *lexer, gpointer *instance, gpointer arg)
{
  return patterndb_parse(lexer, (LogParser **) instance, arg);
}

static void
pdb_grouping_by_cleanup(gpointer instance)
{
  log_pipe_unref((LogPipe *) instance);
}

CfgParser pdb_grouping_by_parser =
{
  .name = "grouping-by",
  .keywords = pdb_grouping_by_keywords,
  .parse = pdb_grouping_by_parse,
  .cleanup = pdb_grouping_by_cleanup,
};

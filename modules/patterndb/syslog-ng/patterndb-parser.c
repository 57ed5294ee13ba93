/*
 * patterndb-parser.c: the keywords of db-parser() and patterndb(), those of
 * grouping-by(), and the two CfgParsers syslog-ng calls when a
 * configuration names one of them. The grammar is the module's one
 * (patterndb-grammar.ym starts either parser); only the keyword tables
 * differ.
 *
 * The lexer treats `-` and `_` alike, so each keyword is spelled once with
 * underscores. `template`, `key`, `scope`, `value`, `tags` and
 * `persist-name` are core keywords, listed so that each table documents
 * every option its parser takes.
 */
#include "patterndb-parser.h"
#include "patterndb-grammar.h"

extern int patterndb_debug;

int patterndb_parse(CfgLexer *lexer, LogParser **instance, gpointer arg);

static CfgLexerKeyword pdb_sng_keywords[] =
{
  { "db_parser",          KW_DB_PARSER },
  { "patterndb",          KW_PATTERNDB },
  { "file",               KW_FILE },
  { "drop_unmatched",     KW_DROP_UNMATCHED },
  { "program_template",   KW_PROGRAM_TEMPLATE },
  { "message_template",   KW_MESSAGE_TEMPLATE },
  { "template",           KW_TEMPLATE },
  { "inject_mode",        KW_INJECT_MODE },
  { "prefix",             KW_PREFIX },
  { "context_limit",      KW_CONTEXT_LIMIT },
  { "persist_name",       KW_PERSIST_NAME },
  { NULL }
};

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
pdb_sng_parse(CfgLexer *lexer, gpointer *instance, gpointer arg)
{
  return patterndb_parse(lexer, (LogParser **) instance, arg);
}

static void
pdb_sng_cleanup(gpointer instance)
{
  log_pipe_unref((LogPipe *) instance);
}

CfgParser patterndb_parser =
{
#if SYSLOG_NG_ENABLE_DEBUG
  .debug_flag = &patterndb_debug,
#endif
  .name = "patterndb",
  .keywords = pdb_sng_keywords,
  .parse = pdb_sng_parse,
  .cleanup = pdb_sng_cleanup,
};

CfgParser pdb_grouping_by_parser =
{
  .name = "grouping-by",
  .keywords = pdb_grouping_by_keywords,
  .parse = pdb_sng_parse,
  .cleanup = pdb_sng_cleanup,
};

CFG_PARSER_IMPLEMENT_LEXER_BINDING(patterndb_, PATTERNDB_, LogParser **)

/*
 * patterndb-parser.h: the configuration parsers of db-parser() and
 * patterndb() (patterndb_parser) and of grouping-by()
 * (pdb_grouping_by_parser); keyword tables in patterndb-parser.c, grammar
 * in patterndb-grammar.ym.
 */
#ifndef PDB_SNG_PATTERNDB_PARSER_H
#define PDB_SNG_PATTERNDB_PARSER_H

#include "cfg-parser.h"
#include "parser/parser-expr.h"

extern CfgParser patterndb_parser;
extern CfgParser pdb_grouping_by_parser;

CFG_PARSER_DECLARE_LEXER_BINDING(patterndb_, PATTERNDB_, LogParser **)

#endif

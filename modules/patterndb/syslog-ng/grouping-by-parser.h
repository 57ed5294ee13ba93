/*
 * grouping-by-parser.h: the configuration parser of grouping-by()
 * (keyword table in grouping-by-parser.c, grammar in patterndb-grammar.ym).
 */
#ifndef PDB_SNG_GROUPING_BY_PARSER_H
#define PDB_SNG_GROUPING_BY_PARSER_H

#include "cfg-parser.h"
#include "parser/parser-expr.h"

extern CfgParser pdb_grouping_by_parser;

#endif

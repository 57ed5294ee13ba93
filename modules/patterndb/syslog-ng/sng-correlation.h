/*
 * sng-correlation.h: correlation (modules/patterndb/correlation) over
 * syslog-ng LogMessages: the PdbCorrelationHost that keeps, reads, builds
 * and merges LogMessages.
 */
#ifndef PDB_SNG_CORRELATION_H
#define PDB_SNG_CORRELATION_H

#include "correlation/correlation.h"
#include "logmsg/logmsg.h"

extern const PdbCorrelationHost pdb_sng_correlation_host;

#endif

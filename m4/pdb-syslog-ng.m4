dnl m4/pdb-syslog-ng.m4: what the installed syslog-ng's headers offer.
dnl
dnl PDB_SYSLOG_NG_FEATURES probes the headers found through pkg-config
dnl (SYSLOG_NG_CFLAGS) for the API differences between the syslog-ng
dnl versions the module supports (3.38 and 4.x), and defines HAVE_* / PDB_SNG_*
dnl macros in config.h. Only modules/patterndb/syslog-ng/sng-compat.h reads
dnl them. Each check compiles against the headers; none compares version
dnl numbers.
AC_DEFUN([PDB_SYSLOG_NG_FEATURES], [
  AC_LANG_PUSH([C])
  pdb_save_CPPFLAGS=$CPPFLAGS
  CPPFLAGS="$CPPFLAGS $SYSLOG_NG_CFLAGS"

  dnl syslog-ng 4.x's headers include json-c's <json.h> without saying so in
  dnl syslog-ng.pc; then json-c's flags join SYSLOG_NG_CFLAGS.
  AC_MSG_CHECKING([whether syslog-ng's parser and grammar headers compile on their own])
  AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include "syslog-ng.h"
#include "logmsg/logmsg.h"
#include "template/macros.h"
#include "parser/parser-expr.h"
#include "cfg-grammar-internal.h"]], [[]])],
    [AC_MSG_RESULT([yes])],
    [AC_MSG_RESULT([no, trying with json-c])
     PKG_CHECK_MODULES([JSON_C], [json-c], [],
       [AC_MSG_ERROR([syslog-ng's headers need json-c's <json.h>: install libjson-c-dev])])
     SYSLOG_NG_CFLAGS="$SYSLOG_NG_CFLAGS $JSON_C_CFLAGS"
     CPPFLAGS="$pdb_save_CPPFLAGS $SYSLOG_NG_CFLAGS"
     AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include "syslog-ng.h"
#include "logmsg/logmsg.h"
#include "template/macros.h"
#include "parser/parser-expr.h"
#include "cfg-grammar-internal.h"]], [[]])], [],
       [AC_MSG_ERROR([cannot compile syslog-ng's headers with $SYSLOG_NG_CFLAGS])])])

  dnl The integer value type: LM_VT_INT32 and LM_VT_INT64 (3.x), LM_VT_INTEGER (4.x).
  AC_CHECK_DECLS([LM_VT_INT32, LM_VT_INT64, LM_VT_INTEGER], [], [], [[#include "syslog-ng.h"
#include "logmsg/logmsg.h"]])

  dnl log_macro_expand(): 3.x takes an escape flag after the macro id; 4.x
  dnl takes the escaping from LogTemplateEvalOptions.
  AC_MSG_CHECKING([whether log_macro_expand() takes an escape flag])
  AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include "syslog-ng.h"
#include "template/macros.h"]],
      [[LogTemplateEvalOptions o = DEFAULT_TEMPLATE_EVAL_OPTIONS;
        return !log_macro_expand(0, FALSE, &o, (const LogMessage *) 0, (GString *) 0, (LogMessageValueType *) 0);]])],
    [AC_MSG_RESULT([yes])
     AC_DEFINE([PDB_SNG_MACRO_EXPAND_TAKES_ESCAPE], [1], [log_macro_expand() has a gboolean escape argument])],
    [AC_MSG_RESULT([no])])

  dnl Persisting state across reloads: 3.x's cfg_persist_config_add() takes
  dnl a force flag; 4.x's always replaces.
  AC_MSG_CHECKING([whether cfg_persist_config_add() takes a force flag])
  AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include "syslog-ng.h"
#include "cfg.h"]],
      [[cfg_persist_config_add((GlobalConfig *) 0, "", (gpointer) 0, (GDestroyNotify) 0, TRUE);]])],
    [AC_MSG_RESULT([yes])
     AC_DEFINE([PDB_SNG_PERSIST_ADD_TAKES_FORCE], [1], [cfg_persist_config_add() has a gboolean force argument])],
    [AC_MSG_RESULT([no])])

  dnl Renamed members: LogParser.template (3.x) / .template_obj (4.x),
  dnl LogTemplate.template (3.x) / .template_str (4.x).
  AC_CHECK_MEMBERS([LogParser.template_obj, LogTemplate.template_str], [], [],
    [[#include "syslog-ng.h"
#include "parser/parser-expr.h"
#include "template/templates.h"]])

  dnl A counter key with the legacy component;id;instance triple: 3.x's
  dnl stats_cluster_logpipe_key_set() takes it, 4.x names it ..._legacy_set()
  dnl (its ..._key_set() takes a name and labels).
  AC_CHECK_DECLS([stats_cluster_logpipe_key_legacy_set], [], [], [[#include "syslog-ng.h"
#include "stats/stats-cluster-logpipe.h"]])

  CPPFLAGS=$pdb_save_CPPFLAGS
  AC_LANG_POP([C])
])

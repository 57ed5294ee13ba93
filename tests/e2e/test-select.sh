#!/bin/bash
# tests/e2e/test-select.sh: our db-parser() and grouping-by() are the ones
# syslog-ng uses after `@module patterndb`, even with syslog-ng's own
# (libdbparser.so in 3.x, libcorrelation.so in 4.x; it provides both names)
# in the same module path, whatever the module path order. The proof is an
# option only ours has: context-limit(), which syslog-ng's own parsers
# reject as a syntax error (3.38 and 4.8; 4.8's db-parser() has prefix()
# too). A later `@module dbparser` (`@module correlation`) switches both
# names back, and the two modules then run side by side.
# Only module_info and the init function are exported.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/daemon.sh"
e2e_setup

T=$TEST_TMPDIR
DB="$top_srcdir/tests/e2e/data/basic.xml"
plan 11

exports=$(nm -D --defined-only "$MODULE_SO" | awk '{print $3}' | sort | tr '\n' ' ')
check_eq "only module_info and patterndb_module_init are exported" "module_info patterndb_module_init " "$exports"
check "Debian's $STOCK_PDB_SO is in the module path (so the test means something)" \
  test -f "$SYSTEM_MODULE_DIR/$STOCK_PDB_SO"

# grouping-by() comes first (with context-limit(), which only ours parses);
# its trigger closes each context at once, so the aggregate shows up
# immediately.
cat >"$T/group-first.conf" <<CONF
@version: $SNG_CONFIG_VERSION
@module patterndb
source s_local { unix-stream("$T/sock"); };
parser p_group {
  grouping-by(key("\${PID}") trigger("1" == "1") timeout(30) context-limit(1000)
              aggregate(value("MESSAGE" "grouped \$(context-length)")) inject-mode(pass-through));
};
parser p_pdb { db-parser(file("$DB") prefix(".x.") context-limit(1000)); };
destination d_pdb { file("$T/pdb.log" template("\${.x.user} \${.classifier.class}\n")); };
destination d_group { file("$T/group.log" template("\$MSG\n")); };
log { source(s_local); parser(p_pdb); destination(d_pdb); };
log { source(s_local); parser(p_group); filter { message("^grouped"); }; destination(d_group); };
CONF

run_select() {
  local desc=$1
  rm -f "$T/pdb.log" "$T/group.log"
  if ! daemon_start "$T/group-first.conf" "$2"; then
    not_ok "$desc: daemon starts"; return
  fi
  send_syslog "$T/sock" sshd "Accepted password for bob from 10.0.0.1 port 22 ssh2"
  wait_lines "$T/pdb.log" 1 10
  wait_lines "$T/group.log" 1 10
  daemon_stop
  if [ "$(cat "$T/pdb.log" 2>/dev/null)" = "bob system" ] && grep -q '^grouped' "$T/group.log" 2>/dev/null; then
    ok "$desc"
  else
    not_ok "$desc"; diag "pdb.log: $(cat "$T/pdb.log" 2>&1)"; diag "group.log: $(cat "$T/group.log" 2>&1)"
    diag "$(cat "$DAEMON_LOG")"
  fi
}
run_select "ours (both parsers) with grouping-by() before db-parser(), our build dir first in module-path" a
saved=$MODULE_PATH
MODULE_PATH="$SYSTEM_MODULE_DIR:$top_builddir/.libs"
run_select "ours also with the system module dir first in module-path" b
MODULE_PATH=$saved

# Without @module: the name patterndb() is ours alone and autoloads us.
cat >"$T/autoload.conf" <<CONF
@version: $SNG_CONFIG_VERSION
source s_local { unix-stream("$T/sock"); };
destination d_pdb { file("$T/pdb.log" template("\${.x.user} \${.classifier.rule_id}\n")); };
log { source(s_local); parser { patterndb(file("$DB") prefix(".x.") context-limit(1000)); }; destination(d_pdb); };
CONF
rm -f "$T/pdb.log"
if daemon_start "$T/autoload.conf" c; then
  send_syslog "$T/sock" sshd "Failed password for eve from 10.0.0.2 port 22 ssh2"
  wait_lines "$T/pdb.log" 1 10
  daemon_stop
  check_eq "patterndb() loads our module without @module" "eve r-fail" "$(cat "$T/pdb.log" 2>&1)"
else
  not_ok "patterndb() loads our module without @module"
fi

# syntax check: the options only ours has parse; a wrong inject-mode() does not.
cat >"$T/opts.conf" <<CONF
@version: $SNG_CONFIG_VERSION
@module patterndb
parser p { db-parser(file("/nonexistent/pdb.xml") drop_unmatched(no) inject-mode(aggregate-only)
                     persist-name("x") program_template("\$PROGRAM") template("\$MSG") prefix("p.")); };
CONF
check "every option (with - or _) passes the syntax check" syslog_ng -s -f "$T/opts.conf"
sed 's/aggregate-only/sideways/' "$T/opts.conf" >"$T/bad-opts.conf"
out=$(syslog_ng -s -f "$T/bad-opts.conf" 2>&1)
rc=$?
if [ "$rc" -ne 0 ] && echo "$out" | grep -q "inject-mode"; then
  ok "an unknown inject-mode() is a syntax error naming the option"
else
  not_ok "an unknown inject-mode() is a syntax error naming the option"; diag "rc=$rc $out"
fi
printf "@version: $SNG_CONFIG_VERSION\\n@module $STOCK_PDB_MODULE\\n"'parser p { db-parser(file("/nonexistent/pdb.xml") context-limit(5)); };\n' >"$T/deb.conf"
if "$SYSLOG_NG_BIN" --no-caps --module-path="$SYSTEM_MODULE_DIR" -s -f "$T/deb.conf" >"$T/deb.out" 2>&1; then
  not_ok "Debian's db-parser() rejects context-limit() (so context-limit() proves the selection)"
else
  ok "Debian's db-parser() rejects context-limit() (so context-limit() proves the selection)"
fi

# `@module dbparser` after ours: syslog-ng's db-parser() and grouping-by()
# again (ours are not loaded twice, no symbol clashes), both working.
cat >"$T/switch-back.conf" <<CONF
@version: $SNG_CONFIG_VERSION
@module patterndb
@module $STOCK_PDB_MODULE
source s_local { unix-stream("$T/sock"); };
parser p_group {
  grouping-by(key("\${PID}") trigger("1" == "1") timeout(30)
              aggregate(value("MESSAGE" "grouped \$(context-length)")));
};
parser p_pdb { db-parser(file("$DB")); };
destination d_pdb { file("$T/pdb.log" template("\${user} \${.classifier.class}\n")); };
destination d_group { file("$T/group.log" template("\$MSG\n")); };
log { source(s_local); parser(p_pdb); destination(d_pdb); };
log { source(s_local); parser(p_group); filter { message("^grouped"); }; destination(d_group); };
CONF
rm -f "$T/pdb.log" "$T/group.log"
if daemon_start "$T/switch-back.conf" d; then
  send_syslog "$T/sock" sshd "Accepted password for bob from 10.0.0.1 port 22 ssh2"
  wait_lines "$T/pdb.log" 1 10
  wait_lines "$T/group.log" 1 10
  daemon_stop
  check_eq "with @module $STOCK_PDB_MODULE after ours, both of syslog-ng's parsers work in one daemon" \
    "bob system|grouped 2" "$(cat "$T/pdb.log" 2>&1)|$(cat "$T/group.log" 2>&1)"
else
  not_ok "with @module $STOCK_PDB_MODULE after ours, both of syslog-ng's parsers work in one daemon"
fi
sed 's/timeout(30)/timeout(30) context-limit(5)/' "$T/switch-back.conf" >"$T/switch-back-ours.conf"
if syslog_ng -s -f "$T/switch-back-ours.conf" >/dev/null 2>&1; then
  not_ok "with @module $STOCK_PDB_MODULE after ours, grouping-by() is syslog-ng's again (context-limit() rejected)"
else
  ok "with @module $STOCK_PDB_MODULE after ours, grouping-by() is syslog-ng's again (context-limit() rejected)"
fi
sed "/@module $STOCK_PDB_MODULE/d" "$T/switch-back-ours.conf" >"$T/ours-only.conf"
check "with only @module patterndb, grouping-by() is ours (context-limit() accepted)" \
  syslog_ng -s -f "$T/ours-only.conf"
done_testing

#!/bin/bash
# tests/e2e/test-persist-keys.sh: every db-parser() and grouping-by() keeps
# its own state (database, contexts) across a reload; two parsers never
# share a persist key.
#
# - Which configurations start, row by row, against syslog-ng 3.38's own
#   module (@module dbparser) on the same configuration: two inline
#   db-parser() with the same file start (with or without one
#   persist-name()); two inline grouping-by() with the same key() and
#   scope() are refused with 3.38's "conflicting persist-names" message and
#   its advice to set persist-name(); a named parser referenced by two log
#   paths starts. Deliberate difference: two grouping-by() with different
#   persist-name() values start here (3.38 refuses them too, its name
#   ignores persist-name()).
# - In the running daemon, with a SIGHUP while contexts are open (the
#   generated message counts itself in $(context-length), as in 3.38): two
#   inline db-parser(file(same)) with correlation each time out their own
#   contexts down their own path; two grouping-by() with distinct
#   persist-name() each aggregate their own messages.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/daemon.sh"
e2e_setup
[ -f "$SYSTEM_MODULE_DIR/$STOCK_PDB_SO" ] || skip_all "no stock $STOCK_PDB_MODULE module in $SYSTEM_MODULE_DIR"

T=$TEST_TMPDIR
DB="$T/corr.xml"
cat >"$DB" <<'XML'
<?xml version='1.0'?>
<patterndb version='4' pub_date='2026-01-01'>
  <ruleset name='app' id='rs-app'>
    <patterns><pattern>app</pattern></patterns>
    <rules>
      <rule provider='t' id='open' class='session' context-id='c-$who' context-timeout='3' context-scope='global'>
        <patterns><pattern>open @ANYSTRING:who@</pattern></patterns>
        <actions>
          <action trigger='timeout'><message><values><value name='MESSAGE'>T ${who}@1 n=$(context-length)</value></values></message></action>
        </actions>
      </rule>
    </rules>
  </ruleset>
</patterndb>
XML

GB='key("${kv.k}") timeout(3) aggregate(value("MESSAGE" "A ${kv.k}@1 n=$(context-length)") inherit-mode(none))'
# conf MODULE PARSER-A PARSER-B [DEFINITIONS]: two log paths (sources
# a.sock and b.sock, files a.log and b.log), each with its own parser
# expression.
conf() {
  cat <<CONF
@version: $SNG_CONFIG_VERSION
@module $1
source s_a { unix-stream("$T/a.sock"); };
source s_b { unix-stream("$T/b.sock"); };
destination d_a { file("$T/a.log" template("\$MESSAGE\n")); };
destination d_b { file("$T/b.log" template("\$MESSAGE\n")); };
$4
log { source(s_a); parser { kv-parser(prefix("kv.")); }; parser { $2 }; destination(d_a); };
log { source(s_b); parser { kv-parser(prefix("kv.")); }; parser { $3 }; destination(d_b); };
CONF
}
# starts MODULE PARSER-A PARSER-B [DEFINITIONS]: "starts" or "refused".
starts() {
  conf "$@" >"$T/row.conf"
  if daemon_start "$T/row.conf" row >/dev/null 2>&1; then
    daemon_stop
    echo starts
  else
    echo refused
  fi
}

rows=(
  "two inline db-parser(), same file|db-parser(file(\"$DB\"));|db-parser(file(\"$DB\"));|"
  "two inline db-parser(), same file, one persist-name()|db-parser(file(\"$DB\") persist-name(\"x\"));|db-parser(file(\"$DB\"));|"
  "two inline db-parser(), same file, same persist-name()|db-parser(file(\"$DB\") persist-name(\"x\"));|db-parser(file(\"$DB\") persist-name(\"x\"));|"
  "a named db-parser() in two log paths|parser(p);|parser(p);|parser p { db-parser(file(\"$DB\")); };"
  "a named db-parser() with persist-name() in two log paths|parser(p);|parser(p);|parser p { db-parser(file(\"$DB\") persist-name(\"n\")); };"
  "two inline grouping-by(), same options|grouping-by($GB);|grouping-by($GB);|"
  "two inline grouping-by(), same key(), other timeout()|grouping-by($GB);|grouping-by(${GB/timeout(3)/timeout(5)});|"
  "two inline grouping-by(), same key() and scope(process)|grouping-by($GB scope(process));|grouping-by($GB scope(process));|"
  "two inline grouping-by(), other key()|grouping-by($GB);|grouping-by(${GB/kv.k\}\")/kv.j\}\")});|"
  "two inline grouping-by(), same persist-name()|grouping-by($GB persist-name(\"x\"));|grouping-by($GB persist-name(\"x\"));|"
  "a named grouping-by() in two log paths|parser(p);|parser(p);|parser p { grouping-by($GB); };"
  "a named grouping-by() with persist-name() in two log paths|parser(p);|parser(p);|parser p { grouping-by($GB persist-name(\"n\")); };"
)

plan $((${#rows[@]} + 10))
for row in "${rows[@]}"; do
  IFS='|' read -r what a b defs <<<"$row"
  want=$(starts "$STOCK_PDB_MODULE" "$a" "$b" "$defs")
  got=$(starts patterndb "$a" "$b" "$defs")
  if [ "$what" = "two inline db-parser(), same file, same persist-name()" ] &&
     sng4_skip "as the daemon: $what" "4.x's db-parser() starts with two parsers of one persist-name(), ours refuses them as 3.38 does"; then
    continue
  fi
  check_eq "as 3.38: $what" "$want" "$got"
done

conf patterndb "grouping-by($GB);" "grouping-by($GB);" >"$T/dup.conf"
daemon_start "$T/dup.conf" dup >/dev/null 2>&1 && daemon_stop
check "two inline grouping-by(): the error says the persist names conflict" \
  grep -q "conflicting persist-names" "$DAEMON_LOG"
# (3.38's core spells it "perist-name()")
check "two inline grouping-by(): the error tells to set persist-name()" grep -q "pers\?ist-name()" "$DAEMON_LOG"
check_eq "two grouping-by() with distinct persist-name() start (3.38 refuses them)" "starts" \
  "$(starts patterndb "grouping-by($GB persist-name(\"pa\"));" "grouping-by($GB persist-name(\"pb\"));")"

# correlation: two inline db-parser(file(same)), contexts open across SIGHUP
conf patterndb "db-parser(file(\"$DB\"));" "db-parser(file(\"$DB\"));" >"$T/corr.conf"
rm -f "$T/a.log" "$T/b.log"
if daemon_start "$T/corr.conf" corr; then
  send_syslog "$T/a.sock" app "open alice" "open shared"
  send_syslog "$T/b.sock" app "open bob" "open shared" "open shared"
  wait_lines "$T/a.log" 2 && wait_lines "$T/b.log" 3
  daemon_reload
  wait_lines "$T/a.log" 4 15; wait_lines "$T/b.log" 5 15
  sleep 1
  check_eq "db-parser A: its own contexts time out down its own path" \
    "T alice n=2|T shared n=2" "$(grep '^T ' "$T/a.log" | sort | paste -sd'|')"
  check_eq "db-parser B: its own contexts time out down its own path" \
    "T bob n=2|T shared n=3" "$(grep '^T ' "$T/b.log" | sort | paste -sd'|')"
  check "db-parser: the daemon is still running" kill -0 "$DAEMON_PID"
  daemon_stop
else
  for i in 1 2 3; do not_ok "db-parser: the daemon did not start"; done
fi

# grouping-by with distinct persist-name(), contexts open across SIGHUP
conf patterndb "grouping-by($GB persist-name(\"pa\"));" "grouping-by($GB persist-name(\"pb\"));" >"$T/gb.conf"
rm -f "$T/a.log" "$T/b.log"
if daemon_start "$T/gb.conf" gb; then
  send_lines "$T/a.sock" "<13>Jan  1 00:00:00 app[1]: k=x" "<13>Jan  1 00:00:00 app[1]: k=x"
  send_lines "$T/b.sock" "<13>Jan  1 00:00:00 app[1]: k=x"
  wait_lines "$T/a.log" 2 && wait_lines "$T/b.log" 1
  daemon_reload
  wait_lines "$T/a.log" 3 15; wait_lines "$T/b.log" 2 15
  sleep 1
  check_eq "grouping-by A: its own aggregate down its own path" "A x n=3" "$(grep '^A ' "$T/a.log")"
  check_eq "grouping-by B: its own aggregate down its own path" "A x n=2" "$(grep '^A ' "$T/b.log")"
  check "grouping-by: the daemon is still running" kill -0 "$DAEMON_PID"
  daemon_stop
else
  for i in 1 2 3; do not_ok "grouping-by: the daemon did not start"; done
fi
check "no daemon left running" test -z "$DAEMON_PID"
done_testing

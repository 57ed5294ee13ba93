#!/bin/bash
# A syslog line with an empty message body (dhclient logs one after its
# banner: "dhclient[347]: " in capture c) stays unknown, and no pattern of
# any kind can classify it: syslog-ng 3.38 (pdbtool, and its own
# db-parser() in the daemon) never matches an empty $MSG, neither with an
# empty <pattern> nor with @ANYSTRING@, which needs at least one character.
# Our tool and our module do the same. Controls: the @ANYSTRING@ rule does
# classify a non-empty message with every one of them.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/library/library.sh"
. "$top_srcdir/tests/e2e/daemon.sh"
e2e_setup
T=$TEST_TMPDIR
PDBTOOL=/usr/bin/pdbtool
[ -x "$PDBTOOL" ] || skip_all "pdbtool not installed"
OURS="$top_builddir/patterndb"

# db PATTERN: a database with one rule for dhclient whose pattern is PATTERN.
db() {
  cat <<XML
<?xml version='1.0' encoding='utf-8'?>
<patterndb version='5' pub_date='2026-12-04'>
  <ruleset name='dhclient' id='rs-dhclient'>
    <patterns><pattern>dhclient</pattern></patterns>
    <rules>
      <rule provider='test' id='dhclient-any' class='system'>
        <patterns><pattern>$1</pattern></patterns>
      </rule>
    </rules>
  </ruleset>
</patterndb>
XML
}
db '' >"$T/empty-pattern.xml"
db '@ANYSTRING:rest@' >"$T/anystring.xml"

# class TOOL DB MESSAGE: the class TOOL gives MESSAGE of program dhclient.
class() {
  "$1" match -p "$2" -P dhclient -M "$3" 2>/dev/null | sed -n 's/^\.classifier\.class=//p'
}
for tool in "$PDBTOOL" "$OURS"; do
  t=$(basename "$tool")
  check_eq "$t: empty message, empty pattern: unknown" unknown "$(class "$tool" "$T/empty-pattern.xml" '')"
  check_eq "$t: empty message, @ANYSTRING@: unknown" unknown "$(class "$tool" "$T/anystring.xml" '')"
  check_eq "$t: control: @ANYSTRING@ classifies a non-empty message" system "$(class "$tool" "$T/anystring.xml" 'x')"
done

# capture c's empty dhclient lines, with the library, in both tools
library_merge "$T/library.xml" || not_ok "library merged"
grep -E 'dhclient\[[0-9]+\]: ?$' "$top_srcdir/tests/data/debian12/syslog-c.log" >"$T/empty.log"
n=$(wc -l <"$T/empty.log")
check "capture c holds dhclient lines with an empty message ($n)" [ "$n" -gt 0 ]
for tool in "$PDBTOOL" "$OURS"; do
  check_eq "$(basename "$tool"): capture c's $n empty dhclient lines stay unknown" "$n" \
    "$("$tool" match -p "$T/library.xml" -f "$T/empty.log" -T '${.classifier.class}\n' 2>/dev/null | grep -cx unknown)"
done

# Both daemons: 3.38's own db-parser() and our module, @ANYSTRING@ rule.
for m in $STOCK_PDB_MODULE; do
  [ -f "$SYSTEM_MODULE_DIR/lib$m.so" ] || { done_testing; exit 0; }
done
cat >"$T/conf.in" <<CONF
@version: $SNG_CONFIG_VERSION
@module MODULE
options { $SNG_STATS_OFF };
source s_local { unix-stream("$T/sock"); };
destination d_out { file("$T/OUT" template("[\${MSG}] \${.classifier.class}\n")); };
log { source(s_local); parser { db-parser(file("$T/anystring.xml")); }; destination(d_out); };
CONF
sed -e 's/MODULE/patterndb/' -e 's/OUT/ours.log/' "$T/conf.in" >"$T/ours.conf"
sed -e "s/MODULE/$STOCK_PDB_MODULE/" -e 's/OUT/stock.log/' "$T/conf.in" >"$T/stock.conf"
run_daemon() {
  daemon_start "$2" "$1" || return 1
  send_lines "$T/sock" "<30>Dec  4 20:48:20 dhclient[347]: " "<30>Dec  4 20:48:21 dhclient[347]: x"
  wait_lines "$T/$3" 2 20
  daemon_stop
}
saved=$MODULE_PATH
MODULE_PATH="$SYSTEM_MODULE_DIR"
run_daemon stock "$T/stock.conf" stock.log || diag "3.38 did not start: $(cat "$DAEMON_LOG")"
MODULE_PATH=$saved
run_daemon ours "$T/ours.conf" ours.log || diag "ours did not start: $(cat "$DAEMON_LOG")"
expected='[] unknown
[x] system'
check_eq "syslog-ng 3.38's db-parser(): empty message unknown, 'x' classified" "$expected" "$(cat "$T/stock.log" 2>/dev/null)"
check_eq "our db-parser() in the daemon: the same" "$expected" "$(cat "$T/ours.log" 2>/dev/null)"

done_testing

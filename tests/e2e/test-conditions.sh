#!/bin/bash
# tests/e2e/test-conditions.sh: action conditions in the real syslog-ng,
# our module against syslog-ng 3.38's own db-parser(). Both daemons read
# tests/differential/filters/conditions.xml (every filter function, on
# match actions and on timeout actions over contexts; context-timeout
# shortened to 1 s so the idle timer fires them) and get the same 50 lines
# over a unix socket. Every generated message must be the same, in the same
# order, except netmask6(): 3.38 treats a unix-socket sender as ::1, while
# the SOURCEIP our conditions read is 127.0.0.1 (reported, not asserted).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/daemon.sh"
e2e_setup

T=$TEST_TMPDIR
FDIR=$top_srcdir/tests/differential/filters
sed -e "s|@LIST@|$FDIR/users.list|g" -e "s/context-timeout='60'/context-timeout='1'/" \
  "$FDIR/conditions.xml" > "$T/db.xml"

write_conf() {   # write_conf NAME MODULE-LINE
  cat >"$T/$1.conf" <<CONF
@version: $SNG_CONFIG_VERSION
$2
options { $SNG_STATS_OFF keep-hostname(yes); };
source s { unix-stream("$T/$1.sock" flags(expect-hostname)); };
destination d { file("$T/$1.log" template("\$MSG|\${.classifier.rule_id}|\$PRI|\$HOST\n")); };
log { source(s); parser { db-parser(file("$T/db.xml") inject-mode(pass-through)); }; destination(d); };
CONF
}
write_conf stock ""
write_conf ours "@module patterndb"

# run_one NAME: start, send every line, wait for the timeouts, stop
run_one() {
  daemon_start "$T/$1.conf" "$1" || return 1
  mapfile -t lines < "$FDIR/conditions.messages"
  send_lines "$T/$1.sock" "${lines[@]}"
  wait_lines "$T/$1.log" 1200 20
  # the last timeout actions (the idle timer moves the clock once a second):
  # wait until the file has not grown for 4 s
  local before=-1 now still=0
  now=$(count_lines "$T/$1.log")
  while [ "$still" -lt 4 ]; do
    sleep 1; before=$now; now=$(count_lines "$T/$1.log")
    if [ "$now" -eq "$before" ]; then still=$((still + 1)); else still=0; fi
  done
  daemon_stop
}
run_one stock; ok_stock=$?
run_one ours; ok_ours=$?
check_eq "both daemons ran" "0 0" "$ok_stock $ok_ours"

# the numbers of the netmask6() conditions, whose actions are compared apart
nm6=$(grep -n 'netmask6' "$FDIR/conditions.txt" | cut -d: -f1 | sed 's/^/[ug]/; s/$/ /' | paste -sd'|')
grep -Ev "^($nm6)" "$T/stock.log" > "$T/stock.cmp"
grep -Ev "^($nm6)" "$T/ours.log" > "$T/ours.cmp"
n=$(grep -c '^[ug][0-9]' "$T/stock.cmp")
check "3.38 fired over a thousand actions ($n)" [ "$n" -gt 1000 ]
if cmp -s "$T/stock.cmp" "$T/ours.cmp"; then
  ok "every message and generated message is the same as syslog-ng's own db-parser ($(wc -l < "$T/stock.cmp") lines)"
else
  not_ok "the output differs from syslog-ng's own db-parser"
  diff "$T/stock.cmp" "$T/ours.cmp" | head -20 | while IFS= read -r l; do diag "$l"; done
fi
diag "netmask6() actions: $(grep -Ec "^($nm6)" "$T/stock.log") from syslog-ng, $(grep -Ec "^($nm6)" "$T/ours.log") from ours"
done_testing

#!/bin/bash
# tests/e2e/test-grouping-stats.sh: the counters of our grouping-by() read
# back through syslog-ng-ctl from the real daemon: messages grouped and
# skipped by where(), aggregates made and contexts discarded by having(),
# named after the parser; a reload keeps the counts.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/daemon.sh"
e2e_setup

T=$TEST_TMPDIR
plan 7

cat >"$T/syslog-ng.conf" <<CONF
@version: $SNG_CONFIG_VERSION
@module patterndb
options { $SNG_STATS_OFF };
source s_local { unix-stream("$T/sock" flags(no-parse)); };
parser p_kv { kv-parser(prefix("kv.")); };
parser p_gb {
  grouping-by(key("\${kv.k}") where(not message("skip")) trigger(message("close"))
              having(not message("drop")) timeout(60)
              aggregate(value("MESSAGE" "agg k=\${kv.k} n=\$(context-length)")));
};
destination d_out { file("$T/out.log" template("\${MSG}\n")); };
log { source(s_local); parser(p_kv); parser(p_gb); destination(d_out); };
CONF

# stat INSTANCE: the "processed" value of parser p_gb's counter INSTANCE
stat() {
  syslog-ng-ctl stats -c "$DAEMON_DIR/ctl" \
    | awk -F';' -v i="$1" '$1 == "parser" && $2 == "p_gb" && $3 == i && $5 == "processed" { print $6 }'
}

if ! daemon_start "$T/syslog-ng.conf"; then
  for i in $(seq 1 7); do not_ok "daemon did not start"; done
  exit 1
fi

# context a: three messages, closed with an aggregate; b: one message, its
# context closes with having() false; two messages skipped by where()
send_lines "$T/sock" "one k=a" "two k=a" "skip k=c" "close k=a" "drop close k=b" "skip k=d"
wait_lines "$T/out.log" 7 20
sleep 0.5
# $(context-length) counts the aggregate too while its values are made (3.38)
check_eq "the aggregate of context a was made" "agg k=a n=4" "$(grep '^agg' "$T/out.log")"
check_eq "grouped: the messages that entered a context" 4 "$(stat grouped)"
check_eq "skipped: where() was false" 2 "$(stat skipped)"
check_eq "aggregated: aggregates made" 1 "$(stat aggregated)"
check_eq "discarded: contexts closed with having() false" 1 "$(stat discarded)"

daemon_reload
send_lines "$T/sock" "one k=e" "close k=e"
wait_lines "$T/out.log" 10 20
sleep 0.5
check_eq "after a reload the counts go on" "6 1 2" "$(stat grouped) $(stat discarded) $(stat aggregated)"
check_eq "syslog-ng-ctl query get names the parser" "parser.p_gb.aggregated.processed=2" \
  "$(syslog-ng-ctl query get -c "$DAEMON_DIR/ctl" 'parser.p_gb.aggregated*' | grep processed)"
daemon_stop

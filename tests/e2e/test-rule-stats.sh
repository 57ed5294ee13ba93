#!/bin/bash
# tests/e2e/test-rule-stats.sh: per-rule counters of db-parser() read back
# through syslog-ng-ctl, with the real daemon: a known mix of messages from
# four connections in parallel (no count lost), `stats` and `query get`,
# a SIGHUP reload (counts of unchanged rules kept), a changed database
# (a new rule starts at 0, an unchanged one keeps counting), a file changed
# on disk without a reload (the message-path check swaps the database on a
# worker thread), stats-level(0) (totals only), dropped messages counted
# as unknown and as dropped, unknown messages per program (several
# connections in parallel, before and after reloads; 60 programs at once,
# their counters registered while other connections count).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/daemon.sh"
e2e_setup

T=$TEST_TMPDIR
plan 22

write_db() {   # write_db ID_OF_THE_SECOND_RULE
  cat >"$T/db.xml" <<XML
<?xml version='1.0' encoding='UTF-8'?>
<patterndb version='4' pub_date='2026-12-04'>
 <ruleset name='app' id='rs'>
  <pattern>app</pattern>
  <rules>
   <rule provider='t' id='login' class='system'>
    <patterns><pattern>login @ESTRING:user: @ok</pattern></patterns>
   </rule>
   <rule provider='t' id='$1' class='violation'>
    <patterns><pattern>denied @ANYSTRING:what@</pattern></patterns>
   </rule>
  </rules>
 </ruleset>
</patterndb>
XML
}

write_conf() {   # write_conf LEVEL [DROP_UNMATCHED]
  local level="stats-level($1);"
  case $SNG_CONFIG_VERSION in 3.*) ;; *) level="stats(level($1));" ;; esac
  cat >"$T/syslog-ng.conf" <<CONF
@version: $SNG_CONFIG_VERSION
@module patterndb
options { $SNG_STATS_OFF $level };
source s_local { unix-stream("$T/sock" flags(no-parse) max-connections(10)); };
parser p_split { csv-parser(columns("PROGRAM", "MESSAGE") delimiters(chars("\t"))); };
parser p_pdb { db-parser(file("$T/db.xml") drop-unmatched(${2:-yes})); };
destination d_out { file("$T/out.log" template("\${.classifier.rule_id}\n")); };
log { source(s_local); parser(p_split); parser(p_pdb); destination(d_out); };
CONF
}

# stat INSTANCE: the "processed" value of parser p_pdb's counter INSTANCE
stat() {
  syslog_ng_ctl stats | awk -F';' -v i="$1" '$1 == "parser" && $2 == "p_pdb" && $3 == i && $5 == "processed" { print $6 }'
}
syslog_ng_ctl() { syslog-ng-ctl "$@" -c "$DAEMON_DIR/ctl"; }

# four connections at once: each sends 250 logins, 100 denials, 50 unknown
# of program app and 25 of program kernel (no ruleset), then
# UNKNOWN_APP more unknown of app, UNKNOWN_KERNEL of kernel, PROGRAMS
# programs' unknown messages (see mix()) and one login
send_mix() {
  python3 - "$T/sock" "${1:-400}" "${2:-0}" "${3:-0}" "${4:-0}" <<'PY'
import socket, sys, threading
n, more_app, more_kernel, programs = (int(a) for a in sys.argv[2:6])
def mix(k):
    lines = []
    for i in range(n):
        if i % 8 == 7:
            lines.append(f"app\tnobody knows {k} {i}")
        elif i % 4 == 1:
            lines.append(f"app\tdenied access {k} {i}")
        else:
            lines.append(f"app\tlogin u{k}x{i}: ok")
        if i % 16 == 3:
            lines.append(f"kernel\tusb {k}-{i}: new device")
    lines += [f"app\tnot a rule {k} {i}" for i in range(more_app)]
    lines += [f"kernel\tnot a rule either {k} {i}" for i in range(more_kernel)]
    # program pP gets P+1 unknown messages, interleaved with the others'
    lines += [f"p{p}\tnothing {k} {r}" for r in range(programs) for p in range(programs) if r <= p]
    if more_app or more_kernel or programs:
        lines.append(f"app\tlogin late{k}: ok")
    return lines
def conn(k):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(sys.argv[1])
    s.sendall(("\n".join(mix(k)) + "\n").encode())
    s.close()
threads = [threading.Thread(target=conn, args=(k,)) for k in range(4)]
for t in threads: t.start()
for t in threads: t.join()
PY
}

write_db deny
write_conf 1
daemon_env PATTERNDB_CHECK_INTERVAL=1
if ! daemon_start "$T/syslog-ng.conf"; then
  for i in $(seq 1 14); do not_ok "daemon did not start"; done
  exit 1
fi

send_mix
# 1,700 lines, 300 unknown are dropped: 1,400 written
wait_lines "$T/out.log" 1400 30
sleep 0.5
check_eq "rule login counted every message of four parallel connections" 1000 "$(stat 'rule=login,class=system')"
check_eq "rule deny counted" 400 "$(stat 'rule=deny,class=violation')"
check_eq "matched is the sum of the rules" 1400 "$(stat matched)"
check_eq "unknown counts the dropped messages too" 300 "$(stat unknown)"
check_eq "dropped counts what drop-unmatched(yes) dropped" 300 "$(stat dropped)"
check_eq "unknown per program (app, kernel)" "200 100" \
  "$(stat 'unknown,program=app') $(stat 'unknown,program=kernel')"
check_eq "syslog-ng-ctl query get names the parser, rule and class" \
  "parser.p_pdb.rule=deny,class=violation.processed=400" \
  "$(syslog_ng_ctl query get 'parser.p_pdb.rule=deny*' | grep processed)"
# The daemon's own lines, for the log (README shows them).
syslog_ng_ctl stats | grep '^parser;p_pdb' | sed 's/^/# /'
syslog_ng_ctl query get 'parser.p_pdb.rule=*' | sed 's/^/# /'

daemon_reload
send_lines "$T/sock" "app	login again: ok"
wait_lines "$T/out.log" 1401 20
sleep 0.5
check_eq "after a reload the count goes on" 1001 "$(stat 'rule=login,class=system')"
check_eq "and the totals too" 1401 "$(stat matched)"

# the second rule gets another id: it starts at 0, login keeps counting
write_db refuse
daemon_reload
check_eq "a new rule's counter is there at 0 before its first match" 0 "$(stat 'rule=refuse,class=violation')"
send_lines "$T/sock" "app	denied once more" "app	login third: ok"
wait_lines "$T/out.log" 1403 20
sleep 0.5
check_eq "a new rule id starts at 0" 1 "$(stat 'rule=refuse,class=violation')"
check_eq "an unchanged rule keeps its count in a changed database" 1002 "$(stat 'rule=login,class=system')"
# changed on disk, no SIGHUP: the next message after the check interval
# swaps in the new database; counts go on under the unchanged keys
write_db denial
sleep 1.2
send_lines "$T/sock" "app	login fourth: ok"
wait_for "grep -q 'changed on disk, reloaded' '$DAEMON_LOG'" 10
send_lines "$T/sock" "app	denied after the change" "app	login fifth: ok"
wait_lines "$T/out.log" 1406 20
sleep 0.5
check_eq "after a change on disk: login counted on across the swap" 1004 "$(stat 'rule=login,class=system')"
check_eq "the new rule id of the changed file counts from 0" 1 "$(stat 'rule=denial,class=violation')"
# after two reloads and a swap, four connections at once again: 20 unknown
# of app and 15 of kernel each (then a login each, to know they are through)
send_mix 0 20 15
wait_lines "$T/out.log" 1410 20
sleep 0.5
check_eq "unknown, dropped and unknown per program (app, kernel) went on across the reloads" \
  "440 440 280 160" \
  "$(stat unknown) $(stat dropped) $(stat 'unknown,program=app') $(stat 'unknown,program=kernel')"
check_eq "syslog-ng-ctl query get shows the unknown counters" \
  "parser.p_pdb.unknown,program=app.processed=280 parser.p_pdb.unknown,program=kernel.processed=160 parser.p_pdb.unknown.processed=440" \
  "$(syslog_ng_ctl query get 'parser.p_pdb.unknown*' | grep processed | sort | tr '\n' ' ' | sed 's/ $//')"
# four connections at once, unknown messages of 60 programs interleaved
# (program pK gets K+1 from each connection), a login each at the end:
# every program's first message registers its counter while the other
# connections count into the ones already there
send_mix 0 0 0 60
wait_lines "$T/out.log" 1414 30
sleep 0.5
want=$(for p in $(seq 0 59); do printf 'p%d=%d ' "$p" $((4 * (p + 1))); done)
got=$(for p in $(seq 0 59); do printf 'p%d=%s ' "$p" "$(stat "unknown,program=p$p")"; done)
check_eq "unknown per program: 60 programs from four parallel connections, every count exact" "$want" "$got"
check_eq "unknown went on by the 7,320 of them" 7760 "$(stat unknown)"
syslog_ng_ctl stats | grep '^parser;p_pdb' | sed 's/^/# /'
errors=$(grep -i 'error\|assert' "$DAEMON_LOG" | grep -v werror)
check_eq "the daemon log has no error" "" "$errors"
daemon_stop

# stats-level(0), drop-unmatched(no): the totals, no per-rule or
# per-program counters, nothing dropped
write_conf 0 no
rm -f "$T/out.log"
daemon_start "$T/syslog-ng.conf" level0 || { for i in 1 2 3; do not_ok "daemon did not start"; done; exit 1; }
send_lines "$T/sock" "app	login four: ok" "app	nothing"
wait_lines "$T/out.log" 2 20
sleep 0.5
check_eq "stats-level(0): matched and unknown are there" "1 1" "$(stat matched) $(stat unknown)"
check_eq "stats-level(0): no per-rule or per-program counter" "" "$(syslog_ng_ctl stats | grep 'rule=\|program=')"
check_eq "drop-unmatched(no): dropped stays 0" 0 "$(stat dropped)"
daemon_stop

done_testing

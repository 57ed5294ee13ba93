#!/bin/bash
# tests/e2e/test-load.sh: 100,000 messages from two sources (four loggen
# connections, so several threads classify at once) while the database is
# swapped and syslog-ng is reloaded four times. Every message must arrive
# exactly once (counted by source, loggen thread and sequence number) and
# classified, and messages classified by more than one database version
# must show up (the reloads happened while traffic flowed). Then, without
# SIGHUP, the file changes under traffic and the message-path check picks
# it up exactly once.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/daemon.sh"
e2e_setup

T=$TEST_TMPDIR
DB="$T/load.xml"
PER_CONN=25000          # 2 sources x 2 connections x 25000 = 100000
TOTAL=$((PER_CONN * 4))
RATE=${PDB_LOAD_RATE:-4000}  # per connection: about 6 s of traffic
use_db() {
  sed "s/id='load-a'/id='$1'/" "$top_srcdir/tests/e2e/data/load.xml" >"$DB.new" && mv "$DB.new" "$DB"
}
command -v loggen >/dev/null || skip_all "loggen not installed"

use_db load-a
cat >"$T/syslog-ng.conf" <<CONF
@version: $SNG_CONFIG_VERSION
@module patterndb
options { threaded(yes); $SNG_STATS_OFF log-fifo-size(20000); };
source s_one { unix-stream("$T/sock1" flags(expect-hostname) max-connections(10) log-iw-size(20000)); };
source s_two { unix-stream("$T/sock2" flags(expect-hostname) max-connections(10) log-iw-size(20000)); };
source s_three { unix-stream("$T/sock3" flags(expect-hostname) max-connections(10) log-iw-size(20000)); };
parser p_pdb { db-parser(file("$DB")); };
destination d_out { file("$T/out.log" template("\${SOURCE} \${thread} \${seq} \${.classifier.rule_id}\n")); };
log { source(s_one); source(s_two); source(s_three); parser(p_pdb); destination(d_out); flags(flow-control); };
CONF

plan 9
if ! daemon_start "$T/syslog-ng.conf"; then
  for i in 1 2 3 4 5 6 7 8 9; do not_ok "daemon did not start"; done
  exit 1
fi
loggen -x -S -Q -n "$PER_CONN" -r "$RATE" --active-connections=2 "$T/sock1" >"$T/loggen1.out" 2>&1 &
L1=$!
E2E_CHILD_PIDS="$L1"
loggen -x -S -Q -n "$PER_CONN" -r "$RATE" --active-connections=2 "$T/sock2" >"$T/loggen2.out" 2>&1 &
L2=$!
E2E_CHILD_PIDS="$L1 $L2"
reloads=0
for v in load-b load-a load-b load-c; do
  sleep 0.8
  use_db "$v"
  daemon_reload && reloads=$((reloads + 1))
done
wait "$L1"; rc1=$?
wait "$L2"; rc2=$?
wait_lines "$T/out.log" "$TOTAL" 120

# Phase 2: no SIGHUP. The file changes while 32,000 messages flow for about
# 8 s; the message-path check (every 5 s, one thread at a time) swaps in
# the new database exactly once.
PHASE2=32000
loggen -x -S -Q -n $((PHASE2 / 2)) -r 2000 --active-connections=2 "$T/sock3" >"$T/loggen3.out" 2>&1 &
L3=$!
E2E_CHILD_PIDS="$L3"
sleep 0.5
use_db load-d
wait "$L3"; rc3=$?
wait_lines "$T/out.log" $((TOTAL + PHASE2)) 120
daemon_stop
grep '^s_three ' "$T/out.log" >"$T/phase2.log"
grep -v '^s_three ' "$T/out.log" >"$T/phase1.log"

check_eq "loggen sent everything and four reloads completed" "0 0 4" "$rc1 $rc2 $reloads"
check_eq "$TOTAL lines arrived" "$TOTAL" "$(count_lines "$T/phase1.log")"
check_eq "each message exactly once (source, thread, sequence)" "$TOTAL" \
  "$(awk '{print $1, $2, $3}' "$T/phase1.log" | sort -u | wc -l)"
check_eq "every message classified" "0" "$(awk '$4 !~ /^load-[abc]$/' "$T/phase1.log" | wc -l)"
versions=$(awk '{print $4}' "$T/phase1.log" | sort -u | tr '\n' ' ' | sed 's/ $//')
diag "database versions seen: $versions"
case "$versions" in
  "load-a load-b"*) ok "rules of the old and the new databases were used" ;;
  *) not_ok "rules of the old and the new databases were used"; diag "$versions" ;;
esac
check_eq "no SIGHUP: all $PHASE2 messages arrived once and classified" "0 $PHASE2 $PHASE2" \
  "$rc3 $(awk '$4 ~ /^load-[cd]$/ {print $2, $3}' "$T/phase2.log" | sort -u | wc -l) $(count_lines "$T/phase2.log")"
check_eq "no SIGHUP: the changed file was picked up while traffic flowed" "load-c load-d" \
  "$(awk '{print $4}' "$T/phase2.log" | sort -u | tr '\n' ' ' | sed 's/ $//')"
check_eq "no SIGHUP: the new database was loaded exactly once (single flight)" "1" \
  "$(grep -c 'changed on disk, reloaded' "$DAEMON_LOG")"
# Each connection is read in order: once one of its messages got the new
# database, none of its later messages may get the old one.
check_eq "per connection: old database, then only the new one" "load-c load-d,load-c load-d," \
  "$(for t in $(awk '{print $2}' "$T/phase2.log" | sort -u); do
       awk -v t="$t" '$2 == t {print $4}' "$T/phase2.log" | uniq | tr '\n' ' ' | sed 's/ $/,/'
     done | tr -d '\n')"
done_testing

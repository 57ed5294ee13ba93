#!/bin/bash
# tests/e2e/test-load.sh: 100,000 messages from two sources (four loggen
# connections, so several threads classify at once) while the database is
# swapped and syslog-ng is reloaded four times. Every message must arrive
# exactly once (counted by source, loggen thread and sequence number) and
# classified, and messages classified by more than one database version
# must show up (the reloads happened while traffic flowed).
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
@version: 3.38
@module patterndb
options { threaded(yes); stats-freq(0); log-fifo-size(20000); };
source s_one { unix-stream("$T/sock1" flags(expect-hostname) max-connections(10) log-iw-size(20000)); };
source s_two { unix-stream("$T/sock2" flags(expect-hostname) max-connections(10) log-iw-size(20000)); };
parser p_pdb { db-parser(file("$DB")); };
destination d_out { file("$T/out.log" template("\${SOURCE} \${thread} \${seq} \${.classifier.rule_id}\n")); };
log { source(s_one); source(s_two); parser(p_pdb); destination(d_out); flags(flow-control); };
CONF

plan 5
if ! daemon_start "$T/syslog-ng.conf"; then
  for i in 1 2 3 4 5; do not_ok "daemon did not start"; done
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
daemon_stop

check_eq "loggen sent everything and four reloads completed" "0 0 4" "$rc1 $rc2 $reloads"
check_eq "$TOTAL lines arrived" "$TOTAL" "$(count_lines "$T/out.log")"
check_eq "each message exactly once (source, thread, sequence)" "$TOTAL" \
  "$(awk '{print $1, $2, $3}' "$T/out.log" | sort -u | wc -l)"
check_eq "every message classified" "0" "$(awk '$4 !~ /^load-[abc]$/' "$T/out.log" | wc -l)"
versions=$(awk '{print $4}' "$T/out.log" | sort -u | tr '\n' ' ' | sed 's/ $//')
diag "database versions seen: $versions"
case "$versions" in
  "load-a load-b"*) ok "rules of the old and the new databases were used" ;;
  *) not_ok "rules of the old and the new databases were used"; diag "$versions" ;;
esac
done_testing

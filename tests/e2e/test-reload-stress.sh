#!/bin/bash
# tests/e2e/test-reload-stress.sh: the lock-free database hand-over under
# stress. Two sources with two loggen connections each (several threads
# classify at once, each with its own cached reference to the database)
# while the database changes 24 times: the file is rewritten every 0.25 s,
# the message-path check (interval 1 s here, through
# PATTERNDB_CHECK_INTERVAL) swaps it in from a worker thread, and in the
# last third every other change is also a SIGHUP (new parser objects, the
# database handed over or re-read). Every message must arrive exactly
# once, classified by one of the versions written; several versions must
# have been used and the check must have swapped some; the daemon must
# survive (under ASan in the ASan build).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/daemon.sh"
e2e_setup
command -v loggen >/dev/null || skip_all "loggen not installed"

T=$TEST_TMPDIR
DB="$T/stress.xml"
PER_CONN=12000          # 2 sources x 2 connections x 12000 = 48000
TOTAL=$((PER_CONN * 4))
RATE=${PDB_STRESS_RATE:-2000}   # per connection: about 6 s of traffic
CHANGES=24              # 16 picked up by the check alone, then 8 with 4 SIGHUPs
use_db() {
  sed "s/id='load-a'/id='v$1'/" "$top_srcdir/tests/e2e/data/load.xml" >"$DB.new" && mv "$DB.new" "$DB"
}
DAEMON_ENV="$DAEMON_ENV PATTERNDB_CHECK_INTERVAL=1"

use_db 0
cat >"$T/syslog-ng.conf" <<CONF
@version: $SNG_CONFIG_VERSION
@module patterndb
options { threaded(yes); $SNG_STATS_OFF log-fifo-size(20000); };
source s_one { unix-stream("$T/sock1" flags(expect-hostname) max-connections(10) log-iw-size(20000)); };
source s_two { unix-stream("$T/sock2" flags(expect-hostname) max-connections(10) log-iw-size(20000)); };
parser p_pdb { db-parser(file("$DB")); };
destination d_out { file("$T/out.log" template("\${SOURCE} \${thread} \${seq} \${.classifier.rule_id}\n")); };
log { source(s_one); source(s_two); parser(p_pdb); destination(d_out); flags(flow-control); };
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
# First only the message-path check swaps (a SIGHUP restarts its 1 s
# interval with the new parser), then every other change is a SIGHUP.
reloads=0
for v in $(seq 1 $CHANGES); do
  sleep 0.25
  use_db "$v"
  if [ "$v" -gt $((CHANGES * 2 / 3)) ] && [ $((v % 2)) -eq 0 ]; then
    daemon_reload && reloads=$((reloads + 1))
  fi
done
wait "$L1"; rc1=$?
wait "$L2"; rc2=$?
wait_lines "$T/out.log" "$TOTAL" 120
alive=no
kill -0 "$DAEMON_PID" 2>/dev/null && alive=yes
daemon_stop

check_eq "loggen sent everything, every SIGHUP reload finished, the daemon survived" \
  "0 0 4 yes" "$rc1 $rc2 $reloads $alive"
check_eq "$TOTAL lines arrived" "$TOTAL" "$(count_lines "$T/out.log")"
check_eq "each message exactly once (source, thread, sequence)" "$TOTAL" \
  "$(awk '{print $1, $2, $3}' "$T/out.log" | sort -u | wc -l)"
check_eq "every message classified by a version that was written" "0" \
  "$(awk -v n=$CHANGES '!($4 ~ /^v[0-9]+$/ && substr($4, 2) + 0 <= n)' "$T/out.log" | wc -l)"
versions=$(awk '{print $4}' "$T/out.log" | sort -u | wc -l)
diag "database versions seen: $versions"
check "several database versions classified messages" [ "$versions" -ge 4 ]
checked=$(grep -c 'changed on disk, reloaded' "$DAEMON_LOG")
diag "swaps by the message-path check: $checked"
check "the message-path check swapped databases under traffic" [ "$checked" -ge 1 ]
check_eq "no sanitizer report, no error in the daemon log" "0" \
  "$(grep -c 'AddressSanitizer\|runtime error\|error reloading\|cannot load' "$DAEMON_LOG")"

# More parsers on one thread than a thread caches databases for (8): ten
# parsers in one log path, each with its own prefix, over one connection;
# a SIGHUP in the middle. Every message must get all ten results.
parsers="" path="" tmpl=""
for i in 0 1 2 3 4 5 6 7 8 9; do
  parsers="$parsers parser p$i { patterndb(file(\"$DB\") prefix(\"p$i.\")); };"
  path="$path parser(p$i);"
  tmpl="$tmpl\${p$i.seq} "
done
cat >"$T/many.conf" <<CONF
@version: $SNG_CONFIG_VERSION
@module patterndb
options { $SNG_STATS_OFF };
source s_one { unix-stream("$T/sock9" flags(expect-hostname)); };
$parsers
destination d_out { file("$T/many.log" template("$tmpl\n")); };
log { source(s_one); $path destination(d_out); flags(flow-control); };
CONF
if daemon_start "$T/many.conf" many; then
  loggen -x -S -Q -n 2000 -r 1000 --active-connections=1 "$T/sock9" >"$T/loggen9.out" 2>&1 &
  L9=$!
  E2E_CHILD_PIDS="$L9"
  sleep 1
  use_db many
  daemon_reload
  wait "$L9"; rc9=$?
  wait_lines "$T/many.log" 2000 60
  daemon_stop
  check_eq "ten parsers on one thread: loggen finished, 2000 lines" "0 2000" "$rc9 $(count_lines "$T/many.log")"
  check_eq "ten parsers on one thread: every message got all ten results" "0" \
    "$(awk 'NF != 10 || $1 !~ /^[0-9]+$/ { bad++; next } { for (i = 2; i <= 10; i++) if ($i != $1) bad++ } END { print bad + 0 }' "$T/many.log")"
else
  not_ok "ten parsers: daemon did not start"
  not_ok "ten parsers: daemon did not start"
fi
done_testing

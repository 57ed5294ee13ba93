#!/bin/bash
# tests/reliability/test-restart.sh: syslog-ng restarted mid-stream with a
# reliable disk buffer in front of its destination.
#
#   writer --> in.log --> syslog-ng A (file source, our db-parser,
#              network() to B over loopback TCP with
#              disk-buffer(reliable(yes))) --> syslog-ng B --> out.log
#
# A writer appends N numbered syslog lines to in.log at a steady rate. A
# reads them (a file source keeps its position in the persist file, so a
# restarted A goes on where it stopped), classifies them and forwards the
# result to B, which writes it to out.log. Two runs, each with fresh
# daemons, buffer and files:
#   clean:  B paused (SIGSTOP) so A's disk buffer fills; A stopped
#           (SIGTERM) with that backlog and started again on the same
#           persist file; B resumed (SIGCONT), the backlog drains; A
#           restarted once more while the messages flow.
#   crash:  the same, but A is killed (SIGKILL): once with a full disk
#           buffer (B paused), once while the messages flow.
# Then out.log is counted: every sequence number 0..N-1 must be there
# (nothing lost) and every line must carry the classification.
#
# Duplicates. The file source acknowledges a line (and saves its position)
# once the reliable disk buffer has it on disk; the buffer drops a message
# once it was written to the socket. After a clean stop nothing should be
# read or sent twice; in 13 plain runs there were 0 duplicates, but a CI run
# under ASan (slower shutdown) once delivered 1 line twice across the two
# clean restarts: the reliable disk buffer promises at-least-once, not
# exactly-once, delivery. So a clean restart may repeat at most 1 line (the
# count is reported); a whole window repeated would still fail. After
# SIGKILL the source's window of
# unacknowledged lines (log-iw-size, 100) is read again: at-least-once
# delivery, so up to 100 duplicates per kill are allowed and reported
# (measured: 100 for the two kills, 0 for the clean restarts).
# B is paused, never stopped: plain TCP syslog has no application-level
# acknowledgement, so lines in the kernel buffers of a receiver that exits
# would be lost by design of the protocol, not of A.
# Sizes: N=60,000 at 6,000 lines/s (werror), N=30,000 at 3,000/s (asan);
# 10 s per run either way (the events are placed in tenths of the stream).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/daemon.sh"
e2e_setup

if [ "${PDB_BUILD_FLAVOUR:-werror}" = asan ]; then N=30000; RATE=3000; else N=60000; RATE=6000; fi
N=${PDB_RESTART_MESSAGES:-$N}
RATE=${PDB_RESTART_RATE:-$RATE}
# B may be stopped by SIGSTOP when the test ends: wake it so SIGTERM works.
trap '[ -n "$B_PID" ] && kill -CONT "$B_PID" 2>/dev/null; e2e_kill_children; daemon_stop >/dev/null 2>&1; rm -rf "$TEST_TMPDIR"' EXIT
diag "sizes: $N lines at $RATE/s (flavour ${PDB_BUILD_FLAVOUR:-werror})"

# run_scenario MODE (clean or crash): one run with its own daemons and files.
run_scenario() {
mode=$1
T=$TEST_TMPDIR/$mode
mkdir -p "$T"
A_PID="" B_PID="" WRITER=""
# what a killed A may log on its next start and is no error of ours
ignore='^$'
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
sed "s/id='load-a'/id='restart-rule'/" "$top_srcdir/tests/e2e/data/load.xml" >"$T/db.xml"
mkdir -p "$T/buf"
: >"$T/in.log"
cat >"$T/a.conf" <<CONF
@version: $SNG_CONFIG_VERSION
@module patterndb
options { $SNG_STATS_OFF };
source s_in { file("$T/in.log" follow-freq(0.1) log-iw-size(100)); };
destination d_b {
  network("127.0.0.1" port($PORT) transport(tcp) so-sndbuf(8192)
          template("\${.classifier.rule_id} \${.classifier.class} \${seq}\n")
          disk-buffer(reliable(yes) dir("$T/buf") disk-buf-size(10485760) mem-buf-size(1048576)));
};
log { source(s_in); parser { db-parser(file("$T/db.xml")); }; destination(d_b); flags(flow-control); };
CONF
cat >"$T/b.conf" <<CONF
@version: $SNG_CONFIG_VERSION
options { $SNG_STATS_OFF };
source s_net { network(ip(127.0.0.1) port($PORT) transport(tcp) flags(no-parse) so-rcvbuf(8192)); };
destination d_out { file("$T/out.log" template("\$MSG\n")); };
log { source(s_net); destination(d_out); };
CONF

# start_a / stop_a / kill_a: two daemons through daemon.sh's one slot.
start_a() { daemon_start "$T/a.conf" "$mode-a" && A_PID=$DAEMON_PID && A_LOG=$DAEMON_LOG && A_DIR=$DAEMON_DIR; }
stop_a() {
  DAEMON_PID=$A_PID; daemon_stop; A_PID=""
  cat "$A_LOG" >>"$T/a-all.log"
}
kill_a() {
  kill -KILL "$A_PID"; wait "$A_PID" 2>/dev/null; A_PID=""; DAEMON_PID=""
  cat "$A_LOG" >>"$T/a-all.log"
}
queued_in_a() {
  env $DAEMON_ENV syslog-ng-ctl stats -c "$A_DIR/ctl" 2>/dev/null \
    | awk -F';' '$1 == "dst.network" && $5 == "queued" { print $6 }'
}

daemon_start "$T/b.conf" "$mode-b" || { not_ok "$mode: receiver B did not start"; return 1; }
B_PID=$DAEMON_PID
E2E_CHILD_PIDS="$B_PID"
start_a || { not_ok "$mode: syslog-ng A did not start"; return 1; }

python3 - "$T/in.log" "$N" "$RATE" <<'PY' &
import sys, time
path, n, rate = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
batch = max(1, rate // 100)
start = time.monotonic()
with open(path, "a") as f:
    for i in range(0, n, batch):
        f.write("".join("<13>Dec  3 12:00:00 host prg00000[1]: seq: %010d, thread: 0000, runid: 1, stamp: x, restart test\n" % j
                        for j in range(i, min(n, i + batch))))
        f.flush()
        delay = start + (i + batch) / rate - time.monotonic()
        if delay > 0:
            time.sleep(delay)
PY
WRITER=$!
E2E_CHILD_PIDS="$B_PID $WRITER"
dur=$((N / RATE))
at() { # at FRACTION-IN-TENTHS: sleeps until that part of the stream
  local target=$((start_s * 10 + dur * $1)) now
  now=$(date +%s%N); now=$((now / 100000000))
  [ "$target" -gt "$now" ] && sleep "$(awk -v d=$((target - now)) 'BEGIN { print d / 10 }')"
  return 0
}
start_s=$(date +%s)

at 2; kill -STOP "$B_PID"                     # B paused: A's disk buffer fills
at 4; backlog=$(queued_in_a)
if [ "$mode" = clean ]; then stop_a; else kill_a; fi
start_a || not_ok "$mode: A did not start again"
loaded=$(grep -o "Reliable disk-buffer state loaded.*" "$A_LOG" | grep -o "number_of_messages='[0-9]*'" | grep -o '[0-9]*' | head -1)
at 6; kill -CONT "$B_PID"                     # the backlog drains
at 8                                          # again, while it flows
if [ "$mode" = clean ]; then stop_a; else kill_a; fi
start_a || not_ok "$mode: A did not start again"
wait "$WRITER"; wrc=$?
written=$(wc -l <"$T/in.log")
# Wait until every number arrived (or 60 s), then a second more for strays.
wait_for "[ \$(awk '{ print \$3 }' '$T/out.log' 2>/dev/null | sort -u | wc -l) -ge $N ]" 30
sleep 1
stop_a
DAEMON_PID=$B_PID; daemon_stop; B_PID=""

check_eq "$mode: the writer appended $N lines" "0 $N" "$wrc $written"
if [ "${backlog:-0}" -gt 0 ] && [ "${loaded:-0}" -gt 0 ]; then
  ok "$mode: A was restarted with a backlog: $backlog messages queued before, $loaded loaded from the disk buffer"
else
  not_ok "$mode: A was restarted with a backlog"; diag "queued before the restart: '${backlog}', loaded after: '${loaded}'"
  diag "$(grep -i 'disk-buffer\|disk buffer' "$T/a-all.log" | tail -n 5)"
fi
# A line is whole when it has the shape A's template writes. A line may be
# torn when A stops with B paused and the send buffer full: A had written
# only part of it to the socket; B gets the rest of that connection at EOF
# and logs the fragment as a message. After SIGKILL that is expected; after
# SIGTERM syslog-ng closes the connection with the partial write pending
# (13 plain runs tore none; under ASan 1 torn line at the paused clean stop
# in one CI run and in 2 of 3 runs here). Plain TCP syslog has no framing that could tell, so a torn line per
# stop of A is the protocol's, not ours: the message stays in the reliable
# disk buffer and follows whole. Torn lines are counted apart (each must be
# a prefix of a whole line, at most one per stop of A); loss is counted
# over the whole lines only.
whole_re='^restart-rule load [0-9]{10}$'
grep -E "$whole_re" "$T/out.log" >"$T/whole.log"
grep -vE "$whole_re" "$T/out.log" >"$T/torn.log"
received=$(count_lines "$T/whole.log")
torn=$(count_lines "$T/torn.log")
unique=$(awk '{ print $3 }' "$T/whole.log" | sort -u | wc -l)
missing=$(awk -v n="$N" '{ seen[$3 + 0] = 1 } END { m = 0; for (i = 0; i < n; i++) if (!(i in seen)) m++; print m }' "$T/whole.log")
check_eq "$mode: nothing lost: every sequence number 0..$((N - 1)) arrived in B" "$N 0" "$unique $missing"
if [ "$missing" != 0 ]; then
  diag "missing: $(awk -v n="$N" '{ seen[$3 + 0] = 1 } END { for (i = 0; i < n; i++) if (!(i in seen)) printf "%d ", i }' "$T/whole.log" | cut -c1-200)"
  diag "order in out.log around them and A's log:"
  awk '{ print NR, $3 }' "$T/whole.log" | awk 'NR > 1 && $2 + 0 != prev + 1 { print "line " $1 ": " prev " -> " $2 } { prev = $2 + 0 }' | head -20 | while read -r l; do diag "$l"; done
  diag "$(grep -v 'Accepting\|Syslog connection' "$T/a-all.log" | sed 's/^\[[^]]*T//' | head -40)"
  [ -n "${PDB_KEEP_DIR:-}" ] && cp -r "$T" "$PDB_KEEP_DIR"
fi
# every whole line is classified by construction of $whole_re; a torn line
# must be the start of a classified line
not_prefix=$(awk '{ p = "restart-rule load "; if (!(index(p, $0) == 1 || $0 ~ /^restart-rule load [0-9]*$/)) print }' "$T/torn.log" | wc -l)
max_torn=2  # two stops of A in either mode
if [ "$torn" -le "$max_torn" ] && [ "$not_prefix" -eq 0 ]; then
  ok "$mode: every line classified (restart-rule, class load); torn by a stop of A: $torn (at most $max_torn, each a prefix of a whole line)"
else
  not_ok "$mode: every line classified (restart-rule, class load); torn by a stop of A: $torn (at most $max_torn, each a prefix of a whole line)"
  diag "$(head -5 "$T/torn.log")"
fi
dups=$((received - unique))
diag "$mode: $N sent, $received whole lines received, $unique distinct, $dups duplicates, $torn torn"
if [ "$mode" = clean ]; then
  if [ "$dups" -le 2 ]; then
    ok "clean: at most one line twice per clean restart: $dups duplicates (2 restarts)"
  else
    not_ok "clean: at most one line twice per clean restart (2 restarts)"; diag "$dups duplicates"
  fi
elif [ "$dups" -le 200 ]; then
  ok "crash: duplicates within the re-read windows: $dups (at most 2 kills x log-iw-size 100)"
else
  not_ok "crash: duplicates within the re-read windows (at most 200)"; diag "$dups"
fi
# The reliable queue drops when mem-buf-size() cannot hold a source's window
# (log-iw-size): with 100 messages and 1 MiB it must never come to that.
if grep -i 'dropping\|corrupt\|error' "$T/a-all.log" | grep -qv "$ignore"; then
  not_ok "$mode: A logged no drop and no error"; diag "$(grep -i 'dropping\|corrupt\|error' "$T/a-all.log" | head -5)"
else
  ok "$mode: A logged no drop and no error"
fi
}

run_scenario clean
run_scenario crash
done_testing

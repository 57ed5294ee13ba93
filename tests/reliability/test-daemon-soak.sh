#!/bin/bash
# tests/reliability/test-daemon-soak.sh: the daemon's memory stays flat.
#  1. Messages: loggen sends N messages over one unix-stream connection
#     into syslog-ng with our db-parser (the bundled library plus a rule for
#     loggen's lines); the output goes through a FIFO to an awk reader that
#     checks every line on the fly (rule id, sequence number in order), so
#     nothing is written to disk. The daemon's RSS is sampled every second.
#  2. Reloads: R/5 + R SIGHUP reloads of a fresh daemon, each with the test
#     file changed (a new rule id), so every one builds a new database;
#     every 50th is followed by a message that must carry the newest rule
#     id. RSS is sampled after each of the last R.
# Flat means: the lowest RSS sample in the last fifth of the run exceeds
# the lowest one between 40% and 60% by at most 4 MiB (messages) or 1 MiB
# (reloads). Lowest, because RSS moves up and down by a few hundred KiB
# (a batch in flight); with messages it also steps up once or twice a run
# by about 1.7 MiB when malloc's heap grows, hence 4 MiB. The daemon runs
# with MALLOC_ARENA_MAX=1, and the reloads with threaded(no) after R/5
# unsampled warm-up reloads (why: see below). A leak raises the floor:
# one allocation (>= 16 bytes) per message by >= 16 bytes x 0.2 N (30 MiB
# at 10 M), one per 8 messages still by 4 MiB; 5 KiB per reload by
# >= 1 MiB at 1,000; a leaked database (>= 100 KiB) by >= 20 MiB. The
# queues are small (log-iw-size 1000, log-fifo-size 2000), so a backlog
# cannot pose as growth.
# Sizes: werror flavour N=10,000,000 and R=1,000 (the issue's figures;
# about 1 minute each on 2 cores); asan flavour N=1,000,000 and R=200 (ASan
# is several times slower), RSS reported but not asserted there (its
# allocator keeps freed chunks and per-thread caches). PDB_SOAK_MESSAGES and
# PDB_SOAK_RELOADS override the sizes.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/daemon.sh"
e2e_setup
command -v loggen >/dev/null || skip_all "loggen not installed"

if [ "${PDB_BUILD_FLAVOUR:-werror}" = asan ]; then n=1000000; reloads=200; else n=10000000; reloads=1000; fi
n=${PDB_SOAK_MESSAGES:-$n}
reloads=${PDB_SOAK_RELOADS:-$reloads}
BOUND_MSG=4096
BOUND_RELOAD=1024
DAEMON_ENV=${DAEMON_ENV/detect_leaks=0/detect_leaks=0:quarantine_size_mb=0}
# One malloc arena: each worker thread that joins in otherwise brings its
# own, and RSS steps up by 1-2 MiB when it does (measured at 6-8 M
# messages: +1.7 MiB, with one arena: +72 KiB). A leak grows one arena as
# well as several.
DAEMON_ENV="$DAEMON_ENV MALLOC_ARENA_MAX=1"
assert_rss=yes
[ "$E2E_SANITIZED" = 1 ] && assert_rss=no
T=$TEST_TMPDIR
plan 8
diag "sizes: $n messages, $reloads reloads (flavour ${PDB_BUILD_FLAVOUR:-werror}$([ "$assert_rss" = no ] && echo ', RSS reported only'))"

mkdir -p "$T/db"
cp "$top_srcdir"/contrib/patterns/*.xml "$T/db/"
# version_db ID: loggen's rule with the id ID, written aside and renamed.
version_db() {
  sed "s/id='load-a'/id='$1'/" "$top_srcdir/tests/e2e/data/load.xml" >"$T/db/zz-load.xml.new" \
    && mv "$T/db/zz-load.xml.new" "$T/db/zz-load.xml"
}
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$DAEMON_PID/status" 2>/dev/null; }
# The reload loop runs 1,000 times: no process forked that need not be.
load_xml=$(cat "$top_srcdir/tests/e2e/data/load.xml")
version_db_quick() { # version_db_quick ID, with builtins and one mv
  printf '%s\n' "${load_xml//id=\'load-a\'/id=\'$1\'}" >"$T/db/zz-load.xml.new" \
    && mv "$T/db/zz-load.xml.new" "$T/db/zz-load.xml"
}
rss_quick() {
  local k v rest
  while read -r k v rest; do [ "$k" = VmRSS: ] && { echo "$v"; return; }; done <"/proc/$DAEMON_PID/status"
}
# reload_quick: SIGHUP, then reads the daemon's log from fd $logfd (opened
# once) until the reload is reported; a line read only in part is kept.
partial=""
reload_quick() {
  local line t=0
  kill -HUP "$DAEMON_PID" || return 1
  while :; do
    while IFS= read -r -u "$logfd" line; do
      line=$partial$line; partial=""
      case $line in *"Configuration reload finished"*|*"Error initializing new configuration"*) return 0 ;; esac
    done
    partial=$partial$line
    t=$((t + 1)); [ "$t" -gt 6000 ] && return 1
    sleep 0.005
  done
}
# flatness SAMPLES TOTAL: "base late peak" from lines "progress rss": base
# is the lowest sample taken between 40% and 60% of the run (the first
# sample after 40% if there is none in that window), late the lowest of
# the last fifth.
flatness() {
  local base late peak
  base=$(awk -v a=$(($2 * 4 / 10)) -v b=$(($2 * 6 / 10)) '$1 >= a && $1 <= b && $2 != "" { print $2 }' "$1" | sort -n | head -n 1)
  [ -n "$base" ] || base=$(awk -v a=$(($2 * 4 / 10)) '$1 >= a && $2 != "" { print $2; exit }' "$1")
  late=$(awk -v a=$(($2 * 8 / 10)) '$1 >= a && $2 != "" { print $2 }' "$1" | sort -n | head -n 1)
  peak=$(awk '$2 > m { m = $2 } END { print m + 0 }' "$1")
  echo "${base:--} ${late:--} $peak"
}
# rss_verdict WHAT BASE LATE BOUND
rss_verdict() {
  if [ "$assert_rss" = no ]; then
    echo "ok $((_tap_n + 1)) - $1: $2 KiB -> $3 KiB # SKIP not a leak measure under ASan"
    _tap_n=$((_tap_n + 1))
  elif ! measured "$1 (bound +$4 KiB)" "$2" "$3"; then :
  elif [ $(($3 - $2)) -le "$4" ]; then
    ok "$1: $2 KiB -> $3 KiB (bound +$4 KiB)"
  else
    not_ok "$1 (bound +$4 KiB)"; diag "$2 KiB -> $3 KiB"
  fi
}

# --- 1. N messages ---------------------------------------------------------
version_db load-soak
mkfifo "$T/fifo"
cat >"$T/soak.conf" <<CONF
@version: $SNG_CONFIG_VERSION
@module patterndb
options { $SNG_STATS_OFF log-fifo-size(2000); };
source s_load { unix-stream("$T/sock" flags(expect-hostname) max-connections(1) log-iw-size(1000)); };
destination d_fifo { pipe("$T/fifo" template("\${.classifier.rule_id} \${seq}\n")); };
log { source(s_load); parser { db-parser(file("$T/db")); }; destination(d_fifo); flags(flow-control); };
CONF
# The reader: counts lines, wrong rule ids and sequence numbers out of
# order; writes its count to $T/progress every 100,000 lines and at the
# last one, and the three figures when the daemon closes the FIFO.
# mawk fills its whole input buffer before it looks at a line: -W
# interactive makes it take lines as they come.
awk_opts=""
awk -W version 2>&1 | grep -q mawk && awk_opts="-W interactive"
awk $awk_opts -v progress="$T/progress" -v total="$n" '
  { if ($1 != "load-soak") bad++
    if ($2 + 0 != next_seq || $2 == "") ooo++
    next_seq = $2 + 1; n++
    if (n % 100000 == 0 || n == total) { print n > progress; close(progress) } }
  END { print n + 0, bad + 0, ooo + 0 > progress }' <"$T/fifo" &
READER=$!
E2E_CHILD_PIDS="$READER"
if ! daemon_start "$T/soak.conf" soak; then
  for i in 1 2 3 4; do not_ok "syslog-ng did not start"; done
else
  start=$(date +%s)
  loggen -x -S -Q -r 100000000 -I 100000 -n "$n" "$T/sock" >"$T/loggen.out" 2>&1 &
  LOGGEN=$!
  E2E_CHILD_PIDS="$READER $LOGGEN"
  : >"$T/samples"
  # One sample a second (messages received so far, RSS) until all arrived.
  while :; do
    got=$(awk '{print $1; exit}' "$T/progress" 2>/dev/null)
    echo "${got:-0} $(rss)" >>"$T/samples"
    [ "${got:-0}" -ge "$n" ] && break
    kill -0 "$DAEMON_PID" 2>/dev/null || break
    [ $(($(date +%s) - start)) -gt 600 ] && break
    sleep 1
  done
  wait "$LOGGEN"; rc=$?
  echo "$n $(rss)" >>"$T/samples"
  elapsed=$(($(date +%s) - start))
  check "syslog-ng survived $n messages" kill -0 "$DAEMON_PID"
  daemon_stop
  wait "$READER"
  check_eq "loggen sent $n messages" "0" "$rc"
  check_eq "received: $n lines, 0 not classified by the test rule, 0 out of order or repeated" \
    "$n 0 0" "$(cat "$T/progress")"
  read -r base late peak <<<"$(flatness "$T/samples" "$n")"
  diag "$n messages in $elapsed s; RSS samples (messages KiB): $(awk 'NR % 10 == 1' "$T/samples" | tr '\n' ',')"
  diag "RSS: lowest $base KiB at 40-60% of the messages, lowest $late KiB in the last fifth, peak $peak KiB"
  rss_verdict "syslog-ng RSS flat over $n messages" "$base" "$late" "$BOUND_MSG"
fi

# --- 2. R reloads ------------------------------------------------------------
version_db r-0
# threaded(no): with worker threads, an idle one keeps the database it last
# used until its next message (the module's per-thread cache), so RSS
# steps up by one database per such thread (measured: 17.5 -> 21.0 MiB in
# steps of about 1.6 MiB, then flat): bounded, but it would hide a small
# leak. On the main thread alone the old database goes at once.
cat >"$T/reload.conf" <<CONF
@version: $SNG_CONFIG_VERSION
@module patterndb
options { $SNG_STATS_OFF threaded(no); };
source s_check { unix-stream("$T/sock2" flags(expect-hostname)); };
destination d_out { file("$T/out.log" template("\${.classifier.rule_id} \${seq}\n")); };
log { source(s_check); parser { db-parser(file("$T/db")); }; destination(d_out); };
CONF
if ! daemon_start "$T/reload.conf" reload; then
  for i in 1 2 3 4; do not_ok "syslog-ng did not start"; done
else
  start=$(date +%s)
  done_reloads=0 wrong=0 checked=0
  : >"$T/rsamples"
  exec {logfd}<"$DAEMON_LOG"
  # R/5 warm-up reloads first (RSS levels out after a few hundred), then
  # the R reloads that are sampled; all are checked the same way.
  warm=$((reloads / 5))
  total=$((warm + reloads))
  for i in $(seq 1 "$total"); do
    version_db_quick "r-$i"
    reload_quick && done_reloads=$((done_reloads + 1))
    if [ $((i % 50)) -eq 0 ] || [ "$i" -eq "$total" ]; then
      checked=$((checked + 1))
      loggen -x -S -Q -n 1 "$T/sock2" >/dev/null 2>&1
      wait_lines "$T/out.log" "$checked" 10
      got=$(tail -n 1 "$T/out.log")
      [ "$got" = "r-$i 0000000000" ] || { wrong=$((wrong + 1)); diag "after reload $i: got '$got'"; }
    fi
    [ "$i" -gt "$warm" ] && echo "$((i - warm)) $(rss_quick)" >>"$T/rsamples"
  done
  elapsed=$(($(date +%s) - start))
  check_eq "$warm + $reloads SIGHUP reloads with a changed file completed" "$total" "$done_reloads"
  check_eq "$checked check messages: each classified by the newest rules, none lost" "0 $checked" \
    "$wrong $(count_lines "$T/out.log")"
  check_eq "each reload re-read the changed file" "$total" "$(grep -c 'pattern database reloaded' "$DAEMON_LOG")"
  read -r base late peak <<<"$(flatness "$T/rsamples" "$reloads")"
  diag "$warm + $reloads reloads in $elapsed s; over the last $reloads: RSS lowest $base KiB at 40-60% of them, lowest $late KiB in the last fifth, peak $peak KiB"
  rss_verdict "syslog-ng RSS flat over $reloads reloads (after $warm)" "$base" "$late" "$BOUND_RELOAD"
  daemon_stop
fi
done_testing

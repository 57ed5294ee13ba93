#!/bin/bash
# tests/reliability/test-memory.sh: memory stays flat.
#  1. `patterndb match -f` over N and 10*N generated messages (a quarter of
#     each class: accepted, failed, cron, unknown): the peak RSS of the long
#     run may exceed the short one's by at most 1 MiB, and every message is
#     classified (nothing lost).
#  2. syslog-ng with our module and the bundled library plus a test file:
#     after 20 warm-up reloads, R more SIGHUP reloads, each with a changed
#     file and one message checked to be classified by the new rules; the
#     daemon's RSS may grow by at most 1 MiB over them. Then a broken file
#     (the old rules stay) and the file replaced by a symlink (followed).
# Sizes: werror flavour N=1,000,000 (10 M messages) and R=200; asan flavour
# N=200,000, R=50 and 2 MiB for the daemon (ASan's allocator is noisier).
# PDB_MEMTEST_QUICK=1: N=1,000 and R=5, to try the script.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/daemon.sh"

if [ "${PDB_BUILD_FLAVOUR:-werror}" = asan ]; then n=200000; reloads=50; bound=2048; else n=1000000; reloads=200; bound=1024; fi
[ -n "${PDB_MEMTEST_QUICK:-}" ] && { n=1000; reloads=5; }
P="$top_builddir/patterndb"

gen() {
  python3 -c '
import sys
n = int(sys.argv[1])
fmt = [b"Dec  3 11:00:%02d host sshd[%d]: Accepted password for user%d from 10.0.%d.%d port %d ssh2\n",
       b"Dec  3 11:00:%02d host sshd[%d]: Failed password for invalid user u%d from 10.1.%d.%d port %d ssh2\n",
       b"Dec  3 11:00:%02d host cron[%d]: (root%d) CMD (run-parts /etc/cron.hourly %d %d %d)\n",
       b"Dec  3 11:00:%02d host app[%d]: unknown message %d with %d random %d words %d\n"]
out = sys.stdout.buffer
buf = []
for i in range(n):
    buf.append(fmt[i % 4] % (i % 60, i % 30000, i, i % 256, (i >> 8) % 256, i % 65536))
    if len(buf) == 10000:
        out.write(b"".join(buf)); buf = []
out.write(b"".join(buf))' "$1"
}

# run_match N: prints "peak-RSS-KiB classes" for N generated messages.
run_match() {
  gen "$1" | time_rss "$TEST_TMPDIR/time" \
    "$P" match -p "$top_srcdir/contrib/patterns" -f - -T '${.classifier.class}\n' 2>"$TEST_TMPDIR/err" \
    | sort | uniq -c | awk '{ printf "%s=%s ", $2, $1 }'
  echo "rss=$(tail -1 "$TEST_TMPDIR/time" | awk '{ print $1 }')"
}

e2e_setup
# Under ASan freed memory sits in a quarantine (up to 256 MiB), which would
# look like growth: switch it off for the daemon.
DAEMON_ENV=${DAEMON_ENV/detect_leaks=0/detect_leaks=0:quarantine_size_mb=0}
small=$(run_match "$n")
big=$(run_match $((n * 10)))
q=$((n * 10 / 4))
rss_small=${small##*rss=}
rss_big=${big##*rss=}
check_eq "$((n * 10)) messages: every one classified" \
  "security=$q system=$q unknown=$q violation=$q" "${big% rss=*}"
if ! measured "match -f: peak RSS flat" "$rss_small" "$rss_big"; then :
elif [ $((rss_big - rss_small)) -le 1024 ]; then
  ok "match -f: peak RSS flat: $rss_small KiB for $n messages, $rss_big KiB for $((n * 10))"
else
  not_ok "match -f: peak RSS flat"; diag "$rss_small KiB for $n messages, $rss_big KiB for $((n * 10))"
fi

# --- The daemon across reloads.
T=$TEST_TMPDIR
mkdir -p "$T/db"
cp "$top_srcdir"/contrib/patterns/*.xml "$T/db/"
version_db() {
  sed "s/id='r-accept'/id='$1'/; s|<pattern>sshd</pattern>|<pattern>memtest</pattern>|" \
    "$top_srcdir/tests/e2e/data/basic.xml" >"$T/db/zz-test.xml.new" && mv "$T/db/zz-test.xml.new" "$T/db/zz-test.xml"
}
version_db r-0
# threaded(no): each worker thread keeps a reference to the last database it
# used until its next message, so with worker threads RSS rises in bounded
# steps of one database per thread (not a leak; test-daemon-soak.sh measures
# it) and the steps would hide a small per-reload leak.
cat >"$T/syslog-ng.conf" <<CONF
@version: $SNG_CONFIG_VERSION
@module patterndb
options { threaded(no); };
source s_local { unix-stream("$T/sock"); };
destination d_out { file("$T/out.log" template("\${.classifier.rule_id}\n")); };
log { source(s_local); parser { db-parser(file("$T/db")); }; destination(d_out); };
CONF
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$DAEMON_PID/status"; }
# one_round I: new rules, reload, message number I; prints the rule id it got.
one_round() {
  version_db "r-$1"
  daemon_reload || return 1
  send_syslog "$T/sock" memtest "Accepted password for u$1 from 10.0.0.1 port 22 ssh2"
  wait_lines "$T/out.log" "$1" 10 || return 1
  tail -n 1 "$T/out.log"
}
if daemon_start "$T/syslog-ng.conf"; then
  for i in $(seq 1 20); do one_round "$i" >/dev/null; done
  rss_before=$(rss)
  wrong=0
  for i in $(seq 21 $((20 + reloads))); do
    got=$(one_round "$i")
    [ "$got" = "r-$i" ] || { wrong=$((wrong + 1)); diag "round $i: got '$got'"; }
  done
  rss_after=$(rss)
  check_eq "$reloads reloads with a changed file: each message classified by the new rules" 0 "$wrong"
  check_eq "messages sent and written (nothing lost or duplicated)" "$((20 + reloads))" "$(count_lines "$T/out.log")"
  if [ "${PDB_BUILD_FLAVOUR:-werror}" = asan ]; then
    # ASan's allocator keeps freed chunks and per-thread caches: its RSS
    # says little about leaks. The bound is asserted in the werror flavour.
    echo "ok $((_tap_n + 1)) - syslog-ng RSS over $reloads reloads: $rss_before KiB -> $rss_after KiB # SKIP not a leak measure under ASan"
    _tap_n=$((_tap_n + 1))
  elif ! measured "syslog-ng RSS flat over $reloads reloads" "$rss_before" "$rss_after"; then :
  elif [ $((rss_after - rss_before)) -le "$bound" ]; then
    ok "syslog-ng RSS flat over $reloads reloads: $rss_before KiB -> $rss_after KiB"
  else
    not_ok "syslog-ng RSS flat over $reloads reloads"; diag "$rss_before KiB -> $rss_after KiB"
  fi
  # Faults: a broken file keeps the old rules; a symlink to a new file is followed.
  last=$((20 + reloads))
  printf '<patterndb version="6"><ruleset' >"$T/db/zz-test.xml"
  daemon_reload
  send_syslog "$T/sock" memtest "Accepted password for broken from 10.0.0.1 port 22 ssh2"
  wait_lines "$T/out.log" $((last + 1)) 10
  check_eq "a broken file on reload: the old rules stay active" "r-$last" "$(tail -n 1 "$T/out.log")"
  check "a broken file on reload: the error names file:line:column" \
    grep -q 'error reloading the pattern database.*zz-test.xml:[0-9]*:[0-9]*' "$DAEMON_LOG"
  sed "s/id='r-accept'/id='r-symlink'/; s|<pattern>sshd</pattern>|<pattern>memtest</pattern>|" \
    "$top_srcdir/tests/e2e/data/basic.xml" >"$T/elsewhere.xml"
  ln -sf "$T/elsewhere.xml" "$T/db/zz-test.xml"
  daemon_reload
  send_syslog "$T/sock" memtest "Accepted password for symlink from 10.0.0.1 port 22 ssh2"
  wait_lines "$T/out.log" $((last + 2)) 10
  check_eq "the file replaced by a symlink: its target is loaded" "r-symlink" "$(tail -n 1 "$T/out.log")"
  check "the daemon is still running" kill -0 "$DAEMON_PID"
  daemon_stop
else
  not_ok "syslog-ng did not start"
fi
done_testing

#!/bin/bash
# tests/reliability/test-memory.sh: memory stays flat.
#  1. `patterndb match -f` over N and 10*N generated messages (a quarter of
#     each class: accepted, failed, cron, unknown): the peak RSS of the long
#     run may exceed the short one's by at most 1 MiB, and every message is
#     classified (nothing lost).
#  2. syslog-ng with our module and the bundled library plus a test file:
#     after 20 warm-up reloads, R more SIGHUP reloads, each with a changed
#     file and one message checked to be classified by the new rules; the
#     daemon's RSS may grow by at most 1 MiB over them.
# Sizes: werror flavour N=1,000,000 (10 M messages) and R=200; asan flavour
# N=200,000 and R=50 (ASan's quarantine makes its RSS noisier).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/daemon.sh"

if [ "${PDB_BUILD_FLAVOUR:-werror}" = asan ]; then n=200000; reloads=50; else n=1000000; reloads=200; fi
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
  gen "$1" | /usr/bin/time -f '%M' -o "$TEST_TMPDIR/time" \
    "$P" match -p "$top_srcdir/contrib/patterns" -f - -T '${.classifier.class}\n' 2>"$TEST_TMPDIR/err" \
    | sort | uniq -c | awk '{ printf "%s=%s ", $2, $1 }'
  echo "rss=$(tail -1 "$TEST_TMPDIR/time")"
}

e2e_setup
small=$(run_match "$n")
big=$(run_match $((n * 10)))
q=$((n * 10 / 4))
rss_small=${small##*rss=}
rss_big=${big##*rss=}
check_eq "$((n * 10)) messages: every one classified" \
  "security=$q system=$q unknown=$q violation=$q" "${big% rss=*}"
if [ $((rss_big - rss_small)) -le 1024 ]; then
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
cat >"$T/syslog-ng.conf" <<CONF
@version: 3.38
@module patterndb
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
  if [ -n "$rss_after" ] && [ $((rss_after - rss_before)) -le 1024 ]; then
    ok "syslog-ng RSS flat over $reloads reloads: $rss_before KiB -> $rss_after KiB"
  else
    not_ok "syslog-ng RSS flat over $reloads reloads"; diag "$rss_before KiB -> $rss_after KiB"
  fi
  daemon_stop
else
  not_ok "syslog-ng did not start"
fi
done_testing

#!/bin/bash
# tests/e2e/test-reload-big.sh: a database file over 1 MiB in the daemon,
# which loads it on two threads (db/insert-worker.h) at start-up and again
# at each SIGHUP, while the old database keeps classifying. 20,000
# generated rules (contrib/bench/benchgen.py, 41 programs) and 4,000 of
# their lines: the daemon's rule ids must equal the tool's for every line
# (`patterndb match`, checked against pdbtool by tests/tool/test-match-big.sh),
# before and after reloads to a database whose rule ids changed; a reload
# to a broken big file keeps the loaded rules.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/daemon.sh"
e2e_setup
command -v python3 >/dev/null || skip_all "python3 not installed"

T=$TEST_TMPDIR
DB="$T/db.xml"
python3 "$top_srcdir/contrib/bench/benchgen.py" synth --rules 20000 --lines 4000 --out "$T/synth" >/dev/null
size=$(stat -c %s "$T/synth/patterndb.xml")

# version_db TAG: the generated rules with their ids prefixed by TAG,
# written aside and renamed into place
version_db() {
  sed "s/<rule \\([^>]*\\)id=\"/<rule \\1id=\"$1-/" "$T/synth/patterndb.xml" >"$DB.new" && mv "$DB.new" "$DB"
}
cat >"$T/syslog-ng.conf" <<CONF
@version: $SNG_CONFIG_VERSION
@module patterndb
options { $SNG_STATS_OFF keep-hostname(yes); };
source s_local { unix-stream("$T/sock" flags(expect-hostname) log-iw-size(10000)); };
destination d_out { file("$T/out.log" template("\${.classifier.rule_id}\n")); };
log { source(s_local); parser { db-parser(file("$DB")); }; destination(d_out); flags(flow-control); };
CONF

PATTERNDB=$top_builddir/patterndb
n_out=0
# send_input: every generated line, with a priority, on one connection
send_input() {
  python3 - "$T/sock" "$T/synth/input.log" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
with open(sys.argv[2], "rb") as f:
    s.sendall(b"".join(b"<13>" + line for line in f))
s.close()
PY
  n_out=$((n_out + $(wc -l <"$T/synth/input.log")))
}

# round TAG: sends every line, checks the daemon's rule ids against the
# tool's on the same database
round() {
  local tag=$1 got want
  "$PATTERNDB" match -p "$DB" -f "$T/synth/input.log" -T '${.classifier.rule_id}\n' >"$T/want.$tag"
  send_input
  if ! wait_lines "$T/out.log" "$n_out" 60; then
    not_ok "$tag: all $(wc -l <"$T/synth/input.log") lines arrive ($(count_lines "$T/out.log") of $n_out)"
    return
  fi
  tail -n "$(wc -l <"$T/synth/input.log")" "$T/out.log" >"$T/got.$tag"
  if cmp -s "$T/want.$tag" "$T/got.$tag"; then
    ok "$tag: the daemon's rule ids equal the tool's ($(grep -c "^$tag-" "$T/got.$tag") lines classified)"
  else
    not_ok "$tag: the daemon's rule ids differ from the tool's"
    diff "$T/want.$tag" "$T/got.$tag" | head -6 | while IFS= read -r l; do diag "$l"; done
  fi
}

check "the generated database is over 1 MiB ($size bytes)" test "$size" -ge 1048576
version_db v1
daemon_start "$T/syslog-ng.conf" || { not_ok "syslog-ng starts with the big database"; done_testing; exit; }
ok "syslog-ng starts with the big database"
round v1
check "v1: most lines are classified" test "$(grep -c '^v1-' "$T/got.v1")" -ge 3000

version_db v2
daemon_reload
round v2
version_db v3
daemon_reload
round v3

# a broken big file: the reload keeps v3's rules
{ sed '$d' "$T/synth/patterndb.xml"; echo '<ruleset name="broken"><rules>'; } >"$DB.new" && mv "$DB.new" "$DB"
daemon_reload
check "a broken big file: the daemon survives the reload" kill -0 "$DAEMON_PID"
if grep 'error reloading the pattern database' "$DAEMON_LOG" | grep -qE "db\.xml:[0-9]+:[0-9]+"; then
  ok "a broken big file: the error names file:line:column"
else
  not_ok "a broken big file: the error names file:line:column"; diag "$(tail -5 "$DAEMON_LOG")"
fi
send_input
wait_lines "$T/out.log" "$n_out" 60
tail -n "$(wc -l <"$T/synth/input.log")" "$T/out.log" >"$T/got.keep"
check "a broken big file: the daemon still classifies with v3's rules" cmp -s "$T/want.v3" "$T/got.keep"
daemon_stop
check "no daemon left running" test -z "$DAEMON_PID"
done_testing

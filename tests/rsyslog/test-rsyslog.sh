#!/bin/bash
# End-to-end: the real rsyslogd from Debian's package runs `patterndb rsyslog`
# through mmexternal. rsyslog cannot be installed beside syslog-ng-core (the
# packages conflict), so its .deb is unpacked into the build tree and run
# from there, in the foreground, with its own config, work dir and pid file,
# on a private unix socket.
. "$top_srcdir/tests/lib.sh"
[ -n "${PDB_SKIP_E2E:-}" ] && skip_all "PDB_SKIP_E2E is set (package build: no daemons, no network)"
make_tmpdir
T=$TEST_TMPDIR
here="$top_srcdir/tests/rsyslog"
tool="$top_builddir/patterndb"

root="$top_builddir/tests/rsyslog/rsyslog-root"
rsyslogd="$root/usr/sbin/rsyslogd"
modules="$root/usr/lib/x86_64-linux-gnu/rsyslog"
if [ ! -x "$rsyslogd" ]; then
  mkdir -p "$root.dl"
  (cd "$root.dl" && apt-get download rsyslog >/dev/null 2>&1) || true
  deb=$(ls "$root.dl"/rsyslog_*.deb 2>/dev/null | head -1)
  [ -n "$deb" ] && dpkg -x "$deb" "$root"
fi
if [ ! -x "$rsyslogd" ]; then
  echo "1..1"
  echo "not ok 1 - rsyslog could not be fetched with apt-get download (needs Debian's archive)"
  exit 1
fi

pids=""
cleanup() {
  for p in $pids; do kill "$p" 2>/dev/null; done
  sleep 0.3
  for p in $pids; do kill -9 "$p" 2>/dev/null; done
  rm -rf "$T"
}
trap cleanup EXIT

# start_rsyslog NAME ACTION-CONFIG: starts rsyslogd on $T/NAME.sock writing $T/NAME.out
start_rsyslog() {
  local name=$1 action=$2
  mkdir -p "$T/$name.work"
  cat >"$T/$name.conf" <<EOF
global(workDirectory="$T/$name.work")
module(load="imuxsock" SysSock.Use="off")
input(type="imuxsock" Socket="$T/$name.sock" CreatePath="on" RateLimit.Interval="0" UseSpecialParser="off")
module(load="mmexternal")
module(load="mmnormalize")
template(name="pdbout" type="string"
         string="%\$!pdb!class%|%\$!pdb!rule_id%|%\$!pdb!values!user%|%\$!pdb!values!seen%|%\$!pdb!tags%|%\$!pdb!values!src_port%|%msg%\n")
template(name="lnout" type="string" string="%\$!user%|%\$!event.tags%|%msg%\n")
$action
EOF
  "$rsyslogd" -n -f "$T/$name.conf" -i "$T/$name.pid" -M "$modules" >"$T/$name.stderr" 2>&1 &
  pids="$pids $!"
  eval "${name}_pid=$!"
  wait_for "[ -S '$T/$name.sock' ]" 20
}

send() {  # send SOCKET: one datagram per stdin line
  python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
for line in sys.stdin.buffer:
    s.sendto(line.rstrip(b"\n"), sys.argv[1])
' "$1"
}

lines() { [ -f "$1" ] && wc -l <"$1" || echo 0; }

cp "$here/test-db.xml" "$T/db.xml"
start_rsyslog pdb "action(type=\"mmexternal\" binary=\"$tool rsyslog --pdb $T/db.xml --prefix pdb --log $T/plugin.log\" interface.input=\"fulljson\")
action(type=\"omfile\" file=\"$T/pdb.out\" template=\"pdbout\")"
check "rsyslogd starts with the mmexternal plugin" [ -S "$T/pdb.sock" ]

stamp="Dec  3 10:00:00"
{
  echo "<38>$stamp sshd[100]: Accepted password for alice from 10.0.0.1 port 2222 ssh2"
  echo "<38>$stamp sshd[100]: Failed password for mallory from 10.0.0.66"
  echo "<38>$stamp sshd[100]: something sshd never says"
  echo "<38>$stamp cron[7]: not covered by any ruleset"
  printf '<38>%s sshd[100]: Accepted publickey for "q\\\\b" from 10.0.0.2 port 22 line1\nline2\n' "$stamp" | tr '\n' '\001' | sed 's/\x01$/\n/'
} | send "$T/pdb.sock"
wait_for "[ \$(lines $T/pdb.out) -ge 5 ]" 20
out=$(cat "$T/pdb.out" 2>/dev/null)
diag "$out"
check_eq "matched message: class, rule id, value, template value, tags, typed port" \
  "system|ssh-accept|alice|yes-alice|[ \".classifier.system\", \"login\" ]|2222| Accepted password for alice from 10.0.0.1 port 2222 ssh2" \
  "$(sed -n 1p "$T/pdb.out")"
check_eq "violation class" "violation|ssh-fail|mallory" "$(sed -n 2p "$T/pdb.out" | cut -d'|' -f1-3)"
check_eq "unmatched message of a known program is class unknown" \
  "unknown||||" "$(sed -n 3p "$T/pdb.out" | cut -d'|' -f1-4,6)"
check "unknown gets the .classifier.unknown tag" grep -q '^unknown|.*classifier.unknown' "$T/pdb.out"
# As pdbtool and db-parser(): once a database has rulesets, a program none
# of them covers is "unknown" too (only an empty database sets nothing).
check_eq "program without ruleset is class unknown" "unknown||||" "$(sed -n 4p "$T/pdb.out" | cut -d'|' -f1-4,6)"
printf 'not json\n{"msg":\n{}\n' | "$tool" rsyslog --pdb "$here/test-db.xml" >"$T/bad.out" 2>"$T/bad.err"
check_eq "malformed lines get {} each, in order" "{}
{}
{}" "$(cat "$T/bad.out")"
check "malformed lines write nothing to stderr" [ ! -s "$T/bad.err" ]
check "multi-line message with quotes and backslash classified" \
  grep -q '^system|ssh-accept|"q\\\\b"|' "$T/pdb.out"
check "plugin wrote nothing to rsyslog's stderr" [ ! -s "$T/pdb.stderr" ]

# --- reload on SIGHUP -------------------------------------------------------
plugin_pid=$(pgrep -P "$pdb_pid" -f 'patterndb rsyslog' | head -1)
check "plugin process found" [ -n "$plugin_pid" ]
cp "$here/test-db-reloaded.xml" "$T/db.xml"
kill -HUP "$plugin_pid"
wait_for "grep -q 'database reloaded' '$T/plugin.log'" 10
echo "<38>$stamp sshd[100]: brand new thing" | send "$T/pdb.sock"
wait_for "[ \$(lines $T/pdb.out) -ge 6 ]" 20
check_eq "rule added by the reload matches" "system|ssh-new" "$(sed -n 6p "$T/pdb.out" | cut -d'|' -f1-2)"

echo '<patterndb version="5"><ruleset><broken' > "$T/db.xml"
kill -HUP "$plugin_pid"
wait_for "grep -q 'reload of .* failed' '$T/plugin.log'" 10
check "broken database on reload is reported in the plugin log" grep -q 'keeping the old database' "$T/plugin.log"
echo "<38>$stamp sshd[100]: brand new thing again" | send "$T/pdb.sock"
wait_for "[ \$(lines $T/pdb.out) -ge 7 ]" 20
check_eq "old database still classifies after a broken reload" "system|ssh-new" "$(sed -n 7p "$T/pdb.out" | cut -d'|' -f1-2)"
check_eq "the plugin survived the broken reload" "$plugin_pid" "$(pgrep -P "$pdb_pid" -f 'patterndb rsyslog' | head -1)"

# --- load: 50,000 messages, nothing lost, each classified once --------------
N=50000
cp "$here/test-db.xml" "$T/db.xml"
kill -HUP "$plugin_pid"
wait_for "[ \$(grep -c 'database reloaded' '$T/plugin.log') -ge 2 ]" 10
before=$(lines "$T/pdb.out")
python3 -c "
for i in range($N):
    print('<38>$stamp sshd[100]: Accepted password for user%d from 10.0.0.1 port %d ssh2' % (i, i % 65536))
" >"$T/load.txt"
t0=$(date +%s.%N)
send "$T/pdb.sock" <"$T/load.txt"
wait_for "[ \$(lines $T/pdb.out) -ge $((before + N)) ]" 120
t1=$(date +%s.%N)
tail -n +"$((before + 1))" "$T/pdb.out" >"$T/load.out"
check_eq "all $N messages arrived" "$N" "$(lines "$T/load.out")"
check_eq "every message classified by the right rule" "$N" "$(grep -c '^system|ssh-accept|user' "$T/load.out")"
check_eq "no message duplicated or lost" "$N" "$(cut -d'|' -f3 "$T/load.out" | sort -u | wc -l)"
pdb_rate=$(python3 -c "print(int($N / ($t1 - $t0)))")
diag "rsyslog + patterndb (mmexternal): $pdb_rate messages/s"

# --- the same load through rsyslog's own mmnormalize (liblognorm) -----------
cat >"$T/rules.rb" <<'EOF'
version=2
rule=login: Accepted %method:word% for %user:word% from %src_ip:ipv4% port %src_port:number% %proto:rest%
rule=violation: Failed password for %user:word% from %src_ip:ipv4%
EOF
start_rsyslog ln "action(type=\"mmnormalize\" rulebase=\"$T/rules.rb\" useRawMsg=\"off\")
action(type=\"omfile\" file=\"$T/ln.out\" template=\"lnout\")"
t0=$(date +%s.%N)
send "$T/ln.sock" <"$T/load.txt"
wait_for "[ \$(lines $T/ln.out) -ge $N ]" 120
t1=$(date +%s.%N)
ln_ok=$(grep -c '^user.*login' "$T/ln.out")
check_eq "mmnormalize baseline parsed every message" "$N" "$ln_ok"
ln_rate=$(python3 -c "print(int($N / ($t1 - $t0)))")
diag "rsyslog + mmnormalize (liblognorm): $ln_rate messages/s"
diag "ratio patterndb/mmnormalize: $(python3 -c "print(round($pdb_rate / $ln_rate, 2))")"

done_testing

#!/bin/bash
# tests/lint/test-reload-dir.sh: db-parser(file(DIRECTORY)) in the real
# syslog-ng across reloads. A file added to the directory, a file changed
# and a file removed are all picked up by SIGHUP; a broken file fails the
# reload as a whole (the old rules of every file stay active, the error
# names the broken file with line:column); once it is gone, reloads work
# again. (tests/e2e/test-reload.sh covers a single file.)
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/daemon.sh"
e2e_setup

T=$TEST_TMPDIR
D="$T/patterndb.d"
mkdir -p "$D"
# put NAME CONTENT-FROM-STDIN: written aside and renamed into place.
put() { cat >"$T/new.tmp" && mv "$T/new.tmp" "$D/$1"; }
sshd_db() {
  sed "s/id='r-accept'/id='$1'/" "$top_srcdir/tests/e2e/data/basic.xml" | put a.xml
}
cron_db() {
  put b.xml <<XML
<?xml version='1.0'?>
<patterndb version='4' pub_date='2026-01-01'>
  <ruleset name='cron' id='cron'>
    <patterns><pattern>cron</pattern></patterns>
    <rules>
      <rule provider='t' id='$1' class='system'>
        <patterns><pattern>job @NUMBER:n@ done</pattern></patterns>
      </rule>
    </rules>
  </ruleset>
</patterndb>
XML
}
cat >"$T/syslog-ng.conf" <<CONF
@version: $SNG_CONFIG_VERSION
@module patterndb
source s_local { unix-stream("$T/sock"); };
destination d_out { file("$T/out.log" template("\${.classifier.class}/\${.classifier.rule_id}\n")); };
log { source(s_local); parser { db-parser(file("$D")); }; destination(d_out); };
CONF
# classify PROGRAM MESSAGE: prints class/rule_id of the answer (it runs in
# $(...), so it counts the lines already there instead of keeping a counter).
classify() {
  local before
  before=$(count_lines "$T/out.log")
  send_syslog "$T/sock" "$1" "$2"
  wait_lines "$T/out.log" "$((before + 1))" 10
  tail -n 1 "$T/out.log"
}
ssh_line='Accepted password for u from 10.0.0.1 port 22 ssh2'

plan 10
sshd_db r-a1
daemon_start "$T/syslog-ng.conf" || { for i in $(seq 1 10); do not_ok "daemon did not start"; done; exit 1; }
check_eq "directory with one file: its rules" "system/r-a1" "$(classify sshd "$ssh_line")"
check_eq "a program no file knows: unknown" "unknown/" "$(classify cron 'job 7 done')"

cron_db r-cron1
daemon_reload
check_eq "file added + SIGHUP: its rules are active" "system/r-cron1" "$(classify cron 'job 8 done')"

sshd_db r-a2
daemon_reload
check_eq "file changed + SIGHUP: new rules" "system/r-a2" "$(classify sshd "$ssh_line")"
check_eq "file changed + SIGHUP: the other file's rules stay" "system/r-cron1" "$(classify cron 'job 9 done')"

rm "$D/b.xml"
daemon_reload
check_eq "file removed + SIGHUP: its rules are gone" "unknown/" "$(classify cron 'job 10 done')"

cron_db r-cron2
sshd_db r-a3
printf "<?xml version='1.0'?>\n<patterndb version='4' pub_date='2026-01-01'>\n  <ruleset name='x' id='x'>\n    <rules>\n  </ruleset>\n" | put c.xml
daemon_reload
if kill -0 "$DAEMON_PID" 2>/dev/null \
   && [ "$(classify sshd "$ssh_line") $(classify cron 'job 11 done')" = "system/r-a2 unknown/" ]; then
  ok "a broken file fails the whole reload: the old database stays (no half-loaded directory)"
else
  not_ok "a broken file fails the whole reload: the old database stays"; diag "$(tail -n 2 "$T/out.log")"
fi
if grep -qE "c\.xml:[0-9]+:[0-9]+" "$DAEMON_LOG"; then
  ok "broken file: the error names it with line:column"
else
  not_ok "broken file: the error names it with line:column"; diag "$(cat "$DAEMON_LOG")"
fi

rm "$D/c.xml"
daemon_reload
check_eq "broken file removed + SIGHUP: the pending changes load" "system/r-a3" "$(classify sshd "$ssh_line")"
check_eq "broken file removed + SIGHUP: the added file too" "system/r-cron2" "$(classify cron 'job 12 done')"
daemon_stop
done_testing

#!/bin/bash
# tests/e2e/test-reload.sh: the pattern database across reloads.
# SIGHUP with a changed file re-reads it; syslog-ng-ctl reload with an
# unchanged file keeps the loaded one; a broken file keeps the old rules
# active and logs file:line:column; a changed file is picked up without any
# reload (checked at most every 5 s: the only slow step of the suite); at
# startup a missing or broken file makes syslog-ng refuse to start while
# `syslog-ng -s` still passes.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/daemon.sh"
e2e_setup

T=$TEST_TMPDIR
DB="$T/db.xml"
# version_db ID: the basic database with the accept rule renamed to ID,
# written aside and renamed into place (as editors and package managers do).
version_db() {
  sed "s/id='r-accept'/id='$1'/" "$top_srcdir/tests/e2e/data/basic.xml" >"$DB.new" && mv "$DB.new" "$DB"
}
conf() {
  cat <<CONF
@version: $SNG_CONFIG_VERSION
@module patterndb
source s_local { unix-stream("$T/sock"); };
destination d_out { file("$T/out.log" template("\${.classifier.rule_id} \${user}\n")); };
log { source(s_local); parser { db-parser(file("$1")); }; destination(d_out); };
CONF
}
n_sent=0
# classify USER: sends one accept line, prints the rule id it got.
classify() {
  n_sent=$((n_sent + 1))
  send_syslog "$T/sock" sshd "Accepted password for $1 from 10.0.0.1 port 22 ssh2"
  wait_lines "$T/out.log" "$n_sent" 60 || diag "line $n_sent ($1) did not arrive within 60 s; out.log: $(cat "$T/out.log"); daemon log: $(cat "$DAEMON_LOG")" >&2
  tail -n 1 "$T/out.log"
}
count_log() { grep -c "$1" "$DAEMON_LOG"; }

plan 12
version_db r-v1
conf "$DB" >"$T/syslog-ng.conf"
daemon_start "$T/syslog-ng.conf" || { for i in $(seq 1 9); do not_ok "daemon did not start"; done; }
if [ -n "$DAEMON_PID" ]; then
  check_eq "initial database" "r-v1 u1" "$(classify u1)"

  version_db r-v2
  daemon_reload
  check_eq "SIGHUP after the file changed: new rules" "r-v2 u2" "$(classify u2)"
  check_eq "the reload was logged" "1" "$(count_log 'pattern database reloaded')"

  reloads=$(grep -c 'Configuration reload finished' "$DAEMON_LOG")
  env $DAEMON_ENV syslog-ng-ctl reload -c "$DAEMON_DIR/ctl" >/dev/null 2>&1
  wait_for "[ \$(grep -c 'Configuration reload finished' '$DAEMON_LOG') -gt $reloads ]" 60 \
    || diag "syslog-ng-ctl reload did not finish within 60 s; daemon log: $(cat "$DAEMON_LOG")"
  check_eq "syslog-ng-ctl reload with the file unchanged: same rules" "r-v2 u3" "$(classify u3)"
  check_eq "an unchanged file is not re-read" "1" "$(count_log 'pattern database reloaded')"

  printf "<?xml version='1.0'?>\n<patterndb version='4' pub_date='2026-01-01'>\n  <ruleset name='x' id='x'>\n    <rules>\n  </ruleset>\n" >"$DB.new"
  mv "$DB.new" "$DB"
  daemon_reload
  check "the daemon survives a reload with a broken file" kill -0 "$DAEMON_PID"
  check_eq "broken file: the old rules stay active" "r-v2 u4" "$(classify u4)"
  if grep 'error reloading the pattern database' "$DAEMON_LOG" | grep -qE "db\.xml:[0-9]+:[0-9]+"; then
    ok "broken file: the error names file:line:column"
  else
    not_ok "broken file: the error names file:line:column"; diag "$(cat "$DAEMON_LOG")"
  fi

  version_db r-v3
  # the check runs at most once per 5 s of message time, on a clock each
  # thread reads once a second: the first message after 6 s may still be
  # early, so keep sending (at most 6 more seconds)
  sleep 6
  got=$(classify u5)
  for i in 1 2 3 4 5 6; do
    [ "$got" = "r-v3 u5" ] && break
    sleep 1
    got=$(classify u5)
  done
  check_eq "a changed file is picked up without SIGHUP (within 5-12 s)" "r-v3 u5" "$got"
  daemon_stop
fi

# start_alone NAME: the daemon on $T/NAME.conf in the foreground, with
# its own persist, pid and control files, at most 20 s; output in
# $T/NAME.log; returns its exit status (124: still running after 20 s).
start_alone() {
  env $DAEMON_ENV timeout 20 "$SYSLOG_NG_BIN" -F -e --no-caps -f "$T/$1.conf" \
    --persist-file="$T/$1.persist" --pidfile="$T/$1.pid" --control="$T/$1.ctl" \
    --module-path="$MODULE_PATH" >"$T/$1.log" 2>&1
}

conf "$T/missing.xml" >"$T/missing.conf"
check "missing file: syntax-only check still passes" syslog_ng -s -f "$T/missing.conf"
start_alone missing
rc=$?
if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && grep -q "missing.xml" "$T/missing.log" \
   && grep -q "refusing to start" "$T/missing.log"; then
  ok "missing file at startup: syslog-ng refuses to start, naming the file"
else
  not_ok "missing file at startup: syslog-ng refuses to start, naming the file"; diag "rc=$rc"; diag "$(cat "$T/missing.log")"
fi

printf "<?xml version='1.0'?>\n<patterndb version='4' pub_date='2026-01-01'>\n  <ruleset name='x' id='x'>\n    <rules>\n  </ruleset>\n" >"$T/broken.xml"
conf "$T/broken.xml" >"$T/broken.conf"
start_alone broken
rc=$?
if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && grep -qE "broken\.xml:[0-9]+:[0-9]+" "$T/broken.log"; then
  ok "broken file at startup: refuses to start, error with file:line:column"
else
  not_ok "broken file at startup: refuses to start, error with file:line:column"; diag "rc=$rc"; diag "$(cat "$T/broken.log")"
fi
done_testing

#!/bin/bash
# tests/reliability/test-shared-parser.sh: one named db-parser used by two
# log paths (`parser p { db-parser(...); };` and `parser(p)` twice), as
# real configurations do. syslog-ng clones a named parser for every
# reference, so there are two instances of it. Across reloads each must
# keep its rules: after a SIGHUP with a changed file both use the new
# ones; with a broken or a deleted file both keep the old ones and the
# daemon goes on running.
#
# Not in TESTS yet: with the module as of 2026-12-03 13:40 UTC both clones
# store their database under the same persist key, so at a reload the
# first clone takes it and the second finds nothing, loads the file as if
# at startup, refuses the broken file ("refusing to start this
# configuration"), and syslog-ng aborts in
# main_loop_reload_config_revert ("code should not be reached"). Register
# it in tests/fuzz/fuzz.am once the module gives each clone its own key.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/daemon.sh"
e2e_setup
command -v loggen >/dev/null || skip_all "loggen not installed"

T=$TEST_TMPDIR
DB="$T/db.xml"
write_db() { # write_db ID
  sed "s/id='load-a'/id='$1'/" "$top_srcdir/tests/e2e/data/load.xml" >"$DB.new" && mv "$DB.new" "$DB"
}
n=0
# probe_both: one message into each log path; sets got="ID1 ID2" ("lost"
# for a message that did not arrive). Not in a subshell: it counts in $n.
probe_both() {
  n=$((n + 1))
  loggen -x -S -Q -n 1 "$T/one.sock" >/dev/null 2>&1
  loggen -x -S -Q -n 1 "$T/two.sock" >/dev/null 2>&1
  local a=lost b=lost
  wait_lines "$T/one.log" "$n" 5 && a=$(tail -n 1 "$T/one.log")
  wait_lines "$T/two.log" "$n" 5 && b=$(tail -n 1 "$T/two.log")
  got="$a $b"
}

write_db v1
cat >"$T/syslog-ng.conf" <<CONF
@version: $SNG_CONFIG_VERSION
@module patterndb
source s_one { unix-stream("$T/one.sock" flags(expect-hostname)); };
source s_two { unix-stream("$T/two.sock" flags(expect-hostname)); };
parser p_pdb { db-parser(file("$DB")); };
destination d_one { file("$T/one.log" template("\${.classifier.rule_id}\n")); };
destination d_two { file("$T/two.log" template("\${.classifier.rule_id}\n")); };
log { source(s_one); parser(p_pdb); destination(d_one); };
log { source(s_two); parser(p_pdb); destination(d_two); };
CONF

plan 7
if ! daemon_start "$T/syslog-ng.conf"; then
  for i in 1 2 3 4 5 6 7; do not_ok "syslog-ng did not start"; done
  exit 1
fi
probe_both; check_eq "both paths classify with the first rules" "v1 v1" "$got"
write_db v2
daemon_reload
probe_both; check_eq "changed file, SIGHUP: both paths use the new rules" "v2 v2" "$got"

printf "<?xml version='1.0'?>\n<patterndb version='4'>\n  <ruleset name='x' id='x'>\n    <rules>\n  </ruleset>\n" >"$DB"
daemon_reload
check "broken file, SIGHUP: the daemon goes on running" kill -0 "$DAEMON_PID"
probe_both; check_eq "broken file, SIGHUP: both paths keep the old rules" "v2 v2" "$got"

rm -f "$DB"
daemon_reload
check "file deleted, SIGHUP: the daemon goes on running" kill -0 "$DAEMON_PID"
probe_both; check_eq "file deleted, SIGHUP: both paths keep the old rules" "v2 v2" "$got"
write_db v3
daemon_reload
probe_both; check_eq "file back, SIGHUP: both paths use the new rules" "v3 v3" "$got"
if ! kill -0 "$DAEMON_PID" 2>/dev/null; then
  diag "the daemon's log:"; diag "$(tail -n 15 "$DAEMON_LOG")"
fi
daemon_stop
done_testing

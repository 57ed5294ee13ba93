#!/bin/bash
# tests/e2e/test-reload-files.sh: which files a folder or glob database
# means is looked at again by every check, SIGHUP and syslog-ng-ctl reload,
# and a file changed while the database loads is not lost.
#
# - db-parser(file("G/*.xml")): a file that starts to match the glob after
#   startup is loaded by the periodic check, by SIGHUP and by
#   syslog-ng-ctl reload;
# - db-parser(file("F")): a file added inside a subfolder that already
#   existed is loaded by SIGHUP and by the check; a file that is not a
#   pattern database (README) does not cause a reload;
# - the race: a folder database is reloaded; its first file is read, then
#   the load is held (tests/e2e/pause-open.so stops open() of the second
#   file) while the first file is rewritten in place; after the load the
#   old rules of the first file are active (the race happened), and the
#   next check loads the new ones.
# The periodic check runs every 3 s here (PATTERNDB_CHECK_INTERVAL).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/daemon.sh"
e2e_setup

T=$TEST_TMPDIR
G="$T/glob"
F="$T/folder"
R="$T/race"
P="$T/pause"
mkdir -p "$G" "$F/sub" "$R" "$P"
PAUSE_SO="$top_builddir/tests/e2e/.libs/pause-open.so"
[ -f "$PAUSE_SO" ] || skip_all "test library not built: $PAUSE_SO (make check builds it)"

# rules_db PROGRAM ID: a database whose ruleset for PROGRAM knows
# "job N done" as rule ID.
rules_db() {
  cat <<XML
<?xml version='1.0'?>
<patterndb version='4' pub_date='2026-01-01'>
  <ruleset name='$1' id='rs-$1'>
    <patterns><pattern>$1</pattern></patterns>
    <rules>
      <rule provider='t' id='$2' class='system'>
        <patterns><pattern>job @NUMBER:n@ done</pattern></patterns>
      </rule>
    </rules>
  </ruleset>
</patterndb>
XML
}
# put FILE PROGRAM ID: written aside and renamed into place.
put() { rules_db "$2" "$3" >"$1.tmp" && mv "$1.tmp" "$1"; }

cat >"$T/syslog-ng.conf" <<CONF
@version: $SNG_CONFIG_VERSION
@module patterndb
options { time-reopen(1); };
source s_glob { unix-stream("$T/glob.sock"); };
source s_folder { unix-stream("$T/folder.sock"); };
source s_race { unix-stream("$T/race.sock"); };
destination d_glob { file("$T/glob.log" template("\${.classifier.rule_id}\n")); };
destination d_folder { file("$T/folder.log" template("\${.classifier.rule_id}\n")); };
destination d_race { file("$T/race.log" template("\${.classifier.rule_id}\n")); };
log { source(s_glob); parser { db-parser(file("$G/*.xml")); }; destination(d_glob); };
log { source(s_folder); parser { db-parser(file("$F")); }; destination(d_folder); };
log { source(s_race); parser { db-parser(file("$R")); }; destination(d_race); };
CONF

# classify NAME PROGRAM: the rule id one "job 1 done" line from PROGRAM gets
# on path NAME (glob, folder, race).
classify() {
  local before
  before=$(count_lines "$T/$1.log")
  send_syslog "$T/$1.sock" "$2" "job 1 done"
  wait_lines "$T/$1.log" "$((before + 1))" 10
  tail -n 1 "$T/$1.log"
}
# classify_until NAME PROGRAM WANT SECS: classifies once a second until the
# answer is WANT or SECS seconds passed; prints the last answer.
classify_until() {
  local got i
  for i in $(seq 1 "$4"); do
    got=$(classify "$1" "$2")
    [ "$got" = "$3" ] && break
    sleep 1
  done
  echo "$got"
}
ctl_reload() {
  local before
  before=$(grep -c 'Configuration reload finished' "$DAEMON_LOG")
  env $DAEMON_ENV syslog-ng-ctl reload -c "$DAEMON_DIR/ctl" >/dev/null 2>&1
  wait_for "[ \$(grep -c 'Configuration reload finished' '$DAEMON_LOG') -gt $before ]" 20
}
count_log() { grep -c "$1" "$DAEMON_LOG"; }

plan 13
put "$G/a.xml" sshd r-glob-a
put "$F/sub/a.xml" sshd r-folder-a
put "$R/a-small.xml" cron r-small-1
put "$R/b-big.xml" sshd r-big
daemon_env PATTERNDB_CHECK_INTERVAL=3 PDB_PAUSE_OPEN_FILE="$R/b-big.xml" PDB_PAUSE_OPEN_DIR="$P"
daemon_preload "$PAUSE_SO"
if ! daemon_start "$T/syslog-ng.conf"; then
  for i in $(seq 1 13); do not_ok "daemon did not start"; done
  exit 1
fi

check_eq "glob: the file that matched at startup" "r-glob-a" "$(classify glob sshd)"
check_eq "glob: a program no file knows yet" "" "$(classify glob cron)"

put "$G/b.xml" cron r-glob-b
daemon_reload
check_eq "glob: a new match + SIGHUP: its rules are active" "r-glob-b" "$(classify glob cron)"

put "$G/c.xml" kernel r-glob-c
ctl_reload
check_eq "glob: a new match + syslog-ng-ctl reload: its rules are active" "r-glob-c" "$(classify glob kernel)"

put "$G/d.xml" named r-glob-d
check_eq "glob: a new match, no reload: the check loads it (within 3-7 s)" "r-glob-d" \
  "$(classify_until glob named r-glob-d 10)"

check_eq "folder: the subfolder's file at startup" "r-folder-a" "$(classify folder sshd)"
put "$F/sub/b.xml" cron r-folder-b
daemon_reload
check_eq "folder: a new file in an existing subfolder + SIGHUP: its rules are active" "r-folder-b" \
  "$(classify folder cron)"

put "$F/sub/c.xml" kernel r-folder-c
check_eq "folder: a new file in an existing subfolder, no reload: the check loads it" "r-folder-c" \
  "$(classify_until folder kernel r-folder-c 10)"

reloads=$(count_log 'pattern database changed on disk, reloaded')
echo "not a pattern database" >"$F/sub/README"
sleep 4
classify folder kernel >/dev/null
sleep 4
classify folder kernel >/dev/null
check_eq "folder: a README added: no reload" "$reloads" "$(count_log 'pattern database changed on disk, reloaded')"

# the race: hold the reload at b-big.xml, rewrite a-small.xml meanwhile
check_eq "race: the first file's rules at startup" "r-small-1" "$(classify race cron)"
: >"$P/armed"
touch -d '2001-01-01' "$R/b-big.xml"
before=$(grep -c 'Configuration reload finished' "$DAEMON_LOG")
kill -HUP "$DAEMON_PID"
if wait_for "[ -e '$P/paused' ]" 20; then
  # in place (same inode), as an editor that writes over the file
  rules_db cron r-small-2 >"$R/a-small.xml"
  : >"$P/release"
  wait_for "[ \$(grep -c 'Configuration reload finished' '$DAEMON_LOG') -gt $before ]" 30
  check_eq "race: the held load read the first file before it changed" "r-small-1" "$(classify race cron)"
  check_eq "race: the change made during the load is loaded by the next check" "r-small-2" \
    "$(classify_until race cron r-small-2 10)"
else
  not_ok "race: the load did not stop at b-big.xml"; diag "$(cat "$DAEMON_LOG")"
  not_ok "race: the change made during the load is loaded by the next check"
fi
check "the daemon is still running" kill -0 "$DAEMON_PID"
daemon_stop
done_testing

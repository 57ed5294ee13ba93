#!/bin/sh
# Elastic Common Schema values of the pattern library (contrib/patterns/README,
# "ECS fields"): every rule carries event.category, event.type,
# event.outcome and event.action with allowed ECS values, process.name, and
# the ECS name of every extracted value that has one (tests/library/ecs.py).
# Controls: a rule without them, or with a value outside ECS, is rejected;
# and the values reach the matched message (checked through `match`).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/library/library.sh"
make_tmpdir
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
[ -n "$LIBFILES" ] || skip_all "no library files in $LIBDIR"

# shellcheck disable=SC2086
python3 "$top_srcdir/tests/library/ecs.py" --check $LIBFILES >"$TEST_TMPDIR/ecs.tap"
while IFS= read -r line; do
  case "$line" in
    'ok '*) ok "${line#ok * - }" ;;
    'not ok '*) not_ok "${line#not ok * - }" ;;
    '#'*) echo "$line" ;;
  esac
done <"$TEST_TMPDIR/ecs.tap"

control() {
  local desc=$1 values=$2
  cat >"$TEST_TMPDIR/control.xml" <<XML
<?xml version='1.0' encoding='utf-8'?>
<patterndb version='5' pub_date='2026-12-04'>
  <ruleset name='c' id='c'><patterns><pattern>c</pattern></patterns><rules>
    <rule provider='t' id='c1' class='system'><patterns><pattern>user @ANYSTRING:usracct.username@</pattern></patterns>
      <values>$values</values></rule>
  </rules></ruleset>
</patterndb>
XML
  if python3 "$top_srcdir/tests/library/ecs.py" --check "$TEST_TMPDIR/control.xml" >/dev/null 2>&1; then
    not_ok "control rejected: $desc"
  else
    ok "control rejected: $desc"
  fi
}
FULL='<value name="event.category">iam</value><value name="event.type">user</value><value name="event.outcome">success</value><value name="event.action">x</value><value name="process.name">${PROGRAM}</value><value name="user.name">${usracct.username}</value>'
control "no categorisation values" '<value name="process.name">${PROGRAM}</value><value name="user.name">${usracct.username}</value>'
control "event.category outside ECS" "$(echo "$FULL" | sed 's/>iam</>people</')"
control "event.outcome outside ECS" "$(echo "$FULL" | sed 's/>success</>great</')"
control "extracted name without its ECS copy" "$(echo "$FULL" | sed 's|<value name="user.name">[^<]*</value>||')"
control "no process.name" "$(echo "$FULL" | sed 's|<value name="process.name">[^<]*</value>||')"
sed -i "s|<values>.*</values>|<values>$FULL</values>|" "$TEST_TMPDIR/control.xml"
ecs_check() { python3 "$top_srcdir/tests/library/ecs.py" --check "$@" >/dev/null 2>&1; }
check "control accepted: a complete rule" ecs_check "$TEST_TMPDIR/control.xml"

# The values reach a matched message.
TOOL=$(library_tool match)
if [ -n "$TOOL" ] && library_merge "$TEST_TMPDIR/library.xml"; then
  got=$(printf '%s\n' 'Dec  4 15:58:09 deb12 sshd[531]: Failed password for bob from 127.0.0.1 port 54200 ssh2' |
    "$TOOL" match -p "$TEST_TMPDIR/library.xml" -f - \
      -T '${event.category}|${event.type}|${event.outcome}|${event.action}|${user.name}|${source.ip}|${source.port}|${process.name}\n' 2>/dev/null)
  check_eq "ECS values of a failed ssh password" "authentication|info|failure|authentication-failed|bob|127.0.0.1|54200|sshd" "$got"
  got=$(printf '%s\n' "Dec  4 15:55:01 deb12 useradd[189]: new user: name=alice, UID=1000, GID=2501, home=/home/alice, shell=/bin/bash, from=none" |
    "$TOOL" match -p "$TEST_TMPDIR/library.xml" -f - \
      -T '${event.category}|${event.type}|${event.outcome}|${event.action}|${user.name}|${user.id}|${group.id}\n' 2>/dev/null)
  check_eq "ECS values of a new user" "iam|creation|success|user-created|alice|1000|2501" "$got"
fi

done_testing

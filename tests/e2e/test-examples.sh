#!/bin/bash
# tests/e2e/test-examples.sh: every shipped syslog-ng example configuration,
# run end to end by the real daemon with our module.
#
#   contrib/scl/example.conf               a complete configuration (db-parser())
#   debian/examples/patterndb-classify.conf a conf.d snippet (patterndb-classify())
#
# Each runs as shipped, with only its paths moved into the test's folder:
# the bundled library is contrib/patterns, the user's own folder
# (/etc/syslog-ng/patterndb.d) holds one rule of ours, /var/log/ is a temp
# folder and the system() source a socket. One parser must classify the
# bundled library's messages and the user's own ones together: an sshd
# "Failed password" is a violation (not "unknown", as when a second parser
# is chained after the first), the user's rule matches, and a message no
# rule knows goes to the unknown file.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/daemon.sh"
e2e_setup

T=$TEST_TMPDIR
mkdir -p "$T/local" "$T/log"
cat >"$T/local/myapp.xml" <<'XML'
<?xml version="1.0" encoding="utf-8"?>
<patterndb version="4" pub_date="2026-12-04">
  <ruleset name="myapp" id="local-myapp">
    <pattern>myapp</pattern>
    <rules>
      <rule provider="local" id="local-widget" class="system">
        <patterns><pattern>widget @NUMBER:widget.id@ exploded</pattern></patterns>
      </rule>
    </rules>
  </ruleset>
</patterndb>
XML

# relocate FILE OUT: the paths of a shipped example moved into $T; fails
# when one of the paths is missing (the example changed shape).
relocate() {
  local src=$1 out=$2 n
  sed -e "s|/usr/share/patterndb/patterns|$top_srcdir/contrib/patterns|g" \
      -e "s|/etc/syslog-ng/patterndb.d|$T/local|g" \
      -e "s|/var/log/|$T/log/|g" \
      -e "s|source s_local { system(); internal(); };|source s_local { unix-stream(\"$T/sock\"); };|" \
      "$src" >"$out"
  n=$(grep -c "$T" "$out")
  [ "$n" -gt 0 ]
}

send_examples() {
  send_syslog "$T/sock" sshd "Failed password for root from 10.1.2.3 port 4242 ssh2"
  send_syslog "$T/sock" myapp "widget 7 exploded" "something nobody wrote a rule for"
}

plan 13

# --- contrib/scl/example.conf: a whole configuration
check "contrib/scl/example.conf relocates" relocate "$top_srcdir/contrib/scl/example.conf" "$T/example.conf"
check "it reads the library and the user's folder in one db-parser()" \
  grep -q "db-parser(file(\"$top_srcdir/contrib/patterns\" \"$T/local\"))" "$T/example.conf"
if daemon_start "$T/example.conf" example; then
  send_examples
  wait_lines "$T/log/unknown.log" 1
  wait_lines "$T/log/by-class/system.log" 1
  daemon_stop
  check "sshd Failed password: class violation, bundled rule" grep -q 'sshd\[42\]: Failed password for root .*\[rule=sshd-failed\]' "$T/log/by-class/violation.log"
  check "... and in violations.log" grep -q 'Failed password for root' "$T/log/violations.log"
  check "the user's own rule matches in the same parser" grep -q 'widget 7 exploded \[rule=local-widget\]' "$T/log/by-class/system.log"
  check_eq "unknown.log holds only the message no rule knows" "something nobody wrote a rule for" \
    "$(sed 's/.*myapp\[42\]: //' "$T/log/unknown.log")"
else
  for i in 3 4 5 6; do not_ok "example.conf: daemon did not start"; done
fi

# --- debian/examples/patterndb-classify.conf: a conf.d snippet on the SCL block
rm -rf "$T/log"; mkdir -p "$T/log"
relocate "$top_srcdir/contrib/scl/patterndb/patterndb.conf" "$T/scl-patterndb.conf"
{
  printf '@version: %s\n@include "scl.conf"\n@include "%s"\n' "$SNG_CONFIG_VERSION" "$T/scl-patterndb.conf"
  printf 'source s_src { unix-stream("%s"); };\n' "$T/sock"
  sed "s|/var/log/|$T/log/|g" "$top_srcdir/debian/examples/patterndb-classify.conf"
} >"$T/snippet.conf"
check_eq "the snippet uses one parser" 1 "$(grep -v '^ *#' "$T/snippet.conf" | grep -c 'patterndb-classify(')"
if daemon_start "$T/snippet.conf" snippet; then
  send_examples
  wait_lines "$T/log/unknown.log" 1
  wait_lines "$T/log/classified.log" 2
  # a new file in the user's folder: the reload reads it with the library
  sed -e 's/local-myapp/local-other/; s/>myapp</>other</; s/local-widget/local-gadget/; s/widget @NUMBER/gadget @NUMBER/' \
    "$T/local/myapp.xml" >"$T/local/other.xml"
  daemon_reload
  send_syslog "$T/sock" other "gadget 9 exploded"
  send_syslog "$T/sock" sshd "Failed password for eve from 10.1.2.4 port 4243 ssh2"
  wait_lines "$T/log/classified.log" 4
  daemon_stop
  check "snippet: after a reload, a new file of the user's folder is used" grep -q 'other class=system rule=local-gadget gadget 9 exploded' "$T/log/classified.log"
  check "snippet: ... and the library still is" grep -q 'sshd class=violation rule=sshd-failed Failed password for eve' "$T/log/classified.log"
  check "snippet: sshd Failed password is a violation" grep -q 'sshd class=violation rule=sshd-failed Failed password for root' "$T/log/classified.log"
  check "snippet: the user's rule from /etc/syslog-ng/patterndb.d matches" grep -q 'myapp class=system rule=local-widget widget 7 exploded' "$T/log/classified.log"
  check_eq "snippet: unknown.log holds only the unknown message" "something nobody wrote a rule for" \
    "$(sed 's/.*myapp\[42\]: //' "$T/log/unknown.log")"
  check_eq "no errors logged" "" "$(grep -iw error "$TEST_TMPDIR/example/stderr.log" "$DAEMON_LOG" | head -5)"
else
  for i in 8 9 10 11 12 13; do not_ok "snippet: daemon did not start"; done
fi
done_testing

#!/bin/bash
# tests/e2e/test-scl.sh: the SCL block patterndb-classify() and the example
# configuration shipped in contrib/scl/.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/daemon.sh"
e2e_setup

T=$TEST_TMPDIR
DB="$top_srcdir/tests/e2e/data/basic.xml"
cat >"$T/syslog-ng.conf" <<CONF
@version: $SNG_CONFIG_VERSION
@include "$top_srcdir/contrib/scl/patterndb/patterndb.conf"
source s_local { unix-stream("$T/sock"); };
destination d_pfx { file("$T/prefix.log" template("\${.pdb.user} \${.classifier.class}\n")); };
destination d_drop { file("$T/drop.log" template("\${user} \${.classifier.rule_id}\n")); };
log { source(s_local); parser { patterndb-classify(file("$DB") prefix(".pdb.")); }; destination(d_pfx); };
log { source(s_local); parser { patterndb-classify(file("$DB") drop-unmatched(yes) program-template("sshd")); }; destination(d_drop); };
CONF

plan 4
check "example.conf passes the syntax check" syslog_ng -s -f "$top_srcdir/contrib/scl/example.conf"
if daemon_start "$T/syslog-ng.conf"; then
  send_syslog "$T/sock" sshd "Accepted password for bob from 10.0.0.1 port 22 ssh2" "nonsense"
  send_syslog "$T/sock" other "Failed password for eve from 10.0.0.2 port 22 ssh2"
  wait_lines "$T/prefix.log" 3
  wait_lines "$T/drop.log" 2
  daemon_stop
  check_eq "patterndb-classify() with prefix()" "bob system
 unknown
 unknown" "$(cat "$T/prefix.log" 2>&1)"
  check_eq "patterndb-classify() passes drop-unmatched() and extra options through" "bob r-accept
eve r-fail" "$(cat "$T/drop.log" 2>&1)"
  check "no errors logged" bash -c "! grep -qi error '$DAEMON_LOG'"
else
  for i in 2 3 4; do not_ok "daemon did not start"; done
fi
done_testing

#!/bin/bash
# tests/e2e/test-classify.sh: the real syslog-ng classifies with our module.
# One daemon, one source, several log paths (each with its own copy of the
# parser): classification and values in templates, tags() and match()
# filters, per-class files named by ${.classifier.class}, unknown
# messages, drop-unmatched(), program-template() and
# message-template(), typed values in format-json, prefix() (only ours has
# it) and the `patterndb` parser name.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/daemon.sh"
e2e_setup

T=$TEST_TMPDIR
DB="$top_srcdir/tests/e2e/data/basic.xml"
cat >"$T/syslog-ng.conf" <<CONF
@version: $SNG_CONFIG_VERSION
@module patterndb
options { threaded(yes); $SNG_STATS_OFF };
source s_local { unix-stream("$T/sock"); };

parser p_pdb { db-parser(file("$DB")); };
destination d_all { file("$T/all.log" template("\${PROGRAM} class=\${.classifier.class} id=\${.classifier.rule_id} user=\${user} type=\${usracct.type}\n")); };
destination d_class { file("$T/class/\${.classifier.class:-none}.log" create-dirs(yes) template("\$MSG\n")); };
destination d_violation { file("$T/violations.log" template("\$MSG\n")); };
destination d_bob { file("$T/bob.log" template("\$MSG\n")); };
destination d_login { file("$T/login.log" template("\${user}: \${usracct.summary}\n")); };
destination d_json { file("$T/json.log" template("\$(format-json --no-cast --scope none --key user --key src_port --key temp --key cpu)\n")); };
log {
  source(s_local); parser(p_pdb);
  destination(d_all); destination(d_class); destination(d_json);
  log { filter { tags(".classifier.violation"); }; destination(d_violation); };
  log { filter { match("^bob\$" value("user")); }; destination(d_bob); };
  log { filter { tags("usracct") and tags(".classifier.system"); }; destination(d_login); };
};

# p_pdb again: syslog-ng clones the parser for this second log path.
destination d_clone { file("$T/clone.log" template("\${.classifier.rule_id}/\${user}\n")); };
log { source(s_local); parser(p_pdb); destination(d_clone); };

destination d_kept { file("$T/kept.log" template("\${PROGRAM} \${.classifier.rule_id}\n")); };
log { source(s_local); parser { db-parser(file("$DB") drop-unmatched(yes)); }; destination(d_kept); };

destination d_prefix { file("$T/prefix.log" template("\${.pdb.user}|\${user}|\${.classifier.class}|\${.pdb.usracct.type}\n")); };
log { source(s_local); parser { patterndb(file("$DB") prefix(".pdb.")); }; destination(d_prefix); };

destination d_tmpl { file("$T/template.log" template("\${.classifier.rule_id} user=\${user} src_ip=\${src_ip} src_port=\${src_port}\n")); };
log {
  source(s_local); filter { program("tmpl"); };
  parser { db-parser(file("$DB") program-template("sshd")
                     message-template("Failed password for \${PROGRAM} from 10.9.9.9 port 7 ssh2")); };
  destination(d_tmpl);
};
CONF

plan 16
check "syntax check passes" syslog_ng -s -f "$T/syslog-ng.conf"
if ! daemon_start "$T/syslog-ng.conf"; then
  for i in $(seq 2 16); do not_ok "daemon did not start"; done
  exit 1
fi

send_syslog "$T/sock" sshd \
  "Accepted password for bob from 10.0.0.1 port 2222 ssh2" \
  "Failed password for eve from 10.0.0.2 port 4444 ssh2" \
  "garbage line here"
send_syslog "$T/sock" kernel "temperature 71.5 on cpu 3"
send_syslog "$T/sock" cron "(root) CMD (run-parts /etc/cron.hourly)"
send_syslog "$T/sock" tmpl "anything at all"
wait_lines "$T/all.log" 6
wait_lines "$T/template.log" 1
wait_lines "$T/clone.log" 6
daemon_stop

check_eq "classes, rule ids, captures and rule values in a template" \
"sshd class=system id=r-accept user=bob type=login
sshd class=violation id=r-fail user=eve type=
sshd class=unknown id= user= type=
kernel class=hardware id=r-temp user= type=
cron class=unknown id= user= type=
tmpl class=unknown id= user= type=" "$(cat "$T/all.log")"
check_eq "per-class file: system" "Accepted password for bob from 10.0.0.1 port 2222 ssh2" "$(cat "$T/class/system.log" 2>&1)"
check_eq "per-class file: violation" "Failed password for eve from 10.0.0.2 port 4444 ssh2" "$(cat "$T/class/violation.log" 2>&1)"
check_eq "per-class file: unknown (no rule matched, or no ruleset for the program, as pdbtool)" \
"garbage line here
(root) CMD (run-parts /etc/cron.hourly)
anything at all" "$(cat "$T/class/unknown.log" 2>&1)"
check_eq "per-class file: hardware" "temperature 71.5 on cpu 3" "$(cat "$T/class/hardware.log" 2>&1)"
check "every message got a class" test ! -e "$T/class/none.log"
check_eq "tags() filter on the class tag" "Failed password for eve from 10.0.0.2 port 4444 ssh2" "$(cat "$T/violations.log" 2>&1)"
check_eq "match() filter on an extracted value" "Accepted password for bob from 10.0.0.1 port 2222 ssh2" "$(cat "$T/bob.log" 2>&1)"
check_eq "rule tags and class tag together; a <value> with a macro" "bob: bob via sshd, facility user" "$(cat "$T/login.log" 2>&1)"
check_eq "drop-unmatched(yes) lets only matched messages through" \
"sshd r-accept
sshd r-fail
kernel r-temp" "$(cat "$T/kept.log" 2>&1)"
check_eq "patterndb() with prefix(): captures and values prefixed, .classifier.* not" \
"bob||system|login
eve||violation|
||unknown|
||hardware|
||unknown|
||unknown|" "$(cat "$T/prefix.log" 2>&1)"
check_eq "the same parser in a second log path (a clone)" \
"r-accept/bob
r-fail/eve
/
r-temp/
/
/" "$(cat "$T/clone.log" 2>&1)"
check_eq "program-template() and message-template()" "r-fail user=tmpl src_ip=10.9.9.9 src_port=7" "$(cat "$T/template.log" 2>&1)"
json=$(cat "$T/json.log" 2>&1)
if echo "$json" | grep -q '"src_port":2222' && echo "$json" | grep -q '"user":"bob"' \
   && echo "$json" | grep -q '"temp":71.5' && echo "$json" | grep -q '"cpu":3[,}]'; then
  ok "typed values: NUMBER as integer, FLOAT as double in format-json"
else
  not_ok "typed values: NUMBER as integer, FLOAT as double in format-json"; diag "$json"
fi
if grep -qi 'error\|warning' "$DAEMON_LOG"; then
  not_ok "no errors or warnings logged"; diag "$(cat "$DAEMON_LOG")"
else
  ok "no errors or warnings logged"
fi
done_testing

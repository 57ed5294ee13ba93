#!/bin/bash
# tests/e2e/test-host-expr.sh: in the daemon, templates that call functions
# and action conditions are syslog-ng's own (syslog-ng/host-expr.c),
# compared with syslog-ng 3.38's own db-parser() (`@module dbparser`,
# Debian's module only) on the same input: the same output lines.
#
# 1. One database uses, in <value>s, context-ids, action <message>s and
#    conditions, functions outside the db layer's own set and functions of
#    other loaded modules ($(format-json) from json-plugin, $(sha1) and
#    $(hash) from cryptofuncs, $(format-welf) from kvformat), filter
#    functions in conditions (match(), tags(), program(), host(), message(),
#    level(), facility(), netmask(), in-list(), comparisons, and/or/not,
#    and filter(), source(), severity() of the main grammar: filter()
#    names a filter of the configuration),
#    match and timeout actions with $(context-values), $(context-lookup)
#    and $(context-length), ${CONTEXT_ID} in templates with functions (rule
#    values, actions, a context made by <create-context>), and values that
#    are one plain reference to a typed capture.
# 2. A database 3.38 cannot compile (an unknown function, a condition that
#    does not parse, an unknown filter function) is refused by ours.
# 3. Reloads: on SIGHUP such a database is compiled again with the new
#    configuration even when its file did not change; a file changed on
#    disk is compiled by syslog-ng on the thread that notices it.
# 4. A database of functions both engines have runs through the
#    `patterndb` tool (its own engine), the daemon and pdbtool alike.
# 5. The tool's correlation fixture tests/correlation/corr.xml runs
#    through both daemons alike.
# 6. Every function of 3.38's basicfuncs module (but $(map), which makes
#    3.38 itself crash while loading the database) in <value>s of a rule
#    with a context, through both daemons alike.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/daemon.sh"
e2e_setup
for m in $STOCK_PDB_MODULE cryptofuncs json-plugin kvformat; do
  [ -f "$SYSTEM_MODULE_DIR/lib$m.so" ] || skip_all "syslog-ng module $m not installed"
done
[ -x /usr/bin/pdbtool ] || skip_all "pdbtool not installed"

T=$TEST_TMPDIR
plan 18

printf 'alice\nvip-user\n' >"$T/users.list"

cat >"$T/funcs.xml" <<XML
<?xml version='1.0' encoding='UTF-8'?>
<patterndb version='4' pub_date='2024-01-01'>
 <ruleset name='login' id='rs-login'>
  <pattern>authd</pattern>
  <rules>
   <rule provider='test' id='r-login' class='system'
         context-id='\$(sha1 \${user})' context-scope='program' context-timeout='2'>
    <patterns><pattern>login @ESTRING:user: @from @IPv4:ip@ port @NUMBER:port@</pattern></patterns>
    <tags><tag>login</tag></tags>
    <values>
      <value name='json'>\$(format-json --scope none --key user --key ip --key port)</value>
      <value name='digest'>\$(hash --length 12 \${user}@\${ip})</value>
      <value name='port_next'>int64(\$(+ \${port} 1))</value>
      <value name='portref'>\${port}</value>
      <value name='portref2'>\$port</value>
      <value name='welf'>\$(format-welf --scope none --key user --key port)</value>
      <value name='seen'>\$(context-length)</value>
      <value name='plain'>\${user} from \${ip} \${nothing:-none} \$\$ \$user</value>
      <value name='grepped'>\$(grep ("\${ip}" ne "") \${user})</value>
    </values>
    <actions>
      <action condition='match("^10[.]" value("ip")) and program("authd") and not message("denied")' trigger='match'>
        <message inherit-properties='context'>
          <values>
            <value name='MESSAGE'>net10 \$(context-values \${user}) \$(uppercase \${user}) len=\$(context-length)</value>
          </values>
          <tags><tag>net10</tag></tags>
        </message>
      </action>
      <action condition='in-list("$T/users.list", value("user")) or "\$(length \${user})" == "3"' trigger='match'>
        <message inherit-mode='none'>
          <values><value name='MESSAGE'>listed \${user}@1 \$(sha1 --length 8 \${ip}@1)</value></values>
        </message>
      </action>
      <action condition='level(notice..emerg) and facility(user) and tags("login") and netmask("127.0.0.0/8")' trigger='match'>
        <message inherit-mode='none'>
          <values><value name='MESSAGE'>filters \${user}@1 \${PROGRAM}</value></values>
        </message>
      </action>
      <action condition='filter(f_vip) and source("s_local") and severity(notice..emerg)' trigger='match'>
        <message inherit-mode='none'>
          <values><value name='MESSAGE'>config-filter \${user}@1</value></values>
        </message>
      </action>
      <action condition='host("nosuchhost") or tags("nosuchtag")' trigger='match'>
        <message><values><value name='MESSAGE'>never \${user}</value></values></message>
      </action>
      <action trigger='timeout' condition='"\$(context-length)" &gt;= "2"'>
        <message inherit-mode='none'>
          <values>
            <value name='MESSAGE'>closed n=\$(context-length) users=\$(context-values \${user}) first10=\$(context-lookup --max-count 1 match("^10[.]" value("ip")) \${user})</value>
          </values>
        </message>
      </action>
    </actions>
   </rule>
  </rules>
 </ruleset>
 <ruleset name='numbers' id='rs-num'>
  <pattern>numd</pattern>
  <rules>
   <rule provider='test' id='r-num' class='system'>
    <patterns><pattern>n @NUMBER:num@ f @FLOAT:flt@</pattern></patterns>
    <values><value name='numref'>\${num}</value><value name='fltref'>\$flt</value></values>
   </rule>
  </rules>
 </ruleset>
 <ruleset name='sessions' id='rs-sess'>
  <pattern>sessd</pattern>
  <rules>
   <rule provider='test' id='r-sess' class='system'
         context-id='\$(lowercase \${user})' context-scope='global' context-timeout='1'>
    <patterns><pattern>open @ANYSTRING:user@</pattern></patterns>
    <values><value name='plain'>id=\$(echo \${CONTEXT_ID})</value></values>
    <actions>
      <action trigger='match'>
        <message inherit-mode='none'>
          <values><value name='MESSAGE'>opened \$(echo \${CONTEXT_ID}) \${.classifier.context_id}@1</value></values>
        </message>
      </action>
      <action trigger='timeout'>
        <message inherit-mode='none'>
          <values><value name='MESSAGE'>expired \$(echo \${CONTEXT_ID}) \$(context-length)</value></values>
        </message>
      </action>
      <action trigger='match' condition='"\$(context-length)" == "1"'>
        <create-context context-id='child-\$(uppercase \${user})' context-scope='global'>
          <message inherit-mode='last-message'>
            <values><value name='MESSAGE'>child \$(echo \${CONTEXT_ID})</value></values>
          </message>
        </create-context>
      </action>
    </actions>
   </rule>
  </rules>
 </ruleset>
</patterndb>
XML

# one configuration, $MODULE replaced: ours or 3.38's own db-parser()
# confs_from IN OURS STOCK: $T/OURS.conf and $T/STOCK.conf from the
# configuration IN, with MODULE the module (ours, syslog-ng's) and OUT the
# output file (OURS.log, STOCK.log).
confs_from() {
  sed -e 's/MODULE/patterndb/' -e "s/OUT/$2.log/" "$1" >"$T/$2.conf"
  sed -e "s/MODULE/$STOCK_PDB_MODULE/" -e "s/OUT/$3.log/" "$1" >"$T/$3.conf"
}

cat >"$T/conf.in" <<CONF
@version: $SNG_CONFIG_VERSION
@module MODULE
@module cryptofuncs
@module json-plugin
@module kvformat
options { $SNG_STATS_OFF };
source s_local { unix-stream("$T/sock"); };
filter f_vip { match("^(bob|dave)\$" value("user")); };
destination d_out {
  file("$T/OUT" template("\${PROGRAM} \${.classifier.rule_id} ctx=\${.classifier.context_id} msg=\${MESSAGE} json=\${json} digest=\${digest} welf=\${welf} seen=\${seen} plain=\${plain} grepped=\${grepped} tags=\${TAGS} typed=\$(format-json --no-cast --scope none --key port_next --key port --key portref --key portref2 --key numref --key fltref)\n"));
};
log { source(s_local); parser { db-parser(file("$T/funcs.xml") inject-mode(pass-through)); }; destination(d_out); };
CONF
confs_from "$T/conf.in" ours stock

LINES=(
  "<13>Jan  1 00:00:00 authd[1]: login bob from 10.1.2.3 port 22"
  "<13>Jan  1 00:00:01 authd[2]: login alice from 192.168.7.1 port 2200"
  "<13>Jan  1 00:00:02 authd[3]: login bob from 172.16.0.9 port 80"
  "<13>Jan  1 00:00:03 authd[4]: login carol from 10.9.9.9 port 5"
  "<10>Jan  1 00:00:04 authd[5]: login dave from 10.0.0.1 port 65535"
  "<13>Jan  1 00:00:05 other[6]: login bob from 10.1.2.3 port 22"
  "<13>Jan  1 00:00:05 numd[9]: n 5 f 2.5"
  "<13>Jan  1 00:00:06 sessd[7]: open Zed"
  "<13>Jan  1 00:00:06 sessd[8]: open zed"
)

# run_daemon NAME CONF OUT: the lines, then wait for the timeout actions
run_daemon() {
  local name=$1 conf=$2 out=$3
  if ! daemon_start "$conf" "$name"; then
    return 1
  fi
  send_lines "$T/sock" "${LINES[@]}"
  # the lines come back, then the contexts (1-2 s) expire: three timeout
  # messages, and a second more for anything else
  wait_lines "$T/$out" 9 20
  wait_for "[ \$(grep -c 'msg=closed\|msg=expired' '$T/$out') -ge 3 ]" 20
  sleep 1
  daemon_stop
}

saved=$MODULE_PATH
MODULE_PATH="$SYSTEM_MODULE_DIR"
run_daemon stock "$T/stock.conf" stock.log || diag "3.38 did not start: $(cat "$DAEMON_LOG")"
MODULE_PATH=$saved
run_daemon ours "$T/ours.conf" ours.log || diag "ours did not start: $(cat "$DAEMON_LOG")"

check "3.38's own db-parser() loaded the database (so the comparison means something)" \
  grep -q 'net10 bob' "$T/stock.log"
# ${TAGS} lists tags in the order syslog-ng registered them, which differs
# between the two modules: compare each line's tags as a set
tags_sorted() {
  awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^tags=/) { n = split(substr($i, 6), t, ",");
         for (a = 1; a <= n; a++) for (b = a + 1; b <= n; b++) if (t[b] < t[a]) { x = t[a]; t[a] = t[b]; t[b] = x }
         s = "tags="; for (a = 1; a <= n; a++) s = s (a > 1 ? "," : "") t[a]; $i = s } print }' "$1" 2>/dev/null
}
typed_reason="4.x keeps the types of template function results (\$(context-length), \$(+), \$(format-json), casts) in <value>s; the engine's expression backend returns text"
sng4_skip "the same lines (values, context-ids, match and timeout actions), in any order" "$typed_reason" ||
check_eq "the same lines (values, context-ids, match and timeout actions), in any order" \
  "$(tags_sorted "$T/stock.log" | sort)" "$(tags_sorted "$T/ours.log" | sort)"
sng4_skip "the same lines in the same order, timeout messages aside" "$typed_reason" ||
check_eq "the same lines in the same order, timeout messages aside" \
  "$(tags_sorted "$T/stock.log" | grep -v 'msg=closed\|msg=expired')" \
  "$(tags_sorted "$T/ours.log" | grep -v 'msg=closed\|msg=expired')"
check_eq "typed values as 3.38 sets them (a cast in a <value> with a function, an @NUMBER@ capture, values that refer to it)" \
  'typed={"portref2":22,"portref":22,"port_next":23,"port":22}' "$(grep -o 'typed=.*' "$T/ours.log" | head -1)"
check_eq "\${CONTEXT_ID} in templates of rule values, match and timeout actions and created contexts" \
"expired child-ZED 2
expired zed 3
opened zed zed
opened zed zed
plain=id=zed
plain=id=zed" "$(grep -o 'msg=\(opened\|expired\) [^ ]* [^ ]*\|plain=id=[^ ]*' "$T/ours.log" | sed 's/^msg=//' | sort)"
check_eq "values that are one plain reference keep the type of what they refer to, without a context" \
  'typed={"numref":5,"fltref":2.5}' "$(grep '^numd' "$T/ours.log" | grep -o 'typed=.*')"
check_eq "a condition naming a filter of the configuration (filter(), source(), severity())" \
  "3" "$(grep -c 'msg=config-filter \(bob\|dave\)' "$T/ours.log")"
check "a condition that holds for no message fires nothing" \
  bash -c "! grep -q 'msg=never' '$T/ours.log'"
# the new message is the context's last while its values are evaluated
check_eq "timeout actions with \$(context-lookup) and \$(context-values) ran" \
  'msg=closed n=3 users=bob,bob,"" first10=bob' "$(grep -o 'msg=closed[^j]*' "$T/ours.log" | sed 's/ $//')"

# A database 3.38 cannot compile: 3.38 logs the error and runs without it;
# ours refuses the configuration (README: a broken database at startup is
# an error), naming the function or the condition.
refused() {
  local what=$1 xml=$2 pattern=$3
  sed "s|$T/funcs.xml|$xml|" "$T/ours.conf" >"$T/bad.conf"
  if daemon_start "$T/bad.conf" bad; then
    daemon_stop
    not_ok "$what: ours refuses the database"
    return
  fi
  if grep -q "$pattern" "$DAEMON_LOG"; then
    ok "$what: ours refuses the database, naming the problem"
  else
    not_ok "$what: ours refuses the database, naming the problem"; diag "$(cat "$DAEMON_LOG")"
  fi
}
sed 's/\$(+ /$(no-such-function /' "$T/funcs.xml" >"$T/bad-func.xml"
refused "an unknown template function" "$T/bad-func.xml" 'Unknown template function.*no-such-function'
sed 's/host("nosuchhost") or/host("nosuchhost") or or/' "$T/funcs.xml" >"$T/bad-cond.xml"
refused "a condition syslog-ng cannot parse" "$T/bad-cond.xml" "action condition .* does not compile"
sed 's/tags("nosuchtag")/no-such-filter("x")/' "$T/funcs.xml" >"$T/bad-filter.xml"
refused "an unknown filter function" "$T/bad-filter.xml" "action condition .* does not compile"

# Reloads.
cat >"$T/live.in" <<'XML'
<patterndb version='4' pub_date='2024-01-01'>
 <ruleset name='rl' id='rs-rl'><pattern>rl</pattern><rules>
  <rule provider='test' id='r-rl' class='system'>
   <patterns><pattern>ping @ANYSTRING:x@</pattern></patterns>
   <values><value name='v'>$(uppercase ${x})</value></values>
  </rule>
 </rules></ruleset>
</patterndb>
XML
cp "$T/live.in" "$T/live.xml"
cat >"$T/live.conf" <<CONF
@version: $SNG_CONFIG_VERSION
@module patterndb
@module cryptofuncs
source s_local { unix-stream("$T/sock"); };
destination d_out { file("$T/live.log" template("\${v}\n")); };
log { source(s_local); parser { db-parser(file("$T/live.xml")); }; destination(d_out); };
CONF
n_live=0
ping() {
  n_live=$((n_live + 1))
  send_lines "$T/sock" "<13>Jan  1 00:00:00 rl[1]: ping $1"
  wait_lines "$T/live.log" "$n_live" 10
  tail -n 1 "$T/live.log"
}
export PATTERNDB_CHECK_INTERVAL=1
if daemon_start "$T/live.conf" live; then
  ping first >/dev/null
  daemon_reload
  check_eq "SIGHUP, file unchanged: compiled again with the new configuration, and working" \
    "1 SECOND" "$(grep -c 'pattern database reloaded' "$DAEMON_LOG") $(ping second)"
  sed 's/\$(uppercase /$(sha1 --length 6 /' "$T/live.in" >"$T/live.new" && mv "$T/live.new" "$T/live.xml"
  want=$(printf third | sha1sum | cut -c1-6)
  sleep 2
  got=$(ping third)
  for i in 1 2 3 4 5 6 7 8 9 10; do
    [ "$got" = "$want" ] && break
    sleep 1
    got=$(ping third)
  done
  check_eq "a file changed on disk: a function of another module compiled by the worker that noticed" "$want" "$got"
  check "the daemon is still running" kill -0 "$DAEMON_PID"
  daemon_stop
else
  for i in 1 2 3; do not_ok "the daemon with the live database did not start"; done
fi

# One language, two engines: the tool, the daemon and pdbtool.
cat >"$T/basic.xml" <<'XML'
<patterndb version='4' pub_date='2024-01-01'>
 <ruleset name='b' id='rs-b'><pattern>appd</pattern><rules>
  <rule provider='test' id='r-b' class='system' context-id='$(lowercase ${user})' context-timeout='30'>
   <patterns><pattern>user @ESTRING:user: @path @ESTRING:path: @note @ANYSTRING:note@</pattern></patterns>
   <values>
    <value name='a'>$(uppercase ${user})-$(length ${path})</value>
    <value name='b'>$(substr ${path} 1 4)|$(strip ${note})|$(echo x${user}y)</value>
    <value name='c'>$(if ("${user}" == "root") admin other) $(replace-delimiter "/" "," ${path})</value>
    <value name='d'>$(sanitize ${path}) $(context-length) $(lowercase ${note})</value>
   </values>
  </rule>
 </rules></ruleset>
</patterndb>
XML
BASIC_LINES=(
  "<13>Jan  1 00:00:00 host appd[1]: user root path /var/log/x note  Hello World "
  "<13>Jan  1 00:00:01 host appd[2]: user Bob path a/b/c note x"
  "<13>Jan  1 00:00:02 host appd[3]: user eve path  note "
)
printf '%s\n' "${BASIC_LINES[@]}" >"$T/basic.in"
TMPL='${.classifier.rule_id}|${a}|${b}|${c}|${d}'
cat >"$T/basic.conf" <<CONF
@version: $SNG_CONFIG_VERSION
@module patterndb
source s_local { unix-stream("$T/sock"); };
destination d_out { file("$T/basic.log" template("$(printf '%s' "$TMPL" | sed 's/\$/\\$/g')\n")); };
log { source(s_local); parser { db-parser(file("$T/basic.xml")); }; destination(d_out); };
CONF
from_pdbtool=$(/usr/bin/pdbtool match -p "$T/basic.xml" -f "$T/basic.in" -T "$TMPL"$'\n' 2>/dev/null)
from_tool=$("$top_builddir/patterndb" match -p "$T/basic.xml" -f "$T/basic.in" -T "$TMPL"$'\n' 2>&1)
if daemon_start "$T/basic.conf" basic; then
  # a local socket carries no hostname
  send_lines "$T/sock" "${BASIC_LINES[@]/ host / }"
  wait_lines "$T/basic.log" 3 10
  daemon_stop
fi
if sng4_skip "the tool, the daemon and pdbtool give the same values" \
     "the tool follows pdbtool 3.38 (\$(if) on an unset value differs in 4.x's pdbtool and daemon)"; then
  :
elif [ -n "$from_pdbtool" ] && [ "$from_pdbtool" = "$from_tool" ] && [ "$from_tool" = "$(cat "$T/basic.log" 2>/dev/null)" ]; then
  ok "the tool, the daemon and pdbtool give the same values"
else
  not_ok "the tool, the daemon and pdbtool give the same values"
  diag "pdbtool: $from_pdbtool"; diag "tool: $from_tool"; diag "daemon: $(cat "$T/basic.log" 2>&1)"
fi

# The correlation fixture of the tool's tests (tests/correlation/corr.xml:
# conditions that compare templates, create-context, rates) through both
# daemons: what the match actions and the classification write is the
# same (its timeouts are longer than this run).
cat >"$T/corr.in" <<CONF
@version: $SNG_CONFIG_VERSION
@module MODULE
source s_local { unix-stream("$T/sock"); };
destination d_out { file("$T/OUT" template("\${PROGRAM} \${.classifier.rule_id} ctx=\${.classifier.context_id} \${MESSAGE}\n")); };
log { source(s_local); parser { db-parser(file("$top_srcdir/tests/correlation/corr.xml")); }; destination(d_out); };
CONF
confs_from "$T/corr.in" corr-ours corr-stock
# a local socket carries no timestamp or hostname of these forms: program and message only
mapfile -t CORR_LINES < <(sed 's/^<[0-9]*>[^ ]* [^ ]* //' "$top_srcdir/tests/correlation/corr.messages")
run_corr() {
  daemon_start "$1" "$2" || return
  send_lines "$T/sock" "${CORR_LINES[@]}"
  wait_lines "$T/$3" "${#CORR_LINES[@]}" 20
  sleep 1
  daemon_stop
}
MODULE_PATH="$SYSTEM_MODULE_DIR"
run_corr "$T/corr-stock.conf" corr-stock corr-stock.log
MODULE_PATH=$saved
run_corr "$T/corr-ours.conf" corr-ours corr-ours.log
if [ -s "$T/corr-stock.log" ] && [ "$(cat "$T/corr-stock.log")" = "$(cat "$T/corr-ours.log" 2>/dev/null)" ]; then
  ok "tests/correlation/corr.xml: the same output as 3.38's db-parser()"
else
  not_ok "tests/correlation/corr.xml: the same output as 3.38's db-parser()"
  diag "$(diff "$T/corr-stock.log" "$T/corr-ours.log" 2>&1 | head -20)"
fi

# Every basicfuncs function, each in a <value>, over a context of two messages.
cat >"$T/basic-funcs.xml" <<'XML'
<patterndb version='4' pub_date='2024-01-01'>
 <ruleset name='t' id='rs1'><pattern>prog</pattern><rules>
  <rule provider='me' id='r1' class='system' context-id='$(echo ${sess})' context-scope='global' context-timeout='30'>
   <patterns><pattern>s @ESTRING:sess: @a @NUMBER:a@ b @FLOAT:b@ p @ESTRING:path: @t @ANYSTRING:text@</pattern></patterns>
   <values>
     <value name='f.avg'>$(average ${a})</value>
     <value name='f.b64'>$(base64-encode ${path})</value>
     <value name='f.basename'>$(basename ${path})</value>
     <value name='f.binary'>$(binary 65 66)</value>
     <value name='f.ceil'>$(ceil ${b})</value>
     <value name='f.ctxlen'>$(context-length)</value>
     <value name='f.ctxlookup'>$(context-lookup ("${a}" &gt; "1") ${a})</value>
     <value name='f.ctxvalues'>$(context-values ${a})</value>
     <value name='f.dirname'>$(dirname ${path})</value>
     <value name='f.echo'>$(echo ${text})</value>
     <value name='f.env'>$(env HOME)</value>
     <value name='f.explode'>$(explode / ${path})</value>
     <value name='f.filter'>$(filter ("$_" ne "usr") $(explode / ${path}))</value>
     <value name='f.floor'>$(floor ${b})</value>
     <value name='f.grep'>$(grep ("${a}" &gt; "1") ${a})</value>
     <value name='f.if'>$(if ("${a}" == "5") five other)</value>
     <value name='f.implode'>$(implode - a b c)</value>
     <value name='f.indent'>$(indent-multi-line ${text})</value>
     <value name='f.ipv4'>$(ipv4-to-int 10.0.0.1)</value>
     <value name='f.length'>$(length ${text})</value>
     <value name='f.lappend'>$(list-append a b)</value>
     <value name='f.lconcat'>$(list-concat a,b c)</value>
     <value name='f.lcount'>$(list-count a,b,c)</value>
     <value name='f.lhead'>$(list-head a,b,c)</value>
     <value name='f.lnth'>$(list-nth 1 a,b,c)</value>
     <value name='f.lsearch'>$(list-search b a,b,c)</value>
     <value name='f.lslice'>$(list-slice 1: a,b,c)</value>
     <value name='f.ltail'>$(list-tail a,b,c)</value>
     <value name='f.lower'>$(lowercase ${text})</value>
     <value name='f.max'>$(max ${a})</value>
     <value name='f.min'>$(min ${a})</value>
     <value name='f.plus'>$(+ ${a} ${b})</value>
     <value name='f.minus'>$(- ${a} 2)</value>
     <value name='f.mul'>$(* ${a} 3)</value>
     <value name='f.div'>$(/ ${a} 2)</value>
     <value name='f.mod'>$(% ${a} 3)</value>
     <value name='f.or'>$(or ${missing} ${a})</value>
     <value name='f.padding'>$(padding ${a} 5 0)</value>
     <value name='f.repl'>$(replace-delimiter / : ${path})</value>
     <value name='f.round'>$(round ${b})</value>
     <value name='f.sanitize'>$(sanitize ${path})</value>
     <value name='f.strip'>$(strip "  ${a}  ")</value>
     <value name='f.substr'>$(substr ${text} 1 3)</value>
     <value name='f.sum'>$(sum ${a})</value>
     <value name='f.upper'>$(uppercase ${text})</value>
     <value name='f.urldec'>$(url-decode a%20b)</value>
     <value name='f.urlenc'>$(url-encode ${path})</value>
     <value name='f.vp'>$(format-json --scope none --key a)</value>
   </values>
  </rule>
 </rules></ruleset>
</patterndb>
XML
cat >"$T/bf.in" <<CONF
@version: $SNG_CONFIG_VERSION
@module MODULE
@module json-plugin
source s_local { unix-stream("$T/sock"); };
destination d_out { file("$T/OUT" template("\$(format-json --scope none --key f.* --key .classifier.rule_id)\n")); };
log { source(s_local); parser { db-parser(file("$T/basic-funcs.xml")); }; destination(d_out); };
CONF
confs_from "$T/bf.in" bf-ours bf-stock
BF_LINES=("prog[1]: s x a 5 b 2.5 p /usr/local/bin t hello World" "prog[1]: s x a 7 b 1.2 p a/b t  two")
run_bf() {
  daemon_start "$1" "$2" || return
  send_lines "$T/sock" "${BF_LINES[@]}"
  wait_lines "$T/$3" 2 20
  daemon_stop
}
MODULE_PATH="$SYSTEM_MODULE_DIR"
run_bf "$T/bf-stock.conf" bf-stock bf-stock.log
MODULE_PATH=$saved
run_bf "$T/bf-ours.conf" bf-ours bf-ours.log
if sng4_skip "every basicfuncs function: the same values as 3.38's db-parser()" "$typed_reason"; then
  :
elif grep -q '"ctxvalues":"5,7"' "$T/bf-stock.log" 2>/dev/null \
   && [ "$(cat "$T/bf-stock.log")" = "$(cat "$T/bf-ours.log" 2>/dev/null)" ]; then
  ok "every basicfuncs function: the same values as 3.38's db-parser()"
else
  not_ok "every basicfuncs function: the same values as 3.38's db-parser()"
  diag "3.38: $(cat "$T/bf-stock.log" 2>&1)"; diag "ours: $(cat "$T/bf-ours.log" 2>&1)"
fi

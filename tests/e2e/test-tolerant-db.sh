#!/bin/bash
# tests/e2e/test-tolerant-db.sh: a database that syslog-ng 3.38 loads
# although it is sloppy starts our db-parser() in the real daemon, and the
# daemon classifies with it exactly as with syslog-ng's own db-parser().
#
# The database (tests/e2e/data/tolerant.xml) holds what 3.38's loader
# tolerates and public databases do: <values> inside <patterns> after the
# <pattern>s, <tag> inside <values>, a comment that cuts a <pattern> in two,
# a CDATA section in a <pattern> (3.38 drops its content), an empty <value>,
# <values/>, a program pattern with a parser (its capture stays on messages
# no rule matches). The same input runs through two daemons: Debian's
# libdbparser.so alone in the module path (no @module patterndb), then
# `@module patterndb`; every name-value pair and the tags must be equal, and
# ours must have warned at startup with file:line:column.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/daemon.sh"
e2e_setup

T=$TEST_TMPDIR
OURS_PATH=$MODULE_PATH
REF_PATH=$SYSTEM_MODULE_DIR
DB=$top_srcdir/tests/e2e/data/tolerant.xml
[ -f "$REF_PATH/$STOCK_PDB_SO" ] || skip_all "no $STOCK_PDB_SO in $REF_PATH (the reference db-parser())"
plan 7

OUT_TEMPLATE='p=${PROGRAM} class=${.classifier.class} id=${.classifier.rule_id} | $(format-json --scope nv-pairs --scope dot-nv-pairs --exclude MESSAGE --exclude HOST --exclude PROGRAM --exclude PID --exclude SOURCE --exclude LEGACY_MSGHDR --exclude .unix.* --exclude HOST_FROM) tags=${TAGS}\n'

lines=(
  "<13>Dec  3 10:00:00 host sshd[1]: Accepted password for bob from 10.0.0.1 port 22"
  "<13>Dec  3 10:00:00 host sshd[1]: Failed password for eve"
  "<13>Dec  3 10:00:00 host sshd[1]: disconnect x"
  "<13>Dec  3 10:00:00 host sshd[1]: split"
  "<13>Dec  3 10:00:00 host sshd[1]: here"
  "<13>Dec  3 10:00:00 host sshd[1]: cdata"
  "<13>Dec  3 10:00:00 host sshd[1]: after cdata"
  "<13>Dec  3 10:00:00 host sshd[1]: nothing known"
  "<13>Dec  3 10:00:00 host cyrus/imap[2]: login: bob ok"
  "<13>Dec  3 10:00:00 host cyrus/imap[2]: something else"
)

for flavour in ref ours; do
  dir=$T/$flavour
  mkdir -p "$dir"
  {
    echo "@version: $SNG_CONFIG_VERSION"
    [ "$flavour" = ours ] && echo '@module patterndb'
    cat <<CONF
options { keep-hostname(yes); $SNG_STATS_OFF };
source s { unix-stream("$dir/sock" flags(expect-hostname)); };
parser p { db-parser(file("$DB")); };
destination d { file("$dir/out.log" template("$OUT_TEMPLATE")); };
log { source(s); parser(p); destination(d); };
CONF
  } >"$dir/syslog-ng.conf"
  if [ "$flavour" = ref ]; then MODULE_PATH=$REF_PATH; else MODULE_PATH=$OURS_PATH; fi
  if daemon_start "$dir/syslog-ng.conf" "$flavour-d"; then
    eval "${flavour}_started=1"
    send_lines "$dir/sock" "${lines[@]}"
    wait_lines "$dir/out.log" "${#lines[@]}" 15
    daemon_stop
  fi
  touch "$dir/out.log"
done
MODULE_PATH=$OURS_PATH

check "syslog-ng's own db-parser() loads the database" [ "${ref_started:-0}" = 1 ]
check "our db-parser() loads it too and the daemon starts" [ "${ours_started:-0}" = 1 ]
check_eq "every message came out" "${#lines[@]}" "$(wc -l < "$T/ours/out.log")"
# ${TAGS} lists tags in the order syslog-ng numbered them: its own
# db-parser() numbers the class tags at load, before the source's tag, ours
# when first set; compared as sets.
sort_tags() {
  python3 -c '
import sys
for line in open(sys.argv[1]):
    head, _, tags = line.rstrip("\n").rpartition(" tags=")
    print(head + " tags=" + ",".join(sorted(tags.split(","))))' "$1"
}
sort_tags "$T/ref/out.log" > "$T/ref.sorted"
sort_tags "$T/ours/out.log" > "$T/ours.sorted"
if [ -s "$T/ref.sorted" ] && cmp -s "$T/ref.sorted" "$T/ours.sorted"; then
  ok "classes, rule ids, name-value pairs and tags identical to syslog-ng's db-parser()"
else
  not_ok "classes, rule ids, name-value pairs and tags identical to syslog-ng's db-parser()"
  diag "$(diff "$T/ref.sorted" "$T/ours.sorted" 2>&1 | head -30)"
fi
check "<values> inside <patterns> works (v=Vbob)" grep -q 'id=accept .*"v":"Vbob"' "$T/ours/out.log"
check "the program pattern's capture stays on an unknown message" \
  grep -q 'p=cyrus/imap class=unknown .*"proto":"imap"' "$T/ours/out.log"
check "startup warns about <values> inside <patterns> with file:line:column" \
  grep -q 'tolerant.xml:[0-9]*:[0-9]*: <values> inside <patterns>' "$T/ours-d/stderr.log"

#!/bin/bash
# tests/tool/test-match-direct.sh: the short path of `match -f -T` for
# templates of the classification only (tool/match-direct.c) prints exactly
# what pdbtool 3.38 prints, on databases where it is taken (random, loghub,
# hand-written) and where it must refuse: a <value> or a capture that writes
# .classifier.class / .classifier.rule_id, a rule with a context-id, a template that also reads another name, lines 3.38 cannot parse,
# a program without a ruleset and no catch-all.
. "$top_srcdir/tests/lib.sh"

setup_vs_pdbtool

# compare DB LOG LABEL TEMPLATE
compare() {
  local db=$1 log=$2 label=$3 tmpl=$4
  "$PDBTOOL" match -p "$db" -f "$log" -T "$tmpl" > "$T/ref" 2>/dev/null
  "$PATTERNDB" match -p "$db" -f "$log" -T "$tmpl" > "$T/ours" 2>"$T/err"
  if cmp -s "$T/ref" "$T/ours" && [ -s "$T/ref" ]; then
    ok "$label: -T '$tmpl' identical ($(wc -l < "$T/ref") lines)"
  else
    not_ok "$label: -T '$tmpl' differs"
    diff "$T/ref" "$T/ours" | head -10 | while IFS= read -r l; do diag "$l"; done
    head -3 "$T/err" | while IFS= read -r l; do diag "stderr: $l"; done
  fi
}

templates=('${.classifier.rule_id}\n' '${.classifier.class} ${.classifier.rule_id:-none}\n')

mkdir -p "$T/random" "$T/loghub"
python3 "$DIFFDIR/gen.py" random "$T/random" 3 12 200 >/dev/null
python3 "$DIFFDIR/gen.py" loghub "$top_srcdir/tests/data/loghub" "$T/loghub" >/dev/null
for db in "$T"/random/*.xml "$T"/loghub/*.xml; do
  for t in "${templates[@]}"; do
    compare "$db" "${db%.xml}.log" "$(basename "${db%.xml}")" "$t"
  done
done
for msgs in "$DIFFDIR"/db/*.messages; do
  for t in "${templates[@]}"; do
    compare "${msgs%.messages}.xml" "$msgs" "db/$(basename "${msgs%.messages}")" "$t"
  done
done

# Databases that write the classifier names themselves, or emit messages.
cat > "$T/lines.log" <<'LOG'
Dec  3 10:00:00 host app[1]: login user alice from 10.0.0.1
Dec  3 10:00:01 host app[1]: logout user bob
Dec  3 10:00:02 host app[1]: something else
Dec  3 10:00:03 host other: login user carol from 10.0.0.2
<999>this is not a syslog header
LOG
write_db() {
  cat > "$T/$1.xml" <<XML
<?xml version='1.0' encoding='UTF-8'?>
<patterndb version='4' pub_date='2026-12-03'>
  <ruleset name='app' id='rs-app'>
    <pattern>app</pattern>
    <rules>
      <rule provider='test' id='r-login' class='system'>
        <patterns><pattern>login user @ESTRING:u: @from @IPv4:ip@</pattern></patterns>
        $2
      </rule>
      <rule provider='test' id='r-logout' class='violation'>
        <patterns><pattern>logout user @ANYSTRING:$3@</pattern></patterns>
      </rule>
    </rules>
  </ruleset>
</patterndb>
XML
}
write_db plain '' u2
write_db value-class '<values><value name=".classifier.class">from-value-$u</value></values>' u2
write_db capture-rule-id '' .classifier.rule_id
write_db context '' u2
sed -i "s|<rule provider='test' id='r-login' class='system'>|<rule provider='test' id='r-login' class='system' context-id='ctx-\$u' context-timeout='60'>|" "$T/context.xml"
for db in plain value-class capture-rule-id context; do
  for t in "${templates[@]}"; do
    compare "$T/$db.xml" "$T/lines.log" "refusal case $db" "$t"
  done
done
compare "$T/plain.xml" "$T/lines.log" "template reading another name" '${.classifier.rule_id} $PROGRAM\n'

done_testing

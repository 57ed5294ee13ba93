#!/bin/bash
# tests/tool/test-match-plan.sh: on the short path of `match -f -T`
# (tool/match-direct.c), a template of plain text and the exact references
# ${.classifier.rule_id} / ${.classifier.class} is expanded from a plan
# instead of the template evaluator. Every template below is compared with
# pdbtool 3.38 on a database with matching, unknown and unparsable lines and
# a program without a ruleset: the plan shapes (text around, both names, a
# name twice, text only) and the shapes that must go to the evaluator ($$,
# a lone $, ${name}@N, a default, a function, more pieces than a plan holds).
. "$top_srcdir/tests/lib.sh"

setup_vs_pdbtool

cat > "$T/db.xml" <<'XML'
<?xml version='1.0' encoding='UTF-8'?>
<patterndb version='4' pub_date='2026-12-03'>
  <ruleset name='app' id='rs-app'>
    <pattern>app</pattern>
    <rules>
      <rule provider='test' id='r-login' class='system'>
        <patterns><pattern>login user @ESTRING:u: @from @IPv4:ip@</pattern></patterns>
      </rule>
      <rule provider='test' id='r-logout' class='violation'>
        <patterns><pattern>logout user @ANYSTRING:u@</pattern></patterns>
      </rule>
    </rules>
  </ruleset>
</patterndb>
XML
cat > "$T/lines.log" <<'LOG'
Dec  3 10:00:00 host app[1]: login user alice from 10.0.0.1
Dec  3 10:00:01 host app[1]: logout user bob
Dec  3 10:00:02 host app[1]: something else
Dec  3 10:00:03 host other: login user carol from 10.0.0.2
<999>this is not a syslog header
LOG

many=''
for i in $(seq 1 20); do many="$many<$i>\${.classifier.rule_id}"; done

templates=(
  '${.classifier.rule_id}\n'
  '${.classifier.class}\n'
  'id=${.classifier.rule_id} class=${.classifier.class};\n'
  '${.classifier.rule_id}${.classifier.rule_id}\n'
  'text only\n'
  '[${.classifier.class}]'
  'cost $$ ${.classifier.rule_id}\n'
  '${.classifier.rule_id} $\n'
  '${.classifier.rule_id}@1\n'
  '${.classifier.rule_id:-none}\n'
  '$(uppercase ${.classifier.class}) ${.classifier.rule_id}\n'
  "$many\\n"
)

for t in "${templates[@]}"; do
  "$PDBTOOL" match -p "$T/db.xml" -f "$T/lines.log" -T "$t" > "$T/ref" 2>/dev/null
  "$PATTERNDB" match -p "$T/db.xml" -f "$T/lines.log" -T "$t" > "$T/ours" 2>"$T/err"
  if cmp -s "$T/ref" "$T/ours" && [ -s "$T/ref" ]; then
    ok "-T '$t' identical to pdbtool ($(wc -c < "$T/ref") bytes)"
  else
    not_ok "-T '$t' differs from pdbtool"
    diff "$T/ref" "$T/ours" | head -10 | while IFS= read -r l; do diag "$l"; done
    head -3 "$T/err" | while IFS= read -r l; do diag "stderr: $l"; done
  fi
done

done_testing

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

write_login_db "$T/db.xml"
write_login_lines "$T/lines.log"

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
  match_vs_pdbtool plan "$T/db.xml" "$T/lines.log" "$t"
done

done_testing

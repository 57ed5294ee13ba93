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
compare() { match_vs_pdbtool "$3" "$1" "$2" "$4"; }

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
write_login_lines "$T/lines.log"
write_db() { write_login_db "$T/$1.xml" "$2" "$3"; }
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

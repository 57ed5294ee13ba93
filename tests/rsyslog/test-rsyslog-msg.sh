#!/bin/bash
# tests/rsyslog/test-rsyslog-msg.sh: `patterndb rsyslog` classifies rsyslog's
# msg property as syslog-ng classifies the same syslog line (pdbtool -f).
#
# rsyslog's msg is everything after "prog[pid]:", the usual blank included;
# syslog-ng's MESSAGE drops exactly one space there (not a tab, not a second
# space). So "prog:  x" is " x" for syslog-ng, and a pattern "x" must not
# match it through the bridge either. No rsyslogd needed: the JSON lines are
# what its mmexternal writes (interface.input="fulljson").
. "$top_srcdir/tests/lib.sh"

setup_vs_pdbtool

cat > "$T/db.xml" <<'EOF'
<patterndb version='4' pub_date='2026-01-01'>
  <ruleset name='p' id='p'><pattern>p</pattern><rules>
    <rule id='plain' class='c'><pattern>x @ANYSTRING:rest@</pattern></rule>
    <rule id='one-blank' class='c'><pattern> x @ANYSTRING:rest@</pattern></rule>
    <rule id='tab' class='c'><pattern>	x @ANYSTRING:rest@</pattern></rule>
  </rules></ruleset>
</patterndb>
EOF
# after "p[1]:" as rsyslog keeps it
msgs=(' x a' '  x b' '   x c' 'x d' $'\tx e' $' \tx f' '' ' ')
: > "$T/lines.log"; : > "$T/in.jsonl"
for m in "${msgs[@]}"; do
  printf '<13>Dec  3 10:00:00 host p[1]:%s\n' "$m" >> "$T/lines.log"
  python3 -c 'import json, sys; print(json.dumps({"msg": sys.argv[1], "programname": "p", "hostname": "host", "procid": "1"}))' "$m" >> "$T/in.jsonl"
done
"$PDBTOOL" match -p "$T/db.xml" -f "$T/lines.log" -T '${.classifier.class}|${.classifier.rule_id}|${rest}\n' \
  2>/dev/null > "$T/ref.out"
"$PATTERNDB" rsyslog --pdb "$T/db.xml" < "$T/in.jsonl" 2>"$T/err" | python3 -c '
import json, sys
for line in sys.stdin:
    r = json.loads(line)["$!"]["pdb"]
    print("%s|%s|%s" % (r.get("class", ""), r.get("rule_id", ""), r.get("values", {}).get("rest", "")))
' > "$T/ours.out"
check_eq "as many answers as lines" "${#msgs[@]}" "$(wc -l < "$T/ours.out")"
i=0
while IFS= read -r ref; do
  i=$((i + 1))
  check_eq "line $i ($(sed -n "${i}p" "$T/lines.log" | cut -d: -f4- | cat -A | cut -c1-12)): same class, rule and value as syslog-ng" \
    "$ref" "$(sed -n "${i}p" "$T/ours.out")"
done < "$T/ref.out"
check "pdbtool classified some line by each rule (plain, one-blank, tab)" \
  [ "$(cut -d'|' -f2 "$T/ref.out" | sort -u | grep -c .)" -eq 3 ]
check "nothing on stderr" [ ! -s "$T/err" ]
done_testing

#!/bin/bash
# tests/correlation/test-correlation-match.sh: `patterndb match` correlates
# as pdbtool 3.38 does: contexts and scopes, match and timeout actions
# (timeout messages before the line whose timestamp releases them, match
# action messages after their line, every context expired at the end of
# the input), ${name}@N, inherit modes, conditions, rate limits and
# create-context (3.38: the created context lives for the creating rule's
# context-timeout, its key comes from the seed message, its id from the
# triggering messages, and the seed gets no .classifier.context_id), and
# the order of the name-value pairs (names registered as the file is read),
# and $(names)/$(values) over a generated message (its own names).
#
# Each database is run through `patterndb match -f`; the output must equal
# the golden file (made with Debian's pdbtool 3.38 on the same input) and,
# when pdbtool is installed, pdbtool's output of this run too. A few
# assertions on the golden files make sure they hold what they should.
. "$top_srcdir/tests/lib.sh"

PDBTOOL=${PDBTOOL_BIN:-/usr/bin/pdbtool}
PATTERNDB=$top_builddir/patterndb
D=$top_srcdir/tests/correlation
[ -x "$PATTERNDB" ] || skip_all "patterndb not built"
export TZ=UTC
make_tmpdir
T=$TEST_TMPDIR

have_pdbtool=0
# the tool follows pdbtool 3.38; another version's is no reference (lib.sh)
[ -x "$PDBTOOL" ] && pdbtool_is_reference && have_pdbtool=1

# name:exit status (pdbtool's: 1 when the last line matches no rule)
for entry in corr:0 inherit:0 create:1 order:0 names:0; do
  name=${entry%%:*}
  want_rc=${entry#*:}
  "$PATTERNDB" match -p "$D/$name.xml" -f "$D/$name.messages" > "$T/$name.out" 2> "$T/$name.err"
  rc=$?
  check "$name: exit status $want_rc (rc=$rc)" test "$rc" -eq "$want_rc"
  if cmp -s "$D/$name.expected" "$T/$name.out"; then
    ok "$name: output equals the golden file"
  else
    not_ok "$name: output equals the golden file"
    diag "$(diff "$D/$name.expected" "$T/$name.out" | head -40)"
  fi
  check "$name: nothing on stderr" test ! -s "$T/$name.err"
  if [ $have_pdbtool = 1 ]; then
    "$PDBTOOL" match -p "$D/$name.xml" -f "$D/$name.messages" > "$T/$name.ref" 2>/dev/null
    check "$name: output equals pdbtool's" cmp -s "$T/$name.ref" "$T/$name.out"
    tmpl='$MSG|${.classifier.rule_id}|${.classifier.context_id}|$TAGS|$HOST|$PID\n'
    "$PDBTOOL" match -p "$D/$name.xml" -f "$D/$name.messages" -T "$tmpl" > "$T/$name.tref" 2>/dev/null
    "$PATTERNDB" match -p "$D/$name.xml" -f "$D/$name.messages" -T "$tmpl" > "$T/$name.tout" 2>/dev/null
    check "$name: -T output equals pdbtool's" cmp -s "$T/$name.tref" "$T/$name.tout"
    # --debug-pattern shows the lines only (no generated message) and wins over -T
    "$PDBTOOL" match -p "$D/$name.xml" -f "$D/$name.messages" -D -T "$tmpl" > "$T/$name.dref" 2>/dev/null
    "$PATTERNDB" match -p "$D/$name.xml" -f "$D/$name.messages" -D -T "$tmpl" > "$T/$name.dout" 2>/dev/null
    check "$name: --debug-pattern output equals pdbtool's" cmp -s "$T/$name.dref" "$T/$name.dout"
  fi
done

# -M: one message, its context expires at the end
"$PATTERNDB" match -p "$D/corr.xml" -P app -M "global 7" > "$T/m.out"
check "-M: the timeout action runs at the end" grep -qx 'MESSAGE=global 7   ' "$T/m.out"
if [ $have_pdbtool = 1 ]; then
  "$PDBTOOL" match -p "$D/corr.xml" -P app -M "global 7" > "$T/m.ref"
  check "-M: output equals pdbtool's" cmp -s "$T/m.ref" "$T/m.out"
fi

# What the golden files must show (so that a wrong golden file cannot pass).
G=$D/corr.expected
check "rate 2/30 per scope: the third open of sshd[100] within 30 s gets no login" \
  test -z "$(grep '^MESSAGE=login .*carol' "$T/corr.out")"
check "rate: another PID has its own bucket" grep -q '^MESSAGE=login  (@0) dave (@1)$' "$T/corr.out"
check_eq "rate: five login messages in all (alice bob dave erin frank)" 5 "$(grep -c '^MESSAGE=login' "$T/corr.out")"
check "condition eq/or: reboot and rm -rf / are flagged" grep -q '^MESSAGE=dangerous rm -rf / by bob$' "$T/corr.out"
check "condition context-length and not: summary for bob" \
  grep -q '^MESSAGE=summary user=bob first=session opened for bob by 2 last=session closed 2$' "$T/corr.out"
check "numeric == (3.38): two strings compare equal" grep -q '^MESSAGE=numeric-eq bob$' "$T/corr.out"
check "create-context: seeded context read by the timeout of another" \
  grep -q '^MESSAGE=req 5 done after audit seed 5 seed=s5$' "$T/corr.out"
check "global scope collects across hosts" grep -q '^MESSAGE=global 5 2 1 $' "$T/corr.out"
check "program scope collects across PIDs" grep -q '^MESSAGE=prog 4 3$' "$T/corr.out"
first_T=$(grep -n '^MESSAGE=T v3 v1$' "$T/inherit.out" | cut -d: -f1)
h5=$(grep -n '^MESSAGE=h 5$' "$T/inherit.out" | cut -d: -f1)
check "timeout T precedes h 5 ($first_T < $h5)" test "${first_T:-0}" -gt 0 -a "${first_T:-0}" -lt "${h5:-0}"
m1=$(grep -n '^MESSAGE=M v1 v1 $' "$T/inherit.out" | cut -d: -f1)
t1=$(grep -n '^MESSAGE=t 1$' "$T/inherit.out" | cut -d: -f1)
check "match action message follows its line ($t1 < $m1)" test "${t1:-0}" -gt 0 -a "${t1:-0}" -lt "${m1:-0}"
check "rule values look back over the context (\${n}@1), and actions see them" \
  grep -q '^MESSAGE=B prev=2 cur=3$' "$T/inherit.out"
to5=$(grep -n '^MESSAGE=to 1 ctx=req-1 len=2 m0=seed 1' "$T/create.out" | cut -d: -f1)
tick8=$(grep -n '^MESSAGE=tick$' "$T/create.out" | head -1 | cut -d: -f1)
check "create-context: the created context expires after the rule's 5 s, not its own 20 ($to5 < $tick8)" \
  test "${to5:-0}" -gt 0 -a "${to5:-0}" -lt "${tick8:-0}"
check "create-context: the seed gets no .classifier.context_id of its own" \
  test -z "$(grep -E '^\.classifier\.context_id=aud-(1|-)' "$T/create.out")"
seedto=$(grep -B1 -A2 -x 'MESSAGE=to  ctx= len=2 m1=seed ' "$T/create.out" | tr '\n' ' ')
check "create-context, inherit-mode none under a global rule: no scope fields in the key" \
  test "$seedto" = "HOST= MESSAGE=to  ctx= len=2 m1=seed  PROGRAM= PID= "
check "create-context: the id is expanded over the trigger, so join finds the seed" \
  grep -qx 'MESSAGE=J len=3 m1=join m2=seed' "$T/create.out"
check "\$(names) in an action message lists the generated message's names (3.38: no LEGACY_MSGHDR)" \
  grep -qx 'MESSAGE=M \[.classifier.class,.classifier.context_id,.classifier.rule_id,HOST,MESSAGE,N0,PID,PROGRAM,V,n\] .*' "$T/names.out"
check "\$(names) in a message without inherited properties: only the scope fields" \
  grep -qx 'MESSAGE=F \[HOST,PID,PROGRAM\]' "$T/names.out"
check_eq "create-context: an existing key is replaced, not extended (two contexts of one seed each)" 2 \
  "$(grep -c -x -E 'MESSAGE=T len=2 m1=seed (a|b) m2=' "$T/create.out")"
check "order: context-id names (rid) come before <value> names (step)" \
  test "$(sed -n '/^rid=/p;/^step=/p' "$T/order.out" | head -2 | tr '\n' ' ')" = "rid=1 step=a "
check "order: then the condition's, the create-context id's, the message values' names" \
  test "$(sed -n '/^cc=/p;/^bb=/p;/^aa=/p' "$T/order.out" | tr '\n' ' ')" = "cc=C bb=B aa=A "
# A timeout action that seeds a context whose timeout seeds the next: 3.38's
# pdbtool loops forever at the end of input; we follow 64 links and stop.
cat >"$T/chain.xml" <<'XML'
<?xml version='1.0' encoding='UTF-8'?>
<patterndb version='4' pub_date='2026-12-03'>
  <ruleset name='chain' id='rs-chain'>
    <pattern>chain</pattern>
    <rules>
      <rule provider='t' id='tick' class='system' context-id='c' context-timeout='5'>
        <patterns><pattern>tick</pattern></patterns>
        <actions>
          <action trigger='timeout'>
            <create-context context-id='c'>
              <message inherit-mode='context'><values><value name='MESSAGE'>link</value></values></message>
            </create-context>
          </action>
          <action trigger='timeout'>
            <message inherit-mode='context'><values><value name='MESSAGE'>expired</value></values></message>
          </action>
        </actions>
      </rule>
    </rules>
  </ruleset>
</patterndb>
XML
printf '<13>Jan  1 00:00:00 host chain[1]: tick\n' >"$T/chain.log"
timeout 30 "$PATTERNDB" match -p "$T/chain.xml" -f "$T/chain.log" -T '${MESSAGE}\n' >"$T/chain.out" 2>"$T/chain.err"
check_eq "a create-context chain at the end of input stops (exit status 0, no timeout)" 0 "$?"
check_eq "the chain is followed 64 links (65 contexts expire)" "tick 1, expired 65" \
  "tick $(grep -c -x tick "$T/chain.out"), expired $(grep -c -x expired "$T/chain.out")"
check "golden corr has 45 records" test "$(grep -c '^$' "$G")" -eq 45

done_testing

#!/bin/bash
# tests/differential/test-syslog-sdata.sh: $SDATA and the .SDATA.* values
# of `patterndb match -f` (tool/message-sdata.c) against pdbtool 3.38 when
# rules set structured-data names too: a capture (@ANYSTRING:.SDATA.z.w@)
# and <value>s on names new to the message, of an SD-ID the line already
# has, of one it has not, without an SD-ID (.SDATA.n), with dots in the
# SD-ID, overwriting a value the line set; lines with RFC 5424 structured
# data, Cisco sequence ids and time-quality marks, and none. -T prints
# $SDATA and single values; the default output prints every value in
# pdbtool's numbering order (the Cisco names are numbered at start-up).
. "$top_srcdir/tests/lib.sh"

setup_vs_pdbtool
plan 4

cat > "$T/db.xml" <<'XML'
<?xml version='1.0' encoding='UTF-8'?>
<patterndb version='4' pub_date='2026-12-04'>
 <ruleset name='r' id='r'><pattern>a</pattern><rules>
  <rule id='r1' class='system'><patterns><pattern>hit @ANYSTRING:.SDATA.z.w@</pattern></patterns>
   <values><value name='.SDATA.z.v'>zv</value><value name='.SDATA.n'>nv</value>
    <value name='.SDATA.y.k.l'>y"k]\</value><value name='.SDATA.a.b'>over</value>
    <value name='zz'>1</value></values></rule>
  <rule id='r2' class='system'><patterns><pattern>other @ANYSTRING:rest@</pattern></patterns>
   <values><value name='.SDATA.meta.sequenceId'>77</value><value name='.SDATA.zz.q'>q</value></values></rule>
 </rules></ruleset>
</patterndb>
XML
P='<13>1 2026-12-03T10:00:00Z h a 1 m'
printf '%s\n' \
  "$P [a b=\"1\"][z w=\"0\"][c d=\"2\"] hit me" \
  "$P [a b=\"1\"][z u=\"0\"][z t=\"0\"][c d=\"2\"] hit me" \
  "$P [y.k][z u=\"0\"] hit me" \
  "$P [a b=\"1\"][c d=\"2\"][a b=\"3\"] hit me" \
  "$P [z b=\"1\"] other thing" \
  "$P [zzz b=\"1\"][m] other thing" \
  "$P - hit me" \
  "$P - other thing" \
  "12: *Dec  3 10:00:00 h a: hit me" \
  "12: .Dec  3 10:00:00 h a: other thing" \
  "*Dec  3 10:00:00 h a: hit me" \
  "Dec  3 10:00:00 h a: hit me" \
  "Dec  3 10:00:00 h a: other thing" > "$T/lines"

tmpl='${SDATA}|${.SDATA.a.b}|${.SDATA.meta.sequenceId}|${.classifier.rule_id}\n'
TZ=UTC "$PDBTOOL" match -p "$T/db.xml" -f "$T/lines" -T "$tmpl" > "$T/ref.t" 2>/dev/null
TZ=UTC "$PATTERNDB" match -p "$T/db.xml" -f "$T/lines" -T "$tmpl" > "$T/ours.t"
check "every line matched a rule in pdbtool" [ "$(grep -c '|r[12]$' "$T/ref.t")" = "$(wc -l < "$T/lines")" ]
check_eq "\$SDATA and .SDATA values as pdbtool" "$(cat "$T/ref.t")" "$(cat "$T/ours.t")"
TZ=UTC "$PDBTOOL" match -p "$T/db.xml" -f "$T/lines" > "$T/ref.d" 2>/dev/null
TZ=UTC "$PATTERNDB" match -p "$T/db.xml" -f "$T/lines" > "$T/ours.d"
check "pdbtool's default output has the Cisco names" grep -q '^.SDATA.timeQuality.isSynced=1$' "$T/ref.d"
check_eq "every value in pdbtool's order" "$(cat "$T/ref.d")" "$(cat "$T/ours.d")"

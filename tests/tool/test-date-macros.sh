#!/bin/bash
# tests/tool/test-date-macros.sh: the date and time macros of
# `patterndb match` (${ISODATE}, ${S_YEAR}, ${R_UNIXTIME} ...; see
# tool/date-macros.h) print what pdbtool 3.38 prints, in -T templates and in
# <value> templates: BSD stamps across month and year boundaries (3.38's
# year guess), BSD stamps with a year, ISO 8601 stamps with offsets and
# fractions, RFC 5424 lines, stamps out of range, times in a DST gap, in
# several time zones. Macros of "now" (R_, C_, P_, and the stamp of a line
# without one) cannot be compared byte for byte: they are checked for their
# format and against the clock, with a tolerance.
. "$top_srcdir/tests/lib.sh"

setup_vs_pdbtool

cat > "$T/db.xml" <<'XML'
<?xml version='1.0' encoding='UTF-8'?>
<patterndb version='4' pub_date='2026-12-03'>
  <ruleset name='chain' id='rs-chain'>
    <pattern>chain</pattern>
    <rules>
      <rule provider='test' id='r-tick' class='system'>
        <patterns><pattern>tick</pattern></patterns>
        <values>
          <value name='when'>${ISODATE} $YEAR ${S_HOUR}:$MIN ${WEEK_DAY_NAME}</value>
        </values>
      </rule>
    </rules>
  </ruleset>
</patterndb>
XML

# Lines with a stamp: their macros depend on the stamp and TZ only.
cat > "$T/stamped.log" <<'LOG'
<13>Jan  1 00:00:00 host chain[1]: tick
<13>Jan 31 23:59:59 host chain[1]: tick
<13>Feb  1 00:00:00 host chain[1]: tick
<13>Feb 28 12:00:00 host chain[1]: tick
<13>Feb 29 23:59:59.25 host chain[1]: tick
<13>Feb 30 10:00:00 host chain[1]: tick
<13>Mar  8 02:30:00 host chain[1]: tick
<13>Mar 29 02:30:00 host chain[1]: tick
<13>Jun 14 10:00:00 host chain[1]: tick
<13>Sep 21 13:05:07 host chain[1]: tick
<13>Sep 30 23:05:07 host chain[1]: tick
<13>Oct 25 02:30:00 host chain[1]: tick
<13>Nov  2 01:30:00 host chain[1]: tick
<13>Nov 30 23:59:59 host chain[1]: tick
<13>Dec  1 00:00:00 host chain[1]: tick
<13>Dec 31 23:59:59 host chain[1]: tick
<13>Mar 31 2023 10:00:00 host chain[1]: tick
<13>Mar 31 10:00:00 2023 host chain[1]: tick
<13>Jan  1 00:00:00 2025 host chain[1]: tick
<13>123: *Mar  3 10:00:00.999999999: host chain: tick
<13>.Apr  4 04:04:04 host chain: tick
<13>2024-05-01T10:00:00.123456+02:00 host chain[1]: tick
<13>2024-05-01 10:00:00-05:30 host chain[1]: tick
<13>2024-02-29T23:59:59Z host chain[1]: tick
<13>2024-02-30T10:00:00 host chain[1]: tick
<13>2025-13-01T00:00:00Z host chain[1]: tick
<13>2025-00-10T00:00:00+01:00 host chain[1]: tick
<13>2027-01-01T00:00:00.5+14:00 host chain[1]: tick
<13>1 2024-05-01T10:00:00.5Z host chain 1 - - tick
<13>1 2025-03-30T02:30:00 host chain - - - tick
<13>1 2026-11-01T01:30:00.000001-03:30 host chain - - [a b="c"] tick
<13>Dec  3 10:00:00 host other[1]: not matched
LOG

fields='ISODATE DATE FULLDATE STAMP YEAR YEAR_DAY MONTH MONTH_WEEK MONTH_NAME MONTH_ABBREV DAY HOUR HOUR12 AMPM MIN SEC MSEC USEC UNIXTIME TZ TZOFFSET WEEKDAY WEEK_DAY WEEK_DAY_ABBREV WEEK_DAY_NAME WEEK ISOWEEK'
stable=''
for f in $fields; do stable="$stable\${$f}|\${S_$f}|"; done
stable="$stable\${when}\\n"

for tz in UTC Europe/Budapest America/St_Johns Asia/Kolkata America/New_York; do
  TZ=$tz "$PDBTOOL" match -p "$T/db.xml" -f "$T/stamped.log" -T "$stable" > "$T/ref" 2>/dev/null
  TZ=$tz "$PATTERNDB" match -p "$T/db.xml" -f "$T/stamped.log" -T "$stable" > "$T/ours" 2>"$T/err"
  if cmp -s "$T/ref" "$T/ours" && [ "$(wc -l < "$T/ref")" -eq "$(wc -l < "$T/stamped.log")" ]; then
    ok "TZ=$tz: -T with every date macro, plain and S_, identical to pdbtool ($(wc -l < "$T/ref") lines)"
  else
    not_ok "TZ=$tz: -T with every date macro differs from pdbtool"
    diff "$T/ref" "$T/ours" | head -6 | while IFS= read -r l; do diag "$l"; done
    head -3 "$T/err" | while IFS= read -r l; do diag "stderr: $l"; done
  fi
  # <value> templates see the macros too: the default output (NAME=value
  # lines). Without the lines with a time quality mark: where 3.38 puts
  # .SDATA.timeQuality.isSynced among the values is another matter.
  grep -v ': [*.]\|>[*.]' "$T/stamped.log" > "$T/values.log"
  TZ=$tz "$PDBTOOL" match -p "$T/db.xml" -f "$T/values.log" > "$T/ref" 2>/dev/null
  TZ=$tz "$PATTERNDB" match -p "$T/db.xml" -f "$T/values.log" > "$T/ours" 2>"$T/err"
  if cmp -s "$T/ref" "$T/ours" && grep -q '^when=20' "$T/ours"; then
    ok "TZ=$tz: <value> with date macros, NAME=value output identical to pdbtool"
  else
    not_ok "TZ=$tz: <value> with date macros differs from pdbtool"
    diff "$T/ref" "$T/ours" | head -6 | while IFS= read -r l; do diag "$l"; done
  fi
done

# 3.38's year guess, stated on its own: a January stamp read in December is
# next year's, a December stamp read in January last year's, else this year.
month=$(date +%m) year=$(date +%Y)
case $month in
  12) want_jan=$((year + 1)) want_dec=$year ;;
  01) want_jan=$year want_dec=$((year - 1)) ;;
  *) want_jan=$year want_dec=$year ;;
esac
got=$(printf '<13>Jan  1 00:00:00 h chain: tick\n<13>Dec 31 23:59:59 h chain: tick\n' \
  | "$PATTERNDB" match -p "$T/db.xml" -f - -T '${YEAR} ')
check_eq "year guess in month $month: Jan 1 is $want_jan, Dec 31 is $want_dec" "$want_jan $want_dec " "$got"

# A stamp written the same in two zones is the same wall-clock time, shown at each zone's offset.
got=$(printf '<13>Jul  4 12:00:00 h chain: tick\n' \
  | TZ=Asia/Kolkata "$PATTERNDB" match -p "$T/db.xml" -f - -T '${HOUR}:${MIN} ${TZ}')
check_eq "BSD stamps are local time (TZ=Asia/Kolkata)" "12:00 +05:30" "$got"

# Lines without a usable stamp, and the macros of "now": format and clock.
cat > "$T/now.log" <<'LOG'
<13>host chain[1]: tick
<13>1 - host chain 1 - - tick
<13>Foo  3 10:00:00 host chain[1]: tick
<13>sEP  9 09:09:09 host chain: tick
<999 not a header
plain text without a header
LOG
now_template='${UNIXTIME} ${R_UNIXTIME} ${C_UNIXTIME} ${P_UNIXTIME} ${ISODATE} ${R_ISODATE} ${C_ISODATE} ${P_ISODATE} ${S_USEC} ${R_MSEC}\n'
iso='[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[+-][0-9]{2}:[0-9]{2}'
line_re="^([0-9]+ ){4}($iso ){4}[0-9]{6} [0-9]{3}\$"
# check_now FILE LABEL: every line has the format, times within 10 s of the
# clock, and each ISODATE is its UNIXTIME in the zone in force (TZ).
check_now() {
  local file=$1 label=$2 start=$3 end=$4 bad=0 n=0
  while IFS= read -r l; do
    n=$((n + 1))
    if ! [[ $l =~ $line_re ]]; then
      bad=1; diag "$label: format: $l"; continue
    fi
    read -r u1 u2 u3 u4 i1 i2 _ <<<"$l"
    for u in $u1 $u2 $u3 $u4; do
      if [ "$u" -lt $((start - 10)) ] || [ "$u" -gt $((end + 10)) ]; then
        bad=1; diag "$label: $u not within [$start, $end]: $l"
      fi
    done
    if [ "$i1" != "$(TZ=$TZ_NOW date -d "@$u1" +%Y-%m-%dT%H:%M:%S%:z)" ] \
       || [ "$i2" != "$(TZ=$TZ_NOW date -d "@$u2" +%Y-%m-%dT%H:%M:%S%:z)" ]; then
      bad=1; diag "$label: ISODATE is not UNIXTIME in $TZ_NOW: $l"
    fi
  done < "$file"
  if [ "$bad" -eq 0 ] && [ "$n" -eq "$(wc -l < "$T/now.log")" ]; then
    ok "$label: macros of now ($n lines) have the format and the time of the clock"
  else
    not_ok "$label: macros of now are wrong ($n lines)"
  fi
}
for TZ_NOW in UTC America/St_Johns; do
  start=$(date +%s)
  TZ=$TZ_NOW "$PDBTOOL" match -p "$T/db.xml" -f "$T/now.log" -T "$now_template" > "$T/ref" 2>/dev/null
  TZ=$TZ_NOW "$PATTERNDB" match -p "$T/db.xml" -f "$T/now.log" -T "$now_template" > "$T/ours" 2>"$T/err"
  end=$(date +%s)
  check_now "$T/ref" "pdbtool TZ=$TZ_NOW" "$start" "$end"
  check_now "$T/ours" "patterndb TZ=$TZ_NOW" "$start" "$end"
done

# -M: the message has no header, its stamp is the time it was received.
start=$(date +%s)
got=$("$PATTERNDB" match -p "$T/db.xml" -P chain -M tick -T '${UNIXTIME} ${R_UNIXTIME} ${when}')
end=$(date +%s)
read -r u1 u2 _ <<<"$got"
if [ "$u1" -ge $((start - 10)) ] && [ "$u1" -le $((end + 10)) ] && [ "$u1" = "$u2" ] \
   && [[ $got =~ \ $iso\ [0-9]{4}\ [0-9]{2}:[0-9]{2}\ [A-Z][a-z]+day$ ]]; then
  ok "-M: the stamp is the time of matching, and <value>s see it ($got)"
else
  not_ok "-M: unexpected date macros: $got"
fi

# A name that only looks like a macro is a value; a date macro wins over a value of its name.
got=$(printf '<13>1 2024-05-01T10:00:00Z host chain 1 - [m YEAR="x" ISODATEX="y"] tick\n' \
  | "$PATTERNDB" match -p "$T/db.xml" -f - -T '${YEAR} ${.SDATA.m.YEAR} ${ISODATEX} ${X_YEAR}|')
want=$(printf '<13>1 2024-05-01T10:00:00Z host chain 1 - [m YEAR="x" ISODATEX="y"] tick\n' \
  | "$PDBTOOL" match -p "$T/db.xml" -f - -T '${YEAR} ${.SDATA.m.YEAR} ${ISODATEX} ${X_YEAR}|')
check_eq "names near the macros' as pdbtool" "$want" "$got"

done_testing

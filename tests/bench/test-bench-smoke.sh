#!/bin/bash
# tests/bench/test-bench-smoke.sh: validates the benchmark's workload
# generator (contrib/bench/benchgen.py) at tiny size, so that `make bench`
# measures real classification: the generated databases load in Debian's
# pdbtool, at least 85% of the generated "matching" lines get the rule id
# they were generated from, most of the near misses stay unmatched, and the
# output is the same on every run (fixed seeds).
. "$top_srcdir/tests/lib.sh"

PDBTOOL=${PDBTOOL_BIN:-/usr/bin/pdbtool}
command -v python3 >/dev/null 2>&1 || skip_all "python3 not installed"
[ -x "$PDBTOOL" ] || skip_all "pdbtool not installed"
make_tmpdir
gen="$top_srcdir/contrib/bench/benchgen.py"

# score DIR OUT: "intended-percent false-positive-percent" of OUT against DIR/expected.txt.
score() {
  paste -d'|' "$1/expected.txt" "$2" | awk -F'|' '
    $1 != "" { m++; if ($1 == $2) ok++ }
    $1 == "" { n++; if ($2 != "") fp++ }
    END { printf "%d %d\n", m ? 100 * ok / m : 0, n ? 100 * fp / n : 0 }'
}

check_workload() {
  local name=$1 dir=$2 out="$2/pdbtool.out" lines nexp intended fp
  check "$name: generator wrote db, input and expected ids" \
    test -s "$dir/patterndb.xml" -a -s "$dir/input.log" -a -s "$dir/expected.txt" -a -s "$dir/rules.rulebase" -a -s "$dir/rules.pcre"
  if "$PDBTOOL" match -p "$dir/patterndb.xml" -f "$dir/input.log" -T '${.classifier.rule_id}\n' >"$out" 2>"$dir/pdbtool.err"; then
    ok "$name: pdbtool loads the database and classifies the stream"
  else
    not_ok "$name: pdbtool loads the database and classifies the stream"; diag "$(head -5 "$dir/pdbtool.err")"
  fi
  lines=$(wc -l <"$dir/input.log"); nexp=$(wc -l <"$out")
  check_eq "$name: one output line per input line" "$lines" "$nexp"
  read -r intended fp < <(score "$dir" "$out")
  diag "$name: $intended% of matching lines got their intended rule, $fp% of the others matched something"
  check "$name: at least 85% of the matching lines match their intended rule ($intended%)" test "$intended" -ge 85
  if [ "$name" != real ]; then
    check "$name: at most 10% of near misses, unknown programs and random words match ($fp%)" test "$fp" -le 10
  fi
}

python3 "$gen" real --loghub "$top_srcdir/tests/data/loghub" --lines 4000 --out "$TEST_TMPDIR/real" \
  && ok "real: generator runs" || not_ok "real: generator runs"
check_workload real "$TEST_TMPDIR/real"
rules=$(grep -c '<rule ' "$TEST_TMPDIR/real/patterndb.xml")
check "real: one rule per loghub template (at least 600, got $rules)" test "$rules" -ge 600

for n in 100 1000; do
  python3 "$gen" synth --rules $n --lines 3000 --out "$TEST_TMPDIR/s$n" \
    && ok "synth-$n: generator runs" || not_ok "synth-$n: generator runs"
  check_workload "synth-$n" "$TEST_TMPDIR/s$n"
  rules=$(grep -c '<rule ' "$TEST_TMPDIR/s$n/patterndb.xml")
  check_eq "synth-$n: database has $n rules" "$n" "$rules"
done
# Every parser kind of the issue's mix occurs in the synthetic database.
for p in ESTRING NUMBER IPv4 QSTRING STRING ANYSTRING; do
  check "synth-1000: uses @$p@" grep -q "@$p:" "$TEST_TMPDIR/s1000/patterndb.xml"
done
check "synth-1000: has key=value pairs" grep -Eq '[a-z]+=@(NUMBER|ESTRING):' "$TEST_TMPDIR/s1000/patterndb.xml"

python3 "$gen" synth --rules 100 --lines 3000 --out "$TEST_TMPDIR/again"
for f in patterndb.xml input.log expected.txt rules.rulebase rules.pcre; do
  check "synth-100: $f is the same on a second run (fixed seeds)" cmp -s "$TEST_TMPDIR/s100/$f" "$TEST_TMPDIR/again/$f"
done

# --zipf: same database, a skewed stream. With 1,000 rules a uniform choice
# gives the busiest rule about 0.3% of the matching lines; Zipf with
# exponent 1 about 13%.
python3 "$gen" synth --rules 1000 --lines 3000 --zipf 1 --out "$TEST_TMPDIR/z1000" \
  && ok "synth-1000 --zipf 1: generator runs" || not_ok "synth-1000 --zipf 1: generator runs"
check "synth-1000 --zipf 1: same database as the uniform stream" \
  cmp -s "$TEST_TMPDIR/s1000/patterndb.xml" "$TEST_TMPDIR/z1000/patterndb.xml"
check_workload "synth-1000-zipf" "$TEST_TMPDIR/z1000"
top_uniform=$(grep -v '^$' "$TEST_TMPDIR/s1000/expected.txt" | sort | uniq -c | sort -rn | awk 'NR == 1 { print $1 }')
top_zipf=$(grep -v '^$' "$TEST_TMPDIR/z1000/expected.txt" | sort | uniq -c | sort -rn | awk 'NR == 1 { print $1 }')
diag "busiest rule: $top_uniform lines uniform, $top_zipf lines Zipf (of about 2,700 matching)"
check "synth-1000 --zipf 1: busiest rule has at least 5% of the lines ($top_zipf)" test "$top_zipf" -ge 135
check "synth-1000 uniform: busiest rule has under 1% of the lines ($top_uniform)" test "$top_uniform" -lt 27

# lognormalizer reads the converted rulebase the same way (when it is installed).
if command -v lognormalizer >/dev/null 2>&1; then
  lognormalizer -r "$TEST_TMPDIR/s1000/rules.rulebase" -e json -T <"$TEST_TMPDIR/s1000/input.log" 2>/dev/null |
    python3 -c 'import json,sys
for l in sys.stdin:
    print((json.loads(l).get("event.tags") or [""])[0])' >"$TEST_TMPDIR/ln.out"
  read -r intended fp < <(score "$TEST_TMPDIR/s1000" "$TEST_TMPDIR/ln.out")
  check "synth-1000: lognormalizer classifies at least 85% as intended ($intended%)" test "$intended" -ge 85
fi
done_testing

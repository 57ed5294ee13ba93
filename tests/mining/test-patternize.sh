#!/bin/sh
# `patterndb patternize` end to end: mine real syslog samples (tests/mining/data), then check
# that the output is a patterndb of version 3 (the lowest that holds
# examples) that validates against Debian's own XSD of that version, whose
# examples pass Debian's `pdbtool test` on the file as written (pdbtool 3.38
# refuses versions above 5) and our own `patterndb test --validate`; plus
# the pdbtool-compatible options.
. "$top_srcdir/tests/lib.sh"

pdb="$top_builddir/patterndb"
pdbtool=${PDBTOOL_BIN:-pdbtool}
data="$top_srcdir/tests/mining/data"
[ -x "$pdb" ] || skip_all "patterndb not built"
make_tmpdir
export SOURCE_DATE_EPOCH=1767225600   # 2026-01-01: stable output

# pdbtool_passes FILE: pdbtool test on the file as written: no wrong values,
# no load errors (a version it does not read is one), no example that two
# rules match.
pdbtool_passes() {
  "$pdbtool" test "$1" > "$1.pdbtool" 2>&1 || { grep -v '^Testing message' "$1.pdbtool" | head -20 | sed 's/^/# /'; return 1; }
  if grep -v '^Testing message' "$1.pdbtool" | grep -q -e 'Wrong match' -e 'Error' -e 'conflict'; then
    grep -v '^Testing message' "$1.pdbtool" | head -10 | sed 's/^/# /'
    return 1
  fi
}

has_patterndb_test() { "$pdb" --help 2>&1 | grep -q '^  test '; }
# patterndb test --validate (XSD of the file's version, then the examples), quiet unless it fails
patterndb_test_passes() {
  "$pdb" test --validate "$1" > "$1.ptest" 2>&1 || { grep -v '^Testing message' "$1.ptest" | head -20 | sed 's/^/# /'; return 1; }
}

for set in openssh linux; do
  out="$TEST_TMPDIR/$set.xml"
  "$pdb" patternize -f "$data/$set.syslog" -S 0 --samples=2 > "$out" 2> "$TEST_TMPDIR/$set.err"
  check "$set: patternize exits 0" test $? -eq 0
  check "$set: a version 3 patterndb" grep -q "^<patterndb version='3' pub_date='2026-01-01'>" "$out"
  if [ -f /usr/share/syslog-ng/xsd/patterndb-3.xsd ] && command -v xmllint >/dev/null; then
    check "$set: valid by Debian's patterndb-3.xsd" xmllint --noout --schema /usr/share/syslog-ng/xsd/patterndb-3.xsd "$out"
  else
    ok "$set: valid by Debian's patterndb-3.xsd # SKIP no syslog-ng XSD or xmllint"
  fi
  n_rules=$(grep -c "<rule provider='patternize'" "$out")
  check "$set: rules were mined ($n_rules)" test "$n_rules" -gt 5
  n_ex=$(grep -c "<test_message program=" "$out")
  check "$set: examples from the input ($n_ex)" test "$n_ex" -ge "$n_rules"
  check "$set: support comments" test "$(grep -c '<!-- support: [0-9]* -->' "$out")" -eq "$n_rules"
  check "$set: pdbtool test passes on the output" pdbtool_passes "$out"
  if has_patterndb_test; then
    check "$set: patterndb test passes on the output" patterndb_test_passes "$out"
  else
    ok "$set: patterndb test passes on the output # SKIP no test subcommand yet"
  fi
done

# all eight loghub samples as bare messages (-p): every example passes
ga_bin="$top_builddir/tests/mining/mining-ga"
for csv in "$top_srcdir"/tests/data/loghub/*/*_structured.csv; do
  name=$(basename "$csv" _2k.log_structured.csv)
  out="$TEST_TMPDIR/$name.p.xml"
  "$ga_bin" --content "$csv" | "$pdb" patternize -p -n -f - -S 0 --samples=2 > "$out" 2> /dev/null
  check "$name: pdbtool test passes on -p -n output ($(grep -c '<rule ' "$out") rules)" pdbtool_passes "$out"
  if has_patterndb_test; then
    check "$name: patterndb test passes on -p -n output" patterndb_test_passes "$out"
  fi
done

# sshd's ruleset: one per program, with the program as its pattern
ossh="$TEST_TMPDIR/openssh.xml"
check "one ruleset for sshd" test "$(grep -c "<ruleset name='sshd'" "$ossh")" -eq 1
check "typed and named fields" grep -q 'Failed password for @ESTRING:user: @from @IPv4:src_ip@ port @NUMBER:port@ ssh2' "$ossh"

# -p: bare messages; '@' is escaped, XML specials are escaped
raw="$TEST_TMPDIR/raw.txt"
for u in alice bob carol dave erin; do
  echo "mail from $u@example.com size=$((${#u} * 100)) <ok> & done"
done > "$raw"
"$pdb" patternize -p -f "$raw" -S 0 > "$TEST_TMPDIR/raw.xml"
check "-p: catch-all ruleset named patternize" grep -q "<ruleset name='patternize'" "$TEST_TMPDIR/raw.xml"
check "-p: '@' doubled, XML escaped" grep -q '<pattern>mail from @STRING:src_host@@@example.com size=@NUMBER:size@ &lt;ok&gt; &amp; done</pattern>' "$TEST_TMPDIR/raw.xml"
check "-p: pdbtool test passes" pdbtool_passes "$TEST_TMPDIR/raw.xml"

# -n names the fields that have no context name
printf 'job a1 done in x1\njob b2 done in x2\njob c3 done in y3\njob d4 done in z4\n' > "$TEST_TMPDIR/n.txt"
"$pdb" patternize -p -n -S 0 -f "$TEST_TMPDIR/n.txt" > "$TEST_TMPDIR/n.xml"
check "-n: .dict.string names" grep -q '<pattern>job @ESTRING:job: @done in @ANYSTRING:.dict.string0@</pattern>' "$TEST_TMPDIR/n.xml"
check "-n: pdbtool test passes" pdbtool_passes "$TEST_TMPDIR/n.xml"

# stdin, determinism, support, outliers
"$pdb" patternize -f - -S 0 --samples=2 < "$data/openssh.syslog" > "$TEST_TMPDIR/stdin.xml"
check "stdin gives the same file (stable ids)" cmp -s "$ossh" "$TEST_TMPDIR/stdin.xml"
n_all=$(grep -c '<rule ' "$ossh")
n_default=$("$pdb" patternize -f "$data/openssh.syslog" | grep -c '<rule ')
n_s4=$("$pdb" patternize -S 4 -f "$data/openssh.syslog" | grep -c '<rule ')
n_outliers=$("$pdb" patternize -S 4 -o -f "$data/openssh.syslog" | grep -c '<rule ')
check_eq "no -S: a rule for every cluster, as -S 0" "$n_all" "$n_default"
check "-S 4 (pdbtool's default) keeps fewer rules ($n_s4 < $n_all)" test "$n_s4" -lt "$n_all"
check "-o mines the outliers too ($n_outliers > $n_s4)" test "$n_outliers" -gt "$n_s4"

"$pdb" patternize --support=abc -f "$raw" > /dev/null 2>&1
check_eq "bad option: exit 2" 2 $?
"$pdb" patternize --support=-1 -f "$raw" > /dev/null 2>&1
check_eq "negative support: exit 2" 2 $?
"$pdb" patternize -f "$TEST_TMPDIR/missing.log" > /dev/null 2>&1
check_eq "missing file: exit 1" 1 $?

done_testing

#!/bin/sh
# tests/lint: `patterndb lint`. For each kind of finding a database that has
# exactly that problem (data/KIND-bad*) and one that does not (data/KIND-good*);
# the output must equal tests/lint/golden/<name>.txt and the exit status must
# be 2 (errors), 1 (warnings only) or 0 (clean). Also the --json form, --help,
# a database that does not load, and the bundled library (contrib/patterns)
# without errors. PDB_LINT_REGEN=1 rewrites the golden files.
. "$top_srcdir/tests/lib.sh"

PDB="$top_builddir/patterndb"
make_tmpdir
cd "$top_srcdir/tests/lint" || exit 1

# name  expected-exit
CASES="
shadowed-bad.xml 2
shadowed-good.xml 0
ambiguous-bad.xml 1
ambiguous-good.xml 0
duplicate-id-bad 2
duplicate-id-good 0
no-example-bad.xml 1
no-example-good.xml 0
example-bad.xml 2
example-good.xml 0
prefix-only-bad.xml 1
prefix-only-good.xml 0
parser-follow-bad.xml 2
parser-follow-good.xml 0
loader-bad.xml 1
loader-good.xml 0
"

golden() {
  # golden NAME ACTUAL-FILE
  if [ -n "${PDB_LINT_REGEN:-}" ]; then cp "$2" "golden/$1"; fi
  if cmp -s "golden/$1" "$2"; then ok "$1 matches its golden output"; else
    not_ok "$1 matches its golden output"; diag "$(diff -u "golden/$1" "$2")"; fi
}

echo "$CASES" | while read -r name want; do
  [ -n "$name" ] || continue
  "$PDB" lint -p "data/$name" >"$TEST_TMPDIR/out" 2>&1
  rc=$?
  check_eq "$name: exit status" "$want" "$rc"
  golden "${name%.xml}.txt" "$TEST_TMPDIR/out"
  # every bad case really names its own kind (the golden file alone could be wrong)
  case $name in
    *-bad*)
      kind=${name%-bad*}
      [ "$kind" = example ] && kind=test-value
      if grep -q "\[$kind\]" "$TEST_TMPDIR/out"; then ok "$name: reports [$kind]"
      else not_ok "$name: reports [$kind]"; fi ;;
    *-good*)
      check_eq "$name: no finding" "0 errors, 0 warnings" "$(tail -n1 "$TEST_TMPDIR/out" | sed 's/ in .*//')" ;;
  esac
  [ "$_tap_failed" -eq 0 ] || echo "$_tap_failed" >"$TEST_TMPDIR/failed"
  echo "$_tap_n" >"$TEST_TMPDIR/count"
done
# the loop ran in a subshell: carry its counters over
_tap_n=$(cat "$TEST_TMPDIR/count")
[ -f "$TEST_TMPDIR/failed" ] && _tap_failed=$(cat "$TEST_TMPDIR/failed")

# --json: one object with a findings array, valid JSON, same findings
"$PDB" lint --json -p data/shadowed-bad.xml >"$TEST_TMPDIR/json" 2>&1
check_eq "--json: exit status" 2 "$?"
golden shadowed-bad.json "$TEST_TMPDIR/json"
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["errors"]==5 and d["warnings"]==2 and len(d["findings"])==7; assert all(set(f)>={"severity","kind","file","line","column","rules","message"} for f in d["findings"])' "$TEST_TMPDIR/json"; then
  ok "--json: parses, counts and fields"
else
  not_ok "--json: parses, counts and fields"
fi
"$PDB" lint --json -p data/loader-good.xml >"$TEST_TMPDIR/json-clean"
check_eq "--json clean: exit 0 and an empty findings array" '0 {"findings":[],"errors":0,"warnings":0,"silenced":0}' "$? $(cat "$TEST_TMPDIR/json-clean")"

# command line and broken input
"$PDB" lint --help >"$TEST_TMPDIR/help" 2>&1
check_eq "--help: exit 0" 0 "$?"
check "--help: documents --json and the exit status" grep -q -- "--json" "$TEST_TMPDIR/help"
printf '<patterndb version="4"><ruleset>' >"$TEST_TMPDIR/broken.xml"
"$PDB" lint -p "$TEST_TMPDIR/broken.xml" >/dev/null 2>"$TEST_TMPDIR/err"
check_eq "a database that does not load: exit 2" 2 "$?"
check "a database that does not load: error names file:line:column" grep -qE "broken\.xml:[0-9]+:[0-9]+" "$TEST_TMPDIR/err"
"$PDB" lint -p data/missing.xml >/dev/null 2>&1
check_eq "a missing database: exit 2" 2 "$?"
"$PDB" lint -p data/shadowed-bad.xml extra >/dev/null 2>&1
check_eq "an extra argument: exit 2" 2 "$?"

# the bundled pattern library is lint-clean: its deliberate prefix-only
# patterns carry a patterndb-lint marker
"$PDB" lint -p "$top_srcdir/contrib/patterns" >"$TEST_TMPDIR/library" 2>&1
rc=$?
if [ "$rc" -eq 0 ] && tail -n1 "$TEST_TMPDIR/library" | grep -q "^0 errors, 0 warnings in "; then
  ok "contrib/patterns: lint-clean, exit 0 ($(tail -n1 "$TEST_TMPDIR/library"))"
else
  not_ok "contrib/patterns: lint-clean, exit 0"; diag "$(head -20 "$TEST_TMPDIR/library")"
fi
"$PDB" lint --ignore prefix-only -p "$top_srcdir/contrib/patterns" >/dev/null 2>&1
check_eq "contrib/patterns: nothing but prefix-only is silenced there" 0 "$?"

# Silencing a kind: markers at rule, ruleset and file scope, --ignore, and
# a misspelled kind reported rather than silently doing nothing.
"$PDB" lint -p data/allow-markers.xml >"$TEST_TMPDIR/allow" 2>&1
check_eq "markers: exit 1 (what is not silenced stays)" 1 "$?"
golden allow-markers.txt "$TEST_TMPDIR/allow"
check "markers: the unmarked rule's prefix-only is reported" grep -q "\[prefix-only\] pattern of rule 'a-unmarked'" "$TEST_TMPDIR/allow"
check "markers: the rule's own marker silences it" sh -c "! grep -q \"'a-marked'\" '$TEST_TMPDIR/allow'"
check "markers: the ruleset marker covers both its rules" sh -c "! grep -q \"'b-one'\\|'b-two'\" '$TEST_TMPDIR/allow'"
check "markers: the misspelled marker is reported with its line" grep -q "allow-markers.xml:30:1: warning: \[lint-marker\] unknown kind 'no-exampel'" "$TEST_TMPDIR/allow"
check "markers: and does not silence" grep -q "\[no-example\] rule 'c-one'" "$TEST_TMPDIR/allow"
"$PDB" lint -p data/allow-file.xml >"$TEST_TMPDIR/allow-file" 2>&1
check_eq "file marker: exit 0" "0 0 errors, 0 warnings in 1 file (2 silenced)" "$? $(tail -n1 "$TEST_TMPDIR/allow-file")"
"$PDB" lint --ignore no-example --ignore lint-marker,prefix-only -p data/allow-markers.xml >"$TEST_TMPDIR/ignore" 2>&1
check_eq "--ignore (repeated, comma-separated): exit 0" "0 0 errors, 0 warnings in 1 file (6 silenced)" "$? $(tail -n1 "$TEST_TMPDIR/ignore")"
"$PDB" lint --ignore prefx-only -p data/allow-markers.xml >/dev/null 2>"$TEST_TMPDIR/ignore-err"
check_eq "--ignore with an unknown kind: exit 2" 2 "$?"
check "... naming the kind" grep -q "unknown kind 'prefx-only'" "$TEST_TMPDIR/ignore-err"
"$PDB" lint --json -p data/allow-file.xml >"$TEST_TMPDIR/allow.json" 2>&1
check "--json counts the silenced" grep -q '"silenced":2}' "$TEST_TMPDIR/allow.json"
if "${PDBTOOL_BIN:-pdbtool}" test data/allow-markers.xml >"$TEST_TMPDIR/pdbtool" 2>&1 && ! grep -qi error "$TEST_TMPDIR/pdbtool"; then
  ok "pdbtool 3.38 loads a file with markers"
else
  not_ok "pdbtool 3.38 loads a file with markers"; diag "$(head -5 "$TEST_TMPDIR/pdbtool")"
fi

# The example of doc/lint.md: a site's 00-local.xml dropped into a copy of the
# library (loaded first) collides with it; the findings are doc/lint.md's
# lines.
mkdir -p "$TEST_TMPDIR/site/patterndb.d"
cp "$top_srcdir"/contrib/patterns/*.xml "$TEST_TMPDIR/site/patterndb.d/"
cp data/site-00-local.xml "$TEST_TMPDIR/site/patterndb.d/00-local.xml"
(cd "$TEST_TMPDIR/site" && "$PDB" lint -p patterndb.d; echo "exit $?" >../site-rc) >"$TEST_TMPDIR/site.out"
check_eq "doc/lint.md site example: exit status" "exit 2" "$(cat "$TEST_TMPDIR/site-rc")"
golden site-00-local.txt "$TEST_TMPDIR/site.out"
# doc/lint.md shows exactly these lines, and the library's summary line
doc="$top_srcdir/doc/lint.md"
check "doc/lint.md shows the site example's output" sh -c "sed 's/^/    /' '$TEST_TMPDIR/site.out' | while IFS= read -r l; do grep -qxF \"\$l\" '$doc' || exit 1; done"
check "doc/lint.md shows the library's summary line" grep -qxF "    $(tail -n1 "$TEST_TMPDIR/library")" "$doc"

# --log: what the rules did with real lines (lint-log.c)
"$PDB" lint -p data/log-usage.xml --log data/log-usage.log >"$TEST_TMPDIR/log-usage" 2>&1
check_eq "--log: warnings only, exit 1" 1 "$?"
golden log-usage.txt "$TEST_TMPDIR/log-usage"
check "--log: logout never matched" grep -q "\[never-matched\] rule 'logout' classified none of the 4 lines" "$TEST_TMPDIR/log-usage"
check "--log: login-any shadowed in practice by login-root" \
  grep -q "\[shadowed-in-practice\] rule 'login-any' matches 2 lines of data/log-usage.log whole but wins none: rule 'login-root' comes first" "$TEST_TMPDIR/log-usage"
check_eq "--log: login-root has no finding" "" "$(grep "rule 'login-root'" "$TEST_TMPDIR/log-usage" | grep -v 'comes first')"
"$PDB" lint -p data/log-usage.xml --log data/missing.log >/dev/null 2>"$TEST_TMPDIR/err"
check_eq "--log with a missing file: exit 2" 2 "$?"
check "--log with a missing file: names it" grep -q "data/missing.log: cannot open the log" "$TEST_TMPDIR/err"

done_testing

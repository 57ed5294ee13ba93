#!/bin/bash
# tests/tool/test-match-stats.sh: `patterndb match --stats` counts what
# pdbtool 3.38 classifies: the bundled library over the loghub Linux sample
# and RFC 5424 lines with structured data (which the worker threads hand
# back to the main thread), per rule, unknown per program and the rules
# that never matched, on 1 and 4 threads with small blocks, text and JSON.
. "$top_srcdir/tests/lib.sh"
setup_vs_pdbtool

# the bundled library in one file (pdbtool reads one file)
"$PATTERNDB" merge -D "$top_srcdir/contrib/patterns" -p "$T/lib.xml" 2> "$T/merge.err"
DB=$T/lib.xml
plan 9

# the input: the Linux sample, then RFC 5424 lines with .SDATA names
{
  cat "$top_srcdir/tests/data/loghub/Linux/Linux_2k.log"
  for i in $(seq 1 300); do
    printf '<38>1 2026-12-04T10:00:%02d+00:00 host sshd %d - [meta%d x="%d"] Accepted password for u%d from 10.0.0.%d port %d ssh2\n' \
      $((i % 60)) $((1000 + i)) $((i % 7)) "$i" "$i" $((i % 250)) $((40000 + i))
    printf '<38>1 2026-12-04T10:00:%02d+00:00 host app%d - - - something new %d\n' $((i % 60)) $((i % 3)) "$i"
  done
} > "$T/input.log"
lines=$(wc -l < "$T/input.log")

# pdbtool's classification of every line: "rule_id<TAB>program" (rule id empty: unknown)
"$PDBTOOL" match -p "$DB" -f "$T/input.log" -T '${.classifier.rule_id}\t${PROGRAM}\n' > "$T/ref.tsv" 2>/dev/null
python3 - "$T/ref.tsv" > "$T/ref.json" <<'PY'
import json, sys, collections
rules, unknown = collections.Counter(), collections.Counter()
n = 0
for line in open(sys.argv[1], encoding="utf-8", errors="surrogateescape"):
    rid, _, prog = line.rstrip("\n").partition("\t")
    n += 1
    if rid: rules[rid] += 1
    else: unknown[prog] += 1
print(json.dumps({"lines": n, "rules": dict(rules), "unknown": dict(unknown)}, sort_keys=True))
PY
check_eq "pdbtool classified every line" "$lines" "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["lines"])' "$T/ref.json")"

# ours, reduced to the same shape
ours() {
  "$PATTERNDB" match -p "$DB" -f "$T/input.log" --stats=json "$@" > "$T/ours.json" 2> "$T/ours.err"
  python3 - "$T/ours.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
assert s["lines"] == s["matched"] + s["unknown"]
print(json.dumps({"lines": s["lines"], "rules": {r["id"]: r["hits"] for r in s["rules"]},
                  "unknown": {p["program"]: p["lines"] for p in s["unknown_by_program"]}}, sort_keys=True))
PY
}
check_eq "--stats=json, one thread: per rule and per program as pdbtool" "$(cat "$T/ref.json")" "$(ours --threads 1)"
check_eq "four threads, 4 KiB blocks (lines handed back to the main thread): the same" \
  "$(cat "$T/ref.json")" "$(ours --threads 4 --block-size 4096)"
check "JSON lists the never-matched rules with their class" \
  python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); assert s["never_matched"] and all("class" in r for r in s["never_matched"])' "$T/ours.json"

"$PATTERNDB" match -p "$DB" -f "$T/input.log" --stats > "$T/ours.txt" 2>&1; rc=$?
check_eq "--stats (text) exits 0" 0 "$rc"
check "the text starts with the totals" grep -q "^lines: $lines, matched: " "$T/ours.txt"
top=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["rules"]; print(max(sorted(r), key=lambda k: r[k]))' "$T/ref.json")
check "the text lists the most frequent rule first" \
  bash -c "grep -A2 '^rules by hits' '$T/ours.txt' | tail -1 | grep -q '/ $top\$'"
"$PATTERNDB" match -p "$DB" -f "$T/input.log" --stats -T '$MSG' > /dev/null 2> "$T/err"; rc=$?
check "--stats with -T is a usage error (exit 2)" [ "$rc" -eq 2 ]
"$PATTERNDB" match -p "$DB" -f "$T/input.log" --stats=xml > /dev/null 2> "$T/err"; rc=$?
check "--stats=xml is refused naming the value" grep -q "not 'xml'" "$T/err"
done_testing

#!/bin/bash
# tests/tool/test-match-big.sh: `match -f` on a database far bigger than
# the caches prints byte for byte what pdbtool 3.38 prints, on one thread
# and on two. 100,000 generated rules (the benchmark's synth workload) put
# about 14 MB of tree records over 41 programs: their trees are frozen into
# one shared block (PDB_BLOB_REGION_MIN, radix-region.c) and looked up with
# the prefetching of big trees (radix-lookup.c), paths no small database
# takes. Checked: the generated stream with the classification-only
# templates (the short path, match-direct.c) and with a general one; real
# logs (loghub samples, the Debian 12 captures with the pattern library)
# after their databases are merged with the 100,000 rules; lines 3.38
# cannot parse between classified ones; a pipe.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/library/library.sh"

setup_vs_pdbtool

templates=('${.classifier.rule_id}\n' '${.classifier.class} ${.classifier.rule_id:-none}\n')

# same DB LOG LABEL TEMPLATE: pdbtool's output and exit status, with
# --threads 1 and --threads 2
same() {
  local db=$1 log=$2 label=$3 tmpl=$4 rc_ref rc threads
  "$PDBTOOL" match -p "$db" -f "$log" -T "$tmpl" > "$T/ref" 2>/dev/null; rc_ref=$?
  for threads in 1 2; do
    "$PATTERNDB" match --threads $threads -p "$db" -f "$log" -T "$tmpl" > "$T/out" 2>"$T/err"; rc=$?
    if cmp -s "$T/ref" "$T/out" && [ -s "$T/out" ] && [ "$rc" = "$rc_ref" ]; then
      ok "$label: -T '$tmpl', $threads thread(s) = pdbtool ($(wc -l < "$T/out") lines, exit $rc)"
    else
      not_ok "$label: -T '$tmpl', $threads thread(s) differs from pdbtool (exit $rc, pdbtool $rc_ref)"
      diff "$T/ref" "$T/out" | head -10 | while IFS= read -r l; do diag "$l"; done
      head -3 "$T/err" | while IFS= read -r l; do diag "stderr: $l"; done
    fi
  done
}

python3 "$top_srcdir/contrib/bench/benchgen.py" synth --rules 100000 --lines 20000 --out "$T/synth" >/dev/null
big=$T/synth/patterndb.xml
check "the generated database has 100,000 rules" \
  test "$(grep -c '<rule ' "$big")" -eq 100000
for t in "${templates[@]}" '$PROGRAM ${.classifier.rule_id} ${MESSAGE}\n'; do
  same "$big" "$T/synth/input.log" "synth 100000 rules" "$t"
done

# real logs with 100,000 more rules in the same database
mkdir -p "$T/loghub" "$T/merged"
python3 "$DIFFDIR/gen.py" loghub "$top_srcdir/tests/data/loghub" "$T/loghub" >/dev/null
cp "$T"/loghub/*.xml "$big" "$T/merged/"
if library_merge "$T/library.xml"; then
  cp "$T/library.xml" "$T/merged/"
else
  not_ok "pattern library merged into one database"
fi
if "$PATTERNDB" merge -D "$T/merged" -p "$T/merged.xml" >"$T/merge.log" 2>&1; then
  for log in "$T"/loghub/*.log "$top_srcdir"/tests/data/debian12/*.log; do
    same "$T/merged.xml" "$log" "$(basename "$log") with 100,000 more rules" "${templates[0]}"
  done
  same "$T/merged.xml" "$top_srcdir/tests/data/debian12/syslog.log" "syslog.log with 100,000 more rules" \
    "${templates[1]}"
else
  not_ok "loghub, library and synthetic databases merged"
  head -5 "$T/merge.log" | while IFS= read -r l; do diag "$l"; done
fi

# lines 3.38 cannot parse between classified ones, an empty line, a last
# line without a newline
head -300 "$T/synth/input.log" | awk '{ print } NR % 7 == 0 { print "<999>not a header " NR } NR % 65 == 0 { print "" }' \
  > "$T/mixed.log"
printf 'Dec  3 10:00:00 host prog: last line' >> "$T/mixed.log"
same "$big" "$T/mixed.log" "unparseable lines between classified ones" "${templates[0]}"

# a pipe (not a regular file)
"$PDBTOOL" match -p "$big" -f "$T/mixed.log" -T "${templates[0]}" > "$T/ref" 2>/dev/null
cat "$T/mixed.log" | "$PATTERNDB" match --threads 1 -p "$big" -f /dev/stdin -T "${templates[0]}" \
  > "$T/pipe" 2>/dev/null
check_eq "a pipe, one thread: = pdbtool" "$(md5sum < "$T/ref")" "$(md5sum < "$T/pipe")"

done_testing

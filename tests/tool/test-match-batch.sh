#!/bin/bash
# tests/tool/test-match-batch.sh: bulk classification with interleaved
# lookups (`match -f` on one thread keeps up to 64 lines and classifies them
# together: pdb_database_classify_many(), engine/radix-batch.c) prints
# byte for byte what one line at a time prints (the hidden --no-batch), with
# the same exit status, and what pdbtool 3.38 prints, on real logs (the
# loghub samples with their generated databases, the Debian 12 captures
# with the pattern library), on a generated 100,000-rule database (the
# benchmark's, uniform and Zipf streams), with lines the short path refuses
# (unparseable headers) between kept ones, and on a pipe.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/library/library.sh"

setup_vs_pdbtool

templates=('${.classifier.rule_id}\n' '${.classifier.class} ${.classifier.rule_id:-none}\n')

# same DB LOG LABEL TEMPLATE [REF]: batched == --no-batch (output and exit
# status); with REF also == pdbtool.
same() {
  local db=$1 log=$2 label=$3 tmpl=$4 ref=$5 rc1 rc2
  "$PATTERNDB" match --threads 1 -p "$db" -f "$log" -T "$tmpl" > "$T/batch" 2>"$T/err"; rc1=$?
  "$PATTERNDB" match --threads 1 --no-batch -p "$db" -f "$log" -T "$tmpl" > "$T/single" 2>/dev/null; rc2=$?
  if cmp -s "$T/batch" "$T/single" && [ -s "$T/batch" ] && [ "$rc1" = "$rc2" ]; then
    ok "$label: -T '$tmpl' batched = one at a time ($(wc -l < "$T/batch") lines, exit $rc1)"
  else
    not_ok "$label: -T '$tmpl' batched differs from one at a time (exit $rc1 / $rc2)"
    diff "$T/single" "$T/batch" | head -10 | while IFS= read -r l; do diag "$l"; done
    head -3 "$T/err" | while IFS= read -r l; do diag "stderr: $l"; done
  fi
  [ -n "$ref" ] || return 0
  "$PDBTOOL" match -p "$db" -f "$log" -T "$tmpl" > "$T/ref" 2>/dev/null
  if cmp -s "$T/ref" "$T/batch"; then
    ok "$label: -T '$tmpl' batched = pdbtool"
  else
    not_ok "$label: -T '$tmpl' batched differs from pdbtool"
    diff "$T/ref" "$T/batch" | head -10 | while IFS= read -r l; do diag "$l"; done
  fi
}

# real logs: loghub samples
mkdir -p "$T/loghub"
python3 "$DIFFDIR/gen.py" loghub "$top_srcdir/tests/data/loghub" "$T/loghub" >/dev/null
for db in "$T"/loghub/*.xml; do
  for t in "${templates[@]}"; do
    same "$db" "${db%.xml}.log" "loghub/$(basename "${db%.xml}")" "$t" ref
  done
done

# real logs: the Debian 12 captures with the pattern library
if library_merge "$T/library.xml"; then
  for log in "$top_srcdir"/tests/data/debian12/*.log; do
    for t in "${templates[@]}"; do
      same "$T/library.xml" "$log" "debian12/$(basename "$log")" "$t" ref
    done
  done
else
  not_ok "pattern library merged into one database"
fi

# a generated 100,000-rule database (a tree far bigger than the caches)
for stream in uniform zipf; do
  args=(); [ $stream = zipf ] && args=(--zipf 1)
  python3 "$top_srcdir/contrib/bench/benchgen.py" synth --rules 100000 --lines 20000 "${args[@]}" \
    --out "$T/synth-$stream" >/dev/null
  same "$T/synth-$stream/patterndb.xml" "$T/synth-$stream/input.log" "synth 100000 rules, $stream" \
    "${templates[0]}" $([ $stream = uniform ] && echo ref)
done
same "$T/synth-uniform/patterndb.xml" "$T/synth-uniform/input.log" "synth 100000 rules, uniform" "${templates[1]}"

# the real logs again, through the interleaved walks: their databases
# merged with the 100,000-rule one (a big database interleaves every tree;
# the small ones alone are looked up one line at a time)
mkdir -p "$T/big"
cp "$T"/loghub/*.xml "$T/synth-uniform/patterndb.xml" "$T/big/"
[ -s "$T/library.xml" ] && cp "$T/library.xml" "$T/big/"
if "$PATTERNDB" merge -D "$T/big" -p "$T/big.xml" >"$T/merge.log" 2>&1; then
  for log in "$T"/loghub/*.log "$top_srcdir"/tests/data/debian12/*.log; do
    same "$T/big.xml" "$log" "$(basename "$log") with 100,000 more rules" "${templates[0]}"
  done
  same "$T/big.xml" "$top_srcdir/tests/data/debian12/syslog.log" "syslog.log with 100,000 more rules" \
    "${templates[1]}" ref
else
  not_ok "loghub, library and synthetic databases merged"
  head -5 "$T/merge.log" | while IFS= read -r l; do diag "$l"; done
fi

# refused lines (3.38 cannot parse the header) between kept ones, in
# every position of a batch, and an empty last line without a newline
head -300 "$T/synth-uniform/input.log" | awk '{ print } NR % 7 == 0 { print "<999>not a header " NR } NR % 65 == 0 { print "" }' \
  > "$T/mixed.log"
printf 'Dec  3 10:00:00 host prog: last line' >> "$T/mixed.log"
same "$T/synth-uniform/patterndb.xml" "$T/mixed.log" "refused lines between batched ones" "${templates[0]}" ref

# a pipe (not a regular file): each block is flushed as it comes
cat "$T/mixed.log" | "$PATTERNDB" match --threads 1 -p "$T/synth-uniform/patterndb.xml" -f /dev/stdin \
  -T "${templates[0]}" > "$T/pipe" 2>/dev/null
"$PATTERNDB" match --threads 1 --no-batch -p "$T/synth-uniform/patterndb.xml" -f "$T/mixed.log" \
  -T "${templates[0]}" > "$T/single" 2>/dev/null
check_eq "a pipe: batched = one at a time" "$(md5sum < "$T/single")" "$(md5sum < "$T/pipe")"

done_testing

#!/bin/sh
# Grouping accuracy of pattern mining the way a user meets it (issue 22):
# for each loghub sample, `patterndb patternize -p` with default settings
# mines its messages (the Content column: loghub's benchmarks parse the
# message, not the header), `patterndb test --validate` must pass on the
# database, `patterndb match` classifies the same messages with it and each
# line's .classifier.rule_id is its cluster (unmatched lines: one cluster).
# GA and FGA against the ground-truth EventId (score-clusters.py).
# Thresholds (issue 22): every sample GA >= 0.85, average GA >= 0.95,
# average FGA >= 0.90. The clustering's parameters were chosen
# leave-one-system-out (choose on seven samples, score the eighth), which
# gave average GA 0.960, lowest 0.877, average FGA 0.940 held out
# (modules/patterndb/mining/README.md); the figures printed here are the
# final defaults on all eight.
. "$top_srcdir/tests/lib.sh"

pdb="$top_builddir/patterndb"
scorer="$top_srcdir/tests/mining/score-clusters.py"
[ -x "$pdb" ] || skip_all "patterndb not built"
command -v python3 > /dev/null || skip_all "python3 not found"
make_tmpdir
export SOURCE_DATE_EPOCH=1767225600

ga_min=0.85
ga_avg_min=0.95
fga_avg_min=0.90

sum_ga=0; sum_fga=0; n=0; min_ga=1
for csv in "$top_srcdir"/tests/data/loghub/*/*_structured.csv; do
  name=$(basename "$csv" _2k.log_structured.csv)
  dir="$TEST_TMPDIR/$name"
  mkdir -p "$dir"
  python3 "$scorer" split "$csv" "$dir"
  "$pdb" patternize -p -f "$dir/content.txt" > "$dir/db.xml" 2> "$dir/patternize.err"
  check "$name: patternize exits 0" test $? -eq 0
  if "$pdb" test --validate "$dir/db.xml" > "$dir/test.out" 2>&1; then
    ok "$name: patterndb test --validate passes"
  else
    grep -v '^Testing message' "$dir/test.out" | head -10 | sed 's/^/# /'
    not_ok "$name: patterndb test --validate passes"
  fi
  "$pdb" match --threads=1 -p "$dir/db.xml" -f "$dir/content.syslog" \
    -T '${.classifier.rule_id}\n' > "$dir/ids.txt"
  set -- $(python3 "$scorer" score "$dir/truth.txt" "$dir/ids.txt")
  ga=$1; fga=$2; rules=$3
  n_truth=$(sort -u "$dir/truth.txt" | wc -l)
  diag "$name GA $ga FGA $fga (rules used $rules, events $n_truth)"
  if awk -v g="$ga" -v l="$ga_min" 'BEGIN { exit !(g >= l) }'; then
    ok "$name: GA $ga >= $ga_min"
  else
    not_ok "$name: GA $ga < $ga_min"
  fi
  sum_ga=$(awk -v a="$sum_ga" -v b="$ga" 'BEGIN { print a + b }')
  sum_fga=$(awk -v a="$sum_fga" -v b="$fga" 'BEGIN { print a + b }')
  min_ga=$(awk -v a="$min_ga" -v b="$ga" 'BEGIN { print (b < a) ? b : a }')
  n=$((n + 1))
done

check_eq "eight loghub samples" 8 "$n"
avg_ga=$(awk -v s="$sum_ga" -v n="$n" 'BEGIN { printf "%.3f", s / n }')
avg_fga=$(awk -v s="$sum_fga" -v n="$n" 'BEGIN { printf "%.3f", s / n }')
diag "average GA $avg_ga FGA $avg_fga, lowest GA $min_ga"
if awk -v g="$avg_ga" -v l="$ga_avg_min" 'BEGIN { exit !(g >= l) }'; then
  ok "average GA $avg_ga >= $ga_avg_min"
else
  not_ok "average GA $avg_ga < $ga_avg_min"
fi
if awk -v g="$avg_fga" -v l="$fga_avg_min" 'BEGIN { exit !(g >= l) }'; then
  ok "average FGA $avg_fga >= $fga_avg_min"
else
  not_ok "average FGA $avg_fga < $fga_avg_min"
fi
done_testing

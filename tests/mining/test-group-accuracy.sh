#!/bin/sh
# Group Accuracy of `patternize`'s clustering on the loghub development
# samples (issue 9): prints each set's figure and fails if one is below
# 0.85 or the average is below 0.95. Default settings, no per-set tuning.
. "$top_srcdir/tests/lib.sh"

ga_bin="$top_builddir/tests/mining/mining-ga"
[ -x "$ga_bin" ] || skip_all "tests/mining/mining-ga not built"

out=$("$ga_bin" "$top_srcdir"/tests/data/loghub/*/*_structured.csv) || {
  echo "1..1"; echo "not ok 1 - mining-ga failed"; exit 1; }

n_sets=$(echo "$out" | grep -vc '^average ')
check_eq "eight loghub sample sets" 8 "$n_sets"
while read -r name ga; do
  if [ "$name" = average ]; then
    limit=0.95
  else
    limit=0.85
  fi
  if awk -v g="$ga" -v l="$limit" 'BEGIN { exit !(g >= l) }'; then
    ok "group accuracy $name $ga >= $limit"
  else
    not_ok "group accuracy $name $ga < $limit"
  fi
done <<EOT
$out
EOT
done_testing

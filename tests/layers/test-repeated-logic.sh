#!/bin/bash
# tests/layers/test-repeated-logic.sh: no logic is written twice in the
# sources (modules/patterndb/*/*.[ch]) or the shell suites (tests/*/*.sh,
# tests/lib.sh). tests/layers/repeated-logic.py finds pairs of places that
# share a run of 60 tokens or more over 6 lines or more, alike but for their
# names and values; tests/layers/repeated-logic.allow lists the pairs kept
# on purpose, each with its reason. A pair found is printed as
# "a.c:10-24 ~ b.c:40-54": put the shared logic in one place both use.
. "$top_srcdir/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 not installed"
here=$top_srcdir/tests/layers
plan 4

pairs=$(cd "$top_srcdir" && python3 "$here/repeated-logic.py" --allow "$here/repeated-logic.allow" \
          modules/patterndb tests/lib.sh tests/*/*.sh 2>/dev/null)
rc=$?
check_eq "no repeated logic (but the allowed pairs)" "" "$pairs"
check "repeated-logic.py ran (exit $rc)" [ "$rc" -le 1 ]

# The detector finds a copy: a function of the tree written again under
# other names in a scratch file is reported against its original.
make_tmpdir
tmp=$TEST_TMPDIR
orig=$top_srcdir/modules/patterndb/tool/line-reader.c
sed 's/\<line_reader\>/scratch_reader/g; s/\<pdb_/scratch_/g; s/"[^"]*"/"other"/g' "$orig" > "$tmp/renamed-copy.c"
found=$(cd "$top_srcdir" && python3 "$here/repeated-logic.py" modules/patterndb/tool/line-reader.c "$tmp/renamed-copy.c" 2>/dev/null)
check "a renamed copy of tool/line-reader.c is found" grep -Eq "(^modules/patterndb/tool/line-reader.c:[0-9]+-[0-9]+ ~ .*renamed-copy.c:)|(renamed-copy.c:[0-9]+-[0-9]+ ~ modules/patterndb/tool/line-reader.c:)" <<<"$found"

# Every allowlist entry still names a pair that exists (a stale entry would
# hide a new copy between the same files).
stale=""
while read -r a b _; do
  case $a in ''|'#'*) continue ;; esac
  fa=$(cd "$top_srcdir" && ls modules/patterndb/*/* tests/lib.sh tests/*/*.sh 2>/dev/null | grep -E "(^|/)${a}\$" | head -1)
  fb=$(cd "$top_srcdir" && ls modules/patterndb/*/* tests/lib.sh tests/*/*.sh 2>/dev/null | grep -E "(^|/)${b}\$" | head -1)
  if [ -n "$fa" ] && [ -n "$fb" ] && ! (cd "$top_srcdir" && python3 "$here/repeated-logic.py" "$fa" "$fb" >/dev/null 2>&1); then
    continue           # exit 1: the pair is still found
  fi
  stale="$stale $a~$b"
done < "$here/repeated-logic.allow"
check_eq "every allowlist entry names a pair still found" "" "${stale# }"

done_testing

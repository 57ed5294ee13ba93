#!/bin/bash
# tests/tool/test-manpage.sh: the man page is complete.
#
# Every command that `patterndb --help` lists has its own section (.SS) in
# modules/patterndb/tool/patterndb.1, and every option that
# `patterndb COMMAND --help` prints (short and long form) is named in that
# section; -h/--help and -V/--version once anywhere. EXIT STATUS names
# every command. The page is read as text: \- is -, font escapes dropped.
. "$top_srcdir/tests/lib.sh"

PATTERNDB=$top_builddir/patterndb
[ -x "$PATTERNDB" ] || skip_all "patterndb not built"
MAN=$top_srcdir/modules/patterndb/tool/patterndb.1
make_tmpdir
sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\(em/--/g' "$MAN" >"$TEST_TMPDIR/man.txt"

# section NAME: the text of `.SS NAME` up to the next .SS or .SH.
section() {
  awk -v name="$1" '/^\.S[SH] / { on = ($1 == ".SS" && $2 == name); next } on' "$TEST_TMPDIR/man.txt"
}
# mentions TEXT OPTION: OPTION appears as a word (not as part of a longer option).
mentions() {
  printf '%s\n' "$1" | grep -qE -- "(^|[^-a-z0-9])$2([^-a-z0-9]|$)"
}

commands=$("$PATTERNDB" --help 2>&1 | sed -n '/^Commands:/,/^$/p' | sed -n 's/^  \([a-z][a-z]*\) .*/\1/p')
check "patterndb --help lists commands" test -n "$commands"
exit_status=$(awk '/^\.SH / { on = ($2 == "EXIT") ; next } on' "$TEST_TMPDIR/man.txt")
common=$(awk '/^\.SH / { on = ($2 == "COMMON") ; next } on' "$TEST_TMPDIR/man.txt")
check "man page has COMMON OPTIONS" test -n "$common"
check "the man page does not deny the synthetic messages of actions" \
  bash -c "! grep -qi 'do not emit synthetic' '$TEST_TMPDIR/man.txt'"
for cmd in $commands; do
  text=$(section "$cmd")
  check "man page has a section for '$cmd'" test -n "$text"
  mentions "$exit_status" "$cmd" && ok "EXIT STATUS names '$cmd'" || not_ok "EXIT STATUS names '$cmd'"
  options=$("$PATTERNDB" "$cmd" --help 2>&1 | grep -E '^ +-' |
            sed -E 's/^ +//; s/ {2,}.*//; s/[=<].*//' | tr ',' '\n' | sed 's/^ *//; s/ .*//')
  for opt in $options; do
    if mentions "$text" "$opt" || mentions "$common" "$opt"; then ok "man page, $cmd: $opt"; else not_ok "man page, $cmd: $opt"; fi
  done
done
done_testing

#!/bin/sh
# The pattern library's own examples: `test` passes on every library file
# (each example matches its rule, every test value is right, no rule
# conflict), with our tool and with Debian's pdbtool, file by file and for
# the whole library merged into one database (conflicts between files).
# `patterndb lint` reports no error on the library. A deliberately broken
# copy of a file must fail, so the check can fail.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/library/library.sh"
make_tmpdir

TOOL=$(library_tool test)
[ -n "$TOOL" ] || skip_all "neither our patterndb nor pdbtool can run 'test'"
case "$TOOL" in
  "$top_builddir"/*) diag "using our tool: $TOOL" ;;
  *) diag "our patterndb has no 'test' subcommand yet: using Debian's $TOOL" ;;
esac
[ -n "$LIBFILES" ] || { not_ok "library files found in $LIBDIR"; done_testing; exit 1; }

# run_test TOOL FILE...: ok when the test run passes; shows its problems if not.
run_test() {
  local tool=$1 rc; shift
  "$tool" test "$@" >"$TEST_TMPDIR/out" 2>&1; rc=$?
  if library_test_ok "$TEST_TMPDIR/out" "$rc"; then return 0; fi
  diag "exit $rc"; grep -v '^Testing message' "$TEST_TMPDIR/out" | head -20 | while IFS= read -r l; do diag "$l"; done
  return 1
}

for f in $LIBFILES; do
  check "test $(basename "$f") with $(basename "$TOOL")" run_test "$TOOL" "$f"
  if [ -n "$DEBIAN_PDBTOOL" ] && [ "$TOOL" != "$DEBIAN_PDBTOOL" ]; then
    check "test $(basename "$f") with Debian's pdbtool" run_test "$DEBIAN_PDBTOOL" "$f"
  fi
done

if [ -n "$DEBIAN_PDBTOOL" ] && command -v xmllint >/dev/null 2>&1; then
  # shellcheck disable=SC2086
  check "every file validates against the version 5 schema (pdbtool --validate)" \
    run_test "$DEBIAN_PDBTOOL" --validate $LIBFILES
fi

if library_merge "$TEST_TMPDIR/merged.xml"; then
  ok "library merges into one database"
  check "test of the merged library (no conflicts between files)" run_test "$TOOL" "$TEST_TMPDIR/merged.xml"
else
  not_ok "library merges into one database"
fi

# `patterndb lint` finds no error in the library (warnings are allowed:
# prefix-only examples are a documented way of writing rules).
if [ -x "$top_builddir/patterndb" ] && "$top_builddir/patterndb" --help 2>&1 | grep -qE '^[[:space:]]+lint[[:space:]]'; then
  "$top_builddir/patterndb" lint -p "$LIBDIR" >"$TEST_TMPDIR/lint.out" 2>&1; rc=$?
  if [ "$rc" -lt 2 ]; then ok "patterndb lint: no error in the library"; else
    not_ok "patterndb lint: no error in the library (exit $rc)"
    grep ': error: ' "$TEST_TMPDIR/lint.out" | head -10 | while IFS= read -r l; do diag "$l"; done
  fi
fi

# Control: a wrong test value and a conflicting rule must both be reported.
sed 's|<test_value name="usracct.username">alice</test_value>|<test_value name="usracct.username">mallory</test_value>|' \
  "$LIBDIR/sshd.xml" >"$TEST_TMPDIR/wrong.xml"
if cmp -s "$LIBDIR/sshd.xml" "$TEST_TMPDIR/wrong.xml"; then
  not_ok "control: could not build a broken copy of sshd.xml"
elif run_test "$TOOL" "$TEST_TMPDIR/wrong.xml" >/dev/null 2>&1; then
  not_ok "control: a wrong test value is reported"
else
  ok "control: a wrong test value is reported"
fi
python3 - "$LIBDIR/sshd.xml" "$TEST_TMPDIR/conflict.xml" <<'PY'
import sys
s = open(sys.argv[1]).read()
# A second rule that also matches every "Invalid user" line completely.
extra = ('<rule provider="patterndb" id="control-conflict" class="system"><patterns>'
         '<pattern>Invalid user @ANYSTRING:usracct.username@</pattern></patterns>'
         '<examples><example><test_message program="sshd">Invalid user x y</test_message>'
         '<test_values><test_value name="usracct.username">x y</test_value></test_values>'
         '</example></examples></rule>')
s = s.replace('<rules>', '<rules>' + extra, 1)
open(sys.argv[2], 'w').write(s)
PY
if run_test "$TOOL" "$TEST_TMPDIR/conflict.xml" >/dev/null 2>&1; then
  not_ok "control: a rule conflict is reported"
else
  ok "control: a rule conflict is reported"
fi

done_testing

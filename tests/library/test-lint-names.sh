#!/bin/sh
# Conventions of the pattern library (contrib/patterns/README): names of
# extracted values, tags, classes, unique rule ids, an example with test
# values for every rule. The checker is tests/library/lint-names.py; a
# control file that breaks each convention must be rejected.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/library/library.sh"
make_tmpdir
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
[ -n "$LIBFILES" ] || skip_all "no library files in $LIBDIR"

# The library itself, one TAP line per file (printed by the checker; its
# plan line is dropped, ours comes from done_testing).
# shellcheck disable=SC2086
python3 "$top_srcdir/tests/library/lint-names.py" $LIBFILES >"$TEST_TMPDIR/lint.tap"
while IFS= read -r line; do
  case "$line" in
    'ok '*) ok "${line#ok * - }" ;;
    'not ok '*) not_ok "${line#not ok * - }" ;;
    '#'*) echo "$line" ;;
  esac
done <"$TEST_TMPDIR/lint.tap"

# Controls: each broken file must be rejected.
control() {
  local desc=$1 rule=$2
  cat >"$TEST_TMPDIR/control.xml" <<XML
<?xml version='1.0' encoding='utf-8'?>
<patterndb version='5' pub_date='2026-12-03'>
  <ruleset name='c' id='c'><patterns><pattern>c</pattern></patterns><rules>
$rule
  </rules></ruleset>
</patterndb>
XML
  if python3 "$top_srcdir/tests/library/lint-names.py" "$TEST_TMPDIR/control.xml" >/dev/null; then
    not_ok "control rejected: $desc"
  else
    ok "control rejected: $desc"
  fi
}
control "name without a documented prefix" \
  '<rule id="c1" class="system"><patterns><pattern>user @STRING:username@</pattern></patterns>
   <examples><example><test_message program="c">user a</test_message><test_values><test_value name="username">a</test_value></test_values></example></examples></rule>'
control "rule without example" \
  '<rule id="c2" class="system"><patterns><pattern>user @STRING:usracct.username@</pattern></patterns></rule>'
control "example that tests none of the extracted names" \
  '<rule id="c3" class="system"><patterns><pattern>user @STRING:usracct.username@</pattern></patterns>
   <examples><example><test_message program="c">user a</test_message><test_values><test_value name=".classifier.class">system</test_value></test_values></example></examples></rule>'
control "undocumented class" \
  '<rule id="c4" class="info"><patterns><pattern>hello</pattern></patterns>
   <examples><example><test_message program="c">hello</test_message><test_values><test_value name=".classifier.class">info</test_value></test_values></example></examples></rule>'
control "undocumented tag" \
  '<rule id="c5" class="system"><patterns><pattern>hello</pattern></patterns><tags><tag>Hello World</tag></tags>
   <examples><example><test_message program="c">hello</test_message><test_values><test_value name=".classifier.class">system</test_value></test_values></example></examples></rule>'
control "<value> name without a documented prefix" \
  '<rule id="c6" class="system"><patterns><pattern>hello</pattern></patterns><values><value name="greeting">hi</value></values>
   <examples><example><test_message program="c">hello</test_message><test_values><test_value name="greeting">hi</test_value></test_values></example></examples></rule>'

done_testing

#!/bin/sh
# Every rule of the pattern library has at least one example that is a
# line of a committed real capture, character for character (program and
# message as the syslog parser reads them); the rules whose message could
# not be captured are named, each with its reason, in
# tests/library/examples-not-captured.txt. The checker is
# tests/library/example-sources.py; controls show it can fail (an invented
# example, a stale allowlist entry, an entry without a reason).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/library/library.sh"
make_tmpdir
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
[ -n "$LIBFILES" ] || skip_all "no library files in $LIBDIR"
TOOL=$(library_tool match)
[ -n "$TOOL" ] || skip_all "neither our patterndb nor pdbtool can run 'match'"
DB="$TEST_TMPDIR/library.xml"
library_merge "$DB" || { not_ok "library merged into one database"; done_testing; exit 1; }

PAIRS="$TEST_TMPDIR/pairs.tsv"
ALLOW="$top_srcdir/tests/library/examples-not-captured.txt"
CHECK="$top_srcdir/tests/library/example-sources.py"
library_capture_pairs "$TOOL" "$DB" "$PAIRS"
check "captures read: $(wc -l <"$PAIRS") messages" [ "$(wc -l <"$PAIRS")" -gt 8000 ]

# shellcheck disable=SC2086
python3 "$CHECK" "$PAIRS" "$ALLOW" $LIBFILES >"$TEST_TMPDIR/out.tap"
while IFS= read -r line; do
  case "$line" in
    'ok '*) ok "${line#ok * - }" ;;
    'not ok '*) not_ok "${line#not ok * - }" ;;
    '#'*) echo "$line" ;;
  esac
done <"$TEST_TMPDIR/out.tap"

# Controls.
CTL="$TEST_TMPDIR/control.xml"
cat >"$CTL" <<'XML'
<?xml version='1.0' encoding='utf-8'?>
<patterndb version='5' pub_date='2026-12-04'>
  <ruleset name='sshd' id='c'><patterns><pattern>sshd</pattern></patterns><rules>
    <rule id="c-real" class="system"><patterns><pattern>Server listening on @ESTRING:net.dst_ip: @port @NUMBER:net.dst_port@.</pattern></patterns>
      <examples><example><test_message program="sshd">Server listening on 0.0.0.0 port 22.</test_message>
      <test_values><test_value name="net.dst_port">22</test_value></test_values></example></examples></rule>
    <rule id="c-invented" class="system"><patterns><pattern>Server listening on @ESTRING:net.dst_ip: @port @NUMBER:net.dst_port@.</pattern></patterns>
      <examples><example><test_message program="sshd">Server listening on 192.0.2.1 port 2222.</test_message>
      <test_values><test_value name="net.dst_port">2222</test_value></test_values></example></examples></rule>
  </rules></ruleset>
</patterndb>
XML
control() {
  local desc=$1 expect=$2
  printf '%b' "$3" >"$TEST_TMPDIR/allow.txt"
  python3 "$CHECK" "$PAIRS" "$TEST_TMPDIR/allow.txt" "$CTL" >"$TEST_TMPDIR/ctl.out"
  check "control: $desc" grep -q "$expect" "$TEST_TMPDIR/ctl.out"
}
control "a captured example passes" "^ok 1 " "c-invented: invented for the control\n"
control "an invented example without an allowlist entry is rejected" \
  "^# rule c-invented: no example is a line" ""
control "a stale allowlist entry is rejected" "^# rule c-real: has a captured example" \
  "c-invented: invented\nc-real: stale\n"
control "an entry without a reason is rejected" "gives no reason" "c-invented\n"
control "an entry naming no rule is rejected" "entry c-gone names no rule" "c-invented: x\nc-gone: x\n"
control "a pattern naming only captured rules is rejected" "entry c-re\\* names no rule" "c-invented: x\nc-re*: x\n"
control "a pattern entry allowlists its family" "^ok 1 " "c-inv*: a family\n"

done_testing

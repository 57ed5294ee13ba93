#!/bin/bash
# tests/correlation/test-correlation-scenarios.sh: `patterndb match -f`
# correlates as pdbtool 3.38 does, scenario by scenario
# (tests/correlation/scenarios/*.scn, format in tests/correlation/scenario.sh):
# context scopes, timeouts, match and timeout triggers, inherit modes, rate
# limits (one and many buckets, on timeout actions), context-id templates,
# ${CONTEXT_ID} and ${.classifier.context_id}, date macros in generated
# messages, ${name}@N, $(context-length), create-context and expiry by the
# clock. Each scenario runs twice (plain output and -T with date macros).
#
# The output must equal the golden file NAME.expected (made with Debian's
# pdbtool 3.38 on the same input; live-only scenarios have none) and, when
# pdbtool is installed, pdbtool's output of this run.
# PDB_SCENARIO_REGEN=1 rewrites the golden files from pdbtool instead.
# Pending scenarios (what the tool does not implement yet) are skipped.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/correlation/scenario.sh"

PDBTOOL=${PDBTOOL_BIN:-/usr/bin/pdbtool}
PATTERNDB=$top_builddir/patterndb
S=$top_srcdir/tests/correlation/scenarios
[ -x "$PATTERNDB" ] || skip_all "patterndb not built"
make_tmpdir
T=$TEST_TMPDIR
have_pdbtool=0
# the tool follows pdbtool 3.38; another version's is no reference (lib.sh)
[ -x "$PDBTOOL" ] && pdbtool_is_reference && have_pdbtool=1

count=0
pending=0
for scn in "$S"/*.scn; do
  name=$(basename "$scn" .scn)
  count=$((count + 1))
  scenario_split "$scn" "$T/$name"
  if [ -f "$T/$name/pending" ]; then
    pending=$((pending + 1))
    [ $have_pdbtool = 1 ] && [ -n "${PDB_SCENARIO_REGEN:-}" ] && \
      { scenario_run_tool "$PDBTOOL" "$T/$name" "$S/$name.expected"; rm -f "$S/$name.expected.err"; }
    ok "$name # SKIP pending: $(head -n 1 "$T/$name/pending")"
    continue
  fi
  scenario_run_tool "$PATTERNDB" "$T/$name" "$T/$name.out"
  if [ $have_pdbtool = 1 ]; then
    scenario_run_tool "$PDBTOOL" "$T/$name" "$T/$name.ref"
    if [ -n "${PDB_SCENARIO_REGEN:-}" ] && [ ! -f "$T/$name/live" ]; then
      cp "$T/$name.ref" "$S/$name.expected"
    fi
  fi
  if [ ! -f "$T/$name/live" ]; then
    if cmp -s "$S/$name.expected" "$T/$name.out"; then
      ok "$name: output equals the golden file"
    else
      not_ok "$name: output equals the golden file"
      diag "$(diff "$S/$name.expected" "$T/$name.out" | head -30)"
    fi
  fi
  if [ $have_pdbtool = 1 ]; then
    if cmp -s "$T/$name.ref" "$T/$name.out"; then
      ok "$name: output equals pdbtool's"
    else
      not_ok "$name: output equals pdbtool's"
      diag "$(diff "$T/$name.ref" "$T/$name.out" | head -30)"
    fi
  fi
  check "$name: nothing on stderr" test ! -s "$T/$name.out.err"
done
check "at least 50 scenarios that run ($((count - pending)))" test $((count - pending)) -ge 50

done_testing

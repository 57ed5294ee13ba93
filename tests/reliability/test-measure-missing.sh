#!/bin/bash
# tests/reliability/test-measure-missing.sh: a measured check cannot pass on
# nothing. Runs the suites whose checks compare measurements of GNU time
# (test-memory.sh in its quick mode, test-bad-db.sh) with PDB_TIME_BIN
# pointing to a missing program, as on a machine without the `time`
# package: each such check must report "not ok" with a "no measurement"
# diagnostic and the suite must fail, while the checks that do not need a
# measurement still pass. Also checks lib.sh's is_measurement() directly.
. "$top_srcdir/tests/lib.sh"
make_tmpdir
T=$TEST_TMPDIR

for v in 0 17 1024 0.25 12.0; do
  check "is_measurement accepts '$v'" is_measurement "$v"
done
for v in "" " " - "12 KiB" abc "1e3" "-5" ".5"; do
  check "is_measurement refuses '$v'" eval '! is_measurement "$v"'
done
check "is_measurement refuses an empty list" eval '! is_measurement'
check "is_measurement refuses a list with one empty value" eval '! is_measurement 12 ""'

# run_without_time SUITE [ENV...]: the suite's TAP output in $T/SUITE.out, its status in rc.
run_without_time() {
  local suite=$1; shift
  env "$@" PDB_TIME_BIN="$T/no-such-time" bash "$top_srcdir/tests/reliability/$suite.sh" >"$T/$suite.out" 2>&1
  rc=$?
}

run_without_time test-memory PDB_MEMTEST_QUICK=1
check "test-memory.sh without GNU time: the suite fails (exit $rc)" [ "$rc" -ne 0 ]
check "test-memory.sh without GNU time: 'peak RSS flat' is not ok" \
  grep -q '^not ok [0-9]* - match -f: peak RSS flat$' "$T/test-memory.out"
check "test-memory.sh without GNU time: the diagnostic says no measurement" \
  grep -q '^# no measurement to compare' "$T/test-memory.out"
check "test-memory.sh without GNU time: the classification check still runs and passes" \
  grep -q '^ok [0-9]* - 10000 messages: every one classified' "$T/test-memory.out"

run_without_time test-bad-db
check "test-bad-db.sh without GNU time: the suite fails (exit $rc)" [ "$rc" -ne 0 ]
check "test-bad-db.sh without GNU time: 'billion laughs' is not ok" \
  grep -q '^not ok [0-9]* - billion laughs: refused quickly' "$T/test-bad-db.out"
check "test-bad-db.sh without GNU time: '1 GiB file' is not ok" \
  grep -q '^not ok [0-9]* - 1 GiB file: refused quickly' "$T/test-bad-db.out"
check "test-bad-db.sh without GNU time: exactly those two checks fail" \
  [ "$(grep -c '^not ok' "$T/test-bad-db.out")" -eq 2 ]
if grep -q '^not ok' "$T/test-memory.out" "$T/test-bad-db.out"; then :; else
  diag "$(cat "$T/test-memory.out" "$T/test-bad-db.out")"; fi
done_testing

#!/bin/bash
# tests/fuzz/test-fuzz.sh: builds the libFuzzer harnesses (build.sh), replays
# the seed corpora and every saved crash (regress/<harness>/), then fuzzes
# each harness for a bounded time. Any crash, sanitizer report, leak or
# timeout fails the test. Runs in the werror flavour only (the harnesses
# carry their own ASan+UBSan; the asan flavour would only repeat them).
#   PDB_FUZZ_SECONDS   fuzzing time per harness (default 40)
#   --long             `make fuzz-long`: runs whatever the flavour, keeps the
#                      grown corpus in $top_builddir/tests/fuzz/corpus-<harness>
. "$top_srcdir/tests/lib.sh"

long=no
[ "${1:-}" = "--long" ] && long=yes
if [ $long = no ] && [ "${PDB_BUILD_FLAVOUR:-werror}" = asan ]; then
  skip_all "fuzz harnesses are sanitized already; run in the werror flavour"
fi
command -v "${FUZZ_CC:-clang}" >/dev/null 2>&1 || skip_all "clang not installed (contrib/install-deps.sh)"

seconds=${PDB_FUZZ_SECONDS:-40}
harnesses="match load syslog-line"
out="$top_builddir/tests/fuzz"
make_tmpdir

if ! bash "$top_srcdir/tests/fuzz/build.sh" >"$TEST_TMPDIR/build.log" 2>&1; then
  not_ok "build the fuzz harnesses with clang"
  diag "$(tail -30 "$TEST_TMPDIR/build.log")"
  done_testing; exit
fi
ok "build the fuzz harnesses with clang"

common="-timeout=10 -rss_limit_mb=2048 -max_len=65536"
for h in $harnesses; do
  bin="$out/fuzz-$h"
  seeds=("$top_srcdir/tests/fuzz/corpus/$h"/*)
  [ -d "$top_srcdir/tests/fuzz/regress/$h" ] && seeds+=("$top_srcdir/tests/fuzz/regress/$h"/*)
  # shellcheck disable=SC2086
  if (cd "$TEST_TMPDIR" && "$bin" $common "${seeds[@]}") >"$TEST_TMPDIR/replay-$h.log" 2>&1; then
    ok "$h: ${#seeds[@]} seed and regression inputs replay cleanly"
  else
    not_ok "$h: seed and regression inputs replay cleanly"
    diag "$(grep -A30 -m1 'ERROR\|runtime error' "$TEST_TMPDIR/replay-$h.log")"
  fi

  if [ $long = yes ]; then
    corpus="$out/corpus-$h"
  else
    corpus="$TEST_TMPDIR/corpus-$h"
  fi
  mkdir -p "$corpus"
  cp -n "$top_srcdir/tests/fuzz/corpus/$h"/* "$corpus"/
  # shellcheck disable=SC2086
  (cd "$TEST_TMPDIR" && "$bin" $common -max_total_time="$seconds" -print_final_stats=1 \
     -artifact_prefix="$TEST_TMPDIR/crash-$h-" "$corpus") >"$TEST_TMPDIR/fuzz-$h.log" 2>&1
  rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$TEST_TMPDIR/fuzz-$h.log")
  if [ $rc -eq 0 ]; then
    ok "$h: fuzzed ${seconds}s, ${runs:-?} executions, no crash or leak"
  else
    not_ok "$h: fuzzing found a problem (rc $rc)"
    diag "$(grep -A40 -m1 'ERROR\|runtime error\|ALARM' "$TEST_TMPDIR/fuzz-$h.log")"
    for c in "$TEST_TMPDIR"/crash-"$h"-*; do
      [ -f "$c" ] || continue
      diag "input (base64, save it under tests/fuzz/regress/$h/): $(base64 -w0 "$c" | head -c 4000)"
      [ $long = yes ] && cp "$c" "$out/"
    done
  fi
done
done_testing

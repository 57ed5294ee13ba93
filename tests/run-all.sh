#!/bin/bash
# The one test command (see README): installs what it needs, builds twice
# (warnings as errors; then with ASan+UBSan) and runs every suite in both
# builds. The last line is the summary: "N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
jobs=$(nproc 2>/dev/null || echo 2)
passed=0
failed=0
failures=""

note_fail() { failed=$((failed + 1)); failures="$failures\n  $1"; }

"$top/contrib/install-deps.sh" --tests || { echo "0 passed, 1 failed"; exit 1; }
./autogen.sh >/dev/null 2>&1 || { ./autogen.sh; echo "0 passed, 1 failed"; exit 1; }

run_build() {
  local name=$1; shift
  local dir="$top/build-$name"
  echo "=== $name build: configure $* ==="
  mkdir -p "$dir"
  local started=$SECONDS
  if ! (cd "$dir" && "$top/configure" -q "$@" >configure.out 2>&1); then
    cat "$dir/configure.out"; note_fail "$name: configure"; return
  fi
  if ! make -C "$dir" -s -j"$jobs" >"$dir/make.out" 2>&1; then
    tail -60 "$dir/make.out"; note_fail "$name: build"; return
  fi
  echo "=== $name build: configured and built in $((SECONDS - started)) s ==="
  run_check "$name" check test-suite.log
  run_check "$name" check-slow test-suite-slow.log
}

# run_check FLAVOUR TARGET LOG: runs `make TARGET` in build-FLAVOUR and adds
# the counts of its LOG (automake's summary) to the totals; lists the
# failures and the slowest suites ("# elapsed N s", from tests/timed.sh).
run_check() {
  local name=$1 target=$2 logname=$3
  local dir="$top/build-$name"
  local out="$dir/$target.out"
  touch "$dir/$target.stamp"
  local started=$SECONDS
  make -C "$dir" -j"$jobs" "$target" PDB_BUILD_FLAVOUR="$name" >"$out" 2>&1
  local log="$dir/$logname"
  if [ ! -f "$log" ]; then
    tail -60 "$out"; note_fail "$name: make $target produced no $logname"; return
  fi
  local p f e x
  p=$(sed -n 's/^# PASS: *//p' "$log" | head -1)
  f=$(sed -n 's/^# FAIL: *//p' "$log" | head -1)
  e=$(sed -n 's/^# ERROR: *//p' "$log" | head -1)
  x=$(sed -n 's/^# XPASS: *//p' "$log" | head -1)
  grep -E '^(PASS|FAIL|ERROR|SKIP|XFAIL|XPASS):' "$out" | grep -vE '^PASS:' | sed "s/^/[$name $target] /"
  passed=$((passed + ${p:-0}))
  local bad=$(( ${f:-0} + ${e:-0} + ${x:-0} ))
  if [ "$bad" -gt 0 ]; then
    sed -n '/^FAIL\|^ERROR\|^not ok/,+25p' "$log" | head -200
    # the failing suites' diagnostics (a diag printed before its "not ok",
    # e.g. a daemon log, is the evidence a CI run leaves behind)
    echo "--- diagnostics of the failing suites (at most 400 lines):"
    grep -E '^(# |not ok)' "$log" | grep -vE '^# (elapsed|TOTAL|PASS|SKIP|XFAIL|FAIL|XPASS|ERROR):? ' | head -400
    failed=$((failed + bad))
    failures="$failures\n  $name $target: $bad test(s), see build-$name/$logname"
  fi
  echo "=== $name build, make $target: ${p:-0} passed, $bad failed, $((SECONDS - started)) s; slowest suites:"
  slowest_suites "$dir" "$dir/$target.stamp"
}

# slowest_suites DIR STAMP: the five slowest suites whose logs in DIR are newer than STAMP.
slowest_suites() {
  find "$1/tests" -name '*.log' -newer "$2" -print0 2>/dev/null |
    xargs -0 -r grep -H '^# elapsed ' 2>/dev/null |
    sed 's|^'"$1"'/||; s|\.log:# elapsed | |' | sort -k2 -rn | head -5 | sed 's/^/      /'
}

# System suites (tests/system/test-*.sh) need the whole tree at once, e.g.
# building and installing the Debian packages, or test-trixie.sh: the build,
# `make check` and the packages against syslog-ng 4.8 in a Debian 13 root
# (PDB_SKIP_TRIXIE=1 leaves that out). Each prints TAP.
run_system_suites() {
  local t out p f started
  for t in "$top"/tests/system/test-*.sh; do
    [ -f "$t" ] || continue
    echo "=== system suite $(basename "$t") ==="
    started=$SECONDS
    out="$top/build-werror/$(basename "$t" .sh).tap"
    top_srcdir="$top" top_builddir="$top/build-werror" bash "$t" >"$out" 2>&1
    p=$(grep -c '^ok' "$out")
    f=$(grep -c '^not ok' "$out")
    if ! grep -q '^1\.\.' "$out"; then f=$((f + 1)); fi
    grep -v '^ok' "$out" | tail -40
    passed=$((passed + p))
    if [ "$f" -gt 0 ]; then
      echo "--- $(basename "$t"): lines around its failures (at most 400):"
      grep -B60 -A25 '^not ok\|^FAIL:\|^ERROR:' "$out" | head -400
      failed=$((failed + f)); failures="$failures\n  $(basename "$t"): $f"
    fi
    echo "=== $(basename "$t"): $p passed, $f failed, $((SECONDS - started)) s ==="
  done
}

run_build werror --enable-werror
run_build asan --enable-werror --enable-sanitizers
run_system_suites

if [ "$failed" -gt 0 ]; then
  printf 'Failures:%b\n' "$failures"
fi
echo "# run-all.sh: $SECONDS s in all"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

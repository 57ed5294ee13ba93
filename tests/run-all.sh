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

"$top/contrib/install-deps.sh" || { echo "0 passed, 1 failed"; exit 1; }
./autogen.sh >/dev/null 2>&1 || { ./autogen.sh; echo "0 passed, 1 failed"; exit 1; }

run_build() {
  local name=$1; shift
  local dir="$top/build-$name"
  echo "=== $name build: configure $* ==="
  mkdir -p "$dir"
  if ! (cd "$dir" && "$top/configure" -q "$@" >configure.out 2>&1); then
    cat "$dir/configure.out"; note_fail "$name: configure"; return
  fi
  if ! make -C "$dir" -s -j"$jobs" >"$dir/make.out" 2>&1; then
    tail -60 "$dir/make.out"; note_fail "$name: build"; return
  fi
  make -C "$dir" -j"$jobs" check PDB_BUILD_FLAVOUR="$name" >"$dir/check.out" 2>&1
  local log="$dir/test-suite.log"
  if [ ! -f "$log" ]; then
    tail -60 "$dir/check.out"; note_fail "$name: make check produced no test-suite.log"; return
  fi
  local p f e x
  p=$(sed -n 's/^# PASS: *//p' "$log" | head -1)
  f=$(sed -n 's/^# FAIL: *//p' "$log" | head -1)
  e=$(sed -n 's/^# ERROR: *//p' "$log" | head -1)
  x=$(sed -n 's/^# XPASS: *//p' "$log" | head -1)
  grep -E '^(PASS|FAIL|ERROR|SKIP|XFAIL|XPASS):' "$dir/check.out" | grep -vE '^PASS:' | sed "s/^/[$name] /"
  passed=$((passed + ${p:-0}))
  local bad=$(( ${f:-0} + ${e:-0} + ${x:-0} ))
  if [ "$bad" -gt 0 ]; then
    sed -n '/^FAIL\|^ERROR\|^not ok/,+25p' "$log" | head -200
    failed=$((failed + bad))
    failures="$failures\n  $name: $bad test(s), see build-$name/test-suite.log"
  fi
  echo "=== $name build: ${p:-0} passed, $bad failed ==="
}

# System suites (tests/system/test-*.sh) need the whole tree at once, e.g.
# building and installing the Debian packages. Each prints TAP.
run_system_suites() {
  local t out p f
  for t in "$top"/tests/system/test-*.sh; do
    [ -f "$t" ] || continue
    echo "=== system suite $(basename "$t") ==="
    out="$top/build-werror/$(basename "$t" .sh).tap"
    top_srcdir="$top" top_builddir="$top/build-werror" bash "$t" >"$out" 2>&1
    p=$(grep -c '^ok' "$out")
    f=$(grep -c '^not ok' "$out")
    if ! grep -q '^1\.\.' "$out"; then f=$((f + 1)); fi
    grep -v '^ok' "$out" | tail -40
    passed=$((passed + p))
    if [ "$f" -gt 0 ]; then
      failed=$((failed + f)); failures="$failures\n  $(basename "$t"): $f"
    fi
    echo "=== $(basename "$t"): $p passed, $f failed ==="
  done
}

run_build werror --enable-werror
run_build asan --enable-werror --enable-sanitizers
run_system_suites

if [ "$failed" -gt 0 ]; then
  printf 'Failures:%b\n' "$failures"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

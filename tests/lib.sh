# tests/lib.sh: shared helpers for shell test suites (sourced, not run).
# Every suite prints TAP: call `plan N` (or `done_testing` at the end) and
# `ok`/`not_ok`/`check` for each case. Paths come from the test harness:
# $top_srcdir, $top_builddir (absolute).

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
export TZ=UTC LC_ALL=C

_tap_n=0
_tap_failed=0

plan() { echo "1..$1"; _tap_planned=1; }
ok() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $*"; }
not_ok() { _tap_n=$((_tap_n + 1)); _tap_failed=$((_tap_failed + 1)); echo "not ok $_tap_n - $*"; }
skip_all() { echo "1..0 # SKIP $*"; exit 0; }
diag() { echo "$*" | sed 's/^/# /'; }

# check "description" command...: ok if the command succeeds.
check() {
  local desc=$1; shift
  if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}

# check_eq "description" expected actual: shows both on failure.
check_eq() {
  if [ "$2" = "$3" ]; then ok "$1"; else
    not_ok "$1"; diag "expected: $2"; diag "actual:   $3"; fi
}

done_testing() {
  [ -n "${_tap_planned:-}" ] || echo "1..$_tap_n"
  [ "$_tap_failed" -eq 0 ]
}

# --- Measured checks. A check that compares measurements (RSS, seconds,
# counts) must fail when a measurement is missing: a comparison over nothing
# cannot be allowed to pass. PDB_TIME_BIN replaces GNU time (tests set it
# to a missing path to prove that).
PDB_TIME=${PDB_TIME_BIN:-/usr/bin/time}

# is_measurement VALUE...: true when every VALUE is a non-negative decimal
# number (digits, optionally a fraction), false for an empty or other text.
is_measurement() {
  local v
  [ $# -gt 0 ] || return 1
  for v in "$@"; do [[ $v =~ ^[0-9]+([.][0-9]+)?$ ]] || return 1; done
}

# measured "description" VALUE...: true when every VALUE is a measurement;
# otherwise reports "not ok description" with what was missing and is false.
# Use: if measured "desc" "$a" "$b"; then <compare, ok/not_ok>; fi
measured() {
  local desc=$1; shift
  is_measurement "$@" && return 0
  not_ok "$desc"
  diag "no measurement to compare: got '$*' (is $PDB_TIME installed? apt-get install time)"
  return 1
}

# time_rss FILE COMMAND...: runs COMMAND under GNU time and writes
# "peak-RSS-KiB seconds" to FILE; returns COMMAND's exit status. Without GNU
# time COMMAND still runs and FILE is left empty (measured() then fails).
time_rss() {
  local file=$1; shift
  : >"$file"
  if [ -x "$PDB_TIME" ]; then
    "$PDB_TIME" -f '%M %e' -o "$file" "$@"
  else
    "$@"
  fi
}

# A private temporary directory, removed at exit.
make_tmpdir() {
  TEST_TMPDIR=$(mktemp -d "${TMPDIR:-/tmp}/pdbtest.XXXXXX")
  trap 'rm -rf "$TEST_TMPDIR"' EXIT
}

# wait_for "command..." [seconds]: polls until the command succeeds.
wait_for() {
  local cmd=$1 limit=${2:-20} i=0
  while [ "$i" -lt $((limit * 10)) ]; do
    eval "$cmd" && return 0
    sleep 0.1; i=$((i + 1))
  done
  return 1
}

# pdbtool_is_reference: true when the installed pdbtool is syslog-ng 3.38's,
# the one the tool follows (README). With another syslog-ng (4.8 in Debian
# 13, SYSLOG_NG_VERSION from configure) the tool's comparisons with pdbtool
# are skipped; doc/syslog-ng-versions.md.
pdbtool_is_reference() {
  case ${SYSLOG_NG_VERSION:-3.38} in 3.38 | 3.38.*) return 0 ;; esac
  return 1
}

# setup_vs_pdbtool: the start of a suite that compares `patterndb` with
# Debian's pdbtool on generated databases. Sets PDBTOOL, PATTERNDB, a private
# temporary directory T and DIFFDIR (tests/differential, where gen.py lives);
# skips the whole suite when pdbtool, the built tool or python3 is missing.
setup_vs_pdbtool() {
  PDBTOOL=${PDBTOOL_BIN:-/usr/bin/pdbtool}
  PATTERNDB=$top_builddir/patterndb
  [ -x "$PDBTOOL" ] || skip_all "pdbtool not installed ($PDBTOOL)"
  pdbtool_is_reference ||
    skip_all "pdbtool is syslog-ng $SYSLOG_NG_VERSION's; the tool follows pdbtool 3.38 (doc/syslog-ng-versions.md)"
  [ -x "$PATTERNDB" ] || skip_all "patterndb not built"
  command -v python3 >/dev/null || skip_all "python3 not installed"
  make_tmpdir
  T=$TEST_TMPDIR
  DIFFDIR=$top_srcdir/tests/differential
}

# same_as_pdbtool LABEL NAME PATTERN ARGS...: runs `pdbtool ARGS` and
# `patterndb ARGS` (after setup_vs_pdbtool) into $T/NAME.ref and
# $T/NAME.ours (our stderr: $T/NAME.err); ok LABEL when both print the same
# and ours has a line matching the grep PATTERN ('': any line, so output
# there is); else not ok, with the first lines of the difference and of our
# stderr.
same_as_pdbtool() {
  local label=$1 name=$2 pattern=$3; shift 3
  "$PDBTOOL" "$@" > "$T/$name.ref" 2>/dev/null
  "$PATTERNDB" "$@" > "$T/$name.ours" 2>"$T/$name.err"
  if cmp -s "$T/$name.ref" "$T/$name.ours" && grep -q -- "$pattern" "$T/$name.ours"; then
    ok "$label"
  else
    not_ok "$label"
    diff "$T/$name.ref" "$T/$name.ours" | head -10 | while IFS= read -r l; do diag "$l"; done
    head -3 "$T/$name.err" | while IFS= read -r l; do diag "stderr: $l"; done
  fi
}

# match_vs_pdbtool LABEL DB LOG TEMPLATE: `match -p DB -f LOG -T TEMPLATE`
# prints the same, and something, with both tools.
match_vs_pdbtool() {
  same_as_pdbtool "$1: -T '$4' identical to pdbtool" match '' match -p "$2" -f "$3" -T "$4"
}

# --- Shared fixture: a ruleset for program "app" with a login rule
# (r-login, class system: u and ip) and a logout rule (r-logout, class
# violation), and lines for it (two match, one does not, one is another
# program's, one is not a syslog line).
# write_login_db FILE [XML_IN_THE_LOGIN_RULE [LOGOUT_CAPTURE_NAME (u)]]
write_login_db() {
  cat > "$1" <<XML
<?xml version='1.0' encoding='UTF-8'?>
<patterndb version='4' pub_date='2026-12-03'>
  <ruleset name='app' id='rs-app'>
    <pattern>app</pattern>
    <rules>
      <rule provider='test' id='r-login' class='system'>
        <patterns><pattern>login user @ESTRING:u: @from @IPv4:ip@</pattern></patterns>
        ${2:-}
      </rule>
      <rule provider='test' id='r-logout' class='violation'>
        <patterns><pattern>logout user @ANYSTRING:${3:-u}@</pattern></patterns>
      </rule>
    </rules>
  </ruleset>
</patterndb>
XML
}
# write_login_lines FILE
write_login_lines() {
  cat > "$1" <<'LOG'
Dec  3 10:00:00 host app[1]: login user alice from 10.0.0.1
Dec  3 10:00:01 host app[1]: logout user bob
Dec  3 10:00:02 host app[1]: something else
Dec  3 10:00:03 host other: login user carol from 10.0.0.2
<999>this is not a syslog header
LOG
}

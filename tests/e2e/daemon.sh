# tests/e2e/daemon.sh: run the real syslog-ng with our module (sourced by
# the e2e suites after tests/lib.sh).
#
#   e2e_setup                  private temp dir, module path, cleanup trap
#   daemon_env VAR=VALUE...    add variables to the daemon's environment
#   daemon_preload LIB         preload LIB into the daemon (after libasan)
#   daemon_start CONF          start `syslog-ng -F` on CONF; wait until ready
#   daemon_reload              SIGHUP and wait for "reload finished"
#   daemon_reload_quick        the same, polling every 10 ms
#   daemon_stop                stop it (by PID), wait for it to exit
#   send_lines SOCKET LINE...  write lines to a unix-stream socket
#   wait_lines FILE N [SECS]   wait until FILE has at least N lines
#
# Set for the suites, from the installed daemon (3.38 on Debian 12, 4.8 on 13):
#   SNG_CONFIG_VERSION   its major.minor, for the configs' @version line
#   SNG_STATS_OFF        the option that turns periodic statistics off
#                        (3.x stats-freq(0), which 4.x warns about as obsolete)
#   SYSTEM_MODULE_DIR    its module directory (pkg-config's moduledir)
#   STOCK_PDB_MODULE     the module of its own db-parser() and grouping-by()
#                        (dbparser in 3.x, correlation in 4.x), STOCK_PDB_SO its file
#
# Each daemon gets its own persist, pid and control files in $TEST_TMPDIR
# (never /var/lib/syslog-ng), so a system syslog-ng may keep running. The
# EXIT trap kills the daemon by PID and removes the temp dir. When the
# module was built with AddressSanitizer, the daemon runs with libasan
# preloaded.

: "${SYSLOG_NG_BIN:=/usr/sbin/syslog-ng}"
SNG_CONFIG_VERSION=$("$SYSLOG_NG_BIN" --version 2>/dev/null |
  sed -n 's/^Installer-Version: *\([0-9][0-9]*\.[0-9][0-9]*\).*/\1/p')
[ -n "$SNG_CONFIG_VERSION" ] ||
  SNG_CONFIG_VERSION=$(pkg-config --modversion syslog-ng 2>/dev/null | cut -d. -f1,2)
case $SNG_CONFIG_VERSION in
  3.*) SNG_STATS_OFF='stats-freq(0);' ;;
  *) SNG_STATS_OFF='stats(freq(0));' ;;
esac

# sng4_skip NAME REASON: on syslog-ng 4.x, reports the check NAME as skipped
# with REASON (where 4.x's own parsers behave otherwise and ours does not
# follow them yet; doc/syslog-ng-versions.md lists them) and returns 0; on
# 3.x returns 1, so `sng4_skip NAME REASON || check NAME ...` runs the check.
sng4_skip() {
  case $SNG_CONFIG_VERSION in 3.*) return 1 ;; esac
  _tap_n=$((_tap_n + 1))
  echo "ok $_tap_n - $1 # SKIP on syslog-ng $SNG_CONFIG_VERSION: $2"
}
DAEMON_PID=""
DAEMON_LOG=""

e2e_setup() {
  [ -z "${PDB_SKIP_E2E:-}" ] || skip_all "PDB_SKIP_E2E is set (no daemons in this environment)"
  make_tmpdir
  E2E_CHILD_PIDS=""
  trap 'e2e_kill_children; daemon_stop >/dev/null 2>&1; rm -rf "$TEST_TMPDIR"' EXIT
  trap 'exit 130' INT TERM
  MODULE_SO="$top_builddir/.libs/libpatterndb.so"
  SYSTEM_MODULE_DIR=$(pkg-config --variable=moduledir syslog-ng 2>/dev/null)
  : "${SYSTEM_MODULE_DIR:=/usr/lib/syslog-ng/$SNG_CONFIG_VERSION}"
  STOCK_PDB_MODULE=correlation
  [ -f "$SYSTEM_MODULE_DIR/libdbparser.so" ] && STOCK_PDB_MODULE=dbparser
  STOCK_PDB_SO=lib$STOCK_PDB_MODULE.so
  MODULE_PATH="$top_builddir/.libs:$SYSTEM_MODULE_DIR"
  [ -f "$MODULE_SO" ] || skip_all "module not built: $MODULE_SO"
  [ -x "$SYSLOG_NG_BIN" ] || skip_all "no syslog-ng binary: $SYSLOG_NG_BIN"
  DAEMON_ENV=""
  if readelf -d "$MODULE_SO" 2>/dev/null | grep -q 'libasan'; then
    DAEMON_ENV="LD_PRELOAD=$(gcc -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0"
    E2E_SANITIZED=1
  else
    E2E_SANITIZED=0
  fi
}

# daemon_env VAR=VALUE...: for the daemons started after this (no spaces
# in the values).
daemon_env() {
  DAEMON_ENV="$DAEMON_ENV $*"
}

# daemon_preload LIB: LIB goes into LD_PRELOAD, after libasan when the
# module is sanitized (libasan must come first).
daemon_preload() {
  case " $DAEMON_ENV" in
    *" LD_PRELOAD="*) DAEMON_ENV=$(printf '%s' "$DAEMON_ENV" | sed "s|LD_PRELOAD=\([^ ]*\)|LD_PRELOAD=\1:$1|") ;;
    *) DAEMON_ENV="$DAEMON_ENV LD_PRELOAD=$1" ;;
  esac
}

# Other background processes of a suite (loggen): add their PIDs to
# E2E_CHILD_PIDS and they are killed on exit.
e2e_kill_children() {
  local p
  for p in $E2E_CHILD_PIDS; do kill "$p" 2>/dev/null; done
}

# Runs syslog-ng with the test's module path and extra arguments (for -s).
syslog_ng() {
  env $DAEMON_ENV "$SYSLOG_NG_BIN" --no-caps --module-path="$MODULE_PATH" "$@"
}

# daemon_start CONF [NAME]: returns non-zero if it did not come up.
daemon_start() {
  local conf=$1 name=${2:-daemon}
  DAEMON_DIR="$TEST_TMPDIR/$name"
  mkdir -p "$DAEMON_DIR"
  DAEMON_LOG="$DAEMON_DIR/stderr.log"
  : >"$DAEMON_LOG"
  env $DAEMON_ENV "$SYSLOG_NG_BIN" -F -e --no-caps -f "$conf" \
    --persist-file="$DAEMON_DIR/persist" --pidfile="$DAEMON_DIR/pid" \
    --control="$DAEMON_DIR/ctl" --module-path="$MODULE_PATH" \
    >"$DAEMON_DIR/stdout.log" 2>>"$DAEMON_LOG" &
  DAEMON_PID=$!
  if ! wait_for "grep -q 'syslog-ng starting up' '$DAEMON_LOG' || ! kill -0 $DAEMON_PID 2>/dev/null" 30 \
     || ! kill -0 "$DAEMON_PID" 2>/dev/null; then
    diag "syslog-ng did not start; its log:"
    diag "$(cat "$DAEMON_LOG")"
    wait "$DAEMON_PID" 2>/dev/null
    DAEMON_PID=""
    return 1
  fi
  return 0
}

daemon_reload() {
  local before
  before=$(grep -c 'Configuration reload finished' "$DAEMON_LOG")
  kill -HUP "$DAEMON_PID" || return 1
  wait_for "[ \$(grep -c 'Configuration reload finished\|Error initializing new configuration' '$DAEMON_LOG') -gt $before ]" 30
}

daemon_stop() {
  [ -n "$DAEMON_PID" ] || return 0
  kill -TERM "$DAEMON_PID" 2>/dev/null
  if ! wait_for "! kill -0 $DAEMON_PID 2>/dev/null" 20; then
    kill -KILL "$DAEMON_PID" 2>/dev/null
  fi
  wait "$DAEMON_PID" 2>/dev/null
  DAEMON_PID=""
}

# send_lines SOCKET LINE...: one connection, one line per argument. The
# connect is retried for up to 30 s: a reload re-creates the listening
# socket, and on a loaded machine the gap can outlast the log line a test
# waits for.
send_lines() {
  local sock=$1; shift
  python3 - "$sock" "$@" <<'PY'
import socket, sys, time
deadline = time.monotonic() + 30
while True:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(sys.argv[1])
        break
    except (FileNotFoundError, ConnectionRefusedError):
        s.close()
        if time.monotonic() > deadline:
            raise
        time.sleep(0.05)
s.sendall("".join(line + "\n" for line in sys.argv[2:]).encode())
s.close()
PY
}

# send_syslog SOCKET PROGRAM MESSAGE...: RFC3164 lines without a hostname
# (the form local sockets carry), one per MESSAGE.
send_syslog() {
  local sock=$1 prog=$2; shift 2
  local lines=() m
  for m in "$@"; do lines+=("<13>Jan  1 00:00:00 $prog[42]: $m"); done
  send_lines "$sock" "${lines[@]}"
}

count_lines() { if [ -f "$1" ]; then wc -l <"$1"; else echo 0; fi; }

wait_lines() {
  wait_for "[ \$(count_lines '$1') -ge $2 ]" "${3:-20}"
}

# daemon_reload_quick: like daemon_reload, but polls every 10 ms (for suites
# that reload hundreds of times). Returns non-zero after 30 s.
daemon_reload_quick() {
  local pat='Configuration reload finished\|Error initializing new configuration' before i=0
  before=$(grep -c "$pat" "$DAEMON_LOG")
  kill -HUP "$DAEMON_PID" || return 1
  while [ "$(grep -c "$pat" "$DAEMON_LOG")" -le "$before" ]; do
    i=$((i + 1)); [ "$i" -gt 3000 ] && return 1
    sleep 0.01
  done
}

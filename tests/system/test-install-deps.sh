#!/bin/bash
# tests/system/test-install-deps.sh: the README's demo is safe on a machine
# that already logs with syslog-ng, and installs only what it needs.
#
# contrib/install-deps.sh runs against stubs of dpkg-query (everything
# missing), id (root), apt-get and systemctl/service (they record their
# arguments; systemctl says syslog-ng is active): it must install the demo
# set only (the test set only with --tests), never call a service manager,
# and refuse when apt would remove a package (rsyslog, which syslog-ng-core
# replaces). Then contrib/demo.sh runs on this build while a real syslog-ng
# (standing for the machine's own) runs: that daemon must still run, with
# the same PID, and still log, afterwards.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/daemon.sh"
e2e_setup

deps="$top_srcdir/contrib/install-deps.sh"
stubs="$TEST_TMPDIR/stubs"
calls="$TEST_TMPDIR/calls"
mkdir -p "$stubs"
: >"$calls"
stub() { # stub NAME BODY
  printf '#!/bin/sh\necho "%s $*" >>"%s"\n%s\n' "$1" "$calls" "$2" >"$stubs/$1"
  chmod +x "$stubs/$1"
}
stub dpkg-query 'exit 1'
stub id 'echo 0'
stub systemctl 'exit 0'
stub service 'exit 0'
stub apt-get 'case " $* " in *" -s "*) [ -z "$STUB_REMOVES" ] || echo "Remv $STUB_REMOVES [8.2302.0-1]";; esac; exit 0'
run_deps() { env PATH="$stubs:$PATH" STUB_REMOVES="${STUB_REMOVES:-}" "$deps" "$@" >"$TEST_TMPDIR/deps.out" 2>&1; }
installed() { sed -n 's/^apt-get install -y .*--no-remove //p' "$calls" | tr ' ' '\n' | sort | tr '\n' ' '; }

# --- the demo set
: >"$calls"
run_deps; rc=$?
check_eq "install-deps (demo set) succeeds" 0 "$rc"
got=$(installed)
for p in syslog-ng-core syslog-ng-dev libglib2.0-dev libxml2-dev libpcre2-dev pkg-config; do
  case " $got" in *" $p "*) ok "demo set installs $p" ;; *) not_ok "demo set installs $p"; diag "$got" ;; esac
done
for p in chromium clang valgrind libcriterion-dev liblognorm5; do
  case " $got" in *" $p "*) not_ok "demo set leaves out $p"; diag "$got" ;; *) ok "demo set leaves out $p" ;; esac
done
check "no service manager is called (demo set)" bash -c "! grep -Eq '^(systemctl|service) ' '$calls'"
check "apt-get install is told never to remove a package" grep -q -- '--no-remove' "$calls"

# --- the test set
: >"$calls"
run_deps --tests; rc=$?
check_eq "install-deps --tests succeeds" 0 "$rc"
got=$(installed)
for p in syslog-ng-core libcriterion-dev chromium clang valgrind liblognorm5 libxml2-utils; do
  case " $got" in *" $p "*) ok "test set installs $p" ;; *) not_ok "test set installs $p"; diag "$got" ;; esac
done
check "no service manager is called (test set)" bash -c "! grep -Eq '^(systemctl|service) ' '$calls'"
check "run-all installs the test set" grep -q 'install-deps.sh" --tests' "$top_srcdir/tests/run-all.sh"
check "the demo installs the demo set" grep -Eq 'install-deps.sh"$' "$top_srcdir/contrib/demo.sh"

# --- installing syslog-ng-core would remove the machine's logger
: >"$calls"
STUB_REMOVES=rsyslog run_deps; rc=$?
check "install-deps refuses when apt would remove a package" test "$rc" -ne 0
check "the refusal names the package" grep -q 'would remove: rsyslog' "$TEST_TMPDIR/deps.out"
check "nothing is installed then" bash -c "! grep -q '^apt-get install -y' '$calls'"

# --- the demo next to a running syslog-ng
cat >"$TEST_TMPDIR/machine.conf" <<CONF
@version: 3.38
options { stats-freq(0); };
source s_in { unix-stream("$TEST_TMPDIR/machine.sock"); };
destination d_out { file("$TEST_TMPDIR/machine.log"); };
log { source(s_in); destination(d_out); };
CONF
daemon_start "$TEST_TMPDIR/machine.conf"
machine_pid=$DAEMON_PID
send_lines "$TEST_TMPDIR/machine.sock" "<13>Dec  4 10:00:00 host app: before the demo"
wait_lines "$TEST_TMPDIR/machine.log" 1
: >"$calls"
demo_out="$TEST_TMPDIR/demo-build"
mkdir -p "$demo_out/.libs"
ln -s "$MODULE_SO" "$demo_out/.libs/libpatterndb.so"
env PATH="$stubs:$PATH" PDB_DEMO_BUILDDIR="$demo_out" "$top_srcdir/contrib/demo.sh" 50 >"$TEST_TMPDIR/demo.out" 2>&1; rc=$?
check_eq "contrib/demo.sh succeeds" 0 "$rc"
[ "$rc" -eq 0 ] || diag "$(tail -20 "$TEST_TMPDIR/demo.out")"
check "the demo classified messages" grep -q 'Messages per class (100 in' "$TEST_TMPDIR/demo.out"
check "the running syslog-ng still runs, same PID" kill -0 "$machine_pid"
check "the demo called no service manager" bash -c "! grep -Eq '^(systemctl|service) ' '$calls'"
send_lines "$TEST_TMPDIR/machine.sock" "<13>Dec  4 10:00:01 host app: after the demo"
wait_lines "$TEST_TMPDIR/machine.log" 2
check "the running syslog-ng still logs" grep -q 'after the demo' "$TEST_TMPDIR/machine.log"
daemon_stop
done_testing

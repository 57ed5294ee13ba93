#!/bin/sh
# contrib/install-deps.sh: installs, with apt-get, what patterndb needs on
# Debian 12; does nothing for packages that are already there.
#
#   contrib/install-deps.sh [--tests] [--print] [PACKAGE...]
#
# Without --tests: what building the module and the tool and running the
# demo need (compiler, autotools, the libraries, syslog-ng-core and its
# headers). With --tests: that plus what the test suites use (Criterion,
# xmllint, the browser of the report test, clang for fuzzing, valgrind,
# liblognorm for the rsyslog differential tests). tests/run-all.sh uses
# --tests; contrib/demo.sh does not. --print lists the packages and exits.
#
# Invariants: it never stops, starts or restarts a service (the machine's
# own syslog-ng keeps running; our daemons use private config, persist,
# pid and control files), and it never removes a package: when installing
# syslog-ng-core would replace another system logger (rsyslog conflicts
# with it), it stops and says so instead. Needs root only when something
# is missing.
set -e
demo_packages="build-essential autoconf automake libtool pkg-config bison flex python3
      syslog-ng-core syslog-ng-dev libglib2.0-dev libxml2-dev libpcre2-dev"
test_packages="libxml2-utils libcriterion-dev libestr0 libfastjson4 liblognorm5
      chromium clang libclang-rt-14-dev valgrind time procps"

tests=""
print=""
extra=""
for arg in "$@"; do
  case $arg in
    --tests) tests=1 ;;
    --print) print=1 ;;
    -*) echo "install-deps: unknown option '$arg' (known: --tests, --print)" >&2; exit 2 ;;
    *) extra="$extra $arg" ;;
  esac
done
need="$demo_packages${tests:+ $test_packages}$extra"
if [ -n "$print" ]; then
  # shellcheck disable=SC2086
  printf '%s\n' $need
  exit 0
fi

missing=""
for p in $need; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
[ -n "$missing" ] || exit 0
if [ "$(id -u)" != 0 ]; then
  echo "install-deps: these packages are missing and I am not root:$missing" >&2
  exit 1
fi
echo "install-deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >&2 || true
# shellcheck disable=SC2086
removed=$(apt-get install -s -q --no-install-recommends $missing 2>/dev/null | sed -n 's/^Remv \([^ ]*\).*/\1/p' | tr '\n' ' ')
if [ -n "$removed" ]; then
  echo "install-deps: installing$missing would remove: $removed" >&2
  echo "install-deps: not done (syslog-ng-core replaces the system logger; this script never removes a package)." >&2
  echo "install-deps: install syslog-ng-core yourself if you want it, or run this in a container." >&2
  exit 1
fi
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends --no-remove $missing >&2

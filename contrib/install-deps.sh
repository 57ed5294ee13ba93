#!/bin/sh
# Installs, with apt-get, what building and testing patterndb needs on Debian 12.
# Does nothing for packages that are already there. Run as root.
set -e
need="build-essential autoconf automake libtool pkg-config bison flex python3
      syslog-ng-core syslog-ng-dev libglib2.0-dev libxml2-dev libxml2-utils libpcre2-dev
      libcriterion-dev libestr0 libfastjson4 liblognorm5 chromium clang libclang-rt-14-dev valgrind
      time procps $*"
missing=""
for p in $need; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "install-deps: these packages are missing and I am not root:$missing" >&2
    exit 1
  fi
  echo "install-deps: installing$missing" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >&2 || true
  # shellcheck disable=SC2086
  apt-get install -y -q --no-install-recommends $missing >&2
fi
# Debian starts syslog-ng.service on install; our tests run their own daemons.
if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet syslog-ng 2>/dev/null; then
  systemctl stop syslog-ng >/dev/null 2>&1 || true
fi
exit 0

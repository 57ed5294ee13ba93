#!/bin/sh
# contrib/bench/bench-deps.sh: installs, with apt-get, the tools only the
# benchmark needs (lognormalizer, valgrind, perf, hyperfine). Packages that are
# already there are left alone; without root it only warns, and the benchmark
# prints "n/a" for what is missing.
need="liblognorm-utils valgrind linux-perf hyperfine time"
missing=""
for p in $need; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "bench-deps: missing (not root, continuing without):$missing" >&2
  exit 0
fi
echo "bench-deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q --no-install-recommends $missing >&2 || {
  apt-get update -q >&2 || true
  apt-get install -y -q --no-install-recommends $missing >&2 || echo "bench-deps: install failed, continuing" >&2
}
exit 0

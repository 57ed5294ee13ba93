#!/bin/bash
# tests/system/fresh-root.sh: the README's quick start on a fresh Debian 12.
#
# Makes a minimal Debian 12 root with debootstrap (the base system, git and
# ca-certificates, nothing else), clones this repository's committed HEAD
# into it and runs, as root inside it, exactly the README's two commands:
#
#     contrib/demo.sh
#     tests/run-all.sh
#
# A package that a test or the demo needs but that the commands do not
# install themselves makes the run fail here, where a development machine
# (which has collected packages over time) would hide it.
#
#   tests/system/fresh-root.sh [--demo-only] [ROOT]
#
# ROOT (default: a new directory under /var/tmp) is made with debootstrap,
# unless it already holds a root made by this script and PDB_REUSE_ROOT=1.
# PDB_KEEP_ROOT=1 keeps it afterwards (it is removed otherwise).
# Inside the root no service starts on package installation
# (usr/sbin/policy-rc.d says no); on a booted machine a running syslog-ng
# is left alone (our daemons use private persist, pid and control files).
#
# Needs root, network access to Debian's mirror and about 4 GB of disk.
# Prints each command's output and ends with run-all's last line
# ("N passed, N failed"); exits non-zero when either command fails.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
demo_only=
if [ "${1:-}" = --demo-only ]; then demo_only=1; shift; fi
root=${1:-}
mirror=${PDB_DEBIAN_MIRROR:-http://deb.debian.org/debian}

say() { printf '== fresh-root: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

[ "$(id -u)" = 0 ] || die "must run as root (debootstrap, chroot, mounts)"
git -C "$top" rev-parse --verify -q HEAD >/dev/null || die "$top is not a git checkout with a commit"
if ! command -v debootstrap >/dev/null 2>&1; then
  say "installing debootstrap"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null 2>&1 ||
    { apt-get update -q >/dev/null 2>&1; DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null; } ||
    die "cannot install debootstrap"
fi

made_root=
if [ -z "$root" ]; then
  root=$(mktemp -d /var/tmp/pdb-fresh-root.XXXXXX) || die "mktemp failed"
  made_root=1
fi
mounted=""
cleanup() {
  local m
  for m in $mounted; do umount -l "$m" 2>/dev/null; done
  if [ -n "$made_root" ] && [ -z "${PDB_KEEP_ROOT:-}" ]; then
    rm -rf --one-file-system "$root"
  elif [ -n "${PDB_KEEP_ROOT:-}" ]; then
    say "root kept in $root"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ -n "${PDB_REUSE_ROOT:-}" ] && [ -f "$root/etc/pdb-fresh-root" ]; then
  say "reusing $root"
else
  say "debootstrap bookworm into $root"
  start=$(date +%s)
  debootstrap --variant=minbase --include=git,ca-certificates bookworm "$root" "$mirror" \
    >"$root.debootstrap.log" 2>&1 || { tail -20 "$root.debootstrap.log" >&2; die "debootstrap failed"; }
  rm -f "$root.debootstrap.log"
  say "debootstrap took $(( $(date +%s) - start )) s"
  # The sources of an installed Debian 12: main, updates and security.
  cat >"$root/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
EOF
  printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
  chmod 755 "$root/usr/sbin/policy-rc.d"
  date -u >"$root/etc/pdb-fresh-root"
fi
cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true

mount_in() { # mount_in TYPE-OR-BIND SOURCE TARGET
  mkdir -p "$root$3"
  if [ "$1" = bind ]; then mount --bind "$2" "$root$3"; else mount -t "$1" "$2" "$root$3"; fi ||
    die "cannot mount $2 on $root$3"
  mounted="$root$3 $mounted"
}
mount_in proc proc /proc
mount_in sysfs sysfs /sys
mount_in bind /dev /dev
mount_in devpts devpts /dev/pts
mount_in tmpfs tmpfs /dev/shm

rm -rf "$root/root/patterndb"
git clone -q --no-local "$top" "$root/root/patterndb" || die "git clone into the root failed"
say "cloned $(git -C "$root/root/patterndb" rev-parse --short HEAD)"

in_root() {
  chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    CI="${CI:-}" /bin/bash -c "cd /root/patterndb && $1"
}

# The demo counts as one test; run-all's own summary is added to it, and
# the combined "N passed, N failed" is the last line of standard output.
demo_passed=0 demo_failed=0
say "contrib/demo.sh"
start=$(date +%s)
if in_root contrib/demo.sh; then
  demo_passed=1; say "contrib/demo.sh passed ($(( $(date +%s) - start )) s)"
else
  demo_failed=1; say "contrib/demo.sh FAILED"
fi
if [ -n "$demo_only" ]; then
  echo "$demo_passed passed, $demo_failed failed"
  exit "$demo_failed"
fi
say "tests/run-all.sh"
start=$(date +%s)
summary=$root/root/run-all.out
in_root tests/run-all.sh 2>&1 | tee "$summary"
rc=${PIPESTATUS[0]}
say "tests/run-all.sh ended after $(( $(date +%s) - start )) s with status $rc"
last=$(tail -n 1 "$summary")
if [[ $last =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
  p=$((BASH_REMATCH[1] + demo_passed)) f=$((BASH_REMATCH[2] + demo_failed))
else
  say "tests/run-all.sh did not end with a summary line"
  p=$demo_passed f=$((demo_failed + 1))
fi
[ "$rc" -eq 0 ] || [ "$f" -gt 0 ] || f=1
echo "$p passed, $f failed"
[ "$f" -eq 0 ]

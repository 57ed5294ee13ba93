#!/bin/bash
# tests/system/trixie-root.sh: a Debian 13 ("trixie", syslog-ng 4.8) root to
# build and test the module in, next to the host's Debian 12 (syslog-ng 3.38).
#
#   tests/system/trixie-root.sh [--root DIR] [--fresh] [--copy-tree] [-- COMMAND...]
#
# Makes the root with debootstrap unless DIR already holds one made by this
# script (then it is reused: the script is idempotent), and installs into it
# what building, testing and packaging patterndb need there (only what is
# missing, so a cached root costs a few seconds).
#   --root DIR   the root (default: $PDB_TRIXIE_ROOT, else /srv/roots/trixie)
#   --fresh      remove DIR first and debootstrap again
#   --copy-tree  copy the files of this tree that git does not ignore, as they are
#                now, to DIR/root/patterndb (files keep their times, so a
#                build directory there stays incremental)
#   -- COMMAND   run COMMAND with bash inside the root, in /root/patterndb
#                when it exists; the exit status is COMMAND's
#
# Invariants: /proc, /sys, /dev, /dev/pts and /dev/shm are mounted in the
# root only while this script runs, and unmounted on every exit; no service
# starts on package installation in the root (usr/sbin/policy-rc.d says no).
# Needs root and network access to Debian's mirror ($PDB_DEBIAN_MIRROR);
# about 2 GB of disk.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
root=${PDB_TRIXIE_ROOT:-/srv/roots/trixie}
mirror=${PDB_DEBIAN_MIRROR:-http://deb.debian.org/debian}
fresh= copy_tree=
marker=etc/pdb-trixie-root
packages="build-essential autoconf automake libtool pkg-config bison flex python3 git
  ca-certificates procps time syslog-ng-core syslog-ng-dev libglib2.0-dev libxml2-dev
  libxml2-utils libpcre2-dev libjson-c-dev libcriterion-dev
  libestr0 libfastjson4 liblognorm5
  dpkg-dev debhelper lintian fakeroot"

say() { printf '== trixie-root: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

while [ $# -gt 0 ]; do
  case $1 in
    --root) root=${2:?--root needs a directory}; shift 2 ;;
    --fresh) fresh=1; shift ;;
    --copy-tree) copy_tree=1; shift ;;
    --) shift; break ;;
    *) die "unknown option $1 (see the header of $0)" ;;
  esac
done
[ "$(id -u)" = 0 ] || die "must run as root (debootstrap, chroot, mounts)"
case $root in /|'') die "refusing root '$root'" ;; esac

mounted=""
unmount_all() {
  local m
  for m in $mounted; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null; done
  mounted=""
}
trap unmount_all EXIT
trap 'exit 130' INT TERM

mount_in() { # mount_in TYPE-OR-bind SOURCE TARGET
  mountpoint -q "$root$3" && return 0
  mkdir -p "$root$3"
  if [ "$1" = bind ]; then mount --bind "$2" "$root$3"; else mount -t "$1" "$2" "$root$3"; fi ||
    die "cannot mount $2 on $root$3"
  mounted="$root$3 $mounted"
}

in_root() { # in_root COMMAND: bash -c COMMAND in the root, with a clean environment
  chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    DEBIAN_FRONTEND=noninteractive CI="${CI:-}" PDB_SKIP_E2E="${PDB_SKIP_E2E:-}" \
    /bin/bash -c "$1"
}

make_root() {
  if ! command -v debootstrap >/dev/null 2>&1; then
    say "installing debootstrap"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null 2>&1 ||
      { apt-get update -q >/dev/null 2>&1 &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null; } ||
      die "cannot install debootstrap"
  fi
  [ -d /usr/share/debootstrap/scripts ] && [ ! -e /usr/share/debootstrap/scripts/trixie ] &&
    ln -s sid /usr/share/debootstrap/scripts/trixie
  rm -rf --one-file-system "$root"
  mkdir -p "$(dirname "$root")"
  say "debootstrap trixie into $root"
  local start log
  start=$(date +%s) log="$root.debootstrap.log"
  debootstrap --variant=minbase --include=ca-certificates trixie "$root" "$mirror" >"$log" 2>&1 ||
    { tail -20 "$log" >&2; die "debootstrap failed (log: $log)"; }
  rm -f "$log"
  say "debootstrap took $(( $(date +%s) - start )) s"
  cat >"$root/etc/apt/sources.list" <<EOF
deb $mirror trixie main
deb $mirror trixie-updates main
deb http://deb.debian.org/debian-security trixie-security main
EOF
  printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
  chmod 755 "$root/usr/sbin/policy-rc.d"
  date -u >"$root/$marker"
}

install_packages() {
  local missing
  missing=$(in_root "for p in $(echo $packages); do
      dpkg-query -W -f='\${Status}' \$p 2>/dev/null | grep -q 'install ok installed' || echo \$p
    done" | tr '\n' ' ')
  [ -z "${missing// /}" ] && return 0
  say "installing in the root: $missing"
  in_root "apt-get update -q && apt-get install -y -q --no-install-recommends $missing" \
    >"$root/root/apt.log" 2>&1 || { tail -20 "$root/root/apt.log" >&2; die "apt-get install failed in the root"; }
}

# The files of this tree that git tracks or would track (not ignored), as they are in the working tree.
# A file deleted from the tree since the last copy is deleted from the copy
# too (the list of copied files is kept beside the copy); generated files
# (configure, build-trixie) stay.
copy_tracked_tree() {
  local dest=$root/root/patterndb list
  mkdir -p "$dest"
  list=$(mktemp)
  git -C "$top" ls-files -z --cached --others --exclude-standard |
    (cd "$top" && xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh) >"$list"
  if [ -f "$root/root/.patterndb-copied-files" ]; then
    tr '\0' '\n' <"$root/root/.patterndb-copied-files" | sort >"$list.old"
    tr '\0' '\n' <"$list" | sort | comm -23 "$list.old" - |
      (cd "$dest" && while IFS= read -r gone; do rm -f -- "$gone"; done)
    rm -f "$list.old"
  fi
  tar -C "$top" --null -T "$list" -cf - | tar -C "$dest" -xf - || { rm -f "$list"; die "cannot copy the tree into $dest"; }
  mv "$list" "$root/root/.patterndb-copied-files"
}

[ -n "$fresh" ] && [ -e "$root" ] && { mountpoint -q "$root/proc" && die "$root is in use (mounted)"; rm -rf --one-file-system "$root"; }
if [ -f "$root/$marker" ]; then
  say "reusing $root (made $(cat "$root/$marker"))"
else
  make_root
fi
cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
mount_in proc proc /proc
mount_in sysfs sysfs /sys
mount_in bind /dev /dev
mount_in devpts devpts /dev/pts
mount_in tmpfs tmpfs /dev/shm
install_packages
[ -n "$copy_tree" ] && copy_tracked_tree
say "syslog-ng in the root: $(in_root 'pkg-config --modversion syslog-ng')"

[ $# -eq 0 ] && exit 0
in_root "cd /root/patterndb 2>/dev/null || cd /root; $*"

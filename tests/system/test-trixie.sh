#!/bin/bash
# tests/system/test-trixie.sh: the quick loop (`make check`) against
# syslog-ng 4.8, in a Debian 13 root (tests/system/trixie-root.sh makes it,
# or reuses the cached one, and unmounts it again).
#
# Copies this tree (the files git does not ignore) into the root, builds it
# there with warnings as errors (build-trixie, kept between runs, so the
# build is incremental) and runs `make check`; then builds, lints, installs,
# smoke-tests and purges the Debian packages there with
# tests/system/test-debian-package.sh (PDB_TRIXIE_NO_PACKAGE=1 leaves that
# out). Prints TAP: the root, the configure and the build as one test each,
# every result of `make check` (PASS and SKIP as ok, FAIL, ERROR and XPASS
# as not ok) and of the package suite, so that tests/run-all.sh adds them to
# its totals.
#
# Skips itself when PDB_SKIP_TRIXIE is set, when not root, or without git.
# Env: PDB_TRIXIE_ROOT (default /srv/roots/trixie), PDB_DEBIAN_MIRROR.
set -u
. "$top_srcdir/tests/lib.sh"

[ -z "${PDB_SKIP_TRIXIE:-}" ] || skip_all "PDB_SKIP_TRIXIE is set"
[ "$(id -u)" = 0 ] || skip_all "needs root (debootstrap, chroot, mounts)"
command -v git >/dev/null 2>&1 || skip_all "no git to list the tree's files"

make_tmpdir
trap 'rm -rf "$TEST_TMPDIR"' EXIT
root_sh="$top_srcdir/tests/system/trixie-root.sh"
jobs=$(nproc 2>/dev/null || echo 2)

# in_root COMMAND LOG: runs COMMAND in the root's copy of the tree.
in_root() { bash "$root_sh" --copy-tree -- "$1" >"$2" 2>&1; }

if bash "$root_sh" >"$TEST_TMPDIR/root.log" 2>&1; then
  ok "Debian 13 root ready ($(sed -n 's/^== trixie-root: syslog-ng in the root: //p' "$TEST_TMPDIR/root.log"))"
else
  not_ok "Debian 13 root ready"; tail -20 "$TEST_TMPDIR/root.log" | sed 's/^/# /'
  done_testing; exit
fi

if in_root "./autogen.sh >/dev/null 2>&1 && mkdir -p build-trixie && cd build-trixie &&
            ../configure -q --enable-werror" "$TEST_TMPDIR/configure.log"; then
  ok "configure --enable-werror against syslog-ng 4.8"
else
  not_ok "configure --enable-werror against syslog-ng 4.8"; tail -20 "$TEST_TMPDIR/configure.log" | sed 's/^/# /'
  done_testing; exit
fi

if in_root "cd build-trixie && make -s -j$jobs" "$TEST_TMPDIR/build.log"; then
  ok "build with warnings as errors against syslog-ng 4.8"
else
  not_ok "build with warnings as errors against syslog-ng 4.8"; grep -E 'error|warning' "$TEST_TMPDIR/build.log" | head -30 | sed 's/^/# /'
  done_testing; exit
fi

in_root "cd build-trixie && make -j$jobs check PDB_BUILD_FLAVOUR=trixie" "$TEST_TMPDIR/check.log"
grep -qE '^# TOTAL:' "$TEST_TMPDIR/check.log" || not_ok "make check in the root produced no summary"
while IFS= read -r line; do
  case $line in
    PASS:*) ok "4.8: ${line#PASS: }" ;;
    SKIP:*"# SKIP"*) ok "4.8: ${line#SKIP: }" ;;
    SKIP:*) ok "4.8: ${line#SKIP: } # SKIP" ;;
    XFAIL:*) ok "4.8: ${line#XFAIL: }" ;;
    FAIL:* | ERROR:* | XPASS:*) not_ok "4.8: $line" ;;
  esac
done < <(grep -E '^(PASS|SKIP|XFAIL|FAIL|ERROR|XPASS):' "$TEST_TMPDIR/check.log")
sed -n '/^# TOTAL:/,/^# ERROR:/p' "$TEST_TMPDIR/check.log"
grep -E '^(FAIL|ERROR):' "$TEST_TMPDIR/check.log" | head -40 | sed 's/^/# /'

# The Debian packages built, linted, installed, smoke-tested and purged in
# the root (test-debian-package.sh on a git snapshot of the copy; its
# distcheck runs on the host only).
[ -n "${PDB_TRIXIE_NO_PACKAGE:-}" ] && { done_testing; exit; }
in_root "rm -rf /root/pkgsrc && mkdir /root/pkgsrc &&
         tar -C /root/patterndb --exclude=./build-trixie -cf - . | tar -C /root/pkgsrc -xf - &&
         cd /root/pkgsrc && git init -q && git add -A &&
         git -c user.name=ci -c user.email=ci@localhost commit -qm snapshot &&
         top_srcdir=/root/pkgsrc PDB_SKIP_DISTCHECK=1 bash tests/system/test-debian-package.sh" \
  "$TEST_TMPDIR/package.log"
grep -q '^1\.\.' "$TEST_TMPDIR/package.log" || not_ok "4.8 package: test-debian-package.sh printed no plan"
while IFS= read -r line; do
  case $line in
    "ok "*) ok "4.8 package: ${line#ok * - }" ;;
    "not ok "*) not_ok "4.8 package: ${line#not ok * - }" ;;
    "#"*) echo "$line" ;;
  esac
done <"$TEST_TMPDIR/package.log"

done_testing

#!/bin/bash
# tests/system/test-debian-package.sh: the Debian packages, end to end.
#
# From a clean copy of the git tree (tracked files only) it builds the binary
# packages with dpkg-buildpackage, checks their contents and runs lintian,
# installs them with apt-get, runs the autopkgtest smoke tests of
# debian/tests against the installed system (the system's syslog-ng with the
# installed module and no --module-path; the installed `patterndb` tool on
# the installed library), purges the packages again, and runs
# `make distcheck` (a subset of the suites: Makefile.am, DISTCHECK_TESTS),
# whose tarball must hold every file of the tree and make a source package.
#
# Invariant: the machine is left as it was found, apart from the build tools
# installed with apt-get (debhelper, lintian...): our packages are purged
# even when a step fails, and every temporary file lives in one directory.
#
# Needs root (apt-get). Env: PDB_KEEP_DEBS=DIR copies the built .debs there;
# PDB_SKIP_DISTCHECK=1 stops after the purge (tests/system/test-trixie.sh,
# where the host's run has done distcheck).
set -u
. "$top_srcdir/tests/lib.sh"

[ "$(id -u)" = 0 ] || skip_all "needs root to install packages with apt-get"
command -v apt-get >/dev/null 2>&1 || skip_all "not a Debian system (no apt-get)"
git -C "$top_srcdir" rev-parse --git-dir >/dev/null 2>&1 || skip_all "$top_srcdir is not a git checkout"

make_tmpdir
work=$TEST_TMPDIR
jobs=2
our_packages="syslog-ng-mod-patterndb patterndb"
export DEBIAN_FRONTEND=noninteractive

purge_ours() {
  local installed="" p
  for p in $our_packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'installed\|config-files' && installed="$installed $p"
  done
  [ -z "$installed" ] || apt-get purge -y -q $installed >"$work/purge.log" 2>&1
}
trap 'purge_ours; rm -rf "$work"' EXIT

# show_log FILE: the end of a log, as TAP comments.
show_log() { tail -n "${2:-40}" "$1" | sed 's/^/# /'; }

# copy_tree DEST: the tracked files of the working tree (no build output).
copy_tree() {
  mkdir -p "$1"
  git -C "$top_srcdir" ls-files -z --cached |
    (cd "$top_srcdir" && xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh) |
    tar -C "$top_srcdir" --null -T - -cf - | tar -C "$1" -xf -
}

# apt_install PACKAGE...: installs the packages that are not installed yet.
apt_install() {
  local missing="" p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
  done
  [ -z "$missing" ] && return 0
  apt-get install -y -q --no-install-recommends $missing >>"$work/apt.log" 2>&1 ||
    { apt-get update -q >>"$work/apt.log" 2>&1 &&
      apt-get install -y -q --no-install-recommends $missing >>"$work/apt.log" 2>&1; }
}

# build_depends CONTROL: the Build-Depends of a debian/control as package
# names (first alternative, versions and profiles dropped).
build_depends() {
  sed -n '/^Build-Depends:/,/^[^ ]/p' "$1" | sed '1s/^Build-Depends://; /^[^ ]/d' |
    tr ',' '\n' | sed 's/|.*//; s/([^)]*)//g; s/<[^>]*>//g; s/\[[^]]*\]//g; s/[[:space:]]//g' |
    sed 's/^debhelper-compat$/debhelper/' | grep -v '^$' | sort -u
}

purge_ours

# --- 1. build the binary packages from a clean copy -------------------------
src=$work/src/patterndb
copy_tree "$src"
check "the tree has a debian/ directory" test -f "$src/debian/control"

# shellcheck disable=SC2046
if apt_install dpkg-dev lintian $(build_depends "$src/debian/control"); then
  ok "build dependencies installed"
else
  not_ok "build dependencies installed"; show_log "$work/apt.log"
fi

if (cd "$src" && DEB_BUILD_OPTIONS="nocheck parallel=$jobs" \
      dpkg-buildpackage -us -uc -b) >"$work/build.log" 2>&1; then
  ok "dpkg-buildpackage -us -uc -b"
else
  not_ok "dpkg-buildpackage -us -uc -b"; show_log "$work/build.log" 60
fi
[ -n "${PDB_KEEP_DEBS:-}" ] && mkdir -p "$PDB_KEEP_DEBS" && cp "$work"/src/*.deb "$PDB_KEEP_DEBS"/ 2>/dev/null

mod_deb=$(ls "$work"/src/syslog-ng-mod-patterndb_*.deb 2>/dev/null | head -1)
tool_deb=$(ls "$work"/src/patterndb_*.deb 2>/dev/null | head -1)
changes=$(ls "$work"/src/patterndb_*.changes 2>/dev/null | head -1)
check "both binary packages were built" test -n "$mod_deb" -a -n "$tool_deb" -a -n "$changes"
if [ -z "$mod_deb" ] || [ -z "$tool_deb" ]; then
  diag "no packages to test further"
  done_testing; exit
fi

# --- 2. what is in them -------------------------------------------------------
dpkg-deb -c "$mod_deb" | awk '{print $6}' | sed 's|^\./|/|' >"$work/mod.files"
dpkg-deb -c "$tool_deb" | awk '{print $6}' | sed 's|^\./|/|' >"$work/tool.files"
moduledir=$(pkg-config --variable=moduledir syslog-ng)
check "the module is in syslog-ng's module directory ($moduledir)" \
  grep -qx "$moduledir/libpatterndb.so" "$work/mod.files"
check "the SCL snippet is in the module package" \
  grep -q '^/usr/share/syslog-ng/include/scl/.*[^/]$' "$work/mod.files"
check "an example configuration is in the module package" \
  grep -q '^/usr/share/doc/syslog-ng-mod-patterndb/examples/.*\.conf$' "$work/mod.files"
check "the tool and its man page are in the patterndb package" \
  grep -qx '/usr/bin/patterndb' "$work/tool.files"
check "the man page is in the patterndb package" \
  grep -qx '/usr/share/man/man1/patterndb.1.gz' "$work/tool.files"
check "the pattern library is in the patterndb package" \
  grep -q '^/usr/share/patterndb/patterns/.*\.xml$' "$work/tool.files"
check "the XML schema is in the patterndb package" \
  grep -q '^/usr/share/patterndb/xsd/.*\.xsd$' "$work/tool.files"
clash=$(cat "$work/mod.files" "$work/tool.files" |
  grep -E '^/usr/bin/pdbtool$|^/usr/bin/update-patterndb$|^/usr/share/syslog-ng/xsd/|^/etc/syslog-ng/patterndb\.d/?$|\.la$' || true)
check_eq "no file that syslog-ng-core owns, no libtool archive" "" "$clash"
owned=""
while read -r f; do
  case $f in */) continue ;; esac
  [ -e "$f" ] || continue
  owner=$(dpkg -S "$f" 2>/dev/null | cut -d: -f1)
  [ -n "$owner" ] && owned="$owned $f($owner)"
done <<EOF
$(cat "$work/mod.files" "$work/tool.files")
EOF
check_eq "no file of ours is owned by an installed package" "" "$owned"

depends=$(dpkg-deb -f "$mod_deb" Depends)
diag "syslog-ng-mod-patterndb Depends: $depends"
sng_version=$(pkg-config --modversion syslog-ng)
sng_next=$(echo "$sng_version" | awk -F. '{print $1 "." $2 + 1}')
check "the module depends on syslog-ng-core >= $sng_version~" \
  grep -qF "syslog-ng-core (>= $sng_version~)" <<<"$depends"
check "the module depends on syslog-ng-core << $sng_next~" \
  grep -qF "syslog-ng-core (<< $sng_next~)" <<<"$depends"
check "the module depends on the patterndb package of the same version" \
  grep -qE "(^|, )patterndb \(= [^)]+\)" <<<"$depends"
tool_depends=$(dpkg-deb -f "$tool_deb" Depends)
check "the tool does not depend on syslog-ng" bash -c "! grep -q syslog-ng <<<'$tool_depends'"
if dpkg-deb -x "$mod_deb" "$work/x" && [ -f "$work/x$moduledir/libpatterndb.so" ]; then
  readelf -d "$work/x$moduledir/libpatterndb.so" >"$work/dynamic"
  check "the module has no RPATH/RUNPATH" bash -c "! grep -qE 'RPATH|RUNPATH' '$work/dynamic'"
  check "the module is linked with BIND_NOW (hardening)" grep -q 'BIND_NOW\|FLAGS_1.*NOW' "$work/dynamic"
fi

# --- 3. lintian -------------------------------------------------------------
if lintian --fail-on error,warning --info --display-info "$changes" >"$work/lintian.log" 2>&1; then
  ok "lintian: no errors or warnings"
else
  not_ok "lintian: no errors or warnings"
fi
grep -v '^N:' "$work/lintian.log" | sed 's/^/# /'

# --- 4. install and use -----------------------------------------------------
if apt-get install -y -q "$mod_deb" "$tool_deb" >"$work/install.log" 2>&1; then
  ok "apt-get install ./syslog-ng-mod-patterndb ./patterndb"
else
  not_ok "apt-get install ./syslog-ng-mod-patterndb ./patterndb"; show_log "$work/install.log"
fi
# The autopkgtests, run on this machine as autopkgtest's null runner would.
for t in module-loads daemon-classifies tool; do
  mkdir -p "$work/adt-$t"
  if AUTOPKGTEST_TMP="$work/adt-$t" sh "$src/debian/tests/$t" >"$work/adt-$t.log" 2>&1; then
    ok "installed-package test debian/tests/$t"
  else
    not_ok "installed-package test debian/tests/$t"; show_log "$work/adt-$t.log" 60
  fi
done

# --- 5. purge ---------------------------------------------------------------
if purge_ours; then ok "apt-get purge"; else not_ok "apt-get purge"; show_log "$work/purge.log"; fi
left=""
for p in $our_packages; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'installed\|config-files' && left="$left $p"; done
for f in "$moduledir/libpatterndb.so" /usr/bin/patterndb /usr/share/patterndb; do [ -e "$f" ] && left="$left $f"; done
check_eq "nothing of the packages is left after purge" "" "$left"
check "syslog-ng-core is still installed" \
  bash -c "dpkg-query -W -f='\${Status}' syslog-ng-core 2>/dev/null | grep -q 'install ok installed'"

# --- 6. make distcheck, and a source package from its tarball ---------------
if [ -n "${PDB_SKIP_DISTCHECK:-}" ]; then
  diag "PDB_SKIP_DISTCHECK is set: no make distcheck and no source package"
  done_testing; exit
fi
dist=$work/dist
copy_tree "$dist/tree"
(cd "$dist/tree" && find . ! -type d | sed 's|^\./||' | sort) >"$work/tree.list"
# As root, an install rule with an absolute path (e.g. syslog-ng's moduledir
# or scldir taken as is) would write into the system and still "pass".
touch "$work/before-distcheck"
if (cd "$dist/tree" && ./autogen.sh && mkdir -p _build && cd _build &&
      ../configure -q && make -j"$jobs" distcheck TESTS='$(DISTCHECK_TESTS)') >"$work/distcheck.log" 2>&1; then
  ok "make distcheck (the suites of DISTCHECK_TESTS from the tarball)"
else
  not_ok "make distcheck"
  grep -E '^(FAIL|ERROR|XPASS):|No rule to make target|not found|cannot' "$work/distcheck.log" | head -40 | sed 's/^/# /'
  show_log "$work/distcheck.log" 25
fi
leaked=$(find /usr/lib/syslog-ng /usr/share/syslog-ng /usr/share/patterndb /usr/local /usr/bin/patterndb \
  -newer "$work/before-distcheck" ! -type d 2>/dev/null | head -5)
check_eq "make distcheck installed nothing outside its build directory" "" "$leaked"
tarball=$(ls "$dist"/tree/_build/patterndb-*.tar.xz 2>/dev/null | head -1)
if [ -n "$tarball" ]; then
  # Every file of the copied tree (listed before autogen.sh) is in the
  # tarball, but for what is not upstream's: debian/ (the packaging), .ci/
  # (the CI entry), .gitignore and m4/.keep. distcheck runs only a subset
  # of the suites (Makefile.am, DISTCHECK_TESTS), so this is what catches
  # test data left out of EXTRA_DIST.
  tar -tJf "$tarball" | sed 's|^[^/]*/||' | sort >"$work/tarball.list"
  not_in_tarball=$(comm -23 "$work/tree.list" "$work/tarball.list" |
    grep -vE '^(debian/|\.ci/|\.gitignore$|m4/\.keep$)' | head -10 | tr '\n' ' ')
  check_eq "the make dist tarball holds every file of the tree (debian/, .ci/ aside)" "" "$not_in_tarball"
  upver=$(basename "$tarball" .tar.xz); upver=${upver#patterndb-}
  mkdir -p "$dist/srcpkg"
  cp "$tarball" "$dist/srcpkg/patterndb_$upver.orig.tar.xz"
  tar -C "$dist/srcpkg" -xJf "$tarball"
  # debian/ is not part of the upstream tarball; take it from the clean copy.
  rm -rf "$dist/srcpkg/patterndb-$upver/debian"
  cp -a "$dist/tree/debian" "$dist/srcpkg/patterndb-$upver/debian"
  if (cd "$dist/srcpkg" && dpkg-source -b "patterndb-$upver") >"$work/source.log" 2>&1; then
    ok "dpkg-source -b on the make dist tarball (3.0 quilt)"
    dsc=$(ls "$dist"/srcpkg/patterndb_*.dsc | head -1)
    if lintian --fail-on error,warning "$dsc" >"$work/lintian-source.log" 2>&1; then
      ok "lintian on the source package: no errors or warnings"
    else
      not_ok "lintian on the source package: no errors or warnings"
    fi
    grep -v '^N:\|root privileges' "$work/lintian-source.log" | sed 's/^/# /'
  else
    not_ok "dpkg-source -b on the make dist tarball (3.0 quilt)"; show_log "$work/source.log"
  fi
else
  not_ok "dpkg-source -b on the make dist tarball (no tarball)"
fi

done_testing

#!/bin/bash
# tests/fuzz/build.sh: builds the libFuzzer harnesses with clang into
# $top_builddir/tests/fuzz/ (not through libtool: libFuzzer needs the whole
# program, harness and library code, compiled with -fsanitize=fuzzer).
# Usage: build.sh [harness...]; prints nothing on success. Needs clang and
# libclang-rt-14-dev. Rebuilds only when a source is newer than the binary.
set -e
: "${top_srcdir:?}" "${top_builddir:?}"
: "${FUZZ_CC:=clang}"
out="$top_builddir/tests/fuzz"
mkdir -p "$out"
src="$top_srcdir/modules/patterndb"
# the engine and db layers' sources, as the build fragments list them (one list)
core=$(awk '/^libpdb(engine|db)_la_SOURCES/ { on = 1 }
            on { for (i = 1; i <= NF; i++) if ($i ~ /\.c$/) print "'"$top_srcdir"'/" $i }
            on && !/\\$/ { on = 0 }' \
       "$src/engine/engine.am" "$src/db/db.am")
[ -n "$core" ] || { echo "build.sh: no sources found in engine.am and db.am" >&2; exit 1; }
# shellcheck disable=SC2046
flags="-g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined
       -fno-sanitize-recover=undefined -std=gnu11 -w
       -I$src -I$top_builddir
       -DPDB_FUZZ_SRCDIR=\"$top_srcdir\"
       -DPDB_XSD_INSTALL_DIR=\"/nonexistent\"
       -DPDB_XSD_SOURCE_DIR=\"$top_srcdir/contrib/xsd\"
       -DPDB_SYSLOG_NG_XSD_DIR=\"/usr/share/syslog-ng/xsd\"
       $(pkg-config --cflags glib-2.0 libxml-2.0 libpcre2-8)"
libs="$(pkg-config --libs glib-2.0 libxml-2.0 libpcre2-8)"
harnesses=${*:-"match load syslog-line"}
for h in $harnesses; do
  case $h in
    syslog-line) sources="$src/tool/syslog-line.c" ;;
    *) sources=$core ;;
  esac
  bin="$out/fuzz-$h"
  stale=no
  [ -x "$bin" ] || stale=yes
  for f in "$top_srcdir/tests/fuzz/fuzz-$h.c" $sources; do
    [ "$f" -nt "$bin" ] && stale=yes
  done
  [ $stale = no ] && continue
  # shellcheck disable=SC2086
  $FUZZ_CC $flags -o "$bin.tmp" "$top_srcdir/tests/fuzz/fuzz-$h.c" $sources $libs
  mv "$bin.tmp" "$bin"
done

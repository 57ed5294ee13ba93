#!/bin/bash
# contrib/demo.sh: the README's main job, start to finish.
#
# Installs what it needs (contrib/install-deps.sh: the build and the daemon,
# not the test tools), builds the project in build-demo/, then runs the real syslog-ng (Debian's syslog-ng-core) with
# our module and the bundled pattern library (contrib/patterns/) on a
# sample log made of the Linux and OpenSSH syslog lines of tests/data/loghub. It writes one file
# per class and an unknown.log, prints a summary (counts per class, a few
# classified lines with their extracted values, the most frequent unknown
# messages: artificial ignorance) and stops the daemon.
#
# The machine's own syslog-ng is left alone: our daemon has its own
# config, persist, pid and control files, and is stopped by its PID.
#
#   contrib/demo.sh [LINES]     LINES from each sample log (default 400)
#
# Environment: PDB_DEMO_BUILDDIR=DIR uses an existing build (skips the
# install and build steps); SYSLOG_NG_BIN overrides /usr/sbin/syslog-ng.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
lines=${1:-400}
syslog_ng=${SYSLOG_NG_BIN:-/usr/sbin/syslog-ng}

say() { printf '\n== %s\n' "$*"; }

if [ -n "${PDB_DEMO_BUILDDIR:-}" ]; then
  build=$PDB_DEMO_BUILDDIR
else
  say "Installing dependencies (contrib/install-deps.sh)"
  "$top/contrib/install-deps.sh"
  build="$top/build-demo"
  say "Building in $build"
  (cd "$top" && ./autogen.sh >/dev/null 2>&1) || { (cd "$top" && ./autogen.sh); exit 1; }
  mkdir -p "$build"
  (cd "$build" && "$top/configure" -q >configure.out 2>&1) || { cat "$build/configure.out"; exit 1; }
  make -C "$build" -s -j"$(nproc 2>/dev/null || echo 2)" >"$build/make.out" 2>&1 \
    || { tail -40 "$build/make.out"; exit 1; }
fi
module_dir="$build/.libs"
[ -f "$module_dir/libpatterndb.so" ] || { echo "demo: $module_dir/libpatterndb.so was not built" >&2; exit 1; }
system_modules=$(pkg-config --variable=moduledir syslog-ng 2>/dev/null || echo /usr/lib/syslog-ng/3.38)

patterns="$top/contrib/patterns"

out="$build/demo"
rm -rf "$out"
mkdir -p "$out/classified"
# The sample: the first LINES lines of Loghub's Linux and OpenSSH logs, as
# they were written (CRLF line ends turned into LF).
for sample in Linux OpenSSH; do
  head -n "$lines" "$top/tests/data/loghub/$sample/${sample}_2k.log" | tr -d '\r'
done >"$out/sample.log"
total=$(wc -l <"$out/sample.log")

cat >"$out/syslog-ng.conf" <<CONF
@version: 3.38
# Written by contrib/demo.sh. Our module provides db-parser():
@module patterndb
options { stats-freq(0); keep-hostname(yes); };

source s_sample { file("$out/sample.log" follow-freq(1)); };
parser p_classify { db-parser(file("$patterns")); };

destination d_all { file("$out/all.log"); };
destination d_by_class {
  file("$out/classified/\${.classifier.class}.log" template("\${HOST} \${PROGRAM}[\${PID}]: \${MSG}\n"));
};
destination d_values {
  file("$out/values.log"
       template("\${.classifier.class}|\${.classifier.rule_id}|\$(format-json --no-cast --scope nv-pairs --exclude SOURCE --exclude PROGRAM --exclude PID --exclude MESSAGE --exclude LEGACY_MSGHDR --exclude HOST* --exclude FILE_NAME --exclude .classifier.*)|\${PROGRAM}: \${MSG}\n"));
};
destination d_unknown { file("$out/unknown.log" template("\${PROGRAM}: \${MSG}\n")); };

log {
  source(s_sample);
  parser(p_classify);
  destination(d_all);
  # unknown: the program has rules but none matched, or no rules at all
  if (tags(".classifier.unknown") or not match("." value(".classifier.class"))) {
    destination(d_unknown);
  } else {
    destination(d_by_class);
    destination(d_values);
  };
};
CONF

env_asan=""
if readelf -d "$module_dir/libpatterndb.so" 2>/dev/null | grep -q libasan; then
  env_asan="LD_PRELOAD=$(gcc -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0"
fi
run_syslog_ng() { env $env_asan "$syslog_ng" --no-caps --module-path="$module_dir:$system_modules" "$@"; }

say "syslog-ng $("$syslog_ng" --version 2>/dev/null | sed -n 's/^Installer-Version: *//p') with $module_dir/libpatterndb.so"
echo "   patterns: $patterns"
echo "   config:   $out/syslog-ng.conf"
echo "   input:    $out/sample.log ($total lines)"
run_syslog_ng -s -f "$out/syslog-ng.conf"

pid=""
cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    ( sleep 10; kill -KILL "$pid" 2>/dev/null ) &
    local watchdog=$!
    wait "$pid" 2>/dev/null || true
    kill "$watchdog" 2>/dev/null || true
    wait "$watchdog" 2>/dev/null || true
  fi
}
trap cleanup EXIT
# Started directly (not through the function) so that $! is syslog-ng itself
# (env execs it) and the cleanup can stop it by PID.
env $env_asan "$syslog_ng" --no-caps --module-path="$module_dir:$system_modules" \
  -F -e -f "$out/syslog-ng.conf" --persist-file="$out/persist" \
  --pidfile="$out/pid" --control="$out/ctl" >"$out/syslog-ng.out" 2>&1 &
pid=$!
for _ in $(seq 1 600); do
  [ "$(cat "$out/all.log" 2>/dev/null | wc -l)" -ge "$total" ] && break
  kill -0 "$pid" 2>/dev/null || { echo "demo: syslog-ng stopped:" >&2; cat "$out/syslog-ng.out" >&2; exit 1; }
  sleep 0.1
done
cleanup
pid=""
got=$(wc -l <"$out/all.log")
[ "$got" -eq "$total" ] || { echo "demo: only $got of $total messages came out" >&2; cat "$out/syslog-ng.out" >&2; exit 1; }

say "Messages per class ($total in, written to $out/classified/<class>.log)"
for f in "$out"/classified/*.log; do
  [ -f "$f" ] || continue
  printf '%7d  %s\n' "$(wc -l <"$f")" "$(basename "$f" .log)"
done | sort -rn
printf '%7d  %s\n' "$(wc -l <"$out/unknown.log" 2>/dev/null || echo 0)" "unknown ($out/unknown.log)"

say "Classified lines with extracted values (one per rule)"
awk -F'|' '!seen[$2]++ { printf "  %-13s %s\n      %s\n      values: %s\n", $1, $2, $4, $3 }' "$out/values.log" | head -n 36

say "Artificial ignorance: the unknown messages, most frequent shapes first (digits as N)"
if [ -s "$out/unknown.log" ]; then
  sed 's/[0-9][0-9]*/N/g' "$out/unknown.log" | sort | uniq -c | sort -rn | head -n 15
else
  echo "  (none: every message was recognised)"
fi
echo
echo "Done. Files are in $out/ (the daemon has been stopped)."

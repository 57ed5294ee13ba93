#!/bin/bash
# tests/differential/check-public-dbs.sh: an independent differential check
# of `patterndb` and of our db-parser() module against Debian's pdbtool 3.38
# and stock syslog-ng 3.38 db-parser(), on pattern databases that we did not
# write (public ones: the syslog-ng pattern library, configuration-management
# fixtures...).
#
# Not part of `make check`: the databases are not ours to ship, so they are
# fetched by hand into a directory outside the tree and this script is run
# on that directory:
#
#   tests/differential/check-public-dbs.sh DIR [OUTDIR]
#
#   DIR      searched recursively for *.xml and *.pdb; F.messages next to
#            a database F adds "program<TAB>message" lines to its examples
#            (real log lines for a public database that has no examples)
#   OUTDIR   where the per-case outputs and diffs go (default: a temp dir,
#            printed at the end, kept)
#
# Environment: PATTERNDB (default build-werror/patterndb next to this tree),
# PDBTOOL (/usr/bin/pdbtool), SYSLOG_NG_BIN (/usr/sbin/syslog-ng),
# OUR_MODULE_DIR (the directory holding our libpatterndb.so, default
# build-werror/.libs), SYSTEM_MODULE_DIR (syslog-ng's own modules),
# NO_DAEMON=1 skips the daemon part. With a sanitizer build (PATTERNDB and
# OUR_MODULE_DIR from build-asan) the daemon gets libasan preloaded, and a
# sanitizer report in the tool changes its exit status (a divergence).
#
# For every database:
#   load    `match -p F -P x -M x`: both tools load it or both refuse it
#           (pdbtool exits 0 either way: loaded means it printed a record)
#   test    `test F`: standard output and exit status identical
#   match   each example message, and mutations of it (drop the middle
#           token, change the first number, append text, swap the first two
#           words, cut it in half, break its first IPv4 address, a leading
#           space, the first word's case swapped, the middle word twice),
#           with -P program -M message: the NAME=value output and the exit
#           status identical (the PID of pdbtool's own error records
#           masked); a database that does not load exits 2 here and 0 in
#           pdbtool (documented in README): counted as agreeing, reported
#           apart
#   stream  all those messages of a file in order, as RFC 3164 lines,
#           through one `match -f` run of each tool (correlation carries
#           over from message to message): the whole output identical
#   daemon  the same messages, sent as RFC 3164 lines to one daemon with
#           syslog-ng's own db-parser() (its libdbparser.so alone in the
#           module path) and to one with `@module patterndb`: whether it
#           starts, and per message (and per message an action emitted)
#           the class, rule id, MESSAGE, name-value pairs (as JSON) and the
#           set of tags must be identical; a database that pdbtool cannot
#           load either starts stock syslog-ng (classifying nothing) but
#           not ours: documented in README, reported apart
# The last lines print the counts and agreement percentages; the exit
# status is 0 when everything agreed, 1 otherwise.
set -u

usage() { echo "usage: $0 DIR [OUTDIR]" >&2; exit 2; }
[ $# -ge 1 ] && [ -d "$1" ] || usage
DBDIR=$(cd "$1" && pwd)
OUT=${2:-$(mktemp -d /tmp/check-public-dbs.XXXXXX)}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
: "${PATTERNDB:=$top/build-werror/patterndb}"
: "${PDBTOOL:=/usr/bin/pdbtool}"
: "${SYSLOG_NG_BIN:=/usr/sbin/syslog-ng}"
: "${OUR_MODULE_DIR:=$(dirname "$PATTERNDB")/.libs}"
: "${SYSTEM_MODULE_DIR:=$(pkg-config --variable=moduledir syslog-ng 2>/dev/null || echo /usr/lib/syslog-ng/3.38)}"
[ -n "$SYSTEM_MODULE_DIR" ] || SYSTEM_MODULE_DIR=/usr/lib/syslog-ng/3.38
for tool in "$PATTERNDB" "$PDBTOOL"; do
  [ -x "$tool" ] || { echo "$0: not executable: $tool" >&2; exit 2; }
done

n_files=0; load_agree=0
n_test=0; test_agree=0
n_ex=0; ex_agree=0; n_mut=0; mut_agree=0; n_documented=0
n_stream=0; stream_agree=0
n_dfiles=0; dstart_agree=0; dstart_documented=0; n_dmsg=0; dmsg_agree=0
DAEMON_PIDS=""
trap 'for p in $DAEMON_PIDS; do kill "$p" 2>/dev/null; done' EXIT

mask_pid() { sed -e '/^PROGRAM=syslog-ng$/{n;s/^PID=[0-9]*$/PID=<pid>/}'; }

# cases FILE: one "kind<TAB>program<TAB>message" line per example and per
# mutation of it (kind: example, drop, number, append, swap).
cases() {
  python3 - "$1" <<'PY'
import re, sys, xml.etree.ElementTree as ET
try:
    root = ET.parse(sys.argv[1]).getroot()
except ET.ParseError:
    sys.exit(0)
seen = set()
def emit(kind, prog, msg):
    # an example may repeat (correlation counts it twice); a mutation that
    # equals another case is left out
    if "\n" in msg or "\t" in msg or (kind != "example" and (prog, msg) in seen):
        return
    seen.add((prog, msg))
    print(f"{kind}\t{prog}\t{msg}")
examples = [(tm.get("program", ""), tm.text or "") for tm in root.iter("test_message")]
try:
    with open(sys.argv[1] + ".messages", encoding="utf-8") as extra:
        examples += [tuple(l.rstrip("\n").split("\t", 1)) for l in extra if "\t" in l]
except OSError:
    pass
for prog, msg in examples:
    emit("example", prog, msg)
    words = msg.split(" ")
    if len(words) > 1:
        emit("drop", prog, " ".join(words[:len(words) // 2] + words[len(words) // 2 + 1:]))
    m = re.search(r"\d+", msg)
    if m:
        emit("number", prog, msg[:m.start()] + str(int(m.group()) + 17) + msg[m.end():])
    emit("append", prog, msg + " and more")
    if len(words) > 1:
        emit("swap", prog, " ".join([words[1], words[0]] + words[2:]))
    emit("truncate", prog, msg[:len(msg) // 2])
    m = re.search(r"\b\d{1,3}(\.\d{1,3}){3}\b", msg)
    if m:
        emit("ip", prog, msg[:m.start()] + "256.1.1" + msg[m.end():])
    emit("lead", prog, " " + msg)
    emit("case", prog, words[0].swapcase() + msg[len(words[0]):])
    if len(words) > 2:
        k = len(words) // 2
        emit("dup", prog, " ".join(words[:k + 1] + words[k:]))
PY
}

# check_file F: load, test and match; appends the cases to $OUT/<id>/cases.
check_file() {
  local f=$1 id=$2 dir=$OUT/$2 rp ro
  mkdir -p "$dir"
  n_files=$((n_files + 1))
  "$PDBTOOL" match -p "$f" -P x -M x >"$dir/load.ref" 2>&1; rp=$?
  "$PATTERNDB" match -p "$f" -P x -M x >"$dir/load.ours" 2>&1; ro=$?
  # pdbtool exits 0 on a database it cannot load: loaded means it matched
  rp=$(grep -c '^MESSAGE=' "$dir/load.ref"); ro=$(grep -c '^MESSAGE=' "$dir/load.ours")
  LOADED_REF=$rp
  if [ "$rp" = "$ro" ]; then
    load_agree=$((load_agree + 1)); echo "  load: agree (loaded: $rp)"
  else
    echo "  load: DIFFER (loaded: pdbtool $rp, ours $ro)"; echo "load $f" >>"$OUT/divergences"
  fi
  n_test=$((n_test + 1))
  "$PDBTOOL" test "$f" >"$dir/test.ref" 2>"$dir/test.ref.err"; rp=$?
  "$PATTERNDB" test "$f" >"$dir/test.ours" 2>"$dir/test.ours.err"; ro=$?
  if [ "$rp" = "$ro" ] && cmp -s "$dir/test.ref" "$dir/test.ours"; then
    test_agree=$((test_agree + 1)); echo "  test: agree (exit $rp)"
  else
    echo "  test: DIFFER (pdbtool $rp, ours $ro)"; echo "test $f" >>"$OUT/divergences"
    diff "$dir/test.ref" "$dir/test.ours" >"$dir/test.diff"
  fi
  cases "$f" >"$dir/cases"
  local kind prog msg i=0 same
  while IFS=$'\t' read -r kind prog msg; do
    i=$((i + 1))
    "$PDBTOOL" match -p "$f" -P "$prog" -M "$msg" 2>/dev/null | mask_pid >"$dir/m$i.ref"
    rp=${PIPESTATUS[0]}
    "$PATTERNDB" match -p "$f" -P "$prog" -M "$msg" 2>/dev/null | mask_pid >"$dir/m$i.ours"
    ro=${PIPESTATUS[0]}
    same=0
    [ "$rp" = "$ro" ] && cmp -s "$dir/m$i.ref" "$dir/m$i.ours" && same=1
    # documented (README, "Load and usage errors"): a database that does not
    # load exits 2 here, 0 in pdbtool; both print nothing on stdout
    if [ $same = 0 ] && [ "$rp" = 0 ] && [ "$ro" = 2 ] && [ ! -s "$dir/m$i.ref" ] && [ ! -s "$dir/m$i.ours" ]; then
      n_documented=$((n_documented + 1)); same=1
    fi
    if [ "$kind" = example ]; then
      n_ex=$((n_ex + 1)); ex_agree=$((ex_agree + same))
    else
      n_mut=$((n_mut + 1)); mut_agree=$((mut_agree + same))
    fi
    if [ $same = 0 ]; then
      printf 'match %s m%d %s [%s] %s\n' "$f" "$i" "$kind" "$prog" "$msg" >>"$OUT/divergences"
      diff "$dir/m$i.ref" "$dir/m$i.ours" >"$dir/m$i.diff"
    fi
  done <"$dir/cases"
  check_stream "$f" "$dir"
}

# check_stream F DIR: all cases of F in order as RFC 3164 lines through one
# `match -f` run of each tool (correlation: contexts, actions, @N references
# carry from message to message); the whole output must be identical.
check_stream() {
  local f=$1 dir=$2
  [ -s "$dir/cases" ] || return
  n_stream=$((n_stream + 1))
  syslog_lines <"$dir/cases" >"$dir/stream.log"
  "$PDBTOOL" match -p "$f" -f "$dir/stream.log" 2>/dev/null | mask_pid >"$dir/stream.ref"
  "$PATTERNDB" match -p "$f" -f "$dir/stream.log" 2>/dev/null | mask_pid >"$dir/stream.ours"
  if cmp -s "$dir/stream.ref" "$dir/stream.ours"; then
    stream_agree=$((stream_agree + 1))
  else
    echo "  stream: DIFFER"; echo "stream $f" >>"$OUT/divergences"
    diff "$dir/stream.ref" "$dir/stream.ours" >"$dir/stream.diff"
  fi
}

# syslog_lines: "kind<TAB>program<TAB>message" on stdin, RFC 3164 lines out.
syslog_lines() {
  python3 -c '
import sys
for line in sys.stdin.buffer:
    kind, prog, msg = line.rstrip(b"\n").split(b"\t", 2)
    sys.stdout.buffer.write(b"<13>Dec  3 10:00:00 host " + prog + b"[1]: " + msg + b"\n")'
}

OUT_TEMPLATE='class=${.classifier.class} id=${.classifier.rule_id} msg=${MESSAGE} | $(format-json --scope nv-pairs --scope dot-nv-pairs --exclude MESSAGE --exclude HOST --exclude PROGRAM --exclude PID --exclude SOURCE --exclude LEGACY_MSGHDR --exclude .unix.* --exclude HOST_FROM) tags=${TAGS}\n'

# run_daemon FLAVOUR F DIR: starts syslog-ng with F in db-parser(), sends the
# cases, writes DIR/FLAVOUR.out (one line per case) or nothing when the
# daemon did not start; returns 1 then.
run_daemon() {
  local flavour=$1 f=$2 dir=$3/$1 modpath pid n
  mkdir -p "$dir"
  if [ "$flavour" = ref ]; then modpath=$SYSTEM_MODULE_DIR; else modpath=$OUR_MODULE_DIR:$SYSTEM_MODULE_DIR; fi
  {
    echo '@version: 3.38'
    [ "$flavour" = ours ] && echo '@module patterndb'
    cat <<CONF
options { keep-hostname(yes); stats-freq(0); };
source s { unix-stream("$dir/sock" flags(expect-hostname)); };
parser p { db-parser(file("$f")); };
destination d { file("$dir/out.log" template("$OUT_TEMPLATE")); };
log { source(s); parser(p); destination(d); };
CONF
  } >"$dir/syslog-ng.conf"
  : >"$dir/stderr.log"
  rm -f "$dir/out.log" "$dir/persist"
  local preload=""
  if [ "$flavour" = ours ] && readelf -d "$OUR_MODULE_DIR/libpatterndb.so" 2>/dev/null | grep -q libasan; then
    preload="LD_PRELOAD=$(gcc -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0"
  fi
  env $preload "$SYSLOG_NG_BIN" -F -e --no-caps -f "$dir/syslog-ng.conf" --persist-file="$dir/persist" \
    --pidfile="$dir/pid" --control="$dir/ctl" --module-path="$modpath" \
    >/dev/null 2>>"$dir/stderr.log" &
  pid=$!
  DAEMON_PIDS="$DAEMON_PIDS $pid"
  for _ in $(seq 100); do
    grep -q 'syslog-ng starting up' "$dir/stderr.log" && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if ! kill -0 "$pid" 2>/dev/null || ! grep -q 'syslog-ng starting up' "$dir/stderr.log"; then
    kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
    return 1
  fi
  syslog_lines <"$3/cases" | python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
s.sendall(sys.stdin.buffer.read())
s.close()' "$dir/sock"
  n=$(wc -l <"$3/cases")
  for _ in $(seq 100); do
    [ -f "$dir/out.log" ] && [ "$(wc -l <"$dir/out.log")" -ge "$n" ] && break
    sleep 0.1
  done
  sleep 0.3 # messages that actions emit come after the last case
  kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
  touch "$dir/out.log"
  # tags compared as sets (3.38 numbers the class tags at load time)
  python3 - "$dir/out.log" >"$3/$flavour.out" <<'PY'
import sys
for line in open(sys.argv[1], encoding="utf-8", errors="surrogateescape"):
    head, _, tags = line.rstrip("\n").rpartition(" tags=")
    print(head + " tags=" + ",".join(sorted(t for t in tags.split(",") if t)))
PY
  return 0
}

check_daemon() {
  local f=$1 dir=$OUT/$2 rs os n i
  [ -x "$SYSLOG_NG_BIN" ] && [ -f "$SYSTEM_MODULE_DIR/libdbparser.so" ] || return
  [ -f "$OUR_MODULE_DIR/libpatterndb.so" ] || return
  n_dfiles=$((n_dfiles + 1))
  run_daemon ref "$f" "$dir"; rs=$?
  run_daemon ours "$f" "$dir"; os=$?
  if [ "$rs" = "$os" ]; then
    dstart_agree=$((dstart_agree + 1))
  elif [ "$rs" = 0 ] && [ "${LOADED_REF:-1}" = 0 ]; then
    # documented (README): a database that 3.38 cannot load either is a
    # startup error here; stock db-parser() starts and classifies nothing
    dstart_documented=$((dstart_documented + 1))
    echo "  daemon: documented difference: 3.38 cannot load it either; stock starts, ours refuses"
    return
  else
    echo "  daemon: start DIFFERS (stock $rs, ours $os)"; echo "daemon-start $f" >>"$OUT/divergences"
  fi
  [ "$rs" = 0 ] || return
  n=$(wc -l <"$dir/cases")
  n_dmsg=$((n_dmsg + n))
  [ "$os" = 0 ] || { echo "  daemon: ours did not start, $n messages lost"; return; }
  local same=0
  same=$(python3 - "$dir/ref.out" "$dir/ours.out" "$dir/cases" "$f" "$OUT/divergences" <<'PY'
import sys
ref = open(sys.argv[1], errors="surrogateescape").read().splitlines()
ours = open(sys.argv[2], errors="surrogateescape").read().splitlines()
cases = open(sys.argv[3], errors="surrogateescape").read().splitlines()
same = 0
with open(sys.argv[5], "a", errors="surrogateescape") as div:
    # one line per case, plus the messages that actions emitted
    for i in range(max(len(cases), len(ref), len(ours))):
        case = cases[i] if i < len(cases) else "(emitted by an action)"
        r = ref[i] if i < len(ref) else "<missing>"
        o = ours[i] if i < len(ours) else "<missing>"
        if r == o:
            same += 1
        else:
            div.write(f"daemon {sys.argv[4]} {case}\n  stock: {r}\n  ours:  {o}\n")
print(same, max(len(cases), len(ref), len(ours)))
PY
)
  set -- $same
  same=$1
  n_dmsg=$((n_dmsg + $2 - n))
  dmsg_agree=$((dmsg_agree + same))
  echo "  daemon: $same of $2 messages agree ($n sent)"
}

pct() { if [ "$2" -gt 0 ]; then awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f%%", 100 * a / b }'; else echo "n/a"; fi; }

: >"$OUT/divergences"
while IFS= read -r f; do
  id=$(printf '%s' "${f#"$DBDIR"/}" | tr '/' '_')
  echo "$f"
  check_file "$f" "$id"
  [ -n "${NO_DAEMON:-}" ] || check_daemon "$f" "$id"
done < <(find -L "$DBDIR" -type f \( -name '*.xml' -o -name '*.pdb' \) | sort)

tool_total=$((n_files + n_test + n_ex + n_mut + n_stream))
tool_agree=$((load_agree + test_agree + ex_agree + mut_agree + stream_agree))
echo
echo "files: $n_files; load agrees on $load_agree ($(pct $load_agree $n_files))"
echo "test: $test_agree of $n_test agree ($(pct $test_agree $n_test))"
echo "match examples: $ex_agree of $n_ex agree ($(pct $ex_agree $n_ex))"
echo "match mutated: $mut_agree of $n_mut agree ($(pct $mut_agree $n_mut))"
echo "match -f stream (all cases of a file in order): $stream_agree of $n_stream files agree ($(pct $stream_agree $n_stream))"
echo "tool overall: $tool_agree of $tool_total ($(pct $tool_agree $tool_total)); of the agreeing matches, $n_documented differ only by the documented exit status 2 of a database that does not load"
echo "daemon: start agrees on $dstart_agree of $n_dfiles files ($dstart_documented more: the documented startup error on a database 3.38 cannot load either); messages: $dmsg_agree of $n_dmsg agree ($(pct $dmsg_agree $n_dmsg))"
echo "outputs and diffs: $OUT (divergences listed in $OUT/divergences)"
[ "$tool_agree" = "$tool_total" ] && [ "$dmsg_agree" = "$n_dmsg" ] && [ $((dstart_agree + dstart_documented)) = "$n_dfiles" ]

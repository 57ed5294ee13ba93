#!/bin/bash
# tests/perf/test-match-parallel.sh: bulk classification on several threads
# (tool/match-parallel.c) prints exactly what pdbtool 3.38 prints, in the
# same order, whatever the number of threads and the block size: on
# generated and hand-written databases, on pathological input (lines longer
# than 64 KiB, NULs, CRs, headers 3.38 cannot parse, which go back to the
# general path in their place), from a file and from a pipe. Also: how
# match -f cuts lines (CRs before NUL, cut pieces), a read error, bad
# --threads values, and paths that must stay on one thread.
. "$top_srcdir/tests/lib.sh"

setup_vs_pdbtool

tmpl='${.classifier.rule_id}|${.classifier.class}\n'

# compare DB LOG LABEL: pdbtool vs ours with 1, 2 and 3 threads and small blocks
compare() {
  local db=$1 log=$2 label=$3 bad=""
  "$PDBTOOL" match -p "$db" -f "$log" -T "$tmpl" 2>/dev/null | sed 's/^PID=[0-9]*$/PID=N/' > "$T/ref"
  for run in "--threads 1" "--threads 2" "--threads 3 --block-size 1" "--threads 2 --block-size 700" \
             "--threads 4 --block-size 70000"; do
    # shellcheck disable=SC2086
    "$PATTERNDB" match $run -p "$db" -f "$log" -T "$tmpl" 2>"$T/err" | sed 's/^PID=[0-9]*$/PID=N/' > "$T/ours"
    if ! cmp -s "$T/ref" "$T/ours" || grep -Eq 'AddressSanitizer|runtime error|CRITICAL' "$T/err"; then
      bad="$bad [$run]"
      diff "$T/ref" "$T/ours" | head -6 | while IFS= read -r l; do diag "$l"; done
    fi
  done
  if [ -z "$bad" ] && [ -s "$T/ref" ]; then
    ok "$label: identical to pdbtool with 1-4 threads and any block size ($(wc -l < "$T/ref") lines)"
  else
    not_ok "$label: differs from pdbtool with$bad"
  fi
}

mkdir -p "$T/random" "$T/loghub"
python3 "$DIFFDIR/gen.py" random "$T/random" 2 12 300 >/dev/null
python3 "$DIFFDIR/gen.py" loghub "$top_srcdir/tests/data/loghub" "$T/loghub" >/dev/null
for db in "$T"/random/*.xml "$T"/loghub/loghub-Linux.xml "$T"/loghub/loghub-OpenSSH.xml "$T"/loghub/loghub-Android.xml; do
  compare "$db" "${db%.xml}.log" "$(basename "${db%.xml}")"
done
for msgs in "$DIFFDIR"/db/parsers.messages "$DIFFDIR"/db/precedence.messages; do
  compare "${msgs%.messages}.xml" "$msgs" "db/$(basename "${msgs%.messages}")"
done

# Pathological lines between ordinary ones that each get their own rule id
# (loghub Linux), so that blocks cut between them and a line out of place
# shows: lines longer than 64 KiB, CRs, NULs, and headers 3.38 cannot parse
# (the short path refuses them; the main thread classifies them in place).
python3 - "$T/loghub/loghub-Linux.log" "$T/bad.log" <<'PY'
import sys
ordinary = open(sys.argv[1], "rb").read().split(b"\n")
with open(sys.argv[2], "wb") as f:
    w = f.write
    for i, line in enumerate(ordinary[:1500]):
        w(line + b"\n")
        if i % 100 == 7:
            w(b"Dec  3 11:00:00 host p: " + b"x" * (65536 * 2 + i) + b"\n")
            w(b"y" * 65535 + b"\r\r\n")
            w(b"a\r\x00b\r\r\nc\r\r\x00")
        if i % 10 == 3:
            w(b"<13>1 " + b"[" * (i % 300) + b"\n")
            w(b"<999999999999>broken priority %d\n" % i)
            w(b"host prog: \xff\xfe\xc3\x28 invalid\r\n")
    w(b"no newline at end\r")
PY
compare "$T/loghub/loghub-Linux.xml" "$T/bad.log" "pathological lines among loghub Linux lines"
if [ "$(grep -c '^|' "$T/ref")" -gt 100 ] && [ "$(grep -vc '^|' "$T/ref")" -gt 1000 ]; then
  ok "pathological lines: the reference mixes unknown lines ($(grep -c '^|' "$T/ref")) with classified ones"
else
  not_ok "pathological lines: the reference does not mix unknown and classified lines"
fi

# From a pipe (reads of any size): one thread, output as the lines come in.
"$PDBTOOL" match -p "$DIFFDIR/db/parsers.xml" -f "$T/bad.log" -T "$tmpl" 2>/dev/null > "$T/ref"
cat "$T/bad.log" | "$PATTERNDB" match --threads 3 --block-size 5000 -p "$DIFFDIR/db/parsers.xml" -f - -T "$tmpl" 2>/dev/null > "$T/ours"
if cmp -s "$T/ref" "$T/ours"; then ok "stdin from a pipe, --threads 3: identical to pdbtool"
else not_ok "stdin from a pipe, --threads 3: differs from pdbtool"; fi

# `tail -f log | patterndb match -f -`: a line's result is written while the
# input is still open (the writer waits up to 10 s for it, then closes).
mkfifo "$T/live.in"
"$PATTERNDB" match --threads 2 -p "$DIFFDIR/db/parsers.xml" -f - -T "$tmpl" < "$T/live.in" > "$T/live.out" 2>/dev/null &
live_pid=$!
exec 7> "$T/live.in"
printf 'Dec  3 11:00:00 host sshd[1]: Accepted password for u from 10.0.0.1 port 22 ssh2\n' >&7
for _ in $(seq 100); do [ -s "$T/live.out" ] && break; sleep 0.1; done
before_end=$(wc -l < "$T/live.out")
printf 'Dec  3 11:00:01 host sshd[1]: second\n' >&7
exec 7>&-
wait "$live_pid"; live_rc=$?
if [ "$before_end" = 1 ] && [ "$(wc -l < "$T/live.out")" = 2 ] && [ "$live_rc" = 0 ]; then
  ok "from a pipe, a result is written before the input ends"
else
  not_ok "from a pipe: $before_end result(s) before the input ended, $(wc -l < "$T/live.out") in all, exit $live_rc"
fi

# How lines are cut (every path, not only bulk): all CRs at a message's end
# go, before a NUL too, and at the end of a piece cut at 64 KiB.
python3 - "$T/cr.log" <<'PY'
import sys
with open(sys.argv[1], "wb") as f:
    f.write(b"p: f\rg\r\r\r\np: \r\r\np: h\r\t\r\na\r\x00b\r\r\nc\r\r\x00" + b"x" * 65534 + b"\r\r\n" + b"x" * 65533 + b"\r\r\nend\r")
PY
"$PDBTOOL" match -p "$DIFFDIR/db/parsers.xml" -f "$T/cr.log" -T '${PROGRAM}|${MSG}|\n' 2>/dev/null > "$T/ref"
"$PATTERNDB" match -p "$DIFFDIR/db/parsers.xml" -f "$T/cr.log" -T '${PROGRAM}|${MSG}|\n' 2>/dev/null > "$T/ours"
if cmp -s "$T/ref" "$T/ours" && [ "$(wc -l < "$T/ref")" -ge 9 ]; then ok "carriage returns at message ends: as pdbtool ($(wc -l < "$T/ref") messages)"
else not_ok "carriage returns at message ends differ from pdbtool"; diff <(cat -A "$T/ref" | cut -c1-40) <(cat -A "$T/ours" | cut -c1-40) | head -8 | while IFS= read -r l; do diag "$l"; done; fi

# A template reading another name is not bulk classification: one thread, still identical.
"$PDBTOOL" match -p "$DIFFDIR/db/parsers.xml" -f "$T/bad.log" -T '${.classifier.rule_id} $PROGRAM\n' 2>/dev/null > "$T/ref"
"$PATTERNDB" match --threads 4 -p "$DIFFDIR/db/parsers.xml" -f "$T/bad.log" -T '${.classifier.rule_id} $PROGRAM\n' 2>/dev/null > "$T/ours"
if cmp -s "$T/ref" "$T/ours"; then ok "--threads with a general template: identical to pdbtool"
else not_ok "--threads with a general template differs from pdbtool"; fi

# A read error names the file and exits 2, with one thread or several.
for threads in 1 2; do
  "$PATTERNDB" match --threads $threads -p "$DIFFDIR/db/parsers.xml" -f / -T "$tmpl" > "$T/out" 2> "$T/err"; rc=$?
  if [ "$rc" = 2 ] && grep -q "Error reading input file; filename='/'" "$T/err"; then ok "read error with $threads thread(s): exit 2, the file named"
  else not_ok "read error with $threads thread(s): exit $rc"; diag "$(cat "$T/err")"; fi
done

# Bad values of --threads.
for value in -1 65 x; do
  "$PATTERNDB" match --threads=$value -p "$DIFFDIR/db/parsers.xml" -f "$T/bad.log" -T "$tmpl" > "$T/out" 2> "$T/err"; rc=$?
  if [ "$rc" = 2 ] && [ -s "$T/err" ] && [ ! -s "$T/out" ]; then ok "--threads=$value: usage error ($(head -1 "$T/err"))"
  else not_ok "--threads=$value: exit $rc"; fi
done

done_testing

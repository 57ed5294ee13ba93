#!/bin/bash
# tests/tool/test-match-parallel.sh: match -f on several threads
# (tool/match-parallel.c) prints exactly what pdbtool 3.38 prints, in the
# same order and with the same exit status, whatever the number of threads
# and the block size. Bulk classification (the short path): on generated
# and hand-written databases, on pathological input (lines longer than
# 64 KiB, NULs, CRs, headers 3.38 cannot parse, which go back to the
# general path in their place), from a file and from a pipe. The general
# path: NAME=value output, templates, filters, RFC 5424 structured data
# (names numbered in stream order, left to the main thread), --json,
# --explain, -D; correlation stays on one thread. Also: how match -f cuts
# lines (CRs before NUL, cut pieces), a read error, bad --threads values.
. "$top_srcdir/tests/lib.sh"

setup_vs_pdbtool

tmpl='${.classifier.rule_id}|${.classifier.class}\n'

# compare DB LOG LABEL [match options...]: pdbtool vs ours with 1 to 4
# threads and blocks down to 1 byte, output and exit status (sets ref_rc,
# pdbtool's exit status).
compare() {
  local db=$1 log=$2 label=$3 bad="" rc
  shift 3
  "$PDBTOOL" match -p "$db" -f "$log" "$@" 2>/dev/null | sed 's/^PID=[0-9]*$/PID=N/' > "$T/ref"
  ref_rc=${PIPESTATUS[0]}
  for run in "--threads 1" "--threads 2" "--threads 3 --block-size 1" "--threads 2 --block-size 700" \
             "--threads 4 --block-size 70000"; do
    # shellcheck disable=SC2086
    "$PATTERNDB" match $run -p "$db" -f "$log" "$@" 2>"$T/err" | sed 's/^PID=[0-9]*$/PID=N/' > "$T/ours"
    rc=${PIPESTATUS[0]}
    if ! cmp -s "$T/ref" "$T/ours" || [ "$rc" != "$ref_rc" ] || grep -Eq 'AddressSanitizer|runtime error|CRITICAL' "$T/err"; then
      bad="$bad [$run: exit $rc]"
      diff "$T/ref" "$T/ours" | head -6 | while IFS= read -r l; do diag "$l"; done
    fi
  done
  if [ -z "$bad" ] && [ -s "$T/ref" ]; then
    ok "$label: identical to pdbtool with 1-4 threads and any block size, exit $ref_rc ($(wc -l < "$T/ref") lines)"
  else
    not_ok "$label: differs from pdbtool (exit $ref_rc) with$bad"
  fi
}

mkdir -p "$T/random" "$T/loghub"
python3 "$DIFFDIR/gen.py" random "$T/random" 2 12 300 >/dev/null
python3 "$DIFFDIR/gen.py" loghub "$top_srcdir/tests/data/loghub" "$T/loghub" >/dev/null
for db in "$T"/random/*.xml "$T"/loghub/loghub-Linux.xml "$T"/loghub/loghub-OpenSSH.xml "$T"/loghub/loghub-Android.xml; do
  compare "$db" "${db%.xml}.log" "$(basename "${db%.xml}")" -T "$tmpl"
done
for msgs in "$DIFFDIR"/db/parsers.messages "$DIFFDIR"/db/precedence.messages; do
  compare "${msgs%.messages}.xml" "$msgs" "db/$(basename "${msgs%.messages}")" -T "$tmpl"
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
compare "$T/loghub/loghub-Linux.xml" "$T/bad.log" "pathological lines among loghub Linux lines" -T "$tmpl"
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

# The general path on several threads (every output but bulk
# classification): NAME=value lines, general templates and -F filters, the
# exit status (the last message printed decides it) as pdbtool's. The
# input mixes RFC 5424 lines, whose .SDATA.* names are numbered as the
# stream first meets them (a worker refuses such a line and the main
# thread prints it in its place) with the pathological and loghub lines.
python3 - "$T/bad.log" "$T/mixed.log" <<'PY'
import sys
base = open(sys.argv[1], "rb").read().split(b"\n")
with open(sys.argv[2], "wb") as f:
    for i, line in enumerate(base):
        f.write(line + b"\n")
        if i % 37 == 5:
            # two elements whose names the stream meets in a varying order
            f.write(b'<34>1 2026-12-04T10:00:00Z host app%d 77 ID%d [ex%d@1 k%d="v" a="b"][ex%d@1 z="w"] message %d\n'
                    % (i % 3, i, i % 11, i % 5, (i * 7 + 3) % 13, i))
        if i % 53 == 9:
            f.write(b"<13>1 2026-12-04T10:00:00Z host sshd 1 - - Accepted password for u from 10.0.0.%d port 22 ssh2\n" % (i % 250))
    f.write(b"Dec  3 11:00:00 host nothing: matches no rule\n")
PY
compare "$T/loghub/loghub-Linux.xml" "$T/mixed.log" "NAME=value output, loghub Linux"
compare "$DIFFDIR/db/parsers.xml" "$T/mixed.log" "NAME=value output, parsers db"
if grep -q '^\.SDATA\.ex5@1\.k' "$T/ref" && [ "$(grep -c '^\.SDATA\.' "$T/ref")" -gt 100 ]; then
  ok "the reference has the .SDATA names a worker must leave to the main thread"
else
  not_ok "the reference lacks .SDATA names: the refusal of new names is not exercised"
fi
head -n 1500 "$T/mixed.log" > "$T/mixed-short.log"
printf 'Dec  3 11:00:00 host p: string abc123 end\n' >> "$T/mixed-short.log"
compare "$DIFFDIR/db/parsers.xml" "$T/mixed-short.log" "NAME=value output ending with a match"
[ "$ref_rc" = 0 ] && ok "the last line matched: exit 0 (the others end with no match: exit 1)" || not_ok "the last line did not match: exit $ref_rc"
# Dense: every line meets two of 30 element names, in a random order, so a
# worker that printed a line with names it numbered itself would print
# them in another order than one thread.
python3 - "$T/sd.log" <<'PY'
import random, sys
random.seed(1)
with open(sys.argv[1], "w") as f:
    for i in range(3000):
        a, b = random.sample(range(30), 2)
        f.write('<34>1 2026-12-04T10:00:00Z host app 77 ID [e%d@1 x="1"][e%d@1 y="2"] m %d\n' % (a, b, i))
PY
compare "$DIFFDIR/db/parsers.xml" "$T/sd.log" "NAME=value output, RFC 5424 lines with structured data"
compare "$T/loghub/loghub-Linux.xml" "$T/mixed.log" "general template" -T '${.classifier.rule_id} $PROGRAM ${MSG} $(length ${HOST})|${.SDATA.ex3@1.a}\n'
compare "$T/loghub/loghub-Linux.xml" "$T/mixed.log" "-F filter, NAME=value output" -F 'program("sshd" type(string)) or tags(".classifier.system")'
compare "$T/loghub/loghub-Linux.xml" "$T/mixed.log" "-F filter with a template" -F 'not program("kernel")' -T '$PROGRAM ${.classifier.class}\n'

# Our own outputs (no pdbtool counterpart): several threads print what one does.
for opts in "--json" "--explain" "-D" "--json -F program(sshd)"; do
  # shellcheck disable=SC2086
  "$PATTERNDB" match --threads 1 -p "$T/loghub/loghub-Linux.xml" -f "$T/mixed.log" $opts 2>/dev/null | sed 's/^PID=[0-9]*$/PID=N/; s/"PID":"[0-9]*"/"PID":"N"/' > "$T/ref"; ref_rc=${PIPESTATUS[0]}
  # shellcheck disable=SC2086
  "$PATTERNDB" match --threads 3 --block-size 2000 -p "$T/loghub/loghub-Linux.xml" -f "$T/mixed.log" $opts 2>"$T/err" | sed 's/^PID=[0-9]*$/PID=N/; s/"PID":"[0-9]*"/"PID":"N"/' > "$T/ours"; rc=${PIPESTATUS[0]}
  if cmp -s "$T/ref" "$T/ours" && [ "$rc" = "$ref_rc" ] && [ -s "$T/ref" ] && [ ! -s "$T/err" ]; then ok "$opts: 3 threads print what 1 does ($(wc -l < "$T/ref") lines)"
  else not_ok "$opts: 3 threads differ from 1 (exit $rc, $ref_rc)"; diff "$T/ref" "$T/ours" | head -4 | while IFS= read -r l; do diag "$l"; done; fi
done

# Correlation follows the stream (its clock, its contexts): one thread
# whatever --threads says, and the same as pdbtool.
for db in "$top_srcdir"/tests/correlation/corr.xml "$top_srcdir"/tests/correlation/create.xml; do
  compare "$db" "${db%.xml}.messages" "correlation, $(basename "$db")"
done

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

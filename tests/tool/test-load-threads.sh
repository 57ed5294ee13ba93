#!/bin/bash
# tests/tool/test-load-threads.sh: a database file of 1 MiB or more is
# loaded on two threads (db/insert-worker.h: rulesets go into their trees
# on a second thread while the XML is read on). Everything a user sees must
# be what one thread gives, byte for byte: the warnings (those of the
# patterns, given by the worker's jobs, in their places among the loader's
# own), the order of the values (capture names come from the worker, names
# of <value> templates from the loader), the results, and a file that has
# to be read again through libxml2 after the fast scanner gave up on it
# half-way (its first pass's warnings are dropped, the earlier file's kept).
# PATTERNDB_LOAD_THREADS=1 is the one-thread reference.
. "$top_srcdir/tests/lib.sh"
PATTERNDB=$top_builddir/patterndb
[ -x "$PATTERNDB" ] || skip_all "patterndb not built"
command -v python3 >/dev/null || skip_all "python3 not installed"
make_tmpdir
T=$TEST_TMPDIR

# gen.py OUT RULESETS RULES [pi]: a database of RULESETS rulesets of RULES
# rules; every 7th ruleset has a pattern with an unknown parser (a warning
# of the worker), every 5th a CDATA section in a <description> (two
# warnings of the loader), every 11th shares its program with the ruleset
# before it and the last one with the second (two rulesets into one tree:
# the tree is frozen only after its last job, though the loader freezes
# from the first tree on while the worker still inserts), capture names differ per ruleset and each rule
# has a <value> whose template reads a capture name of the ruleset before
# and the first one of the next (so the loader registers that one before
# the worker registers the next ruleset's other names: values print in
# that order). With "pi", a
# processing instruction after three quarters of the rulesets puts the file
# outside the fast scanner's subset (the load restarts through libxml2).
cat > "$T/gen.py" <<'EOF'
import sys
out, n_sets, n_rules = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
pi = len(sys.argv) > 4
tag = out.rsplit('/', 1)[-1].split('.')[0]
w = open(out, 'w')
w.write("<?xml version='1.0' encoding='UTF-8'?>\n<patterndb version='4' pub_date='2026-12-05'>\n")
for s in range(n_sets):
    if pi and s == n_sets * 3 // 4:
        w.write("  <?later processing instruction?>\n")
    prog = f"{tag}prog{s - 1 if s % 11 == 0 and s else s}"
    if s == n_sets - 1:
        prog = f"{tag}prog1"   # the last ruleset joins the second tree
    w.write(f"  <ruleset name='{tag}-set{s}' id='{tag}-set{s}'>\n    <pattern>{prog}</pattern>\n    <rules>\n")
    for r in range(n_rules):
        rid = f"{tag}-{s}-{r}"
        pats = [f"{tag} event {s} {r} user @ESTRING:u{s}_{r % 4}: @from @IPv4:addr{s}@ port @NUMBER:p{s}_{r % 2}@"]
        if s % 7 == 3 and r % 50 == 1:
            pats.append(f"{tag} broken {s} {r} @FOO{r}:x{s}@ end")
        w.write(f"      <rule provider='gen' id='{rid}' class='system'>\n        <patterns>\n")
        for p in pats:
            w.write(f"          <pattern>{p}</pattern>\n")
        w.write("        </patterns>\n")
        w.write(f"        <values><value name='v{s % 5}_{r % 3}'>$p{s + 1}_0-$p{s - 1}_1-$u{s}_{r % 4}</value></values>\n")
        if s % 5 == 2 and r % 60 == 7:
            w.write(f"        <description>d<![CDATA[x]]></description>\n")
        w.write("      </rule>\n")
    w.write("    </rules>\n  </ruleset>\n")
w.write("</patterndb>\n")
EOF

python3 "$T/gen.py" "$T/one.xml" 40 170
python3 "$T/gen.py" "$T/two.xml" 40 170 pi
size=$(stat -c %s "$T/one.xml")
check "the generated file is over 1 MiB ($size bytes)" test "$size" -ge 1048576
mkdir -p "$T/both"
cp "$T/one.xml" "$T/two.xml" "$T/both/"

# a log that hits rules of many rulesets, with values from both sources
for s in 0 3 7 10 11 12 22 33 39; do
  for r in 0 1 5 169; do
    n=$s; [ $((s % 11)) = 0 ] && [ $s != 0 ] && n=$((s - 1)); [ $s = 39 ] && n=1
    echo "<13>Dec  5 07:00:00 host oneprog$n[1]: one event $s $r user alice from 10.0.0.$r port $((r + 1000))"
    prog=twoprog$n
    echo "<13>Dec  5 07:00:00 host $prog[1]: two event $s $r user bob from 10.1.0.$r port $r"
  done
done > "$T/log"

# same LABEL ARGS...: output, warnings and exit status of patterndb ARGS on
# two threads equal those on one
same() {
  local label=$1; shift
  PATTERNDB_LOAD_THREADS=1 "$PATTERNDB" "$@" > "$T/out1" 2> "$T/err1"; local rc1=$?
  PATTERNDB_LOAD_THREADS=0 "$PATTERNDB" "$@" > "$T/out2" 2> "$T/err2"; local rc2=$?
  if cmp -s "$T/out1" "$T/out2" && cmp -s "$T/err1" "$T/err2" && [ "$rc1" = "$rc2" ]; then
    ok "$label: two threads = one ($(wc -l < "$T/out1") lines, $(grep -c 'warning' "$T/err1") warnings, exit $rc1)"
  else
    not_ok "$label: two threads differ from one (exit $rc2, one thread $rc1)"
    diff "$T/out1" "$T/out2" | head -6 | while IFS= read -r l; do diag "out: $l"; done
    diff "$T/err1" "$T/err2" | head -6 | while IFS= read -r l; do diag "err: $l"; done
  fi
}

same "one file, every value" match -p "$T/one.xml" -f "$T/log"
cp "$T/err1" "$T/one.err"
check_eq "one file: every line of the log matches a rule" 36 "$(grep -c '^.classifier.rule_id=one-' "$T/out1")"
# the reference holds what the comparison is about
check_eq "one file: warnings of the worker (unknown parser)" 24 "$(grep -c "unknown parser type 'FOO" "$T/one.err")"
check_eq "one file: warnings of the loader (CDATA)" 24 "$(grep -c 'CDATA section inside' "$T/one.err")"
first_worker=$(grep -n "unknown parser type" "$T/one.err" | head -1 | cut -d: -f1)
first_loader=$(grep -n "CDATA section inside" "$T/one.err" | head -1 | cut -d: -f1)
last_worker=$(grep -n "unknown parser type" "$T/one.err" | tail -1 | cut -d: -f1)
check "one file: the two kinds of warnings interleave" \
  test "$first_loader" -lt "$first_worker" -a "$first_worker" -lt "$(grep -n "CDATA section inside" "$T/one.err" | tail -1 | cut -d: -f1)" -a "$last_worker" -gt "$first_loader"
# a line of ruleset 12, rule 0: p12_0 was named by ruleset 11's <value>
# templates (the loader) before ruleset 12's captures (the worker)
sed -n '/rule_id=one-12-0$/,/^$/p' "$T/out1" | grep -E '^(p12_0|u12_0|addr12)=' | cut -d= -f1 | tr '\n' ' ' > "$T/order"
check_eq "one file: a value named by the loader prints before the worker's names" "p12_0 u12_0 addr12 " "$(cat "$T/order")"
same "one file, rule ids" match -p "$T/one.xml" -f "$T/log" -T '${.classifier.rule_id} $(names)\n'
same "a file read again through libxml2 after the scanner gave up" match -p "$T/two.xml" -f "$T/log"
check_eq "the restarted file's warnings are given once" 24 "$(grep -c "unknown parser type 'FOO" "$T/err1")"
same "both files (the second restarts the load)" match -p "$T/both" -f "$T/log"
check_eq "both files: warnings of both, once each" 48 "$(grep -c "unknown parser type 'FOO" "$T/err1")"
same "test --validate on both files" test --validate "$T/both"
same "dump" dump -p "$T/one.xml" -P oneprog9
same "dump of the tree the last ruleset joins" dump -p "$T/one.xml" -P oneprog1
check "... which holds rules of the last ruleset" grep -q 'one-39-' "$T/out1"


# a database whose load fails in its last file: the warnings before the
# error are given as with one thread
cp "$T/one.xml" "$T/both/"
printf '<patterndb version="4"><ruleset name="z"><rules><rule id="z"></ruleset></patterndb>\n' > "$T/both/zz.xml"
same "a broken file after two big ones" match -p "$T/both" -f "$T/log"
check "... which fails to load, naming the file" grep -q 'Error parsing.*zz.xml' "$T/err1"
done_testing

#!/bin/bash
# tests/tool/test-golden.sh: golden outputs of every `patterndb` subcommand.
#
# Each case runs one command line in tests/tool/data (relative paths, so
# messages do not depend on where the tree is) and compares its stdout,
# stderr and exit code with tests/tool/golden/NAME.out. Today's date and the
# temporary directory are masked. MUST NOT cases are explicit greps next to
# the goldens: a golden file alone would happily record a wrong answer.
#
# To re-record after an intended change: PDB_GOLDEN_UPDATE=1 make check
# TESTS=tests/tool/test-golden.sh, then review `git diff tests/tool/golden`.
. "$top_srcdir/tests/lib.sh"

PATTERNDB=$top_builddir/patterndb
[ -x "$PATTERNDB" ] || skip_all "patterndb not built"
make_tmpdir
T=$TEST_TMPDIR
DATA=$top_srcdir/tests/tool/data
GOLDEN=$top_srcdir/tests/tool/golden
DIFFDB=../../differential/db
TODAY=$(date +%Y-%m-%d)
export TZ=UTC

normalize() {
  sed -e "s|$T|<tmp>|g" -e "s|$TODAY|<today>|g" -e 's/syslog-ng\[[0-9]*\]/syslog-ng[<pid>]/g' \
      -e '/^PROGRAM=syslog-ng$/{n;s/^PID=[0-9]*$/PID=<pid>/}'
}

# golden NAME [--stdin FILE] -- ARGS...: run `patterndb ARGS` in $DATA.
golden() {
  local name=$1 stdin=/dev/null; shift
  if [ "$1" = "--stdin" ]; then stdin=$2; shift 2; fi
  [ "$1" = "--" ] && shift
  local out="$T/$name.out" rc
  (cd "$DATA" && "$PATTERNDB" "$@" < "$stdin" > "$T/stdout" 2> "$T/stderr"); rc=$?
  {
    echo "\$ patterndb $*" | normalize
    normalize < "$T/stdout"
    echo "--- stderr"
    normalize < "$T/stderr"
    echo "--- exit $rc"
  } > "$out"
  if [ -n "${PDB_GOLDEN_UPDATE:-}" ]; then
    cp "$out" "$GOLDEN/$name.out"
  fi
  if cmp -s "$out" "$GOLDEN/$name.out"; then
    ok "golden $name"
  else
    not_ok "golden $name"
    diff "$GOLDEN/$name.out" "$out" | head -20 | while IFS= read -r l; do diag "$l"; done
  fi
  LAST_OUT=$out
}

# golden_file NAME FILE: a file written by a command, compared like a golden.
golden_file() {
  normalize < "$2" > "$T/$1.out"
  [ -n "${PDB_GOLDEN_UPDATE:-}" ] && cp "$T/$1.out" "$GOLDEN/$1.out"
  if cmp -s "$T/$1.out" "$GOLDEN/$1.out"; then ok "golden $1"; else
    not_ok "golden $1"; diff "$GOLDEN/$1.out" "$T/$1.out" | head -20 | while IFS= read -r l; do diag "$l"; done; fi
  LAST_OUT=$T/$1.out
}

# must_not NAME REGEX: the last golden output must not contain REGEX.
must_not() {
  if grep -qE -- "$2" "$LAST_OUT"; then not_ok "MUST NOT: $1"; else ok "MUST NOT: $1"; fi
}
must() {
  if grep -qE -- "$2" "$LAST_OUT"; then ok "$1"; else not_ok "$1"; fi
}

# --- top level -----------------------------------------------------------------
golden usage-unknown-command -- frobnicate
golden version -- --version

# --- match -----------------------------------------------------------------------
golden match-matched -- match -p $DIFFDB/elements.xml -P sshd -M 'Accepted password for bob from 10.0.0.1 port 22 ssh2'
must_not "a matched message is not unknown" 'classifier\.unknown'
golden match-unknown -- match -p $DIFFDB/elements.xml -P sshd -M 'Accepted password for bob'
must_not "an unmatched message gets no rule id" 'rule_id='
golden match-literal-beats-parser -- match -p $DIFFDB/precedence.xml -P u -M 'user root logged in'
must_not "the parser rule does not win over the literal one" 'rule_id=str-in'
golden match-backtrack -- match -p $DIFFDB/precedence.xml -P u -M 'user root logged out'
golden match-prefix -- match -p $DIFFDB/precedence.xml -P u -M 'Failed password for bob from 10.0.0.1 extra trailing'
golden match-program-prefix -- match -p $DIFFDB/precedence.xml -P sshd2 -M 'x'
golden match-file -- match -p $DIFFDB/elements.xml -f messages.txt
golden match-stdin --stdin "$DATA/messages.txt" -- match -p $DIFFDB/elements.xml -f - -T '${HOST} ${PROGRAM} ${.classifier.rule_id}\n'
golden match-template -- match -p $DIFFDB/elements.xml -f messages.txt -T '${PROGRAM}\t${.classifier.class}\t${.classifier.rule_id}\t${user}\t$MSGHDR\n'
golden match-filter-tags -- match -p $DIFFDB/elements.xml -f messages.txt -F 'tags(".classifier.unknown")' -T '$MSG\n'
must_not "tags() lets no classified message through" 'Accepted password for bob from 10.0.0.1 port 22'
golden match-filter-value -- match -p $DIFFDB/elements.xml -f messages.txt -F 'match("^bob" value("user")) or program("cron")' -T '${.classifier.rule_id}\n'
golden match-filter-not -- match -p $DIFFDB/elements.xml -f messages.txt -F 'not tags("secevt") and not host("host4")' -T '${HOST} ${.classifier.rule_id}\n'
golden match-filter-facility -- match -p $DIFFDB/elements.xml -f messages.txt -F 'facility(auth) or level(err..emerg)' -T '${PRI} ${.classifier.rule_id}\n'
golden match-filter-bad -- match -p $DIFFDB/elements.xml -f messages.txt -F 'facility(nosuch)'
golden match-json -- match -p v6.xml -P app -M 'request took 0.25 s, size 512, from 10.1.2.3' --json
must "--json writes typed numbers" '"bytes":512,"secs":0.25'
golden match-explain -- match -p v6.xml -P app -M 'request took 0.25 s, size x, from 10.1.2.3' --explain
golden match-explain-prefix -- match -p $DIFFDB/precedence.xml -P u -M 'Failed password for bob from 10.0.0.1 extra trailing' --explain
golden match-explain-no-ruleset -- match -p v6.xml -P other -M 'x' --explain
golden match-debug -- match -p $DIFFDB/elements.xml -P sshd -M 'Accepted password for bob from 10.0.0.1 port 22 ssh2' -D
golden match-debug-csv -- match -p $DIFFDB/elements.xml -P sshd -M 'Accepted password for bob from 10.0.0.1 port 22 ssh2' -D -C
golden match-debug-color -- match -p $DIFFDB/elements.xml -P sshd -M 'Accepted password for bob from 10.0.0.1 port 22 ssh2' -D -c
golden match-directory -- match -p $DIFFDB -P kernel -M 'eth0: link is up'
golden match-v6 -- match -p v6.xml -P app -M 'request took 0.25 s, size 512, from 10.1.2.3'
golden match-missing-db -- match -p missing.xml -M x
golden match-broken-db -- match -p broken.xml -M x
golden match-notwellformed-db -- match -p notwellformed.xml -M x
golden match-no-message -- match -p v6.xml
golden match-bad-option -- match -p v6.xml -M x --bogus
golden match-missing-input -- match -p v6.xml -f missing.log
golden match-bad-template -- match -p v6.xml -M x -T '$(nosuch x)'

# --- test ------------------------------------------------------------------------
golden test-ok -- test v6.xml
golden test-failures -- test $DIFFDB/examples.xml
golden test-verbose -- test -v $DIFFDB/examples.xml
golden test-rule -- test -r r3 $DIFFDB/examples.xml
golden test-rule-missing -- test -r nope $DIFFDB/examples.xml
golden test-rule-no-example -- test -r r4 $DIFFDB/examples.xml
golden test-missing -- test missing.xml
golden test-broken -- test broken.xml
golden test-validate -- test --validate badschema.xml
golden test-no-validate -- test badschema.xml
# Not well-formed: --validate reports the loader's file:line:column, as plain test does.
golden test-notwellformed -- test notwellformed.xml
plain_err=$(sed -n '/^--- stderr/,/^--- exit/p' "$LAST_OUT")
golden test-validate-notwellformed -- test --validate notwellformed.xml
check_eq "test --validate on malformed XML says what plain test says" "$plain_err" \
  "$(sed -n '/^--- stderr/,/^--- exit/p' "$LAST_OUT")"
check "... with line and column" grep -q "notwellformed.xml:4:[0-9]*: " "$LAST_OUT"
golden test-debug -- test -D $DIFFDB/examples.xml
golden test-directory -- test $DIFFDB
golden test-pdb-option -- test -p v6.xml -p $DIFFDB/elements.xml

# --- merge ---------------------------------------------------------------------
golden merge-flat -- merge -D merge -p "$T/flat.xml"
golden_file merge-flat-content "$T/flat.xml"
must "merge converts version 1 <program> to <ruleset>" "<ruleset name='v1prog'"
must_not "merge leaves no <program> behind" '<program'
must_not "merge without -r skips sub-directories" 'cprog'
must "merge writes version 4 for version 1-5 inputs" "<patterndb version='4' pub_date='<today>'>"
golden merge-flat-loads -- match -p "$T/flat.xml" -P v1prog -M 'hello world'
golden merge-recursive -- merge -D merge -r -s -G '*.pdb' -p "$T/rec.xml"
golden merge-recursive-output -- dump -p "$T/rec.xml" -T
LAST_OUT=$T/merge-recursive-output.out
must "merge -r descends into sub-directories" "'cprog'"
must_not "merge -G leaves out files that do not match" 'v1prog|bprog'
golden merge-sorted -- merge -D merge -r -s -p "$T/sorted.xml"
golden merge-sorted-output -- dump -p "$T/sorted.xml" -T
golden merge-missing-dir -- merge -D missing-dir -p "$T/x.xml"
golden merge-no-dir -- merge -p "$T/x.xml"
mkdir -p "$T/m6" && cp "$DATA/v6.xml" "$DATA/merge/b-v4.xml" "$T/m6/"
golden merge-v6 -- merge -D "$T/m6" -p "$T/m6.xml"
golden_file merge-v6-content "$T/m6.xml"
must "merge writes version 6 when an input is version 6" "<patterndb version='6'"

mkdir -p "$T/self" && cp "$DATA/merge/b-v4.xml" "$T/self/"
"$PATTERNDB" merge -D "$T/self" -p "$T/self/out.xml" 2>/dev/null
"$PATTERNDB" merge -D "$T/self" -p "$T/self/../self/out.xml" 2>/dev/null
check_eq "merge into its own directory does not merge its previous output" 1 "$(grep -c '<ruleset' "$T/self/out.xml")"

# --- dump and dictionary -----------------------------------------------------------
golden dump-program-tree -- dump -p $DIFFDB/elements.xml -T
golden dump-program -- dump -p $DIFFDB/elements.xml -P sshd
golden dump-catch-all -- dump -p $DIFFDB/elements.xml -P nothing-matches
golden dump-nothing -- dump -p $DIFFDB/elements.xml
golden dictionary -- dictionary -p $DIFFDB/elements.xml
golden dictionary-program -- dictionary -p $DIFFDB/elements.xml -P kernel
golden dictionary-unnamed -- dictionary -p $DIFFDB/parsers.xml -P p
must_not "dictionary lists no name for unnamed parsers" '^None$'
golden dictionary-tags -- dictionary -p $DIFFDB/elements.xml -T
must "dictionary -T lists every rule tag (3.38 garbles them)" '^usracct$'

# --- --help of every subcommand --------------------------------------------------
for cmd in match test merge dump dictionary lint patternize report rsyslog; do
  golden "help-$cmd" -- "$cmd" --help
  check_eq "help-$cmd: the usage line reads 'patterndb [OPTION?] $cmd'" "patterndb [OPTION?] $cmd" \
    "$(sed -n '3s/^  //p' "$LAST_OUT" | cut -d' ' -f1-3)"
done

# --- errors name the bad option; a misspelled command gets the near one ---------
golden report-bad-format -- report -p $DIFFDB/elements.xml -F pdf
must "report -F pdf names the option and the value" "^patterndb report: -F/--format: unknown format 'pdf'"
golden report-bad-max-clusters -- report -p $DIFFDB/elements.xml --max-clusters=-1
must_not "report --max-clusters=-1 does not blame --format" 'format'
golden patternize-bad-support -- patternize -f messages.txt -S 200
must_not "patternize -S 200 does not blame --samples" 'samples'
for typo in mtach tset dictonary reprot lnit; do
  golden "unknown-command-$typo" -- "$typo" -p x
  must "'$typo' suggests the near command" "did you mean '"
done

done_testing

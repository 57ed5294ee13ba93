#!/bin/sh
# Coverage of the pattern library on real logs: the Linux and OpenSSH loghub
# samples (RFC 3164 lines) are classified with the whole library; at least
# 95% of the lines of each must match a rule (class other than "unknown").
# The figures are printed with diag. Made-up messages of known programs must
# stay unknown (the library must not swallow everything). When both our tool
# and Debian's pdbtool can match, they must give every sample line the same
# rule id. Hand-picked Debian 12 syslog lines must get their expected rule.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/library/library.sh"
make_tmpdir

TOOL=$(library_tool match)
[ -n "$TOOL" ] || skip_all "neither our patterndb nor pdbtool can run 'match'"
case "$TOOL" in
  "$top_builddir"/*) diag "using our tool: $TOOL" ;;
  *) diag "our patterndb has no 'match' subcommand yet: using Debian's $TOOL" ;;
esac
DB="$TEST_TMPDIR/library.xml"
if library_merge "$DB"; then ok "library merged into one database"; else
  not_ok "library merged into one database"; done_testing; exit 1; fi

MIN=95
for sample in Linux/Linux_2k.log OpenSSH/OpenSSH_2k.log; do
  log="$top_srcdir/tests/data/loghub/$sample"
  name=$(basename "$sample")
  if [ ! -s "$log" ]; then not_ok "$name present"; continue; fi
  "$TOOL" match -p "$DB" -f "$log" -T '${.classifier.class}\n' >"$TEST_TMPDIR/classes" 2>"$TEST_TMPDIR/err"
  total=$(awk 'END { print NR }' "$log")
  got=$(wc -l <"$TEST_TMPDIR/classes")
  matched=$(grep -cvE '^(unknown)?$' "$TEST_TMPDIR/classes")
  diag "$name: $matched of $total lines classified ($(awk -v m="$matched" -v t="$total" 'BEGIN { printf "%.1f", 100 * m / t }')%)"
  sed 's/^$/(none)/' "$TEST_TMPDIR/classes" | sort | uniq -c | while IFS= read -r l; do diag "  $l"; done
  check_eq "$name: one classification per line" "$total" "$got"
  check "$name: at least $MIN% of the lines classified" \
    [ $((matched * 100)) -ge $((total * MIN)) ]
  if [ "$TOOL" != "$DEBIAN_PDBTOOL" ]; then
    # Our tool also loads the library directory itself (as db-parser does).
    "$TOOL" match -p "$DB" -f "$log" -T '${.classifier.rule_id}\n' >"$TEST_TMPDIR/ours" 2>/dev/null
    "$TOOL" match -p "$LIBDIR" -f "$log" -T '${.classifier.rule_id}\n' >"$TEST_TMPDIR/ours-dir" 2>/dev/null
    check "$name: the library directory classifies like the merged file" \
      cmp -s "$TEST_TMPDIR/ours" "$TEST_TMPDIR/ours-dir"
  fi
  if [ -n "$DEBIAN_PDBTOOL" ] && [ "$TOOL" != "$DEBIAN_PDBTOOL" ]; then
    "$DEBIAN_PDBTOOL" match -p "$DB" -f "$log" -T '${.classifier.rule_id}\n' >"$TEST_TMPDIR/theirs" 2>/dev/null
    if cmp -s "$TEST_TMPDIR/ours" "$TEST_TMPDIR/theirs"; then
      ok "$name: same rule id on every line as Debian's pdbtool"
    else
      not_ok "$name: same rule id on every line as Debian's pdbtool"
      paste -d'|' "$TEST_TMPDIR/ours" "$TEST_TMPDIR/theirs" | nl | awk -F'|' '$1 != $2' | head -5 |
        while IFS= read -r l; do diag "ours|pdbtool: $l"; done
    fi
  fi
done

# Syslog lines of the kind a Debian 12 server writes, through the RFC 3164
# parser (program names, leading spaces, kernel time stamps): each gets the
# rule id written in front of it in tests/library/data/syslog-lines.tsv.
grep -v '^#' "$top_srcdir/tests/library/data/syslog-lines.tsv" >"$TEST_TMPDIR/lines.tsv"
cut -f2- "$TEST_TMPDIR/lines.tsv" >"$TEST_TMPDIR/lines.log"
"$TOOL" match -p "$DB" -f "$TEST_TMPDIR/lines.log" -T '${.classifier.rule_id}\n' >"$TEST_TMPDIR/lines.ids" 2>/dev/null
n=0
while IFS="$(printf '\t')" read -r want line; do
  n=$((n + 1))
  got=$(sed -n "${n}p" "$TEST_TMPDIR/lines.ids")
  check_eq "syslog line $n is $want" "$want" "$got"
done <"$TEST_TMPDIR/lines.tsv"

# MUST NOT: unrelated made-up messages of programs the library knows (and of
# one it does not) stay unknown.
cat >"$TEST_TMPDIR/madeup.log" <<'LOG'
Dec  3 10:00:01 host sshd[100]: The quick brown fox jumps over the lazy dog
Dec  3 10:00:02 host kernel: Flux capacitor charged to 1.21 gigawatts
Dec  3 10:00:03 host su[101]: Tea is ready in the kitchen
Dec  3 10:00:04 host CRON[102]: banana split with extra sprinkles
Dec  3 10:00:05 host postfix/smtpd[103]: hello world from the mail daemon
Dec  3 10:00:06 host systemd[1]: Lorem ipsum dolor sit amet
Dec  3 10:00:07 host sudo[104]: weather forecast: sunny
Dec  3 10:00:08 host myapp[105]: user alice uploaded 3 files to the gallery
LOG
n=0
while IFS= read -r line; do
  n=$((n + 1))
  class=$(printf '%s\n' "$line" | "$TOOL" match -p "$DB" -f - -T '${.classifier.class}\n' 2>/dev/null)
  check_eq "made-up message $n stays unknown: ${line#* host }" "unknown" "$class"
done <"$TEST_TMPDIR/madeup.log"

# And a real message of each of those programs is recognised (the check
# above is not passing because nothing matches at all).
cat >"$TEST_TMPDIR/real.log" <<'LOG'
Dec  3 10:00:01 host sshd[100]: Accepted publickey for alice from 192.0.2.10 port 50000 ssh2: ED25519 SHA256:abc
Dec  3 10:00:02 host kernel: usb 1-1: USB disconnect, device number 4
Dec  3 10:00:03 host su[101]: (to root) alice on pts/0
Dec  3 10:00:04 host CRON[102]: (root) CMD (test -x /usr/sbin/anacron || run-parts /etc/cron.daily)
Dec  3 10:00:05 host postfix/smtpd[103]: connect from unknown[192.0.2.25]
Dec  3 10:00:06 host systemd[1]: Started cron.service - Regular background program processing daemon.
Dec  3 10:00:07 host sudo[104]:    alice : TTY=pts/0 ; PWD=/home/alice ; USER=root ; COMMAND=/usr/bin/id
LOG
n=0
while IFS= read -r line; do
  n=$((n + 1))
  class=$(printf '%s\n' "$line" | "$TOOL" match -p "$DB" -f - -T '${.classifier.class}\n' 2>/dev/null)
  case "$class" in
    ''|unknown) not_ok "real message $n is classified ($class): ${line#* host }" ;;
    *) ok "real message $n is classified ($class): ${line#* host }" ;;
  esac
done <"$TEST_TMPDIR/real.log"

done_testing

#!/bin/sh
# `patterndb report` end to end: golden files for the three formats
# (text, JSON, HTML) on a small database and syslog sample, plus plain
# lines, stdin, progress on stderr and errors. When a headless Chromium is
# installed, the HTML page is also rendered and its chart looked for.
. "$top_srcdir/tests/lib.sh"

pdb="$top_builddir/patterndb"
data="$top_srcdir/tests/mining/data"
golden="$top_srcdir/tests/mining/golden"
[ -x "$pdb" ] || skip_all "patterndb not built"
make_tmpdir
export SOURCE_DATE_EPOCH=1767225600   # the year of BSD timestamps: 2026

db="$data/report-db.xml"
log="$data/report-input.syslog"

for fmt in text json html; do
  "$pdb" report -p "$db" -f "$log" --format "$fmt" > "$TEST_TMPDIR/report.$fmt" 2> "$TEST_TMPDIR/err.$fmt"
  check "$fmt: exit 0" test $? -eq 0
  if cmp -s "$golden/report.$fmt" "$TEST_TMPDIR/report.$fmt"; then
    ok "$fmt: same as tests/mining/golden/report.$fmt"
  else
    not_ok "$fmt: same as tests/mining/golden/report.$fmt"
    diff -u "$golden/report.$fmt" "$TEST_TMPDIR/report.$fmt" | head -30 | sed 's/^/# /'
  fi
  check "$fmt: nothing on stderr for a small input" test ! -s "$TEST_TMPDIR/err.$fmt"
done

# MUST NOT: the rule that never matched is not counted as matched, the
# unknown sshd messages are not attributed to a rule
check "never-matched rule listed" grep -q '^  system        ssh-never  ' "$TEST_TMPDIR/report.text"
check "match rate" grep -q '^Messages: 120; matched 96 (80.0%); unknown 24 (20.0%)$' "$TEST_TMPDIR/report.text"

if command -v python3 > /dev/null 2>&1; then
  check "json: valid JSON" python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["matched"] + d["unknown"] == d["messages"]' "$TEST_TMPDIR/report.json"
else
  ok "json: valid JSON # SKIP no python3"
fi

# stdin and -o give the same report
"$pdb" report -p "$db" -F text -o "$TEST_TMPDIR/stdin.text" < "$log"
check "stdin and -o" cmp -s "$TEST_TMPDIR/report.text" "$TEST_TMPDIR/stdin.text"

# plain lines (--no-parse): everything goes to the catch-all, i.e. unknown here
sed 's/^.*: //' "$log" > "$TEST_TMPDIR/plain.txt"
"$pdb" report -p "$db" --no-parse -f "$TEST_TMPDIR/plain.txt" > "$TEST_TMPDIR/plain.out"
check "--no-parse: no timestamps, all unknown" grep -q '^Messages: 120; matched 0 (0.0%); unknown 120 (100.0%)$' "$TEST_TMPDIR/plain.out"
"$pdb" report -p "$db" --no-parse -P sshd -f "$TEST_TMPDIR/plain.txt" > "$TEST_TMPDIR/plain-sshd.out"
check "--no-parse -P sshd: sshd rules match" grep -q '^        43  system        ssh-accept' "$TEST_TMPDIR/plain-sshd.out"

# progress on stderr for a large input (every 100000 lines)
awk 'BEGIN { for (i = 0; i < 250000; i++) printf "Mar  3 08:%02d:00 h sshd[1]: Accepted password for u%d from 10.0.0.1 port %d ssh2\n", i % 60, i % 7, 1000 + i % 50000 }' \
  > "$TEST_TMPDIR/big.syslog"
"$pdb" report -p "$db" -f "$TEST_TMPDIR/big.syslog" > "$TEST_TMPDIR/big.out" 2> "$TEST_TMPDIR/big.err"
check "large input: progress on stderr" grep -q '^report: 200000 lines read$' "$TEST_TMPDIR/big.err"
check "large input: final count" grep -q '^report: 250000 lines read, done$' "$TEST_TMPDIR/big.err"
check "large input: all matched" grep -q '^Messages: 250000; matched 250000 (100.0%)' "$TEST_TMPDIR/big.out"
"$pdb" report -q -p "$db" -f "$TEST_TMPDIR/big.syslog" > /dev/null 2> "$TEST_TMPDIR/quiet.err"
check "-q: no progress" test ! -s "$TEST_TMPDIR/quiet.err"

# errors
"$pdb" report -f "$log" > /dev/null 2>&1
check_eq "no database: exit 2" 2 $?
"$pdb" report -p "$db" -F yaml -f "$log" > /dev/null 2>&1
check_eq "bad format: exit 2" 2 $?
"$pdb" report -p "$TEST_TMPDIR/missing.xml" -f "$log" > /dev/null 2>&1
check_eq "missing database: exit 1" 1 $?

# Order and caps: the unknown clusters (what a user came for) come right
# after the classes; 30 rules that never match are listed 20 and "... and 10
# more", in text and HTML.
check "text: unknown clusters before the rules" \
  test "$(grep -n '^Unknown messages:' "$TEST_TMPDIR/report.text" | cut -d: -f1)" -lt \
       "$(grep -n '^Rules by matches' "$TEST_TMPDIR/report.text" | cut -d: -f1)"
check "html: unknown clusters before the rules" \
  test "$(grep -n "<table id='unknown'>" "$TEST_TMPDIR/report.html" | cut -d: -f1)" -lt \
       "$(grep -n "<table id='rules'>" "$TEST_TMPDIR/report.html" | cut -d: -f1)"
check "html: the sample and the proposed pattern are labelled" \
  grep -q "<span class='label'>sample</span> <code class='sample'>.*<span class='label'>proposed pattern</span> <code class='pattern'>" "$TEST_TMPDIR/report.html"
{
  echo "<patterndb version='4' pub_date='2026-01-01'><ruleset name='app' id='rs-app'><pattern>app</pattern><rules>"
  echo "<rule provider='t' id='used' class='system'><patterns><pattern>tick @NUMBER:n@</pattern></patterns></rule>"
  for i in $(seq 1 30); do
    echo "<rule provider='t' id='never-$i' class='system'><patterns><pattern>never $i @NUMBER:n@</pattern></patterns></rule>"
  done
  echo "</rules></ruleset></patterndb>"
} > "$TEST_TMPDIR/many.xml"
# 183 days (one bar per week) and 1234 messages on the busiest day
awk 'BEGIN { split("Jan Feb Mar Apr May Jun Jul", m, " ");
             for (d = 0; d < 183; d++) { mon = m[int(d / 30.5) + 1]; day = int(d % 30.5) % 28 + 1;
               n = (d == 100) ? 1234 : 3;
               for (i = 0; i < n; i++) printf "%s %2d 10:00:00 h app[1]: tick %d\n", mon, day, i } }' \
  > "$TEST_TMPDIR/weeks.syslog"
for fmt in text html; do
  "$pdb" report -p "$TEST_TMPDIR/many.xml" -f "$TEST_TMPDIR/weeks.syslog" -F $fmt > "$TEST_TMPDIR/many.$fmt"
done
check_eq "text: 20 never-matched rules listed" 20 "$(grep -c '^  system        never-' "$TEST_TMPDIR/many.text")"
check "text: ... and 10 more" grep -q '^  \.\.\. and 10 more (all of them in --format json)$' "$TEST_TMPDIR/many.text"
check_eq "html: 20 never-matched rules listed" 20 "$(grep -c '<td>never-' "$TEST_TMPDIR/many.html")"
check "html: ... and 10 more" grep -q '\.\.\. and 10 more' "$TEST_TMPDIR/many.html"
check "html: one bar per week, not in minutes" grep -q "<text id='bucket'[^>]*>one bar per week (UTC)</text>" "$TEST_TMPDIR/many.html"
ticks=$(sed -n "s/.*<text class='tick'[^>]*>\([0-9]*\)<.*/\1/p" "$TEST_TMPDIR/many.html" | tr '\n' ' ')
diag "y ticks: $ticks"
check "html: y ticks at round numbers (0, then steps of 1, 2 or 5 times a power of ten) up to the top" \
  awk -v t="$ticks" 'BEGIN { n = split(t, v, " "); if (n < 3 || v[1] != 0) exit 1; s = v[2];
    while (s % 10 == 0 && s >= 10) s /= 10; if (s != 1 && s != 2 && s != 5) exit 1;
    for (i = 2; i <= n; i++) if (v[i] != v[2] * (i - 1)) exit 1; if (v[n] < 1234) exit 1 }'

# The hottest rules: one bar per matched rule (at most 15), most frequent
# first, each bar's length its count relative to the first
matched_rules=$(sed -n "s/.*<p class='note'>\([0-9]*\) of [0-9]* rules matched.*/\1/p" "$TEST_TMPDIR/report.html")
want_bars=$matched_rules; [ "$want_bars" -gt 15 ] && want_bars=15
check_eq "html: one hot-rule bar per matched rule (at most 15)" "$want_bars" \
  "$(grep -c "<rect class='hot'" "$TEST_TMPDIR/report.html")"
check_eq "html: the first bar is the first rule of the table" \
  "$(sed -n "s/.*<rect class='hot'[^>]*><title>\([^:]*\):.*/\1/p" "$TEST_TMPDIR/report.html" | head -1)" \
  "$(sed -n "/<table id='rules'>/,/<\/table>/s/<tr><td class='n'>[0-9]*<\/td><td>[^<]*<\/td><td>\([^<]*\)<.*/\1/p" "$TEST_TMPDIR/report.html" | head -1)"
check "html: bar lengths are proportional to the counts" awk '
  /<rect class=.hot./ { match($0, /width=.[0-9.]+/); w = substr($0, RSTART + 7, RLENGTH - 7) + 0;
    match($0, /: [0-9]+ messages/); n = substr($0, RSTART + 2, RLENGTH - 11) + 0;
    if (!first_w) { first_w = w; first_n = n } else if (w - first_w * n / first_n > 0.11 || first_w * n / first_n - w > 0.11) bad = 1 }
  END { exit bad || !first_w }' "$TEST_TMPDIR/report.html"
# a real browser renders the chart (Debian's chromium, from install-deps):
# the DOM has the bars, and a screenshot has pixels of each class's colour
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$chromium" ] && command -v python3 > /dev/null 2>&1; then
  dom=$(HOME="$TEST_TMPDIR" timeout 60 "$chromium" --headless --no-sandbox --disable-gpu \
        --dump-dom "file://$TEST_TMPDIR/report.html" 2>/dev/null)
  bars=$(printf '%s' "$dom" | grep -o "<rect class=\"bar\"" | wc -l)
  check "chromium: the page has the chart's bars ($bars)" test "$bars" -gt 10
  HOME="$TEST_TMPDIR" timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --window-size=1024,600 --screenshot="$TEST_TMPDIR/shot.png" "file://$TEST_TMPDIR/report.html" > /dev/null 2>&1
  colours=$(python3 "$top_srcdir/tests/mining/png-colours.py" "$TEST_TMPDIR/shot.png" '#1f77b4' '#2ca02c' '#d62728' 2>&1)
  diag "$colours"
  check "chromium: the chart is drawn (system, violation and unknown colours)" \
    test "$(echo "$colours" | awk '$2 > 1000' | wc -l)" -eq 3
  hot=$(printf '%s' "$dom" | grep -o "<rect class=\"hot\"" | wc -l)
  check_eq "chromium: the page has the hot-rule bars" "$want_bars" "$hot"
  HOME="$TEST_TMPDIR" timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --window-size=1024,4000 --screenshot="$TEST_TMPDIR/tall.png" "file://$TEST_TMPDIR/report.html" > /dev/null 2>&1
  purple=$(python3 "$top_srcdir/tests/mining/png-colours.py" "$TEST_TMPDIR/tall.png" '#6a51a3' 2>&1)
  diag "$purple"
  check "chromium: the hot-rule bars are drawn" test "$(echo "$purple" | awk '{ print $2 }')" -gt 1000
else
  ok "chromium: the page has the chart's bars # SKIP chromium or python3 not installed"
  ok "chromium: the chart is drawn # SKIP chromium or python3 not installed"
  ok "chromium: the page has the hot-rule bars # SKIP chromium or python3 not installed"
  ok "chromium: the hot-rule bars are drawn # SKIP chromium or python3 not installed"
fi

done_testing

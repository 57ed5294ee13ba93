#!/bin/sh
# Held-out coverage of the pattern library, per capture: the share of a
# capture's lines that the library classifies WITHOUT the rules written
# against that capture (tests/library/held-out.py), two ways:
#   by examples: without the rules whose every captured example is a line
#     of that capture (their example was taken from it);
#   by matches: without the rules that classify lines of that capture and
#     of no other (nothing else confirms them).
# The rules written from message formats (no captured line) stay. This is
# the library's figure on a capture as if the capture had not been seen,
# as far as the data tell; it is printed (diag), not held to a bar.
# Checks: both figures exist for every capture, and neither is above the
# whole library's figure on the same capture.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/library/library.sh"
make_tmpdir
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
TOOL=$(library_tool match)
[ -n "$TOOL" ] || skip_all "neither our patterndb nor pdbtool can run 'match'"
MERGE=$(library_tool merge)
DB="$TEST_TMPDIR/library.xml"
library_merge "$DB" || { not_ok "library merged into one database"; done_testing; exit 1; }

mkdir -p "$TEST_TMPDIR/examples" "$TEST_TMPDIR/matches"
for f in $(library_captures); do
  library_capture_messages "$TOOL" "$DB" "$f" >"$TEST_TMPDIR/examples/$(basename "$f")"
  case "$f" in
    */Apache_2k.log) awk '{ print "Dec  4 05:15:09 apache httpd: " $0 }' "$f" ;;
    */Thunderbird_2k.log) awk '{ print }' "$f" |
      sed -E 's/^[^ ]+ [0-9]+ [0-9.]+ [^ ]+ //; s/^([A-Z][a-z][a-z]) ([1-9]) /\1  \2 /' ;;
    *) cat "$f" ;;
  esac | "$TOOL" match -p "$DB" -f - -T '${.classifier.rule_id}\n' 2>/dev/null |
    sort -u >"$TEST_TMPDIR/matches/$(basename "$f")"
done

pct() { awk -v m="$1" -v t="$2" 'BEGIN { printf "%.1f", t ? 100 * m / t : 0 }'; }

for f in $(library_captures); do
  name=$(basename "$f")
  case "$name" in Apache_2k.log | Thunderbird_2k.log) continue ;; esac
  library_coverage "$TOOL" "$DB" "$f" "$TEST_TMPDIR/full"
  set -- $(awk '$1 == "ALL" { print $2, $3 }' "$TEST_TMPDIR/full")
  full=$1 total=$2
  diag "$name: whole library $full/$total ($(pct "$full" "$total")%)"
  for by in examples matches; do
    out="$TEST_TMPDIR/held-$by-$name"
    rm -rf "$out" && mkdir -p "$out/files"
    # shellcheck disable=SC2086
    set -- $(python3 "$top_srcdir/tests/library/held-out.py" $by "$TEST_TMPDIR/$by" "$name" "$out/files" $LIBFILES)
    removed=$1 kept=$2
    "$MERGE" merge -D "$out/files" -p "$out/db.xml" >/dev/null 2>&1
    library_coverage "$TOOL" "$out/db.xml" "$f" "$out/held"
    held=$(awk '$1 == "ALL" { print $2 }' "$out/held")
    held=${held:-0}
    diag "  held out by $by: $held/$total ($(pct "$held" "$total")%) without its $removed rules ($kept kept)"
    while read -r prog m t; do
      [ "$prog" = ALL ] && continue
      fm=$(awk -v p="$prog" '$1 == p { print $2 }' "$TEST_TMPDIR/full")
      [ "$m" = "$fm" ] || diag "    $prog: $m/$t (whole library $fm/$t)"
    done <"$out/held"
    check "$name: held-out figure by $by computed" [ -s "$out/db.xml" ]
    check "$name: held-out figure by $by not above the whole library's" [ "$held" -le "$full" ]
  done
done

done_testing

# tests/library/library.sh: sourced by the pattern library suites.
# Chooses the tool that runs `test`, `match` and `merge`: our own
# $top_builddir/patterndb when its --help lists the subcommand, else Debian's
# pdbtool (said with a diag line). Sets LIBDIR and LIBFILES.

LIBDIR="$top_srcdir/contrib/patterns"
LIBFILES=$(ls "$LIBDIR"/*.xml 2>/dev/null | sort)
DEBIAN_PDBTOOL=${PDBTOOL_BIN:-/usr/bin/pdbtool}
[ -x "$DEBIAN_PDBTOOL" ] || DEBIAN_PDBTOOL=$(command -v pdbtool 2>/dev/null || true)

# library_tool SUBCOMMAND: prints the tool to run SUBCOMMAND with.
library_tool() {
  local ours="$top_builddir/patterndb"
  if [ -x "$ours" ] && "$ours" --help 2>&1 | grep -qE "^[[:space:]]+$1[[:space:]]"; then
    echo "$ours"
  elif [ -n "$DEBIAN_PDBTOOL" ]; then
    echo "$DEBIAN_PDBTOOL"
  fi
}

# library_merge OUT: the whole library merged into one file OUT (Debian's
# pdbtool cannot load a directory, so every tool gets the merged file). The
# XML files are copied to a directory of their own first: merge reads every
# file of its directory, and README is not a pattern database.
library_merge() {
  local tool dir
  tool=$(library_tool merge)
  [ -n "$tool" ] || return 1
  dir=$(dirname "$1")/library-files
  rm -rf "$dir" && mkdir -p "$dir" || return 1
  # shellcheck disable=SC2086
  cp $LIBFILES "$dir/" || return 1
  "$tool" merge -D "$dir" -p "$1" >"$1.log" 2>&1 && [ -s "$1" ] &&
    [ "$(grep -c '<rule ' "$1")" -eq "$(cat $LIBFILES | grep -c '<rule ')" ]
}

# library_test_ok OUTPUT-FILE RC: a `test` run passed (exit 0, no wrong
# value, no rule conflict).
library_test_ok() {
  [ "$2" -eq 0 ] && ! grep -v '^Testing message' "$1" | grep -qiE 'conflict|wrong match'
}

# library_coverage TOOL DB LOG OUT: classifies LOG and writes OUT, one line
# per program: "program matched total", then a last line "ALL matched
# total". The program is the one the tool's syslog parser reads (postfix/*
# and the like stay separate). Lines with an empty message (no rule can
# classify them, in syslog-ng too) count under "(empty-message)", not
# under their program.
library_coverage() {
  "$1" match -p "$2" -f "$3" -T '${PROGRAM}	${.classifier.class}	${MESSAGE}\n' 2>/dev/null |
    awk -F'\t' '{ p = ($1 == "" ? "(none)" : $1); if ($3 == "") p = "(empty-message)"; t[p]++; T++
                  if ($2 != "" && $2 != "unknown") { m[p]++; M++ } }
                END { for (p in t) printf "%s %d %d\n", p, m[p], t[p]
                      printf "ALL %d %d\n", M, T }' | sort >"$4"
}

# library_unknown TOOL DB LOG: the lines of LOG no rule classifies.
library_unknown() {
  "$1" match -p "$2" -f "$3" -T '${.classifier.class}\n' 2>/dev/null |
    paste -d'\t' - "$3" | awk -F'\t' '$1 == "unknown" || $1 == "" { print $2 }'
}

# library_captures: the committed real captures, one path a line: the
# Debian 12 captures and the loghub samples that hold syslog lines
# (Linux, OpenSSH, Thunderbird) or Apache's error log (Apache).
library_captures() {
  ls "$top_srcdir"/tests/data/debian12/*.log
  for s in Linux OpenSSH Thunderbird Apache; do
    echo "$top_srcdir/tests/data/loghub/$s/${s}_2k.log"
  done
}

# library_capture_messages TOOL DB CAPTURE: the messages of one committed
# capture as "PROGRAM<TAB>MESSAGE" lines, read by TOOL's syslog parser.
# Thunderbird lines carry the collector's prefix ("- 1131566461 2005.11.09
# dn228 ") before the syslog line, whose day of the month is not padded to
# two characters ("Nov 9") as RFC 3164 wants ("Nov  9"); Apache's error
# log has no syslog header, its lines are the messages of program httpd.
library_capture_messages() {
  case "$3" in
    */Apache_2k.log) awk '{ print "httpd\t" $0 }' "$3" ;;
    */Thunderbird_2k.log)
      awk '{ print }' "$3" | sed -E 's/^[^ ]+ [0-9]+ [0-9.]+ [^ ]+ //; s/^([A-Z][a-z][a-z]) ([1-9]) /\1  \2 /' |
        "$1" match -p "$2" -f - -T '${PROGRAM}\t${MESSAGE}\n' ;;
    *) awk '{ print }' "$3" | "$1" match -p "$2" -f - -T '${PROGRAM}\t${MESSAGE}\n' ;;
  esac
}

# library_capture_pairs TOOL DB OUT: the messages of every committed capture
# (library_capture_messages) in one file.
library_capture_pairs() {
  local f
  : >"$3"
  for f in $(library_captures); do
    library_capture_messages "$1" "$2" "$f" >>"$3"
  done
}

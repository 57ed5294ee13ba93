#!/bin/bash
# tests/reliability/test-bad-db.sh: hostile and broken pattern databases.
# Every case is loaded with `patterndb dump -T -p FILE` and must end the way
# the table says: refused with exit status 1..127 (never a signal) and an
# error that names the file (and line:column where the XML parser knows
# them), or loaded (with a warning where 3.38 only warns). No case may
# crash, hang, read an external entity, expand entities or use much memory.
# A representative subset runs again under valgrind memcheck.
. "$top_srcdir/tests/lib.sh"
make_tmpdir
P="$top_builddir/patterndb"
T=$TEST_TMPDIR
sanitizer_re='AddressSanitizer|LeakSanitizer|runtime error|Segmentation|Aborted|CRITICAL'

rs_head='<patterndb version="6" pub_date="2026-01-01"><ruleset name="a" id="rs"><patterns><pattern>a</pattern></patterns><rules>'
rs_tail='</rules></ruleset></patterndb>'
rule() { printf '<rule provider="t" id="%s" class="system"><patterns><pattern>%s</pattern></patterns>%s</rule>' "$1" "$2" "${3:-}"; }

# load FILE: runs the loader; sets rc, err (stderr) and out (stdout).
load() {
  out=$(timeout 30 "$P" dump -T -p "$1" 2>"$T/err")
  rc=$?
  err=$(cat "$T/err")
}

# refused NAME FILE REGEX: the load must fail cleanly with an error matching REGEX.
refused() {
  local name=$1 file=$2 re=$3
  load "$file"
  if [ "$rc" -ge 1 ] && [ "$rc" -lt 124 ] && printf '%s' "$err" | grep -Eq -- "$re" \
     && ! printf '%s' "$err" | grep -Eq "$sanitizer_re"; then
    ok "$name: refused ($(printf '%s' "$err" | head -1 | sed "s|$T/||g" | cut -c1-160))"
  else
    not_ok "$name: expected a clean refusal matching /$re/"
    diag "exit status $rc"; diag "$err"
  fi
}

# loads NAME FILE [REGEX]: the load must succeed (a warning matching REGEX on stderr).
loads() {
  local name=$1 file=$2 re=${3:-}
  load "$file"
  if [ "$rc" -eq 0 ] && { [ -z "$re" ] || printf '%s' "$err" | grep -Eq -- "$re"; } \
     && ! printf '%s' "$err" | grep -Eq "$sanitizer_re"; then
    ok "$name: loaded${re:+ with a warning}"
  else
    not_ok "$name: expected a load${re:+ with a warning matching /$re/}"
    diag "exit status $rc"; diag "$err"
  fi
}

w() { printf '%s' "$2" > "$T/$1"; }

# --- Malformed XML: file:line:column and libxml2's reason.
w empty.xml ''
refused "empty file" "$T/empty.xml" "empty.xml"
w text.xml 'this is not XML at all'
refused "plain text" "$T/text.xml" "text.xml:1:[0-9]+"
printf '%s\n<ruleset name="a" id="rs">\n<rules' '<patterndb version="6">' > "$T/truncated.xml"
refused "truncated in a tag" "$T/truncated.xml" "truncated.xml:[0-9]+:[0-9]+"
w mismatched.xml "$rs_head$(rule r1 x)</ruleset></rules></patterndb>"
refused "mismatched end tags" "$T/mismatched.xml" "mismatched.xml:1:[0-9]+"
w attr.xml '<patterndb version="6" version="6"></patterndb>'
loads "duplicate attribute (3.38 loads it too)" "$T/attr.xml" "attr.xml:1:[0-9]+: Attribute version redefined"
w twice.xml '<patterndb version="6"></patterndb><patterndb version="6"></patterndb>'
loads "two root elements (3.38 reads both)" "$T/twice.xml" "twice.xml:1:[0-9]+: Extra content"
printf '<patterndb version="6">\n<ruleset name="a\000b" id="rs"/></patterndb>' > "$T/nul.xml"
refused "NUL byte inside" "$T/nul.xml" "nul.xml:[0-9]+:[0-9]+"
printf '<?xml version="1.0" encoding="UTF-8"?>\n<patterndb version="6"><ruleset name="\xff\xfe" id="rs"/></patterndb>' > "$T/utf8.xml"
refused "invalid UTF-8" "$T/utf8.xml" "utf8.xml:2:[0-9]+"
w encoding.xml '<?xml version="1.0" encoding="NO-SUCH-CHARSET"?><patterndb version="6"/>'
refused "unknown encoding" "$T/encoding.xml" "encoding.xml"
{ printf '<patterndb version="6">'; for _ in $(seq 5000); do printf '<ruleset>'; done; } > "$T/deep.xml"
refused "5000 nested elements" "$T/deep.xml" "deep.xml:1:[0-9]+"

# --- Well-formed but wrong: versions, elements, templates, ids.
w noroot.xml '<database version="6"/>'
refused "wrong root element" "$T/noroot.xml" "noroot.xml:1:[0-9]+"
w v99.xml '<patterndb version="99"/>'
refused "unknown version 99" "$T/v99.xml" "v99.xml:1:[0-9]+.*version"
w vabc.xml '<patterndb version="abc"/>'
refused "version not a number" "$T/vabc.xml" "vabc.xml:1:[0-9]+.*version"
w unknown.xml "$rs_head<bogus/>$(rule r1 x)$rs_tail"
refused "unknown element" "$T/unknown.xml" "unknown.xml:1:[0-9]+.*bogus"
w misplaced.xml '<patterndb version="6"><rule id="r"/></patterndb>'
refused "element in the wrong place" "$T/misplaced.xml" "misplaced.xml:1:[0-9]+.*rule"
w noid.xml "$rs_head<rule provider=\"t\" class=\"c\"><patterns><pattern>x</pattern></patterns></rule>$rs_tail"
refused "rule without id" "$T/noid.xml" "noid.xml:1:[0-9]+.*id"
w template.xml "$rs_head$(rule r1 'x @ESTRING:v: @' '<values><value name="y">$(echo ${v}</value></values>')$rs_tail"
refused "template with an unclosed \$(" "$T/template.xml" "template.xml:1:[0-9]+"
w template2.xml "$rs_head$(rule r1 'x @ESTRING:v: @' '<values><value name="y">${v</value></values>')$rs_tail"
refused "template with an unclosed \${" "$T/template2.xml" "template2.xml:1:[0-9]+"
w dupid.xml "$rs_head$(rule r1 'one')$(rule r1 'two')$rs_tail"
loads "duplicate rule id: loads (3.38's loader does not check ids)" "$T/dupid.xml"
"$P" test --validate "$T/dupid.xml" >/dev/null 2>"$T/err"; rc=$?
if [ "$rc" -eq 1 ] && grep -q "dupid.xml:1:.*Duplicate.*'r1'" "$T/err"; then
  ok "duplicate rule id: test --validate names it ($(grep -o "dupid.xml:1:.*r1'\]" "$T/err"))"
else
  not_ok "duplicate rule id: test --validate names it"; diag "exit $rc"; diag "$(cat "$T/err")"
fi
w duppat.xml "$rs_head$(rule r1 'same')$(rule r2 'same')$rs_tail"
loads "duplicate pattern (3.38 warns)" "$T/duppat.xml" "duppat.xml:1:[0-9]+"
w parser.xml "$rs_head$(rule r1 'x @NOSUCH:v@')$rs_tail"
loads "unknown parser (3.38 warns)" "$T/parser.xml" "parser.xml:1:[0-9]+"
w pcre.xml "$rs_head$(rule r1 'x @PCRE:v:(unclosed@')$rs_tail"
loads "PCRE that does not compile (3.38 warns)" "$T/pcre.xml" "pcre.xml:1:[0-9]+"

# --- Entities: never expanded, never fetched.
cat > "$T/laughs.xml" <<'XML'
<?xml version="1.0"?>
<!DOCTYPE patterndb [
 <!ENTITY l0 "lol">
 <!ENTITY l1 "&l0;&l0;&l0;&l0;&l0;&l0;&l0;&l0;&l0;&l0;">
 <!ENTITY l2 "&l1;&l1;&l1;&l1;&l1;&l1;&l1;&l1;&l1;&l1;">
 <!ENTITY l3 "&l2;&l2;&l2;&l2;&l2;&l2;&l2;&l2;&l2;&l2;">
 <!ENTITY l4 "&l3;&l3;&l3;&l3;&l3;&l3;&l3;&l3;&l3;&l3;">
 <!ENTITY l5 "&l4;&l4;&l4;&l4;&l4;&l4;&l4;&l4;&l4;&l4;">
 <!ENTITY l6 "&l5;&l5;&l5;&l5;&l5;&l5;&l5;&l5;&l5;&l5;">
 <!ENTITY l7 "&l6;&l6;&l6;&l6;&l6;&l6;&l6;&l6;&l6;&l6;">
 <!ENTITY l8 "&l7;&l7;&l7;&l7;&l7;&l7;&l7;&l7;&l7;&l7;">
 <!ENTITY l9 "&l8;&l8;&l8;&l8;&l8;&l8;&l8;&l8;&l8;&l8;">
]>
<patterndb version="6"><ruleset name="a" id="rs"><rules>
<rule provider="t" id="r1" class="c"><patterns><pattern>&l9;</pattern></patterns></rule>
</rules></ruleset></patterndb>
XML
time_rss "$T/time" timeout 30 "$P" dump -T -p "$T/laughs.xml" >/dev/null 2>"$T/err"; rc=$?
read -r rss secs < <(tail -1 "$T/time")
if ! measured "billion laughs: refused quickly without expansion" "${rss:-}" "${secs:-}"; then :
elif [ "$rc" -ge 1 ] && [ "$rc" -lt 124 ] && [ "$rss" -lt 100000 ] && grep -q 'laughs.xml:[0-9]*:[0-9]*' "$T/err"; then
  ok "billion laughs: refused in ${secs}s, peak RSS ${rss} KiB ($(head -1 "$T/err" | sed "s|$T/||g" | cut -c1-120))"
else
  not_ok "billion laughs: refused quickly without expansion"; diag "exit $rc, rss $rss KiB, ${secs}s"; diag "$(cat "$T/err")"
fi

printf 'SECRET-MARKER-%s\n' $$ > "$T/secret.txt"
cat > "$T/xxe.xml" <<XML
<?xml version="1.0"?>
<!DOCTYPE patterndb [ <!ENTITY xxe SYSTEM "file://$T/secret.txt"> <!ENTITY pw SYSTEM "file:///etc/passwd"> ]>
<patterndb version="6"><ruleset name="a" id="rs"><patterns><pattern>a</pattern></patterns><rules>
<rule provider="t" id="r1" class="c"><patterns><pattern>x &xxe; &pw;</pattern></patterns></rule>
</rules></ruleset></patterndb>
XML
load "$T/xxe.xml"
if [ "$rc" -ge 1 ] && [ "$rc" -lt 124 ] && ! printf '%s%s' "$out" "$err" | grep -q 'SECRET-MARKER\|root:'; then
  ok "external entities are not read ($(printf '%s' "$err" | head -1 | sed "s|$T/||g" | cut -c1-120))"
else
  not_ok "external entities are not read"; diag "exit $rc"; diag "$out"; diag "$err"
fi
cat > "$T/extdtd.xml" <<XML
<?xml version="1.0"?>
<!DOCTYPE patterndb SYSTEM "file://$T/evil.dtd">
<patterndb version="6"><ruleset name="a" id="rs"><patterns><pattern>a</pattern></patterns><rules>
<rule provider="t" id="r1" class="c"><patterns><pattern>x</pattern></patterns></rule>
</rules></ruleset></patterndb>
XML
mkfifo "$T/evil.dtd"   # opening it would block: the loader must never try
load "$T/extdtd.xml"
if [ "$rc" -lt 124 ] && ! printf '%s' "$err" | grep -Eq "$sanitizer_re"; then
  ok "an external DTD is not loaded (exit $rc, no hang)"
else
  not_ok "an external DTD is not loaded"; diag "exit $rc"; diag "$err"
fi

# --- Files that are not what they claim.
truncate -s 1G "$T/huge.xml"
time_rss "$T/time" timeout 30 "$P" dump -T -p "$T/huge.xml" >/dev/null 2>"$T/err"; rc=$?
read -r rss secs < <(tail -1 "$T/time")
if ! measured "1 GiB file: refused quickly" "${rss:-}" "${secs:-}"; then :
elif [ "$rc" -ge 1 ] && [ "$rc" -lt 124 ] && [ "$rss" -lt 100000 ] && grep -q 'huge.xml' "$T/err"; then
  ok "1 GiB file: refused in ${secs}s, peak RSS ${rss} KiB ($(head -1 "$T/err" | sed "s|$T/||g" | cut -c1-120))"
else
  not_ok "1 GiB file: refused quickly"; diag "exit $rc, rss $rss KiB, ${secs}s"; diag "$(cat "$T/err")"
fi
rm -f "$T/huge.xml"
refused "missing file" "$T/no-such-file.xml" "no-such-file.xml"
mkfifo "$T/fifo.xml"
refused "a FIFO (would block)" "$T/fifo.xml" "fifo.xml"
mkdir -p "$T/dirfifo" && cp "$T/duppat.xml" "$T/dirfifo/good.xml" && mkfifo "$T/dirfifo/pipe.xml"
load "$T/dirfifo"
if [ "$rc" -lt 124 ] && ! printf '%s' "$err" | grep -Eq "$sanitizer_re"; then
  ok "a FIFO named *.xml in a directory: no hang (exit $rc)"
else
  not_ok "a FIFO named *.xml in a directory"; diag "exit $rc"; diag "$err"
fi
if [ "$(id -u)" != 0 ]; then
  cp "$T/duppat.xml" "$T/noperm.xml" && chmod 000 "$T/noperm.xml"
  refused "unreadable file" "$T/noperm.xml" "noperm.xml"
fi
mkdir -p "$T/loops/sub" && cp "$T/duppat.xml" "$T/loops/sub/a.xml"
ln -s .. "$T/loops/sub/up" && ln -s b "$T/loops/a" && ln -s a "$T/loops/b" && ln -s self.xml "$T/loops/self.xml"
load "$T/loops"
if [ "$rc" -lt 124 ] && ! printf '%s' "$err" | grep -Eq "$sanitizer_re"; then
  ok "circular symlinks in a directory: terminates (exit $rc: $(printf '%s' "$err" | head -1 | sed "s|$T/||g" | cut -c1-100))"
else
  not_ok "circular symlinks in a directory"; diag "exit $rc"; diag "$err"
fi

# --- Valgrind memcheck on a representative subset (errors and definite leaks).
if command -v valgrind >/dev/null 2>&1 && [ "${PDB_BUILD_FLAVOUR:-werror}" != asan ]; then
  for f in truncated.xml unknown.xml template.xml dupid.xml duppat.xml pcre.xml laughs.xml xxe.xml; do
    valgrind -q --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=99 \
      "$P" dump -T -p "$T/$f" >/dev/null 2>"$T/vg"
    if [ $? -ne 99 ] && ! grep -q '==[0-9]*==' "$T/vg"; then
      ok "valgrind memcheck clean: $f"
    else
      not_ok "valgrind memcheck clean: $f"; diag "$(grep '==' "$T/vg" | head -30)"
    fi
  done
fi
done_testing

#!/bin/bash
# tests/differential/test-filters.sh: syslog-ng filter expressions (action
# conditions, $(if), match -F) in `patterndb` against pdbtool 3.38.
#
#   1. filters/conditions.xml: one match action (rule u, no context) and one
#      timeout action (rule g, a context per host) per line of
#      filters/conditions.txt, every filter function and comparison; the
#      messages make each condition true for some and false for others
#      (except where pdbtool has nothing to vary: PROGRAM is fixed by the
#      ruleset, and a message of `match` has no sender address, so netmask()
#      sees 127.0.0.1), with numbers at and beyond the 32- and 64-bit limits.
#      The full NAME=value output must be identical.
#   2. the same expressions as -F filters: the same messages pass.
#   3. $(if) with filter functions in -T templates.
#   4. conditions 3.38 refuses: both refuse the database (pdbtool exits 0
#      with an error on stderr, we exit 2 naming file:line:column).
#   5. a deliberate difference: a `#` comment that runs to the end of a
#      condition crashes pdbtool while it loads; we refuse the database.
. "$top_srcdir/tests/lib.sh"

setup_vs_pdbtool
FDIR=$DIFFDIR/filters
sed "s|@LIST@|$FDIR/users.list|g" "$FDIR/conditions.xml" > "$T/conditions.xml"
MSGS=$FDIR/conditions.messages
n_conditions=$(grep -c . "$FDIR/conditions.txt")
n_user_lines=$(grep -c ': user ' "$MSGS")

# --- 1. action conditions -------------------------------------------------------
"$PDBTOOL" match -p "$T/conditions.xml" -f "$MSGS" > "$T/ref.out" 2>"$T/ref.err"
"$PATTERNDB" match -p "$T/conditions.xml" -f "$MSGS" > "$T/ours.out" 2>"$T/ours.err"
fired=$(grep -c '^MESSAGE=[ug][0-9]' "$T/ref.out")
if cmp -s "$T/ref.out" "$T/ours.out" && [ "$fired" -gt 500 ]; then
  ok "conditions: $n_conditions conditions x 2 actions, $(wc -l < "$MSGS") messages, $fired actions fired, output identical"
else
  not_ok "conditions: output differs ($fired actions fired in pdbtool)"
  diff "$T/ref.out" "$T/ours.out" | head -20 | while IFS= read -r l; do diag "$l"; done
  head -3 "$T/ours.err" | while IFS= read -r l; do diag "stderr: $l"; done
fi
# each condition is true for some messages and false for others, unless
# nothing in a message of pdbtool can change it
constant=""
for i in $(seq 1 "$n_conditions"); do
  u=$(grep -c "^MESSAGE=u$i n=" "$T/ref.out")
  g=$(grep -c "^MESSAGE=g$i n=" "$T/ref.out")
  if [ $((u + g)) -eq 0 ] || { [ "$u" -eq "$n_user_lines" ] && [ "$g" -gt 0 ]; }; then
    constant="$constant $i"
  fi
done
check_eq "conditions that no message can change: program(), source(\"\"), netmask*(), the full severity range, always-true comparisons" \
  " 14 15 19 20 21 25 30 31 32 33 34 48 54 55" "$constant"

# typed <value>s and @NUMBER@ captures are strings to 3.38's conditions
"$PDBTOOL" match -p "$FDIR/typed.xml" -f "$FDIR/typed.messages" > "$T/ref.ty" 2>/dev/null
"$PATTERNDB" match -p "$FDIR/typed.xml" -f "$FDIR/typed.messages" > "$T/ours.ty" 2>/dev/null
if cmp -s "$T/ref.ty" "$T/ours.ty" && [ "$(grep -c '^MESSAGE=A' "$T/ref.ty")" -gt 5 ]; then
  ok "typed values against casts: identical ($(grep -c '^MESSAGE=A' "$T/ref.ty") actions fired)"
else
  not_ok "typed values against casts: differ"; diff "$T/ref.ty" "$T/ours.ty" | head -6 | while IFS= read -r l; do diag "$l"; done
fi

# --- 2. the same expressions as -F filters ----------------------------------------
n_same=0
while IFS= read -r cond; do
  f=$(printf '%s' "$cond" | sed -e "s|@LIST@|$FDIR/users.list|g" -e 's/&lt;/</g' -e 's/&gt;/>/g')
  "$PDBTOOL" match -p "$T/conditions.xml" -f "$MSGS" -F "$f" -T '${.classifier.rule_id} ${n} ${PRI}\n' 2>/dev/null > "$T/ref.f"
  "$PATTERNDB" match -p "$T/conditions.xml" -f "$MSGS" -F "$f" -T '${.classifier.rule_id} ${n} ${PRI}\n' 2>/dev/null > "$T/ours.f"
  if cmp -s "$T/ref.f" "$T/ours.f"; then n_same=$((n_same + 1))
  else not_ok "-F '$f': different messages"; diff "$T/ref.f" "$T/ours.f" | head -6 | while IFS= read -r l; do diag "$l"; done; fi
done < "$FDIR/conditions.txt"
check_eq "-F: every expression of conditions.txt lets the same messages through" "$n_conditions" "$n_same"

# pdbtool compiles -F before it loads the database: the names and tags the
# filter mentions come first in the NAME=value and TAGS output (also with
# the --threads workers)
for f in 'match("." value("src_ip")) or tags("zzz") or tags(".classifier.system")' \
         'tags("secevt") or match("x" template("${user}"))' \
         'in-list("'"$FDIR"'/users.list" "src_port") or "${port}${src_ip}" ne ""'; do
  "$PDBTOOL" match -p "$DIFFDIR/db/elements.xml" -f "$DIFFDIR/db/elements.messages" -F "$f" 2>/dev/null > "$T/ref.o"
  for threads in 1 2; do
    "$PATTERNDB" match -p "$DIFFDIR/db/elements.xml" -f "$DIFFDIR/db/elements.messages" -F "$f" --threads $threads 2>/dev/null > "$T/ours.o"
    if cmp -s "$T/ref.o" "$T/ours.o" && [ -s "$T/ref.o" ]; then ok "-F '$f' --threads $threads: NAME=value output identical"
    else not_ok "-F '$f' --threads $threads: NAME=value output differs"; diff "$T/ref.o" "$T/ours.o" | head -6 | while IFS= read -r l; do diag "$l"; done; fi
  done
done

# extreme constants: casts and netmasks at and beyond the integer limits, as
# -F (each lets every line through or none)
constants=(
  'netmask("127.0.0.1/-99999999999999999999")' 'netmask("127.0.0.1/99999999999999999999")'
  'netmask("127.0.0.1/4294967328")' 'netmask("128.0.0.1/4294967295")' 'netmask("127.0.0.1/40")'
  'netmask6("::1/99999999999999999999")' 'netmask6("::1/4294967424")' 'netmask6("::1/-1")'
  'facility(9223372036854775807)' 'facility(4294967297)' 'facility(-4294967295)'
  'datetime("1e300") > 1' 'datetime("-1.5") == -500' 'datetime("1.1234567891") == 1123' 'datetime("1.-5") == 950'
  'datetime("1. 5") == 1050' 'datetime("1.") == 1000' 'datetime(".5") == 500' 'datetime("-.5") == 0'
  'datetime("9223372036854775807") == -1000' 'datetime("1000000000000000000000") == -1000' 'datetime("1.5x") == 0'
  'double("1e400") > 1' 'double("1e-400") == 0' 'int("-9223372036854775809") < 1' 'int("inf") > 1'
  'int("9223372036854775807") > 9223372036854775806' 'int("9223372036854775808") > 9223372036854775807'
  '"9223372036854775807" == "-1"' '"-9223372036854775808" == "0"' '"2147483647" < "2147483648"'
  'boolean("Tx") == 1' 'boolean(" true") == 0' 'boolean("yes") == 0' '5k == 5000' '1GiB == 1073741824'
  '-0x1F == -31' '010 == 8' '1.50 eq "1.50"' 'int(" 5") == 5' 'int("5 ") == 5'
)
n_const=0
for f in "${constants[@]}"; do
  "$PDBTOOL" match -p "$FDIR/typed.xml" -f "$FDIR/typed.messages" -F "$f" -T '${n}\n' 2>/dev/null > "$T/ref.k"
  "$PATTERNDB" match -p "$FDIR/typed.xml" -f "$FDIR/typed.messages" -F "$f" -T '${n}\n' 2>/dev/null > "$T/ours.k"
  if cmp -s "$T/ref.k" "$T/ours.k"; then n_const=$((n_const + 1))
  else not_ok "-F '$f': pdbtool passes $(wc -l < "$T/ref.k") lines, we pass $(wc -l < "$T/ours.k")"; fi
done
check_eq "extreme constants give pdbtool's answers" "${#constants[@]}" "$n_const"

# --- 3. $(if) with filter functions -------------------------------------------------
tmpl='$(if (match("^b" value("user"))) B x)|$(if (level(err..emerg)) hi lo)|$(if (tags("vip") and "${n}" > "10") big small)|$(if ("${n}" == "4294967297") wrap no)\n'
"$PDBTOOL" match -p "$T/conditions.xml" -f "$MSGS" -T "$tmpl" 2>/dev/null | grep -v '^u[0-9]\|^g[0-9]' > "$T/ref.t"
"$PATTERNDB" match -p "$T/conditions.xml" -f "$MSGS" -T "$tmpl" 2>/dev/null | grep -v '^u[0-9]\|^g[0-9]' > "$T/ours.t"
if cmp -s "$T/ref.t" "$T/ours.t" && grep -q 'wrap' "$T/ref.t" && grep -q '^B|hi' "$T/ref.t"; then
  ok "\$(if) with filter functions in -T: identical ($(wc -l < "$T/ref.t") lines)"
else
  not_ok "\$(if) with filter functions in -T: differs"; diff "$T/ref.t" "$T/ours.t" | head -6 | while IFS= read -r l; do diag "$l"; done
fi

# in rule values $(if) sees the message's tags and PRI; in action messages 3.38 sees neither
compare_if() {   # compare_if LABEL [match options...]
  local label=$1; shift
  "$PDBTOOL" match -p "$FDIR/if.xml" -f "$FDIR/if.messages" "$@" 2>/dev/null > "$T/ref.if"
  "$PATTERNDB" match -p "$FDIR/if.xml" -f "$FDIR/if.messages" "$@" 2>/dev/null > "$T/ours.if"
  if cmp -s "$T/ref.if" "$T/ours.if" && grep -q 'err' "$T/ref.if" && grep -q 'yes' "$T/ref.if"; then
    ok "\$(if) in values and action messages, $label: identical"
  else
    not_ok "\$(if) in values and action messages, $label: differs"
    diff "$T/ref.if" "$T/ours.if" | head -6 | while IFS= read -r l; do diag "$l"; done
  fi
}
compare_if "NAME=value"
compare_if "-T" -T '${MESSAGE}|${t}|${l}|${f}\n'

# flags(store-matches): $0..$N and named groups written into the message by
# conditions (with and without a context) and by -F (on lines that generate
# no message: pdbtool aborts when -F stores into a generated one)
"$PDBTOOL" match -p "$FDIR/store.xml" -f "$FDIR/store.messages" > "$T/ref.sm" 2>/dev/null
"$PATTERNDB" match -p "$FDIR/store.xml" -f "$FDIR/store.messages" > "$T/ours.sm" 2>/dev/null
if cmp -s "$T/ref.sm" "$T/ours.sm" && grep -q '^zz=' "$T/ref.sm" && grep -q '^1=b' "$T/ref.sm"; then
  ok "store-matches in conditions: identical ($(grep -c '^[0-9]*=' "$T/ref.sm") match values)"
else
  not_ok "store-matches in conditions: differs"; diff "$T/ref.sm" "$T/ours.sm" | head -6 | while IFS= read -r l; do diag "$l"; done
fi
grep ': s ' "$FDIR/store.messages" > "$T/store-s.messages"
n_store=0
store_filters=(
  'match("(?<zz>b)(x)?(?<aa>o)(?<mm>q)?" value("n") flags(store-matches))'
  'match("(b)(o)" value("n") flags(store-matches)) and match("(b)" value("n") flags(store-matches))'
  'program("(a)(p)" flags(store-matches)) or match("(.)" value("n") flags(store-matches))'
  'match("b" value("n") type(string) flags(store-matches prefix))'
)
for f in "${store_filters[@]}"; do
  "$PDBTOOL" match -p "$FDIR/store.xml" -f "$T/store-s.messages" -F "$f" > "$T/ref.sf" 2>/dev/null
  "$PATTERNDB" match -p "$FDIR/store.xml" -f "$T/store-s.messages" -F "$f" > "$T/ours.sf" 2>/dev/null
  if cmp -s "$T/ref.sf" "$T/ours.sf"; then n_store=$((n_store + 1))
  else not_ok "-F '$f': differs"; diff "$T/ref.sf" "$T/ours.sf" | head -4 | while IFS= read -r l; do diag "$l"; done; fi
done
check_eq "store-matches in -F: the same values" "${#store_filters[@]}" "$n_store"

# --- 4. conditions 3.38 refuses ----------------------------------------------------
one_condition_db() {
  printf "<patterndb version='4' pub_date='2026-12-04'><ruleset name='app' id='rs'><pattern>app</pattern><rules>\n<rule provider='t' id='r' class='c'><patterns><pattern>x</pattern></patterns><actions>\n<action trigger='match' condition='%s'><message><values><value name='MESSAGE'>m</value></values></message></action></actions></rule></rules></ruleset></patterndb>\n" "$1" > "$T/one.xml"
}
refused=(
  'level(nosuch)' 'level(6)' 'level()' 'facility(audit)' 'facility(1, 2)' 'facility(user..2)'
  'match("(" value("x"))' 'match("a" type(nosuch))' 'match("a" flags(dup-names))' 'program("a" value("x"))'
  'tags("a") or' 'tags("a") or junk' 'NOT tags("x")' 'Tags("x")' 'nosuch(5) == 5' '5==5'
  '"a" &lt;&gt; "b"' '1. == 1' 'int(${n}) == 1' '${n} == 5' 'in-list("/nonexistent/list" user)' 'in-list("x")'
  'filter(f_x)' 'match("a" value("${x}x$"))' '99999999999999999999 == 1' '"unterminated' ''
)
n_refused=0
for c in "${refused[@]}"; do
  one_condition_db "$c"
  "$PDBTOOL" match -p "$T/one.xml" -P app -M x > "$T/ref.r" 2>&1; ref_rc=$?
  "$PATTERNDB" match -p "$T/one.xml" -P app -M x > /dev/null 2> "$T/ours.r"; ours_rc=$?
  if [ "$ref_rc" -eq 0 ] && grep -q 'Error \(compiling\|initializing\) conditional expression' "$T/ref.r" \
     && [ "$ours_rc" -eq 2 ] && grep -q "one.xml:3:[0-9]*: action condition in rule 'r': filter expression" "$T/ours.r"; then
    n_refused=$((n_refused + 1))
  else
    not_ok "condition '$c': pdbtool rc=$ref_rc, ours rc=$ours_rc"
    head -2 "$T/ref.r" "$T/ours.r" | while IFS= read -r l; do diag "$l"; done
  fi
done
check_eq "conditions 3.38 refuses make the database fail in both" "${#refused[@]}" "$n_refused"
# and the accepted ones all load in both (a negative control for the check above)
one_condition_db 'tags("a") junk'
"$PDBTOOL" match -p "$T/one.xml" -P app -M x 2>&1 | grep -q 'conditional expression'
check "pdbtool accepts text after a complete condition" [ $? -ne 0 ]
"$PATTERNDB" match -p "$T/one.xml" -P app -M x > /dev/null 2>&1
check_eq "we accept text after a complete condition" 0 $?

# --- 5. deliberate difference: a comment to the end of the condition ------------------
one_condition_db 'tags("a") # no newline'
"$PDBTOOL" match -p "$T/one.xml" -P app -M x > /dev/null 2>&1; ref_rc=$?
"$PATTERNDB" match -p "$T/one.xml" -P app -M x > /dev/null 2> "$T/ours.r"; ours_rc=$?
check_eq "allowed: pdbtool crashes (SIGSEGV) on a comment that ends the condition" 139 "$ref_rc"
check_eq "allowed: we refuse that database" 2 "$ours_rc"
check "allowed: the error says why" grep -q "column 11: expected a filter function.*comment without an end of line\|expected an end of line after the comment" "$T/ours.r"
one_condition_db 'tags("a") # ends&#10;'
"$PDBTOOL" match -p "$T/one.xml" -P app -M x 2>&1 | grep -q 'conditional expression'
check "pdbtool accepts a comment that ends with a newline" [ $? -ne 0 ]
"$PATTERNDB" match -p "$T/one.xml" -P app -M x > /dev/null 2>&1
check_eq "we accept a comment that ends with a newline" 0 $?

done_testing

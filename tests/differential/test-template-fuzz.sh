#!/bin/bash
# tests/differential/test-template-fuzz.sh: random nested template function
# calls (template-fuzz.py, fixed seeds) as the <value>s of a rule with a
# correlation context, over template-funcs-context.messages: every call
# that both pdbtool 3.38 and patterndb compile must give the same -T output.
# Constructs on which 3.38 crashes (doc/correlation.md, Templates) are left out.
. "$top_srcdir/tests/lib.sh"

setup_vs_pdbtool
# -T and -M go through GOption, which reads them in the locale's encoding
export LC_ALL=C.UTF-8

cat > "$T/one.xml" <<'XML'
<?xml version='1.0' encoding='UTF-8'?>
<patterndb version='5' pub_date='2026-12-04'>
  <ruleset name='t' id='rs-t'><pattern>t</pattern><rules>
    <rule provider='test' id='r1' class='system'><patterns><pattern>x @ANYSTRING:x@</pattern></patterns></rule>
  </rules></ruleset>
</patterndb>
XML
crashes='\$\((basename|dirname|substr) *\)|\$\((grep|context-lookup) +-|\$\(explode ("")? |\$\(explode \$\{|\$\(padding [^ ]+ -'
msgs=$DIFFDIR/template-funcs-context.messages

for seed in 1 2 3 4; do
  python3 "$DIFFDIR/template-fuzz.py" "$seed" 250 | grep -v -E "$crashes" > "$T/all.txt"
  : > "$T/ok.txt"
  while IFS= read -r tmpl; do
    "$PATTERNDB" match -p "$T/one.xml" -P t -M 'x hi' -T "$tmpl" > /dev/null 2>&1 < /dev/null &&
      "$PDBTOOL" match -p "$T/one.xml" -P t -M 'x hi' -T "$tmpl" > /dev/null 2>&1 < /dev/null &&
      printf '%s\n' "$tmpl" >> "$T/ok.txt"
  done < "$T/all.txt"
  n=$(wc -l < "$T/ok.txt")
  python3 - "$T/ok.txt" "$T/fuzz.xml" "$T/template" <<'PY'
import html, sys
calls = [l.rstrip("\n") for l in open(sys.argv[1], encoding="utf-8")]
values = "\n".join(f"        <value name='f{i:03d}'>{html.escape(c, quote=True)}</value>" for i, c in enumerate(calls))
open(sys.argv[2], "w", encoding="utf-8").write(f"""<?xml version='1.0' encoding='UTF-8'?>
<patterndb version='5' pub_date='2026-12-04'><ruleset name='cx' id='rs-cx'><pattern>cx</pattern><rules>
<rule provider='test' id='cx-step' class='step' context-id='s-${{k}}' context-timeout='30'>
<patterns><pattern>k=@ESTRING:k: @n=@ESTRING:n: @w=@ANYSTRING:w@</pattern></patterns>
<values>
{values}
</values></rule></rules></ruleset></patterndb>
""")
open(sys.argv[3], "w").write("|".join("${f%03d}" % i for i in range(len(calls))) + "\\n")
PY
  tmpl=$(cat "$T/template")
  "$PDBTOOL" match -p "$T/fuzz.xml" -f "$msgs" -T "$tmpl" > "$T/ref.t" 2>/dev/null
  "$PATTERNDB" match -p "$T/fuzz.xml" -f "$msgs" -T "$tmpl" > "$T/ours.t" 2> "$T/ours.err"
  if [ "$n" -ge 100 ] && [ -s "$T/ref.t" ] && cmp -s "$T/ref.t" "$T/ours.t" && ! grep -q 'Sanitizer\|runtime error' "$T/ours.err"; then
    ok "seed $seed: $n random calls in rule values over correlation contexts, -T identical"
  else
    not_ok "seed $seed: $n random calls, -T output differs"
    python3 - "$T/ref.t" "$T/ours.t" "$T/ok.txt" <<'PY' | while IFS= read -r l; do diag "$l"; done
import sys
ref = [l.split("|") for l in open(sys.argv[1], encoding="utf-8", errors="replace")]
ours = [l.split("|") for l in open(sys.argv[2], encoding="utf-8", errors="replace")]
calls = [l.rstrip("\n") for l in open(sys.argv[3], encoding="utf-8")]
shown = 0
for r, o in zip(ref, ours):
    for i, (a, b) in enumerate(zip(r, o)):
        if a != b and shown < 5 and i < len(calls):
            print(f"{calls[i]}: pdbtool '{a}' ours '{b}'")
            shown += 1
if len(ref) != len(ours):
    print(f"lines: pdbtool {len(ref)} ours {len(ours)}")
PY
    head -3 "$T/ours.err" | while IFS= read -r l; do diag "stderr: $l"; done
  fi
done

done_testing

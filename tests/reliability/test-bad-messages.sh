#!/bin/bash
# tests/reliability/test-bad-messages.sh: pathological messages through
# `patterndb match -f`: 1 MiB messages, messages of only delimiters, NUL
# bytes, invalid UTF-8, absurd headers, a last line without newline. For
# the databases pdbtool 3.38 can read, the output must be byte for byte
# pdbtool's (the PID field of "Error processing log message" records is the
# tool's own PID and is masked); for the bundled library (version 6) every
# input line must give exactly one record. Nothing may crash or hang.
. "$top_srcdir/tests/lib.sh"
make_tmpdir
P="$top_builddir/patterndb"
T=$TEST_TMPDIR
sanitizer_re='AddressSanitizer|LeakSanitizer|runtime error|Segmentation|CRITICAL'

python3 - "$T/bad.log" <<'PY'
import sys
with open(sys.argv[1], "wb") as f:
    w = f.write
    mib = 1 << 20
    w(b"Dec  3 11:00:00 host sshd[1]: " + b"A" * mib + b"\n")
    w(b"Dec  3 11:00:00 host sshd[1]: Accepted password for " + b"u" * mib + b" from 10.0.0.1 port 22 ssh2\n")
    w(b"Dec  3 11:00:00 host p: string " + b"a" * mib + b" end\n")
    w(b"Dec  3 11:00:00 host p: estring " + b"k=" * (mib // 2) + b";end\n")
    w(b"Dec  3 11:00:00 host p: " + b"x " * (mib // 2) + b"\n")
    w(b"Dec  3 11:00:00 host p: " + b"1." * (mib // 2) + b"\n")
    w(b" " * 65536 + b"\n")
    w(b":" * 65536 + b"\n")
    w(b"Dec  3 11:00:00 host p: " + b"[]<>:; ,=\"'" * 6000 + b"\n")
    w(b"\t\t\t\n\n\r\n")
    w(b"<13>1 - - - - - - " + b"\x00" * 10 + b"\n")
    w(b"Dec  3 11:00:00 host p: string a\x00b end\n")
    w(b"host prog: \xff\xfe\xc3\x28\xed\xa0\x80\xf4\x90\x80\x80 invalid\n")
    w(b"Dec  3 11:00:00 host p: string \xff\xfe\xc0\xaf end\n")
    w(b"<" + b"9" * 100 + b">x\n")
    w(b"<13>1 " + b"[" * 5000 + b"\n")
    w(b"<13>1 2026-12-03T11:00:00Z h a 1 m [" + b"x@1 a=\"\\" * 3000 + b"\n")
    w(b"Dec  3 11:00:00 host " + b"p" * 70000 + b"[1]: m\n")
    w(b"Dec  3 11:00:00 host p[" + b"9" * 70000 + b"]: m\n")
    w(b"no newline at end")
PY
lines=$(tr '\0' '\n' < "$T/bad.log" | wc -l)

mask() { sed 's/^PID=[0-9]*$/PID=N/' "$1"; }
for db in parsers elements precedence; do
  f="$top_srcdir/tests/differential/db/$db.xml"
  timeout 60 "$P" match -p "$f" -f "$T/bad.log" >"$T/ours" 2>"$T/err"; rc=$?
  "${PDBTOOL_BIN:-pdbtool}" match -p "$f" -f "$T/bad.log" >"$T/ref" 2>/dev/null; refrc=$?
  if [ "$rc" = "$refrc" ] && cmp -s <(mask "$T/ours") <(mask "$T/ref") && ! grep -Eq "$sanitizer_re" "$T/err"; then
    ok "$db.xml: $(grep -c '^MESSAGE=' "$T/ours") records, identical to pdbtool (exit $rc, $(wc -c < "$T/ours") bytes)"
  else
    not_ok "$db.xml: identical to pdbtool"; diag "exit $rc, pdbtool $refrc"
    diag "$(diff <(mask "$T/ours" | cut -c1-120) <(mask "$T/ref" | cut -c1-120) | head -20)"
    diag "$(head -5 "$T/err")"
  fi
done
records=$(grep -c '^MESSAGE=' "$T/ref")

timeout 60 "$P" match -p "$top_srcdir/contrib/patterns" -f "$T/bad.log" >"$T/ours" 2>"$T/err"; rc=$?
n=$(grep -c '^MESSAGE=' "$T/ours")
if [ "$rc" -le 1 ] && [ "$n" = "$records" ] && ! grep -Eq "$sanitizer_re" "$T/err"; then
  ok "bundled library: one record per line ($n records from $lines lines, exit $rc)"
else
  not_ok "bundled library: one record per line"; diag "exit $rc, $n records, expected $records"; diag "$(head -5 "$T/err")"
fi
# -f cuts lines at 64 KiB as pdbtool does (proved by the comparison above);
# whole 1 MiB messages reach the matcher through `patterndb rsyslog`.
longest=$(awk '/^MESSAGE=/ && length($0) > n { n = length($0) } END { print n - 8 }' "$T/ours")
check_eq "-f: the longest MESSAGE is one 64 KiB piece" 65535 "$longest"
python3 -c '
import json
mib = 1 << 20
for prog, msg in (("p", "string " + "a" * mib + " end"),
                  ("sshd", "Accepted password for " + "u" * mib + " from 10.0.0.1 port 22 ssh2"),
                  ("p", " " * mib), ("p", "\u0000\u0001\udcff" * (mib // 3)), ("p", ": " * (mib // 2))):
    print(json.dumps({"msg": msg, "programname": prog}))' > "$T/big.jsonl"
timeout 60 "$P" rsyslog -p "$top_srcdir/tests/differential/db/parsers.xml" \
  < "$T/big.jsonl" >"$T/big.out" 2>"$T/err"; rc=$?
if [ "$rc" = 0 ] && python3 -c '
import json, sys
r = [json.loads(l)["$!"]["pdb"] for l in open(sys.argv[1])]
assert len(r) == 5, len(r)
assert r[0]["rule_id"] == "string" and len(r[0]["values"]["s"]) == 1 << 20, r[0].get("rule_id")
assert all(x["class"] == "unknown" for x in r[2:]), [x["class"] for x in r]
' "$T/big.out" 2>"$T/pyerr" && ! grep -Eq "$sanitizer_re" "$T/err"; then
  ok "rsyslog: five 1 MiB messages (1 MiB capture kept whole, delimiters, NULs, lone surrogates)"
else
  not_ok "rsyslog: 1 MiB messages"; diag "exit $rc"; diag "$(tail -3 "$T/pyerr")"; diag "$(head -3 "$T/err")"
fi
# The same through --json (escaping of NULs, control bytes and invalid UTF-8).
timeout 60 "$P" match --json -p "$top_srcdir/contrib/patterns" -f "$T/bad.log" >"$T/json" 2>"$T/err"; rc=$?
if [ "$rc" -le 1 ] && python3 -c '
import json, sys
n = 0
for line in open(sys.argv[1], "rb"):
    json.loads(line); n += 1
sys.exit(0 if n == int(sys.argv[2]) else 1)' "$T/json" "$records" 2>"$T/pyerr"; then
  ok "--json: $records valid JSON lines"
else
  not_ok "--json: one valid JSON line per record"; diag "exit $rc"; diag "$(tail -3 "$T/pyerr")"
fi
done_testing

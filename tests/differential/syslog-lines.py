#!/usr/bin/env python3
"""syslog-lines.py SCANNER_TEST_C OUT: writes the header rows of the tricky[] table
of tests/unit/test-syslog-line-scanner.c (C string literals, adjacent ones
joined, escapes decoded) and every non-empty prefix of each row, one line
each, for test-syslog-lines.sh to feed to pdbtool and to patterndb.

syslog-lines.py --compare LINES REF OURS KNOWN: prints "unexpected N",
"still N" and "fixed N" counts and the first lines of each kind: lines
whose records differ but are not listed in KNOWN (one Python-escaped line
each), listed lines that still differ, listed lines that now agree."""
import re
import sys

if sys.argv[1] == "--compare":
    def read(path):
        with open(path, "rb") as f:
            return f.read().decode("latin-1").split("\n")[:-1]
    lines, ref, ours = (read(p) for p in sys.argv[2:5])
    with open(sys.argv[5], encoding="ascii") as f:
        known = {l.rstrip("\n").encode("latin-1").decode("unicode_escape")
                 for l in f if l.strip() and not l.startswith("#")}
    differ = {lines[i] for i in range(len(lines))
              if i >= len(ref) or i >= len(ours) or ref[i] != ours[i]}
    for kind, found in (("unexpected", differ - known), ("still", differ & known),
                        ("fixed", known - differ)):
        print(kind, len(found))
        for line in sorted(found)[:5]:
            print("  " + line.encode("unicode_escape").decode("ascii"))
    sys.exit(0)

src = open(sys.argv[1], encoding="latin-1").read()
body = src[src.index("tricky[] ="):]
body = body[:body.index("};")]
rows = []
for group in re.finditer(r'(?:"(?:[^"\\]|\\.)*"\s*)+', body):
    parts = re.findall(r'"((?:[^"\\]|\\.)*)"', group.group(0))
    rows.append("".join(parts).encode("latin-1").decode("unicode_escape"))
if len(rows) < 50:
    sys.exit("%s: only %d rows found in tricky[]" % (sys.argv[1], len(rows)))
with open(sys.argv[2], "wb") as out:
    for row in rows:
        for end in range(1, len(row) + 1):
            line = row[:end]
            if line.strip():
                out.write(line.encode("latin-1") + b"\n")
print(len(rows))

#!/bin/bash
# tests/e2e/test-template-funcs.sh: the template functions of the pattern
# database's <value>s inside the real syslog-ng with our module give what
# `patterndb match` gives (which tests/differential/test-template-funcs.sh
# compares with pdbtool 3.38): the values of template-funcs-values.xml over
# messages with extreme numbers, list quoting and escapes, and the su
# rule's ${user}@@${tty}; invalid %-escapes for $(url-decode) included
# (glib's decoder would translate an error message in a worker thread).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/daemon.sh"
e2e_setup

T=$TEST_TMPDIR
DB="$top_srcdir/tests/differential/template-funcs-values.xml"
PATTERNDB=$top_builddir/patterndb
FIELDS='${usracct.sessionid}|${usracct.device}|${twice}|${tty_base}|${num}|${str}|${pad}|${lst}|${lst2}|${enc}|${each}|${typed}'
cat >"$T/syslog-ng.conf" <<CONF
@version: $SNG_CONFIG_VERSION
@module patterndb
options { $SNG_STATS_OFF };
source s_local { unix-stream("$T/sock" flags(no-parse)); };
parser p_split { csv-parser(columns("PROGRAM", "MESSAGE") delimiters(chars("\t"))); };
parser p_pdb { db-parser(file("$DB")); };
destination d_out { file("$T/out.log" template("$(echo "$FIELDS" | sed 's/\$/\\$/g')\n")); };
log { source(s_local); parser(p_split); parser(p_pdb); destination(d_out); };
CONF

plan 3
if ! daemon_start "$T/syslog-ng.conf"; then
  for i in $(seq 1 3); do not_ok "daemon did not start"; done
  exit 1
fi

# PROGRAM<tab>MESSAGE lines (no syslog header: the same text reaches both).
# Under the libasan preload, glibc's gettext lock deadlocks the first time
# glib translates an error message on a worker thread: syslog-ng's own
# $(url-decode) (which the daemon now uses) hangs on an invalid %-escape, and
# so does stock db-parser() with libasan preloaded (checked with gdb:
# bindtextdomain waits on _nl_state_lock); the plain build sends them.
asan=no
case " $DAEMON_ENV " in *libasan*) asan=yes ;; esac
python3 - "$T/lines" "$asan" <<'PY'
import sys
vals = ["0", "1", "-1", "7", "abcdef", "9223372036854775807", "-9223372036854775808",
        "99999999999999999999", "4294967297", "1.5", "-2.5", "1e308", "inf", "nan", "0x10",
        " 5", "", "a b", "a,b", 'a"b', "a'b", "a\\b", '"q",r', "x\\tb", "\u00e9", "1.2.3.4",
        "/a/b/", "%41%zz", "a,,b", ",a,", "-2:"]
if sys.argv[2] == "yes":
    vals = [v for v in vals if "%zz" not in v]
out = ["su\tSuccessful su for root by phemmer on pts/13"]
for i, a in enumerate(vals):
    b = vals[(i * 7 + 3) % len(vals)]
    c = vals[(i * 5 + 1) % len(vals)]
    out.append(f"tv\ta={a}|b={b}|c={c}")
open(sys.argv[1], "w").write("\n".join(out) + "\n")
PY
n=$(wc -l < "$T/lines")
# one connection, kept open until the daemon has written every line
python3 - "$T/sock" "$T/lines" "$T/out.log" "$n" <<'PY'
import os, socket, sys, time
sock, lines, out, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sock)
s.sendall(open(lines, "rb").read())
deadline = time.time() + 60
while time.time() < deadline:
    if os.path.exists(out) and sum(1 for _ in open(out, "rb")) >= n:
        break
    time.sleep(0.1)
s.close()
PY
wait_lines "$T/out.log" "$n" 10
daemon_stop   # flushes the file destination
cp "$T/out.log" "$T/out.n"
check_eq "the daemon wrote a line per message" "$n" "$(count_lines "$T/out.n")"
grep -m3 -A12 'Sanitizer\|runtime error' "$DAEMON_DIR/stderr.log" "$DAEMON_DIR/stdout.log" 2>/dev/null \
  | while IFS= read -r l; do diag "daemon: $l"; done

# the same messages through the tool (PROGRAM and MESSAGE as the daemon sees
# them; -M in a UTF-8 locale, as GOption converts arguments from the locale)
: > "$T/tool.log"
while IFS=$'\t' read -r prog msg; do
  LC_ALL=C.UTF-8 "$PATTERNDB" match -p "$DB" -P "$prog" -M "$msg" -T "$FIELDS\n" >> "$T/tool.log" 2>/dev/null < /dev/null
done < "$T/lines"
if cmp -s "$T/tool.log" "$T/out.n"; then
  ok "the daemon's values are the tool's ($n messages)"
else
  not_ok "the daemon's values differ from the tool's"
  diff "$T/tool.log" "$T/out.n" | head -10 | while IFS= read -r l; do diag "$l"; done
fi
check_eq "su rule: \${user}@@\${tty} in the daemon" "phemmer@pts/13" "$(head -1 "$T/out.n" | cut -d'|' -f1)"

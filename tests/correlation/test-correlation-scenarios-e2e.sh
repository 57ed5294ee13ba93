#!/bin/bash
# tests/correlation/test-correlation-scenarios-e2e.sh: the correlation
# scenarios of tests/correlation/scenarios run through the real syslog-ng
# 3.38 twice, once with our db-parser() (`@module patterndb`) and once with
# its own (`@module dbparser`, Debian's libdbparser.so); every scenario's
# output must be the same: the scenario's -T template and all name-value
# pairs ($(format-json --scope nv-pairs)) of every message, generated ones
# included; and with inject-mode(aggregate-only), only the generated
# messages (.agg, a log path with a source of its own). $TAGS lists tags in the order syslog-ng registered them,
# process-wide, so it also checks that we register them as 3.38 does.
#
# Each scenario has its own source, parser and files. The lines are sent
# as they are (their stamps drive the correlation clock), all scenarios at
# once, each followed by a line no rule matches stamped with the current
# time: like the end of `match` input, it expires every context of the
# 2020 scenarios, with no dependence on the idle timer (which
# test-correlation-e2e.sh covers).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/daemon.sh"
. "$top_srcdir/tests/correlation/scenario.sh"
e2e_setup
[ -f "$SYSTEM_MODULE_DIR/$STOCK_PDB_SO" ] || skip_all "syslog-ng's own $STOCK_PDB_SO is not installed"
python3 -c 'import socket' 2>/dev/null || skip_all "python3 not installed"

T=$TEST_TMPDIR
S=$top_srcdir/tests/correlation/scenarios
names=()
for scn in "$S"/*.scn; do
  name=$(basename "$scn" .scn)
  scenario_split "$scn" "$T/$name"
  if [ -f "$T/$name/pending" ]; then
    ok "$name # SKIP pending: $(head -n 1 "$T/$name/pending")"
    continue
  fi
  names+=("$name")
done

# write_conf MODULE OUTDIR
write_conf() {
  local module=$1 out=$2 name tmpl
  mkdir -p "$out"
  echo "@version: $SNG_CONFIG_VERSION"
  echo "@module $module"
  echo "@module json-plugin"
  echo "options { $SNG_STATS_OFF keep-hostname(yes); };"
  for name in "${names[@]}"; do
    tmpl=$(sed 's/\\/\\\\/g; s/"/\\"/g' "$T/$name/template")
    tmpl=${tmpl//\\\\n/\\n}
    cat <<CONF
source s_$name { unix-stream("$out/$name.sock" flags(expect-hostname)); };
destination d_${name}_t { file("$out/$name.t" template("$tmpl")); };
destination d_${name}_nv { file("$out/$name.nv" template("\$(format-json --scope nv-pairs)\n")); };
log { source(s_$name); parser { db-parser(file("$T/$name/db.xml")); }; destination(d_${name}_t); destination(d_${name}_nv); };
destination d_${name}_agg { file("$out/$name.agg" template("$tmpl")); };
source s_${name}_agg { unix-stream("$out/$name.agg.sock" flags(expect-hostname)); };
log { source(s_${name}_agg); parser { db-parser(file("$T/$name/db.xml") inject-mode(aggregate-only) persist-name("agg_$name")); }; destination(d_${name}_agg); };
CONF
  done
}
s_name() { echo "${1//-/_}"; }

# run_daemon MODULE OUTDIR: starts syslog-ng, sends every scenario, stops it.
run_daemon() {
  local module=$1 out=$2 name
  write_conf "$module" "$out" | sed -E 's/(s_|d_)([A-Za-z0-9_-]+)/\1\2/g' >"$out.conf.raw"
  # syslog-ng object names: dashes become underscores
  sed -E ':a; s/((s|d)_[A-Za-z0-9_]*)-/\1_/; ta' "$out.conf.raw" >"$out.conf"
  if ! daemon_start "$out.conf" "$(basename "$out")"; then
    return 1
  fi
  # every scenario at once, so that each idles as long before the stop
  python3 - "$out" "$T" "$FLUSH" "${names[@]}" <<'PY'
import socket, sys
out, tmp = sys.argv[1], sys.argv[2]
flush = (sys.argv[3] + "\n").encode()
for name in sys.argv[4:]:
    with open("%s/%s/log" % (tmp, name), "rb") as f:
        lines = f.read() + flush
    for sock in ("%s/%s.sock", "%s/%s.agg.sock"):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(sock % (out, name))
        s.sendall(lines)
        s.close()
PY
  sleep 2
  daemon_stop
  return 0
}

# the same end-of-input line for both daemons (the current time, once)
FLUSH="<13>$(date -u +%Y-%m-%dT%H:%M:%S)+00:00 flush flush[1]: end of input"
if ! run_daemon patterndb "$T/ours"; then
  not_ok "syslog-ng starts with our db-parser()"; done_testing; exit 1
fi
if ! run_daemon "$STOCK_PDB_MODULE" "$T/stock"; then
  not_ok "syslog-ng starts with its own db-parser()"; done_testing; exit 1
fi

# Where 4.x's own db-parser() gives other output (doc/syslog-ng-versions.md).
declare -A sng4_differs=(
  [action-values-chain.t]=1 [action-values-chain.nv]=1 [action-values-chain.agg]=1
  [context-id-values.nv]=1 [context-length.nv]=1 [inherit-none.nv]=1
)
for name in "${names[@]}"; do
  # no generated message, no .agg file
  touch -a "$T/stock/$name.agg" "$T/ours/$name.agg"
  for kind in t nv agg; do
    if [ -n "${sng4_differs[$name.$kind]:-}" ] &&
       sng4_skip "$name ($kind): same output as syslog-ng's own db-parser()" \
         "4.x types template results (\$(context-length) is an integer, an unset value null) and has no int64() cast"; then
      continue
    fi
    if [ -f "$T/stock/$name.$kind" ] && cmp -s "$T/stock/$name.$kind" "$T/ours/$name.$kind"; then
      ok "$name ($kind): same output as syslog-ng's own db-parser()"
    else
      not_ok "$name ($kind): same output as syslog-ng's own db-parser()"
      diag "$(diff "$T/stock/$name.$kind" "$T/ours/$name.$kind" 2>&1 | head -20)"
    fi
  done
done
check "the stock daemon produced output (so the comparison means something)" \
  test "$(cat "$T"/stock/*.t 2>/dev/null | wc -l)" -gt 100

done_testing

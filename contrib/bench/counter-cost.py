#!/usr/bin/env python3
"""counter-cost.py: what the per-rule counters cost the daemon, in
instructions (valgrind callgrind), which the busy 2-core machines of the
bench measure exactly where throughput differences of a few percent drown
in run-to-run variation.

  counter-cost.py --builddir B --workdir W [--workload synth-100000]
                  [--lines 30000]

Runs syslog-ng with our module (stats-level(1): per-rule and per-program
counters on) twice under callgrind, on the first lines/3 and on the first
`lines` lines of the workload's input, and prints
  - the daemon's instructions per message: the difference of the two runs'
    totals over the difference of their lines (start-up and loading cancel
    out);
  - the counting's instructions per message: the inclusive cost of
    pdb_sng_rule_stats_count() (rule slot, totals, unknown per program) in
    the longer run over its lines;
  - syslog-ng's own stats-level(1) work per message, from the same pair of
    runs of the pipeline without a parser at levels 0 and 1 (not ours, but
    it comes with the level).
and the counting's share of the daemon's instructions against the 2% bound.
"""
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

TEMPLATE = "${.classifier.rule_id}\\n"


def run_daemon(tmp, name, inp, lines, modules, db, level):
    """Runs the daemon under callgrind until `lines` lines are out; returns
    the callgrind output file."""
    d = os.path.join(tmp, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    head = os.path.join(d, "input.log")
    with open(inp, "rb") as src, open(head, "wb") as dst:
        for i, line in enumerate(src):
            if i >= lines:
                break
            dst.write(line)
    out = os.path.join(d, "out.txt")
    conf = ["@version: 3.38"]
    if db:
        conf.append("@module patterndb")
    conf.append("options { stats-freq(0); stats-level(%d); keep-hostname(yes); flush-lines(1000); };" % level)
    conf.append('source s_in { file("%s" follow-freq(1) log-fetch-limit(1000) log-iw-size(10000)); };' % head)
    conf.append('destination d_out { file("%s" template("%s")); };' % (out, TEMPLATE))
    if db:
        conf.append('parser p_db { patterndb(file("%s")); };' % db)
        conf.append("log { source(s_in); parser(p_db); destination(d_out); flags(flow-control); };")
    else:
        conf.append("log { source(s_in); destination(d_out); flags(flow-control); };")
    cfg = os.path.join(d, "syslog-ng.conf")
    with open(cfg, "w") as f:
        f.write("\n".join(conf) + "\n")
    cg = os.path.join(d, "callgrind.out")
    argv = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + cg, "/usr/sbin/syslog-ng", "-F",
            "--no-caps", "-f", cfg, "--persist-file=" + os.path.join(d, "persist"),
            "--pidfile=" + os.path.join(d, "pid"), "--control=" + os.path.join(d, "ctl")]
    if modules:
        argv.append("--module-path=" + modules)
    with open(os.path.join(d, "stderr.txt"), "wb") as err:
        p = subprocess.Popen(argv, stdout=err, stderr=err)
        t_grew = time.time()
        seen = 0
        while time.time() - t_grew < 120 and p.poll() is None:   # gives up after 2 min without output
            if os.path.exists(out):
                with open(out, "rb") as f:
                    now_seen = f.read().count(b"\n")
                if now_seen > seen:
                    seen, t_grew = now_seen, time.time()
                if seen >= lines:
                    break
            time.sleep(0.5)
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
            p.wait(120)
    if seen < lines or not os.path.exists(cg):
        sys.exit("counter-cost: %s: %d of %d lines (log: %s)" % (name, seen, lines, os.path.join(d, "stderr.txt")))
    return cg


def count_lines(path):
    with open(path, "rb") as f:
        return sum(1 for _ in f)


def inclusive(cg, function):
    """Program total and the inclusive cost of `function` (0 if absent)."""
    text = subprocess.run(["callgrind_annotate", "--auto=no", "--inclusive=yes", "--threshold=100", cg],
                          capture_output=True, text=True, check=True).stdout
    total = fn = 0
    for line in text.splitlines():
        m = re.match(r"\s*([\d,]+)\s+\([ \d.]+%\)\s+(.*)$", line)
        if not m:
            continue
        ir = int(m.group(1).replace(",", ""))
        if "PROGRAM TOTALS" in m.group(2):
            total = ir
        elif re.search(r":%s \[" % re.escape(function), m.group(2)):
            fn = max(fn, ir)
    return total, fn


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--builddir", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--workload", default="synth-100000")
    ap.add_argument("--lines", type=int, default=30000)
    args = ap.parse_args()
    if not shutil.which("valgrind") or not shutil.which("callgrind_annotate"):
        sys.exit("counter-cost: valgrind is not installed")
    data = os.path.join(args.workdir, "data")
    # the longest generated stream of the workload (its directories end in their line count)
    sizes = [int(n[len(args.workload) + 1:]) for n in os.listdir(data)
             if n.startswith(args.workload + "-") and n[len(args.workload) + 1:].isdigit()]
    wdir = os.path.join(data, "%s-%d" % (args.workload, max(sizes))) if sizes else None
    if wdir and count_lines(os.path.join(wdir, "input.log")) < args.lines:
        sys.exit("counter-cost: %s has fewer than %d lines" % (wdir, args.lines))
    if not wdir:
        sys.exit("counter-cost: no generated workload %s under %s (run make bench-counters first)"
                 % (args.workload, data))
    inp, db = os.path.join(wdir, "input.log"), os.path.join(wdir, "patterndb.xml")
    modules = os.path.join(os.path.abspath(args.builddir), ".libs") + ":/usr/lib/syslog-ng/3.38"
    short, long_ = args.lines // 3, args.lines
    tmp = tempfile.mkdtemp(prefix="counter-cost.")
    try:
        per_msg = {}
        for name, parser_db, level in (("ours", db, 1), ("none-0", None, 0), ("none-1", None, 1)):
            print("counter-cost: %s, stats-level(%d): %d and %d lines under callgrind" % (name, level, short, long_),
                  file=sys.stderr, flush=True)
            t_short, _ = inclusive(run_daemon(tmp, name + "-s", inp, short, modules, parser_db, level),
                                   "pdb_sng_rule_stats_count")
            t_long, count = inclusive(run_daemon(tmp, name + "-l", inp, long_, modules, parser_db, level),
                                      "pdb_sng_rule_stats_count")
            per_msg[name] = ((t_long - t_short) / (long_ - short), count / long_)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    daemon, counting = per_msg["ours"]
    level1 = per_msg["none-1"][0] - per_msg["none-0"][0]
    share = counting / daemon
    print("Per-rule counters in the daemon (%s, %s lines, callgrind instructions per message):"
          % (args.workload, f"{long_:,}"))
    print("- syslog-ng + our module at stats-level(1): %.0f per message" % daemon)
    print("- of which counting (rule, totals, unknown per program): %.0f (%.2f%%)" % (counting, 100 * share))
    print("- syslog-ng's own stats-level(1) work without a parser: %+.0f per message" % level1)
    print("- counting costs <= 2%% of the daemon's instructions: %s (%.2f%%)"
          % ("holds" if share <= 0.02 else "does NOT hold", 100 * share))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Alternating A/B runs of the daemon pipelines of `make bench` (contrib/bench).

Runs syslog-ng -F with exactly the configuration run-bench.py uses (file
source -> [parser] -> file destination), no parser, syslog-ng's db-parser()
and our module, with one and two sources, alternating the order on every
repetition, and prints each rate and the median of our module over no
parser. For optimising the glue: a longer stream than bench-quick's
100,000 lines and several repetitions give ratios that mean something on a
busy machine. --stats-levels 0,1 runs our module's pipelines at each stats
level (1: per-rule counters on) and prints each one's median over level 0
of the same build, with the CPU time per message (the daemon's user +
system time while it streams; moves less than the rate on a shared
machine) and the peak RSS.

  contrib/bench/daemon-ab.py --builddir B --input LINES --db DB.xml \
      [--reps 5] [--sources 1,2] [--pipelines none,ours,db-parser,base] [--base-builddir B0] \
      [--stats-levels 0,1]
"""
import argparse
import importlib.util
import os
import shutil
import statistics
import sys
import tempfile


def load_bench():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("run_bench", os.path.join(here, "run-bench.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--builddir", required=True)
    ap.add_argument("--input", required=True, help="syslog lines (file source input)")
    ap.add_argument("--db", required=True, help="patterndb.xml")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--sources", default="1,2")
    ap.add_argument("--pipelines", default="none,ours",
                    help="of none, db-parser, ours, base (our module from --base-builddir)")
    ap.add_argument("--base-builddir", default=None, help="another build of our module, to compare with")
    ap.add_argument("--no-flow-control", action="store_true", help="no flags(flow-control) on the log paths")
    ap.add_argument("--stats-levels", default="0",
                    help="stats levels our module's pipelines (ours, base) run at, e.g. 0,1")
    args = ap.parse_args()

    rb = load_bench()
    rb.Daemon.flow_control = not args.no_flow_control
    tmp = tempfile.mkdtemp(prefix="daemon-ab-")
    wdir = os.path.join(tmp, "w")
    os.makedirs(wdir)
    os.symlink(os.path.abspath(args.db), os.path.join(wdir, "patterndb.xml"))
    modules = os.path.join(os.path.abspath(args.builddir), ".libs") + ":/usr/lib/syslog-ng/3.38"
    kinds = {
        "none": ("syslog-ng, no parser", None, ""),
        "db-parser": ("syslog-ng db-parser", 'db-parser(file("{db}"))', ""),
        "ours": ("syslog-ng + our module", 'patterndb(file("{db}"))', modules),
    }
    if args.base_builddir:
        kinds["base"] = ("syslog-ng + our module (base)", 'patterndb(file("{db}"))',
                         os.path.join(os.path.abspath(args.base_builddir), ".libs") + ":/usr/lib/syslog-ng/3.38")
    levels = [int(x) for x in args.stats_levels.split(",")]
    daemons = []
    for n in [int(x) for x in args.sources.split(",")]:
        for k in args.pipelines.split(","):
            name, parser, mods = kinds[k]
            for level in (levels if k in ("ours", "base") else [0]):
                suffix = (", %d sources" % n if n > 1 else "") + (", stats-level(%d)" % level if level else "")
                d = rb.Daemon(name + suffix, tmp, parser, mods, sources=n, stats_level=level)
                d.key = (k, n, level)
                daemons.append(d)
    args.input = os.path.abspath(args.input)
    lines = rb.count_lines(args.input)
    rates = {d.key: [] for d in daemons}
    rss = {d.key: [] for d in daemons}
    cpu = {d.key: [] for d in daemons}
    for rep in range(args.reps):
        order = list(daemons) if rep % 2 == 0 else list(reversed(daemons))
        for d in order:
            res = d.run(wdir, args.input, expected_lines=lines)
            r = res["rate"] if res else float("nan")
            rates[d.key].append(r)
            c = res["cpu_per_line"] * 1e6 if res and res.get("cpu_per_line") else float("nan")
            cpu[d.key].append(c)
            if res:
                rss[d.key].append(res["rss"] / 1024.0)
            print("rep %d %-52s %10.0f msg/s %6.2f us CPU/msg %6.1f MB"
                  % (rep, d.name, r, c, res["rss"] / 1024.0 if res else 0), flush=True)
    print()

    def median_of(key):
        ok = [r for r in rates.get(key, []) if r == r]
        return statistics.median(ok) if ok else float("nan")

    for d in daemons:
        k, n, level = d.key
        med = median_of(d.key)
        line = "%-52s median %10.0f msg/s  %.2f of no parser" % (d.name, med, med / median_of(("none", n, 0)))
        if level:
            line += "  %.3f of stats-level(0)" % (med / median_of((k, n, 0)))
            # the ratio of each repetition's pair, whose runs were close in time
            pairs = [a / b for a, b in zip(rates[d.key], rates[(k, n, 0)]) if a == a and b == b]
            if pairs:
                line += " (pairs: median %.3f, %s)" % (statistics.median(pairs),
                                                       " ".join("%.3f" % x for x in pairs))
        cpu_ok = [c for c in cpu[d.key] if c == c]
        if cpu_ok:
            line += "  CPU %.2f us/msg" % statistics.median(cpu_ok)
            if level:
                pairs = [a / b for a, b in zip(cpu[d.key], cpu[(k, n, 0)]) if a == a and b == b]
                if pairs:
                    line += " (%.3f of stats-level(0), pairs' median)" % statistics.median(pairs)
        if rss[d.key]:
            line += "  RSS %.1f MB" % statistics.median(rss[d.key])
        print(line)
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

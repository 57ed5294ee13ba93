#!/usr/bin/env python3
"""Alternating A/B runs of the daemon pipelines of `make bench` (contrib/bench).

Runs syslog-ng -F with exactly the configuration run-bench.py uses (file
source -> [parser] -> file destination), no parser, syslog-ng's db-parser()
and our module, with one and two sources, alternating the order on every
repetition, and prints each rate and the median of our module over no
parser. For optimising the glue: a longer stream than bench-quick's
100,000 lines and several repetitions give ratios that mean something on a
busy machine.

  contrib/bench/daemon-ab.py --builddir B --input LINES --db DB.xml \
      [--reps 5] [--sources 1,2] [--pipelines none,ours,db-parser,base] [--base-builddir B0]
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
    daemons = []
    for n in [int(x) for x in args.sources.split(",")]:
        for k in args.pipelines.split(","):
            name, parser, mods = kinds[k]
            d = rb.Daemon(name + (", %d sources" % n if n > 1 else ""), tmp, parser, mods, sources=n)
            d.key = (k, n)
            daemons.append(d)
    args.input = os.path.abspath(args.input)
    lines = rb.count_lines(args.input)
    rates = {d.key: [] for d in daemons}
    for rep in range(args.reps):
        order = list(daemons) if rep % 2 == 0 else list(reversed(daemons))
        for d in order:
            res = d.run(wdir, args.input, expected_lines=lines)
            r = res["rate"] if res else float("nan")
            rates[d.key].append(r)
            print("rep %d %-36s %10.0f msg/s" % (rep, d.name, r), flush=True)
    print()
    for d in daemons:
        ok = [r for r in rates[d.key] if r == r]
        med = statistics.median(ok) if ok else float("nan")
        base = [r for r in rates[("none", d.key[1])] if r == r] if ("none", d.key[1]) in rates else []
        ratio = med / statistics.median(base) if base else float("nan")
        print("%-36s median %10.0f msg/s  %.2f of no parser" % (d.name, med, ratio))
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Driver of `make bench` / `make bench-quick` (contrib/bench).

It generates the workloads (benchgen.py, fixed seeds; kept between runs in
the work directory), runs every classifier on the same input in the same run,
alternating the commands, and prints one table: messages per second (median),
the ratio of patterndb's rate to each tool's, load time, peak resident memory,
callgrind instructions per message, and how many of the generated "matching"
lines got the intended rule id. After it, the load table puts ours and the
reference's load time and peak RSS side by side with their ratios (patterndb
against pdbtool, our module against db-parser() in the daemon);
--load-only (`make bench-load`) measures and prints only that table.

Invariants: every side runs with TZ=UTC and LC_ALL=C; a rate is lines divided
by (wall time - load time), where load time is the median wall time of the
same command on a one-line input (for the daemons: lines after the first
output divided by the time since the first output); a tool that is missing
or fails its own one-line check prints "n/a" instead of a number.
Python standard library only.
"""

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import threading
import time

ENV = dict(os.environ, TZ="UTC", LC_ALL="C")
TEMPLATE = "${.classifier.rule_id}\\n"
THREADED = "patterndb, %d threads"
TIME_BIN = "/usr/bin/time"


def log(*a):
    print(*a, file=sys.stderr, flush=True)


# ------------------------------------------------------------ helpers

def run_measured(argv, stdin_path=None, stdout_path=os.devnull, timeout=900):
    """Runs argv; returns (wall seconds, peak RSS KiB, exit status)."""
    # GNU time reports the peak RSS of the command itself (a child forked from
    # this Python process would inherit Python's high-water mark).
    fin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    rssfile = os.path.join(os.path.dirname(os.path.abspath(stdout_path))
                           if stdout_path != os.devnull else "/tmp", ".bench-rss.%d" % os.getpid())
    with open(stdout_path, "wb") as fout:
        t0 = time.perf_counter()
        p = subprocess.Popen([TIME_BIN, "-f", "%M", "-o", rssfile] + argv, stdin=fin, stdout=fout,
                             stderr=subprocess.DEVNULL, env=ENV, start_new_session=True)
        # A blocking wait, with the timeout kept by a timer: Popen.wait(timeout)
        # polls with sleeps that grow to 50 ms, so a 0.16 s run was seen to
        # end at 0.1635 s or 0.2135 s (our rate at 100 rules read 30% low).
        expired = threading.Event()

        def kill():
            expired.set()
            os.killpg(p.pid, signal.SIGKILL)   # our own process group: time and its command

        timer = threading.Timer(timeout, kill)
        timer.start()
        try:
            rc = p.wait()
        except KeyboardInterrupt:
            kill()
            p.wait()
            raise
        finally:
            timer.cancel()
        wall = time.perf_counter() - t0
        if expired.is_set():
            raise subprocess.TimeoutExpired(argv, timeout)
    if stdin_path:
        fin.close()
    rss = 0
    try:
        with open(rssfile) as f:
            nums = re.findall(r"^(\d+)$", f.read(), re.M)
            rss = int(nums[-1]) if nums else 0
        os.unlink(rssfile)
    except OSError:
        pass
    return wall, rss, rc


def prefix_file(path, nlines):
    """A file with the first nlines lines of path (cached beside it)."""
    out = "%s.head%d" % (path, nlines)
    if not os.path.exists(out):
        with open(path, "rb") as f, open(out + ".tmp", "wb") as g:
            for i, line in enumerate(f):
                if i >= nlines:
                    break
                g.write(line)
        os.rename(out + ".tmp", out)
    return out


def count_lines(path):
    with open(path, "rb") as f:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))


def read_ids(path, kind):
    ids = []
    with open(path, "r", encoding="utf-8", errors="replace") as f:
        if kind == "json":
            for line in f:
                try:
                    tags = json.loads(line).get("event.tags") or [""]
                except ValueError:
                    tags = [""]
                ids.append(tags[0])
        else:
            ids = f.read().split("\n")
            if ids and ids[-1] == "":
                ids.pop()
    return ids


def accuracy(ids, expected):
    m = ok = 0
    for e, got in zip(expected, ids):
        if e:
            m += 1
            ok += (e == got)
    return 100.0 * ok / m if m else None


def agreement(a, b):
    n = min(len(a), len(b))
    if n == 0:
        return None
    return 100.0 * sum(1 for x, y in zip(a, b) if x == y) / n


# ------------------------------------------------------------ tools

class Tool:
    """A command-line classifier: argv for (workload dir, input file)."""
    kind = "lines"
    daemon = False

    def __init__(self, name, make_argv, kind="lines", stdin=False, callgrind=False):
        self.name = name
        self.make_argv = make_argv
        self.kind = kind
        self.stdin = stdin
        self.callgrind = callgrind
        self.available = True
        self.why = ""

    def run(self, wdir, inp, out=os.devnull, timeout=900):
        argv = self.make_argv(wdir, inp)
        if self.stdin:
            return run_measured(argv, stdin_path=inp, stdout_path=out, timeout=timeout)
        return run_measured(argv, stdout_path=out, timeout=timeout)


class Daemon:
    """syslog-ng -F: file source -> [parser] -> file destination."""
    daemon = True
    kind = "lines"
    callgrind = False

    # Class-wide: flags(flow-control) on the log path, for every pipeline
    # alike (off with --no-flow-control). Without it syslog-ng 3.38 now and
    # then keeps a batch of lines unwritten (processed by the destination,
    # not in the file until more arrive), with or without a parser and
    # mostly with two sources: in 16 runs of 2 x 100,000 lines 2 stalled
    # below 98% (no parser and our module alike), with flow control none in
    # 16. The sources then also wait for the destination instead of
    # filling its queue, which is what a loss-free pipeline does anyway.
    flow_control = True

    def __init__(self, name, tmp, parser, modules="", sources=1, stats_level=0):
        self.name = name
        self.stats_level = stats_level    # 1: our module's per-rule counters are on
        self.tmp = tmp
        self.parser = parser          # None or format string with {db}
        self.modules = modules        # module path prefix or ""
        self.sources = sources        # file sources reading copies of the input at once
        self.only = None              # workload names to run on, or None for all
        self.available = True
        self.why = ""

    def run(self, wdir, inp, out=None, expected_lines=None, timeout=240):
        d = os.path.join(self.tmp, "daemon-" + re.sub(r"[^a-z0-9]+", "-", self.name))
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        paths = [inp]
        for i in range(1, self.sources):
            p = os.path.join(d, "input%d.log" % i)
            try:
                os.link(inp, p)
            except OSError:
                shutil.copyfile(inp, p)
            paths.append(p)
        out = out or os.path.join(d, "out.txt")
        db = os.path.join(wdir, "patterndb.xml")
        conf = ["@version: 3.38"]
        if self.modules:
            conf.append("@module patterndb")
        conf += ["options { stats-freq(0); stats-level(%d); keep-hostname(yes); time-reopen(1); flush-lines(1000); };"
                 % self.stats_level,
                 "source s_in { %s };" % " ".join('file("%s" follow-freq(1) log-fetch-limit(1000) log-iw-size(10000));'
                                                  % p for p in paths),
                 'destination d_out { file("%s" template("%s")); };' % (out, TEMPLATE)]
        flags = " flags(flow-control);" if self.flow_control else ""
        if self.parser:
            conf.append("parser p_db { %s; };" % self.parser.format(db=db))
            conf.append("log { source(s_in); parser(p_db); destination(d_out);%s };" % flags)
        else:
            conf.append("log { source(s_in); destination(d_out);%s };" % flags)
        cfg = os.path.join(d, "syslog-ng.conf")
        with open(cfg, "w") as f:
            f.write("\n".join(conf) + "\n")
        argv = ["/usr/sbin/syslog-ng", "-F", "--no-caps", "-f", cfg, "--persist-file=" + os.path.join(d, "persist"),
                "--pidfile=" + os.path.join(d, "pid"), "--control=" + os.path.join(d, "ctl")]
        if self.modules:
            argv.append("--module-path=" + self.modules)
        want = (expected_lines if expected_lines is not None else count_lines(inp)) * self.sources
        errlog = open(os.path.join(d, "stderr.txt"), "wb")
        t0 = time.perf_counter()
        p = subprocess.Popen(argv, stdout=errlog, stderr=errlog, env=ENV)
        seen = 0
        why = ""
        t_first = t_last = None
        first_lines = 0
        fh = None
        hwm = 0
        cpu_first = cpu_done = None
        try:
            while True:
                now = time.perf_counter()
                if p.poll() is not None or now - t0 > timeout:
                    why = "exited by itself" if p.returncode is not None else "timed out"
                    break
                if fh is None and os.path.exists(out):
                    fh = open(out, "rb")
                if fh is not None:
                    chunk = fh.read()
                    if chunk:
                        seen += chunk.count(b"\n")
                        t_last = now
                        if t_first is None:
                            t_first = now
                            first_lines = seen
                            cpu_first = process_cpu_seconds(p.pid)
                if seen >= want:
                    t_last = time.perf_counter()
                    break
                # syslog-ng 3.38 with two file sources sometimes keeps the last
                # batch or two (even with no parser): a stall after 98% of the
                # lines ends the run, and the rate stops at the last output.
                if t_first is not None and now - t_last > 3 and seen >= 0.98 * want:
                    why = "stalled"
                    break
                time.sleep(0.01)
            t_done = t_last if t_first is not None else time.perf_counter()
            cpu_done = process_cpu_seconds(p.pid)
            try:
                with open("/proc/%d/status" % p.pid) as st:
                    m = re.search(r"VmHWM:\s+(\d+)", st.read())
                    hwm = int(m.group(1)) if m else 0
            except OSError:
                pass
        finally:
            if p.poll() is None:
                os.kill(p.pid, signal.SIGTERM)
                try:
                    p.wait(20)
                except subprocess.TimeoutExpired:
                    os.kill(p.pid, signal.SIGKILL)
                    p.wait()
            if fh:
                fh.close()
            errlog.close()
        if why == "stalled" and t_done > t_first:
            log("bench: %s: stalled at %d of %d lines; rate taken up to the last output" % (self.name, seen, want))
        elif seen < want or t_first is None or t_done <= t_first:
            log("bench: %s: %d of %d lines, %s, exit status %s (log: %s)"
                % (self.name, seen, want, why, p.returncode, os.path.join(d, "stderr.txt")))
            return None
        cpu = None
        if cpu_first is not None and cpu_done is not None and seen > first_lines:
            cpu = (cpu_done - cpu_first) / (seen - first_lines)
        return dict(rate=(seen - first_lines) / (t_done - t_first), load=t_first - t0, rss=hwm, out=out,
                    cpu_per_line=cpu)


def process_cpu_seconds(pid):
    """User + system CPU time of @pid and its threads so far (None when
    gone): on a shared machine, CPU time per line moves less than the
    rate with what else runs (it still grows with cache and core sharing)."""
    try:
        with open("/proc/%d/stat" % pid) as st:
            fields = st.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


# ------------------------------------------------------------ callgrind

def callgrind_ir(argv, stdin_path, tmp):
    out = os.path.join(tmp, "callgrind.out")
    fin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out] + argv,
                       stdin=fin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV)
    if stdin_path:
        fin.close()
    m = re.search(rb"Collected : (\d+)", r.stderr)
    try:
        os.unlink(out)
    except OSError:
        pass
    return int(m.group(1)) if m and r.returncode == 0 else None


def instr_per_msg(tool, wdir, inp_small, one, tmp):
    n = count_lines(inp_small)
    # The one-line input gets a path exactly as long as the small input's:
    # a tool copies the path into its heap, a different length moves every
    # later allocation, and string functions then take other paths on other
    # alignments: the load's count changed by up to 5 million instructions
    # (hundreds per message at 100,000 rules), which the difference below
    # charged to the messages.
    one_same = os.path.join(os.path.dirname(inp_small), "1" * len(os.path.basename(inp_small)))
    shutil.copyfile(one, one_same)
    a = tool.make_argv(wdir, inp_small)
    b = tool.make_argv(wdir, one_same)
    ir_n = callgrind_ir(a, inp_small if tool.stdin else None, tmp)
    ir_1 = callgrind_ir(b, one_same if tool.stdin else None, tmp)
    os.unlink(one_same)
    if ir_n is None or ir_1 is None:
        return None
    return (ir_n - ir_1) / (n - 1)


# ------------------------------------------------------------ cachegrind

CG_EVENTS = ("Ir", "D1mr", "DLmr")
# Fixed simulated caches, the same on every machine: one core's L1d and L2
# here (48 KiB 12-way, 2 MiB 16-way). Valgrind's default LL is the host's
# last level, which on this VM reports a 260 MB L3 that would hold every tree.
CG_CACHES = ["--D1=49152,12,64", "--LL=2097152,16,64"]


def cachegrind_counts(argv, stdin_path, tmp):
    """Simulated cache events of one run (valgrind's cachegrind: repeatable,
    unlike hardware counters, which this container does not give perf)."""
    out = os.path.join(tmp, "cachegrind.out")
    fin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    r = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=yes"] + CG_CACHES + ["--cachegrind-out-file=" + out] + argv,
                       stdin=fin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV)
    if stdin_path:
        fin.close()
    counts = None
    try:
        events = summary = None
        for line in open(out):
            if line.startswith("events:"):
                events = line.split()[1:]
            elif line.startswith("summary:"):
                summary = [int(x) for x in line.split()[1:]]
        if r.returncode == 0 and events and summary:
            counts = {e: summary[events.index(e)] for e in CG_EVENTS}
        os.unlink(out)
    except (OSError, ValueError):
        pass
    return counts


def misses_per_msg(tool, wdir, inp_small, one, tmp):
    """Instructions, D1 and LL data read misses per message: the run on
    @inp_small minus the run on one line (same path length, as in
    instr_per_msg), over the lines in between."""
    n = count_lines(inp_small)
    one_same = os.path.join(os.path.dirname(inp_small), "1" * len(os.path.basename(inp_small)))
    shutil.copyfile(one, one_same)
    c_n = cachegrind_counts(tool.make_argv(wdir, inp_small), inp_small if tool.stdin else None, tmp)
    c_1 = cachegrind_counts(tool.make_argv(wdir, one_same), one_same if tool.stdin else None, tmp)
    os.unlink(one_same)
    if c_n is None or c_1 is None:
        return None
    return {e: (c_n[e] - c_1[e]) / (n - 1) for e in CG_EVENTS}


def print_misses(results, path):
    """The cache-miss table: what the lookup waits for, per message."""
    text = ["", "Cache misses per message, patterndb --threads 1 (valgrind cachegrind, simulated D1 48 KiB 12-way and",
            "LL 2 MiB 16-way, 64-byte lines, on every machine; a run on N lines minus a run on one line, over",
            "N - 1; D1/LL: first-level/last-level data read misses; counts, not stalls: a prefetched line still",
            "counts as a miss, so overlapping misses does not lower them):", "",
            "| workload | rules | lines | instr/msg | D1 read misses/msg | LL read misses/msg |",
            "|---|---:|---:|---:|---:|---:|"]
    for name, meta, row in results:
        cg = row.get("patterndb", {}).get("cg")
        if cg is None:
            continue
        text.append("| %s | %d | %d | %.0f | %.2f | %.3f |" % (name, meta["rules"], cg["lines"], cg["Ir"],
                                                             cg["D1mr"], cg["DLmr"]))
    out = "\n".join(text)
    print(out)
    if path:
        with open(path, "a") as f:
            f.write(out + "\n")


def physical_limit(results, latency_bin):
    """The physical limit of a lookup in a database larger than the caches
    (one DRAM miss per line: contrib/bench/mem-latency.c) next to our time
    per line at 100,000 rules, one core."""
    if not os.path.exists(latency_bin):
        return ["", "Physical limit: mem-latency not built"]
    try:
        out = subprocess.run([latency_bin], capture_output=True, text=True, env=ENV, timeout=120).stdout
        miss = float(out.strip())
    except (OSError, ValueError, subprocess.TimeoutExpired):
        return ["", "Physical limit: mem-latency failed"]
    lines = ["", "Physical limit: a database larger than the caches costs each line of a uniform stream at",
             "least one miss to memory (a record nobody read recently); this machine's miss (pointer chase over",
             "256 MiB, 4 KiB pages): %.0f ns, so at most %s lines/s on one core without overlapping lines." % (
                 miss, fmt_rate(1e9 / miss)) if miss > 0 else "Physical limit: no measurement"]
    for name, meta, row in results:
        r = row.get("patterndb", {}).get("rate")
        if meta["rules"] >= 100000 and r:
            cg = row["patterndb"].get("cg") or {}
            lines.append("- %s: %.0f ns a line on one core = %.1f misses' worth of time (cachegrind: %s LL misses a line)"
                         % (name, 1e9 / r, (1e9 / r) / miss,
                            "%.1f" % cg["DLmr"] if cg.get("DLmr") is not None else "n/a"))
    return lines


# ------------------------------------------------------------ main

def machine_info():
    model = cores = "?"
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, env=ENV).stdout
        m = re.search(r"^Model name:\s*(.+)$", out, re.M)
        model = m.group(1).strip() if m else "?"
    except OSError:
        pass
    cores = str(os.cpu_count())
    return model, cores


def fmt_rate(x):
    return "n/a" if x is None else "{:,.0f}".format(x)


def fmt(x, spec, na="n/a"):
    return na if x is None else format(x, spec)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--srcdir", required=True)
    ap.add_argument("--builddir", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--reps", type=int, default=None)
    ap.add_argument("--no-callgrind", action="store_true")
    ap.add_argument("--no-daemon", action="store_true")
    ap.add_argument("--no-flow-control", action="store_true",
                    help="daemons: no flags(flow-control) on the log path (as before 2026-12-03)")
    ap.add_argument("--only", default="", help="comma-separated workload names")
    ap.add_argument("--results", default=None, help="write the table (markdown) here too")
    ap.add_argument("--load-only", action="store_true",
                    help="only the load table: load time and peak RSS on a one-line input (--reps runs each)")
    ap.add_argument("--misses-only", action="store_true",
                    help="only the cache-miss table (cachegrind), no timed runs")
    ap.add_argument("--lines", type=int, default=None, help="stream length (default 1,000,000; quick 100,000)")
    ap.add_argument("--sizes", default=None, help="comma-separated rule counts of the synthetic workloads")
    ap.add_argument("--cg-lines", type=int, default=None, help="lines per cachegrind run")
    ap.add_argument("--counters-only", action="store_true",
                    help="only our module in the daemon with per-rule counters off and on (no tools, no callgrind)")
    args = ap.parse_args()

    src = os.path.abspath(args.srcdir)
    build = os.path.abspath(args.builddir)
    work = os.path.abspath(args.workdir)
    os.makedirs(work, exist_ok=True)
    tmp = os.path.join(work, "tmp")
    os.makedirs(tmp, exist_ok=True)
    gen = os.path.join(src, "contrib", "bench", "benchgen.py")
    loghub = os.path.join(src, "tests", "data", "loghub")

    Daemon.flow_control = not args.no_flow_control
    lines = args.lines or (1000 if args.load_only else 100000 if args.quick else 1000000)
    reps = args.reps or (1 if args.quick else 3)
    sizes = [100, 10000] if args.quick else [100, 1000, 10000, 100000]
    if args.sizes:
        sizes = [int(x) for x in args.sizes.split(",")]
    budget = 3.0 if args.quick else 5.0     # seconds a slow tool may spend on one run
    cg_lines = args.cg_lines or (5000 if args.quick else 10000)

    workloads = [("real", ["real", "--loghub", loghub])]
    workloads += [("synth-%d" % n, ["synth", "--rules", str(n)]) for n in sizes]
    if not args.quick or args.misses_only:
        # Not a target of its own: the largest rule set with a skewed stream,
        # as real traffic is, next to the uniform worst case above.
        # The smallest rule set with the same skew: the cache-miss table
        # compares both sizes on both streams.
        for n in sorted(set([sizes[0], sizes[-1]])):
            workloads.append(("synth-%d-zipf" % n, ["synth", "--rules", str(n), "--zipf", "1"]))
    if args.only:
        keep = set(args.only.split(","))
        workloads = [w for w in workloads if w[0] in keep]

    # ---- workloads (regenerated only when the generator or its arguments change)
    gen_stamp = str(os.path.getmtime(gen))
    wdirs = {}
    for name, gargs in workloads:
        d = os.path.join(work, "data", "%s-%d" % (name, lines))
        stamp = os.path.join(d, "stamp")
        key = json.dumps([gargs, lines, gen_stamp])
        if not (os.path.exists(stamp) and open(stamp).read() == key):
            shutil.rmtree(d, ignore_errors=True)
            log("bench: generating %s (%d lines)" % (name, lines))
            subprocess.run([sys.executable, gen] + gargs + ["--lines", str(lines), "--out", d], check=True)
            with open(stamp, "w") as f:
                f.write(key)
        wdirs[name] = d

    # ---- tools
    ours_bin = os.path.join(build, "patterndb")
    pcre_bin = os.path.join(build, "contrib", "bench", "pcre-baseline")
    floor_bin = os.path.join(build, "contrib", "bench", "split-floor")
    # patterndb's own row runs on one thread (--threads 1), as every other
    # tool here: the ratios compare one core with one core. The row below
    # it shows bulk classification on every core (the tool's default).
    cores = os.cpu_count() or 1
    tools = [
        Tool("patterndb", lambda w, i: [ours_bin, "match", "--threads", "1", "-p", os.path.join(w, "patterndb.xml"),
                                        "-f", i, "-T", TEMPLATE], callgrind=True),
        Tool(THREADED % cores, lambda w, i: [ours_bin, "match", "--threads", str(cores), "-p",
                                             os.path.join(w, "patterndb.xml"), "-f", i, "-T", TEMPLATE]),
        Tool("pdbtool", lambda w, i: ["/usr/bin/pdbtool", "match", "-p", os.path.join(w, "patterndb.xml"),
                                      "-f", i, "-T", TEMPLATE], callgrind=True),
        Tool("lognormalizer", lambda w, i: ["lognormalizer", "-r", os.path.join(w, "rules.rulebase"),
                                            "-e", "json", "-T"], kind="json", stdin=True),
        Tool("pcre2-jit", lambda w, i: [pcre_bin, os.path.join(w, "rules.pcre"), i]),
        Tool("read+split", lambda w, i: [floor_bin, i], kind="none"),
    ]
    binaries = {"patterndb": ours_bin, THREADED % cores: ours_bin, "pdbtool": "/usr/bin/pdbtool",
                "pcre2-jit": pcre_bin, "read+split": floor_bin}
    for t in tools:
        if t.name in binaries and not os.access(binaries[t.name], os.X_OK):
            t.available, t.why = False, "not built"
    if not shutil.which("lognormalizer"):
        next(t for t in tools if t.name == "lognormalizer").available = False
        next(t for t in tools if t.name == "lognormalizer").why = "not installed"
    daemons = []
    if not args.no_daemon and os.access("/usr/sbin/syslog-ng", os.X_OK):
        daemons = [Daemon("syslog-ng, no parser", tmp, None),
                   Daemon("syslog-ng db-parser", tmp, 'db-parser(file("{db}"))')]
        mod = os.path.join(build, ".libs", "libpatterndb.so")
        ours_d = Daemon("syslog-ng + our module", tmp, 'patterndb(file("{db}"))',
                        modules=os.path.join(build, ".libs") + ":/usr/lib/syslog-ng/3.38")
        if not os.path.exists(mod):
            ours_d.available, ours_d.why = False, "module not built"
        daemons.append(ours_d)
        # The per-rule counters (stats-level(1)) against the totals only (level 0).
        ours_counted = Daemon("syslog-ng + our module, rule counters", tmp, ours_d.parser,
                              modules=ours_d.modules, stats_level=1)
        ours_counted.available, ours_counted.why = ours_d.available, ours_d.why
        daemons.append(ours_counted)
        # Several sources on both cores: syslog-ng's db-parser serialises lookups behind one lock.
        last_synth = [n for n, _ in workloads if n.startswith("synth") and not n.endswith("-zipf")][-1:]
        for d1 in list(daemons):
            if d1.stats_level:
                continue
            d2 = Daemon(d1.name + ", 2 sources", tmp, d1.parser, d1.modules, sources=2)
            d2.available, d2.why = d1.available, d1.why
            d2.only = set(["real"] + last_synth)
            daemons.append(d2)

    if args.counters_only:
        args.no_callgrind = True
        tools = []
        daemons = [d for d in daemons if d.name.startswith("syslog-ng + our module") and d.sources == 1]
    if args.load_only:
        wanted = set(n for pair in LOAD_PAIRS for n in pair)
        for t in tools:
            if t.name not in wanted:
                t.available, t.why = False, "not in the load table"
    if args.misses_only:
        return misses_only(workloads, wdirs, tools[0], cg_lines, tmp, args.results)

    # A tool must classify the one-line input of the real workload as intended.
    first = wdirs[workloads[0][0]]
    exp1 = open(os.path.join(first, "expected.txt")).readline().strip()
    one_first = os.path.join(first, "one.log")
    for t in tools:
        if not t.available or t.kind == "none":
            continue
        o = os.path.join(tmp, "check.out")
        try:
            _, _, rc = t.run(first, one_first, o)
        except OSError as e:
            t.available, t.why = False, str(e)
            continue
        got = read_ids(o, t.kind)
        want = next(e for e in open(os.path.join(first, "expected.txt")).read().split("\n") if e)
        if rc != 0 or got[:1] != [want]:
            t.available, t.why = False, "fails its one-line check (exit %d)" % rc
            log("bench: %s: %s; got %r, want %r" % (t.name, t.why, got[:1], want))
    del exp1

    if args.load_only:
        results = [(name, json.load(open(os.path.join(wdirs[name], "meta.json"))),
                    measure_loads(wdirs[name], tools, daemons, reps)) for name, _ in workloads]
        out = load_table(results)
        print("\n".join(out))
        if args.results:
            with open(args.results, "w") as f:
                f.write("\n".join(out) + "\n")
        return 0

    results = []
    t_start = time.time()
    for name, _ in workloads:
        wdir = wdirs[name]
        meta = json.load(open(os.path.join(wdir, "meta.json")))
        inp_full = os.path.join(wdir, "input.log")
        one = os.path.join(wdir, "one.log")
        expected = open(os.path.join(wdir, "expected.txt")).read().split("\n")
        log("bench: %s: %d rules, %d lines" % (name, meta["rules"], meta["lines"]))
        row = {}
        live = [t for t in tools if t.available]
        # Load times: median of 3 runs on a one-line input. A tool that loads
        # for more than 3 s (lognormalizer with many rules) has one such run
        # and then one run on the whole stream.
        loads, rss, slow_load = {}, {}, set()
        for t in live:
            vals = []
            for _ in range(3):
                w, r, rc = t.run(wdir, one)
                vals.append(w)
                rss[t.name] = max(rss.get(t.name, 0), r)
                if w > 3:
                    slow_load.add(t.name)
                    break
            loads[t.name] = statistics.median(vals)
        # Input size per tool: the whole stream, or a prefix a slow tool can do in `budget` s.
        # The probe grows tenfold while loading is most of its wall time: a
        # fast tool with a long load (0.4 s for 100,000 rules) once got a
        # 41,000-line prefix that its load then swallowed.
        nprobe = 1000
        inputs, probe_wall = {}, {}
        for t in live:
            if t.name in slow_load:
                inputs[t.name] = inp_full
                continue
            n = min(nprobe, meta["lines"])
            while True:
                probe = prefix_file(inp_full, n)
                w, r, rc = t.run(wdir, probe)
                if w - loads[t.name] >= w / 3 or n >= meta["lines"] or w > budget:
                    break
                n = min(n * 10, meta["lines"])
            probe_wall[t.name] = w
            # Conservative: at least a third of the probe's wall time counts as work.
            rate = n / max(w - loads[t.name], w / 3, 1e-3)
            want = meta["lines"] if rate * budget >= meta["lines"] else max(n, int(rate * budget) // 1000 * 1000)
            inputs[t.name] = inp_full if want >= meta["lines"] else prefix_file(inp_full, want)
        rates = {t.name: [] for t in live}
        outs = {}
        for rep in range(reps):
            order = live if rep % 2 == 0 else list(reversed(live))
            for t in order:
                if rep > 0 and t.name in slow_load:
                    continue
                inp = inputs[t.name]
                o = os.path.join(tmp, "out-%s.txt" % t.name.replace("/", "_"))
                try:
                    w, r, rc = t.run(wdir, inp, o if t.kind != "none" else os.devnull,
                                     timeout=loads[t.name] + 4 * budget + 20)
                except subprocess.TimeoutExpired:
                    # The probe misjudged a slow tool (noisy machine): a tenth of the input.
                    inputs[t.name] = prefix_file(inp_full, max(nprobe, count_lines(inp) // 10))
                    log("bench: %s timed out on %s; retrying on %d lines"
                        % (t.name, name, count_lines(inputs[t.name])))
                    inp = inputs[t.name]
                    w, r, rc = t.run(wdir, inp, o if t.kind != "none" else os.devnull)
                if rc != 0:
                    log("bench: %s failed on %s (exit %d)" % (t.name, name, rc))
                    continue
                n = count_lines(inp)
                # On a short input a noisy load time can swallow nearly the
                # whole run (bench-quick once printed 10^9 msg/s): such a
                # run says nothing about the rate, so it is left out (not
                # clamped, which would bias the ratio either way).
                busy = w - loads[t.name]
                if busy < w / 20:
                    log("bench: %s on %s: load %.3f s of %.3f s wall; run left out"
                        % (t.name, name, loads[t.name], w))
                    continue
                rate = n / max(busy, 1e-4)
                rates[t.name].append(rate)
                rss[t.name] = max(rss.get(t.name, 0), r)
                outs[t.name] = o
        pdb_ids = read_ids(outs["pdbtool"], "lines") if "pdbtool" in outs else []
        for t in tools:
            rec = dict(tool=t.name, workload=name, rules=meta["rules"])
            if t.available and rates.get(t.name):
                rec.update(rate=statistics.median(rates[t.name]), load=loads[t.name], rss=rss[t.name] / 1024.0,
                           lines=count_lines(inputs[t.name]))
                if t.kind != "none" and t.name in outs:
                    ids = read_ids(outs[t.name], t.kind)
                    rec["acc"] = accuracy(ids, expected)
                    if t.name != "pdbtool" and pdb_ids:
                        rec["agree"] = agreement(ids, pdb_ids)
            else:
                rec["why"] = t.why
            row[t.name] = rec
        log("bench: %s: command-line tools measured (%.0f s so far)" % (name, time.time() - t_start))
        # Daemons: one run each per rep, alternating, on the whole stream.
        if daemons:
            dlines = meta["lines"]
            dinp = prefix_file(inp_full, dlines)
            drates = {d.name: [] for d in daemons if d.available}
            dres = {}
            for rep in range(reps):
                order = [d for d in daemons if d.available and (d.only is None or name in d.only)]
                if rep % 2:
                    order.reverse()
                for d in order:
                    res = d.run(wdir, dinp, expected_lines=dlines)
                    if res is None:
                        log("bench: %s did not finish on %s" % (d.name, name))
                        if "our module" in d.name and d.sources == 1:
                            d.available, d.why = False, "did not start or finish"
                        continue
                    drates[d.name].append(res["rate"])
                    dres[d.name] = res
            for d in daemons:
                if d.only is not None and name not in d.only:
                    continue
                rec = dict(tool=d.name, workload=name, rules=meta["rules"])
                if drates.get(d.name):
                    res = dres[d.name]
                    rec.update(rate=statistics.median(drates[d.name]), load=res["load"], rss=res["rss"] / 1024.0,
                               lines=dlines * d.sources)
                    if d.parser and d.sources == 1:
                        ids = read_ids(res["out"], "lines")
                        rec["acc"] = accuracy(ids, expected)
                else:
                    rec["why"] = d.why or "failed"
                row[d.name] = rec
        log("bench: %s: daemons measured (%.0f s so far)" % (name, time.time() - t_start))
        # Callgrind: instructions per message (repeatable, unlike the rates).
        if not args.no_callgrind and shutil.which("valgrind"):
            small = prefix_file(inp_full, min(cg_lines, meta["lines"]))
            for t in live:
                # Under valgrind the load runs ~50x slower: skip tools that load for over 1.5 s.
                if t.callgrind and loads[t.name] < 1.5:
                    row[t.name]["ipm"] = instr_per_msg(t, wdir, small, one, tmp)
                elif t.callgrind:
                    row[t.name]["ipm"] = None
            if "patterndb" in row and row["patterndb"].get("rate") is not None:
                row["patterndb"]["cg"] = cache_row(tools[0], wdir, small, one, tmp)
        results.append((name, meta, row))
        log("bench: %s done (%.0f s so far)" % (name, time.time() - t_start))

    print_table(results, tools, daemons, args, lines, reps, args.results)
    out = load_table(results)
    print("\n".join(out))
    if args.results:
        with open(args.results, "a") as f:
            f.write("\n".join(out) + "\n")
    if not args.counters_only:
        print_misses(results, args.results)
        out = physical_limit(results, os.path.join(build, "contrib", "bench", "mem-latency"))
        print("\n".join(out))
        if args.results:
            with open(args.results, "a") as f:
                f.write("\n".join(out) + "\n")
    with open(os.path.join(work, "results.json"), "w") as f:
        json.dump([dict(workload=n, meta=m, tools=r) for n, m, r in results], f, indent=1)
    return 0


# ------------------------------------------------------------ loading

# The load table's pairs: (ours, theirs), command line and daemon.
# patterndb --threads 1 loads on one thread; the tool's default (the
# threaded row) loads a big file on two when there are two cores
LOAD_PAIRS = [("patterndb", "pdbtool"), (THREADED % (os.cpu_count() or 1), "pdbtool"),
              ("syslog-ng + our module", "syslog-ng db-parser")]


def measure_loads(wdir, tools, daemons, reps):
    """Load time and peak RSS on the one-line input only (--load-only), the
    sides of each pair alternating: {name: dict(load=s, rss=MB)}."""
    one = os.path.join(wdir, "one.log")
    wanted = set(n for pair in LOAD_PAIRS for n in pair)
    sides = [t for t in tools if t.available and t.name in wanted]
    sides += [d for d in daemons if d.available and d.sources == 1 and not d.stats_level and d.name in wanted]
    loads = {s.name: [] for s in sides}
    rss = {s.name: 0 for s in sides}
    for rep in range(reps):
        for s in (sides if rep % 2 == 0 else list(reversed(sides))):
            if isinstance(s, Daemon):
                res = s.run(wdir, one, expected_lines=1, timeout=60)
                if res is None:
                    continue
                loads[s.name].append(res["load"])
                rss[s.name] = max(rss[s.name], res["rss"])
            else:
                w, r, rc = s.run(wdir, one)
                if rc == 0:
                    loads[s.name].append(w)
                    rss[s.name] = max(rss[s.name], r)
    return {n: dict(load=statistics.median(v), rss=rss[n] / 1024.0) for n, v in loads.items() if v}


def load_table(results):
    """Loading side by side: ours and the reference's load time and peak RSS
    on the same database, and their ratios (ours / theirs: below 1 is better)."""
    cols = ["workload", "rules", "ours", "theirs", "load s ours", "load s theirs", "load ratio",
            "RSS MB ours", "RSS MB theirs", "RSS ratio"]
    rows = []
    for name, meta, row in results:
        for ours, theirs in LOAD_PAIRS:
            a, b = row.get(ours, {}), row.get(theirs, {})
            if a.get("load") is None or b.get("load") is None:
                continue
            rows.append([name, str(meta["rules"]), ours, theirs, "%.3f" % a["load"], "%.3f" % b["load"],
                         "%.2f" % (a["load"] / b["load"]) if b["load"] else "n/a",
                         "%.1f" % a["rss"], "%.1f" % b["rss"],
                         "%.2f" % (a["rss"] / b["rss"]) if b.get("rss") else "n/a"])
    if not rows:
        return []
    width = [max(len(c), *(len(r[i]) for r in rows)) for i, c in enumerate(cols)]
    out = ["", "Loading (one-line input: load time = wall time, daemons: time to the first output; "
           "peak RSS; ratio = ours / theirs):", ""]
    out.append("    | " + " | ".join(c.ljust(width[i]) for i, c in enumerate(cols)) + " |")
    out.append("    |" + "|".join("-" * (w + 2) for w in width) + "|")
    for r in rows:
        out.append("    | " + " | ".join(v.ljust(width[i]) if i < 4 else v.rjust(width[i])
                                         for i, v in enumerate(r)) + " |")
    big = [r for r in rows if r[1] == "100000"]
    for r in big:
        out.append("- load %s rules (%s): %s s, target < 0.15 s: %s; peak RSS %s MB vs %s's %s MB: %s"
                   % (r[1], r[2], r[4], "holds" if float(r[4]) < 0.15 else "does NOT hold",
                      r[7], r[3], r[8], "holds" if float(r[7]) <= float(r[8]) else "does NOT hold"))
    return out
def cache_row(tool, wdir, small, one, tmp):
    cg = misses_per_msg(tool, wdir, small, one, tmp)
    if cg is not None:
        cg["lines"] = count_lines(small)
    return cg


def misses_only(workloads, wdirs, tool, cg_lines, tmp, path):
    """--misses-only: the cache-miss table alone (for development: no timed runs)."""
    if not shutil.which("valgrind"):
        log("bench: valgrind is not installed")
        return 1
    results = []
    for name, _ in workloads:
        wdir = wdirs[name]
        meta = json.load(open(os.path.join(wdir, "meta.json")))
        small = prefix_file(os.path.join(wdir, "input.log"), min(cg_lines, meta["lines"]))
        log("bench: %s: cachegrind on %d lines" % (name, count_lines(small)))
        results.append((name, meta, {"patterndb": {"cg": cache_row(tool, wdir, small,
                                                                   os.path.join(wdir, "one.log"), tmp)}}))
    if path:
        open(path, "w").close()
    print_misses(results, path)
    return 0


def targets(results):
    """The targets of issue 6, each with the measured figure and whether it holds."""
    def rate(row, tool):
        return row.get(tool, {}).get("rate")

    lines = ["", "Targets (issue 6), from this run:"]

    def verdict(name, ok, detail):
        lines.append("- %s: %s (%s)" % (name, "n/a" if ok is None else ("holds" if ok else "does NOT hold"), detail))

    alts = ["pdbtool", "lognormalizer", "pcre2-jit", "syslog-ng db-parser"]
    r_pdb, r_best, ipm, dmn = [], [], [], []
    for name, meta, row in results:
        ours = rate(row, "patterndb")
        if ours and rate(row, "pdbtool"):
            r_pdb.append((ours / rate(row, "pdbtool"), name))
        best = max(((rate(row, a), a) for a in alts if rate(row, a)), default=None)
        if ours and best:
            r_best.append((ours / best[0], "%s vs %s" % (name, best[1])))
        if row.get("patterndb", {}).get("ipm"):
            ipm.append((row["patterndb"]["ipm"], name))
        od, nop = rate(row, "syslog-ng + our module"), rate(row, "syslog-ng, no parser")
        if od and nop:
            dmn.append((od / nop, name))
    if r_pdb:
        m = min(r_pdb)
        verdict(">= 10x pdbtool on every workload", m[0] >= 10, "lowest %.2fx on %s" % m)
    else:
        verdict(">= 10x pdbtool on every workload", None, "patterndb not measured")
    threaded = []
    for name, meta, row in results:
        tn = next((t for t in row if t.startswith("patterndb, ")), None)
        if tn and rate(row, tn) and rate(row, "pdbtool"):
            threaded.append((rate(row, tn) / rate(row, "pdbtool"), name, tn))
    if threaded:
        m = min(threaded)
        lines.append("- (for information) bulk classification on every core (%s): lowest %.2fx pdbtool, on %s"
                     % (m[2], m[0], m[1]))
    if r_best:
        m = min(r_best)
        verdict(">= 1.5x the best alternative at every rule count", m[0] >= 1.5, "lowest %.2fx, %s" % m)
    by = {n: row for n, meta, row in results}
    small, big = by.get("synth-100"), by.get("synth-100000")
    if small and big and rate(small, "patterndb") and rate(big, "patterndb"):
        f = rate(big, "patterndb") / rate(small, "patterndb")
        verdict("flat: 100,000 rules >= 80% of 100 rules (uniform stream)", f >= 0.8, "%.0f%%" % (100 * f))
    skewed = by.get("synth-100000-zipf")
    if small and skewed and rate(small, "patterndb") and rate(skewed, "patterndb"):
        f = rate(skewed, "patterndb") / rate(small, "patterndb")
        verdict("flat: 100,000 rules >= 90% of 100 rules (Zipf stream)", f >= 0.9, "%.0f%%" % (100 * f))
    if big and rate(big, "patterndb"):
        # the user's default (the threaded row loads a big file on two
        # threads); --threads 1 loads on one
        tn = next((t for t in big if t.startswith("patterndb, ") and big[t].get("load") is not None), None)
        ld = big[tn]["load"] if tn else big["patterndb"]["load"]
        verdict("load 100,000 rules < 0.15 s", ld < 0.15,
                "%.3f s with the default (%s); %.3f s with --threads 1" % (ld, tn or "patterndb",
                                                                          big["patterndb"]["load"]))
        rp, rq = big["patterndb"].get("rss"), big.get("pdbtool", {}).get("rss")
        if rp and rq:
            verdict("RSS <= pdbtool's (100,000 rules)", rp <= rq, "%.0f MB vs %.0f MB" % (rp, rq))
    if dmn:
        m = min(dmn)
        verdict("daemon with our parser >= 95% of no parser", m[0] >= 0.95, "lowest %.0f%% on %s" % (100 * m[0], m[1]))
    else:
        verdict("daemon with our parser >= 95% of no parser", None, "our module not measured")
    for name, meta, row in results:
        o1, o2 = rate(row, "syslog-ng + our module"), rate(row, "syslog-ng + our module, 2 sources")
        d1, d2 = rate(row, "syslog-ng db-parser"), rate(row, "syslog-ng db-parser, 2 sources")
        if o1 and o2 and d1 and d2:
            verdict("scales with 2 sources (%s)" % name, o2 / o1 >= 1.3,
                    "our module %.2fx of 1 source, syslog-ng db-parser %.2fx" % (o2 / o1, d2 / d1))
    counted = [(name, meta["rules"], rate(row, "syslog-ng + our module, rule counters"), rate(row, "syslog-ng + our module"))
               for name, meta, row in results]
    for name, rules, on, off in counted:
        if on and off and (rules >= 100000 or len(counted) == 1):
            verdict("per-rule counters cost <= 2%% of daemon throughput (%s, %d rules)" % (name, rules),
                    on / off >= 0.98, "counters on %s/s, off %s/s, on/off %.3f" % (fmt_rate(on), fmt_rate(off), on / off))
    if ipm:
        m = max(ipm)
        verdict("a few hundred instructions per message", m[0] < 1000, "highest %.0f on %s" % m)
    return lines


def print_table(results, tools, daemons, args, lines, reps, path):
    model, cores = machine_info()
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    head = []
    head.append("patterndb benchmark (%s): %s, %s cores, %s, %s"
                % ("quick" if args.quick else "full", model, cores, platform.platform(terse=True), date))
    head.append("%d-line streams (slow tools: a prefix they finish in seconds), median of %d runs, TZ=UTC;"
                % (lines, reps))
    head.append("rate = lines / (wall - load); daemons: lines after the first output / time since the first "
                "output, load = time to the first output; log paths %s flags(flow-control)"
                % ("with" if Daemon.flow_control else "without"))
    cols = ["workload", "rules", "tool", "msg/s", "ours/this", "load s", "RSS MB", "instr/msg", "intended%",
            "=pdbtool%"]
    rows = []
    for name, meta, row in results:
        ours = row.get("patterndb", {}).get("rate")
        order = [t.name for t in tools] + [d.name for d in daemons]
        first = True
        for tn in order:
            rec = row.get(tn)
            if rec is None:
                continue
            rate = rec.get("rate")
            if tn == "patterndb":
                ratio = "1.00" if rate else "n/a"
            elif tn.startswith("patterndb, "):
                pdb = row.get("pdbtool", {}).get("rate")
                ratio = "%.2fx pdbtool" % (rate / pdb) if rate and pdb else "n/a"
            elif tn == "syslog-ng + our module, rule counters":
                off = row.get("syslog-ng + our module", {}).get("rate")
                ratio = ("%.3f of counters off" % (rate / off)) if rate and off else "n/a"
            elif tn.startswith("syslog-ng + our module"):
                nop = row.get(tn.replace("+ our module", "no parser").replace("syslog-ng no", "syslog-ng, no"),
                              {}).get("rate")
                ratio = ("%.2f of no-parser" % (rate / nop)) if rate and nop else "n/a"
            elif tn.startswith("syslog-ng"):
                suffix = ", 2 sources" if tn.endswith(", 2 sources") else ""
                od = row.get("syslog-ng + our module" + suffix, {}).get("rate")
                ratio = "%.2f" % (od / rate) if od and rate else "n/a"
            else:
                ratio = "%.2f" % (ours / rate) if ours and rate else "n/a"
            rows.append([name if first else "", str(meta["rules"]) if first else "", tn, fmt_rate(rate), ratio,
                         fmt(rec.get("load"), ".3f"), fmt(rec.get("rss"), ".0f"),
                         fmt(rec.get("ipm"), ",.0f", "-" if "ipm" not in rec else "n/a"),
                         fmt(rec.get("acc"), ".1f", "-"), fmt(rec.get("agree"), ".1f", "-")])
            first = False
    widths = [max(len(c), *(len(r[i]) for r in rows)) if rows else len(c) for i, c in enumerate(cols)]
    text = []
    text += head
    text.append("")
    text.append("| " + " | ".join(c.ljust(widths[i]) for i, c in enumerate(cols)) + " |")
    text.append("|" + "|".join(("-" * (widths[i] + 1) + ":") if i >= 3 else ("-" * (widths[i] + 2))
                               for i in range(len(cols))) + "|")
    for r in rows:
        text.append("| " + " | ".join(r[i].rjust(widths[i]) if i >= 3 else r[i].ljust(widths[i])
                                      for i in range(len(cols))) + " |")
    text.append("")
    text.append("ours/this: patterndb's rate divided by this tool's (daemon rows: our module's over this pipeline's;")
    text.append("the threaded row: its rate over pdbtool's); patterndb's own row runs with --threads 1;")
    text.append("intended%: generated matching lines classified with their own rule; =pdbtool%: same rule id as pdbtool.")
    text += targets(results)
    out = "\n".join(text)
    print(out)
    if path:
        with open(path, "w") as f:
            f.write(out + "\n")


if __name__ == "__main__":
    sys.exit(main())

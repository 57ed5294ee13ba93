#!/usr/bin/env python3
"""Workload generator for the patterndb benchmark (contrib/bench).

It writes, into one directory per workload, the same rule set in every form
the compared tools read, plus the input stream and the rule id each line was
generated from:

  patterndb.xml    patterndb XML, version 4 (loads in Debian's pdbtool 3.38)
  rules.rulebase   liblognorm v2 rulebase (lognormalizer), syslog header included
  rules.pcre       program TAB rule-id TAB anchored PCRE2 regex (pcre-baseline)
  input.log        RFC 3164 syslog lines, no <PRI>
  expected.txt     per input line: the rule id it was generated from, or empty
  meta.json        counts (rules, lines, matching lines, programs)

Invariant: the output depends only on the command-line arguments (fixed
seeds, sorted inputs), so two runs produce identical files, and every rule is
emitted from one token list, so the four forms describe the same patterns.

Workloads:
  real   the loghub samples (one rule per template, `<*>` turned into the
         parser that fits every value seen for it), repeated to --lines
  synth  --rules synthetic rules over tens of programs and a stream of
         --lines lines: 90% generated from a rule, the rest near misses,
         unknown programs and random words; the rule of a line is drawn
         uniformly (every line likely a different rule: the worst case for
         caches), or with --zipf S from a Zipf law (rule of rank k with
         weight 1/k^S over a fixed random ranking, as real logs where a
         few messages make most of the traffic)
Python standard library only.
"""

import argparse
import bisect
import csv
import json
import os
import random
import re
import sys
from xml.sax.saxutils import escape as xml_escape

# A token is ("lit", text) or ("p", TYPE, name, arg); TYPE is one of
# NUMBER, IPv4, ESTRING (arg: delimiter, consumed), QSTRING (arg: quote),
# STRING (arg: extra characters), ANYSTRING.

IPV4_RE = re.compile(r"^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$")
NUMBER_RE = re.compile(r"^\d{1,18}$")
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


# ---------------------------------------------------------------- emitters

def pattern_xml(tokens):
    out = []
    for t in tokens:
        if t[0] == "lit":
            out.append(t[1].replace("@", "@@"))
        else:
            _, typ, name, arg = t
            out.append("@%s:%s%s@" % (typ, name, (":" + arg) if arg is not None else ""))
    return "".join(out)


def lognorm_literal(text):
    return text.replace("\\", "\\\\").replace("%", "\\%")


def lognorm_json_str(s):
    return json.dumps(s)


def pattern_lognorm(tokens):
    out = []
    for t in tokens:
        if t[0] == "lit":
            out.append(lognorm_literal(t[1]))
            continue
        _, typ, name, arg = t
        if typ == "NUMBER":
            out.append("%%%s:number%%" % name)
        elif typ == "IPv4":
            out.append("%%%s:ipv4%%" % name)
        elif typ == "ESTRING":
            kind = "char-to" if len(arg) == 1 else "string-to"
            out.append('%%{"name":%s, "type":"%s", "extradata":%s}%%'
                       % (lognorm_json_str(name), kind, lognorm_json_str(arg)))
            out.append(lognorm_literal(arg))
        elif typ == "QSTRING":
            out.append("%%%s:quoted-string%%" % name)
        elif typ == "STRING":
            out.append("%%%s:word%%" % name)
        elif typ == "ANYSTRING":
            out.append("%%%s:rest%%" % name)
        else:
            raise ValueError(typ)
    return "".join(out)


def pattern_pcre(tokens):
    out = ["^"]
    for t in tokens:
        if t[0] == "lit":
            out.append(re.escape(t[1]))
            continue
        _, typ, name, arg = t
        if typ == "NUMBER":
            out.append(r"(\d+)")
        elif typ == "IPv4":
            out.append(r"(\d{1,3}(?:\.\d{1,3}){3})")
        elif typ == "ESTRING":
            if len(arg) == 1:
                out.append("([^%s]*)%s" % (re.escape(arg), re.escape(arg)))
            else:
                out.append("(.*?)%s" % re.escape(arg))
        elif typ == "QSTRING":
            q = re.escape(arg)
            out.append("%s([^%s]*)%s" % (q, q, q))
        elif typ == "STRING":
            out.append("([A-Za-z0-9%s]+)" % re.escape(arg or ""))
        elif typ == "ANYSTRING":
            out.append("(.+)")
    out.append("$")
    return "".join(out)


def write_outputs(outdir, rules, lines, expected, meta):
    """rules: list of (program, rule_id, tokens) in a fixed order."""
    os.makedirs(outdir, exist_ok=True)
    by_prog = {}
    for prog, rid, toks in rules:
        by_prog.setdefault(prog, []).append((rid, toks))
    with open(os.path.join(outdir, "patterndb.xml"), "w", encoding="utf-8") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        f.write('<patterndb version="4" pub_date="2026-01-01">\n')
        for i, prog in enumerate(sorted(by_prog)):
            f.write(' <ruleset name="%s" id="bench-rs-%d">\n  <pattern>%s</pattern>\n  <rules>\n'
                    % (xml_escape(prog), i, xml_escape(prog)))
            for rid, toks in by_prog[prog]:
                f.write('   <rule provider="bench" id="%s" class="system">\n'
                        '    <patterns>\n     <pattern>%s</pattern>\n    </patterns>\n   </rule>\n'
                        % (xml_escape(rid), xml_escape(pattern_xml(toks))))
            f.write("  </rules>\n </ruleset>\n")
        f.write("</patterndb>\n")
    with open(os.path.join(outdir, "rules.rulebase"), "w", encoding="utf-8") as f:
        f.write("version=2\n")
        for prog, rid, toks in rules:
            head = "%-:date-rfc3164% %-:word% " + lognorm_literal(prog) + "[%-:number%]: "
            f.write("rule=%s:%s%s\n" % (rid, head, pattern_lognorm(toks)))
    with open(os.path.join(outdir, "rules.pcre"), "w", encoding="utf-8") as f:
        for prog, rid, toks in rules:
            f.write("%s\t%s\t%s\n" % (prog, rid, pattern_pcre(toks)))
    with open(os.path.join(outdir, "input.log"), "w", encoding="utf-8", newline="\n") as f:
        f.write("".join(lines))
    with open(os.path.join(outdir, "expected.txt"), "w", encoding="utf-8") as f:
        f.write("".join(e + "\n" for e in expected))
    # One line that a rule matches, for measuring load time (first matching line).
    first = next((i for i, e in enumerate(expected) if e), 0)
    with open(os.path.join(outdir, "one.log"), "w", encoding="utf-8") as f:
        f.write(lines[first] if lines else "")
    meta = dict(meta)
    meta.update(rules=len(rules), lines=len(lines),
                matching=sum(1 for e in expected if e), programs=len(by_prog))
    with open(os.path.join(outdir, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)
        f.write("\n")


def syslog_line(n, host, prog, pid, msg):
    sec = n % 86400
    return "%s %2d %02d:%02d:%02d %s %s[%d]: %s\n" % (
        MONTHS[(n // 86400) % 12], 1 + (n // 3600) % 28, sec // 3600, (sec // 60) % 60, sec % 60,
        host, prog, pid, msg)


# ---------------------------------------------------------------- real (loghub)

PROGRAM_OF = {"Android": "android", "Apache": "httpd", "HDFS": "hdfs", "HPC": "hpc",
              "Hadoop": "hadoop", "Linux": "linux", "OpenSSH": "sshd",
              "Thunderbird": "thunderbird"}


def template_segments(tpl):
    """Literal segments around `<*>`; adjacent wildcards merge into one."""
    segs = tpl.split("<*>")
    merged = [segs[0]]
    for s in segs[1:]:
        if s == "" and len(merged) > 1 and merged[-1] == "":
            continue
        merged.append(s)
    # merged: lit0, lit1, ... with a wildcard between each pair
    return merged


def choose_parser(values, following, name):
    """Tokens for one wildcard given the values seen and the literal after it.
    Returns (tokens, remaining_following_literal) or None if not expressible."""
    nonempty = [v for v in values if v != ""]
    if following == "":
        return [("p", "ANYSTRING", name, None)], ""
    first = following[0]
    if values and not any(v == "" for v in values):
        if all(IPV4_RE.match(v) for v in values) and not (first.isdigit() or first == "."):
            return [("p", "IPv4", name, None)], following
        if all(NUMBER_RE.match(v) for v in values) and not first.isdigit() and first not in "xX.":
            return [("p", "NUMBER", name, None)], following
    # ESTRING: shortest prefix of the following literal that no value contains.
    limit = following.find("@")
    if limit == 0:
        return None
    cand_src = following if limit < 0 else following[:limit]
    delim = cand_src
    for k in range(1, len(cand_src) + 1):
        d = cand_src[:k]
        if not any(d in v for v in nonempty):
            delim = d
            break
    return [("p", "ESTRING", name, delim)], following[len(delim):]


def gen_real(args):
    root = args.loghub
    systems = sorted(d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d)))
    rules = []
    samples = []  # (program, message, rule_id or "")
    for sysname in systems:
        d = os.path.join(root, sysname)
        prog = PROGRAM_OF.get(sysname, sysname.lower())
        with open(os.path.join(d, "%s_2k.log_structured.csv" % sysname), newline="", encoding="utf-8",
                  errors="replace") as f:
            rows = list(csv.DictReader(f))
        by_event = {}
        for r in rows:
            by_event.setdefault(r["EventId"], []).append(r)
        rule_of_event = {}
        for ev in sorted(by_event, key=lambda e: (len(e), e)):
            evrows = by_event[ev]
            tpl = evrows[0]["EventTemplate"]
            segs = template_segments(tpl)
            if len(segs) == 1:
                tokens = [("lit", segs[0])] if segs[0] else []
            else:
                rx = re.compile("".join(
                    (re.escape(s) if i == 0 else ("(.*?)" if i < len(segs) - 1 or s else "(.*)") + re.escape(s))
                    for i, s in enumerate(segs)), re.S)
                vals = [[] for _ in range(len(segs) - 1)]
                for r in evrows:
                    m = rx.fullmatch(r["Content"].lstrip(" "))
                    if m:
                        for i, g in enumerate(m.groups()):
                            vals[i].append(g)
                tokens = [("lit", segs[0])] if segs[0] else []
                ok = True
                for i in range(1, len(segs)):
                    follow = segs[i]
                    got = choose_parser(vals[i - 1], follow, "v%d" % i)
                    if got is None:
                        ok = False
                        break
                    ptoks, rest = got
                    tokens.extend(ptoks)
                    if rest:
                        tokens.append(("lit", rest))
                if not ok:
                    continue
            if not tokens:
                continue
            rid = "%s-%s" % (sysname, ev)
            rule_of_event[ev] = rid
            rules.append((prog, rid, tokens))
        for r in rows:
            samples.append((prog, r["Content"].lstrip(" "), rule_of_event.get(r["EventId"], "")))
    # Keep the original order within a system and interleave systems deterministically.
    rnd = random.Random(args.seed)
    order = list(range(len(samples)))
    rnd.shuffle(order)
    lines, expected = [], []
    n = 0
    while n < args.lines:
        for i in order:
            if n >= args.lines:
                break
            prog, msg, rid = samples[i]
            lines.append(syslog_line(n, "host%d" % (i % 17), prog, 1000 + i % 5000, msg))
            expected.append(rid)
            n += 1
    write_outputs(args.out, rules, lines, expected,
                  dict(workload="real", seed=args.seed, templates_seen=len(rules)))


# ---------------------------------------------------------------- synthetic

WORDS = """access accepted account active added address agent alert allocated allowed applied
attempt audit authenticated authentication backup bad balance bind block blocked boot buffer
cache call cancelled certificate change channel check checksum child cleanup client closed
command commit complete config connect connected connection consumer context control copy
created cron daemon data database deferred delete delivered denied device disabled disconnect
disk domain done down drop dropped enabled end entry error event exceeded exit expired export
failed failure fetch file filter finished flush found frame gateway granted group handler
header health host idle ignored image import incoming index init inode input interface invalid
job joined key kill leader lease left limit link listen load lock logged login logout lookup
lost mail mapped master member memory message migrate missing mode module mount moved network
node notice offline online open option output overflow packet parent partition password path
peer pending permission pid policy pool port power primary process profile protocol proxy
publish queue quota read ready rebuild received record recovered redirect refused register
rejected reload remote removed renamed replica reply request reset resolved resource restart
restored result retry revoked role rotate route rule running saved scan schedule scheduled
secondary sector sent server service session shutdown signal size skipped slave slot socket
source started state status stopped storage stream success suspended switch sync table target
task temperature terminated thread throttled timeout token topic transaction transfer trigger
tunnel unable unknown unmounted update updated upload user valid value verified version
volume waiting warning watchdog worker write zone""".split()

PROGRAMS = """sshd postfix/smtpd postfix/qmgr postfix/cleanup kernel cron systemd dhclient named
nginx httpd haproxy dockerd containerd kubelet etcd mysqld postgres redis-server mongod
ntpd chronyd sudo su login auditd rsyslogd smartd zfs multipathd iscsid nfsd rpc.mountd
openvpn strongswan dnsmasq squid vsftpd dovecot slapd java""".split()

KV_KEYS = ["user", "uid", "src", "dst", "id", "status", "code", "len", "proto", "ttl", "mac",
           "session", "reason", "bytes", "duration", "client", "queue", "size", "dev", "action"]


def pseudo_words(rnd, n):
    syl = ["ka", "lo", "mi", "ter", "ran", "bo", "sel", "vi", "dur", "ex", "pa", "gor", "nu",
           "fen", "tal", "ri", "mos", "qua", "zen", "hol", "cy", "dro", "lin", "ver"]
    seen = set(WORDS)
    out = []
    while len(out) < n:
        w = "".join(rnd.choice(syl) for _ in range(rnd.randint(2, 3)))
        if w not in seen:
            seen.add(w)
            out.append(w)
    return out


class Synth:
    def __init__(self, seed, nrules):
        self.rnd = random.Random(seed)
        rnd = self.rnd
        self.vocab = WORDS + pseudo_words(rnd, 1500)
        nprog = 12 if nrules <= 100 else (24 if nrules <= 1000 else len(PROGRAMS))
        self.programs = PROGRAMS[:nprog]
        self.rules = []        # (prog, rid, tokens)
        seen = set()
        # Each program has a few heads that many of its rules share.
        heads = {p: [" ".join(rnd.sample(WORDS, rnd.randint(1, 2))) for _ in range(rnd.randint(4, 16))]
                 for p in self.programs}
        weights = [1.0 / (i + 1) ** 0.7 for i in range(nprog)]
        while len(self.rules) < nrules:
            prog = rnd.choices(self.programs, weights)[0]
            toks = self.make_pattern(prog, heads[prog])
            key = (prog, pattern_xml(toks))
            if key in seen:
                continue
            seen.add(key)
            self.rules.append((prog, "r%06d" % len(self.rules), toks))

    def make_pattern(self, prog, heads):
        rnd = self.rnd
        toks = []
        # A shared head, then a literal signature that tells rules apart.
        text = " ".join([rnd.choice(heads)] + [rnd.choice(self.vocab) for _ in range(rnd.randint(1, 3))])
        pos = 0
        for _ in range(rnd.choice([0, 1, 1, 2, 2, 3])):
            pos += 1
            name = "f%d" % pos
            kind = rnd.choice(["ip", "port", "kv_num", "kv_est", "kv_est", "qstr", "str", "est_word"])
            after = " "
            if kind == "ip":
                text += " from "
                parser = ("p", "IPv4", name, None)
            elif kind == "port":
                text += " port "
                parser = ("p", "NUMBER", name, None)
            elif kind == "kv_num":
                k = rnd.choice(KV_KEYS)
                text += " %s=" % k
                parser = ("p", "NUMBER", k, None)
            elif kind == "kv_est":
                k = rnd.choice(KV_KEYS)
                text += " %s=" % k
                parser = ("p", "ESTRING", k, ",")
                after = rnd.choice([" ", ""])
            elif kind == "qstr":
                text += " %s " % rnd.choice(["name", "path", "msg", "query"])
                parser = ("p", "QSTRING", name, '"')
            elif kind == "str":
                text += " %s " % rnd.choice(["on", "for", "to", "at", "by"])
                parser = ("p", "STRING", name, "._-")
            else:
                text += " "
                parser = ("p", "ESTRING", name, " ")
                after = ""
            toks.append(("lit", text))
            toks.append(parser)
            text = after + " ".join(rnd.choice(self.vocab) for _ in range(rnd.randint(1, 2)))
        pos += 1
        end = rnd.choice(["lit", "lit", "num", "any", "any", "ip"])
        if end == "lit":
            toks.append(("lit", text))
        elif end == "num":
            toks += [("lit", text + " took "), ("p", "NUMBER", "f%d" % pos, None), ("lit", "ms")]
        elif end == "any":
            toks += [("lit", text + ": "), ("p", "ANYSTRING", "f%d" % pos, None)]
        else:
            toks += [("lit", text + " peer "), ("p", "IPv4", "f%d" % pos, None)]
        return toks

    def value(self, typ, arg):
        rnd = self.rnd
        if typ == "NUMBER":
            return str(rnd.randint(0, 99999))
        if typ == "IPv4":
            return "%d.%d.%d.%d" % (rnd.randint(1, 223), rnd.randint(0, 255), rnd.randint(0, 255),
                                    rnd.randint(1, 254))
        if typ == "ESTRING":
            return rnd.choice(["u%d" % rnd.randint(0, 9999), "/var/lib/x%d" % rnd.randint(0, 99),
                               "0x%04x" % rnd.randint(0, 65535), "ab%dc" % rnd.randint(0, 999)])
        if typ == "QSTRING":
            return '"%s %d"' % (rnd.choice(["GET /index", "no such file", "x y z", "q"]), rnd.randint(0, 999))
        if typ == "STRING":
            return "srv%d.dc%d-a" % (rnd.randint(0, 999), rnd.randint(0, 9))
        if typ == "ANYSTRING":
            return rnd.choice(["errno=%d" % rnd.randint(1, 120), "see log %d for details" % rnd.randint(0, 99),
                               "retry in %ds (attempt %d)" % (rnd.randint(1, 60), rnd.randint(1, 9))])
        raise ValueError(typ)

    def message(self, toks):
        out = []
        for t in toks:
            if t[0] == "lit":
                out.append(t[1])
            else:
                v = self.value(t[1], t[3])
                out.append(v if t[1] != "QSTRING" else v)
                if t[1] == "ESTRING":
                    out.append(t[3])
        return "".join(out)

    def near_miss(self, toks):
        """Right prefix, wrong tail: a letter run of the last literal changes."""
        i = max(j for j, t in enumerate(toks) if t[0] == "lit" and re.search("[a-z]", t[1]))
        text = toks[i][1]
        runs = list(re.finditer("[a-z]+", text))
        m = runs[-1]
        bad = text[:m.start()] + "zq" + m.group(0)[::-1] + text[m.end():]
        return self.message(toks[:i] + [("lit", bad)] + toks[i + 1:])


def rule_picker(rnd, nrules, zipf, seed):
    """A function returning a rule index: uniform, or Zipf with exponent @zipf
    (the ranking comes from its own generator, so the uniform stream is the
    same as before this option existed)."""
    if zipf <= 0:
        return lambda: rnd.randrange(nrules)
    rank = list(range(nrules))
    random.Random(seed + 2).shuffle(rank)
    cum, total = [], 0.0
    for k in range(nrules):
        total += 1.0 / (k + 1) ** zipf
        cum.append(total)
    return lambda: rank[min(bisect.bisect_left(cum, rnd.random() * total), nrules - 1)]


def gen_synth(args):
    s = Synth(args.seed, args.rules)
    rnd = random.Random(args.seed + 1)
    lines, expected = [], []
    nrules = len(s.rules)
    pick = rule_picker(rnd, nrules, args.zipf, args.seed)
    for n in range(args.lines):
        x = rnd.random()
        host = "host%d" % (n % 31)
        pid = 100 + (n * 7919) % 30000
        if x < 0.90:
            prog, rid, toks = s.rules[pick()]
            msg = s.message(toks)
            expected.append(rid)
        elif x < 0.95:
            prog, rid, toks = s.rules[pick()]
            msg = s.near_miss(toks)
            expected.append("")
        elif x < 0.98:
            prog = "unknown%d" % rnd.randint(0, 50)
            msg = " ".join(rnd.choice(s.vocab) for _ in range(rnd.randint(3, 9)))
            expected.append("")
        else:
            prog = rnd.choice(s.programs)
            msg = "zz " + " ".join(rnd.choice(s.vocab) for _ in range(rnd.randint(3, 9)))
            expected.append("")
        lines.append(syslog_line(n, host, prog, pid, msg))
    write_outputs(args.out, s.rules, lines, expected,
                  dict(workload="synth", seed=args.seed, zipf=args.zipf))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("real")
    r.add_argument("--loghub", required=True)
    r.add_argument("--lines", type=int, default=1000000)
    r.add_argument("--seed", type=int, default=6)
    r.add_argument("--out", required=True)
    s = sub.add_parser("synth")
    s.add_argument("--rules", type=int, required=True)
    s.add_argument("--lines", type=int, default=1000000)
    s.add_argument("--seed", type=int, default=6)
    s.add_argument("--zipf", type=float, default=0.0, help="Zipf exponent of the rule choice (0: uniform)")
    s.add_argument("--out", required=True)
    args = ap.parse_args()
    if args.cmd == "real":
        gen_real(args)
    else:
        gen_synth(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())

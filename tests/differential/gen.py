#!/usr/bin/env python3
"""Differential test inputs for `patterndb match` against Debian's pdbtool.

Writes pattern databases (version 4, which pdbtool 3.38 reads) and syslog
lines to classify with them. Standard library only; every random choice
comes from a seeded random.Random, so a seed always gives the same files.

  gen.py random OUTDIR SEED NDB NMSG   random databases over small alphabets
  gen.py loghub DATADIR OUTDIR         databases from loghub templates

Each database NAME.xml gets NAME.log (one syslog line per message).

Cases where our behaviour deliberately differs from 3.38 (the compatibility
policy) are never generated here; test-vs-pdbtool.sh checks them on their
own: @NLSTRING@ at the end of input, @QSTRING@ with different open and close
characters (nesting), '+' signs before numbers, version 6 files.
"""
import csv
import os
import random
import sys
from xml.sax.saxutils import escape, quoteattr

LETTERS = "ab"
DIGITS = "0123456789"
LITERALS = ["a", "b", "ab", " ", ":", "-", ".", "x", "=", "/", " a", "b ", ": "]


def xml_text(s):
    return escape(s)


class RandomDb:
    """One random database and the values that can instantiate its patterns."""

    PARSERS = [
        "STRING", "STRING_EXTRA", "ESTRING", "ESTRING_MULTI", "NUMBER", "FLOAT",
        "IPv4", "ANYSTRING", "QSTRING", "HOSTNAME",
        "MACADDR", "EMAIL", "PCRE", "IPv6", "IPvANY", "LLADDR",
    ]

    def __init__(self, rnd, name):
        self.r = rnd
        self.name = name
        self.names = ["n%d" % i for i in range(6)] + ["", "user", "HOST_x"]

    def parser(self, at_end):
        r = self.r
        kind = r.choice(self.PARSERS)
        if kind == "ANYSTRING" and not at_end:
            kind = "STRING"
        name = r.choice(self.names)
        if kind == "STRING_EXTRA":
            return ("STRING", name, r.choice(["-.", ".", "/:"]))
        if kind == "ESTRING":
            return ("ESTRING", name, r.choice([" ", ":", "=", "b"]))
        if kind == "ESTRING_MULTI":
            return ("ESTRING", name, r.choice([": ", "ab", " x"]))
        if kind == "QSTRING":
            return ("QSTRING", name, r.choice(['"', "'", "|"]))
        if kind in ("SET", "OPTIONALSET"):
            return (kind, name, r.choice(["ab", "a.", " a", "0123456789"]))
        if kind == "PCRE":
            return ("PCRE", name, r.choice(["[ab]+", "a|b", "[0-9]{2}", "x*"]))
        if kind == "LLADDR":
            return ("LLADDR", name, r.choice(["", "3", "8"]))
        return (kind, name, "")

    def pattern(self):
        r = self.r
        parts = []
        for i in range(r.randint(1, 5)):
            at_end = i == 4 or r.random() < 0.2
            if r.random() < 0.5:
                parts.append(("LIT", r.choice(LITERALS)))
            else:
                parts.append(self.parser(at_end))
            if at_end:
                break
        # two parsers next to each other only when the first has a delimiter
        fixed = []
        for p in parts:
            if fixed and fixed[-1][0] not in ("LIT", "ESTRING", "QSTRING") and p[0] != "LIT":
                fixed.append(("LIT", r.choice([" ", ":", "-"])))
            fixed.append(p)
        return fixed

    @staticmethod
    def render(parts):
        out = []
        for p in parts:
            if p[0] == "LIT":
                out.append(p[1].replace("@", "@@"))
            elif p[2]:
                out.append("@%s:%s:%s@" % p)
            else:
                out.append("@%s:%s@" % (p[0], p[1]) if p[1] else "@%s@" % p[0])
        return "".join(out)

    def value_for(self, p):
        r = self.r
        kind, _, param = p
        word = lambda n: "".join(r.choice(LETTERS + DIGITS) for _ in range(n))
        if kind == "STRING":
            return word(r.randint(1, 5)) + (r.choice(param) if param and r.random() < 0.5 else "")
        if kind == "ESTRING":
            return "".join(r.choice("ab01 .") for _ in range(r.randint(0, 4))).replace(param, "") + param
        if kind == "NUMBER":
            return r.choice([word(0) + str(r.randint(0, 9999)), "-" + str(r.randint(0, 99)), "0x1F", "007"])
        if kind == "FLOAT":
            return r.choice(["1.5", "-2", "3e4", "0.25E-2", "12", ".", "-"])
        if kind == "IPv4":
            return ".".join(str(r.randint(0, 300)) for _ in range(r.choice([3, 4, 4, 4, 5])))
        if kind == "IPv6":
            return r.choice(["::1", "fe80::1", "2001:db8::a:b", "1:2:3:4:5:6:7:8", "::ffff:1.2.3.4", "a::", "1:2"])
        if kind == "IPvANY":
            return r.choice(["1.2.3.4", "::1", "10.0.0.255", "fe80::2"])
        if kind == "MACADDR":
            return ":".join("%02x" % r.randint(0, 255) for _ in range(r.choice([1, 3, 6, 6, 7])))
        if kind == "LLADDR":
            return ":".join("%02X" % r.randint(0, 255) for _ in range(r.choice([2, 6, 8, 9])))
        if kind == "EMAIL":
            return r.choice(["bob@example.com", "a.b@c.d", "x@localhost", "<u@h.io>", "a@b"])
        if kind == "HOSTNAME":
            return r.choice(["host.example.com", "a.b", "localhost", "a-b.c", "x."])
        if kind == "ANYSTRING":
            return "".join(r.choice("ab :1.") for _ in range(r.randint(0, 6)))
        if kind == "QSTRING":
            q = param
            return q + "".join(r.choice("ab 1") for _ in range(r.randint(0, 4))) + q
        if kind in ("SET", "OPTIONALSET"):
            return "".join(r.choice(param) for _ in range(r.randint(0, 3)))
        if kind == "PCRE":
            return r.choice(["ab", "a", "12", "xx", "", "b"])
        return "?"

    def message(self, parts):
        r = self.r
        out = []
        for p in parts:
            out.append(p[1] if p[0] == "LIT" else self.value_for(p))
        msg = "".join(out)
        roll = r.random()
        if roll < 0.15 and msg:
            i = r.randrange(len(msg))
            msg = msg[:i] + msg[i + 1:]
        elif roll < 0.3:
            i = r.randint(0, len(msg))
            msg = msg[:i] + r.choice("ab :.1x") + msg[i:]
        elif roll < 0.4:
            msg = msg + r.choice([" tail", "x", " ", ":"])
        elif roll < 0.45:
            msg = "".join(r.choice("ab :.1x-") for _ in range(r.randint(0, 8)))
        return msg

    def write(self, outdir, nmsg):
        r = self.r
        programs = ["p1", "p2", "q"]
        rulesets = []
        all_rules = []
        rid = 0
        for rs_index, prog in enumerate(programs + [None]):
            rules = []
            for _ in range(r.randint(2, 7)):
                parts = self.pattern()
                extra = [self.pattern()] if r.random() < 0.15 else []
                rules.append(("r%d" % rid, [parts] + extra))
                rid += 1
            if rules and r.random() < 0.2:
                # a duplicate pattern: the first rule keeps it
                rules.append(("r%d" % rid, [rules[0][1][0]]))
                rid += 1
            rulesets.append((prog, rules))
            all_rules.extend((prog, rule) for rule in rules)

        lines = ["<?xml version='1.0' encoding='UTF-8'?>",
                 "<patterndb version='4' pub_date='2026-01-01'>"]
        for i, (prog, rules) in enumerate(rulesets):
            lines.append("  <ruleset name='rs%d' id='rs%d'>" % (i, i))
            if prog:
                lines.append("    <patterns><pattern>%s</pattern>" % prog)
                if r.random() < 0.3:
                    lines.append("      <pattern>%s@STRING:pp@</pattern>" % (prog + "x"))
                lines.append("    </patterns>")
            lines.append("    <rules>")
            for rule_id, pats in rules:
                cls = r.choice(["system", "violation", "a-very-long-class-name-over-19", None])
                attrs = "id='%s' provider='gen'" % rule_id + (" class='%s'" % cls if cls else "")
                lines.append("      <rule %s>" % attrs)
                lines.append("        <patterns>")
                for parts in pats:
                    lines.append("          <pattern>%s</pattern>" % xml_text(self.render(parts)))
                lines.append("        </patterns>")
                if r.random() < 0.5:
                    tags = r.sample(["t1", "t2", "t3", "secevt"], r.randint(1, 2))
                    lines.append("        <tags>%s</tags>" % "".join("<tag>%s</tag>" % t for t in tags))
                if r.random() < 0.5:
                    vals = []
                    for _ in range(r.randint(1, 3)):
                        vname = r.choice(["v1", "v2", "n0", "user"])
                        vtext = r.choice(["const", "${n0}", "$PROGRAM-x", "${n1}/${n2}", "", "$MESSAGE"])
                        vals.append("<value name='%s'>%s</value>" % (vname, xml_text(vtext)))
                    lines.append("        <values>%s</values>" % "".join(vals))
                lines.append("      </rule>")
            lines.append("    </rules>")
            lines.append("  </ruleset>")
        lines.append("</patterndb>")
        with open(os.path.join(outdir, self.name + ".xml"), "w") as f:
            f.write("\n".join(lines) + "\n")

        msgs = []
        for i in range(nmsg):
            prog, (rule_id, pats) = r.choice(all_rules)
            p = prog if prog and r.random() < 0.9 else r.choice(["p1", "p2", "q", "p1x", "other", "p"])
            body = self.message(r.choice(pats))
            if r.random() < 0.8:
                msgs.append("Dec %2d 10:%02d:%02d host%d %s[%d]: %s" % (
                    r.randint(1, 28), r.randint(0, 59), r.randint(0, 59), r.randint(0, 3), p, 100 + i, body))
            else:
                msgs.append("<13>1 2026-01-01T10:00:00Z host %s %d - - %s" % (p, i, body))
        with open(os.path.join(outdir, self.name + ".log"), "w") as f:
            f.write("\n".join(msgs) + "\n")
        return len(msgs)


def loghub_pattern(template, counter):
    """A loghub template: <*> becomes a parser, the rest literal text."""
    pieces = template.split("<*>")
    out = []
    for i, lit in enumerate(pieces):
        out.append(lit.replace("@", "@@"))
        if i == len(pieces) - 1:
            break
        nxt = pieces[i + 1]
        name = "v%d" % next(counter)
        if nxt == "" and i + 1 == len(pieces) - 1:
            out.append("@ANYSTRING:%s@" % name)
        elif nxt == "":
            return None   # <*><*>: nothing to delimit the first one
        else:
            delim = nxt[0]
            if delim == "@":
                return None
            out.append("@ESTRING:%s:%s@" % (name, delim))
            # the delimiter is consumed by ESTRING
            pieces[i + 1] = nxt[1:]
    return "".join(out)


def loghub(datadir, outdir):
    total = 0
    for ds in sorted(os.listdir(datadir)):
        d = os.path.join(datadir, ds)
        tpl = os.path.join(d, "%s_2k.log_templates.csv" % ds)
        st = os.path.join(d, "%s_2k.log_structured.csv" % ds)
        if not (os.path.isfile(tpl) and os.path.isfile(st)):
            continue
        prog = ds.lower()
        rules = []
        with open(tpl, newline="", encoding="utf-8", errors="replace") as f:
            for row in csv.DictReader(f):
                import itertools
                pat = loghub_pattern(row["EventTemplate"], itertools.count())
                if pat is None or not pat.strip() or "\n" in pat:
                    continue
                rules.append((row["EventId"], pat))
        lines = ["<?xml version='1.0' encoding='UTF-8'?>",
                 "<patterndb version='4' pub_date='2026-01-01'>",
                 "  <ruleset name=%s id=%s>" % (quoteattr(ds), quoteattr(ds)),
                 "    <pattern>%s</pattern>" % prog,
                 "    <rules>"]
        for rule_id, pat in rules:
            lines.append("      <rule id=%s class='loghub' provider='loghub'>" % quoteattr(ds + "-" + rule_id))
            lines.append("        <patterns><pattern>%s</pattern></patterns>" % xml_text(pat))
            lines.append("        <tags><tag>%s</tag></tags>" % xml_text(prog))
            lines.append("      </rule>")
        lines += ["    </rules>", "  </ruleset>", "</patterndb>"]
        with open(os.path.join(outdir, "loghub-%s.xml" % ds), "w") as f:
            f.write("\n".join(lines) + "\n")
        msgs = []
        with open(st, newline="", encoding="utf-8", errors="replace") as f:
            for i, row in enumerate(csv.DictReader(f)):
                content = row["Content"].replace("\n", " ").replace("\0", "")
                msgs.append("Jan  1 00:00:%02d host %s[%d]: %s" % (i % 60, prog, i, content))
        with open(os.path.join(outdir, "loghub-%s.log" % ds), "w") as f:
            f.write("\n".join(msgs) + "\n")
        total += len(msgs)
    return total


def main(argv):
    if len(argv) == 6 and argv[1] == "random":
        outdir, seed, ndb, nmsg = argv[2], int(argv[3]), int(argv[4]), int(argv[5])
        total = 0
        for i in range(ndb):
            rnd = random.Random(seed * 1000 + i)
            total += RandomDb(rnd, "random-%d-%d" % (seed, i)).write(outdir, nmsg)
        print(total)
    elif len(argv) == 4 and argv[1] == "loghub":
        print(loghub(argv[2], argv[3]))
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

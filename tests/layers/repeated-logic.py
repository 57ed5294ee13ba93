#!/usr/bin/env python3
"""tests/layers/repeated-logic.py: finds logic written twice.

Reads C files (*.c, *.h) and shell files (*.sh) given on the command line
or found below the folders given, turns each into a list of tokens with
comments, blank lines and #include lines left out, and puts every
identifier in C, every $variable in shell, every number and every quoted
string in both as one placeholder, so that two pieces alike but for their
names and values read the same ("shape"); the words of a shell
here-document are data and stay as they are. Two places that share a run of
at least --min-tokens such tokens spanning at least --min-lines lines on
each side are a clone pair. A run that stands in more than --most-places
places is a common idiom (a loop head, a cleanup tail), not logic, and is
not a pair. A pair is boilerplate, and not reported, when under
--min-words of its tokens are names or words (the rest is punctuation and
keywords), and so is a C run with fewer than three statements (the rows
of a table). Lines with an allowlist entry "a.c b.c reason" drop every pair
between files whose paths end in a.c and b.c (either order; the same name
twice for pairs inside one file).

Prints one line a pair, "a.c:10-24 ~ b.c:40-54 (N tokens)", longest first,
and exits 1 when any pair is left, 0 otherwise, 2 on a usage error.
"""
import argparse
import os
import re
import sys

C_KEYWORDS = set("""
auto break case char const continue default do double else enum extern
float for goto if inline int long register restrict return short signed
sizeof static struct switch typedef union unsigned void volatile while
bool true false NULL gboolean gint guint gsize gssize gchar guchar gint64
guint64 gint32 guint32 gpointer gconstpointer TRUE FALSE
""".split())

C_TOKEN = re.compile(r"""
    (?P<ws>[ \t\r\f\v]+) | (?P<nl>\n)
  | (?P<comment>/\*.*?\*/|//[^\n]*)
  | (?P<pre>^[ \t]*\#[ \t]*include[^\n]*)
  | (?P<str>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
  | (?P<num>\.?[0-9](?:[eEpP][+-]|[0-9a-zA-Z_.])*)
  | (?P<id>[A-Za-z_][A-Za-z_0-9]*)
  | (?P<op>->|\+\+|--|<<=|>>=|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|\.\.\.|\S)
""", re.S | re.M | re.X)

SH_TOKEN = re.compile(r"""
    (?P<ws>[ \t\r]+|\\\n) | (?P<nl>\n)
  | (?P<comment>(?<![^\s;|&(])\#[^\n]*)
  | (?P<str>'[^']*'|"(?:\\.|[^"\\])*")
  | (?P<var>\$\{?[A-Za-z_][A-Za-z_0-9]*\}?|\$[0-9@#?*!$-])
  | (?P<num>(?<![A-Za-z_])[0-9]+(?![A-Za-z_]))
  | (?P<id>[A-Za-z_./][A-Za-z_0-9./-]*)
  | (?P<op>;;|&&|\|\||<<-?|>>|[<>]&|\S)
""", re.S | re.M | re.X)


HEREDOC = re.compile(r"<<-?\s*['\"]?([A-Za-z_][A-Za-z_0-9]*)['\"]?")


def split_heredocs(text):
    """Shell: returns the text with here-document bodies blanked (their
    lines kept, empty) and the bodies' words as exact tokens: a body is
    data (a database, a configuration), alike only when equal."""
    lines = text.split("\n")
    words = []
    i = 0
    while i < len(lines):
        ends = HEREDOC.findall(lines[i]) if "<<" in lines[i] else []
        i += 1
        for end in ends:
            while i < len(lines) and lines[i].strip() != end:
                words += [("=" + w, i + 1) for w in lines[i].split()]
                lines[i] = ""
                i += 1
            i += 1
    return "\n".join(lines), words


def tokenize(path, text):
    """Returns [(shape, line)] with the placeholders put in."""
    is_c = path.endswith((".c", ".h"))
    pattern = C_TOKEN if is_c else SH_TOKEN
    body_words = []
    if not is_c:
        text, body_words = split_heredocs(text)
    tokens, line = [], 1
    for m in pattern.finditer(text):
        kind, value = m.lastgroup, m.group()
        if kind in ("str", "num"):
            tokens.append((kind.upper(), line))
        elif kind == "var":
            tokens.append(("$V", line))
        elif kind == "id":
            shape = value if (not is_c or value in C_KEYWORDS) else "ID"
            tokens.append((shape, line))
        elif kind == "op":
            tokens.append((value, line))
        line += value.count("\n")
    if body_words:
        tokens = sorted(tokens + body_words, key=lambda t: t[1])
    return tokens


def is_word(shape):
    return shape in ("ID", "STR", "NUM", "$V") or shape[:1].isalpha() or shape[:1] == "="


def collect(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                files += [os.path.join(root, n) for n in names
                          if n.endswith((".c", ".h", ".sh"))]
        else:
            files.append(p)
    return sorted(set(files))


def find_pairs(streams, window, most_places):
    """Yields (file a, token a, file b, token b, length) for each run of
    shapes the two places share, from windows of `window` tokens."""
    places = {}
    for f, toks in streams.items():
        shapes = [t[0] for t in toks]
        for i in range(len(shapes) - window + 1):
            places.setdefault(hash(tuple(shapes[i:i + window])), []).append((f, i))
    diagonals = {}
    for spots in places.values():
        if len(spots) < 2 or len(spots) > most_places:
            continue
        for a in range(len(spots)):
            for b in range(a + 1, len(spots)):
                (fa, ia), (fb, ib) = sorted((spots[a], spots[b]))
                if fa == fb and ib - ia < window:
                    continue
                diagonals.setdefault((fa, fb, ib - ia), []).append(ia)
    for (fa, fb, delta), starts in diagonals.items():
        starts.sort()
        run_start = prev = starts[0]
        for s in starts[1:] + [None]:
            if s is not None and s == prev + 1:
                prev = s
                continue
            n = prev - run_start + window
            if fa == fb and delta < n:
                n = delta          # a run that overlaps itself: its period
            yield fa, run_start, fb, run_start + delta, n
            if s is not None:
                run_start = prev = s


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--min-tokens", type=int, default=60)
    ap.add_argument("--min-lines", type=int, default=6)
    ap.add_argument("--min-words", type=float, default=0.4)
    ap.add_argument("--most-places", type=int, default=20)
    ap.add_argument("--allow", help="allowlist file")
    ap.add_argument("--strip", default="", help="prefix left out of printed paths")
    args = ap.parse_args()

    allow = []
    if args.allow:
        with open(args.allow, encoding="utf-8") as fh:
            for raw in fh:
                words = raw.split("#", 1)[0].split()
                if len(words) >= 2:
                    allow.append((words[0], words[1]))

    def allowed(fa, fb):
        for a, b in allow:
            if (fa.endswith(a) and fb.endswith(b)) or (fa.endswith(b) and fb.endswith(a)):
                return True
        return False

    files = collect(args.paths)
    streams = {}
    for f in files:
        with open(f, encoding="utf-8", errors="replace") as fh:
            streams[f] = tokenize(f, fh.read())
    found = {}
    for fa, ia, fb, ib, n in find_pairs(streams, 20, args.most_places):
        if n < args.min_tokens:
            continue
        ta, tb = streams[fa], streams[fb]
        lines_a = (ta[ia][1], ta[ia + n - 1][1])
        lines_b = (tb[ib][1], tb[ib + n - 1][1])
        if min(lines_a[1] - lines_a[0], lines_b[1] - lines_b[0]) + 1 < args.min_lines:
            continue
        if sum(1 for t in ta[ia:ia + n] if is_word(t[0])) < args.min_words * n:
            continue
        if fa.endswith((".c", ".h")) and sum(1 for t in ta[ia:ia + n] if t[0] == ";") < 3:
            continue           # rows of a table, a list of fields: data, not logic
        if allowed(fa, fb):
            continue
        if (fa, fb) not in found or found[(fa, fb)][0] < n:
            found[(fa, fb)] = (n, lines_a, lines_b)

    def rel(p):
        return p[len(args.strip):].lstrip("/") if args.strip and p.startswith(args.strip) else p

    rows = sorted(found.items(), key=lambda kv: -kv[1][0])
    for (fa, fb), (n, la, lb) in rows:
        print(f"{rel(fa)}:{la[0]}-{la[1]} ~ {rel(fb)}:{lb[0]}-{lb[1]} ({n} tokens)")
    print(f"{len(rows)} pairs in {len(files)} files", file=sys.stderr)
    return 1 if rows else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""example-sources.py PAIRS ALLOWLIST FILE...: checks that every rule of
the pattern library has at least one example taken verbatim from a real
capture (contrib/patterns/README, "Examples come from real logs").

PAIRS holds the captured messages, one "PROGRAM<TAB>MESSAGE" a line, as
the syslog parser of the tool reads them from the committed captures
(tests/library/test-example-sources.sh makes it). An example is real when
its (program, message) pair is one of them, character for character.

ALLOWLIST names the rules whose message could not be captured here, one
"rule-id: reason" a line ('#' starts a comment); the rule id may be a
shell-style pattern ("logind-*") that names a family of rules sharing the
reason. An entry must give a reason and name at least one rule of the
library that really lacks a captured example (a stale entry is an error,
so the list only shrinks).

Prints one TAP line per FILE, one for the allowlist, then a
"# summary: ..." line with the counts."""
import fnmatch
import sys
import xml.etree.ElementTree as ET

from capture_pairs import read_pairs


def read_allowlist(path):
    """{rule-id: reason} and the problems of the list itself."""
    allowed, problems = {}, []
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            rid, sep, reason = line.partition(':')
            rid, reason = rid.strip(), reason.strip()
            if not sep or not reason:
                problems.append('%s:%d: entry %r gives no reason' % (path, n, rid))
            elif rid in allowed:
                problems.append('%s:%d: rule %s listed twice' % (path, n, rid))
            allowed[rid] = reason
    return allowed, problems


def allowlisted(rid, allowed, seen):
    """The allowlist entries naming rule rid (noted in seen['used'])."""
    hits = [entry for entry in allowed if fnmatch.fnmatchcase(rid, entry)]
    return hits


def check(path, pairs, allowed, seen):
    """Problems of one library file; counts go into seen."""
    problems = []
    root = ET.parse(path).getroot()
    for rule in root.iter('rule'):
        rid = rule.get('id') or '(no id)'
        seen['rules'].add(rid)
        real = any((ex.get('program') or '', ex.text or '') in pairs
                   for ex in rule.iter('test_message'))
        entries = allowlisted(rid, allowed, seen)
        if real:
            seen['real'] += 1
            if rid in allowed:
                problems.append('rule %s: has a captured example, remove it from the allowlist' % rid)
        elif entries:
            seen['allowed'] += 1
            seen['used'].update(entries)
        else:
            problems.append('rule %s: no example is a line of a committed capture' % rid)
    return problems


def main():
    if len(sys.argv) < 4:
        sys.stderr.write('usage: example-sources.py PAIRS ALLOWLIST FILE...\n')
        return 2
    pairs = read_pairs(sys.argv[1])
    allowed, list_problems = read_allowlist(sys.argv[2])
    files = sys.argv[3:]
    seen = {'rules': set(), 'real': 0, 'allowed': 0, 'used': set()}
    failed = 0
    print('1..%d' % (len(files) + 1))
    for n, path in enumerate(files, 1):
        problems = check(path, pairs, allowed, seen)
        name = path.rsplit('/', 1)[-1]
        status = 'not ok' if problems else 'ok'
        failed += bool(problems)
        print('%s %d - %s: every rule has a captured example or an allowlist entry' % (status, n, name))
        for p in problems[:30]:
            print('# ' + p)
    list_problems += ['allowlist entry %s names no rule of the library that lacks a captured example' % rid
                      for rid in sorted(set(allowed) - seen['used']) if rid not in seen['rules']]
    status = 'not ok' if list_problems else 'ok'
    failed += bool(list_problems)
    print('%s %d - the allowlist names existing rules, each with a reason' % (status, len(files) + 1))
    for p in list_problems:
        print('# ' + p)
    print('# summary: %d rules, %d with an example from a capture, %d allowlisted (%d entries)' %
          (len(seen['rules']), seen['real'], seen['allowed'], len(allowed)))
    return 1 if failed else 0


sys.exit(main())

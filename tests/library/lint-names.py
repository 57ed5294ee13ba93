#!/usr/bin/env python3
"""lint-names.py FILE...: checks the pattern library's conventions
(contrib/patterns/README) and prints one TAP line per file.

Per file: version 5; every rule has an id unique in the whole library, a
class (system, security or violation), at least one example with at least
one test value, and, when its patterns extract names, an example that tests
one of those names; every extracted name, <value> name and test value name
follows "<prefix>.<field>" with a documented prefix (test values may also
name .classifier.class and .classifier.rule_id; <value>s may also name an
ECS field); every tag is a documented
stand-alone tag or "<area>.<event>" with a documented area."""
import re
import sys
import xml.etree.ElementTree as ET

PREFIXES = ('usracct', 'auth', 'pam', 'net', 'ssh', 'proc', 'sys', 'hw', 'fs', 'fw',
            'mem', 'mail', 'time', 'http', 'dns', 'file', 'pkg')
NAME_RE = re.compile(r'^(%s)\.[a-z][a-z0-9_]*$' % '|'.join(PREFIXES))
TEST_EXTRA = ('.classifier.class', '.classifier.rule_id')
# <value> names may also be Elastic Common Schema fields (README, "ECS fields").
ECS_SETS = ('event', 'user', 'group', 'source', 'destination', 'process', 'service', 'email',
            'log', 'http', 'file', 'url', 'host', 'network', 'related', 'client', 'server', 'error')
ECS_RE = re.compile(r'^(%s)(\.[a-z][a-z0-9_]*)+$' % '|'.join(ECS_SETS))
TAG_WORDS = ('usracct', 'secevt', 'login', 'logout')
TAG_AREAS = PREFIXES + ('session', 'priv', 'password', 'job', 'syslog', 'mac')
TAG_RE = re.compile(r'^(%s)\.[a-z][a-z0-9_]*$' % '|'.join(TAG_AREAS))
CLASSES = ('system', 'security', 'violation')
def parsers(pattern):
    """(type, name) of every parser reference in a pattern, scanning left
    to right: "@@" is a literal "@", "@...@" a reference split on ":" into
    at most three parts (type, name, param)."""
    out = []
    i = 0
    while True:
        i = pattern.find('@', i)
        if i < 0:
            return out
        if pattern.startswith('@@', i):
            i += 2
            continue
        j = pattern.find('@', i + 1)
        if j < 0:
            return out
        parts = pattern[i + 1:j].split(':', 2)
        out.append((parts[0], parts[1] if len(parts) > 1 else ''))
        i = j + 1


def lint(path, seen_ids):
    problems = []
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as err:
        return ['not well-formed XML: %s' % err]
    if root.get('version') != '5':
        problems.append('version is %r, expected 5' % root.get('version'))
    for rule in root.iter('rule'):
        rid = rule.get('id') or ''
        where = 'rule %s' % (rid or '(no id)')
        if not rid:
            problems.append('%s: no id' % where)
        elif rid in seen_ids:
            problems.append('%s: id also used in %s' % (where, seen_ids[rid]))
        else:
            seen_ids[rid] = path
        if rule.get('class') not in CLASSES:
            problems.append('%s: class %r is not one of %s' % (where, rule.get('class'), ', '.join(CLASSES)))
        names = set()
        for pat in rule.iter('pattern'):
            for ptype, name in parsers(pat.text or ''):
                if name:
                    names.add(name)
                    if not NAME_RE.match(name):
                        problems.append('%s: extracted name %r breaks the naming convention' % (where, name))
        for value in rule.iter('value'):
            if not NAME_RE.match(value.get('name') or '') and not ECS_RE.match(value.get('name') or ''):
                problems.append('%s: value name %r breaks the naming convention' % (where, value.get('name')))
        for tag in rule.iter('tag'):
            t = (tag.text or '').strip()
            if t not in TAG_WORDS and not TAG_RE.match(t):
                problems.append('%s: tag %r is not a documented tag' % (where, t))
        examples = list(rule.iter('example'))
        if not examples:
            problems.append('%s: no example' % where)
        tested = set()
        for ex in examples:
            tvs = list(ex.iter('test_value'))
            if not tvs:
                problems.append('%s: an example without test values' % where)
            for tv in tvs:
                n = tv.get('name') or ''
                tested.add(n)
                if n not in TEST_EXTRA and not NAME_RE.match(n):
                    problems.append('%s: test value name %r breaks the naming convention' % (where, n))
        if names and not (tested & names):
            problems.append('%s: extracts %s but no example tests any of them' % (where, ', '.join(sorted(names))))
        if not names and not tested:
            problems.append('%s: no test value at all' % where)
    return problems


def main():
    seen = {}
    failed = 0
    print('1..%d' % len(sys.argv[1:]))
    for n, path in enumerate(sys.argv[1:], 1):
        problems = lint(path, seen)
        name = path.rsplit('/', 1)[-1]
        if problems:
            failed += 1
            print('not ok %d - %s follows the library conventions' % (n, name))
            for p in problems[:20]:
                print('# ' + p)
        else:
            print('ok %d - %s follows the library conventions' % (n, name))
    return 1 if failed else 0


sys.exit(main())

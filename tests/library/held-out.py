#!/usr/bin/env python3
"""held-out.py examples|matches DIR CAPTURE OUT-DIR FILE...: the library
without the rules written against one capture, for a held-out coverage
figure. DIR holds one file per committed capture, named after it.

examples: DIR's files hold the captures' messages as "PROGRAM<TAB>MESSAGE"
  lines (library.sh, library_capture_messages). A rule counts as written
  against CAPTURE when every one of its examples that is a line of some
  capture is a line of CAPTURE only: its example was taken from CAPTURE.
matches: DIR's files hold the rule ids that classified the capture's
  lines, one a line. A rule counts as written against CAPTURE when CAPTURE
  is the only capture it classifies a line of: nothing else confirms it.

Rules without a captured example or match at all (written from the
program's message formats) stay. Each FILE is written to OUT-DIR without
the removed rules (rulesets left empty are dropped); prints the number of
rules removed and kept."""
import os
import sys
import xml.etree.ElementTree as ET

from capture_pairs import read_pairs


def read_ids(path):
    with open(path, encoding='utf-8') as f:
        return {line.strip() for line in f if line.strip()}


def main():
    if len(sys.argv) < 6 or sys.argv[1] not in ('examples', 'matches'):
        sys.stderr.write('usage: held-out.py examples|matches DIR CAPTURE OUT-DIR FILE...\n')
        return 2
    mode, data_dir, capture, out_dir, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
    if mode == 'examples':
        captures = {name: read_pairs(os.path.join(data_dir, name)) for name in os.listdir(data_dir)}
    else:
        captures = {name: read_ids(os.path.join(data_dir, name)) for name in os.listdir(data_dir)}
    if capture not in captures:
        sys.stderr.write('held-out.py: nothing for capture %s in %s\n' % (capture, data_dir))
        return 2
    removed = kept = 0
    for path in files:
        tree = ET.parse(path)
        root = tree.getroot()
        for ruleset in list(root.iter('ruleset')):
            rules = ruleset.find('rules')
            if rules is None:
                continue
            for rule in list(rules):
                if mode == 'examples':
                    examples = [(ex.get('program') or '', ex.text or '') for ex in rule.iter('test_message')]
                    seen_in = {name for name, pairs in captures.items() for ex in examples if ex in pairs}
                else:
                    seen_in = {name for name, ids in captures.items() if rule.get('id') in ids}
                if seen_in == {capture}:
                    rules.remove(rule)
                    removed += 1
                else:
                    kept += 1
            if len(rules) == 0:
                root.remove(ruleset)
        tree.write(os.path.join(out_dir, os.path.basename(path)), encoding='utf-8', xml_declaration=True)
    print('%d %d' % (removed, kept))
    return 0


sys.exit(main())

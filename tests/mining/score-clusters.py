#!/usr/bin/env python3
"""score-clusters.py: grouping accuracy of rule ids against loghub ground truth.

Usage:
  score-clusters.py split STRUCTURED.csv OUTDIR
      writes OUTDIR/content.txt (the Content column, one message a line),
      OUTDIR/content.syslog (the same as RFC 3164 lines of program
      'patternize', the program `patternize -p` writes rules for) and
      OUTDIR/truth.txt (the EventId of each line).
  score-clusters.py score TRUTH.txt RULE_IDS.txt
      RULE_IDS.txt has one rule id per line (empty: unmatched; all the
      unmatched lines form one cluster). Prints "GA FGA N_RULES_USED".

GA (He et al. 2016): share of lines whose cluster holds exactly the lines
of their true event. FGA (Loghub-2.0, Jiang et al. 2024): F1 of the
share of predicted clusters that equal a true event (precision) and the
share of true events that equal a predicted cluster (recall).
"""
import csv
import os
import sys
from collections import defaultdict


def split(path, outdir):
    with open(path, newline='', encoding='utf-8') as f:
        rows = list(csv.DictReader(f))
    with open(os.path.join(outdir, 'content.txt'), 'w', encoding='utf-8') as c, \
         open(os.path.join(outdir, 'content.syslog'), 'w', encoding='utf-8') as s, \
         open(os.path.join(outdir, 'truth.txt'), 'w', encoding='utf-8') as t:
        for r in rows:
            c.write(r['Content'] + '\n')
            s.write('Jan  1 00:00:00 host patternize: ' + r['Content'] + '\n')
            t.write(r['EventId'] + '\n')


def score(truth_path, ids_path):
    with open(truth_path, encoding='utf-8') as f:
        truth = [l.rstrip('\n') for l in f]
    with open(ids_path, encoding='utf-8') as f:
        pred = [l.rstrip('\n') for l in f]
    if len(truth) != len(pred):
        sys.exit('score-clusters.py: %d truth lines but %d rule ids' % (len(truth), len(pred)))
    true_groups = defaultdict(set)
    pred_groups = defaultdict(set)
    for i, (t, p) in enumerate(zip(truth, pred)):
        true_groups[t].add(i)
        pred_groups[p].add(i)
    correct_lines = 0
    correct_groups = 0
    true_sets = {frozenset(v) for v in true_groups.values()}
    for members in pred_groups.values():
        if frozenset(members) in true_sets:
            correct_groups += 1
            correct_lines += len(members)
    n = len(truth)
    ga = correct_lines / n if n else 0.0
    precision = correct_groups / len(pred_groups) if pred_groups else 0.0
    recall = correct_groups / len(true_groups) if true_groups else 0.0
    fga = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    n_rules = len([p for p in pred_groups if p])
    print('%.3f %.3f %d' % (ga, fga, n_rules))


if __name__ == '__main__':
    if len(sys.argv) == 4 and sys.argv[1] == 'split':
        split(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 4 and sys.argv[1] == 'score':
        score(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)

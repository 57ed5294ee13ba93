"""The (program, message) pairs of the committed captures, as
library_capture_pairs (tests/library/library.sh) writes them: one
"PROGRAM<TAB>MESSAGE" line each; lines without a tab are skipped."""


def read_pairs(path):
    pairs = set()
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            program, sep, message = line.rstrip('\n').partition('\t')
            if sep:
                pairs.add((program, message))
    return pairs

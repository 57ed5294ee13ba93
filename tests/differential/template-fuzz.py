#!/usr/bin/env python3
# template-fuzz.py SEED COUNT: COUNT random nested template function calls
# (one per line, reproducible from SEED) for test-template-fuzz.sh: the
# functions of the basic set over numbers, lists, quotes, escapes, look-backs
# and conditions, nested up to three deep.
import random, sys
random.seed(int(sys.argv[1]))
funcs = ("+ - * / % round ceil floor sum min max average echo length substr strip sanitize lowercase "
         "uppercase replace-delimiter padding indent-multi-line base64-encode url-encode url-decode "
         "basename dirname list-concat list-append list-head list-nth list-tail list-slice list-count "
         "list-search explode implode context-length context-values context-lookup grep if or map filter").split()
atoms = ["0", "-1", "1", "2", "7", "9223372036854775807", "-9223372036854775808", "2147483647", "1.5",
         "-0.5", "1e3", "nan", "", '""', "a,b", '"a b",c', "'x',y", "${k}", "${w}", "${n}", "${n}@1",
         "${w}@2", "$_", "%41", "%zz", "1:2", "-2:", ":-1", "/a/b", "1.2.3.4", '("$_" eq "a")',
         '("${n}" ne "")', '("${w}" eq "x")', "x@@y", "$$", "\u00e9", "a b", ",", "a,,b", ",a,", "X", "ab"]
def gen(depth=0):
    f = random.choice(funcs)
    args = []
    for _ in range(random.randint(1, 4)):
        args.append(gen(depth + 1) if depth < 2 and random.random() < 0.3 else random.choice(atoms))
    return "$(" + f + " " + " ".join(args) + ")"
for _ in range(int(sys.argv[2])):
    print(gen() + random.choice(["", "", "@1", "@0", "@@", "x"]))

#!/bin/bash
# tests/layers/test-layers.sh: the layering of modules/patterndb holds in
# the source and in the build (doc/layout.md):
#   engine       <- db <- correlation <- syslog-ng
#                   db <- mining, lint <- tool
# (an arrow points from what is used to its user). Checked:
#  - every #include "layer/..." in a layer's files names an allowed layer;
#  - outside engine/ only its public headers (radix.h, parser.h, pattern.h)
#    are included; radix-node.h is the engine's own;
#  - only syslog-ng/ includes syslog-ng's headers (any other quoted include
#    must resolve inside modules/patterndb or the build tree);
#  - the tool does not link libsyslog-ng; the module links neither the
#    miner nor the linter (no mining or lint object in it) and exports only
#    its entry points;
#  - no source file is over 700 lines and no function over 100, except the
#    ones listed below with the reason.
. "$top_srcdir/tests/lib.sh"

src=$top_srcdir/modules/patterndb
declare -A allowed=(
  [engine]="engine"
  [db]="engine db"
  [correlation]="engine db correlation"
  [mining]="engine db mining"
  [lint]="engine db lint"
  [tool]="engine db correlation mining lint tool"
  [syslog-ng]="engine db correlation syslog-ng"
)
# Longer than the limits, and why.
long_functions="_visit"        # engine/radix-lookup.c: the whole lookup, one labelled case per node kind, kept in one frame for speed
long_files=""

plan 7

# 1. include direction
bad=""
for layer in "${!allowed[@]}"; do
  while IFS= read -r line; do
    file=${line%%:*}
    inc=$(printf '%s' "$line" | sed -n 's/.*#include "\([^"]*\)".*/\1/p')
    target=${inc%%/*}
    [ "$target" = "$inc" ] && continue            # same-folder include ("x.h")
    [ -d "$src/$target" ] || continue             # not one of ours: check 2
    case " ${allowed[$layer]} " in
      *" $target "*) ;;
      *) bad="$bad ${file#"$src"/}->$inc" ;;
    esac
  done < <(grep -Hn '^#include "' "$src/$layer"/*.[ch] 2>/dev/null)
done
check_eq "every include runs down the layers" "" "${bad# }"

# 1b. the engine's private header stays inside engine/
bad=$(grep -ln '#include "engine/radix-node.h"' "$src"/*/*.[ch] | grep -v "^$src/engine/" | sed "s|^$src/||" | tr '\n' ' ')
check_eq "engine/radix-node.h is included only inside engine/" "" "${bad% }"

# 2. syslog-ng headers only in syslog-ng/
bad=""
for layer in engine db correlation mining lint tool; do
  while IFS= read -r line; do
    file=${line%%:*}
    inc=$(printf '%s' "$line" | sed -n 's/.*#include "\([^"]*\)".*/\1/p')
    dir=$(dirname "$file")
    if [ ! -e "$dir/$inc" ] && [ ! -e "$src/$inc" ] && [ ! -e "$top_builddir/$inc" ]; then
      bad="$bad ${file#"$src"/}->$inc"
    fi
  done < <(grep -Hn '^#include "' "$src/$layer"/*.[ch] 2>/dev/null)
done
check_eq "outside syslog-ng/ every quoted include is ours" "" "${bad# }"

# 3. the tool does not need libsyslog-ng
tool=$top_builddir/.libs/patterndb
[ -x "$tool" ] || tool=$top_builddir/patterndb
needed=$(readelf -d "$tool" 2>/dev/null | grep NEEDED)
check "the tool was read" [ -n "$needed" ]
check_eq "the tool does not link libsyslog-ng" "" "$(printf '%s\n' "$needed" | grep -i syslog-ng)"

# 4. the module holds engine, db, correlation and the glue only
module=$top_builddir/.libs/libpatterndb.so
syms=$(nm "$module" 2>/dev/null | awk '{print $NF}')
check_eq "the module has no mining or lint code" "" \
  "$(printf '%s\n' "$syms" | grep -E '^pdb_(mining|cluster|patternize|report|lint)_' | head -5 | tr '\n' ' ')"

# 5. size limits
over=""
while IFS= read -r f; do
  n=$(wc -l < "$f")
  rel=${f#"$src"/}
  if [ "$n" -gt 700 ] && [[ " $long_files " != *" $rel "* ]]; then over="$over $rel:$n"; fi
  while read -r len name; do
    [[ " $long_functions " == *" $name "* ]] || over="$over $rel:$name():$len"
  done < <(awk 'prev != "" && /^\{/ { start = NR; name = prev; sub(/\(.*/, "", name); sub(/.*[ *]/, "", name) }
                /^\}/ && start { if (NR - start > 100) print NR - start, name; start = 0 }
                { prev = $0 }' "$f")
done < <(find "$src" -name '*.[ch]' | sort)
check_eq "no file over 700 lines, no function over 100 (but the listed)" "" "${over# }"

done_testing

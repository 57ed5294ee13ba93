#!/bin/bash
# tests/e2e/test-grouping-by.sh: our grouping-by() against syslog-ng 3.38's
# own, in the real daemon. Each case runs the same parser body on the same
# input twice: once with Debian's libdbparser.so alone in the module path
# (no @module patterndb: syslog-ng's grouping-by()), once with `@module
# patterndb` (ours). The outputs (timestamps, HOST/PROGRAM/PID, MESSAGE,
# every name-value pair, tags) must be identical, and concrete values are
# asserted on ours. Cases: trigger, where(), scope(process), ${name}@N and
# $(context-length) in aggregate values, inherit-mode() last-message /
# context (default) / none, tags, sort-key() with having(), timeout by the
# message clock and by the 1 s idle timer, the emission order, every
# inject-mode(), a context kept across SIGHUP. Then what only ours has:
# context-limit() under a flood of unique keys.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/daemon.sh"
e2e_setup

T=$TEST_TMPDIR
OURS_PATH=$MODULE_PATH
REF_PATH=$SYSTEM_MODULE_DIR
[ -f "$REF_PATH/$STOCK_PDB_SO" ] || skip_all "no $STOCK_PDB_SO in $REF_PATH (the reference grouping-by())"
plan 31

# Input lines: RFC 3164 with a host name, stamped an hour ago plus OFFSET
# seconds (the correlation clock caps message time at now).
BASE=$(( $(date +%s) - 3600 ))
line() { # OFFSET HOST PROGRAM PID MESSAGE
  printf '<13>%s %s %s[%s]: %s' "$(date -u -d "@$((BASE + $1))" '+%b %e %H:%M:%S')" "$2" "$3" "$4" "$5"
}

OUT_TEMPLATE='${ISODATE} h=${HOST} p=${PROGRAM} pid=${PID} m=${MSG} | $(format-json --scope nv-pairs --scope dot-nv-pairs --exclude MESSAGE --exclude HOST --exclude PROGRAM --exclude PID --exclude SOURCE --exclude LEGACY_MSGHDR --exclude .unix.* --exclude HOST_FROM) tags=${TAGS}\n'

# write_conf FLAVOUR NAME BODY: FLAVOUR ours or ref.
write_conf() {
  local flavour=$1 name=$2 body=$3 dir=$T/$2-$1
  mkdir -p "$dir"
  {
    echo "@version: $SNG_CONFIG_VERSION"
    [ "$flavour" = ours ] && echo '@module patterndb'
    cat <<CONF
options { keep-hostname(yes); $SNG_STATS_OFF };
source s { unix-stream("$dir/sock" flags(expect-hostname)); };
parser p { kv-parser(prefix("kv.")); $body };
destination d { file("$dir/out.log" template("$OUT_TEMPLATE")); };
destination d_int { file("$dir/internal.log" template("\${MSG} tags=\${TAGS}\n")); };
log { source(s); parser(p); destination(d); };
log { source { internal(); }; filter { message("^agg"); }; destination(d_int); };
CONF
  } >"$dir/syslog-ng.conf"
}

# run_case NAME BODY LINES WAIT_FILE WAIT_N -- LINE...: runs both daemons;
# afterwards $T/NAME-ref/ and $T/NAME-ours/ hold out.log and internal.log.
run_case() {
  local name=$1 body=$2 wait_file=$3 wait_n=$4 flavour
  shift 5
  for flavour in ref ours; do
    write_conf "$flavour" "$name" "$body"
    if [ "$flavour" = ref ]; then MODULE_PATH=$REF_PATH; else MODULE_PATH=$OURS_PATH; fi
    if daemon_start "$T/$name-$flavour/syslog-ng.conf" "$name-$flavour-d"; then
      send_lines "$T/$name-$flavour/sock" "$@"
      wait_lines "$T/$name-$flavour/$wait_file" "$wait_n" 15
      daemon_stop
    fi
    touch "$T/$name-$flavour/out.log" "$T/$name-$flavour/internal.log"
  done
  MODULE_PATH=$OURS_PATH
}

# same NAME FILE: ours and the reference wrote the same.
same() {
  local ref=$T/$1-ref/$2 ours=$T/$1-ours/$2
  if [ -s "$ref" ] && cmp -s "$ref" "$ours"; then
    ok "$1: $2 identical to syslog-ng's grouping-by()"
  else
    not_ok "$1: $2 identical to syslog-ng's grouping-by()"
    diag "reference:"; diag "$(cat "$ref" 2>&1)"
    diag "ours:"; diag "$(cat "$ours" 2>&1)"
    diag "$(diff "$ref" "$ours" 2>&1 | head -20)"
  fi
}

# msgs NAME [FILE]: the m= part of each line of ours (without the pairs).
msgs() { sed -n 's/^.* m=\(.*\) | .*$/\1/p' "$T/$1-ours/${2:-out.log}" | tr '\n' ';'; }

# 1. trigger, where(), scope(process), @N, $(context-length), last-message,
#    tags, aggregate-only (every message that reaches the parser is dropped,
#    also the one where() let through).
run_case trigger \
  'grouping-by(key("${kv.k}") scope(process) where(not message("skip")) trigger(message("close")) timeout(30)
     aggregate(value("MESSAGE" "agg n=$(context-length) first=${kv.n}@3 prev=${kv.n}@2 gone=${kv.n}@9")
               value("kv.n" "99") inherit-mode(last-message) tags("agg") tags("t2"))
     inject-mode(aggregate-only));' \
  out.log 2 -- \
  "$(line 0 host1 app 1 'k=a n=1 u=x')" \
  "$(line 1 host1 app 2 'k=a n=2')" \
  "$(line 2 host1 app 1 'k=a n=3 close')" \
  "$(line 3 host1 app 1 'k=b n=4 skip')" \
  "$(line 4 host1 app 1 'k=b n=5 close')"
same trigger out.log
check_eq "trigger: aggregates of the process-scoped contexts (pid 2 kept apart, where() excluded n=4)" \
  "agg n=3 first= prev=1 gone=;agg n=2 first= prev= gone=;" "$(msgs trigger)"
# .classifier.context_id: set by 3.x's grouping-by(), not by 4.x's (whose
# format-json also writes TRANSPORT and MSGFORMAT)
case $SNG_CONFIG_VERSION in
  3.*) trigger_pairs='"kv":{"n":"99","k":"a"},"_classifier":{"context_id":"a"}}' ;;
  *) trigger_pairs='"kv":{"n":"99","k":"a"},"TRANSPORT"' ;;
esac
trigger_line=$(grep -F "$trigger_pairs" "$T/trigger-ours/out.log" | grep ' tags=agg,t2,.source.s$')
check "trigger: last-message inherits the last message's tags and pairs, values override, .classifier.context_id as the daemon's" \
  test -n "$trigger_line"
[ -n "$trigger_line" ] || diag "out.log: $(cat "$T/trigger-ours/out.log")"

# 2. sort-key() orders the context before having() and the values; having()
#    sees the sorted context; inherit-mode(context) (the default) takes the
#    last message after sorting plus what only older ones have.
run_case sort \
  'grouping-by(key("${kv.k}") sort-key("${kv.n}") timeout(30)
     having("$(context-length)" == "3" or message("keep")) trigger(message("close"))
     aggregate(value("MESSAGE" "agg ${kv.k}@1 n=$(context-length) s=${kv.n}@3,${kv.n}@2,${kv.n}@1"))
     inject-mode(aggregate-only));' \
  out.log 1 -- \
  "$(line 0 host1 app 1 'k=a n=3 keep u=x')" \
  "$(line 1 host1 app 1 'k=a n=1 v=y')" \
  "$(line 2 host1 app 1 'k=a n=2 close')" \
  "$(line 3 host1 app 1 'k=b n=1 keep')" \
  "$(line 4 host1 app 1 'k=b n=2 close')" \
  "$(line 5 host2 app 1 'k=a n=9 keep')" \
  "$(line 6 host2 app 1 'k=a n=5 close')"
same sort out.log
check_eq "sort: sorted by sort-key; having() drops host1's b (its last after sorting is not 'keep')" \
  "agg a n=4 s=1,2 close,3 keep;agg a n=3 s=,5 close,9 keep;" "$(msgs sort)"
check "sort: inherit-mode(context): the last message after sorting, plus values only older ones have" \
  grep -q '"kv":{"v":"y","u":"x","n":"3 keep","k":"a"}' "$T/sort-ours/out.log"

# 3. timeout by the message clock, global scope (the default), inherit-mode(none),
#    pass-through: an expired context's aggregate comes first, then the
#    aggregate a message triggers, then that message.
run_case timeout \
  'grouping-by(key("${kv.k}") trigger(message("close")) timeout(30)
     aggregate(value("MESSAGE" "agg ${kv.k}@1 n=$(context-length) here=${kv.k}") inherit-mode(none) tags("agg"))
     inject-mode(pass-through));' \
  out.log 6 -- \
  "$(line 0 host1 app 1 'k=a n=1')" \
  "$(line 1 host2 other 7 'k=a n=2')" \
  "$(line 100 host1 app 1 'k=b n=3 close')" \
  "$(line 101 host1 app 1 'k=c n=4')"
same timeout out.log
check_eq "timeout: order and values (none: no inherited values, @1 reaches the last message)" \
  "k=a n=1;k=a n=2;agg a n=3 here=;agg b n=2 here=;k=b n=3 close;k=c n=4;" "$(msgs timeout)"
check_eq "timeout: inherit-mode(none), global scope: empty HOST/PROGRAM/PID, the last message's time, only the aggregate's tags" \
  "$(date -u -d "@$((BASE + 1))" '+%Y-%m-%dT%H:%M:%S+00:00') h= p= pid= m=agg a n=3 here= | {} tags=agg" \
  "$(sed -n 3p "$T/timeout-ours/out.log")"

# 4. the idle timer: no further message, the context expires by real time.
run_case idle \
  'grouping-by(key("${kv.k}") scope(host) timeout(1)
     aggregate(value("MESSAGE" "agg ${kv.k} n=$(context-length)") inherit-mode(none)));' \
  out.log 3 -- \
  "$(line 0 host1 app 1 'k=a n=1')" \
  "$(line 0 host1 app 2 'k=a n=2')"
same idle out.log
check_eq "idle: the aggregate came without another message (scope(host) writes HOST only)" \
  "h=host1 p= pid= m=agg  n=3" "$(sed -n '3s/^[^ ]* \(.*\) | .*$/\1/p' "$T/idle-ours/out.log")"

# 5. inject-mode(internal): aggregates go to internal(), originals pass.
run_case internal \
  'grouping-by(key("${kv.k}") trigger(message("close")) timeout(30)
     aggregate(value("MESSAGE" "agg ${kv.k} n=$(context-length)") tags("agg"))
     inject-mode(internal));' \
  internal.log 1 -- \
  "$(line 0 host1 app 1 'k=a n=1')" \
  "$(line 1 host1 app 1 'k=a n=2 close')"
same internal out.log
same internal internal.log
check_eq "internal: the aggregate went to internal(), with its tags" \
  "agg a n=3 tags=agg,.source.s,.source.#anon-source0" "$(cat "$T/internal-ours/internal.log")"
check_eq "internal: both originals passed" "k=a n=1;k=a n=2 close;" "$(msgs internal)"

# 6. SIGHUP: the open context survives the reload.
reload_case() {
  local flavour=$1 dir=$T/reload-$1
  write_conf "$flavour" reload \
    'grouping-by(key("${kv.k}") trigger(message("close")) timeout(60)
       aggregate(value("MESSAGE" "agg ${kv.k}@1 n=$(context-length)")) inject-mode(pass-through));'
  if [ "$flavour" = ref ]; then MODULE_PATH=$REF_PATH; else MODULE_PATH=$OURS_PATH; fi
  if daemon_start "$dir/syslog-ng.conf" "reload-$flavour-d"; then
    send_lines "$dir/sock" "$(line 0 host1 app 1 'k=a n=1')"
    wait_lines "$dir/out.log" 1 15
    daemon_reload
    send_lines "$dir/sock" "$(line 2 host1 app 1 'k=a n=2 close')"
    wait_lines "$dir/out.log" 3 15
    daemon_stop
  fi
  touch "$dir/out.log"
  MODULE_PATH=$OURS_PATH
}
reload_case ref
reload_case ours
same reload out.log
check_eq "reload: the context opened before SIGHUP is closed after it with both messages" \
  "k=a n=1;agg a n=3;k=a n=2 close;" "$(msgs reload)"

# 6a. Only ours: a grouping-by() referenced from two log paths runs as two
#     copies (as in 3.38); each copy keeps its own contexts across SIGHUP.
#     (3.38's copy loses inject-mode(), so there is nothing to compare.)
dir=$T/copies-ours
mkdir -p "$dir"
cat >"$dir/syslog-ng.conf" <<CONF
@version: $SNG_CONFIG_VERSION
@module patterndb
source s { unix-stream("$dir/sock" flags(expect-hostname)); };
parser p { kv-parser(prefix("kv.")); grouping-by(key("\${kv.k}") trigger(message("close")) timeout(60)
  aggregate(value("MESSAGE" "agg \$(context-length)"))); };
destination d1 { file("$dir/one.log" template("\${MSG}\n")); };
destination d2 { file("$dir/two.log" template("\${MSG}\n")); };
log { source(s); parser(p); destination(d1); };
log { source(s); parser(p); destination(d2); };
CONF
if daemon_start "$dir/syslog-ng.conf" copies-d; then
  send_lines "$dir/sock" "$(line 0 host1 app 1 'k=a')"
  wait_lines "$dir/one.log" 1 15
  wait_lines "$dir/two.log" 1 15
  daemon_reload
  send_lines "$dir/sock" "$(line 1 host1 app 1 'k=a z=close')"
  wait_lines "$dir/one.log" 3 15
  wait_lines "$dir/two.log" 3 15
  daemon_stop
fi
check_eq "copies: both log paths' copies kept their context across SIGHUP" "agg 3|agg 3" \
  "$(sed -n 2p "$dir/one.log" 2>&1)|$(sed -n 2p "$dir/two.log" 2>&1)"

# 6b. scope(program): other PIDs of the same program on the same host join;
#     typed values; the scope fields written into an inherit-mode(none) aggregate.
run_case program \
  'grouping-by(key("${kv.k}") scope(program) trigger(message("close")) timeout(30)
     aggregate(value("MESSAGE" "agg n=$(context-length) pids=${PID}@3,${PID}@2,${PID}@1")
               value("count" int("$(context-length)")) inherit-mode(none))
     inject-mode(aggregate-only));' \
  out.log 2 -- \
  "$(line 0 host1 app 1 'k=a')" \
  "$(line 1 host1 app 2 'k=a')" \
  "$(line 2 host1 other 3 'k=a')" \
  "$(line 3 host2 app 4 'k=a')" \
  "$(line 4 host1 app 5 'k=a z=close')" \
  "$(line 5 host2 app 6 'k=a z=close')"
same program out.log
check_eq "program: host1/app gathered three PIDs, host2/app two; HOST and PROGRAM written, PID not" \
  "h=host1 p=app pid= m=agg n=4 pids=1,2,5|h=host2 p=app pid= m=agg n=3 pids=,4,6|" \
  "$(sed 's/^[^ ]* \(.*\) | .*$/\1/' "$T/program-ours/out.log" | tr '\n' '|')"

# 6c. Expiry order: contexts expiring in the same second end in the order
#     their expiry was set; a message that sets the same expiry again keeps
#     the context's place (3.38's timer wheel), one that moves it to a later
#     second puts it behind.
run_case order \
  'grouping-by(key("${kv.k}") timeout(10)
     aggregate(value("MESSAGE" "agg ${kv.k}@1 n=$(context-length)") inherit-mode(none))
     inject-mode(aggregate-only));' \
  out.log 4 -- \
  "$(line 0 host1 app 1 'k=x')" \
  "$(line 0 host1 app 1 'k=y')" \
  "$(line 0 host1 app 1 'k=x')" \
  "$(line 0 host1 app 1 'k=v')" \
  "$(line 1 host1 app 1 'k=v')" \
  "$(line 0 host1 app 1 'k=z')" \
  "$(line 60 host1 app 1 'k=tick')"
same order out.log
check_eq "order: x kept its place ahead of y; v moved a second later, and z (older stamp, the clock already there) behind it" \
  "agg x n=3;agg y n=2;agg v n=3;agg z n=2;" "$(msgs order)"

# 7. Only ours: context-limit(). A flood of 2000 unique keys with
#    context-limit(50): each new context beyond 50 closes the one nearest to
#    expiry (the oldest here), and its aggregate is emitted at once.
#    syslog-ng 3.38 has no such bound (the contexts would all stay open).
flood=()
head=$(line 0 host1 app 1 "")
for i in $(seq 1 2000); do flood+=("${head}k=key$i"); done
write_conf ours limit \
  'grouping-by(key("${kv.k}") timeout(600) context-limit(50)
     aggregate(value("MESSAGE" "agg ${kv.k}@1") inherit-mode(none)) inject-mode(aggregate-only));'
if daemon_start "$T/limit-ours/syslog-ng.conf" limit-d; then
  send_lines "$T/limit-ours/sock" "${flood[@]}"
  wait_lines "$T/limit-ours/out.log" 1950 20
  sleep 1
  daemon_stop
fi
touch "$T/limit-ours/out.log"
check_eq "limit: exactly 1950 contexts were closed early by the limit" "1950" "$(count_lines "$T/limit-ours/out.log")"
check_eq "limit: the oldest went first, in order" "agg key1;agg key2;agg key3;" \
  "$(head -3 "$T/limit-ours/out.log" | sed 's/^.* m=\(.*\) | .*$/\1/' | tr '\n' ';')"
check_eq "limit: the last one closed is key1950 (key1951..key2000 still open)" "agg key1950" \
  "$(tail -1 "$T/limit-ours/out.log" | sed 's/^.* m=\(.*\) | .*$/\1/')"
out=$(syslog_ng -s -f "$T/limit-ours/syslog-ng.conf" 2>&1)
check "limit: the configuration passes the syntax check" test $? -eq 0
sed 's/context-limit(50)/context-limit(0)/' "$T/limit-ours/syslog-ng.conf" >"$T/limit-zero.conf"
if syslog_ng -s -f "$T/limit-zero.conf" >/dev/null 2>&1; then
  not_ok "limit: context-limit(0) is rejected"
else
  ok "limit: context-limit(0) is rejected"
fi

# prefix() (4.0) goes before the aggregate's value names.
write_conf ours prefix \
  'grouping-by(key("${kv.k}") trigger("1" == "1") timeout(30) prefix("g.")
     aggregate(value("count" "$(context-length)") inherit-mode(none)) inject-mode(aggregate-only));'
if daemon_start "$T/prefix-ours/syslog-ng.conf" prefix-d; then
  send_lines "$T/prefix-ours/sock" "$(line 0 host1 app 1 'k=a')"
  wait_lines "$T/prefix-ours/out.log" 1 15
  daemon_stop
fi
touch "$T/prefix-ours/out.log"
# $(context-length) is text in 3.x, an integer in 4.x
case $SNG_CONFIG_VERSION in 3.*) count='"2"' ;; *) count=2 ;; esac
check "prefix: the value is g.count" grep -qF "| {\"g\":{\"count\":$count}} tags=" "$T/prefix-ours/out.log"
grep -qF "| {\"g\":{\"count\":$count}} tags=" "$T/prefix-ours/out.log" || diag "out.log: $(cat "$T/prefix-ours/out.log")"

# 8. Configuration errors, as syslog-ng's: key(), timeout() and aggregate() are mandatory.
for missing in 'key("${kv.k}")' 'timeout(5)' 'aggregate(value("MESSAGE" "x"))'; do
  body='grouping-by(key("${kv.k}") timeout(5) aggregate(value("MESSAGE" "x")));'
  write_conf ours bad "${body/"$missing"/}"
  MODULE_PATH=$OURS_PATH
  if daemon_start "$T/bad-ours/syslog-ng.conf" "bad-$RANDOM"; then
    daemon_stop
    not_ok "without $missing the configuration does not start"
  else
    ok "without $missing the configuration does not start"
  fi
done
done_testing

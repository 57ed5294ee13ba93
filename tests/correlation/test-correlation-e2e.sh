#!/bin/bash
# tests/correlation/test-correlation-e2e.sh: correlation inside the real
# syslog-ng 3.38 with our module: inject-mode(pass-through | internal |
# aggregate-only), timeout actions fired by the 1 s idle timer (no message
# moves the clock), open contexts kept across a SIGHUP reload, and
# context-limit(): the context nearest to expiry is expired early.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/daemon.sh"
e2e_setup

T=$TEST_TMPDIR
DB="$top_srcdir/tests/correlation/e2e-corr.xml"
cat >"$T/syslog-ng.conf" <<CONF
@version: $SNG_CONFIG_VERSION
@module patterndb
options { $SNG_STATS_OFF };
source s_local { unix-stream("$T/sock"); };
source s_int { internal(); };
destination d_pass { file("$T/pass.log" template("\$MSG|\$TAGS\n")); };
destination d_time { file("$T/time.log" template("\$S_ISODATE \$MSG\n")); };
destination d_int_path { file("$T/int-path.log" template("\$MSG\n")); };
destination d_int { file("$T/int.log" template("\$MSG|\$PROGRAM\n")); };
destination d_agg { file("$T/agg.log" template("\$MSG\n")); };
filter f_gen { tags("gen"); };
log { source(s_local); parser { db-parser(file("$DB") inject-mode(pass-through)); }; destination(d_pass); destination(d_time); };
log { source(s_local); parser { db-parser(file("$DB") inject-mode("internal") persist-name("int")); }; destination(d_int_path); };
log { source(s_int); filter(f_gen); destination(d_int); };
log { source(s_local); parser { db-parser(file("$DB") inject-mode(aggregate-only) persist-name("agg")); }; destination(d_agg); };
destination d_lim { file("$T/lim.log" template("\$MSG\n")); };
log { source(s_local); parser { db-parser(file("$DB") context-limit(2) persist-name("lim")); }; destination(d_lim); };
CONF

plan 18
if ! daemon_start "$T/syslog-ng.conf"; then
  for i in $(seq 1 18); do not_ok "daemon did not start"; done
  exit 1
fi

send_syslog "$T/sock" app "login alice from 10.0.0.1"
wait_lines "$T/pass.log" 2 10
# the match action's message is forwarded while its trigger is processed, so ahead of it
check_eq "pass-through: the match action message, then the message" \
  "M alice|gen;login alice from 10.0.0.1|.source.s_local,.classifier.session" \
  "$(head -n 2 "$T/pass.log" | tr '\n' ';' | sed 's/;$//')"
# no further message: only the idle timer can expire the context (timeout 2 s)
wait_lines "$T/pass.log" 3 10
check_eq "pass-through: the idle timer fires the timeout action" "T alice 10.0.0.1|gen,.source.s_local,.classifier.session" "$(sed -n 3p "$T/pass.log")"

# as in 3.38, a generated message carries the time of the context's newest
# message (Jan 1 00:00:00 here; syslog-ng guesses its year), not the time it
# was made
wait_lines "$T/time.log" 3 10
stamp=$(grep ' login alice' "$T/time.log" | cut -d' ' -f1)
check "the trigger's time is Jan 1 00:00:00 ($stamp)" expr "$stamp" : '....-01-01T00:00:00+00:00$'
check_eq "match action message (inherit-mode none) has the context's time" \
  "$stamp M alice" "$(grep ' M alice' "$T/time.log")"
check_eq "timeout action message (inherit-mode context) has the context's time" \
  "$stamp T alice 10.0.0.1" "$(grep ' T alice' "$T/time.log")"

wait_lines "$T/int.log" 2 10
check_eq "internal: synthetic messages go to internal()" "M alice|app;T alice 10.0.0.1|app" \
  "$(tr '\n' ';' <"$T/int.log" | sed 's/;$//')"
check_eq "internal: the log path itself carries only the original" "login alice from 10.0.0.1" "$(cat "$T/int-path.log")"

wait_lines "$T/agg.log" 2 10
check_eq "aggregate-only: only synthetic messages" "M alice;T alice 10.0.0.1" "$(tr '\n' ';' <"$T/agg.log" | sed 's/;$//')"

# a context open across a reload: two messages before SIGHUP, its timeout after
send_syslog "$T/sock" app "long bob" "long carol"
send_syslog "$T/sock" app "long bob"
send_syslog "$T/sock" app "long dave"
wait_lines "$T/pass.log" 7 10
# context-limit(2): dave's context pushes out the nearest to expire at once:
# bob's or carol's. They expire in the same second unless the idle timer
# moved the clock between bob's two messages; then bob's moved behind
# carol's. In the same second bob's keeps its place ahead (bob's second
# message did not change its expiry, as 3.38's timer wheel orders them).
wait_for "grep -q '^L ' '$T/lim.log'" 3
early=$(grep '^L ' "$T/lim.log")
check "context-limit: the nearest context expires early with its timeout action ($early)" \
  test "$early" = "L bob bob" -o "$early" = "L carol "
check_eq "no timeout before the reload" "0" "$(grep -c '^L ' "$T/pass.log")"
daemon_reload
check "the daemon survives the reload" kill -0 "$DAEMON_PID"
wait_for "[ \$(grep -c '^L ' '$T/pass.log') -ge 3 ]" 15
check_eq "reload: the context kept both messages (timeout after SIGHUP)" "L bob bob|gen,.source.s_local,.classifier.session" "$(grep '^L bob' "$T/pass.log")"
check_eq "reload: the other context too" "L carol |gen,.source.s_local,.classifier.session" "$(grep '^L carol' "$T/pass.log")"
check_eq "reload: the third context too" "L dave |gen,.source.s_local,.classifier.session" "$(grep '^L dave' "$T/pass.log")"
check_eq "reload: one timeout per context" "3" "$(grep -c '^L ' "$T/pass.log")"
wait_for "[ \$(grep -c '^L ' '$T/agg.log') -ge 3 ]" 15
check_eq "reload: aggregate-only parser kept its contexts too" "3" "$(grep -c '^L ' "$T/agg.log")"
check "no error in the daemon log" test -z "$(grep -i 'error' "$DAEMON_LOG" | grep -v 'Error opening' )"
daemon_stop
check "the daemon stopped cleanly" test -z "$DAEMON_PID"
done_testing

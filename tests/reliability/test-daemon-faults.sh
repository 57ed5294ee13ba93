#!/bin/bash
# tests/reliability/test-daemon-faults.sh: the database file misbehaves
# while messages flow. loggen sends a steady stream over two connections
# (sequence numbers per connection) into syslog-ng with our db-parser on one
# file, while the file is: changed and reloaded 10 times; made broken;
# deleted (with SIGHUP, and without: the message-path check); brought back
# (with SIGHUP, and without); replaced by a symlink, retargeted, left
# dangling. After each step a probe message on a second socket shows which
# rules are active. Then every message is counted: sent = received, each
# (connection, sequence) exactly once, each classified by some version.
#
# Deleted file, decided behaviour (syslog-ng's own db-parser in 3.38 also
# keeps the old rules and logs "Error stating pattern database file"
# naming the file, but it picks the file up again only at the next
# SIGHUP): the old rules stay active; the reload or the message-path check
# logs an error naming the file; it is not retried until the file changes;
# when the file reappears it is loaded at the next SIGHUP or, without one,
# by the message-path check within 5 s.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/daemon.sh"
e2e_setup
command -v loggen >/dev/null || skip_all "loggen not installed"

T=$TEST_TMPDIR
DB="$T/db.xml"
RATE=${PDB_FAULT_RATE:-2000}   # per connection
N_PER_CONN=$((RATE * 28))      # about 28 s of traffic; the steps take about 20
write_db() { # write_db FILE ID
  sed "s/id='load-a'/id='$2'/" "$top_srcdir/tests/e2e/data/load.xml" >"$1.new" && mv "$1.new" "$1"
}
n_probes=0
probe() { # probe EXPECTED-ID DESCRIPTION: one message on the probe socket
  n_probes=$((n_probes + 1))
  loggen -x -S -Q -n 1 "$T/probe.sock" >/dev/null 2>&1
  wait_for "[ \$(grep -c '^s_probe ' '$T/out.log') -ge $n_probes ]" 10
  check_eq "$2: rules $1 active" "$1" "$(grep '^s_probe ' "$T/out.log" | sed -n "${n_probes}p" | cut -d' ' -f2)"
}
# logged COUNT-BEFORE REGEX: waits up to 12 s for a new log line matching REGEX
logged() {
  wait_for "[ \$(grep -c '$2' '$DAEMON_LOG') -gt $1 ]" 12
}

write_db "$DB" v0
cat >"$T/syslog-ng.conf" <<CONF
@version: $SNG_CONFIG_VERSION
@module patterndb
options { $SNG_STATS_OFF log-fifo-size(20000); };
source s_load { unix-stream("$T/load.sock" flags(expect-hostname) max-connections(4) log-iw-size(20000)); };
source s_probe { unix-stream("$T/probe.sock" flags(expect-hostname)); };
destination d_out { file("$T/out.log" template("\${SOURCE} \${.classifier.rule_id} \${thread} \${seq}\n")); };
log { source(s_load); source(s_probe); parser { db-parser(file("$DB")); }; destination(d_out); flags(flow-control); };
CONF


if ! daemon_start "$T/syslog-ng.conf"; then
  not_ok "syslog-ng did not start"; exit 1
fi
loggen -x -S -Q -r "$RATE" -I 1000 -n "$N_PER_CONN" --active-connections=2 "$T/load.sock" >"$T/loggen.out" 2>&1 &
LOGGEN=$!
E2E_CHILD_PIDS="$LOGGEN"
sleep 1

# 1. Ten reloads, each with a changed file.
ok_reloads=0
for i in $(seq 1 10); do write_db "$DB" "v$i"; daemon_reload_quick && ok_reloads=$((ok_reloads + 1)); sleep 0.2; done
check_eq "10 reloads with a changed file under load" 10 "$ok_reloads"
probe v10 "after 10 reloads"

# 2. A broken file.
printf "<?xml version='1.0'?>\n<patterndb version='4'>\n  <ruleset name='x' id='x'>\n    <rules>\n  </ruleset>\n" >"$DB.new"
mv "$DB.new" "$DB"
daemon_reload_quick
probe v10 "broken file, SIGHUP: the old"
check "broken file: the error names file:line:column" \
  grep -qE 'error reloading the pattern database.*db\.xml:[0-9]+:[0-9]+' "$DAEMON_LOG"
write_db "$DB" v11; daemon_reload_quick
probe v11 "fixed file, SIGHUP: the new"

# 3. The file deleted, then back, with SIGHUP.
before=$(grep -c 'error reloading the pattern database' "$DAEMON_LOG")
rm -f "$DB"
daemon_reload_quick
probe v11 "file deleted, SIGHUP: the old"
if [ "$(grep -c 'error reloading the pattern database' "$DAEMON_LOG")" -gt "$before" ] \
   && grep 'error reloading the pattern database' "$DAEMON_LOG" | tail -n 1 | grep -qF "$DB"; then
  ok "file deleted, SIGHUP: the error names the file"
else
  not_ok "file deleted, SIGHUP: the error names the file"; diag "$(tail -n 5 "$DAEMON_LOG")"
fi
diag "$(grep 'error reloading the pattern database' "$DAEMON_LOG" | tail -n 1 | sed 's/^\[[^]]*\] //')"
write_db "$DB" v12; daemon_reload_quick
probe v12 "file back, SIGHUP: the new"

# 4. The file deleted, then back, without SIGHUP (the message-path check).
before=$(grep -c 'error reloading the changed pattern database' "$DAEMON_LOG")
rm -f "$DB"
if logged "$before" 'error reloading the changed pattern database'; then
  ok "file deleted, no SIGHUP: the check logs an error"
else
  not_ok "file deleted, no SIGHUP: the check logs an error"; diag "$(tail -n 5 "$DAEMON_LOG")"
fi
check "file deleted, no SIGHUP: the error names the file" \
  sh -c "grep 'error reloading the changed pattern database' '$DAEMON_LOG' | tail -n 1 | grep -qF '$DB'"
diag "$(grep 'error reloading the changed pattern database' "$DAEMON_LOG" | tail -n 1 | sed 's/^\[[^]]*\] //')"
probe v12 "file deleted, no SIGHUP: the old"
sleep 6
check_eq "file still missing: not retried (one error, not one per check)" "$((before + 1))" \
  "$(grep -c 'error reloading the changed pattern database' "$DAEMON_LOG")"
before=$(grep -c 'changed on disk, reloaded' "$DAEMON_LOG")
write_db "$DB" v13
check "file back, no SIGHUP: picked up by the check" logged "$before" 'changed on disk, reloaded'
probe v13 "file back, no SIGHUP: the new"

# 5. Symlinks.
write_db "$T/target-a.xml" v14
ln -sfn "$T/target-a.xml" "$DB.lnk" && mv -T "$DB.lnk" "$DB"
daemon_reload_quick
probe v14 "file replaced by a symlink: its target's"
write_db "$T/target-b.xml" v15
ln -sfn "$T/target-b.xml" "$DB.lnk" && mv -T "$DB.lnk" "$DB"
daemon_reload_quick
probe v15 "symlink retargeted: the new target's"
before=$(grep -c 'error reloading the pattern database' "$DAEMON_LOG")
ln -sfn "$T/nowhere.xml" "$DB.lnk" && mv -T "$DB.lnk" "$DB"
daemon_reload_quick
probe v15 "dangling symlink: the old"
check_eq "dangling symlink: an error is logged" "$((before + 1))" \
  "$(grep -c 'error reloading the pattern database' "$DAEMON_LOG")"
check "the daemon survived every step" kill -0 "$DAEMON_PID"

# The traffic: every message exactly once and classified.
wait "$LOGGEN"; rc=$?
total=$((N_PER_CONN * 2))
wait_for "[ \$(grep -c '^s_load ' '$T/out.log') -ge $total ]" 60
daemon_stop
grep '^s_load ' "$T/out.log" | cut -d' ' -f2- >"$T/load.log"
check_eq "loggen sent $total messages" 0 "$rc"
check_eq "received: $total lines" "$total" "$(count_lines "$T/load.log")"
check_eq "each (connection, sequence) exactly once" "$total" \
  "$(awk '{ print $2, $3 }' "$T/load.log" | sort -u | wc -l)"
check_eq "every message classified (by one of v0..v15)" 0 \
  "$(awk '$1 !~ /^v([0-9]|1[0-5])$/' "$T/load.log" | wc -l)"
versions=$(awk '{ print $1 }' "$T/load.log" | sort -u | wc -l)
if [ "$versions" -ge 8 ]; then
  ok "the traffic saw the versions change ($versions versions)"
else
  not_ok "the traffic saw the versions change"; diag "only $versions versions: $(awk '{ print $1 }' "$T/load.log" | uniq -c | head)"
fi
diag "$total messages at $((RATE * 2))/s; versions by messages: $(awk '{ print $1 }' "$T/load.log" | uniq -c | awk '{ printf "%s=%s ", $2, $1 }')"
done_testing

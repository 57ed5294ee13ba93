# tests/correlation/scenario.sh: reads the correlation scenarios of
# tests/correlation/scenarios (sourced by the suites after tests/lib.sh).
#
# A scenario file NAME.scn has sections, each opened by a line `@@name`:
#   @@rules     <rule> elements, wrapped into one ruleset for program `app`
#   @@db        a whole database instead (when it needs several rulesets)
#   @@log       the input lines
#   @@template  optional: the -T template of the second run (default below)
#   @@live      optional, empty: the output depends on the current date (a
#               BSD stamp's year, $R_ macros), so there is no golden file and
#               only the live comparison with pdbtool runs
#   @@pending   optional: one line saying what we do not implement yet; the
#               scenario (and its golden file, made with pdbtool all the
#               same) is skipped until the line is removed
# Lines before the first section are the scenario's description.
#
#   scenario_split FILE DIR   writes DIR/db.xml, DIR/log, DIR/template and,
#                             when the scenario is live-only, DIR/live; when
#                             it is pending, DIR/pending (the reason)
SCENARIO_DEFAULT_TEMPLATE='${.classifier.rule_id}|$MSG|${CONTEXT_ID}|${.classifier.context_id}|$ISODATE|$UNIXTIME|$TAGS|$HOST|$PROGRAM|$PID\n'

scenario_split() {
  local file=$1 dir=$2
  mkdir -p "$dir"
  rm -f "$dir/db.xml" "$dir/log" "$dir/template" "$dir/live" "$dir/pending" "$dir/rules" "$dir/raw_template"
  awk -v dir="$dir" '
    /^@@(rules|db|log|template|live|pending)[ \t]*$/ { sub(/^@@/, ""); sub(/[ \t]*$/, ""); section = $0;
                                        if (section == "live") printf "" > (dir "/live");
                                        if (section == "template") section = "raw_template";
                                        if (section == "db") section = "db.xml";
                                        next }
    section != "" { print > (dir "/" section) }
  ' "$file"
  if [ -f "$dir/rules" ]; then
    {
      echo "<?xml version='1.0' encoding='UTF-8'?>"
      echo "<patterndb version='4' pub_date='2026-12-04'>"
      echo "  <ruleset name='app' id='rs-app'>"
      echo "    <pattern>app</pattern>"
      echo "    <rules>"
      cat "$dir/rules"
      echo "    </rules>"
      echo "  </ruleset>"
      echo "</patterndb>"
    } >"$dir/db.xml"
  fi
  if [ -f "$dir/raw_template" ]; then
    head -n 1 "$dir/raw_template" | tr -d '\n' >"$dir/template"
  else
    printf '%s' "$SCENARIO_DEFAULT_TEMPLATE" >"$dir/template"
  fi
}

# scenario_run_tool TOOL DIR OUT: the tool's `match -f` output, then its
# -T output with the scenario's template, then the exit status of each.
scenario_run_tool() {
  local tool=$1 dir=$2 out=$3 rc1 rc2
  timeout 60 "$tool" match -p "$dir/db.xml" -f "$dir/log" >"$out" 2>"$out.err"
  rc1=$?
  echo "--- -T" >>"$out"
  timeout 60 "$tool" match -p "$dir/db.xml" -f "$dir/log" -T "$(cat "$dir/template")" >>"$out" 2>>"$out.err"
  rc2=$?
  echo "--- exit $rc1 $rc2" >>"$out"
}

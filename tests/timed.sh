#!/bin/sh
# Runs one test suite (a shell script, or a Criterion binary via
# criterion-tap.sh) and appends its wall-clock time as a TAP comment,
# "# elapsed N s", which tests/run-all.sh collects to list the slowest suites.
start=$(date +%s%N)
"$@"
rc=$?
end=$(date +%s%N)
echo "# elapsed $(( (end - start) / 1000000000 )).$(( (end - start) / 100000000 % 10 )) s"
exit "$rc"

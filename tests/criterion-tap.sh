#!/bin/sh
# Runs one Criterion test binary so that it reports TAP on stdout: the
# automake TAP driver then counts every test case, not just the binary.
exec "$@" --tap=- --jobs=2

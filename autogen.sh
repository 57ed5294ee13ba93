#!/bin/sh
# Regenerates the build system from configure.ac and the Makefile fragments.
set -e
cd "$(dirname "$0")"
mkdir -p build-aux m4
autoreconf -fi
# automake does not install the TAP driver on its own.
for d in /usr/share/automake-*; do
  if [ -f "$d/tap-driver.sh" ]; then cp "$d/tap-driver.sh" build-aux/; break; fi
done

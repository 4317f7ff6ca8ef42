#!/usr/bin/env bash
# Installs the build tree into a scratch prefix, then configures, builds and
# runs tests/install/consumer against it.
set -euo pipefail
build="$1"; src="$2"; work="$3"
rm -rf "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
test -f "$work/prefix/lib/cmake/throng/throngConfig.cmake"
test -f "$work/prefix/include/throng/crowd.hpp"
cmake -S "$src/tests/install/consumer" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/build" >/dev/null
"$work/build/consumer"

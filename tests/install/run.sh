#!/usr/bin/env bash
# Installs the build tree into a scratch prefix, then configures, builds and
# runs tests/install/consumer against it.
set -euo pipefail
build="$1"; src="$2"; work="$3"
rm -rf "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
test -f "$work/prefix/lib/cmake/throng/throngConfig.cmake"
test -f "$work/prefix/include/throng/crowd.hpp"
# The installed headers are the user's API alone (no step internals), and
# each stands on its own.
expected="backend.hpp crowd.hpp diagram.hpp fields.hpp hd.hpp measure.hpp output_file.hpp scene.hpp scene_doc.hpp settings.hpp teaching.hpp types.hpp vec2.hpp verify.hpp"
got=$(cd "$work/prefix/include/throng" && ls | tr '\n' ' ' | sed 's/ $//')
if [ "$got" != "$expected" ]; then
  echo "install: the installed headers are '$got', expected '$expected'"
  exit 1
fi
for h in $expected; do
  echo "#include <throng/$h>" | c++ -std=c++20 -fsyntax-only -x c++ -I "$work/prefix/include" - ||
    { echo "install: throng/$h does not compile on its own"; exit 1; }
done
cmake -S "$src/tests/install/consumer" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/build" >/dev/null
"$work/build/consumer"

#!/usr/bin/env bash
# The benchmark's reference, measured on this machine: RVO2 (2.0.3, the C++
# library inside PyPI's `pyrvo` source package; a measuring tool, never part
# of throng's build) built with -O3 -flto and OpenMP, on the same scenarios,
# settings and timing as tests/bench/bench_orca.cpp, at 1 and 2 threads.
# Then throng's own benchmark, if built (make bench), for the ratio.
#   scripts/rvo2_reference.sh
# Needs network access to PyPI once; the build stays in build/rvo2-ref.
# For RVO2's instructions per agent-step, as throng_count's:
#   valgrind --tool=callgrind build/rvo2-ref/bench_rvo2 dense 10000 56   (and 6)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$root/build/rvo2-ref
version=0.4.3
mkdir -p "$work"
cd "$work"

if [ ! -d "pyrvo-$version" ]; then
  curl -fsS --max-time 60 -o pyrvo.json "https://pypi.org/pypi/pyrvo/json" || {
    echo "rvo2_reference: cannot reach PyPI for pyrvo $version (network?)" >&2
    exit 1
  }
  read -r url sha < <(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
files = d["releases"].get(sys.argv[2]) or (d["urls"] if d["info"]["version"] == sys.argv[2] else [])
u = [u for u in files if u["packagetype"] == "sdist"][0]
print(u["url"], u["digests"]["sha256"])' pyrvo.json "$version")
  curl -fsS --max-time 120 -o pyrvo.tar.gz "$url" || {
    echo "rvo2_reference: download of $url failed" >&2
    exit 1
  }
  echo "$sha  pyrvo.tar.gz" | sha256sum -c --quiet - || {
    echo "rvo2_reference: pyrvo.tar.gz does not match PyPI's sha256" >&2
    exit 1
  }
  tar xzf pyrvo.tar.gz
fi

src=pyrvo-$version/pyrvo/src
printf '#pragma once\n#define RVO_EXPORT\n' > Export.h  # what RVO2's CMake would generate
g++ -O3 -flto -fopenmp -DNDEBUG -std=c++20 -I . -I "$src" -I "$root/sim/include" \
    "$src"/*.cc "$root/scripts/rvo2_reference/bench_rvo2.cpp" -o bench_rvo2

for t in 1 2; do OMP_NUM_THREADS=$t ./bench_rvo2 | sed "s/^rvo2 /rvo2 threads:$t /"; done
bench=$root/build/release/tests/bench/throng_bench
if [ -x "$bench" ]; then
  "$bench" 2>&1 | awk '/_median/ && !seen[$1]++ { sub("/iterations.*", "", $1); print "throng " $1 " median " $2 " ms per step" }'
else
  echo "(build throng's benchmark with 'make bench' for its side)"
fi

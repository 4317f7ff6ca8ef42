#!/usr/bin/env bash
# The benchmark's reference, measured on this machine: RVO2 (2.0.3, the C++
# library inside PyPI's `pyrvo` source package; a measuring tool, never part
# of throng's build) built with -O3 -flto and OpenMP, on the same scenarios,
# settings and timing as tests/bench/bench_orca.cpp, at 1 and 2 threads.
# Then throng's own benchmark, if built (make bench), for the ratio.
#   scripts/rvo2_reference.sh            one round
#   scripts/rvo2_reference.sh 5          five rounds
# A shared machine's speed drifts by tens of percent from minute to minute,
# so each round takes the cases one at a time, RVO2 at 1 and 2 threads then
# throng at both, and each case's ratio comes from figures seconds apart;
# the summary gives the median ratio over the rounds with its range.
# Needs network access to PyPI once; the build stays in build/rvo2-ref.
# For RVO2's instructions per agent-step, as throng_count's:
#   valgrind --tool=callgrind build/rvo2-ref/bench_rvo2 dense 10000 56   (and 6)
set -euo pipefail
rounds=${1:-1}
if ! [[ $rounds =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: scripts/rvo2_reference.sh [ROUNDS]   (ROUNDS a positive whole number, not '$rounds')" >&2
  exit 2
fi
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
driver=$root/scripts/rvo2_reference/bench_rvo2.cpp
if [ ! -x bench_rvo2 ] || [ "$driver" -nt bench_rvo2 ] || [ "$root/sim/include/throng/orca.hpp" -nt bench_rvo2 ]; then
  printf '#pragma once\n#define RVO_EXPORT\n' > Export.h  # what RVO2's CMake would generate
  g++ -O3 -flto -fopenmp -DNDEBUG -std=c++20 -I . -I "$src" -I "$root/sim/include" \
      "$src"/*.cc "$driver" -o bench_rvo2
fi

bench=$root/build/release/tests/bench/throng_bench
[ -x "$bench" ] || echo "(build throng's benchmark with 'make bench' for its side and the ratios)"
results=$(mktemp)
trap 'rm -f "$results"' EXIT
# One line per figure: round, side, case (as the benchmark names it), ms per step.
mapfile -t cases < <(./bench_rvo2 --list)  # the same cases as throng_bench's
for ((r = 1; r <= rounds; ++r)); do
  for c in "${cases[@]}"; do
    for t in 1 2; do
      OMP_NUM_THREADS=$t ./bench_rvo2 --only "$c" | awk -v r="$r" -v t="$t" '{ print r, "rvo2", $2 "/threads:" t, $4 }'
    done
    if [ -x "$bench" ]; then
      "$bench" --benchmark_filter="^$c/" 2>&1 |
        awk -v r="$r" '/_median/ && !seen[$1]++ { sub("/iterations.*", "", $1); print r, "throng", $1, $2 }'
    fi
  done
done >"$results"

python3 - "$results" <<'PY'
import collections, statistics, sys
figures = collections.defaultdict(dict)  # case -> {(side, round): ms}
for line in open(sys.argv[1]):
    r, side, case, ms = line.split()
    figures[case][side, int(r)] = float(ms)
print(f"{'case':28s} {'RVO2 ms':>9s} {'throng ms':>10s}  RVO2/throng (median of rounds, range)")
for case, f in figures.items():
    rvo2 = [v for (side, _), v in f.items() if side == "rvo2"]
    ours = [v for (side, _), v in f.items() if side == "throng"]
    ratios = [f["rvo2", r] / f["throng", r] for (side, r) in f if side == "rvo2" and ("throng", r) in f]
    line = f"{case:28s} {statistics.median(rvo2):9.3f} "
    line += f"{statistics.median(ours):10.3f}" if ours else f"{'-':>10s}"
    if ratios:
        line += f"  {statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})"
    print(line)
PY

#!/usr/bin/env bash
# Instructions per agent-step, ours and RVO2's, counted by callgrind on the
# benchmark's scenarios: for each window, two runs of N agents, for S1 and
# for S2 steps, and (Ir(S2) - Ir(S1)) / (N * (S2 - S1)), so that building the
# scene and the first steps drop out. Machine noise does not enter these
# counts, unlike make bench's times. One thread on both sides.
#   scripts/instructions.sh                   the four windows below
#   scripts/instructions.sh dense 10000 6 56  one window
# Needs valgrind and `make build` (throng_count); RVO2's column needs
# scripts/rvo2_reference.sh to have built build/rvo2-ref/bench_rvo2, and is
# left out without it. Takes a few minutes.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ours=$root/build/release/tests/bench/throng_count
theirs=$root/build/rvo2-ref/bench_rvo2

if ! command -v valgrind >/dev/null; then
  echo "instructions: valgrind is not installed (Debian: apt-get install valgrind)" >&2
  exit 1
fi
if [ ! -x "$ours" ]; then
  echo "instructions: $ours is missing; run 'make build' first" >&2
  exit 1
fi
if [ ! -x "$theirs" ]; then
  echo "instructions: no RVO2 build ($theirs; scripts/rvo2_reference.sh makes it): ours only" >&2
  theirs=
fi

# Total instructions of one run: binary scenario n steps.
ir() {
  local out
  if ! out=$(OMP_NUM_THREADS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null); then
    echo "instructions: '$*' failed under valgrind:" >&2
    echo "$out" | tail -5 >&2
    return 1
  fi
  echo "$out" | sed -n 's/.*refs: *\([0-9,]*\).*/\1/p' | tr -d ,
}

# Instructions per agent-step of a binary over the window s1..s2.
per_step() {
  local bin=$1 scenario=$2 n=$3 s1=$4 s2=$5 a b
  a=$(ir "$bin" "$scenario" "$n" "$s1") || return 1
  b=$(ir "$bin" "$scenario" "$n" "$s2") || return 1
  awk -v a="$a" -v b="$b" -v n="$n" -v s="$((s2 - s1))" 'BEGIN { printf "%.0f", (b - a) / (n * s) }'
}

if [ $# -eq 4 ]; then
  windows=("$*")
elif [ $# -eq 0 ]; then
  # RVO2's own Circle (250), the benchmark's 1k ring over the steps it
  # times, the 10k ring early on, and the 10k dense crowd.
  windows=("circle 250 6 206" "circle 1000 1 1001" "circle 10000 2 22" "dense 10000 6 56")
else
  echo "usage: scripts/instructions.sh [circle|dense N S1 S2]" >&2
  exit 2
fi

for w in "${windows[@]}"; do
  read -r scenario n s1 s2 <<<"$w"
  if [ "$scenario" != circle ] && [ "$scenario" != dense ]; then
    echo "instructions: scenario '$scenario' is neither circle nor dense" >&2
    exit 2
  fi
  if ! [[ $n =~ ^[0-9]+$ && $s1 =~ ^[0-9]+$ && $s2 =~ ^[0-9]+$ ]] || ((n == 0 || s1 == 0 || s2 <= s1)); then
    echo "instructions: '$w': N and S1 must be positive whole numbers and S2 larger than S1" >&2
    exit 2
  fi
done

printf '%-8s %7s %-10s %8s %8s %6s\n' scenario N steps throng RVO2 ratio
for w in "${windows[@]}"; do
  read -r scenario n s1 s2 <<<"$w"
  mine=$(per_step "$ours" "$scenario" "$n" "$s1" "$s2")
  if [ -n "$theirs" ]; then
    ref=$(per_step "$theirs" "$scenario" "$n" "$s1" "$s2")
    ratio=$(awk -v a="$mine" -v b="$ref" 'BEGIN { printf "%.2f", b / a }')
  else
    ref=- ratio=-
  fi
  printf '%-8s %7s %-10s %8s %8s %6s\n' "$scenario" "$n" "$s1-$s2" "$mine" "$ref" "$ratio"
done

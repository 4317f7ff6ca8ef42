#!/usr/bin/env bash
# Two builds of the throng command (this build's and a reference, as Clang's
# and GCC's) must give the same state hash on every shipped scene at 1 and at
# 2 threads: the step is the same float operations in the same order under
# any compiler (-ffp-contract=off, never fast-math), so any difference is a
# bug in the build or the code, not noise.
#   same_hashes.sh THRONG REFERENCE_THRONG SCENES_DIR [SECONDS]
# Fails when either binary or the scenes are missing, when a run fails
# (crash, error or a failed separation gate) or when a hash differs.
set -euo pipefail
if [ $# -lt 3 ] || [ $# -gt 4 ]; then
  echo "usage: same_hashes.sh THRONG REFERENCE_THRONG SCENES_DIR [SECONDS]" >&2
  exit 2
fi
ours=$1 theirs=$2 scenes=$3 seconds=${4:-20}

for bin in "$ours" "$theirs"; do
  if [ ! -x "$bin" ]; then
    echo "same_hashes: $bin is missing or not executable (the reference is the GCC build: run 'make build')" >&2
    exit 1
  fi
done
if [ "$(readlink -f "$ours")" = "$(readlink -f "$theirs")" ]; then
  echo "same_hashes: both builds are $ours; compare two different builds" >&2
  exit 1
fi
shopt -s nullglob
files=("$scenes"/*.json)
if [ ${#files[@]} -eq 0 ]; then
  echo "same_hashes: no scenes in $scenes" >&2
  exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The hash of one run: binary scene threads label.
hash_of() {
  local bin=$1 scene=$2 threads=$3 out=$tmp/$4.json rc=0
  "$bin" run "$scene" --seconds "$seconds" --threads "$threads" --backend cpu --quiet --summary "$out" \
    2>"$tmp/err" || rc=$?
  if [ $rc -ne 0 ]; then
    echo "same_hashes: '$bin run $scene --threads $threads' exited with $rc:" >&2
    tail -5 "$tmp/err" >&2
    return 1
  fi
  sed -n 's/^ *"hash": *"\([0-9a-f]*\)".*/\1/p' "$out"
}

printf '%-12s %7s %-16s %-16s\n' scene threads this reference
bad=0
for scene in "${files[@]}"; do
  name=$(basename "$scene" .json)
  for threads in 1 2; do
    a=$(hash_of "$ours" "$scene" "$threads" ours) || exit 1
    b=$(hash_of "$theirs" "$scene" "$threads" theirs) || exit 1
    mark=
    if [ -z "$a" ] || [ "$a" != "$b" ]; then
      mark="  DIFFERENT"
      bad=1
    fi
    printf '%-12s %7s %-16s %-16s%s\n' "$name" "$threads" "${a:-none}" "${b:-none}" "$mark"
  done
done
if [ $bad -ne 0 ]; then
  echo "same_hashes: $ours and $theirs disagree (above)" >&2
  exit 1
fi

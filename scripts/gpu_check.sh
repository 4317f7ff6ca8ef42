#!/usr/bin/env bash
# The CUDA backend's checks on a GPU machine, in one command:
#   scripts/gpu_check.sh            (from the repository root)
# It builds in Release with CUDA, then runs: the embedded-kernel check
# (plus cuobjdump where present), the CPU-vs-CUDA hash comparisons
# (tests/gpu), the host-side tests if doctest is there, and gpu_bench.
# Everything it prints also goes to "$OUT/gpu_check.log" when OUT is set.
#
# A bare GPU machine (nvcc, cmake, ninja, no Debian -dev packages) works:
#  - if the whole project configures (-DTHRONG_BUILD_APP=OFF), it is used;
#  - otherwise a minimal project builds just throng::sim, tests/gpu and
#    gpu_bench from the same CMake files (no doctest, benchmark, SDL or GL).
# throng::sim's scene loader needs nlohmann-json's headers. Where they are
# not installed, bring the Debian packages along, unpacked here into the
# build folder, never into /:
#   echo /.gpu-deps/ >> .git/info/exclude
#   mkdir -p .gpu-deps && (cd .gpu-deps && apt-get download nlohmann-json3-dev doctest-dev)
# and carry .gpu-deps with the working tree. Env: THRONG_GPU_BUILD (build
# folder, default build/gpu), THRONG_GPU_DEPS (default .gpu-deps),
# THRONG_BENCH_MAX (largest bench crowd, default 10000000), THRONG_BENCH_STEPS,
# THRONG_GPU_MINI=1 (skip the whole-project attempt).
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
build=${THRONG_GPU_BUILD:-build/gpu}
deps=${THRONG_GPU_DEPS:-.gpu-deps}
log=/dev/null
if [ -n "${OUT:-}" ]; then mkdir -p "$OUT" && log="$OUT/gpu_check.log"; fi
exec > >(tee "$log") 2>&1

say() { printf '\n== %s\n' "$*"; }
export PATH="/usr/local/cuda/bin:$PATH"
say "machine"
date -u
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>/dev/null || echo "nvidia-smi: not available"
for tool in nvcc cmake ninja; do
  command -v $tool >/dev/null || { echo "gpu_check: $tool not found"; exit 1; }
done
nvcc --version | tail -2
cmake --version | head -1

prefix=()
mkdir -p "$build"
if compgen -G "$deps/*.deb" >/dev/null; then
  say "unpacking carried packages from $deps into $build/deps"
  for f in "$deps"/*.deb; do dpkg -x "$f" "$build/deps" && echo "  $(basename "$f")"; done
  prefix+=("$root/$build/deps/usr")
fi
prefix_arg="-DCMAKE_PREFIX_PATH=$(IFS=';'; echo "${prefix[*]:-}")"

say "configure (Release, CUDA on)"
mode=full
if [ "${THRONG_GPU_MINI:-0}" = 1 ] ||
   ! cmake -S . -B "$build/full" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTHRONG_BUILD_APP=OFF -DTHRONG_CUDA=ON \
      "$prefix_arg" >"$build/configure-full.log" 2>&1; then
  echo "the whole project does not configure here (see below); using the minimal project"
  [ -f "$build/configure-full.log" ] && grep -E "Could NOT|Could not|CMake Error" -A2 "$build/configure-full.log" | head -20
  mode=mini
  mini="$build/mini-src"
  mkdir -p "$mini"
  cat >"$mini/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.25)
project(throng_gpu_check LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
add_compile_options("\$<\$<COMPILE_LANGUAGE:CXX>:-Wall;-Wextra;-ffp-contract=off;-fno-fast-math>")
set(THRONG_CUDA ON)
find_package(Threads REQUIRED)
find_package(nlohmann_json 3 CONFIG REQUIRED)
include($root/cmake/cuda.cmake)
add_subdirectory($root/sim sim)
enable_testing()
find_package(doctest QUIET)
if(doctest_FOUND)
  include(\${doctest_DIR}/doctest.cmake)
endif()
add_subdirectory($root/tests/gpu gpu)
include($root/tests/bench/gpu_bench.cmake)
EOF
  if ! cmake -S "$mini" -B "$build/mini" -G Ninja -DCMAKE_BUILD_TYPE=Release "$prefix_arg" >"$build/configure-mini.log" 2>&1; then
    cat "$build/configure-mini.log"
    echo "gpu_check: the minimal project does not configure either (nlohmann-json missing? see the header of this script)"
    exit 1
  fi
fi
bdir="$build/$mode"
echo "configured: $bdir ($mode)"

say "build"
targets=(test_gpu_device fatbin_check gpu_bench)
grep -q '^test_gpu_host:' <(ninja -C "$bdir" -t targets all 2>/dev/null) && targets+=(test_gpu_host)
[ "$mode" = full ] && grep -q '^test_sim:' <(ninja -C "$bdir" -t targets all 2>/dev/null) && targets+=(test_sim)
time cmake --build "$bdir" -j "$(nproc)" --target "${targets[@]}" || { echo "gpu_check: build failed"; exit 1; }

status=0
say "embedded device code"
kernels=(throngInitKernel throngBoundsKernel throngGridParamsKernel throngIotaKernel throngPrepKernel
         throngCellStartsKernel throngSolveKernel throngIntegrateKernel)
"$bdir/tests/gpu/fatbin_check" "$bdir/tests/gpu/test_gpu_device" 90 "${kernels[@]}" 2>/dev/null ||
  "$bdir/gpu/fatbin_check" "$bdir/gpu/test_gpu_device" 90 "${kernels[@]}" || status=1
dev=$(ls "$bdir"/tests/gpu/test_gpu_device "$bdir"/gpu/test_gpu_device 2>/dev/null | head -1)
if command -v cuobjdump >/dev/null; then
  cuobjdump --list-elf --list-ptx "$dev" | head -10
  cuobjdump --dump-resource-usage "$dev" 2>/dev/null | grep -A1 -E "throng(Solve|Integrate)Kernel" | head -8
fi

say "CPU vs CUDA (tests/gpu)"
skipped=0
"$dev"; rc=$?
if [ $rc -eq 77 ]; then skipped=1; echo "test_gpu_device: SKIPPED (no usable CUDA device on this machine)"
elif [ $rc -ne 0 ]; then echo "test_gpu_device: exit $rc"; status=1; fi
host=$(ls "$bdir"/tests/gpu/test_gpu_host "$bdir"/gpu/test_gpu_host 2>/dev/null | head -1)
if [ -n "$host" ]; then
  say "host-side tests (with a device present)"
  "$host" || status=1
fi
if [ -x "$bdir/tests/sim/test_sim" ]; then
  say "core unit tests"
  "$bdir/tests/sim/test_sim" | tail -3 || status=1
fi

say "gpu_bench"
bench=$(ls "$bdir"/tests/bench/gpu_bench "$bdir"/gpu_bench 2>/dev/null | head -1)
"$bench" "${THRONG_BENCH_MAX:-10000000}" "${THRONG_BENCH_STEPS:-20}" || status=1

result='all checks passed'
[ $skipped = 1 ] && result='built and checked, but the device tests were SKIPPED (no device)'
[ $status -ne 0 ] && result='SOME CHECKS FAILED'
say "done: $result"
exit $status

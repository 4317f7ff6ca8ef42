#!/usr/bin/env bash
# The CUDA backend's checks and figures on a GPU machine, in one command:
#   scripts/gpu_check.sh            (from the repository root)
# Everything it prints also goes to "$OUT/gpu_check.log" when OUT is set,
# with the PNGs the interop test draws and the profiler's table beside it.
#
# Two builds take part:
#  - the bundle (.gpu-run, made here by scripts/gpu_bundle.sh from the
#    Release build with CUDA for sm_90): the app, the GPU tests, the GL
#    render tests and gpu_bench, with the libraries they link. A bare GPU
#    machine has no SDL2 or ImGui to build the app with, so the interop
#    pixels and the app's frame rate come from it.
#  - a build from source on the machine itself (sim/, tests/gpu, gpu_bench;
#    nvcc, cmake and ninja are there, nlohmann-json, doctest and GEOS come as
#    Debian packages in .gpu-deps), run in the background while the bundle's
#    tests run; its device test must print the bundle's hashes.
# Then, in order:
#  1. the embedded sm_90 kernels (fatbin_check, cuobjdump's resource usage)
#  2. CPU vs CUDA state hashes, step by step (tests/gpu/test_gpu_device):
#     ORCA, then BioCrowds (door and corridor scenes, crossing, open ground,
#     the 100k bench field, edits, model switches, markers' owners), then
#     Continuum Crowds and field routing (a room with a door, two groups
#     crossing, ORCA and BioCrowds routed by field, edits and terrain, the
#     door and evacuation scenes, the 100k continuum field, model, routing
#     and backend switches, fields() copied back), and the device's tiled
#     potential against solvePotential up to 1024², bit for bit
#  3. the interop pack kernel's bytes (test_gpu_interop), the host-side GPU
#     tests with a device present
#  4. the interop pixels: test_render_gl's CPU-vs-CUDA app test, offscreen
#     through EGL on the NVIDIA driver (SDL's offscreen driver), required to
#     draw through CUDA-GL interop; then the whole GL suite, for information
#  5. the device build's hashes
#  6. figures: gpu_bench (ORCA at 100k, 1M, 10M on the ring and the random
#     crowds, BioCrowds at 1M and 10M on the bench field, Continuum Crowds
#     at 1M on a 1024² field grid, ORCA at 1M routed by those fields, the
#     1024² potential alone; median ms per step, refresh steps apart), the
#     app drawing 1M walkers offscreen (fps), and each kernel's time at 1M
#     under ncu (continuum: the first 800 launches, a refresh's among them)
# Env: THRONG_GPU_BUILD (device build folder, default build/gpu),
# THRONG_GPU_DEPS (default .gpu-deps), THRONG_BUNDLE (default .gpu-run),
# THRONG_BENCH_MAX (largest bench crowd, default 10000000),
# THRONG_BENCH_STEPS (default 20), THRONG_APP_FRAMES (default 120),
# THRONG_SKIP_BUILD=1 (no build from source), THRONG_SKIP_NCU=1,
# THRONG_SKIP_MEMCHECK=1 (7: compute-sanitizer over steps at 100k, ORCA's,
# BioCrowds' and Continuum Crowds').
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
build=${THRONG_GPU_BUILD:-build/gpu}
deps=${THRONG_GPU_DEPS:-.gpu-deps}
bundle=${THRONG_BUNDLE:-.gpu-run}
out=${OUT:-$root/build/gpu-out}
mkdir -p "$out" "$build"
exec > >(tee "$out/gpu_check.log") 2>&1

say() { printf '\n== %s  (%ss)\n' "$*" "$SECONDS"; }
export PATH="/usr/local/cuda/bin:$PATH"
status=0
fail() { echo "FAILED: $*"; status=1; }

say "machine"
date -u
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv 2>/dev/null ||
  echo "nvidia-smi: not available"
echo "cores $(nproc); $(ldd --version 2>/dev/null | head -1)"
for tool in nvcc cmake ninja; do command -v $tool >/dev/null || echo "gpu_check: $tool not found"; done
nvcc --version 2>/dev/null | tail -2

# ---- the build from source, in the background --------------------------------
build_from_source() {
prefix=()
mkdir -p "$build"
if compgen -G "$deps/*.deb" >/dev/null; then
  say "unpacking carried packages from $deps into $build/deps"
  for f in "$deps"/*.deb; do dpkg -x "$f" "$build/deps" && echo "  $(basename "$f")"; done
  prefix+=("$root/$build/deps/usr")
fi
prefix_arg="-DCMAKE_PREFIX_PATH=$(IFS=';'; echo "${prefix[*]:-}")"

mode=full
if [ "${THRONG_GPU_MINI:-0}" = 1 ] ||
   ! cmake -S . -B "$build/full" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTHRONG_BUILD_APP=OFF -DTHRONG_CUDA=ON \
      "$prefix_arg" >"$build/configure-full.log" 2>&1; then
  [ "${THRONG_GPU_MINI:-0}" = 1 ] || echo "the whole project does not configure here (see below); using the minimal project"
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
find_package(GEOS 3.10 CONFIG REQUIRED)
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
  nice -n 10 cmake --build "$bdir" -j "$(nproc)" --target test_gpu_device gpu_bench || { echo "gpu_check: build failed"; return 1; }
  echo "built: $bdir"
}
if [ "${THRONG_SKIP_BUILD:-0}" != 1 ] && command -v nvcc >/dev/null && command -v cmake >/dev/null; then
  THRONG_GPU_MINI=1 build_from_source >"$build/build.log" 2>&1 &
  build_pid=$!
  echo "building sim/ and tests/gpu from source in the background (pid $build_pid, log $build/build.log)"
else
  build_pid=
fi

# ---- the bundle's environment ---------------------------------------------
if [ ! -d "$bundle/bin" ]; then
  echo "gpu_check: no bundle at $bundle (run scripts/gpu_bundle.sh where the project builds, and carry it)"
  [ -n "$build_pid" ] && wait "$build_pid"
  cat "$build/build.log"
  exit 1
fi
cat "$bundle/built-from" 2>/dev/null | head -3 | sed 's/^/bundle built from: /'
# glvnd's loaders (the driver brings the NVIDIA vendor libraries).
if ! ldconfig -p | grep -q 'libEGL.so.1 ' || ! ldconfig -p | grep -q 'libOpenGL.so.0 '; then
  for f in .gl/*.deb; do [ -f "$f" ] && dpkg -x "$f" /; done
  ldconfig
fi
for d in /usr/local/nvidia/lib64 /usr/local/nvidia/lib; do [ -d "$d" ] && export LD_LIBRARY_PATH="$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"; done
vendor=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
[ -f "$vendor" ] && export __EGL_VENDOR_LIBRARY_FILENAMES=$vendor
libs="$root/$bundle/lib"
# How the bundle's binaries start here: with the machine's C and C++
# libraries if they are new enough, else with the bundle's own.
launch=()
if LD_LIBRARY_PATH="$libs:${LD_LIBRARY_PATH:-}" "$bundle/bin/throng" --help >/dev/null 2>&1; then
  export LD_LIBRARY_PATH="$libs:${LD_LIBRARY_PATH:-}"
  echo "bundle: runs on this machine's C and C++ libraries"
elif LD_LIBRARY_PATH="$libs:$root/$bundle/lib-cxx:${LD_LIBRARY_PATH:-}" "$bundle/bin/throng" --help >/dev/null 2>&1; then
  export LD_LIBRARY_PATH="$libs:$root/$bundle/lib-cxx:${LD_LIBRARY_PATH:-}"
  echo "bundle: runs with its own libstdc++"
else
  launch=("$root/$bundle/glibc/ld-linux-x86-64.so.2" --library-path "$libs:$root/$bundle/lib-cxx:$root/$bundle/glibc:${LD_LIBRARY_PATH:-}")
  echo "bundle: runs with its own glibc and loader"
  "${launch[@]}" "$bundle/bin/throng" --help >/dev/null || echo "bundle: the app does not start here either"
fi
run() { local b=$1; shift; "${launch[@]}" "$root/$bundle/bin/$b" "$@"; }
# The tests read the shipped scenes from this tree (the bundle was built
# where the tree lay elsewhere).
export THRONG_SCENES_DIR="$root/assets/scenes"

# ---- 1. the kernels ---------------------------------------------------------
say "1. embedded device code"
kernels=(throngInitKernel throngBoundsKernel throngGridParamsKernel throngIotaKernel throngPrepKernel
         throngCellStartsKernel throngSolveKernel throngIntegrateKernel throngBioOwnersKernel throngBioVelocityKernel
         throngFieldBoundsKernel throngFieldSplatKernel throngFieldFlowKernel throngFieldSpeedCostKernel
         throngFieldSeedKernel throngFieldGoalsKernel throngFieldRoundKernel throngContinuumDesiredKernel
         throngContinuumPushKernel throngContinuumStepKernel)
run fatbin_check "$root/$bundle/bin/test_gpu_device" 90 "${kernels[@]}" || fail "fatbin_check"
if command -v cuobjdump >/dev/null; then
  cuobjdump --list-elf "$bundle/bin/test_gpu_device" | head -4
  cuobjdump --dump-resource-usage "$bundle/bin/test_gpu_device" 2>/dev/null | grep -A1 -E "throng(Solve|Integrate|Prep|BioOwners|BioVelocity|FieldRound|FieldSplat|Continuum[A-Za-z]+)Kernel" | head -28
fi

# ---- 2. CPU vs CUDA --------------------------------------------------------
say "2. CPU vs CUDA state hashes (bundle's test_gpu_device)"
run test_gpu_device | tee "$out/hashes_bundle.txt"
rc=${PIPESTATUS[0]}
[ "$rc" -eq 77 ] && fail "test_gpu_device SKIPPED: no usable CUDA device"
[ "$rc" -ne 0 ] && [ "$rc" -ne 77 ] && fail "test_gpu_device exit $rc"

# ---- 3. interop pack, host tests ---------------------------------------------
say "3. interop pack kernel, host-side GPU tests with a device present"
run test_gpu_interop || fail "test_gpu_interop"
run test_gpu_host | tail -4 || fail "test_gpu_host"
run test_interop_fallback | tail -3 || fail "test_interop_fallback"

# ---- 4. interop pixels ------------------------------------------------------
say "4. the app's pixels on CUDA (interop) and on the CPU, offscreen through EGL"
png=$(mktemp -d)
export SDL_VIDEODRIVER=offscreen
THRONG_TEST_OUT=$png THRONG_EXPECT_INTEROP=1 run test_render_gl \
  -tc="the app draws the same pixels stepping on the CUDA backend as on the CPU" -s || fail "interop pixels"
cp "$png"/app_ring_cpu.png "$png"/app_ring_cuda.png "$out/" 2>/dev/null
say "4b. the whole GL suite on the NVIDIA driver (information)"
THRONG_TEST_OUT=$png timeout 120 "${launch[@]}" "$root/$bundle/bin/test_render_gl" -nv 2>&1 | tail -25 ||
  echo "(the GL suite did not pass here: see above)"

# ---- 5. the device build -------------------------------------------------------
if [ -n "$build_pid" ]; then
  say "5. the build from source on this machine"
  wait "$build_pid"
  brc=$?
  tail -4 "$build/build.log"
  dev=$(ls "$build"/mini/gpu/test_gpu_device "$build"/full/tests/gpu/test_gpu_device 2>/dev/null | head -1)
  if [ "$brc" -ne 0 ] || [ -z "$dev" ]; then
    fail "the build from source"
    grep -E "error|Error" "$build/build.log" | head -20
  else
    "$dev" | tee "$out/hashes_device_build.txt"
    if diff <(grep -v '^all' "$out/hashes_bundle.txt") <(grep -v '^all' "$out/hashes_device_build.txt") >/dev/null; then
      echo "the device build prints the bundle's hashes, case by case"
    else
      fail "the device build's hashes differ from the bundle's"
    fi
  fi
fi

# ---- 6. figures ----------------------------------------------------------------
say "6a. gpu_bench: ORCA, BioCrowds and Continuum Crowds ms per step, the 1024² potential"
run gpu_bench "${THRONG_BENCH_MAX:-10000000}" "${THRONG_BENCH_STEPS:-20}" | tee "$out/gpu_bench.txt" || fail "gpu_bench"
say "6b. the app drawing 1M walkers offscreen"
frames=${THRONG_APP_FRAMES:-120}
run throng --agents 1000000 --bench-frames "$frames" --backend cuda --size 1920x1080 | tee "$out/app_fps.txt" ||
  fail "the app at 1M on CUDA"
run throng --agents 1000000 --bench-frames "$frames" --backend cuda --size 1920x1080 --no-trails | tail -1 | tee -a "$out/app_fps.txt"
run throng --agents 1000000 --bench-frames 20 --backend cpu --size 1920x1080 | tail -1 | tee -a "$out/app_fps.txt"
if [ "${THRONG_SKIP_NCU:-0}" != 1 ] && command -v ncu >/dev/null; then
  say "6c. each kernel's time at 1M (ncu, clocks left alone)"
  for sc in random spread ring bio continuum; do
    # continuum: its refreshes launch a kernel a round; the first 800 launches hold a refresh and steps
    limit=(); [ $sc = continuum ] && limit=(--launch-count 800)
    timeout 150 ncu --clock-control none --metrics gpu__time_duration.sum --csv --print-units base "${limit[@]}" \
      "${launch[@]}" "$root/$bundle/bin/gpu_bench" 1000000 2 $sc 1000000 >"$build/ncu_${sc}_1m.csv" 2>"$build/ncu_$sc.err" ||
      { echo "ncu ($sc) failed:"; tail -5 "$build/ncu_$sc.err"; }
    python3 - "$build/ncu_${sc}_1m.csv" "$sc" <<'PY'
import csv, sys, collections
rows = [r for r in csv.reader(l for l in open(sys.argv[1]) if l.startswith('"'))]
if not rows: sys.exit(print("no ncu rows"))
h = rows[0]; k = h.index("Kernel Name"); v = h.index("Metric Value")
t = collections.defaultdict(list)
for r in rows[1:]: t[r[k].split("(")[0][-48:]].append(float(r[v].replace(",", "")) / 1e6)
print(f"{sys.argv[2]} 1M: each kernel's median ms per launch over the run's steps (launches)")
tot = 0
for name, xs in sorted(t.items(), key=lambda e: -sorted(e[1])[len(e[1]) // 2]):
    m = sorted(xs)[len(xs) // 2]; tot += m
    print(f"  {m:8.4f}  ({len(xs):2d})  {name}")
print(f"  {tot:8.4f}  sum of the medians")
PY
  done
  say "6d. the solve kernels at 1M random, in detail (ncu sections; the 4th step's launch)"
  timeout 150 ncu --clock-control none -k regex:throngSolve --launch-skip 3 --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
    --section MemoryWorkloadAnalysis --section SchedulerStats \
    "${launch[@]}" "$root/$bundle/bin/gpu_bench" 1000000 1 random 1000000 2>&1 |
    grep -vE "^==PROF==|^gpu_bench|^ring =|^random " | grep -E "[A-Za-z]" | head -150
fi
if [ "${THRONG_SKIP_MEMCHECK:-0}" != 1 ] && command -v compute-sanitizer >/dev/null; then
  say "7. compute-sanitizer memcheck: the steps of gpu_bench at 100k, random, BioCrowds and Continuum Crowds"
  for sc in random bio continuum; do
    timeout 120 compute-sanitizer --tool memcheck --print-limit 10 "${launch[@]}" "$root/$bundle/bin/gpu_bench" 100000 1 $sc 100000 2>&1 |
      tail -6 | tee "$build/memcheck_$sc.txt"
    grep -q "ERROR SUMMARY: 0 errors" "$build/memcheck_$sc.txt" || fail "memcheck ($sc)"
  done
fi
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv 2>/dev/null

result='all checks passed'
[ $status -ne 0 ] && result='SOME CHECKS FAILED'
say "done: $result"
exit $status

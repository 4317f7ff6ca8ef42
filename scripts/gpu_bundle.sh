#!/usr/bin/env bash
# Packs this machine's CUDA Release build for a bare GPU machine, where
# scripts/gpu_check.sh runs it:
#   make build && scripts/gpu_bundle.sh
# then carry .gpu-run, .gl and .gpu-deps with the working tree (all three are
# ignored by git). What goes where:
#   .gpu-run/bin      the app, the GPU tests, the GL render tests, gpu_bench
#   .gpu-run/lib      the shared libraries they link (SDL2, epoxy, stb and
#                     what those link), never the GL or NVIDIA driver's own
#   .gpu-run/lib-cxx  libstdc++ and libgcc_s, used only where the machine's
#                     own are older than this build needs
#   .gpu-run/glibc    this machine's C library and loader, used only where the
#                     machine's glibc is older than the binaries need
#   .gl               glvnd's EGL/GL loaders (Debian packages), unpacked into /
#                     there: the NVIDIA driver brings the vendor libraries
#   .gpu-deps         nlohmann-json and doctest (Debian packages), for the
#                     build from source that gpu_check.sh also runs there
# The device build needs no bundle (gpu_check.sh builds sim/ and tests/gpu
# there from source); the app cannot be built there (no SDL2 or ImGui), so
# the interop pixels and the app's frame rate come from this bundle.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${THRONG_BUILD:-build/release}
out=.gpu-run
bins=(app/throng tests/gpu/test_gpu_device tests/gpu/test_gpu_interop tests/gpu/test_gpu_host
      tests/gpu/test_interop_fallback tests/gpu/fatbin_check tests/bench/gpu_bench tests/render/test_render_gl)
for b in "${bins[@]}"; do
  [ -x "$build/$b" ] || { echo "gpu_bundle: $build/$b is missing (a CUDA build: make build with nvcc present)"; exit 1; }
done
rm -rf "$out"
mkdir -p "$out"/{bin,lib,lib-cxx,glibc}
for b in "${bins[@]}"; do cp "$build/$b" "$out/bin/"; done
# Every library the binaries load, sorted by who may provide it there.
ldd "${bins[@]/#/$build/}" | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}' | sort -u |
  while read -r name path; do
    case "$name" in
      libGL.so*|libEGL*|libGLX*|libOpenGL*|libGLdispatch*|libcuda*|libnvidia*) ;;  # the driver's, there
      libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*) cp -L "$path" "$out/glibc/$name" ;;
      libstdc++.so*|libgcc_s.so*) cp -L "$path" "$out/lib-cxx/$name" ;;
      *) cp -L "$path" "$out/lib/$name" ;;
    esac
  done
cp -L /lib64/ld-linux-x86-64.so.2 "$out/glibc/"
git rev-parse HEAD >"$out/built-from" 2>/dev/null || true
git status --porcelain >>"$out/built-from" 2>/dev/null || true

# glvnd's loaders and the headers the device build needs, as Debian packages.
fetch() {  # fetch DIR PACKAGE...
  local dir=$1; shift
  mkdir -p "$dir"
  local missing=()
  for p in "$@"; do compgen -G "$dir/${p}_*.deb" >/dev/null || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] || (cd "$dir" && apt-get download "${missing[@]}" >/dev/null)
}
fetch .gl libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2
fetch .gpu-deps nlohmann-json3-dev doctest-dev libgeos-dev libgeos-c1v5 libgeos3.11.1
for d in .gpu-run .gl .gpu-deps; do
  grep -qx "/$d/" .git/info/exclude 2>/dev/null || echo "/$d/" >>.git/info/exclude
done
du -sh "$out" .gl .gpu-deps

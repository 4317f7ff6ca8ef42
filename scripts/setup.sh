#!/usr/bin/env bash
# Installs the Debian 12 packages throng builds and tests with, if missing.
# Checks first, so a second run takes about a second. Uses sudo only when
# not root. Set THRONG_SKIP_SETUP=1 to skip entirely.
set -euo pipefail
[ "${THRONG_SKIP_SETUP:-0}" = 1 ] && exit 0

packages=(
  build-essential cmake ninja-build pkg-config git
  libsdl2-dev libimgui-dev libglm-dev doctest-dev libepoxy-dev
  nlohmann-json3-dev libstb-dev libbenchmark-dev libcli11-dev libsqlite3-dev libgeos-dev
  ffmpeg xvfb xauth mesa-utils libgl1-mesa-dri libegl1 libegl-mesa0 fonts-dejavu-core
  python3 python3-venv python3-dev pybind11-dev
  clang libfuzzer-14-dev
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "throng setup: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null || { echo "throng setup: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "throng setup: done"

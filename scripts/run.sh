#!/usr/bin/env bash
# `make run`: opens the visualizer on the default scene; without a display
# the program itself says so and runs headless.
set -euo pipefail
cd "$(dirname "$0")/.."
exec build/release/app/throng "$@"

#!/usr/bin/env bash
# sim/ is a library below the app: it never includes SDL, GL, GLM or ImGui.
set -euo pipefail
src="$1"
if grep -rnE '#\s*include\s*[<"](SDL|GL/|GLES|epoxy|imgui|backends/imgui|glm/|EGL/)' "$src/sim"; then
  echo "layering: sim/ includes a windowing or GL header (above)"
  exit 1
fi
echo "layering: sim/ is free of SDL, GL, GLM and ImGui"

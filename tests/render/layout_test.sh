#!/usr/bin/env bash
# The visualizer remembers its window layout and its UI scale in one file
# ($THRONG_UI_LAYOUT here), written whole when it quits (SIGTERM as a window
# close), read back at the next start.
#   layout_test.sh THRONG OUTDIR XVFB_RUN
set -euo pipefail
throng=$1 out=$2 xvfb=$3
ini=$out/layout/imgui.ini
rm -rf "$out/layout"

# Runs the visualizer for a few seconds, then closes it as a window manager would.
session() {
  THRONG_UI_LAYOUT=$ini "$xvfb" -a -s "-screen 0 1280x1024x24" "$throng" ring --paused > "$out/layout.log" 2>&1 &
  local pid=$!
  sleep 6
  pkill -TERM -P "$pid" -f "$throng" || true
  wait "$pid" || true
}

session
[ -f "$ini" ] || { echo "FAIL: no layout written to $ini"; cat "$out/layout.log"; exit 1; }
grep -q '^\[Window\]\[throng\]' "$ini" || { echo "FAIL: the panel's window is not in the layout"; cat "$ini"; exit 1; }
grep -q '^UIScale=1$' "$ini" || { echo "FAIL: the UI scale is not in the layout"; cat "$ini"; exit 1; }
ls "$out/layout" | grep -q partial && { echo "FAIL: a partial file was left"; exit 1; }

# A scale set in the file is read back, and kept when it is written again.
sed -i 's/^UIScale=1$/UIScale=1.75/' "$ini"
session
grep -q '^UIScale=1.75$' "$ini" || { echo "FAIL: the UI scale was not read back"; cat "$ini"; exit 1; }
echo "layout: $(grep -c '^\[' "$ini") sections kept in $ini"

#!/usr/bin/env bash
# `throng record` end to end: frame count by ffprobe, presentation mode's
# title in the frame, the PNG fallback without ffmpeg, and a valid file
# after Ctrl-C.
#   record_test.sh THRONG OUTDIR XVFB_RUN
set -euo pipefail
throng=$1 out=$2 xvfb=$3
rm -rf "$out/record.mp4" "$out/record_present.mp4" "$out/record_plain.mp4" "$out/record_png_frames" "$out/record_sigint.mp4" "$out/record_sigint.log"

# Without a display (SDL's offscreen driver over EGL); under Xvfb if that is missing.
run() { env -u DISPLAY "$throng" "$@" || { echo "(retrying under xvfb-run)"; "$xvfb" -a "$throng" "$@"; }; }

run record ring --seconds 2 --fps 30 --size 320x240 --out "$out/record.mp4"
frames=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames,width,height,codec_name -of csv=p=0 "$out/record.mp4")
echo "ffprobe: $frames"
[ "$frames" = "h264,320,240,60" ] || { echo "FAIL: expected h264,320,240,60"; exit 1; }

# --present: the title is in the frame. Its corner holds ink (luma under
# 80) in presentation mode and only the light background without it.
corner_min() {  # the darkest luma in the top-left corner of the last frame
  ffmpeg -v error -i "$1" -vf "crop=iw/4:ih/8:0:0,signalstats,metadata=print:key=lavfi.signalstats.YMIN:file=-" \
    -f null - | sed -n 's/.*YMIN=\([0-9]*\).*/\1/p' | tail -1
}
run record door --seconds 1 --fps 10 --size 640x360 --present --out "$out/record_present.mp4"
run record door --seconds 1 --fps 10 --size 640x360 --out "$out/record_plain.mp4"
with=$(corner_min "$out/record_present.mp4") without=$(corner_min "$out/record_plain.mp4")
echo "darkest luma in the title's corner: $with with --present, $without without"
[ -n "$with" ] && [ -n "$without" ] && [ "$with" -lt 80 ] && [ "$without" -gt 200 ] ||
  { echo "FAIL: expected the title's ink with --present only"; exit 1; }

# No ffmpeg: a numbered PNG sequence and a message saying so.
msg=$(THRONG_FFMPEG='' run record ring --seconds 0.5 --fps 30 --size 160x120 --out "$out/record_png.mp4" 2>&1)
echo "$msg"
grep -q "ffmpeg not found" <<<"$msg" || { echo "FAIL: no message about the PNG fallback"; exit 1; }
n=$(find "$out/record_png_frames" -maxdepth 1 -name 'frame_[0-9][0-9][0-9][0-9][0-9][0-9].png' | wc -l)
[ "$n" = 15 ] || { echo "FAIL: expected 15 PNG frames, got $n"; exit 1; }

# Ctrl-C: the recording is finished and the file is valid. The signal
# goes a second after the recording has begun (it says so), however long
# starting took on a loaded machine (up to a minute).
log=$out/record_sigint.log
env -u DISPLAY "$throng" record ring --seconds 600 --fps 30 --size 160x120 --out "$out/record_sigint.mp4" 2>"$log" &
pid=$!
for _ in $(seq 600); do
  grep -q "throng record: recording" "$log" && break
  kill -0 $pid 2>/dev/null || break
  sleep 0.1
done
grep -q "throng record: recording" "$log" || {
  cat "$log"; echo "FAIL: the recording did not begin"; kill -INT $pid 2>/dev/null; exit 1
}
sleep 1
kill -INT $pid
rc=0; wait $pid || rc=$?
cat "$log"
[ "$rc" = 130 ] || { echo "FAIL: expected exit 130 after SIGINT, got $rc"; exit 1; }
n=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "$out/record_sigint.mp4")
echo "after SIGINT: $n frames"
[ "$n" -gt 0 ] || { echo "FAIL: no frames after SIGINT"; exit 1; }
echo PASS

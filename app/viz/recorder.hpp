#pragma once
// Recorder: video out of the canvas. Frames go as raw RGBA down a pipe to
// ffmpeg (H.264, yuv420p), which writes a fresh partial beside the requested
// file (created exclusively by throng::reserveTemporary, so a planted link is
// never followed), renamed into place when ffmpeg has finished; a recording
// that fails is removed. Without ffmpeg, a numbered PNG sequence in a new
// folder next to the requested file (STEM_frames, or STEM_frames-2, ... when
// that name is taken), and a message saying so. finish() always closes the
// pipe, so the file is complete after quit, close or Ctrl-C.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "throng/output_file.hpp"

namespace throng::app {

/// The ffmpeg to use: $THRONG_FFMPEG when set (empty or missing: none),
/// else `ffmpeg` on PATH; empty when there is none.
std::string findFfmpeg();

class Recorder {
 public:
  ~Recorder() { finish(nullptr); }
  /// Starts a recording of `w` x `h` (even sizes for yuv420p) at `fps`.
  /// *message says what it writes (or why it cannot). With Replace::No an
  /// existing file at `path` is kept and the recording fails at the end.
  bool start(const std::string& path, int w, int h, int fps, std::string* message,
             OutputFile::Replace replace = OutputFile::Replace::Yes);
  /// One frame of w*h*4 bytes, bottom row first (as glReadPixels gives it).
  bool frame(const std::vector<std::uint8_t>& bottomUpRgba);
  /// Ends the recording; *message names what was written. Safe to repeat.
  bool finish(std::string* message);
  bool active() const { return pipe_ != nullptr || pngMode_; }
  bool toPng() const { return pngMode_; }
  int frames() const { return frames_; }
  int width() const { return w_; }
  int height() const { return h_; }
  const std::string& path() const { return path_; }

 private:
  std::FILE* pipe_ = nullptr;
  bool pngMode_ = false, failed_ = false;
  int w_ = 0, h_ = 0, fps_ = 30, frames_ = 0;
  OutputFile::Replace replace_ = OutputFile::Replace::Yes;
  std::string path_, partial_, pngDir_;
  std::vector<std::uint8_t> flip_;
};

}  // namespace throng::app

#pragma once
// Recorder: video out of the canvas. Frames go as raw RGBA down a pipe to
// ffmpeg (H.264 MP4, yuv420p); without ffmpeg, a numbered PNG sequence in
// a folder next to the requested file, and a message saying so. finish()
// always closes the pipe, so the file is valid after quit, close or Ctrl-C.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace throng::app {

/// The ffmpeg to use: $THRONG_FFMPEG when set (empty or missing: none),
/// else `ffmpeg` on PATH; empty when there is none.
std::string findFfmpeg();

class Recorder {
 public:
  ~Recorder() { finish(nullptr); }
  /// Starts a recording of `w` x `h` (even sizes for yuv420p) at `fps`.
  /// *message says what it writes (or why it cannot).
  bool start(const std::string& path, int w, int h, int fps, std::string* message);
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
  std::string path_, pngDir_;
  std::vector<std::uint8_t> flip_;
};

}  // namespace throng::app

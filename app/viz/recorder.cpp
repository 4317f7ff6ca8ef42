#include "viz/recorder.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "render/gl_renderer.hpp"

namespace throng::app {
namespace {

std::string shellQuote(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'') q += "'\\''";
    else q += c;
  }
  return q + "'";
}

/// ffmpeg's container for the requested file's extension (the partial's own
/// name ends in .partial, so ffmpeg is told).
const char* containerFor(const std::string& path) {
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".mkv") return "matroska";
  if (ext == ".mov") return "mov";
  return "mp4";
}

}  // namespace

std::string findFfmpeg() {
  if (const char* e = std::getenv("THRONG_FFMPEG")) {
    if (*e && access(e, X_OK) == 0) return e;
    return {};
  }
  const char* path = std::getenv("PATH");
  std::stringstream ss(path ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(ss, dir, ':')) {
    const std::string p = (dir.empty() ? "." : dir) + "/ffmpeg";
    if (access(p.c_str(), X_OK) == 0) return p;
  }
  return {};
}

bool Recorder::start(const std::string& path, int w, int h, int fps, std::string* message,
                     OutputFile::Replace replace) {
  finish(nullptr);
  w_ = w;
  h_ = h;
  fps_ = fps;
  frames_ = 0;
  failed_ = false;
  path_ = path;
  replace_ = replace;
  const std::string ff = findFfmpeg();
  if (!ff.empty()) {
    std::string why;
    partial_ = reserveTemporary(path, &why);
    if (partial_.empty()) {
      if (message) *message = "cannot record: " + why;
      return false;
    }
    std::signal(SIGPIPE, SIG_IGN);  // a dying ffmpeg must not kill us
    std::ostringstream cmd;
    cmd << shellQuote(ff) << " -hide_banner -loglevel error -y -f rawvideo -pixel_format rgba -video_size " << w << "x"
        << h << " -framerate " << fps << " -i - -vf vflip -c:v libx264 -preset veryfast -pix_fmt yuv420p "
        << "-movflags +faststart -f " << containerFor(path) << " " << shellQuote(partial_);
    pipe_ = popen(cmd.str().c_str(), "w");
    if (pipe_) {
      if (message) *message = "recording " + path + " (" + std::to_string(w) + "x" + std::to_string(h) + " at " +
                              std::to_string(fps) + " fps through ffmpeg)";
      return true;
    }
    ::unlink(partial_.c_str());
    partial_.clear();
  }
  // No ffmpeg: a numbered PNG sequence in a new folder beside the requested
  // file. mkdir refuses a name that exists (a folder, a file or a link), so
  // the frames never land in a folder someone else made.
  const std::filesystem::path p(path);
  const std::string base = (p.parent_path() / (p.stem().string() + "_frames")).string();
  int e = 0;
  for (int k = 1; k < 1000; ++k) {
    const std::string dir = k == 1 ? base : base + "-" + std::to_string(k);
    if (::mkdir(dir.c_str(), 0777) == 0) {
      pngDir_ = dir;
      break;
    }
    e = errno;
    if (e != EEXIST) break;
  }
  if (pngDir_.empty()) {
    if (message) *message = "cannot record: no ffmpeg, and cannot create " + base + ": " + std::strerror(e);
    return false;
  }
  pngMode_ = true;
  if (message) *message = "ffmpeg not found: writing a PNG sequence to " + pngDir_ + "/frame_NNNNNN.png instead";
  return true;
}

bool Recorder::frame(const std::vector<std::uint8_t>& px) {
  if (!active() || failed_) return false;
  const std::size_t bytes = static_cast<std::size_t>(w_) * h_ * 4;
  if (px.size() < bytes) return false;
  if (pipe_) {
    if (std::fwrite(px.data(), 1, bytes, pipe_) != bytes) {
      failed_ = true;
      return false;
    }
  } else {
    const std::size_t row = static_cast<std::size_t>(w_) * 4;
    flip_.resize(bytes);
    for (int y = 0; y < h_; ++y) std::memcpy(flip_.data() + row * y, px.data() + row * (h_ - 1 - y), row);
    char name[32];
    std::snprintf(name, sizeof name, "/frame_%06d.png", frames_ + 1);
    if (!render::writePng(pngDir_ + name, w_, h_, flip_)) {
      failed_ = true;
      return false;
    }
  }
  ++frames_;
  return true;
}

bool Recorder::finish(std::string* message) {
  if (!active()) return true;
  bool ok = !failed_;
  if (pipe_) {
    const int rc = pclose(pipe_);
    pipe_ = nullptr;
    std::string why;
    if (ok && rc == 0) {
      ok = renameOver(partial_, path_, replace_, &why);
    } else {
      ok = false;
      why = "ffmpeg failed writing " + path_ + " (exit " + std::to_string(rc) + "); nothing written";
      ::unlink(partial_.c_str());
    }
    partial_.clear();
    if (message) *message = ok ? "wrote " + path_ + " (" + std::to_string(frames_) + " frames)" : why;
  } else {
    pngMode_ = false;
    if (message)
      *message = ok ? "wrote " + std::to_string(frames_) + " PNG frames to " + pngDir_ +
                          " (no ffmpeg; e.g. ffmpeg -framerate " + std::to_string(fps_) + " -i " + pngDir_ +
                          "/frame_%06d.png out.mp4)"
                    : "failed writing PNG frames to " + pngDir_;
    pngDir_.clear();
  }
  return ok;
}

}  // namespace throng::app

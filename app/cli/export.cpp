#include "export.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>

namespace throng::cli {

namespace {
/// One output line, bounds-checked (a row is under 200 characters).
struct Line {
  char buf[256];
  std::size_t n = 0;
  template <class T>
  void num(T v) {
    const auto r = std::to_chars(buf + n, buf + sizeof buf - 2, v);
    if (r.ec == std::errc()) n = static_cast<std::size_t>(r.ptr - buf);
  }
  void time(double t) {
    const auto r = std::to_chars(buf + n, buf + sizeof buf - 2, t, std::chars_format::general, 12);
    if (r.ec == std::errc()) n = static_cast<std::size_t>(r.ptr - buf);
  }
  void ch(char c) {
    if (n < sizeof buf) buf[n++] = c;
  }
};
}  // namespace

bool Exporter::open(const std::string& path, ExportFormat format, double dt, const std::string& sceneName,
                    const std::string& units, std::string* error) {
  path_ = path;
  partial_ = path + ".partial";
  format_ = format;
  failed_ = false;
  file_ = std::fopen(partial_.c_str(), "wb");
  if (!file_) {
    if (error) *error = "cannot write " + partial_ + ": " + std::strerror(errno);
    return false;
  }
  std::setvbuf(file_, nullptr, _IOFBF, 1 << 20);
  if (format_ == ExportFormat::Csv) {
    std::fputs("step,time,id,x,y,vx,vy,jammed,group\n", file_);
  } else {
    // PedPy reads the first number on a line holding "framerate", and the
    // unit from "x/m" (so no other comment may say "in m" or "in cm").
    std::fprintf(file_, "# description: throng trajectory of scene %s\n", sceneName.c_str());
    std::fprintf(file_, "# framerate: %.17g\n", 1.0 / dt);
    if (units != "m") std::fprintf(file_, "# note: scene coordinates are %s, written unscaled\n", units.c_str());
    std::fputs("# id frame x/m y/m z/m\n", file_);
  }
  if (std::ferror(file_)) {
    if (error) *error = "cannot write " + partial_ + ": " + std::strerror(errno);
    discard();
    return false;
  }
  return true;
}

bool Exporter::write(const FrameView& f, std::string* error) {
  if (!file_ || failed_) {
    if (error) *error = file_ ? writeError_ : "no export is open";
    return false;
  }
  for (std::size_t i = 0; i < f.px.size(); ++i) {
    Line l;
    if (format_ == ExportFormat::Csv) {
      l.num(f.step);
      l.ch(',');
      l.time(f.time);
      l.ch(',');
      l.num(f.id[i]);
      l.ch(',');
      l.num(f.px[i]);
      l.ch(',');
      l.num(f.py[i]);
      l.ch(',');
      l.num(f.vx[i]);
      l.ch(',');
      l.num(f.vy[i]);
      l.ch(',');
      l.ch(f.jammed[i] ? '1' : '0');
      l.ch(',');
      l.num(static_cast<std::int64_t>(f.group[i]));
    } else {
      l.num(f.id[i]);
      l.ch(' ');
      l.num(f.step);
      l.ch(' ');
      l.num(f.px[i]);
      l.ch(' ');
      l.num(f.py[i]);
      l.ch(' ');
      l.ch('0');
    }
    l.ch('\n');
    if (std::fwrite(l.buf, 1, l.n, file_) != l.n) {
      failed_ = true;
      writeError_ = "writing " + partial_ + " failed: " + std::strerror(errno);
      if (error) *error = writeError_;
      return false;
    }
  }
  return true;
}

bool Exporter::commit(std::string* error) {
  if (!file_) return false;
  const bool flushed = !failed_ && std::fflush(file_) == 0 && !std::ferror(file_);
  const int savedErrno = errno;
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!flushed || !closed) {
    if (error) *error = "writing " + partial_ + " failed: " + std::strerror(flushed ? errno : savedErrno);
    std::remove(partial_.c_str());
    return false;
  }
  if (std::rename(partial_.c_str(), path_.c_str()) != 0) {
    if (error) *error = "cannot rename " + partial_ + " to " + path_ + ": " + std::strerror(errno);
    std::remove(partial_.c_str());
    return false;
  }
  return true;
}

void Exporter::discard() {
  if (!file_) return;
  std::fclose(file_);
  file_ = nullptr;
  std::remove(partial_.c_str());
}

}  // namespace throng::cli

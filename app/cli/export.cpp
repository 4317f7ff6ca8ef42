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

namespace {

/// A measurement's name as the pedpy header writes it (see export.hpp).
std::string headerName(const std::string& name) {
  std::string out;
  for (const char c : name) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                      c == '-' || c == '.';
    out += keep ? c : '_';
  }
  std::string lower = out;
  for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  for (std::size_t at = lower.find("framerate"); at != std::string::npos; at = lower.find("framerate", at + 1))
    out[at + 4] = '_', lower[at + 4] = '_';  // "fram_rate": never PedPy's key
  return out.empty() ? "unnamed" : out;
}

}  // namespace

bool Exporter::open(const std::string& path, ExportFormat format, double dt, const std::string& sceneName,
                    const std::string& units, std::string* error, const std::vector<Measurement>& measurements) {
  format_ = format;
  failed_ = false;
  if (!out_.open(path, error)) return false;
  std::FILE* file_ = out_.file();
  if (format_ == ExportFormat::Csv) {
    std::fputs("step,time,id,x,y,vx,vy,jammed,group\n", file_);
  } else {
    // PedPy reads the first number on a line holding "framerate", and the
    // unit from "x/m" (so no other comment may say "in m" or "in cm").
    std::fprintf(file_, "# description: throng trajectory of scene %s\n", sceneName.c_str());
    std::fprintf(file_, "# framerate: %.17g\n", 1.0 / dt);
    if (units != "m") std::fprintf(file_, "# note: scene coordinates are %s, written unscaled\n", units.c_str());
    for (const Measurement& m : measurements) {
      const bool line = m.kind == MeasureKind::Line;
      std::fprintf(file_, "# measurement %s %s: %s (%s", line ? "line" : "area", headerName(m.name).c_str(),
                   line ? "LINESTRING" : "POLYGON", line ? "" : "(");
      for (std::size_t k = 0; k <= m.points.size(); ++k) {
        if (k == m.points.size() && line) break;
        const Vec2 p = m.points[k % m.points.size()];  // a polygon closes on its first point
        Line l;  // each float in its shortest round-trip form, as the rows are
        if (k) l.ch(','), l.ch(' ');
        l.num(p.x);
        l.ch(' ');
        l.num(p.y);
        std::fwrite(l.buf, 1, l.n, file_);
      }
      std::fputs(line ? ")\n" : "))\n", file_);
    }
    std::fputs("# id frame x/m y/m z/m\n", file_);
  }
  if (std::ferror(file_)) {
    if (error) *error = "cannot write " + out_.partialPath() + ": " + std::strerror(errno);
    discard();
    return false;
  }
  return true;
}

bool Exporter::write(const FrameView& f, std::string* error) {
  std::FILE* file_ = out_.file();
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
      writeError_ = "writing " + out_.partialPath() + " failed: " + std::strerror(errno);
      if (error) *error = writeError_;
      return false;
    }
  }
  return true;
}

bool Exporter::commit(std::string* error) {
  if (!out_.isOpen()) return false;
  if (failed_) {
    if (error) *error = writeError_;
    discard();
    return false;
  }
  return out_.commit(error);
}

}  // namespace throng::cli

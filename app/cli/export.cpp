#include "export.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
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

bool Exporter::open(const std::string& path, ExportFormat format, double dt, const SceneSpec& scene,
                    std::string* error) {
  format_ = format;
  failed_ = false;
  writeError_.clear();
  if (!out_.open(path, error)) return false;
  if (format_ == ExportFormat::Jupedsim) {
    if (out_.partialPath() == out_.path()) {
      if (error) *error = "cannot write " + path + ": JuPedSim's format is a database, and a pipe or device cannot hold one";
      out_.discard();
      return false;
    }
    Rect bounds;
    const std::string wkt = walkableAreaWkt(scene, &bounds);
    if (!openDatabase(dt, wkt, bounds, error)) {
      discard();
      return false;
    }
    return true;
  }
  const std::string& sceneName = scene.name;
  const std::string& units = scene.units;
  std::FILE* file_ = out_.file();
  if (format_ == ExportFormat::Csv) {
    std::fputs("step,time,id,x,y,vx,vy,jammed,group\n", file_);
  } else {
    // PedPy reads the first number on a line holding "framerate", and the
    // unit from "x/m" (so no other comment may say "in m" or "in cm").
    std::fprintf(file_, "# description: throng trajectory of scene %s\n", sceneName.c_str());
    std::fprintf(file_, "# framerate: %.17g\n", 1.0 / dt);
    if (units != "m") std::fprintf(file_, "# note: scene coordinates are %s, written unscaled\n", units.c_str());
    std::fprintf(file_, "# walkable area: %s\n", walkableAreaWkt(scene).c_str());
    for (const Measurement& m : scene.measurements) {
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
  if (format_ == ExportFormat::Jupedsim) {
    if (writeDatabase(f)) return true;
    if (error) *error = writeError_;
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
  if (!failed_ && format_ == ExportFormat::Jupedsim && !finishDatabase(error)) {
    discard();
    return false;
  }
  if (failed_) {
    if (error) *error = writeError_;
    discard();
    return false;
  }
  return out_.commit(error);
}

// ---- JuPedSim's SQLite --------------------------------------------------------

bool Exporter::fail(const std::string& what) {
  failed_ = true;
  writeError_ = "writing " + out_.partialPath() + " failed: " + what + (db_ ? std::string(" (") + sqlite3_errmsg(db_) + ")" : "");
  return false;
}

bool Exporter::exec(const char* sql) {
  char* why = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &why) == SQLITE_OK) return true;
  const std::string text = why ? why : "unknown";
  sqlite3_free(why);
  failed_ = true;
  writeError_ = "writing " + out_.partialPath() + " failed: " + text;
  return false;
}

bool Exporter::openDatabase(double dt, const std::string& wkt, const Rect& bounds, std::string* error) {
  const auto bail = [&] {
    if (error) *error = writeError_;
    return false;
  };
  // The partial exists (created exclusively) and is empty: SQLite makes it
  // a new database. Its journal lives in memory, for the file is renamed
  // into place only once whole.
  if (sqlite3_open_v2(out_.partialPath().c_str(), &db_, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
    fail("cannot open it as a database");
    return bail();
  }
  if (!exec("PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF; BEGIN;"
            "CREATE TABLE trajectory_data (frame INTEGER NOT NULL, id INTEGER NOT NULL, pos_x REAL NOT NULL,"
            " pos_y REAL NOT NULL, ori_x REAL NOT NULL, ori_y REAL NOT NULL);"
            "CREATE TABLE metadata (key TEXT NOT NULL UNIQUE PRIMARY KEY, value TEXT NOT NULL);"
            "CREATE TABLE geometry (hash INTEGER NOT NULL, wkt TEXT NOT NULL);"
            "CREATE UNIQUE INDEX geometry_hash ON geometry (hash);"
            "CREATE TABLE frame_data (frame INTEGER NOT NULL, geometry_hash INTEGER NOT NULL);"))
    return bail();
  // The geometry's hash: FNV-1a of its text (JuPedSim's own is Python's
  // hash(); readers only match it between the two tables).
  std::uint64_t h = 1469598103934665603ull;
  for (const unsigned char c : wkt) h = (h ^ c) * 1099511628211ull;
  geometryHash_ = static_cast<std::int64_t>(h >> 1);
  char fps[40];
  std::snprintf(fps, sizeof fps, "%.17g", 1.0 / dt);
  sqlite3_stmt* st = nullptr;
  const auto metadata = [&](const char* key, const std::string& value) {
    sqlite3_reset(st);
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, value.c_str(), -1, SQLITE_TRANSIENT);
    return sqlite3_step(st) == SQLITE_DONE;
  };
  bool ok = sqlite3_prepare_v2(db_, "INSERT INTO metadata VALUES (?, ?)", -1, &st, nullptr) == SQLITE_OK &&
            metadata("version", "2") && metadata("fps", fps);
  // The bounds are the walkable area's, as JuPedSim's recorder writes them.
  for (const auto& [key, v] : {std::pair{"xmin", bounds.x}, std::pair{"xmax", bounds.x + bounds.width},
                               std::pair{"ymin", bounds.y}, std::pair{"ymax", bounds.y + bounds.height}}) {
    char b[32];
    const auto r = std::to_chars(b, b + sizeof b, v);
    ok = ok && metadata(key, std::string(b, r.ptr));
  }
  sqlite3_finalize(st);
  st = nullptr;
  if (ok && sqlite3_prepare_v2(db_, "INSERT INTO geometry VALUES (?, ?)", -1, &st, nullptr) == SQLITE_OK) {
    sqlite3_bind_int64(st, 1, geometryHash_);
    sqlite3_bind_text(st, 2, wkt.c_str(), -1, SQLITE_STATIC);
    ok = sqlite3_step(st) == SQLITE_DONE;
  } else {
    ok = false;
  }
  sqlite3_finalize(st);
  if (!ok) {
    fail("the metadata");
    return bail();
  }
  if (sqlite3_prepare_v2(db_, "INSERT INTO trajectory_data VALUES (?, ?, ?, ?, ?, ?)", -1, &row_, nullptr) != SQLITE_OK ||
      sqlite3_prepare_v2(db_, "INSERT INTO frame_data VALUES (?, ?)", -1, &frame_, nullptr) != SQLITE_OK) {
    fail("preparing the rows");
    return bail();
  }
  heading_.clear();
  return true;
}

bool Exporter::writeDatabase(const FrameView& f) {
  const auto frame = static_cast<sqlite3_int64>(f.step);
  for (std::size_t i = 0; i < f.px.size(); ++i) {
    Vec2& heading = heading_.try_emplace(f.id[i], Vec2{1, 0}).first->second;
    const float speed = std::sqrt(f.vx[i] * f.vx[i] + f.vy[i] * f.vy[i]);
    if (speed > 1e-6f) heading = {f.vx[i] / speed, f.vy[i] / speed};
    sqlite3_reset(row_);
    sqlite3_bind_int64(row_, 1, frame);
    sqlite3_bind_int64(row_, 2, static_cast<sqlite3_int64>(f.id[i]));
    sqlite3_bind_double(row_, 3, f.px[i]);
    sqlite3_bind_double(row_, 4, f.py[i]);
    sqlite3_bind_double(row_, 5, heading.x);
    sqlite3_bind_double(row_, 6, heading.y);
    if (sqlite3_step(row_) != SQLITE_DONE) return fail("a row of frame " + std::to_string(f.step));
  }
  sqlite3_reset(frame_);
  sqlite3_bind_int64(frame_, 1, frame);
  sqlite3_bind_int64(frame_, 2, geometryHash_);
  if (sqlite3_step(frame_) != SQLITE_DONE) return fail("frame " + std::to_string(f.step));
  return true;
}

bool Exporter::finishDatabase(std::string* error) {
  const bool ok = exec("CREATE INDEX frame_id_idx ON trajectory_data (frame, id); COMMIT;");
  sqlite3_finalize(row_);
  sqlite3_finalize(frame_);
  row_ = frame_ = nullptr;
  const bool closed = sqlite3_close(db_) == SQLITE_OK;
  db_ = nullptr;
  if (ok && !closed) fail("closing it");
  if (!failed_) return true;
  if (error) *error = writeError_;
  return false;
}

void Exporter::closeDatabase() {
  if (!db_) return;
  sqlite3_finalize(row_);
  sqlite3_finalize(frame_);
  row_ = frame_ = nullptr;
  sqlite3_close(db_);
  db_ = nullptr;
}

}  // namespace throng::cli

// The readers of other tools' trajectories (trajectory.hpp): PedPy's text
// format and JuPedSim's SQLite, and openTrajectory, which picks one.
//
// PedPy's text files come in any order of rows. The Juelich archive's list
// one walker after another, each in frame order; a simulator's list frame
// after frame. A first pass checks every line and notes where each run of
// rows whose frames do not go back begins; the second merges the runs by
// (frame, id), each run read through a small buffer of its own. Memory
// follows the number of runs (one for a file in frame order, one a walker
// for the archive's), never the file's length.
#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <queue>
#include <string_view>
#include <vector>

#include "trajectory.hpp"
#include "trajectory_text.hpp"

namespace throng::cli {

namespace {

/// The most runs a PedPy file may be merged from, and the memory they share.
constexpr std::size_t kMaxRuns = 1'000'000;
constexpr std::size_t kRunMemory = 64u << 20;

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// The fields of a data line split by white space, a '#' ending it.
std::size_t splitFields(std::string_view line, std::string_view* out, std::size_t most) {
  const std::size_t hash = line.find('#');
  if (hash != std::string_view::npos) line = line.substr(0, hash);
  std::size_t n = 0, i = 0;
  while (i < line.size() && n < most) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i == line.size()) break;
    std::size_t e = i;
    while (e < line.size() && !std::isspace(static_cast<unsigned char>(line[e]))) ++e;
    out[n++] = line.substr(i, e - i);
    i = e;
  }
  return n;
}

struct PedpyRow {
  std::uint64_t id = 0, frame = 0;
  Vec2 p;
};

/// One data line, or false for a blank or comment line; throws BadTrajectory.
bool parsePedpyLine(std::string_view line, std::size_t lineNo, float scale, PedpyRow& row) {
  std::string_view f[5];
  const std::size_t n = splitFields(line, f, 5);
  if (n == 0) return false;
  auto fail = [&](std::string m) { throw BadTrajectory{std::to_string(lineNo), std::move(m)}; };
  if (n < 4) fail("expected the fields id frame x y [z], got " + std::to_string(n) + " field" + (n == 1 ? "" : "s"));
  const auto id = toUnsigned(f[0]), frame = toUnsigned(f[1]);
  if (!id) fail("field id: expected a whole number, got " + quoted(f[0]));
  if (!frame) fail("field frame: expected a whole number, got " + quoted(f[1]));
  const auto x = toDouble(f[2]), y = toDouble(f[3]);
  if (!x || !std::isfinite(*x) || std::fabs(*x) > 1e15) fail("field x: expected a finite number, got " + quoted(f[2]));
  if (!y || !std::isfinite(*y) || std::fabs(*y) > 1e15) fail("field y: expected a finite number, got " + quoted(f[3]));
  row = PedpyRow{*id, *frame, Vec2{static_cast<float>(*x * scale), static_cast<float>(*y * scale)}};
  return true;
}

/// Lines of [begin, end) of a file, read through a buffer of its own.
class RunCursor {
 public:
  RunCursor(int fd, std::uint64_t begin, std::uint64_t end, std::size_t lineNo, std::size_t buffer)
      : fd_(fd), at_(begin), end_(end), lineNo_(lineNo - 1), buf_(buffer) {}

  /// The next line (without its newline), or false at the run's end.
  bool line(std::string& out) {
    out.clear();
    if (at_ >= end_ && pos_ == len_) return false;
    for (;;) {
      if (pos_ == len_) {
        if (at_ >= end_) break;
        const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(buf_.size(), end_ - at_));
        const ssize_t got = ::pread(fd_, buf_.data(), want, static_cast<off_t>(at_));
        if (got <= 0) throw BadTrajectory{std::to_string(lineNo_ + 1), "read error (the file changed?)"};
        at_ += static_cast<std::uint64_t>(got);
        pos_ = 0;
        len_ = static_cast<std::size_t>(got);
      }
      const char* b = buf_.data() + pos_;
      const void* nl = std::memchr(b, '\n', len_ - pos_);
      if (nl) {
        const std::size_t k = static_cast<std::size_t>(static_cast<const char*>(nl) - b);
        out.append(b, k);
        pos_ += k + 1;
        ++lineNo_;
        return true;
      }
      out.append(b, len_ - pos_);
      pos_ = len_;
    }
    ++lineNo_;
    return true;
  }
  std::size_t lineNo() const { return lineNo_; }

 private:
  int fd_;
  std::uint64_t at_, end_;
  std::size_t lineNo_;
  std::vector<char> buf_;
  std::size_t pos_ = 0, len_ = 0;
};

class PedpyReader final : public FrameReader {
 public:
  PedpyReader(const std::string& path, double fps, double unitScale) : path_(path) {
    scan(fps, unitScale);
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw BadTrajectory{"", std::string("cannot open (") + std::strerror(errno) + ")"};
    const std::size_t buffer = std::clamp<std::size_t>(kRunMemory / std::max<std::size_t>(1, runs_.size()), 256, 1 << 16);
    cursors_.reserve(runs_.size());
    for (std::size_t r = 0; r < runs_.size(); ++r) {
      const std::uint64_t end = r + 1 < runs_.size() ? runs_[r + 1].offset : size_;
      cursors_.emplace_back(fd_, runs_[r].offset, end, runs_[r].lineNo, buffer);
      advance(r);
    }
  }
  ~PedpyReader() override {
    if (fd_ >= 0) ::close(fd_);
  }

  bool next(TrajectoryFrame& out) override {
    out.rows.clear();
    if (heap_.empty()) return false;
    out.frame = heap_.top().row.frame;
    out.time = 0;
    while (!heap_.empty() && heap_.top().row.frame == out.frame) {
      const Head h = heap_.top();
      heap_.pop();
      out.rows.push_back(FrameRow{h.row.id, h.row.p, 0});
      advance(h.run);
    }
    return true;
  }
  double frameRate() const override { return fps_; }
  const char* format() const override { return "pedpy"; }
  std::string unitNote() const override { return unitNote_; }

 private:
  struct Run {
    std::uint64_t offset;
    std::size_t lineNo;
  };
  struct Head {
    PedpyRow row;
    std::size_t run;
    bool operator>(const Head& o) const {
      if (row.frame != o.row.frame) return row.frame > o.row.frame;
      if (row.id != o.row.id) return row.id > o.row.id;
      return run > o.run;
    }
  };

  /// The first pass: the header's frame rate and unit, every line checked,
  /// the runs noted.
  void scan(double fps, double unitScale) {
    std::ifstream in(path_, std::ios::binary);
    if (!in) throw BadTrajectory{"", std::string("cannot open (") + std::strerror(errno) + ")"};
    std::string line;
    std::size_t lineNo = 0;
    std::uint64_t offset = 0;
    bool inHeader = true, haveRow = false;
    std::uint64_t lastFrame = 0;
    double parsedFps = 0, parsedScale = 0;
    PedpyRow row;
    while (std::getline(in, line)) {
      const std::uint64_t lineStart = offset;
      offset += line.size() + (in.eof() ? 0 : 1);
      ++lineNo;
      std::string_view l(line);
      if (lineNo == 1 && l.substr(0, 3) == "\xef\xbb\xbf") l.remove_prefix(3);  // a UTF-8 byte order mark
      if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
      if (inHeader && !l.empty() && l[0] == '#') {
        const std::string low = lower(l);
        if (parsedFps == 0 && low.find("framerate") != std::string::npos) {
          std::string_view f[32];
          const std::size_t n = splitFields(std::string_view(low).substr(1), f, 32);
          for (std::size_t k = 0; k < n && parsedFps == 0; ++k)
            if (const auto v = toDouble(f[k])) {
              if (!(*v > 0) || !std::isfinite(*v))
                throw BadTrajectory{std::to_string(lineNo), "framerate: expected a positive number, got " + quoted(f[k])};
              parsedFps = *v;
            }
        }
        if (low.find("x/cm") != std::string::npos || low.find("in cm") != std::string::npos) parsedScale = 0.01;
        if (low.find("x/m") != std::string::npos || low.find("in m") != std::string::npos) parsedScale = 1;
        continue;
      }
      if (!parsePedpyLine(l, lineNo, 1.0f, row)) continue;
      if (inHeader) {
        inHeader = false;
        fps_ = fps > 0 ? fps : parsedFps;
        if (fps_ == 0)
          throw BadTrajectory{std::to_string(lineNo), "no framerate in the header comments (# framerate: F); give --fps"};
        if (unitScale > 0) {
          scale_ = unitScale;
          unitNote_ = unitScale == 1 ? "m (--units)" : "cm (--units), scaled to m";
        } else if (parsedScale > 0) {
          scale_ = parsedScale;
          unitNote_ = parsedScale == 1 ? "m (the header)" : "cm (the header), scaled to m";
        } else {
          throw BadTrajectory{std::to_string(lineNo), "no unit in the header comments (x/m or x/cm); give --units"};
        }
      }
      if (!haveRow || row.frame < lastFrame) {
        if (runs_.size() == kMaxRuns)
          throw BadTrajectory{std::to_string(lineNo), "rows in more than " + std::to_string(kMaxRuns) +
                                                         " runs whose frames go back: sort the file by frame"};
        runs_.push_back(Run{lineStart, lineNo});
      }
      haveRow = true;
      lastFrame = row.frame;
    }
    if (in.bad()) throw BadTrajectory{std::to_string(lineNo + 1), "read error"};
    if (!haveRow) throw BadTrajectory{std::to_string(std::max<std::size_t>(1, lineNo)), "no rows (id frame x y [z])"};
    size_ = offset;
  }

  void advance(std::size_t r) {
    std::string line;
    PedpyRow row;
    while (cursors_[r].line(line)) {
      std::string_view l(line);
      if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
      if (!l.empty() && l[0] == '#') continue;
      if (parsePedpyLine(l, cursors_[r].lineNo(), static_cast<float>(scale_), row)) {
        heap_.push(Head{row, r});
        return;
      }
    }
  }

  std::string path_;
  int fd_ = -1;
  double fps_ = 0, scale_ = 1;
  std::string unitNote_;
  std::uint64_t size_ = 0;
  std::vector<Run> runs_;
  std::vector<RunCursor> cursors_;
  std::priority_queue<Head, std::vector<Head>, std::greater<Head>> heap_;
};

/// JuPedSim's SQLite trajectory, read in (frame, id) order.
class JupedsimReader final : public FrameReader {
 public:
  explicit JupedsimReader(const std::string& path, double fps) {
    if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK)
      fail("sqlite", std::string("cannot open (") + (db_ ? sqlite3_errmsg(db_) : "out of memory") + ")");
    sqlite3_stmt* meta = nullptr;
    if (sqlite3_prepare_v2(db_, "SELECT value FROM metadata WHERE key = 'fps'", -1, &meta, nullptr) != SQLITE_OK)
      fail("metadata", std::string("not a JuPedSim trajectory (") + sqlite3_errmsg(db_) + ")");
    const int rc = sqlite3_step(meta);
    if (rc == SQLITE_ROW) {
      const unsigned char* text = sqlite3_column_text(meta, 0);
      const auto v = text ? toDouble(reinterpret_cast<const char*>(text)) : std::nullopt;
      if (!v || !(*v > 0) || !std::isfinite(*v)) {
        sqlite3_finalize(meta);
        fail("metadata", "fps: expected a positive number");
      }
      fps_ = *v;
    } else if (rc != SQLITE_DONE) {
      const std::string why = sqlite3_errmsg(db_);
      sqlite3_finalize(meta);
      fail("metadata", why);
    }
    sqlite3_finalize(meta);
    if (fps > 0) fps_ = fps;
    if (fps_ == 0) fail("metadata", "no fps; give --fps");
    if (sqlite3_prepare_v2(db_, "SELECT frame, id, pos_x, pos_y FROM trajectory_data ORDER BY frame, id", -1, &rows_,
                           nullptr) != SQLITE_OK)
      fail("trajectory_data", std::string("not a JuPedSim trajectory (") + sqlite3_errmsg(db_) + ")");
    step();
  }
  ~JupedsimReader() override {
    sqlite3_finalize(rows_);
    sqlite3_close(db_);
  }

  bool next(TrajectoryFrame& out) override {
    out.rows.clear();
    if (!have_) return false;
    out.frame = frame_;
    out.time = 0;
    while (have_ && frame_ == out.frame) {
      out.rows.push_back(row_);
      step();
    }
    return true;
  }
  double frameRate() const override { return fps_; }
  const char* format() const override { return "jupedsim"; }
  std::string unitNote() const override { return "m (JuPedSim)"; }

 private:
  [[noreturn]] void fail(const std::string& where, std::string m) { throw BadTrajectory{where, std::move(m)}; }

  void step() {
    const int rc = sqlite3_step(rows_);
    ++row_no_;
    if (rc == SQLITE_DONE) {
      have_ = false;
      return;
    }
    const std::string where = "trajectory_data row " + std::to_string(row_no_);
    if (rc != SQLITE_ROW) fail(where, sqlite3_errmsg(db_));
    if (sqlite3_column_type(rows_, 0) != SQLITE_INTEGER || sqlite3_column_int64(rows_, 0) < 0)
      fail(where, "frame: expected a whole number");
    if (sqlite3_column_type(rows_, 1) != SQLITE_INTEGER || sqlite3_column_int64(rows_, 1) < 0)
      fail(where, "id: expected a whole number");
    for (int c : {2, 3}) {
      const int t = sqlite3_column_type(rows_, c);
      const double v = sqlite3_column_double(rows_, c);
      if ((t != SQLITE_FLOAT && t != SQLITE_INTEGER) || !std::isfinite(v) || std::fabs(v) > 1e15)
        fail(where, std::string(c == 2 ? "pos_x" : "pos_y") + ": expected a finite number");
    }
    frame_ = static_cast<std::uint64_t>(sqlite3_column_int64(rows_, 0));
    row_ = FrameRow{static_cast<std::uint64_t>(sqlite3_column_int64(rows_, 1)),
                    Vec2{static_cast<float>(sqlite3_column_double(rows_, 2)),
                         static_cast<float>(sqlite3_column_double(rows_, 3))},
                    0};
    have_ = true;
  }

  sqlite3* db_ = nullptr;
  sqlite3_stmt* rows_ = nullptr;
  double fps_ = 0;
  bool have_ = false;
  std::uint64_t frame_ = 0, row_no_ = 0;
  FrameRow row_;
};

/// throng's csv from a file it owns.
class CsvFileReader final : public FrameReader {
 public:
  explicit CsvFileReader(const std::string& path) : in_(path, std::ios::binary) {
    if (!in_) throw BadTrajectory{"", std::string("cannot open (") + std::strerror(errno) + ")"};
    csv_ = csvReader(in_);
  }
  bool next(TrajectoryFrame& out) override { return csv_->next(out); }
  double frameRate() const override { return csv_->frameRate(); }
  bool hasTimes() const override { return true; }
  const char* format() const override { return "csv"; }

 private:
  std::ifstream in_;
  std::unique_ptr<FrameReader> csv_;
};

}  // namespace

std::unique_ptr<FrameReader> openTrajectory(const std::string& path, TrajectoryFormat format, double fps,
                                            double unitScale) {
  if (format == TrajectoryFormat::Auto) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw BadTrajectory{"", std::string("cannot open (") + std::strerror(errno) + ")"};
    char head[16] = {};
    in.read(head, sizeof head);
    const std::string_view h(head, static_cast<std::size_t>(in.gcount()));
    const bool csvName = path.size() >= 4 && path.compare(path.size() - 4, 4, ".csv") == 0;
    if (h == std::string_view("SQLite format 3\0", 16)) format = TrajectoryFormat::Jupedsim;
    else if (csvName || h.empty() || h.substr(0, 4) == "step") format = TrajectoryFormat::Csv;
    else format = TrajectoryFormat::Pedpy;
  }
  switch (format) {
    case TrajectoryFormat::Jupedsim: return std::make_unique<JupedsimReader>(path, fps);
    case TrajectoryFormat::Pedpy: return std::make_unique<PedpyReader>(path, fps, unitScale);
    default: return std::make_unique<CsvFileReader>(path);
  }
}

}  // namespace throng::cli

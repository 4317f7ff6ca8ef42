// The gate over frames (trajectory.hpp), and throng's csv reader.
#include "trajectory.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "trajectory_text.hpp"

namespace throng::cli {

namespace {

/// throng's csv: one frame a step, read a line ahead.
class CsvReader final : public FrameReader {
 public:
  explicit CsvReader(std::istream& in) : in_(in) {}

  bool next(TrajectoryFrame& out) override {
    if (!started_) start();
    out.rows.clear();
    if (!pending_) return false;
    out.frame = pendingStep_;
    out.time = pendingTime_;
    out.rows.push_back(pendingRow_);
    pending_ = false;
    std::string line;
    while (std::getline(in_, line)) {
      ++lineNo_;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.empty()) continue;
      std::uint64_t step = 0;
      double time = 0;
      FrameRow row;
      parse(line, step, time, row);
      if (step != out.frame) {
        if (step < out.frame)
          fail("step " + std::to_string(step) + " after step " + std::to_string(out.frame) + ": steps must not go back");
        pending_ = true;
        pendingStep_ = step;
        pendingTime_ = time;
        pendingRow_ = row;
        break;
      }
      if (time != out.time)
        fail("time " + formatNumber(time) + " in step " + std::to_string(step) + ", which began at time " +
             formatNumber(out.time));
      out.rows.push_back(row);
    }
    if (in_.bad()) fail("read error");
    return true;
  }
  double frameRate() const override { return 0; }
  bool hasTimes() const override { return true; }
  const char* format() const override { return "csv"; }

 private:
  [[noreturn]] void fail(std::string message) const { throw BadTrajectory{std::to_string(lineNo_), std::move(message)}; }

  void start() {
    started_ = true;
    std::string line;
    lineNo_ = 1;  // the header's
    if (!std::getline(in_, line)) fail("empty file: expected the header " + std::string(kTrajectoryHeader));
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line != kTrajectoryHeader) fail("expected the header " + std::string(kTrajectoryHeader) + ", got " + quoted(line));
    while (std::getline(in_, line)) {
      ++lineNo_;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.empty()) continue;
      parse(line, pendingStep_, pendingTime_, pendingRow_);
      pending_ = true;
      return;
    }
    if (in_.bad()) fail("read error");
    fail("no rows after the header");
  }

  void parse(const std::string& line, std::uint64_t& step, double& time, FrameRow& row) const {
    static const char* names[] = {"step", "time", "id", "x", "y", "vx", "vy", "jammed", "group"};
    std::string_view fields[9];
    std::size_t n = 0, b = 0;
    for (;;) {
      const std::size_t e = line.find(',', b);
      if (n == 9) fail("expected 9 comma-separated fields (" + std::string(kTrajectoryHeader) + "), got more");
      fields[n++] = std::string_view(line).substr(b, e == std::string::npos ? std::string::npos : e - b);
      if (e == std::string::npos) break;
      b = e + 1;
    }
    if (n != 9)
      fail("expected 9 comma-separated fields (" + std::string(kTrajectoryHeader) + "), got " + std::to_string(n));
    auto whole = [&](std::size_t k) {
      const auto v = toUnsigned(fields[k]);
      if (!v) fail("field " + std::string(names[k]) + ": expected a whole number, got " + quoted(fields[k]));
      return *v;
    };
    auto real = [&](std::size_t k) {
      const auto v = toDouble(fields[k]);
      if (!v || !std::isfinite(*v) || std::fabs(*v) > 1e15)
        fail("field " + std::string(names[k]) + ": expected a finite number, got " + quoted(fields[k]));
      return *v;
    };
    step = whole(0);
    time = real(1);
    row.id = whole(2);
    row.p = {static_cast<float>(real(3)), static_cast<float>(real(4))};
    real(5);
    real(6);
    const std::uint64_t jam = whole(7);
    if (jam > 1) fail("field jammed: expected 0 or 1, got " + quoted(fields[7]));
    row.jammed = static_cast<std::uint8_t>(jam);
    if (fields[8].empty() || !toDouble(fields[8])) fail("field group: expected an integer, got " + quoted(fields[8]));
  }

  std::istream& in_;
  std::size_t lineNo_ = 0;
  bool started_ = false, pending_ = false;
  std::uint64_t pendingStep_ = 0;
  double pendingTime_ = 0;
  FrameRow pendingRow_;
};

/// The rows of one frame sorted by id, with each walker's velocity over the
/// pair of frames that ends here (NaN when it was not in the frame before).
struct Sorted {
  std::uint64_t frame = 0;
  double time = 0;
  std::vector<FrameRow> rows;
  std::vector<Vec2> velocity;
};

void keepWorst(GateWorst& w, double value, std::uint64_t id, std::uint64_t frame, double bound) {
  if (bound > 0 && value > bound) ++w.faults;
  if (value > w.value) w = GateWorst{value, id, frame, w.faults};
}

}  // namespace

std::unique_ptr<FrameReader> csvReader(std::istream& in) { return std::make_unique<CsvReader>(in); }

std::optional<TrajectoryCheck> checkFrames(FrameReader& reader, const GateBounds& bounds, std::string* error) {
  TrajectoryCheck out;
  out.format = reader.format();
  Sorted prev, cur;
  bool havePrev = false;
  TrajectoryFrame f;
  std::unordered_map<std::uint64_t, std::uint64_t> lastFrame;  // every walker seen: its latest frame
  std::vector<Vec2> from, to;
  std::vector<float> radii;
  std::vector<std::uint8_t> jammed;
  std::vector<std::uint64_t> ids;
  double dt = reader.frameRate() > 0 ? 1.0 / reader.frameRate() : bounds.frameRate > 0 ? 1.0 / bounds.frameRate : 0;
  double firstTime = 0;
  auto timeFault = [&](std::uint64_t& counter, const std::string& what) {
    if (out.timeStampsPassed()) out.firstTimeFault = what;
    ++counter;
  };
  try {
    while (reader.next(f)) {
      cur.frame = f.frame;
      cur.time = f.time;
      cur.rows.swap(f.rows);
      const std::size_t read = cur.rows.size();
      std::stable_sort(cur.rows.begin(), cur.rows.end(), [](const FrameRow& a, const FrameRow& b) { return a.id < b.id; });
      // No walker twice in a frame (the first copy is kept).
      std::size_t kept = 0;
      for (std::size_t i = 0; i < cur.rows.size(); ++i) {
        if (kept > 0 && cur.rows[i].id == cur.rows[kept - 1].id) {
          timeFault(out.duplicates, "walker " + std::to_string(cur.rows[i].id) + " appears twice in frame " +
                                        std::to_string(cur.frame));
          continue;
        }
        cur.rows[kept++] = cur.rows[i];
      }
      cur.rows.resize(kept);
      out.rows += read;
      if (out.steps == 0) {
        out.firstFrame = cur.frame;
        firstTime = cur.time;
      }
      ++out.steps;
      out.lastFrame = cur.frame;
      // Frames one at a time; the csv's time a step each frame.
      if (havePrev) {
        if (cur.frame != prev.frame + 1)
          timeFault(out.frameGaps, "frame " + std::to_string(cur.frame) + " follows frame " +
                                       std::to_string(prev.frame) + " (frames must advance by one)");
        if (reader.hasTimes()) {
          if (dt == 0 && cur.frame > prev.frame) dt = (cur.time - prev.time) / static_cast<double>(cur.frame - prev.frame);
          const double expected = firstTime + dt * static_cast<double>(cur.frame - out.firstFrame);
          if (!(dt > 0) || std::fabs(cur.time - expected) > 1e-6 * std::max(1.0, std::fabs(expected)))
            timeFault(out.timeFaults, "time " + formatNumber(cur.time) + " at step " + std::to_string(cur.frame) +
                                          ", expected " + formatNumber(expected) + " (a step of " + formatNumber(dt) +
                                          " s)");
        }
      }
      // Holes: a walker seen before, missing since, back again.
      for (const FrameRow& r : cur.rows) {
        auto [it, fresh] = lastFrame.try_emplace(r.id, cur.frame);
        if (!fresh) {
          if (it->second + 1 < cur.frame)
            timeFault(out.holes, "walker " + std::to_string(r.id) + " is missing from frames " +
                                     std::to_string(it->second + 1) + " to " + std::to_string(cur.frame - 1));
          it->second = cur.frame;
        }
      }
      // Pairs of frames: separation, speed; triples: the envelope.
      cur.velocity.assign(cur.rows.size(), Vec2{std::numeric_limits<float>::quiet_NaN(), 0.0f});
      if (havePrev && cur.frame > prev.frame) {
        const double span = dt > 0 ? dt * static_cast<double>(cur.frame - prev.frame) : 0;
        from.clear(), to.clear(), jammed.clear(), ids.clear();
        for (std::size_t i = 0, k = 0; i < prev.rows.size() && k < cur.rows.size();) {
          if (prev.rows[i].id < cur.rows[k].id) {
            ++i;
          } else if (cur.rows[k].id < prev.rows[i].id) {
            ++k;
          } else {
            const FrameRow& a = prev.rows[i];
            const FrameRow& b = cur.rows[k];
            from.push_back(a.p);
            to.push_back(b.p);
            jammed.push_back(b.jammed);
            ids.push_back(b.id);
            if (span > 0) {
              const Vec2 v = (b.p - a.p) / static_cast<float>(span);
              cur.velocity[k] = v;
              keepWorst(out.speed, v.length(), b.id, cur.frame, bounds.maxSpeed);
              const Vec2 u = prev.velocity[i];
              if (std::isfinite(u.x) && cur.frame == prev.frame + 1) {
                const Vec2 a2 = (v - u) / static_cast<float>(span);
                const float speedBefore = u.length();
                const float along = speedBefore > 0 ? dot(a2, u) / speedBefore : 0.0f;
                const float brake = along < 0 ? -along : 0.0f;
                const Vec2 rest = speedBefore > 0 && along < 0 ? a2 - u * (along / speedBefore) : a2;
                keepWorst(out.decel, brake, b.id, cur.frame, bounds.maxDecel);
                keepWorst(out.accel, rest.length(), b.id, cur.frame, bounds.maxAccel);
              }
            }
            ++i, ++k;
          }
        }
        radii.assign(from.size(), bounds.radius);
        GateReport r = checkStep(GateStep{from, to, radii, jammed, ids}, bounds.geometry, bounds.tolerance, bounds.promise);
        r.step = cur.frame;
        out.gate.merge(r);
      }
      std::swap(prev, cur);
      havePrev = true;
    }
  } catch (const BadTrajectory& e) {
    if (error) *error = e.where + ": " + e.message;
    return std::nullopt;
  }
  if (out.steps == 0) {
    if (error) *error = "1: no frames";
    return std::nullopt;
  }
  out.walkers = lastFrame.size();
  out.frameRate = dt > 0 ? 1.0 / dt : 0;
  out.unitNote = reader.unitNote();
  return out;
}

std::optional<TrajectoryCheck> checkTrajectory(std::istream& in, const GateBounds& bounds, std::string* error) {
  CsvReader reader(in);
  return checkFrames(reader, bounds, error);
}

}  // namespace throng::cli

#pragma once
// The measure phase's per-walker rule (throng/measure.hpp says what is
// measured): which lines a walker's step crossed, and which areas it ended
// inside. THRONG_HD, so the CPU step, the CUDA kernel and the host mirror
// take the same answers; the sums they feed are integers, so the order the
// walkers are met in changes nothing.
//
// Geometry is in double, from float points and positions: the products of
// two floats are exact there, so a side test is exact up to one rounding of
// a difference, the same on both backends.
//
// Cost. Each walker looks only at the measurements listed in the bin it
// ended in (a grid of at most kMeasureBins a side over the measurements'
// boxes): one bin lookup per walker in most steps. A step that changes bin,
// or starts or ends outside the grid, tries every line whose box its own
// box meets, so a line is tried at most once per walker.
#include <cmath>
#include <cstdint>
#include <vector>

#include "throng/hd.hpp"
#include "throng/measure.hpp"

namespace throng {

/// The most bins the measure grid has along a side.
inline constexpr std::int32_t kMeasureBins = 32;
/// Fixed-point scale of the areas' speed sums: 2^20 per unit/s.
inline constexpr double kSpeedFixed = 1048576.0;
/// Speeds above this (units/s) are summed as this, so a sum cannot overflow.
inline constexpr float kMaxSummedSpeed = 1e9f;

/// The measurements, flattened for the per-walker rule.
struct MeasureShapesView {
  std::int32_t count = 0;
  const std::uint8_t* kind = nullptr;  ///< MeasureKind, by measurement
  const std::int32_t* first = nullptr; ///< count + 1 offsets into x, y
  const double *x = nullptr, *y = nullptr;
  const double* box = nullptr;         ///< min x, min y, max x, max y, by measurement
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;  ///< the union of the boxes
  double perBin = 1;  ///< bins per unit (the inverse of a bin's side)
  std::int32_t cols = 0, rows = 0;
  const std::int32_t* binStart = nullptr;  ///< cols * rows + 1 offsets into binList
  const std::int32_t* binList = nullptr;   ///< measurement indices, ascending in each bin
};

/// The bin holding (x, y), or -1 outside the grid.
THRONG_HD std::int32_t measureBin(const MeasureShapesView& v, double x, double y) {
  if (!(x >= v.x0 && x <= v.x1 && y >= v.y0 && y <= v.y1)) return -1;
  std::int32_t c = static_cast<std::int32_t>((x - v.x0) * v.perBin);  // >= 0: truncation is floor
  std::int32_t r = static_cast<std::int32_t>((y - v.y0) * v.perBin);
  c = c < 0 ? 0 : (c >= v.cols ? v.cols - 1 : c);
  r = r < 0 ? 0 : (r >= v.rows ? v.rows - 1 : r);
  return r * v.cols + c;
}

/// One crossing as a step finds it, before it is told by time.
struct MeasureEvent {
  std::int32_t walker = 0, measurement = 0;
  std::int32_t direction = 1;
  double along = 0;  ///< 0..1 along the step
};

/// Whether the step o -> p crossed the segment a-b; if so its direction
/// (+1: from a->b's left to its right) and where along the step (0..1).
THRONG_HD bool lineCrossed(double ax, double ay, double bx, double by, double ox, double oy, double px, double py,
                           int& direction, double& along) {
  const double dx = bx - ax, dy = by - ay;
  const double s0 = dx * (oy - ay) - dy * (ox - ax);  // > 0: left of a->b
  const double s1 = dx * (py - ay) - dy * (px - ax);
  const bool left0 = s0 > 0, left1 = s1 > 0;
  if (left0 == left1) return false;
  const double t = s0 / (s0 - s1);
  const double qx = ox + t * (px - ox), qy = oy + t * (py - oy);
  const double u = ((qx - ax) * dx + (qy - ay) * dy) / (dx * dx + dy * dy);
  if (!(u >= 0 && u <= 1)) return false;
  direction = left0 ? 1 : -1;
  along = t;
  return true;
}

/// Whether (x, y) is inside polygon [first, end) of v (even-odd rule).
THRONG_HD bool insideArea(const MeasureShapesView& v, std::int32_t m, double x, double y) {
  const std::int32_t b = v.first[m], e = v.first[m + 1];
  bool in = false;
  for (std::int32_t k = b, j = e - 1; k < e; j = k++) {
    const double yk = v.y[k], yj = v.y[j];
    if ((yk > y) != (yj > y) && x < (v.x[j] - v.x[k]) * (y - yk) / (yj - yk) + v.x[k]) in = !in;
  }
  return in;
}

/// A speed as the areas sum it.
THRONG_HD std::int64_t fixedSpeed(float vx, float vy) {
  float s = sqrtf(vx * vx + vy * vy);
  if (!(s <= kMaxSummedSpeed)) s = kMaxSummedSpeed;  // NaN too
  return static_cast<std::int64_t>(static_cast<double>(s) * kSpeedFixed);
}

THRONG_HD bool boxesMeet(const double* box, double lox, double loy, double hix, double hiy) {
  return !(hix < box[0] || lox > box[2] || hiy < box[1] || loy > box[3]);
}

/// measureWalker's lines: each line m in [b, e) of `list` (every line when
/// list is null) whose box meets the step's.
template <class Sink>
THRONG_HD void measureLines(const MeasureShapesView& v, const std::int32_t* list, std::int32_t b, std::int32_t e,
                            double o0, double o1, double p0, double p1, Sink& sink) {
  const double lox = o0 < p0 ? o0 : p0, hix = o0 < p0 ? p0 : o0;
  const double loy = o1 < p1 ? o1 : p1, hiy = o1 < p1 ? p1 : o1;
  for (std::int32_t k = b; k < e; ++k) {
    const std::int32_t m = list ? list[k] : k;
    if (v.kind[m] != static_cast<std::uint8_t>(MeasureKind::Line) || !boxesMeet(v.box + 4 * m, lox, loy, hix, hiy))
      continue;
    const std::int32_t a = v.first[m];
    int direction;
    double along;
    if (lineCrossed(v.x[a], v.y[a], v.x[a + 1], v.y[a + 1], o0, o1, p0, p1, direction, along))
      sink.crossed(m, direction, along);
  }
}

/// Walker i's step from (ox, oy) to (px, py), ending at velocity (vx, vy):
/// sink.crossed(m, direction, along) for each line crossed, in measurement
/// order, and sink.inside(m, fixedSpeed) for each area it ended inside.
/// The common case, a step within one bin, reads only what the bin lists,
/// with no call.
template <class Sink>
THRONG_HD void measureWalker(const MeasureShapesView& v, float ox, float oy, float px, float py, float vx, float vy,
                             Sink& sink) {
  const double o0 = ox, o1 = oy, p0 = px, p1 = py;
  const std::int32_t bin = measureBin(v, p0, p1), from = measureBin(v, o0, o1);
  if (bin == from && bin >= 0) {
    // The usual step, within one bin: what it lists, each once.
    for (std::int32_t k = v.binStart[bin], e = v.binStart[bin + 1]; k < e; ++k) {
      const std::int32_t m = v.binList[k];
      const double* box = v.box + 4 * m;
      if (v.kind[m] == static_cast<std::uint8_t>(MeasureKind::Area)) {
        if (boxesMeet(box, p0, p1, p0, p1) && insideArea(v, m, p0, p1)) sink.inside(m, fixedSpeed(vx, vy));
      } else if (!((o0 < box[0] && p0 < box[0]) || (o0 > box[2] && p0 > box[2]) || (o1 < box[1] && p1 < box[1]) ||
                   (o1 > box[3] && p1 > box[3]))) {
        measureLines(v, v.binList, k, k + 1, o0, o1, p0, p1, sink);
      }
    }
    return;
  }
  if (bin == from) {
    // Both ends outside the grid: only a step across its box can cross.
    const bool misses = (o0 < v.x0 && p0 < v.x0) || (o0 > v.x1 && p0 > v.x1) || (o1 < v.y0 && p1 < v.y0) ||
                        (o1 > v.y1 && p1 > v.y1);
    if (misses || !(o0 == o0 && p0 == p0 && o1 == o1 && p1 == p1)) return;  // NaN: nothing
  }
  // A step from one bin to another, or across the grid: every line whose
  // box it meets, then the areas of the bin it ended in.
  measureLines(v, nullptr, 0, v.count, o0, o1, p0, p1, sink);
  if (bin < 0) return;
  for (std::int32_t k = v.binStart[bin]; k < v.binStart[bin + 1]; ++k) {
    const std::int32_t m = v.binList[k];
    if (v.kind[m] == static_cast<std::uint8_t>(MeasureKind::Area) && boxesMeet(v.box + 4 * m, p0, p1, p0, p1) &&
        insideArea(v, m, p0, p1))
      sink.inside(m, fixedSpeed(vx, vy));
  }
}

/// A sink into plain arrays (the CPU step and the host mirror): the tally,
/// and crossings into room for `capacity` (counted past it: the caller
/// measures again with room for them all). No call, so the walkers' loop
/// keeps its values in registers.
struct ArrayMeasureSink {
  std::uint32_t *forwardOf, *backwardOf, *insideOf;  ///< by measurement
  std::int64_t* speedOf;
  MeasureEvent* events;
  std::size_t capacity, found = 0;
  std::int32_t walker = 0;
  void crossed(std::int32_t m, int direction, double along) {
    (direction > 0 ? forwardOf : backwardOf)[m] += 1;
    if (found < capacity) events[found] = MeasureEvent{walker, m, direction, along};
    ++found;
  }
  void inside(std::int32_t m, std::int64_t speed) {
    insideOf[m] += 1;
    speedOf[m] += speed;
  }
};

/// The measurements flattened and binned (the CPU step's, uploaded as is by
/// the CUDA backend).
struct MeasureShapes {
  std::vector<std::uint8_t> kind;
  std::vector<std::int32_t> first{0};
  std::vector<double> x, y, box;
  std::vector<std::int32_t> binStart, binList;
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0, perBin = 1;
  std::int32_t cols = 0, rows = 0;
  void build(const std::vector<Measurement>& ms);
  MeasureShapesView view() const;
};

/// One step's sums, by measurement: exact in any order.
struct MeasureTally {
  std::vector<std::uint32_t> forward, backward, inside;
  std::vector<std::int64_t> speedSum;  ///< kSpeedFixed per unit/s
  explicit MeasureTally(std::size_t n) : forward(n), backward(n), inside(n), speedSum(n) {}
  void add(const MeasureTally& o);
  /// A sink adding into this tally, crossings into `events` (its size is
  /// the room).
  ArrayMeasureSink sink(std::vector<MeasureEvent>& events) {
    return ArrayMeasureSink{forward.data(), backward.data(), inside.data(), speedSum.data(), events.data(),
                            events.size()};
  }
};

/// What the crowd measures, and what it measured (World::measure).
struct MeasureState {
  MeasureSeries series;   ///< the definitions and every step's results
  MeasureShapes shapes;   ///< series.measurements, flattened
  std::vector<float> ox, oy;  ///< where each walker began the step (the CPU step's)
  std::uint64_t version = 0;  ///< bumped by every add and clear (a backend's upload)
  bool on() const { return !series.measurements.empty(); }
  void add(Measurement m);  ///< checked by the caller (measurementProblem)
  void clear();
  /// Appends step `step` (from `start` s, dt s long): the tally as a row,
  /// the events sorted by walker then measurement, told by `id`.
  void record(const MeasureTally& tally, std::vector<MeasureEvent>& events, const std::uint64_t* id,
              std::uint64_t step, double start, double dt);
};

}  // namespace throng

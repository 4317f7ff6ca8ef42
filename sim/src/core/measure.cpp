// The measurements' host side: flattening and binning (core/measure.hpp),
// the series a step appends to, and the figures over a series.
#include "core/measure.hpp"

#include <algorithm>
#include <cmath>

namespace throng {

namespace {

/// Twice the signed area of a polygon (shoelace, in double).
double twiceArea(const std::vector<Vec2>& p) {
  double a = 0;
  for (std::size_t k = 0, j = p.size() - 1; k < p.size(); j = k++)
    a += static_cast<double>(p[j].x) * p[k].y - static_cast<double>(p[k].x) * p[j].y;
  return a;
}

}  // namespace

std::string measurementProblem(const Measurement& m) {
  for (const Vec2& p : m.points)
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) return "a point is not finite";
  if (m.kind == MeasureKind::Line) {
    if (m.points.size() != 2) return "a line needs exactly two points, got " + std::to_string(m.points.size());
    if (m.points[0] == m.points[1]) return "a line needs two distinct ends";
    return {};
  }
  if (m.points.size() < 3) return "an area needs at least three points, got " + std::to_string(m.points.size());
  if (twiceArea(m.points) == 0) return "an area needs a nonzero area";
  return {};
}

void MeasureShapes::build(const std::vector<Measurement>& ms) {
  kind.clear();
  first.assign(1, 0);
  x.clear();
  y.clear();
  box.clear();
  for (const Measurement& m : ms) {
    kind.push_back(static_cast<std::uint8_t>(m.kind));
    double lx = m.points[0].x, ly = m.points[0].y, hx = lx, hy = ly;
    for (const Vec2& p : m.points) {
      x.push_back(p.x);
      y.push_back(p.y);
      lx = std::min<double>(lx, p.x), ly = std::min<double>(ly, p.y);
      hx = std::max<double>(hx, p.x), hy = std::max<double>(hy, p.y);
    }
    first.push_back(static_cast<std::int32_t>(x.size()));
    box.insert(box.end(), {lx, ly, hx, hy});
  }
  cols = rows = 0;
  binStart.assign(1, 0);
  binList.clear();
  if (ms.empty()) return;
  x0 = box[0], y0 = box[1], x1 = box[2], y1 = box[3];
  for (std::size_t m = 1; m < ms.size(); ++m) {
    x0 = std::min(x0, box[4 * m]), y0 = std::min(y0, box[4 * m + 1]);
    x1 = std::max(x1, box[4 * m + 2]), y1 = std::max(y1, box[4 * m + 3]);
  }
  const double extent = std::max(x1 - x0, y1 - y0);
  perBin = extent > 0 ? kMeasureBins / extent : 1;
  cols = std::clamp(static_cast<std::int32_t>(std::ceil((x1 - x0) * perBin)), 1, kMeasureBins);
  rows = std::clamp(static_cast<std::int32_t>(std::ceil((y1 - y0) * perBin)), 1, kMeasureBins);
  // Each measurement in every bin its box meets (measureBin's clamping
  // puts the grid's far edges in the last row and column).
  std::vector<std::vector<std::int32_t>> bins(static_cast<std::size_t>(cols) * rows);
  const MeasureShapesView v = view();
  for (std::int32_t m = 0; m < static_cast<std::int32_t>(ms.size()); ++m) {
    const double* b = &box[4 * static_cast<std::size_t>(m)];
    const std::int32_t lo = measureBin(v, b[0], b[1]), hi = measureBin(v, b[2], b[3]);
    for (std::int32_t r = lo / cols; r <= hi / cols; ++r)
      for (std::int32_t c = lo % cols; c <= hi % cols; ++c) bins[static_cast<std::size_t>(r) * cols + c].push_back(m);
  }
  for (const auto& b : bins) {
    binList.insert(binList.end(), b.begin(), b.end());
    binStart.push_back(static_cast<std::int32_t>(binList.size()));
  }
}

MeasureShapesView MeasureShapes::view() const {
  MeasureShapesView v;
  v.count = static_cast<std::int32_t>(kind.size());
  v.kind = kind.data();
  v.first = first.data();
  v.x = x.data();
  v.y = y.data();
  v.box = box.data();
  v.x0 = x0, v.y0 = y0, v.x1 = x1, v.y1 = y1;
  v.perBin = perBin;
  v.cols = cols, v.rows = rows;
  v.binStart = binStart.data();
  v.binList = binList.data();
  return v;
}

void MeasureTally::add(const MeasureTally& o) {
  for (std::size_t m = 0; m < forward.size(); ++m) {
    forward[m] += o.forward[m];
    backward[m] += o.backward[m];
    inside[m] += o.inside[m];
    speedSum[m] += o.speedSum[m];
  }
}

void MeasureState::add(Measurement m) {
  series.area.push_back(m.kind != MeasureKind::Area ? 0.0 : m.floorArea > 0 ? m.floorArea : std::abs(twiceArea(m.points)) / 2);
  series.measurements.push_back(std::move(m));
  // A measurement added mid-run starts at the next step: the rows so far
  // had none of it, so the series starts over.
  series.time.clear();
  series.samples.clear();
  series.crossings.clear();
  shapes.build(series.measurements);
  ++version;
}

void MeasureState::clear() {
  series = MeasureSeries{};
  shapes.build({});
  ++version;
}

void MeasureState::record(const MeasureTally& tally, std::vector<MeasureEvent>& events, const std::uint64_t* id,
                          std::uint64_t step, double start, double dt) {
  const std::size_t n = series.measurements.size();
  series.time.push_back(start + dt);
  for (std::size_t m = 0; m < n; ++m) {
    MeasureSample s;
    s.forward = tally.forward[m];
    s.backward = tally.backward[m];
    s.inside = tally.inside[m];
    s.meanSpeed = s.inside ? static_cast<double>(tally.speedSum[m]) / kSpeedFixed / s.inside : 0;
    series.samples.push_back(s);
  }
  std::sort(events.begin(), events.end(), [](const MeasureEvent& a, const MeasureEvent& b) {
    return a.walker != b.walker ? a.walker < b.walker : a.measurement < b.measurement;
  });
  const std::size_t from = series.crossings.size();
  for (const MeasureEvent& e : events) {
    Crossing c;
    c.step = step;
    c.time = start + e.along * dt;
    c.id = id[e.walker];
    c.measurement = static_cast<std::uint32_t>(e.measurement);
    c.direction = static_cast<std::int8_t>(e.direction);
    series.crossings.push_back(c);
  }
  // In order of time (stable: ties keep walker order).
  std::stable_sort(series.crossings.begin() + static_cast<std::ptrdiff_t>(from), series.crossings.end(),
                   [](const Crossing& a, const Crossing& b) { return a.time < b.time; });
}

std::vector<MeasureFigures> measureFigures(const MeasureSeries& s, double window) {
  const std::size_t n = s.measurements.size();
  std::vector<MeasureFigures> out(n);
  std::vector<std::vector<double>> times(n);
  for (const Crossing& c : s.crossings) {
    if (c.measurement >= n) continue;
    times[c.measurement].push_back(c.time);
    (c.direction > 0 ? out[c.measurement].forward : out[c.measurement].backward) += 1;
  }
  for (std::size_t m = 0; m < n; ++m) {
    MeasureFigures& f = out[m];
    f.name = s.measurements[m].name;
    f.kind = s.measurements[m].kind;
    if (f.kind == MeasureKind::Line) {
      const std::vector<double>& t = times[m];  // in order of time
      if (t.empty()) continue;
      f.firstTime = t.front();
      f.lastTime = t.back();
      if (t.size() > 1 && f.lastTime > f.firstTime) f.meanFlow = static_cast<double>(t.size() - 1) / (f.lastTime - f.firstTime);
      // The most crossings within any window (a window ending at a crossing
      // holds the most of those ending near it).
      if (window > 0) {
        std::size_t lo = 0, most = 0;
        for (std::size_t k = 0; k < t.size(); ++k) {
          while (t[k] - t[lo] > window) ++lo;
          most = std::max(most, k - lo + 1);
        }
        f.peakFlow = static_cast<double>(most) / window;
      }
      const std::size_t k95 = static_cast<std::size_t>(std::ceil(0.95 * static_cast<double>(t.size())));
      f.time95 = t[std::max<std::size_t>(k95, 1) - 1];
      continue;
    }
    double densitySum = 0, flowSum = 0, speedWeighted = 0, inside = 0;
    for (std::size_t k = 0; k < s.steps(); ++k) {
      const MeasureSample& a = s.at(k, m);
      const double rho = s.density(k, m);
      f.peakDensity = std::max(f.peakDensity, rho);
      densitySum += rho;
      flowSum += rho * a.meanSpeed;
      speedWeighted += a.meanSpeed * a.inside;
      inside += a.inside;
    }
    if (s.steps() > 0) {
      f.meanDensity = densitySum / static_cast<double>(s.steps());
      f.meanSpecificFlow = flowSum / static_cast<double>(s.steps());
    }
    if (inside > 0) f.meanSpeed = speedWeighted / inside;
  }
  return out;
}

}  // namespace throng

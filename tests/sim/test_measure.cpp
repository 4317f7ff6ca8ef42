// Measurement lines and areas (throng/measure.hpp) against counts made
// here, independently, from the positions each step began and ended at.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "throng/crowd.hpp"
#include "throng/measure.hpp"

using namespace throng;

namespace {

Measurement line(const char* name, Vec2 a, Vec2 b) { return {name, MeasureKind::Line, {a, b}}; }
Measurement area(const char* name, std::vector<Vec2> outline) { return {name, MeasureKind::Area, std::move(outline)}; }

/// Whether the step o -> p crosses segment a-b, by Cramer's rule in long
/// double: +1 from a->b's left to its right, -1 back, 0 not at all. The
/// sides are strict (a point on the line is on its right), as the rule says.
int bruteCrossing(Vec2 a, Vec2 b, Vec2 o, Vec2 p) {
  using R = long double;
  const R dx = R(b.x) - a.x, dy = R(b.y) - a.y;
  const auto left = [&](Vec2 q) { return dx * (R(q.y) - a.y) - dy * (R(q.x) - a.x) > 0; };
  if (left(o) == left(p)) return 0;
  // o + t (p - o) = a + u (b - a)
  const R ex = R(p.x) - o.x, ey = R(p.y) - o.y;
  const R det = ex * -dy - ey * -dx;
  const R rx = R(a.x) - o.x, ry = R(a.y) - o.y;
  const R u = (ex * ry - ey * rx) / det;
  if (u < 0 || u > 1) return 0;
  return left(o) ? 1 : -1;
}

/// Winding number, long double: nonzero inside (the test shapes are simple).
bool bruteInside(const std::vector<Vec2>& poly, Vec2 q) {
  using R = long double;
  int wn = 0;
  for (std::size_t k = 0; k < poly.size(); ++k) {
    const Vec2 a = poly[k], b = poly[(k + 1) % poly.size()];
    const R c = (R(b.x) - a.x) * (R(q.y) - a.y) - (R(q.x) - a.x) * (R(b.y) - a.y);
    if (a.y <= q.y) {
      if (b.y > q.y && c > 0) ++wn;
    } else if (b.y <= q.y && c < 0) {
      --wn;
    }
  }
  return wn != 0;
}

/// A wandering crowd: every walker heads a new hashed way each step, so
/// walkers cross lines, cross back and linger in areas.
struct Wander {
  Crowd crowd;
  std::uint64_t tick = 0;
  explicit Wander(int threads) {
    crowd.settings.threads = threads;
    for (int r = 0; r < 12; ++r)
      for (int c = 0; c < 12; ++c) crowd.add({-220.0f + 40 * c, -220.0f + 40 * r});
    crowd.preferredVelocity = [this](const Agent& a) {
      // A hash of where it stands and the tick (Agent has no id).
      std::uint32_t x, y;
      std::memcpy(&x, &a.position.x, 4);
      std::memcpy(&y, &a.position.y, 4);
      std::uint64_t h = ((std::uint64_t{x} << 32 | y) + 1) * 0x9E3779B97F4A7C15ull ^ (tick / 3) * 0xBF58476D1CE4E5B9ull;
      h ^= h >> 31;
      const double angle = static_cast<double>(h % 6283) / 1000.0;
      return Vec2{static_cast<float>(150 * std::cos(angle)), static_cast<float>(150 * std::sin(angle))};
    };
  }
  void advance() {
    crowd.advance();
    ++tick;
  }
};

const std::vector<Measurement>& wanderMeasurements() {
  static const std::vector<Measurement> ms{
      line("vertical", {0, -300}, {0, 300}),
      line("diagonal", {-200, -150}, {180, 170}),
      line("short", {-60, 20}, {-20, 25}),
      line("reversed", {100, 300}, {100, -300}),
      area("square", {{-100, -100}, {100, -100}, {100, 100}, {-100, 100}}),
      area("notch", {{0, 0}, {200, 0}, {200, 200}, {100, 50}, {0, 200}}),  // not convex
  };
  return ms;
}

}  // namespace

TEST_CASE("measurement lines count every crossing once, each way, as a count from the positions does") {
  Wander w(2);
  for (const Measurement& m : wanderMeasurements()) w.crowd.addMeasurement(m);
  const auto& ms = wanderMeasurements();
  std::vector<std::size_t> forward(ms.size()), backward(ms.size());
  std::size_t steps = 0;
  for (int k = 0; k < 300; ++k) {
    const FrameView before = w.crowd.frame();
    std::vector<Vec2> from;
    for (std::size_t i = 0; i < before.px.size(); ++i) from.push_back({before.px[i], before.py[i]});
    w.advance();
    ++steps;
    const FrameView after = w.crowd.frame();
    const MeasureSeries& s = w.crowd.measurements();
    REQUIRE(s.steps() == steps);
    for (std::size_t m = 0; m < ms.size(); ++m) {
      std::uint32_t f = 0, b = 0, in = 0;
      double speed = 0;
      for (std::size_t i = 0; i < after.px.size(); ++i) {
        const Vec2 to{after.px[i], after.py[i]};
        if (ms[m].kind == MeasureKind::Line) {
          const int d = bruteCrossing(ms[m].points[0], ms[m].points[1], from[i], to);
          f += d > 0;
          b += d < 0;
        } else if (bruteInside(ms[m].points, to)) {
          ++in;
          speed += std::hypot(after.vx[i], after.vy[i]);
        }
      }
      const MeasureSample& got = s.at(steps - 1, m);
      CHECK(got.forward == f);
      CHECK(got.backward == b);
      CHECK(got.inside == in);
      if (in) CHECK(got.meanSpeed == doctest::Approx(speed / in).epsilon(1e-5));
      forward[m] += f;
      backward[m] += b;
    }
  }
  // The wander really crossed every line both ways, and filled the areas.
  for (std::size_t m = 0; m < 4; ++m) {
    CHECK(forward[m] > 0);
    CHECK(backward[m] > 0);
  }
  CHECK(forward[0] + backward[0] > 20);
  // The crossings list them one by one, in time order, inside their steps.
  const MeasureSeries& s = w.crowd.measurements();
  std::size_t listed = 0;
  double last = 0;
  for (const Crossing& c : s.crossings) {
    CHECK(c.time >= last);
    last = c.time;
    CHECK(c.time >= static_cast<double>(c.step) / 60 - 1e-12);
    CHECK(c.time <= static_cast<double>(c.step + 1) / 60 + 1e-12);
    ++listed;
  }
  std::size_t counted = 0;
  for (std::size_t m = 0; m < 4; ++m) counted += forward[m] + backward[m];
  CHECK(listed == counted);
}

TEST_CASE("a line counts a walker through its very end, not one passing beside it nor one walking along it") {
  // One walker per crowd and no shake, so it walks a straight line.
  const auto crossings = [](Vec2 from, Vec2 to) {
    Crowd c;
    c.settings.jitter = 0;
    c.add(from, to);
    c.addMeasurement(line("gate", {0, -100}, {0, 100}));
    for (int k = 0; k < 200; ++k) c.advance();
    const MeasureFigures f = measureFigures(c.measurements())[0];
    return std::pair{f.forward, f.backward};
  };
  CHECK(crossings({-100, 100}, {100, 100}) == std::pair<std::size_t, std::size_t>{1, 0});   // through the end
  CHECK(crossings({100, -100}, {-100, -100}) == std::pair<std::size_t, std::size_t>{0, 1}); // the other end, back
  CHECK(crossings({-100, 100.5f}, {100, 100.5f}) == std::pair<std::size_t, std::size_t>{0, 0});  // beside it
  CHECK(crossings({0, -150}, {0, 150}) == std::pair<std::size_t, std::size_t>{0, 0});       // along it
  CHECK(crossings({-100, 0}, {0, 0}) == std::pair<std::size_t, std::size_t>{1, 0});         // onto it: crossed
}

TEST_CASE("measurements are the same on one thread and two, and never touch the state") {
  Wander one(1), two(2), plain(2);
  for (const Measurement& m : wanderMeasurements()) {
    one.crowd.addMeasurement(m);
    two.crowd.addMeasurement(m);
  }
  for (int k = 0; k < 200; ++k) {
    one.advance();
    two.advance();
    plain.advance();
  }
  const MeasureSeries &a = one.crowd.measurements(), &b = two.crowd.measurements();
  REQUIRE(a.samples.size() == b.samples.size());
  for (std::size_t k = 0; k < a.samples.size(); ++k) {
    CHECK(a.samples[k].forward == b.samples[k].forward);
    CHECK(a.samples[k].backward == b.samples[k].backward);
    CHECK(a.samples[k].inside == b.samples[k].inside);
    CHECK(a.samples[k].meanSpeed == b.samples[k].meanSpeed);
  }
  REQUIRE(a.crossings.size() == b.crossings.size());
  for (std::size_t k = 0; k < a.crossings.size(); ++k) {
    CHECK(a.crossings[k].id == b.crossings[k].id);
    CHECK(a.crossings[k].time == b.crossings[k].time);
    CHECK(a.crossings[k].measurement == b.crossings[k].measurement);
  }
  CHECK(one.crowd.stateHash() == plain.crowd.stateHash());
}

TEST_CASE("an area's figures: density from its count, and a line's flow, 95% time and peak") {
  MeasureSeries s;
  s.measurements = {line("l", {0, 0}, {0, 1}), area("a", {{0, 0}, {2, 0}, {2, 2}, {0, 2}})};
  s.area = {0, 4};
  for (int k = 0; k < 4; ++k) {
    s.time.push_back(k + 1);
    s.samples.push_back({});
    s.samples.push_back(MeasureSample{0, 0, static_cast<std::uint32_t>(4 * k), 1.0 + k});
  }
  // 20 crossings at 0.5 s apart from 1 s, one backward.
  for (int k = 0; k < 20; ++k) s.crossings.push_back({0, 1 + 0.5 * k, static_cast<std::uint64_t>(k), 0, k == 3 ? std::int8_t(-1) : std::int8_t(1)});
  const std::vector<MeasureFigures> f = measureFigures(s, 2);
  CHECK(f[0].forward == 19);
  CHECK(f[0].backward == 1);
  CHECK(f[0].meanFlow == doctest::Approx(2.0));
  CHECK(f[0].peakFlow == doctest::Approx(5.0 / 2));  // 5 crossings in 2 s
  CHECK(f[0].time95 == doctest::Approx(1 + 0.5 * 18));  // the 19th of 20
  CHECK(f[1].peakDensity == doctest::Approx(3.0));      // 12 in 4
  CHECK(f[1].meanDensity == doctest::Approx((0 + 1 + 2 + 3) / 4.0));
  CHECK(f[1].meanSpeed == doctest::Approx((4 * 2 + 8 * 3 + 12 * 4) / 24.0));
  CHECK(f[1].meanSpecificFlow == doctest::Approx((0 * 1 + 1 * 2 + 2 * 3 + 3 * 4) / 4.0));
}

TEST_CASE("a measurement that cannot be measured is refused with its name and why") {
  Crowd c;
  const auto why = [&c](const Measurement& m) {
    try {
      c.addMeasurement(m);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(why({"a", MeasureKind::Line, {{0, 0}}}).find("\"a\": a line needs exactly two points, got 1") != std::string::npos);
  CHECK(why({"b", MeasureKind::Line, {{1, 1}, {1, 1}}}).find("two distinct ends") != std::string::npos);
  CHECK(why({"c", MeasureKind::Area, {{0, 0}, {1, 0}}}).find("at least three points") != std::string::npos);
  CHECK(why({"d", MeasureKind::Area, {{0, 0}, {1, 0}, {2, 0}}}).find("nonzero area") != std::string::npos);
  CHECK(why({"e", MeasureKind::Line, {{0, 0}, {NAN, 0}}}).find("not finite") != std::string::npos);
  CHECK(c.measurements().measurements.empty());
  CHECK(c.addMeasurement(line("ok", {0, 0}, {1, 0})) == 0);
}

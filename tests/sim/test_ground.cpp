// The ground (geometry/ground.hpp): speed zones and stairs slow the wish under
// every model, and the fields' cost sees them, so field routing goes round
// slow ground.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "geometry/ground.hpp"
#include "throng/crowd.hpp"
#include "throng/fields.hpp"

using namespace throng;

namespace {

std::vector<Vec2> box(float x0, float y0, float x1, float y1) { return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}; }

/// One walker at 1.3 m/s from `from` to `to` along y = 5 over `t` under
/// `model` (Settings::pedestrian()): where it is along the way (x, or -x
/// heading west) and its speed, step by step.
struct Walk {
  std::vector<float> x, speed;
  /// The mean speed over the steps ending with x in [x0, x1] (BioCrowds'
  /// markers make a step's speed vary by a few per cent).
  double meanSpeed(float x0, float x1) const {
    double sum = 0;
    int n = 0;
    for (std::size_t k = 0; k < x.size(); ++k)
      if (x[k] >= x0 && x[k] <= x1) sum += speed[k], ++n;
    return n ? sum / n : -1;
  }
};

Walk walkEast(const std::string& model, const Terrain& t, Vec2 from = {0, 5}, Vec2 to = {30, 5}) {
  Settings s = Settings::pedestrian();
  s.model = model;
  Crowd c(s);
  c.add(from, to, 0.25f, 1.3f, 0);
  c.setTerrain(t);
  Walk w;
  for (int k = 0; k < 800; ++k) {
    c.advance(0.05);
    const Agent a = c.agent(0);
    w.x.push_back(to.x > from.x ? a.position.x : -a.position.x);
    w.speed.push_back(a.velocity.length());
    if (std::fabs(a.position.x - to.x) < 0.5f) break;
  }
  return w;
}

}  // namespace

TEST_CASE("groundSpeed: zones multiply, stairs take their limit by heading, the least of those that hold the point") {
  Terrain t;
  t.speedZones.push_back({box(0, 0, 10, 10), 0.5f});
  t.speedZones.push_back({box(5, 0, 10, 10), 0.8f});
  t.speedZones.push_back({box(20, 0, 30, 10), 1.0f});  // flat: left out
  t.stairs.push_back({box(0, 20, 10, 30), Vec2{0, 2}, 0.61f, 0.694f});
  t.stairs.push_back({box(5, 20, 10, 30), Vec2{0, 1}, 0.5f, 0.9f});
  t.stairs.push_back({{{0, 0}, {1, 0}}, Vec2{0, 1}, 0.1f, 0.1f});  // under three points: left out
  GroundShapes g;
  g.build(t);
  CHECK(g.regions.size() == 4);
  const GroundView v = g.view();
  const Vec2 north{0, 1}, south{0, -1}, east{1, 0};
  CHECK(groundSpeed(v, {2, 5}, east, 1.2f) == 1.2f * 0.5f);
  CHECK(groundSpeed(v, {7, 5}, east, 1.2f) == 1.2f * (0.5f * 0.8f));  // both zones, in order
  CHECK(groundSpeed(v, {25, 5}, east, 1.2f) == 1.2f);
  CHECK(groundSpeed(v, {2, 25}, north, 1.2f) == 0.61f);
  CHECK(groundSpeed(v, {2, 25}, south, 1.2f) == 0.694f);
  CHECK(groundSpeed(v, {2, 25}, east, 1.2f) == 0.61f);    // across the flight: the uphill limit
  CHECK(groundSpeed(v, {2, 25}, north, 0.4f) == 0.4f);    // slower than the limit: as wished
  CHECK(groundSpeed(v, {7, 25}, north, 1.2f) == 0.5f);    // two flights: the least
  CHECK(groundSpeed(v, {7, 25}, south, 1.2f) == 0.694f);
  CHECK(groundSpeed(v, {50, 50}, north, 1.2f) == 1.2f);
  bool slowed;
  const Vec2 w = groundWish(v, {2, 5}, Vec2{0.6f, 0.8f}, slowed);
  CHECK(slowed);
  CHECK(w.x == doctest::Approx(0.3f));
  CHECK(w.y == doctest::Approx(0.4f));
  CHECK(groundWish(v, {50, 50}, Vec2{0.6f, 0.8f}, slowed) == Vec2{0.6f, 0.8f});
  CHECK_FALSE(slowed);
  CHECK(groundWish(v, {2, 5}, Vec2{}, slowed) == Vec2{});
  CHECK_FALSE(slowed);
}

TEST_CASE("a walker crossing a speed zone and a flight of stairs walks at their speed inside, under every model") {
  Terrain zone;
  zone.speedZones.push_back({box(5, 0, 12, 10), 0.5f});
  Terrain stairs;
  stairs.stairs.push_back({box(5, 0, 15, 10), Vec2{1, 0}, 0.61f, 0.694f});
  for (const std::string model : {"orca", "biocrowds", "continuum"}) {
    CAPTURE(model);
    const Walk flat = walkEast(model, Terrain{});
    const Walk slow = walkEast(model, zone);
    CHECK(flat.meanSpeed(6, 11) == doctest::Approx(1.3).epsilon(0.04));
    CHECK(slow.meanSpeed(6, 11) == doctest::Approx(0.65).epsilon(0.04));
    CHECK(slow.meanSpeed(14, 20) == doctest::Approx(1.3).epsilon(0.04));  // out again
    const Walk up = walkEast(model, stairs);
    CHECK(up.meanSpeed(6, 14) == doctest::Approx(0.61).epsilon(0.04));
    const Walk down = walkEast(model, stairs, Vec2{20, 5}, Vec2{-10, 5});
    CHECK(down.meanSpeed(-14, -6) == doctest::Approx(0.694).epsilon(0.04));
    CHECK(down.meanSpeed(-4, 0) == doctest::Approx(1.3).epsilon(0.04));  // west of the flight
  }
}

TEST_CASE("field routing goes round a slow zone it would take longer to cross, and straight over flat ground") {
  // From (1, 5) to a strip at x 20; a zone of factor 0.1 across y 2-8
  // between x 8 and 12: four metres at 0.13 m/s, or round its end at y 8.
  const auto farthest = [](float factor, const std::string& routing) {
    Settings s = Settings::pedestrian();
    s.routing = routing;
    Crowd c(s);
    c.add(Vec2{1, 5}, Vec2{21, 5}, 0.25f, 1.3f, 0);
    Terrain t;
    t.targets.push_back({"east", {Rect{20, 0, 2, 10}}, {}, -1});
    if (factor < 1) t.speedZones.push_back({box(8, 2, 12, 8.5f), factor});
    c.setTerrain(t);
    float most = 0;
    double time = 0;
    for (int k = 0; k < 2000 && c.agent(0).position.x < 20; ++k) {
      c.advance(0.05);
      time += 0.05;
      most = std::max(most, std::fabs(c.agent(0).position.y - 5));
    }
    MESSAGE(routing << ", factor " << factor << ": " << most << " m off the line, " << time << " s to x 20");
    return std::pair{most, time};
  };
  const auto [flatOff, flatTime] = farthest(1, "field");
  const auto [roundOff, roundTime] = farthest(0.1f, "field");
  const auto [straightOff, straightTime] = farthest(0.1f, "goals");
  CHECK(flatOff < 0.5f);
  CHECK(roundOff > 3.0f);       // round the zone's north end
  CHECK(straightOff < 0.5f);    // a straight-line wish crosses it
  CHECK(roundTime < straightTime);
  CHECK(straightTime > flatTime + 25);  // four metres at a tenth of the speed
}

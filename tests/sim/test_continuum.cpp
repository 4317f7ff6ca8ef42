// Continuum Crowds and field routing through the Crowd API: a lone walker,
// the door found with no gate by every model, the thesis's high ground and
// high-density dispersal, and determinism (replay, threads).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "throng/crowd.hpp"

using namespace throng;

namespace {

Settings fieldSettings(const std::string& model, const std::string& routing = "field", int threads = 1) {
  Settings s;
  s.model = model;
  s.routing = routing;
  s.maxStep = 0.05;
  s.jitter = 0;
  s.threads = threads;
  s.timeHorizon = 1;
  s.obstacleTimeHorizon = 0.5f;
  s.perceptionRadius = 3;
  return s;
}

/// door.json's room: 10 m square, a door of `door` m in the east wall
/// centred on y = 5; the target a strip beyond it.
void doorRoom(Crowd& c, float door) {
  const std::vector<Vec2> wall{{10, 5 + door / 2}, {10, 10}, {0, 10}, {0, 0}, {10, 0}, {10, 5 - door / 2}};
  c.addWall(wall);
  Terrain t;
  t.targets.push_back({"outside", {Rect{14, 0, 3, 10}}, {}, -1});
  c.setTerrain(t);
}

/// Walkers on a jittered grid in [x0, x1] x [y0, y1], `spacing` apart.
void fill(Crowd& c, float x0, float y0, float x1, float y1, float spacing, int group = 0) {
  int k = 0;
  for (float y = y0; y <= y1; y += spacing)
    for (float x = x0; x <= x1; x += spacing, ++k) {
      const float jx = 0.05f * static_cast<float>((k * 7) % 5 - 2) / 2, jy = 0.05f * static_cast<float>((k * 3) % 5 - 2) / 2;
      c.add({x + jx, y + jy}, std::nullopt, 0.25f, 1.3f, group);
    }
}

float closestPair(const Crowd& c) {
  float worst = 1e9f;
  const FrameView f = c.frame();
  for (std::size_t i = 0; i < c.count(); ++i)
    for (std::size_t j = i + 1; j < c.count(); ++j) {
      const float d = std::hypot(f.px[i] - f.px[j], f.py[i] - f.py[j]) - f.radius[i] - f.radius[j];
      worst = std::min(worst, d);
    }
  return worst;
}

}  // namespace

TEST_CASE("continuum: a lone walker follows the potential straight to its target at its preferred speed") {
  Crowd c(fieldSettings("continuum"));
  Terrain t;
  t.targets.push_back({"east", {Rect{30, -5, 2, 10}}, {}, -1});
  c.setTerrain(t);
  c.add({0, 0}, std::nullopt, 0.25f, 1.3f);
  c.advance(1.0);
  const Agent a = c.agent(0);
  MESSAGE("after 1 s: at (" << a.position.x << ", " << a.position.y << "), velocity (" << a.velocity.x << ", "
                            << a.velocity.y << ")");
  CHECK(a.position.x == doctest::Approx(1.3).epsilon(0.03));
  CHECK(std::fabs(a.position.y) < 0.05);
  const FieldView v = c.fields(0);
  REQUIRE(v.cols > 0);
  CHECK(v.potentials == 1);
  CHECK(v.cell == doctest::Approx(1.0));  // four radii
  // It arrives: on its target's cells it stands (no goal of its own).
  c.advance(30.0);
  CHECK(c.agent(0).position.x > 29.5f);
}

TEST_CASE("field routing: ORCA, BioCrowds and continuum walkers leave the door room with no route gate") {
  for (const char* model : {"orca", "biocrowds", "continuum"}) {
    INFO(std::string(model));
    Settings s = fieldSettings(model);
    if (std::string(model) == "biocrowds") {
      s.personalSpace = 1;
      s.markerDensity = 16;
    }
    Crowd c(s);
    doorRoom(c, 1.2f);
    fill(c, 1, 1, 9, 9, 1.0f);
    const std::size_t n = c.count();
    double left = -1;
    for (int step = 0; step < 90 * 20 && left < 0; ++step) {
      c.advance(0.05);
      std::size_t inside = 0;
      const FrameView f = c.frame();
      for (std::size_t i = 0; i < n; ++i) inside += f.px[i] < 10.0f;
      if (inside == 0) left = c.time();
    }
    MESSAGE(std::string(model) << ": " << n << " walkers out of the room by " << left << " s");
    CHECK(left > 0);
    // and none through a wall: everyone out went through the door's gap.
    const FrameView f = c.frame();
    for (std::size_t i = 0; i < n; ++i) CHECK((f.px[i] > 10.0f || (f.py[i] > 0 && f.py[i] < 10)));
  }
}

TEST_CASE("continuum: a steep hill is walked around, a gentle one over (the thesis's high ground)") {
  const auto overTheTop = [](float height) {
    Settings s = fieldSettings("continuum");
    s.slopeMin = 0.1f;
    s.slopeMax = 0.4f;
    s.slopeSpeed = 0.1f;
    Crowd c(s);
    Terrain t;
    t.targets.push_back({"east", {Rect{20, -10, 2, 20}}, {}, -1});
    t.hills.push_back({Vec2{10, 0}, 4, height});
    c.setTerrain(t);
    for (int k = 0; k < 9; ++k) c.add({0, -2.0f + 0.5f * static_cast<float>(k)}, std::nullopt, 0.2f, 1.3f);
    // How many walkers pass within 1 m of the top.
    std::vector<int> passed(c.count(), 0);
    for (int step = 0; step < 40 * 20; ++step) {
      c.advance(0.05);
      for (std::size_t i = 0; i < c.count(); ++i) {
        const Agent a = c.agent(i);
        if (std::hypot(a.position.x - 10, a.position.y) < 1.0f) passed[i] = 1;
      }
    }
    int arrived = 0;
    for (std::size_t i = 0; i < c.count(); ++i) arrived += c.agent(i).position.x > 19.5f;
    CHECK(arrived == static_cast<int>(c.count()));
    int over = 0;
    for (int p : passed) over += p;
    return over;
  };
  const int gentle = overTheTop(0.2f);  // slope at most about 0.08: full speed
  const int steep = overTheTop(3.0f);   // slopes to about 1.1: a tenth of the speed
  MESSAGE("walkers over the top: gentle hill " << gentle << " of 9, steep hill " << steep << " of 9");
  CHECK(gentle >= 3);
  CHECK(steep == 0);
}

TEST_CASE("continuum: a dense crowd released in a closed room disperses, none inside a wall, discs apart") {
  Crowd c(fieldSettings("continuum"));
  // A closed 20 m room; the crowd packed at 3 per m² in its middle; the
  // target the room's floor along its walls.
  const std::vector<Vec2> room{{0, 0}, {20, 0}, {20, 20}, {0, 20}, {0, 0}};
  c.addWall(room);
  Terrain t;
  t.targets.push_back({"edges", {Rect{0.5f, 0.5f, 19, 2}, Rect{0.5f, 17.5f, 19, 2}, Rect{0.5f, 0.5f, 2, 19},
                                 Rect{17.5f, 0.5f, 2, 19}}, {}, -1});
  c.setTerrain(t);
  fill(c, 7, 7, 13, 13, 0.58f);
  const std::size_t n = c.count();
  const auto spread = [&] {
    double sum = 0;
    const FrameView f = c.frame();
    for (std::size_t i = 0; i < n; ++i) sum += std::hypot(f.px[i] - 10, f.py[i] - 10);
    return sum / static_cast<double>(n);
  };
  const double before = spread();
  const float gapBefore = closestPair(c);
  c.advance(20.0);
  const double after = spread();
  MESSAGE(n << " walkers: mean distance from the middle " << before << " m -> " << after << " m; closest gap "
            << gapBefore << " -> " << closestPair(c) << " m");
  CHECK(after > before + 3.0);
  CHECK(closestPair(c) > -0.05f * 0.5f);  // within the push's promise (kContinuumOverlap)
  const FrameView f = c.frame();
  for (std::size_t i = 0; i < n; ++i) {
    CHECK(f.px[i] >= 0.25f - 1e-4f);
    CHECK(f.px[i] <= 19.75f + 1e-4f);
    CHECK(f.py[i] >= 0.25f - 1e-4f);
    CHECK(f.py[i] <= 19.75f + 1e-4f);
  }
}

TEST_CASE("continuum: a run replays exactly and is the same on 1 and 2 threads") {
  const auto run = [](int threads) {
    Crowd c(fieldSettings("continuum", "field", threads));
    c.settings.jitter = 0.05f;
    c.settings.seed = 5;
    doorRoom(c, 1.2f);
    fill(c, 1, 1, 9, 9, 0.8f);
    c.advance(20.0);
    return c.stateHash();
  };
  const std::uint64_t one = run(1);
  CHECK(one == run(1));
  CHECK(one == run(2));
}

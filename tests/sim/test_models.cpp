// The seam between the step and a model (core/model.hpp): a second model,
// the tests' walk-straight, runs through it with no change outside its
// file and its registration; the model is switched live.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "../models/walk_straight.hpp"
#include "throng/crowd.hpp"
#include "throng/verify.hpp"

using namespace throng;

namespace {
Crowd headOn() {
  Crowd c;
  c.settings.jitter = 0;
  c.add(Vec2{-100, 0}, Vec2{100, 0});
  c.add(Vec2{100, 0}, Vec2{-100, 0});
  return c;
}
}  // namespace

TEST_CASE("a second model steps through the seam: walk-straight walks through a head-on walker") {
  test::registerWalkStraight();
  Crowd orca = headOn(), walk = headOn();
  walk.setModel(test::WalkStraight::kName);
  for (int k = 0; k < 60; ++k) {
    orca.advance();
    walk.advance();
  }
  // 60 steps of 1/60 s at 120 units/s: 120 units straight along x, through the other walker.
  CHECK(walk.agent(0).position.x == doctest::Approx(20.0f).epsilon(1e-5));
  CHECK(walk.agent(0).position.y == 0.0f);
  CHECK(walk.agent(1).position.x == doctest::Approx(-20.0f).epsilon(1e-5));
  CHECK(walk.lastStats().jammed == 0);
  // ORCA made room: they passed beside each other.
  CHECK(std::fabs(orca.agent(0).position.y) > 1.0f);
  // The teaching view asks the model too.
  const AgentExplain ex = walk.explain(0);
  CHECK(ex.chosen.x == doctest::Approx(120.0f));
  CHECK(ex.agentLines.empty());
  // Its teaching view is its own: the renderer draws it by role.
  REQUIRE(ex.teaching.shapes.size() == 3);
  CHECK(ex.teaching.shapes[2].role == TeachRole::Chosen);
  CHECK(ex.teaching.shapes[2].points[1] == ex.chosen);
  REQUIRE(ex.teaching.notes.size() == 1);
}

TEST_CASE("switching the model keeps the walkers, goals and routes, and replays exactly at any thread count") {
  test::registerWalkStraight();
  const auto run = [](int threads) {
    Crowd c;
    c.settings.threads = threads;
    for (int i = 0; i < 40; ++i) {
      const float a = 6.2831853f * static_cast<float>(i) / 40;
      c.add(Vec2{300 * std::cos(a), 300 * std::sin(a)}, Vec2{-300 * std::cos(a), -300 * std::sin(a)});
    }
    const int route = c.addRoute({Waypoint{{-50, 400}, {50, 400}}});
    c.setRoute(3, route);
    for (int k = 0; k < 200; ++k) {
      if (k == 50) c.setModel(test::WalkStraight::kName);
      if (k == 90) c.setModel("orca");
      c.advance();
    }
    return c;
  };
  Crowd a = run(1), b = run(2), again = run(1);
  CHECK(a.stateHash() == again.stateHash());
  CHECK(a.stateHash() == b.stateHash());
  CHECK(a.count() == 40);
  CHECK(a.routeOf(3).first == 0);
  CHECK(a.settings.model == "orca");
}

TEST_CASE("an unknown model is refused at once and at the next step, naming the models there are") {
  Crowd c = headOn();
  try {
    c.setModel("social-force");
    FAIL("setModel took an unknown model");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).find("Crowd::setModel: \"social-force\" is not a model (orca") == 0);
  }
  c.settings.model = "nope";
  CHECK_THROWS_AS(c.advance(), std::invalid_argument);
  CHECK(c.stepCount() == 0);
}

TEST_CASE("the separation gate holds each model to its own promise") {
  test::registerWalkStraight();
  // The walk-straight model promises nothing: its head-on pair walks through
  // each other, which ORCA's promise (apart stays apart) calls a defect.
  Crowd c = headOn();
  c.setModel(test::WalkStraight::kName);
  GateReport asOrca, asItself;
  for (int k = 0; k < 100; ++k) {
    const FrameView before = c.frame();
    std::vector<Vec2> from, to;
    for (std::size_t i = 0; i < c.count(); ++i) from.push_back({before.px[i], before.py[i]});
    c.advance();
    const FrameView after = c.frame();
    for (std::size_t i = 0; i < c.count(); ++i) to.push_back({after.px[i], after.py[i]});
    const std::vector<float> r(after.radius.begin(), after.radius.end());
    const std::vector<std::uint8_t> jam(after.jammed.begin(), after.jammed.end());
    const GateStep step{from, to, r, jam, {}};
    asOrca.merge(checkStep(step, {}, 1e-4f, overlapPromiseOf("orca")));
    asItself.merge(checkStep(step, {}, 1e-4f, overlapPromiseOf(test::WalkStraight::kName)));
  }
  CHECK(asOrca.unjammedOverlaps > 0);
  CHECK(asItself.unjammedOverlaps == 0);
  CHECK(asItself.maxOverlap > 10.0f);  // it did overlap
  const OverlapPromise orca = overlapPromiseOf("orca");
  CHECK(orca.fromApart == 0.0f);
  CHECK(orca.inContact == doctest::Approx(0.00101f));
}

TEST_CASE("the spring baseline overlaps and bounces where ORCA passes: the seed's naive counter-example") {
  // The first seed's reproducer in metres: two walkers of 0.3 m head-on at
  // 1.6 m/s, steps of 0.1 s.
  auto pair = [](const char* model) {
    Settings s;
    s.model = model;
    s.jitter = 0;
    s.maxStep = 0.1f;
    Crowd c(s);
    c.add({-2, 0}, Vec2{20, 0}, 0.3f, 1.6f);
    c.add({2, 0}, Vec2{-20, 0}, 0.3f, 1.6f);
    return c;
  };
  Crowd spring = pair("spring"), orca = pair("orca");
  float springGap = 1e9f, orcaGap = 1e9f;
  int turns = 0;
  float lastVx = spring.agent(0).velocity.x;
  for (int k = 0; k < 80; ++k) {
    spring.advance(0.1);
    orca.advance(0.1);
    springGap = std::min(springGap, (spring.agent(0).position - spring.agent(1).position).length() - 0.6f);
    orcaGap = std::min(orcaGap, (orca.agent(0).position - orca.agent(1).position).length() - 0.6f);
    const float vx = spring.agent(0).velocity.x;
    turns += (vx > 0) != (lastVx > 0) && std::fabs(vx) > 0.1f;
    lastVx = vx;
  }
  MESSAGE("closest gap: spring " << springGap << " m, orca " << orcaGap << " m; the spring's walker turned " << turns
                                 << " times");
  CHECK(springGap < -0.1f);  // interpenetrated before the push fired
  CHECK(orcaGap > -1e-3f);
  CHECK(turns >= 3);  // back and forth: the whole correction each, every time
  // Its own teaching view, drawn by role: a ring round whom it overlaps, the push.
  Crowd touching = pair("spring");
  touching.setAgent(1, Agent{{-1.7f, 0.1f}, {}, Vec2{-20, 0}, 0.3f, 1.6f});
  const AgentExplain ex = touching.explain(0, 0.1);
  CHECK(ex.neighbours == std::vector<std::size_t>{1});
  CHECK(ex.chosen.length() == doctest::Approx(1.6f));
  CHECK(ex.chosen.x < 0);  // away from the one it overlaps, against its wish
  bool push = false;
  for (const TeachShape& sh : ex.teaching.shapes) push |= sh.role == TeachRole::Push;
  CHECK(push);
  // It promises nothing, so the gate judges nothing of it.
  CHECK(findModel("spring") != nullptr);
  CHECK(std::isinf(findModel("spring")->overlap.fromApart));
}

// Behaviour of Crowd: every promise of the seed, each with a failing counterpart.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "throng/crowd.hpp"
#include "core/world.hpp"
#include "throng/verify.hpp"
#include "../bench/scenarios.hpp"

using namespace throng;

namespace {
constexpr float kTau = 6.2831853f;

/// The seed's quick start: `n` walkers on a ring crossing to the antipode.
Crowd ring(int n = 60, Settings s = {}, float radius = 440) {
  Crowd c(s);
  const Vec2 centre{500, 500};
  for (int i = 0; i < n; ++i) {
    const float a = static_cast<float>(i) / n * kTau;
    const Vec2 spot = centre + Vec2{std::cos(a), std::sin(a)} * radius;
    c.add(spot, centre - (spot - centre));
  }
  return c;
}

struct RunReport {
  GateReport gate;
  int steps = 0;
  bool allArrived = false;
  std::size_t jammedSteps = 0;
};

/// Advances by 1/60 until all arrive or maxSteps, gating every step.
RunReport run(Crowd& c, int maxSteps, bool stopOnArrival = true) {
  RunReport r;
  std::vector<Vec2> from, to;
  std::vector<float> radius;
  std::vector<std::uint8_t> jammed;
  GateGeometry g{c.obstacles(), c.walls()};
  for (int s = 0; s < maxSteps; ++s) {
    from.clear();
    for (std::size_t i = 0; i < c.count(); ++i) from.push_back(c.agent(i).position);
    c.advance();
    to.clear(); radius.clear(); jammed.clear();
    for (std::size_t i = 0; i < c.count(); ++i) {
      const Agent a = c.agent(i);
      to.push_back(a.position);
      radius.push_back(a.radius);
      jammed.push_back(a.isJammed);
    }
    r.gate.merge(checkStep({from, to, radius, jammed, {}}, g));
    r.jammedSteps += c.lastStats().jammed;
    r.steps = s + 1;
    if (stopOnArrival && c.lastStats().arrived == c.count()) {
      r.allArrived = true;
      break;
    }
  }
  r.allArrived = c.lastStats().arrived == c.count();
  return r;
}
}  // namespace

TEST_CASE("a head-on pair passes at the sum of radii and both arrive") {
  Settings s;
  s.jitter = 0;
  Crowd c(s);
  c.add({0, 0}, Vec2{400, 0});
  c.add({400, 0}, Vec2{0, 0});
  const RunReport r = run(c, 600);
  CHECK(r.allArrived);
  CHECK(r.gate.unjammedOverlaps == 0);
  CHECK(r.gate.minGap > -0.01f);   // never overlap...
  CHECK(r.gate.minGap < 2.0f);     // ...but pass close, not in a wide berth
  CHECK(c.agent(0).position == Vec2{400, 0});  // landed exactly
  CHECK(c.agent(1).position == Vec2{0, 0});
}

TEST_CASE("counterfactual: with maxNeighbors 0 the head-on pair collides") {
  Settings s;
  s.jitter = 0;
  s.maxNeighbors = 0;
  Crowd c(s);
  c.add({0, 0}, Vec2{400, 0});
  c.add({400, 0}, Vec2{0, 0});
  const RunReport r = run(c, 600);
  CHECK(r.gate.minGap < -15.0f);  // straight through each other
  CHECK(r.gate.unjammedOverlaps > 0);
}

TEST_CASE("the seed's ring of sixty arrives with only jammed overlaps") {
  Crowd c = ring();
  const RunReport r = run(c, 60 * 40);
  CHECK(r.allArrived);
  CHECK(r.steps < 60 * 25);  // the seed: about thirteen seconds
  CHECK(r.gate.unjammedOverlaps == 0);
  CHECK(r.gate.maxOverlap < 4.0f);  // a small part of a radius (8)
  MESSAGE("ring60: steps " << r.steps << ", jammed agent-steps " << r.jammedSteps << ", max overlap "
                           << r.gate.maxOverlap);
}

TEST_CASE("replay: the same additions, settings and seed give the same state") {
  Crowd a = ring(), b = ring();
  for (int i = 0; i < 300; ++i) { a.advance(); b.advance(); }
  CHECK(a.stateHash() == b.stateHash());
  Settings other;
  other.seed = 1;
  Crowd c = ring(60, other);
  for (int i = 0; i < 300; ++i) c.advance();
  CHECK(c.stateHash() != a.stateHash());  // the seed matters
}

TEST_CASE("threads: 1 and 2 threads give the same state") {
  Settings s1, s2;
  s1.threads = 1;
  s2.threads = 2;
  Crowd a = ring(200, s1, 900), b = ring(200, s2, 900);
  for (int i = 0; i < 240; ++i) { a.advance(); b.advance(); }
  CHECK(a.stateHash() == b.stateHash());
}

TEST_CASE("advance(1/30) equals two advance(1/60), and advance(by) splits evenly") {
  Crowd a = ring(), b = ring();
  for (int i = 0; i < 60; ++i) {
    a.advance(1.0 / 30);
    b.advance(1.0 / 60);
    b.advance(1.0 / 60);
  }
  CHECK(a.stateHash() == b.stateHash());
  CHECK(a.stepCount() == 120);
  Crowd c = ring();
  c.advance(0.1);  // six steps of 1/60
  CHECK(c.stepCount() == 6);
}

TEST_CASE("jitter 0 gives a run with no randomness: the seed no longer matters") {
  Settings s0, s1;
  s0.jitter = s1.jitter = 0;
  s1.seed = 99;
  Crowd a = ring(60, s0), b = ring(60, s1);
  for (int i = 0; i < 200; ++i) { a.advance(); b.advance(); }
  CHECK(a.stateHash() == b.stateHash());
}

TEST_CASE("a slow head-on pair passes with jitter 0 where RVO2 deadlocks") {
  // r 0.3, dt 0.1, tau 2, preferred speeds of 0.7 and below.
  for (float speed : {0.7f, 0.4f, 0.2f}) {
    Settings s;
    s.jitter = 0;
    s.timeHorizon = 2;
    s.obstacleTimeHorizon = 2;
    s.perceptionRadius = 5;
    s.maxStep = 0.1;
    Crowd c(s);
    c.add({-3, 0}, Vec2{3, 0}, 0.3f, speed);
    c.add({3, 0}, Vec2{-3, 0}, 0.3f, speed);
    int steps = 0;
    for (; steps < 2000 && c.lastStats().arrived < 2; ++steps) c.advance(0.1);
    INFO("speed " << speed);
    CHECK(c.lastStats().arrived == 2);
    // Passing on the right: agent 0 (moving +x) swung to -y.
    CHECK(steps < 6.0f / speed / 0.1f * 2.0f);
  }
}

TEST_CASE("coincident agents separate") {
  Settings s;
  s.jitter = 0;
  Crowd c(s);
  c.add({0, 0});
  c.add({0, 0});
  for (int i = 0; i < 30; ++i) c.advance();
  const float d = (c.agent(0).position - c.agent(1).position).length();
  CHECK(std::isfinite(d));
  // Apart to contact, to within the 0.1% of r_A + r_B that counts as
  // touching (kContactSq): jammed while they overlap, each leans toward its
  // wish, standing still, by up to kJamSlack of its top speed.
  CHECK(d >= 16 * 0.999f - 1e-3f);
  CHECK(c.agent(0).velocity.length() < 1e-3f);  // then both stand
}

TEST_CASE("a walker with no goal stands but steps aside") {
  Settings s;
  s.jitter = 0;
  Crowd c(s);
  c.add({0, 0}, Vec2{400, 2});
  c.add({200, 0});  // stands in the way
  const RunReport r = run(c, 600, false);
  CHECK(r.gate.unjammedOverlaps == 0);
  CHECK(c.agent(0).position == Vec2{400, 2});
  CHECK(c.agent(1).velocity.length() < 1e-3f);  // back at rest
  CHECK((c.agent(1).position - Vec2{200, 0}).length() > 0.5f);  // it moved aside
}

TEST_CASE("slowingRadius eases a walker down as it nears its goal") {
  Settings s;
  s.jitter = 0;
  s.slowingRadius = 100;
  Crowd c(s);
  c.add({0, 0}, Vec2{300, 0});
  for (int i = 0; i < 60 * 2 + 30; ++i) c.advance();  // 2.5 s: 250 units at full speed would pass 200
  const Agent a = c.agent(0);
  CHECK(a.position.x > 200);
  CHECK(a.velocity.x < 120 * 0.9f);
  CHECK(a.velocity.x > 0);
  for (int i = 0; i < 600; ++i) c.advance();
  CHECK(c.agent(0).position == Vec2{300, 0});
}

TEST_CASE("walls hold from both sides and at bends") {
  Settings s;
  s.jitter = 0;
  Crowd c(s);
  // A bent wall (an L) between walkers and their goals, from both sides.
  const Vec2 wall[3] = {{0, -200}, {0, 0}, {200, 0}};
  c.addWall(std::span<const Vec2>(wall, 3));
  for (int k = 0; k < 5; ++k) {
    c.add({-100, -150 + 25.0f * k}, Vec2{100, -150 + 25.0f * k});  // through the long arm, left to right
    c.add({100, -100 + 20.0f * k}, Vec2{-100, -100 + 20.0f * k});  // from inside the corner outward
    c.add({50 + 30.0f * k, 100}, Vec2{50 + 30.0f * k, -100});      // down through the short arm
  }
  const RunReport r = run(c, 600, false);
  CHECK(r.gate.maxWallIntrusion <= 1e-2f);
  for (std::size_t i = 0; i < c.count(); ++i) {
    const Agent a = c.agent(i);
    INFO("walker " << i);
    // Nobody crossed: the long arm's walkers stay on their side of x = 0 when below y = 0, etc.
    if (i % 3 == 0) CHECK(a.position.x < 0);
    if (i % 3 == 1) CHECK(a.position.x > 0);
    if (i % 3 == 2) CHECK(a.position.y > 0);
  }
}

TEST_CASE("counterfactual: without the wall the same walkers cross") {
  Settings s;
  s.jitter = 0;
  Crowd c(s);
  c.add({-100, -150}, Vec2{100, -150});
  for (int i = 0; i < 600; ++i) c.advance();
  CHECK(c.agent(0).position.x > 0);
}

TEST_CASE("obstacles of either winding, convex or not, keep walkers out") {
  for (bool clockwise : {false, true}) {
    Settings s;
    s.jitter = 0;
    Crowd c(s);
    // A U-shaped (non-convex) block between walkers and goals.
    std::vector<Vec2> u = {{-50, -50}, {50, -50}, {50, 50}, {20, 50}, {20, -20}, {-20, -20}, {-20, 50}, {-50, 50}};
    if (clockwise) std::reverse(u.begin(), u.end());
    c.addObstacle(u);
    c.addObstacle(Rect{100, -20, 40, 40});
    for (int k = 0; k < 6; ++k) {
      c.add({-150, -60 + 24.0f * k}, Vec2{250, 60 - 24.0f * k});
      c.add({0, 150 + 10.0f * k}, Vec2{0, -150 - 10.0f * k});  // into the U's mouth and through its floor
    }
    const RunReport r = run(c, 900, false);
    INFO("clockwise " << clockwise);
    CHECK(r.gate.maxWallIntrusion <= 1e-2f);
    CHECK(r.gate.unjammedOverlaps == 0);
  }
}

TEST_CASE("obstacles are read back as given and removeAllObstacles clears both kinds") {
  Crowd c;
  c.addObstacle(Rect{0, 0, 10, 10});
  c.addWall({0, 0}, {5, 5});
  REQUIRE(c.obstacles().size() == 1);
  REQUIRE(c.walls().size() == 1);
  CHECK(c.obstacles()[0].size() == 4);
  c.removeAllObstacles();
  CHECK(c.obstacles().empty());
  CHECK(c.walls().empty());
}

TEST_CASE("removeAgents keeps the others' order and ids are stable") {
  Crowd c;
  for (int i = 0; i < 5; ++i) c.add({static_cast<float>(i * 50), 0});
  const auto id3 = c.id(3);
  c.removeAgents([](const Agent& a) { return a.position.x == 50 || a.position.x == 100; });
  REQUIRE(c.count() == 3);
  CHECK(c.agent(0).position.x == 0);
  CHECK(c.agent(1).position.x == 150);
  CHECK(c.agent(2).position.x == 200);
  CHECK(c.id(1) == id3);
  const std::size_t k = c.add({500, 0});
  CHECK(c.id(k) == 5);  // ids are never reused
}

TEST_CASE("setAgent shoves a walker, which then corrects") {
  Settings s;
  s.jitter = 0;
  Crowd c(s);
  c.add({0, 0}, Vec2{0, 0});
  Agent a = c.agent(0);
  a.velocity = {0, 100};
  c.setAgent(0, a);
  c.advance();
  CHECK(c.agent(0).velocity.length() < 100);  // corrected towards the (zero) wish
  for (int i = 0; i < 120; ++i) c.advance();
  CHECK(c.agent(0).position == Vec2{0, 0});
}

TEST_CASE("preferredVelocity replaces goals, empty returns to goals") {
  Settings s;
  s.jitter = 0;
  Crowd c(s);
  c.add({0, 0}, Vec2{-100, 0});
  c.preferredVelocity = [](const Agent& a) { return Vec2{a.maxSpeed, 0}; };
  for (int i = 0; i < 30; ++i) c.advance();
  CHECK(c.agent(0).position.x == doctest::Approx(60).epsilon(1e-3));
  c.preferredVelocity = nullptr;
  for (int i = 0; i < 120; ++i) c.advance();
  CHECK(c.agent(0).position == Vec2{-100, 0});
}

TEST_CASE("group streams and routes steer without a closure") {
  Settings s;
  s.jitter = 0;
  Crowd c(s);
  c.setGroupVelocity(2, Vec2{50, 0});
  c.add({0, 0}, std::nullopt, 8, 120, 2);
  // A walker behind a wall with a door at x in [0, 40] of y = 0: route through the door.
  const Vec2 left[2] = {{-300, 0}, {0, 0}}, right[2] = {{40, 0}, {300, 0}};
  c.addWall(std::span<const Vec2>(left, 2));
  c.addWall(std::span<const Vec2>(right, 2));
  const int route = c.addRoute({Waypoint{{0, 0}, {40, 0}}});
  const std::size_t w = c.add({-200, -100}, Vec2{-200, 100});
  c.setRoute(w, route);
  for (int i = 0; i < 60 * 8; ++i) c.advance();
  CHECK(c.agent(0).position.x == doctest::Approx(400).epsilon(1e-3));
  CHECK(c.routeOf(w).second == 1);
  CHECK(c.agent(w).position == Vec2{-200, 100});
  // Counterfactual: without the route the wall holds it below.
  Crowd d(s);
  d.addWall(std::span<const Vec2>(left, 2));
  d.addWall(std::span<const Vec2>(right, 2));
  d.add({-200, -100}, Vec2{-200, 100});
  for (int i = 0; i < 60 * 8; ++i) d.advance();
  CHECK(d.agent(0).position.y < 0);
}

TEST_CASE("explain shows the neighbours, lines and choice the step will make") {
  Settings s;
  s.jitter = 0;
  Crowd c(s);
  c.add({0, 0}, Vec2{400, 0});
  c.add({60, 1}, Vec2{-400, 0});
  c.add({0, 300});  // out of perception
  c.advance();
  const AgentExplain e = c.explain(0);
  REQUIRE(e.neighbours.size() == 1);
  CHECK(e.neighbours[0] == 1);
  CHECK(e.agentLines.size() == 1);
  CHECK(e.obstacleLines.empty());
  CHECK(e.preferred.x == doctest::Approx(120));
  c.advance();
  CHECK(c.agent(0).velocity == e.chosen);  // the step chose what explain said
  // Asked again without a change it answers the same; after a shove, or a
  // shorter perception, it sees the new state (its grid is rebuilt).
  CHECK(c.explain(0).neighbours == c.explain(0).neighbours);
  Agent far = c.agent(2);
  far.position = c.agent(0).position + Vec2{0, 20};
  c.setAgent(2, far);
  CHECK(c.explain(0).neighbours == std::vector<std::size_t>{2, 1});
  c.settings.perceptionRadius = 30;
  CHECK(c.explain(0).neighbours == std::vector<std::size_t>{2});
}

TEST_CASE("explain takes the step's own dt, as advance(by) splits it") {
  // A pair overlapping: the line depends on the step (part by its end).
  Settings s;
  s.jitter = 0;
  s.maxStep = 0.05;
  Crowd c(s);
  c.add({0, 0}, Vec2{400, 0});
  c.add({12, 0}, Vec2{-400, 0});
  const AgentExplain slow = c.explain(0, 0.05);
  const AgentExplain split = c.explain(0, 0.2);  // four steps of 0.05
  CHECK(split.chosen == slow.chosen);
  CHECK(c.explain(0, 1.0 / 60).chosen != slow.chosen);
  c.advance(0.05);
  CHECK(c.agent(0).velocity == slow.chosen);
}

TEST_CASE("Crowd is movable") {
  Crowd a = ring(10);
  a.advance();
  const auto h = a.stateHash();
  Crowd b = std::move(a);
  CHECK(b.stateHash() == h);
  b.advance();
  CHECK(b.count() == 10);
}

TEST_CASE("settings out of their limits are clamped, not fatal") {
  Settings s;
  s.timeHorizon = -1;
  s.maxNeighbors = 1000;
  s.jitter = std::nanf("");
  s.perceptionRadius = -5;
  const Settings t = sanitized(s);
  CHECK(t.timeHorizon > 0);
  CHECK(t.maxNeighbors == kMaxNeighbors);
  CHECK(t.jitter == Settings{}.jitter);
  CHECK(t.perceptionRadius == 0);
  Crowd c = ring(10, s);
  c.advance();
  CHECK(std::isfinite(c.agent(0).position.x));
}

TEST_CASE("a preferred speed below maxSpeed sets the walking pace") {
  Settings s;
  s.jitter = 0;
  Crowd c(s);
  c.add({0, 0}, Vec2{1000, 0});
  c.setPreferredSpeed(0, 60);
  CHECK(c.preferredSpeed(0) == 60);
  for (int i = 0; i < 60; ++i) c.advance();
  CHECK(c.agent(0).position.x == doctest::Approx(60).epsilon(1e-3));
  c.setPreferredSpeed(0, 500);  // above maxSpeed: capped
  CHECK(c.preferredSpeed(0) == 120);
  c.setPreferredSpeed(0, 0);
  c.advance();
  CHECK(c.agent(0).velocity.x == doctest::Approx(120));
}

TEST_CASE("RVO2's own Circle of 250 arrives, overlapping only while jammed, about as deep as RVO2") {
  // RVO2 2.0.2: 3,547 steps until all arrive, overlaps up to 22% of 2r, and
  // overlaps outside the jam too. Here: none outside it. How long the jam
  // takes to clear is chaotic: with jammed walkers leaning toward their
  // wish (leanTowardWish) it is 2,280-2,960 steps over jitter seeds 0-23,
  // and 2,347 with jitter 0 (without the lean: 2,700-4,650, and 4,771).
  // tests/quality compares the trajectory with RVO2's itself.
  for (float jitter : {0.0f, 0.05f}) {
    Crowd c = bench::circle(250, 0);
    c.settings.jitter = jitter;
    GateReport gate;
    std::vector<Vec2> from, to;
    std::vector<float> radius(250, 1.5f);
    std::vector<std::uint8_t> jammed(250);
    int steps = 0;
    for (; steps < 6000 && c.lastStats().arrived < c.count(); ++steps) {
      from.clear();
      to.clear();
      for (std::size_t i = 0; i < c.count(); ++i) from.push_back(c.agent(i).position);
      c.advance(bench::kStep);
      for (std::size_t i = 0; i < c.count(); ++i) {
        to.push_back(c.agent(i).position);
        jammed[i] = c.agent(i).isJammed;
      }
      gate.merge(checkStep({from, to, radius, jammed, {}}));
    }
    INFO("jitter " << jitter);
    MESSAGE("circle250 jitter " << jitter << ": " << steps << " steps, max overlap "
                                << 100 * gate.maxOverlap / 3.0f << "% of 2r");
    CHECK(c.lastStats().arrived == c.count());
    CHECK(steps < 5500);
    CHECK(gate.unjammedOverlaps == 0);
    CHECK(gate.maxOverlap < (jitter == 0 ? 0.20f : 0.25f) * 3.0f);
  }
}

TEST_CASE("with the seed's jitter RVO2's Circle of 250 clears much sooner than in RVO2 (seeds 1-3)") {
  // RVO2 2.0.2 takes 3,547 steps. Seeds 1-3 here: 2,532, 2,487 and 2,612
  // (seed 0, above: 2,885). Without the lean: 2,742, 3,258 and 3,318.
  int total = 0;
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    Crowd c = bench::circle(250, 0);
    c.settings.jitter = Settings{}.jitter;  // the seed's 0.05
    c.settings.seed = seed;
    int steps = 0;
    for (; steps < 6000 && c.lastStats().arrived < c.count(); ++steps) c.advance(bench::kStep);
    INFO("seed " << seed << ": " << steps << " steps");
    CHECK(c.lastStats().arrived == c.count());
    CHECK(steps < 3200);
    total += steps;
  }
  CHECK(total < 3 * 2900);
}

TEST_CASE("a drained or standing crowd leaves the obstacle grid alone") {
  // A long wall makes the grid's cells at least 1000/1024 wide, far more
  // than a standing walker's reach: a grid sized by the clamped cell rather
  // than the reach it was built for was rebuilt, at 1024 x 1024 cells, every step.
  Crowd c;
  c.addWall(Vec2{0, 0}, Vec2{1000, 0});
  for (int i = 0; i < 20; ++i) c.add(Vec2{10.0f + 3.0f * static_cast<float>(i), 5}, std::nullopt, 0.25f, 0.0f);
  c.advance();
  const std::uint64_t standing = std::as_const(c).world().obstacles.gridBuilds;
  for (int k = 0; k < 30; ++k) c.advance();
  CHECK(std::as_const(c).world().obstacles.gridBuilds == standing);
  c.removeAgents([](const Agent&) { return true; });
  for (int k = 0; k < 30; ++k) c.advance();
  CHECK(std::as_const(c).world().obstacles.gridBuilds == standing);  // nobody to look for an edge
  // A walker that can move again refits it once.
  c.add(Vec2{20, 5}, Vec2{900, 5}, 0.25f, 1.4f);
  for (int k = 0; k < 30; ++k) c.advance();
  CHECK(std::as_const(c).world().obstacles.gridBuilds == standing + 1);
}

TEST_CASE("the API refuses a bad index or a non-finite value, names the call, and leaves the crowd as it was") {
  Crowd c;
  c.add(Vec2{0, 0}, Vec2{100, 0});
  c.add(Vec2{50, 0}, Vec2{-100, 0});
  c.addWall(Vec2{0, 30}, Vec2{100, 30});
  c.advance();
  const std::uint64_t before = c.stateHash();
  const float nan = std::nanf(""), inf = INFINITY;
  const auto throwsWith = [](auto&& call, const std::string& text) {
    try {
      call();
    } catch (const std::exception& e) {
      INFO(e.what());
      CHECK(std::string(e.what()).find(text) != std::string::npos);
      return true;
    }
    return false;
  };
  // Indices: every call that takes one.
  CHECK_THROWS_AS((void)c.agent(2), std::out_of_range);
  CHECK(throwsWith([&] { (void)c.agent(2); }, "Crowd::agent: walker 2 is out of range (2 walkers)"));
  CHECK_THROWS_AS((void)c.id(7), std::out_of_range);
  CHECK_THROWS_AS(c.setAgent(2, Agent{}), std::out_of_range);
  CHECK_THROWS_AS(c.setPreferredSpeed(9, 1), std::out_of_range);
  CHECK_THROWS_AS((void)c.preferredSpeed(9), std::out_of_range);
  CHECK_THROWS_AS(c.setRoute(5, -1), std::out_of_range);
  CHECK_THROWS_AS((void)c.routeOf(5), std::out_of_range);
  CHECK_THROWS_AS((void)c.explain(2), std::out_of_range);
  // Values.
  CHECK(throwsWith([&] { c.add(Vec2{nan, 0}); }, "Crowd::add: position (nan, 0) is not finite"));
  CHECK(throwsWith([&] { c.add(Vec2{0, 0}, Vec2{inf, 0}); }, "Crowd::add: goal (inf, 0) is not finite"));
  CHECK(throwsWith([&] { c.add(Vec2{0, 0}, {}, -1); }, "Crowd::add: radius -1 is not a finite number > 0"));
  CHECK(throwsWith([&] { c.add(Vec2{0, 0}, {}, 8, nan); }, "maxSpeed nan"));
  Agent a = c.agent(0);
  a.velocity = Vec2{0, nan};
  CHECK(throwsWith([&] { c.setAgent(0, a); }, "Crowd::setAgent: velocity (0, nan) is not finite"));
  CHECK(throwsWith([&] { c.setPreferredSpeed(0, nan); }, "Crowd::setPreferredSpeed: speed nan is not finite"));
  const Vec2 bad[] = {{0, 0}, {nan, 1}, {2, 2}};
  CHECK(throwsWith([&] { c.addObstacle(bad); }, "Crowd::addObstacle: point (nan, 1) is not finite"));
  CHECK(throwsWith([&] { c.addWall(bad); }, "Crowd::addWall: point"));
  CHECK(throwsWith([&] { c.addRoute({Waypoint{{0, 0}, {inf, 0}}}); }, "Crowd::addRoute: gate end (inf, 0)"));
  CHECK(throwsWith([&] { c.setGroupVelocity(1, Vec2{nan, 0}); }, "Crowd::setGroupVelocity"));
  CHECK(throwsWith([&] { c.setRoute(0, 0); }, "route 0 is not -1 or one of the 0 routes added"));
  CHECK(throwsWith([&] { c.advance(-1); }, "Crowd::advance: -1 s is not a finite number >= 0"));
  CHECK(throwsWith([&] { c.advance(inf); }, "Crowd::advance: inf s"));
  // 6e10 steps of 1/60 s would never end: refused at once.
  CHECK(throwsWith([&] { c.advance(1e9); }, "more than 1000000 at once: advance in parts"));
  c.advance(0);  // nothing
  CHECK(c.count() == 2);
  CHECK(c.obstacles().empty());
  CHECK(c.walls().size() == 1);
  CHECK(c.stateHash() == before);
  CHECK(c.stepCount() == 1);
}

TEST_CASE("outside a jam the seed's ring overlaps only within ORCA's contact overlap, on every seed and step") {
  // Pairs in contact (within 0.1% of r_A + r_B) are not pushed apart, and
  // close by at most 0.001% a step; deeper overlaps carried out of a jam
  // are undone. So unjammed pairs overlap by up to 0.101% of r_A + r_B,
  // and the ring of sixty comes within a hair of it.
  float deepest = 0;
  for (std::uint64_t seed = 0; seed < 8; ++seed) {
    Crowd c = ring();
    c.settings.seed = seed;
    for (int k = 0; k < 60 * 8; ++k) {
      c.advance();
      const FrameView f = c.frame();
      for (std::size_t i = 0; i < c.count(); ++i)
        for (std::size_t j = i + 1; j < c.count(); ++j) {
          if (f.jammed[i] || f.jammed[j]) continue;
          const float rr = f.radius[i] + f.radius[j];
          const float d = std::hypot(f.px[i] - f.px[j], f.py[i] - f.py[j]);
          deepest = std::max(deepest, (rr - d) / rr);
        }
    }
  }
  MESSAGE("deepest unjammed overlap " << deepest << " of r_A + r_B");
  CHECK(deepest <= kContactOverlap * (1 + 1e-3f));
  CHECK(deepest > 0.9f * kContactOverlap);  // the bound is met, not loose
}

TEST_CASE("profile: the last step's phases, by the plan's names, timed") {
  std::vector<std::string> names;
  for (const StepPhaseEntry& e : kStepPlan) names.emplace_back(e.name);
  CHECK(names == std::vector<std::string>{"fields", "wishes", "pace", "solve", "integrate", "measure"});
  Crowd c = ring(60);
  CHECK_FALSE(c.profile().measured);  // before the first step
  c.advance();
  const StepProfile p = c.profile();
  REQUIRE(p.measured);
  double sum = 0;
  for (const double ms : p.ms) {
    CHECK(ms >= 0);
    sum += ms;
  }
  CHECK(p.of(StepPhase::Solve) > 0);  // sixty walkers' linear programs take some time
  CHECK(p.of(StepPhase::Integrate) > 0);
  CHECK(p.totalMs == doctest::Approx(sum).epsilon(1e-9));
  // Timings are not state: a crowd that reads its profile every step ends
  // where one that never does ends.
  Crowd a = ring(60), b = ring(60);
  for (int k = 0; k < 30; ++k) {
    a.advance();
    (void)a.profile();
    b.advance();
  }
  CHECK(a.stateHash() == b.stateHash());
}

TEST_CASE("detachFrame: views taken before keep their buffers and values, the run goes on unchanged") {
  Crowd a = ring(60), b = ring(60);
  for (int k = 0; k < 10; ++k) {
    a.advance();
    b.advance();
  }
  const FrameView before = std::as_const(a).frame();
  const float* const px = before.px.data();
  const std::vector<float> x(before.px.begin(), before.px.end());
  FrameArrays kept;
  a.detachFrame(kept);
  CHECK(kept.px.data() == px);  // the same buffer, now kept's
  CHECK(kept.px == x);
  CHECK(kept.id.size() == 60);
  CHECK(a.stateHash() == b.stateHash());  // a read: the state is what it was
  for (int k = 0; k < 20; ++k) {
    a.advance();
    b.advance();
  }
  CHECK(kept.px == x);  // the crowd moved on; the detached frame did not
  CHECK(std::as_const(a).frame().px.data() != px);
  CHECK(a.stateHash() == b.stateHash());
  // Counterfactual: without the detach the view's buffer is the crowd's and moves.
  const FrameView live = std::as_const(b).frame();
  const std::vector<float> was(live.px.begin(), live.px.end());
  b.advance();
  CHECK(std::vector<float>(live.px.begin(), live.px.end()) != was);
}

// Every shipped scene runs headless and keeps its promises. Runs are
// shortened where a promise shows early; each asserts something that could
// fail.
#include <cmath>
#include <map>

#include "helpers.hpp"

using namespace throng;
using scenetest::load;

using scenetest::laneOrder;

TEST_CASE("ring: the seed's sixty all arrive in about 13 s, overlapping only while jammed") {
  const Scene s = load("ring");
  SceneRun run(s, SceneRun::Options{.gate = true});
  scenetest::runUntilArrived(run, 30);
  REQUIRE(run.allArrivedTime());
  CHECK(*run.allArrivedTime() > 880.0 / 120);  // no faster than straight across
  CHECK(*run.allArrivedTime() < 20);           // "about thirteen seconds"
  CHECK(run.arrived() == 60);
  const GateReport& g = run.gate();
  CHECK(g.unjammedOverlaps == 0);
  CHECK(g.minGapUnjammed > -1e-3f * 16);
  CHECK(g.maxOverlap < 0.5f * 8);              // a small part of a radius
  CHECK(run.infeasibleSteps() > 0);            // it does jam in the middle
  CHECK(g.passed());
}

TEST_CASE("headon: the two pass at the sum of their radii, each bowing out by the same amount") {
  const Scene s = load("headon");
  SceneRun run(s, SceneRun::Options{.gate = true});
  float maxY0 = 0, maxY1 = 0;
  while (run.time() < 12 && !run.allArrivedTime()) {
    run.step();
    maxY0 = std::max(maxY0, std::fabs(run.crowd().agent(0).position.y));
    maxY1 = std::max(maxY1, std::fabs(run.crowd().agent(1).position.y));
  }
  REQUIRE(run.allArrivedTime());
  CHECK(*run.allArrivedTime() < 10.0 / 1.3 + 1.5);
  CHECK(run.gate().minGap > -1e-4f);
  CHECK(run.gate().minGap < 0.02f);  // they touch as they pass
  CHECK(maxY0 > 0.2f);               // both gave way ...
  CHECK(std::fabs(maxY0 - maxY1) < 1e-3f);  // ... by the same amount
  // The kinematic envelope lets each take its half of the change only at
  // a·dt a step: the steps it cannot are counted jammed (and the gate holds
  // them, above). A few, of some 300 agent-steps; none without it.
  CHECK(run.jammedAgentSteps() <= 3);
  SceneRun free(load("headon", {"maxAccel=0"}), SceneRun::Options{.gate = true});
  scenetest::runUntilArrived(free, 12);
  REQUIRE(free.allArrivedTime());
  CHECK(free.jammedAgentSteps() == 0);
}

TEST_CASE("rimea-1: one walker covers the 40 m corridor in 26 to 34 s") {
  const Scene s = load("rimea-1");
  SceneRun run(s, SceneRun::Options{.gate = true});
  scenetest::runUntilArrived(run, 40);
  REQUIRE(run.allArrivedTime());
  CHECK(*run.allArrivedTime() >= 26);
  CHECK(*run.allArrivedTime() <= 34);
  CHECK(run.gate().maxWallIntrusion < 1e-4f);
  // and the knob matters: at 1 m/s it takes 40 s or more
  const Scene slow = load("rimea-1", {"speed=1"});
  SceneRun r2(slow, SceneRun::Options{});
  scenetest::runUntilArrived(r2, 60);
  REQUIRE(r2.allArrivedTime());
  CHECK(*r2.allArrivedTime() >= 40);
}

TEST_CASE("door: the room drains through the door, walls hold, a narrow door drains more slowly") {
  auto drain = [](const std::string& width) {
    const Scene s = load("door", {"doorWidth=" + width});
    SceneRun run(s, SceneRun::Options{.gate = true});
    scenetest::runUntilArrived(run, 150);
    INFO("doorWidth ", width);
    REQUIRE(run.allArrivedTime());
    CHECK(run.removed() == s.spec().agents.size());  // every walker left by the sink beyond
    CHECK(run.gate().unjammedOverlaps == 0);
    CHECK(run.gate().maxWallIntrusion < 1e-3f);
    CHECK(run.gate().maxOverlap < 0.25f * 0.5f);
    return *run.allArrivedTime();
  };
  // (ORCA clogs below about 1 m for 0.5 m walkers: those drain, but slowly)
  const double narrow = drain("1.0"), normal = drain("1.2"), wide = drain("2.4");
  CHECK(narrow > normal);
  CHECK(normal > wide);
}

TEST_CASE("corridor: both streams flow and sort into lanes, without unjammed overlaps") {
  const Scene s = load("corridor");
  SceneRun run(s, SceneRun::Options{.gate = true});
  const double before = laneOrder(run.crowd(), 4, 26, 0, 4, 0.5f);
  scenetest::runFor(run, 45);
  const double after = laneOrder(run.crowd(), 4, 26, 0, 4, 0.5f);
  MESSAGE("lane order ", before, " -> ", after);
  const auto& out = run.removedByGroup();
  REQUIRE(out.count(1));
  REQUIRE(out.count(2));
  CHECK(out.at(1) > 25);  // rightward walkers reached the far end ...
  CHECK(out.at(2) > 25);  // ... and leftward ones the near end
  CHECK(after > before + 0.2);
  CHECK(after > 0.4);
  CHECK(run.gate().unjammedOverlaps == 0);
  CHECK(run.gate().maxWallIntrusion < 1e-3f);
}

TEST_CASE("crossing: four streams cross the plaza, each reaching its far side") {
  const Scene s = load("crossing");
  SceneRun run(s, SceneRun::Options{.gate = true});
  scenetest::runFor(run, 40);
  for (int g = 1; g <= 4; ++g) {
    INFO("group ", g);
    REQUIRE(run.removedByGroup().count(g));
    CHECK(run.removedByGroup().at(g) > 15);
  }
  CHECK(run.gate().unjammedOverlaps == 0);
  CHECK(run.gate().maxOverlap < 0.5f * 0.25f);
}

TEST_CASE("evacuation: a room of hundreds empties through its three exits, walls holding") {
  const Scene s = load("evacuation");
  REQUIRE(s.spec().agents.size() >= 200);
  SceneRun run(s, SceneRun::Options{.gate = true});
  scenetest::runUntilArrived(run, 180);
  REQUIRE(run.allArrivedTime());
  CHECK(run.removed() == s.spec().agents.size());
  CHECK(run.crowd().count() == 0);
  CHECK(run.gate().unjammedOverlaps == 0);
  CHECK(run.gate().maxWallIntrusion < 1e-3f);
  // narrower exits take longer
  const Scene narrow = load("evacuation", {"exitWidth=0.9"});
  SceneRun r2(narrow, SceneRun::Options{});
  scenetest::runUntilArrived(r2, 300);
  REQUIRE(r2.allArrivedTime());
  CHECK(*r2.allArrivedTime() > *run.allArrivedTime());
}

// SceneRun: sources, sinks, arrivals and the gate as parts of a
// deterministic step.
#include <cmath>

#include "helpers.hpp"

using namespace throng;

namespace {
Scene parse(const std::string& text) {
  std::string err;
  auto s = Scene::parse(text, "t.json", &err);
  INFO(err);
  REQUIRE(s);
  return *s;
}

const char* kSourceSink =
    "{\"settings\": {\"maxStep\": 0.05, \"perceptionRadius\": 3},"
    " \"sources\": [{\"region\": [0, 0, 2, 2], \"rate\": 4, \"stop\": 5, \"goalOffset\": [40, 0], \"group\": [1, 2]}],"
    " \"sinks\": [{\"region\": [15, -5, 10, 10], \"groups\": [1]}, {\"region\": [30, -5, 10, 10], \"groups\": [2]}]}";
}  // namespace

TEST_CASE("a source emits at its rate, without overlap, until it stops") {
  SceneRun run(parse(kSourceSink), SceneRun::Options{.gate = true});
  CHECK(run.dt() == 0.05);
  CHECK(run.crowd().count() == 0);
  CHECK_FALSE(run.sourcesExhausted());
  float closestAtBirth = 1e9f;
  std::size_t seen = 0;
  while (run.time() < 5.2) {
    run.step();
    const FrameView f = run.crowd().frame();
    if (f.px.size() > seen) {  // the newest are at the end; they overlap nobody
      for (std::size_t i = seen; i < f.px.size(); ++i)
        for (std::size_t j = 0; j < f.px.size(); ++j)
          if (j != i)
            closestAtBirth = std::min(closestAtBirth, std::hypot(f.px[i] - f.px[j], f.py[i] - f.py[j]) - f.radius[i] - f.radius[j]);
    }
    seen = f.px.size();
  }
  // 4/s for 5 s, less what a crowded spawn region held back
  CHECK(run.agentsEver() >= 15);
  CHECK(run.agentsEver() <= 20);
  CHECK(run.sourcesExhausted());
  CHECK(closestAtBirth > -1e-3f);  // (moved one step since birth)
  CHECK(run.gate().passed());
}

TEST_CASE("sinks remove only their groups and count as arrivals, with allArrivedTime once all are in") {
  SceneRun run(parse(kSourceSink), SceneRun::Options{});
  bool group2CrossedSink1 = false;
  while (run.time() < 20) {
    run.step();
    for (std::size_t i = 0; i < run.crowd().count(); ++i) {
      const Agent a = run.crowd().agent(i);
      CHECK_FALSE((a.group == 1 && a.position.x > 15));  // sink 1 took every one
      group2CrossedSink1 |= a.group == 2 && a.position.x > 16 && a.position.x < 24;
    }
  }
  CHECK(group2CrossedSink1);  // sink 1 left group 2 alone
  scenetest::runFor(run, 45);
  const auto& byGroup = run.removedByGroup();
  REQUIRE(byGroup.count(1));
  REQUIRE(byGroup.count(2));
  CHECK(byGroup.at(1) >= 7);
  CHECK(byGroup.at(2) >= 7);
  CHECK(run.removed() == run.agentsEver());
  CHECK(run.crowd().count() == 0);
  CHECK(run.arrived() == run.agentsEver());
  REQUIRE(run.allArrivedTime());
  CHECK(*run.allArrivedTime() > 30 / 1.3);
  CHECK(*run.allArrivedTime() < 45);
}

TEST_CASE("a run replays exactly, at any thread count, and the seed changes it") {
  auto hashOf = [](const std::vector<std::string>& sets) {
    SceneRun run(scenetest::load("corridor", sets), SceneRun::Options{});
    scenetest::runFor(run, 8);
    return run.crowd().stateHash();
  };
  const auto h = hashOf({"threads=1"});
  CHECK(h == hashOf({"threads=1"}));
  CHECK(h == hashOf({"threads=2"}));
  CHECK(h != hashOf({"threads=1", "seed=3"}));
  CHECK(h != hashOf({"threads=1", "rate=3"}));
}

TEST_CASE("routes lead through the door before the goal beyond") {
  Scene door = scenetest::load("door", {"density=0.3"});
  SceneRun run(door, SceneRun::Options{});
  REQUIRE(run.crowd().count() > 10);
  const std::size_t n = run.crowd().count();
  std::size_t throughGate = 0;
  for (int k = 0; k < 200; ++k) run.step();
  for (std::size_t i = 0; i < run.crowd().count(); ++i) {
    const auto [route, gate] = run.crowd().routeOf(i);
    CHECK(route == 0);
    if (gate == 1) {
      ++throughGate;
      CHECK(run.crowd().agent(i).position.x > 10);  // passed means through the door
    } else {
      CHECK(run.crowd().agent(i).position.x < 10);
    }
  }
  CHECK(throughGate + run.removed() > n / 4);
}

TEST_CASE("a SceneRun's crowd carries the scene's geometry and settings") {
  const Scene door = scenetest::load("door", {"timeHorizon=1.5"});
  SceneRun run(door, SceneRun::Options{});
  CHECK(run.crowd().walls().size() == 1);
  CHECK(run.crowd().settings.timeHorizon == 1.5f);
  CHECK(run.crowd().count() == door.spec().agents.size());
  CHECK(run.spec().sinks.size() == 1);
}

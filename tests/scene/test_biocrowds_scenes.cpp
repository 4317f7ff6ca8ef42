// BioCrowds on the shipped scenes (issue 27): arrival, flow, lanes, walls
// and bodies. Each scene runs with "model": "biocrowds" (set, or the
// scene's own) and the separation gate on.
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "helpers.hpp"
#include "throng/verify.hpp"

using namespace throng;
using scenetest::load;

namespace {
/// Runs `seconds` and returns the longest any walker present at the end
/// has been in the scene (a walker stalled for good grows old).
double oldestAt(SceneRun& run, double seconds) {
  std::map<std::uint64_t, double> born;
  while (run.time() < seconds - 1e-9) {
    run.step();
    for (const std::uint64_t id : run.crowd().frame().id) born.emplace(id, run.time());
  }
  double oldest = 0;
  for (const std::uint64_t id : run.crowd().frame().id) oldest = std::max(oldest, run.time() - born[id]);
  return oldest;
}
}  // namespace

TEST_CASE("biocrowds: every shipped scene keeps its walls and its bodies, centres never crossing") {
  // As shipped (most with the kinematic envelope), and again without it
  // where there is one.
  for (const auto& entry : listScenes()) {
    for (const bool envelope : {true, false}) {
      const std::string name = entry.first;  // (Clang 14 cannot capture a structured binding in INFO)
      std::vector<std::string> sets{"model=biocrowds"};
      if (!envelope) sets.push_back("maxAccel=0");
      const Scene s = load(name, sets);
      const bool bound = s.spec().settings.maxAccel > 0;
      if (!envelope && !load(name).spec().settings.maxAccel) continue;  // ran as shipped already
      SceneRun run(s, SceneRun::Options{.gate = true});
      scenetest::runUntilArrived(run, 30);
      const std::string label = name + (bound ? " (envelope)" : "");
      INFO(label, ": min gap ", run.gate().minGap, ", wall intrusion ",
           run.gate().maxWallIntrusion);
      CHECK(run.gate().passed());  // unjammed walkers never meet
      CHECK(run.gate().maxWallIntrusion < 1e-5f);  // rounding along a wall only
      // Overlap, jammed or not (of the largest pair): within the promise;
      // under the envelope, a walker that cannot brake in time is jammed
      // and may overlap (docs/walking.md), by under a tenth of r_A + r_B.
      const float radius = s.spec().agents.empty() ? 0.25f : s.spec().agents.front().radius;
      CHECK(run.gate().maxOverlap <= (bound ? 0.1f : 1e-4f) * 2 * radius);  // kBioOverlap without
      MESSAGE(label, ": closest centres ", run.gate().minGap + 2 * radius,
              " apart (radius ", radius, ")");
    }
  }
}

TEST_CASE("biocrowds: the door drains through its route at 1 and 2 walkers per m², and so does biocrowds-door") {
  for (const std::string density : {"1", "2"}) {
    const Scene s = load("door", {"model=biocrowds", "density=" + density});
    SceneRun run(s, SceneRun::Options{.gate = true});
    scenetest::runUntilArrived(run, 180);
    INFO("density ", density);
    REQUIRE(run.allArrivedTime());
    CHECK(run.removed() == s.spec().agents.size());
    CHECK(run.gate().passed());
    MESSAGE("door at ", density, " per m²: all out by ", *run.allArrivedTime(), " s");
  }
  const Scene bio = load("biocrowds-door");
  SceneRun run(bio, SceneRun::Options{.gate = true});
  scenetest::runUntilArrived(run, 120);
  REQUIRE(run.allArrivedTime());
  CHECK(run.gate().passed());
}

TEST_CASE("biocrowds: the walkers waiting at the door stand in an arc about it, not a file") {
  const Scene s = load("biocrowds-door");
  SceneRun run(s);
  scenetest::runFor(run, 15);
  // The walkers within 2.5 m of the door's middle, inside the room: their
  // bearings from it spread over a half-disc.
  const FrameView f = run.crowd().frame();
  std::vector<double> bearings;
  for (std::size_t i = 0; i < f.px.size(); ++i) {
    const double dx = f.px[i] - 10.0, dy = f.py[i] - 5.0;
    if (dx < 0 && std::hypot(dx, dy) < 2.5) bearings.push_back(std::atan2(dy, -dx));
  }
  REQUIRE(bearings.size() >= 8);
  double mean = 0, var = 0;
  for (const double b : bearings) mean += b;
  mean /= static_cast<double>(bearings.size());
  for (const double b : bearings) var += (b - mean) * (b - mean);
  const double spread = std::sqrt(var / static_cast<double>(bearings.size()));
  MESSAGE(bearings.size(), " walkers near the door, bearings spread ", spread * 180 / 3.14159265, " degrees");
  CHECK(spread > 0.5);  // a file towards the door would be a few degrees
}

TEST_CASE("biocrowds: the crossing's four streams reach their far sides, and nobody stalls for good") {
  // Without the scene's envelope: with it, braking for every walker in
  // reach, the plaza's oldest walker at 60 s entered 47 s before
  // (docs/walking.md).
  const Scene s = load("crossing", {"model=biocrowds", "maxAccel=0"});
  SceneRun run(s, SceneRun::Options{.gate = true});
  const double oldest = oldestAt(run, 60);
  for (int g = 1; g <= 4; ++g) {
    INFO("group ", g);
    REQUIRE(run.removedByGroup().count(g));
    CHECK(run.removedByGroup().at(g) > 20);
  }
  MESSAGE("the oldest walker in the plaza at 60 s entered ", oldest, " s before");
  CHECK(oldest < 40);  // 20 m at 1.3 m/s is 15 s
  CHECK(run.gate().passed());
}

TEST_CASE("biocrowds: the corridor's opposing streams keep flowing and sort into lanes, well above a shuffle") {
  const Scene s = load("biocrowds-lanes");
  SceneRun run(s, SceneRun::Options{.gate = true});
  const double before = scenetest::laneOrder(run.crowd(), 4, 26, 0, 4, 0.5f);
  const double oldest = oldestAt(run, 45);
  const FrameView f = run.crowd().frame();
  const double after = scenetest::laneOrder(f.px, f.py, f.group, 4, 26, 0, 4, 0.5f);
  // The same walkers with their groups shuffled: what chance gives.
  std::vector<std::int32_t> shuffled(f.group.begin(), f.group.end());
  std::mt19937 rng(1);
  double chance = 0;
  for (int k = 0; k < 50; ++k) {
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    chance += scenetest::laneOrder(f.px, f.py, shuffled, 4, 26, 0, 4, 0.5f) / 50;
  }
  MESSAGE("lane order ", before, " -> ", after, "; shuffled ", chance, "; oldest walker ", oldest, " s");
  CHECK(after > chance + 0.3);
  CHECK(after > before);
  const auto& out = run.removedByGroup();
  REQUIRE(out.count(1));
  REQUIRE(out.count(2));
  CHECK(out.at(1) > 20);
  CHECK(out.at(2) > 20);
  CHECK(oldest < 40);  // 30 m at 1.3 m/s is 23 s
  CHECK(run.gate().passed());
}

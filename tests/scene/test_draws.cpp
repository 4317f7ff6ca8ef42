// Per-walker draws (SceneDraw): speeds and pre-movement times from
// distributions, drawn from the seed; a walker standing out its pre-movement.
#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "helpers.hpp"

using namespace throng;
using scenetest::load;
using scenetest::parseError;

namespace {

Scene parsed(const std::string& text) { return scenetest::parse(text); }

/// A room filled at 1 per m² (2,500 walkers) whose PROPS are `props`.
std::string filled(const std::string& props, std::uint64_t seed = 1) {
  return R"({"units": "m", "settings": {"seed": )" + std::to_string(seed) +
         R"(}, "generators": [{"type": "fill", "region": [0, 0, 50, 50], "density": 1, )" + props + "}]}";
}

struct Moments {
  double mean = 0, sd = 0, lo = 1e300, hi = -1e300;
};
Moments momentsOf(const std::vector<double>& v) {
  Moments m;
  for (double x : v) m.mean += x, m.lo = std::min(m.lo, x), m.hi = std::max(m.hi, x);
  m.mean /= static_cast<double>(v.size());
  for (double x : v) m.sd += (x - m.mean) * (x - m.mean);
  m.sd = std::sqrt(m.sd / static_cast<double>(v.size() - 1));
  return m;
}

}  // namespace

TEST_CASE("speeds drawn from a clipped normal have its mean, stay in the clip, and replay with the seed") {
  const std::string props = R"("maxSpeed": {"distribution": "normal", "mean": 1.34, "sd": 0.26, "min": 0.8, "max": 1.7})";
  const Scene a = parsed(filled(props)), b = parsed(filled(props)), other = parsed(filled(props, 2));
  std::vector<double> v;
  for (const SceneAgent& w : a.spec().agents) v.push_back(w.maxSpeed);
  REQUIRE(v.size() > 2000);
  const Moments m = momentsOf(v);
  // The truncated normal's mean: mu + sigma (phi(a) - phi(b)) / (Phi(b) - Phi(a)).
  const auto phi = [](double z) { return std::exp(-z * z / 2) / std::sqrt(2 * M_PI); };
  const auto Phi = [](double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); };
  const double al = (0.8 - 1.34) / 0.26, be = (1.7 - 1.34) / 0.26;
  const double expected = 1.34 + 0.26 * (phi(al) - phi(be)) / (Phi(be) - Phi(al));
  MESSAGE("speeds: mean " << m.mean << " (expected " << expected << "), sd " << m.sd << ", in [" << m.lo << ", " << m.hi
                          << "]");
  CHECK(m.mean == doctest::Approx(expected).epsilon(0.01));
  CHECK(m.sd > 0.18);
  CHECK(m.sd < 0.26);
  CHECK(m.lo >= 0.8f);
  CHECK(m.hi <= 1.7f);
  CHECK(m.lo < 0.85);  // the clip is reached: the tails were drawn again, not clamped
  CHECK(m.hi > 1.65);
  bool same = true, differs = false;
  for (std::size_t i = 0; i < v.size(); ++i) {
    same &= a.spec().agents[i].maxSpeed == b.spec().agents[i].maxSpeed;
    differs |= i < other.spec().agents.size() && a.spec().agents[i].maxSpeed != other.spec().agents[i].maxSpeed;
  }
  CHECK(same);
  CHECK(differs);
}

TEST_CASE("pre-movement times drawn uniform and log-normal have their moments") {
  std::vector<double> u, l;
  const Scene uniform = parsed(filled(R"("premovement": {"distribution": "uniform", "min": 10, "max": 100})"));
  const Scene lognormal = parsed(filled(R"("premovement": {"distribution": "lognormal", "mean": 20, "sd": 8})"));
  for (const SceneAgent& w : uniform.spec().agents) u.push_back(w.premovement);
  for (const SceneAgent& w : lognormal.spec().agents) l.push_back(w.premovement);
  const Moments mu = momentsOf(u), ml = momentsOf(l);
  CHECK(mu.mean == doctest::Approx(55).epsilon(0.03));
  CHECK(mu.sd == doctest::Approx(90 / std::sqrt(12.0)).epsilon(0.05));
  CHECK(mu.lo >= 10);
  CHECK(mu.hi <= 100);
  CHECK(ml.mean == doctest::Approx(20).epsilon(0.04));
  CHECK(ml.sd == doctest::Approx(8).epsilon(0.1));
  CHECK(ml.lo > 0);
  // A number is a fixed time, and none by default.
  CHECK(parsed(filled(R"("premovement": 3)")).spec().agents[7].premovement == 3);
  CHECK(parsed(filled(R"("radius": 0.2)")).spec().agents[7].premovement == 0);
}

TEST_CASE("speeds drawn by age from RiMEA's table after Weidmann fill each group's range, uniformly") {
  struct Group {
    const char* ages;
    double lo, hi;
  };
  for (const Group g : {Group{"under 30", 0.58, 1.61}, Group{"30 to 50", 1.41, 1.54}, Group{"over 50", 0.68, 1.41},
                        Group{"impaired", 0.46, 0.76}}) {
    CAPTURE(g.ages);
    const Scene s = parsed(filled(std::string(R"("maxSpeed": {"distribution": "weidmann", "ages": ")") + g.ages + "\"}"));
    std::vector<double> v;
    for (const SceneAgent& w : s.spec().agents) v.push_back(w.maxSpeed);
    const Moments m = momentsOf(v);
    CHECK(m.lo >= static_cast<float>(g.lo));
    CHECK(m.hi <= static_cast<float>(g.hi));
    CHECK(m.lo < g.lo + 0.01 * (g.hi - g.lo));  // the whole range is drawn
    CHECK(m.hi > g.hi - 0.01 * (g.hi - g.lo));
    CHECK(m.mean == doctest::Approx(0.5 * (g.lo + g.hi)).epsilon(0.01));
    CHECK(m.sd == doctest::Approx((g.hi - g.lo) / std::sqrt(12.0)).epsilon(0.05));
  }
}

TEST_CASE("rimea-5: each walker stands out its pre-movement time, then sets out at once") {
  const Scene s = load("rimea-5");
  SceneRun run(s);
  const std::vector<SceneAgent>& agents = s.spec().agents;
  REQUIRE(agents.size() == 10);
  std::map<std::uint64_t, Vec2> start;
  std::map<std::uint64_t, double> setOut;
  for (std::size_t i = 0; i < run.crowd().count(); ++i) start[run.crowd().id(i)] = run.crowd().agent(i).position;
  while (run.time() < 110 && !run.allArrivedTime()) {
    run.step();
    for (std::size_t i = 0; i < run.crowd().count(); ++i) {
      const std::uint64_t id = run.crowd().id(i);
      if (!setOut.count(id) && run.crowd().agent(i).position != start[id]) setOut[id] = run.time();
    }
  }
  REQUIRE(setOut.size() == 10);
  double first = 1e300, last = 0;
  for (std::uint64_t id = 0; id < 10; ++id) {
    const double t = agents[id].premovement;
    first = std::min(first, t), last = std::max(last, t);
    CAPTURE(id);
    CAPTURE(t);
    CHECK(t >= 10);
    CHECK(t <= 100);
    // It moves in the first step that starts at or after its time (the
    // step ends dt after its start).
    CHECK(setOut[id] >= t + run.dt() - 1e-9);
    CHECK(setOut[id] < t + 2 * run.dt() + 1e-9);
  }
  CHECK(last - first > 40);  // ten times spread over the range
  CHECK(run.gate().passed());
  // The run's own count (the summary's setOut*, RiMEA 5's check in the
  // suite) is the one made here from the positions.
  double minLag = 1e300, maxLag = -1e300;
  for (std::uint64_t id = 0; id < 10; ++id) {
    minLag = std::min(minLag, setOut[id] - agents[id].premovement);
    maxLag = std::max(maxLag, setOut[id] - agents[id].premovement);
  }
  CHECK(run.setOut().walkers == 10);
  CHECK(run.setOut().minLag == doctest::Approx(minLag).epsilon(1e-12));
  CHECK(run.setOut().maxLag == doctest::Approx(maxLag).epsilon(1e-12));
}

TEST_CASE("a source's walkers stand out their pre-movement from when each is emitted") {
  SceneRun run(parsed(R"({"units": "m", "settings": {"maxStep": 0.05},
    "sources": [{"region": [0, 0, 4, 4], "rate": 2, "stop": 3, "premovement": 1.5, "goal": [30, 2]}]})"));
  std::map<std::uint64_t, double> born, moved;
  std::map<std::uint64_t, Vec2> at;
  while (run.time() < 8) {
    run.step();
    for (std::size_t i = 0; i < run.crowd().count(); ++i) {
      const std::uint64_t id = run.crowd().id(i);
      const Vec2 p = run.crowd().agent(i).position;
      if (!born.count(id)) born[id] = run.time() - run.dt(), at[id] = p;
      else if (!moved.count(id) && p != at[id]) moved[id] = run.time();
    }
  }
  REQUIRE(born.size() >= 5);
  for (const auto& entry : born) {
    const std::uint64_t id = entry.first;
    const double t = entry.second;
    CAPTURE(id);
    REQUIRE(moved.count(id));
    CHECK(moved[id] >= t + 1.5 + run.dt() - 1e-9);
    CHECK(moved[id] < t + 1.5 + 2 * run.dt() + 1e-9);
  }
}

TEST_CASE("mistakes in a distribution name the file, line and pointer") {
  const auto at3 = [](const std::string& value) {
    return parseError("{\n  \"agentDefaults\": {\"radius\": 0.2,\n    \"maxSpeed\": " + value + "}\n}\n");
  };
  CHECK(at3("{\"mean\": 1}").find("bad.json:3: /agentDefaults/maxSpeed: expected a number or a \"distribution\"") == 0);
  CHECK(at3("{\"distribution\": \"weidmann\"}").find("bad.json:3: /agentDefaults/maxSpeed: a weidmann distribution needs \"ages\"") == 0);
  CHECK(at3("{\"distribution\": \"weidmann\", \"ages\": \"teens\"}")
            .find("bad.json:3: /agentDefaults/maxSpeed/ages: unknown age group \"teens\" (expected under 30, 30 to 50, over 50 or impaired)") == 0);
  CHECK(at3("{\"distribution\": \"weidmann\", \"ages\": \"over 50\", \"max\": 1}")
            .find("bad.json:3: /agentDefaults/maxSpeed/max: a weidmann distribution takes no \"max\"") == 0);
  CHECK(at3("{\"distribution\": \"uniform\", \"min\": 0, \"max\": 1, \"ages\": \"over 50\"}")
            .find("bad.json:3: /agentDefaults/maxSpeed/ages: only a weidmann distribution takes \"ages\"") == 0);
  CHECK(at3("{\"distribution\": \"gamma\"}")
            .find("bad.json:3: /agentDefaults/maxSpeed/distribution: unknown distribution \"gamma\"") == 0);
  CHECK(at3("{\"distribution\": \"uniform\", \"min\": 1}")
            .find("bad.json:3: /agentDefaults/maxSpeed: a uniform distribution needs \"max\"") == 0);
  CHECK(at3("{\"distribution\": \"uniform\", \"min\": 2, \"max\": 1}")
            .find("bad.json:3: /agentDefaults/maxSpeed: the clip is empty: min 2 > max 1") == 0);
  CHECK(at3("{\"distribution\": \"uniform\", \"min\": -1, \"max\": 1}")
            .find("bad.json:3: /agentDefaults/maxSpeed/min: expected a number >= 0, got -1") == 0);
  CHECK(at3("{\"distribution\": \"uniform\", \"min\": 0, \"max\": 1, \"sd\": 1}")
            .find("bad.json:3: /agentDefaults/maxSpeed/sd: a uniform distribution takes no \"sd\"") == 0);
  CHECK(at3("{\"distribution\": \"normal\", \"mean\": 1.3, \"sd\": -0.2}")
            .find("bad.json:3: /agentDefaults/maxSpeed/sd: expected a standard deviation >= 0") == 0);
  CHECK(at3("{\"distribution\": \"normal\", \"mean\": 1.3, \"sd\": 0.2, \"min\": 3, \"max\": 4}")
            .find("bad.json:3: /agentDefaults/maxSpeed: the clip [3, 4] holds under 1% of the normal distribution") == 0);
  CHECK(at3("{\"distribution\": \"normal\", \"mean\": 1.3, \"sd\": 0, \"min\": 2}")
            .find("holds none of the normal distribution") != std::string::npos);
  CHECK(at3("{\"distribution\": \"lognormal\", \"mean\": 0, \"sd\": 1}")
            .find("bad.json:3: /agentDefaults/maxSpeed/mean: a lognormal needs a mean > 0") == 0);
  CHECK(at3("{\"distribution\": \"normal\", \"mean\": 1, \"sd\": 1, \"clip\": [0, 1]}")
            .find("bad.json:3: /agentDefaults/maxSpeed/clip: unknown key \"clip\" (expected one of: distribution, mean, "
                  "sd, min, max, ages)") == 0);
  CHECK(at3("-1").find("bad.json:3: /agentDefaults/maxSpeed: expected a number >= 0, got -1") == 0);
}

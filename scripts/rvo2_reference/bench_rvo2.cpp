// The RVO2 side of the benchmark, built by scripts/rvo2_reference.sh
// against RVO2's own sources (fetched from PyPI, never part of the build):
// the same two scenarios as tests/bench/scenarios.hpp, with RVO2's Circle
// settings, timed the same way as tests/bench/bench_orca.cpp (a fresh scene,
// one warm step, then a fixed number of steps; median of three).
//   bench_rvo2            prints one line per scenario and size
//   bench_rvo2 --only circle/n:1000
//                         that case alone (named as throng_bench names it)
//   bench_rvo2 --list     the cases' names, measuring nothing
//   bench_rvo2 circle|dense N STEPS
//                         builds the scene and takes STEPS steps, untimed:
//                         for instruction counts, as tests/bench's
//                         throng_count (valgrind --tool=callgrind, two
//                         step counts, the difference over N * steps)
// OMP_NUM_THREADS picks the threads.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "RVOSimulator.h"
#include "Vector2.h"
#include "throng/orca.hpp"  // mix64 and unitFromBits: the dense crowd's positions and goals, as ours

namespace {

struct Scene {
  RVO::RVOSimulator sim;
  std::vector<RVO::Vector2> goals;
};

void setup(Scene& s) {
  s.sim.setTimeStep(0.25f);
  s.sim.setAgentDefaults(15.0f, 10, 10.0f, 10.0f, 1.5f, 2.0f);
}

void circle(Scene& s, int n) {
  setup(s);
  const float r = 0.8f * static_cast<float>(n);
  for (int i = 0; i < n; ++i) {
    const double a = 2.0 * 3.14159265358979323846 * i / n;
    const RVO::Vector2 p(static_cast<float>(r * std::cos(a)), static_cast<float>(r * std::sin(a)));
    s.sim.addAgent(p);
    s.goals.push_back(-p);
  }
}

void dense(Scene& s, int n) {
  setup(s);
  const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(n))));
  const float spacing = 2.2f * 1.5f, extent = spacing * static_cast<float>(side);
  std::uint64_t h = 12345;
  auto uniform = [&h] {
    h = throng::mix64(h);
    return 0.5f * (throng::unitFromBits(h) + 1.0f);
  };
  for (int i = 0; i < n; ++i) {
    const float x = (static_cast<float>(i % side) + 0.5f) * spacing + (uniform() - 0.5f) * 0.1f * spacing;
    const float y = (static_cast<float>(i / side) + 0.5f) * spacing + (uniform() - 0.5f) * 0.1f * spacing;
    const float gx = uniform() * extent, gy = uniform() * extent;
    s.sim.addAgent(RVO::Vector2(x, y));
    s.goals.emplace_back(gx, gy);
  }
}

// RVO2's example wish: towards the goal, normalised once farther than 1.
void prefer(Scene& s) {
  for (std::size_t i = 0; i < s.sim.getNumAgents(); ++i) {
    RVO::Vector2 v = s.goals[i] - s.sim.getAgentPosition(i);
    if (RVO::absSq(v) > 1.0f) v = RVO::normalize(v);
    s.sim.setAgentPrefVelocity(i, v);
  }
}

double msPerStep(void (*make)(Scene&, int), int n, int steps) {
  std::vector<double> runs;
  for (int r = 0; r < 3; ++r) {
    Scene s;
    make(s, n);
    prefer(s);
    s.sim.doStep();
    const auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < steps; ++k) {
      prefer(s);
      s.sim.doStep();
    }
    runs.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / steps);
  }
  std::sort(runs.begin(), runs.end());
  return runs[1];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 4) {
    const int n = std::atoi(argv[2]), steps = std::atoi(argv[3]);
    const bool isCircle = std::strcmp(argv[1], "circle") == 0;
    if (n <= 0 || steps < 0 || (!isCircle && std::strcmp(argv[1], "dense") != 0)) {
      std::fprintf(stderr, "usage: bench_rvo2 [circle|dense N STEPS | --only circle/n:1000 | --list]\n");
      return 2;
    }
    Scene s;
    (isCircle ? circle : dense)(s, n);
    for (int k = 0; k < steps; ++k) {
      prefer(s);
      s.sim.doStep();
    }
    std::printf("rvo2 %s n=%d steps=%d\n", argv[1], n, steps);
    return 0;
  }
  struct Case {
    const char* name;
    void (*make)(Scene&, int);
    int n, steps;
  };
  const Case cases[] = {{"circle", circle, 1000, 1000}, {"circle", circle, 10000, 300}, {"circle", circle, 100000, 25},
                        {"dense", dense, 10000, 100},   {"dense", dense, 100000, 10}};
  // --only NAME/n:N: that case alone (as throng_bench names it);
  // --list: the cases' names, one a line, measuring nothing.
  const bool list = argc == 2 && std::strcmp(argv[1], "--list") == 0;
  const char* only = argc == 3 && std::strcmp(argv[1], "--only") == 0 ? argv[2] : nullptr;
  if (argc > 1 && !list && only == nullptr) {
    std::fprintf(stderr, "usage: bench_rvo2 [circle|dense N STEPS | --only circle/n:1000 | --list]\n");
    return 2;
  }
  int ran = 0;
  for (const Case& c : cases) {
    char name[64];
    std::snprintf(name, sizeof name, "%s/n:%d", c.name, c.n);
    if (list) {
      std::printf("%s\n", name);
      continue;
    }
    if (only != nullptr && std::strcmp(only, name) != 0) continue;
    std::printf("rvo2 %s median %.3f ms per step\n", name, msPerStep(c.make, c.n, c.steps));
    ++ran;
  }
  if (list) return 0;
  if (ran == 0) {
    std::fprintf(stderr, "bench_rvo2: no case named %s\n", only);
    return 2;
  }
  return 0;
}

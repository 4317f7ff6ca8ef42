#pragma once
// Shared by the scene tests: load a shipped scene, run it with the gate.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "throng/scene.hpp"

namespace scenetest {

inline std::string shipped(const std::string& name) { return std::string(THRONG_TEST_SCENES_DIR) + "/" + name + ".json"; }

inline throng::Scene load(const std::string& name, const std::vector<std::string>& sets = {}) {
  std::string err;
  auto s = throng::Scene::load(shipped(name), &err);
  INFO(err);
  REQUIRE(s.has_value());
  for (const std::string& a : sets) {
    INFO(a, ": ", err);
    REQUIRE(s->assign(a, &err));
  }
  return *s;
}

/// Parses text that must load (labelled "t.json" in messages).
inline throng::Scene parse(const std::string& text) {
  std::string err;
  auto s = throng::Scene::parse(text, "t.json", &err);
  INFO(err);
  REQUIRE(s.has_value());
  return *s;
}

/// Parses text that must fail; returns the message.
inline std::string parseError(const std::string& text) {
  std::string err;
  auto s = throng::Scene::parse(text, "bad.json", &err);
  CHECK_FALSE(s.has_value());
  return err;
}

/// Steps until all arrived or `seconds` passed.
inline void runUntilArrived(throng::SceneRun& run, double seconds) {
  while (run.time() < seconds - 1e-9 && !run.allArrivedTime()) run.step();
}

inline void runFor(throng::SceneRun& run, double seconds) {
  while (run.time() < seconds - 1e-9) run.step();
}

/// How far two groups have sorted into lanes: bands of `band` across y, in
/// each the share of the majority group, minus the share for a random mix
/// (so 0 is mixed, 1 is one group per band), weighted by walkers. Only
/// walkers with x in [x0, x1]; `group[i]` is walker i's (1 or another).
inline double laneOrder(std::span<const float> px, std::span<const float> py, std::span<const std::int32_t> group,
                        float x0, float x1, float y0, float y1, float band) {
  const int bands = static_cast<int>(std::ceil((y1 - y0) / band));
  std::vector<int> n1(static_cast<std::size_t>(bands)), n2(static_cast<std::size_t>(bands));
  for (std::size_t i = 0; i < px.size(); ++i) {
    if (px[i] < x0 || px[i] > x1) continue;
    const int b = std::clamp(static_cast<int>((py[i] - y0) / band), 0, bands - 1);
    (group[i] == 1 ? n1 : n2)[static_cast<std::size_t>(b)]++;
  }
  double sum = 0, total = 0;
  int all1 = 0, all2 = 0;
  for (int b = 0; b < bands; ++b) all1 += n1[b], all2 += n2[b];
  if (all1 + all2 == 0) return 0;
  const double mix = static_cast<double>(std::max(all1, all2)) / (all1 + all2);
  for (int b = 0; b < bands; ++b) {
    const int n = n1[b] + n2[b];
    if (n == 0) continue;
    sum += static_cast<double>(std::max(n1[b], n2[b]));
    total += n;
  }
  return (sum / total - mix) / (1 - mix);
}
inline double laneOrder(const throng::Crowd& c, float x0, float x1, float y0, float y1, float band) {
  const throng::FrameView f = c.frame();
  return laneOrder(f.px, f.py, f.group, x0, x1, y0, y1, band);
}

}  // namespace scenetest

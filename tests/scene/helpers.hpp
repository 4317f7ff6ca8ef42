#pragma once
// Shared by the scene tests: load a shipped scene, run it with the gate.
#include <doctest/doctest.h>

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

}  // namespace scenetest

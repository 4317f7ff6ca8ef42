// The shipped ORCA (fast/orca_model.hpp: candidate lists, lanes, batches)
// against the reference (models/orca/reference.hpp: one walker at a time,
// scalar, the grid built every step), bit for bit: every shipped ORCA
// scene, and the seed's ring of sixty under Settings{}.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "models/orca/reference.hpp"
#include "pipeline/registry.hpp"
#include "throng/crowd.hpp"
#include "throng/scene.hpp"

using namespace throng;

namespace {
/// Registers the reference as "orca-reference" (idempotent), with ORCA's
/// promise and meaning of jammed.
void registerOrcaReference() {
  ModelEntry e = *findModel("orca");
  e.name = OrcaReference::kName;
  e.help = "ORCA one walker at a time, scalar: the reference the shipped model is held to (tests only)";
  e.make = [] { return std::unique_ptr<Model>(new OrcaReference()); };
  registerModel(std::move(e));
}

constexpr int kSteps = 900;
constexpr int kEvery = 150;

/// Steps `scene` under `model` at `threads`, the state's hash every kEvery steps.
std::vector<std::uint64_t> hashes(const Scene& scene, const char* model, int threads) {
  SceneRun run(scene);
  run.crowd().setModel(model);
  run.crowd().settings.threads = threads;
  std::vector<std::uint64_t> out;
  for (int k = 1; k <= kSteps; ++k) {
    run.step();
    if (k % kEvery == 0) out.push_back(run.crowd().stateHash());
  }
  return out;
}
}  // namespace

TEST_CASE("the shipped ORCA is the reference's ORCA, bit for bit, on every shipped ORCA scene") {
  registerOrcaReference();
  for (const std::string name : {"door", "corridor", "crossing", "evacuation", "headon", "ring", "rimea-1", "rimea-5",
                           "rimea-6"}) {
    CAPTURE(name);
    std::string err;
    const auto scene = Scene::load(THRONG_TEST_SCENES_DIR "/" + name + ".json", &err);
    REQUIRE_MESSAGE(scene.has_value(), err);
    REQUIRE(scene->spec().settings.model == "orca");
    const auto plain = hashes(*scene, OrcaReference::kName, 2);
    CHECK(hashes(*scene, "orca", 1) == plain);
    CHECK(hashes(*scene, "orca", 2) == plain);
    // The crowd moved: the hashes are not one frozen state.
    CHECK(plain.front() != plain.back());
  }
}

TEST_CASE("the seed's ring of sixty under Settings{}: the reference and the shipped ORCA agree bit for bit") {
  registerOrcaReference();
  const auto ring = [](const char* model) {
    Crowd c;  // Settings{}: the seed's behaviour
    for (int k = 0; k < 60; ++k) {
      const float a = 6.2831853f * static_cast<float>(k) / 60.0f;
      c.add(Vec2{200 * std::cos(a), 200 * std::sin(a)}, Vec2{-200 * std::cos(a), -200 * std::sin(a)});
    }
    c.setModel(model);
    std::vector<std::uint64_t> out;
    for (int k = 1; k <= 600; ++k) {
      c.advance();
      if (k % 100 == 0) out.push_back(c.stateHash());
    }
    return out;
  };
  CHECK(ring("orca") == ring(OrcaReference::kName));
}

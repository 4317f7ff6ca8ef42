#pragma once
// The naive baseline the first seed document starts from, for teaching:
// "integrate, then react". Each walker walks at its wish until it already
// overlaps another; then it takes the full corrective action, its top speed
// straight away from those it overlaps, as a position spring would. Nothing
// looks ahead, so walkers interpenetrate before the push fires (the overlap
// the separation gate refuses), a fast pair tunnels, and a head-on pair,
// each taking the whole correction, bounces back and forth where ORCA's
// shared half passes smoothly. It is registered with no promise: the gate
// reports what it does and judges nothing.
//
// The whole model is this folder and one registration line
// (pipeline/registry.cpp): no settings of its own, no device form (it steps
// on the CPU under every backend), and a teaching view of its own.
#include <cstddef>
#include <string_view>

#include "core/model.hpp"
#include "core/world.hpp"

namespace throng {

class SpringModel final : public Model {
 public:
  static constexpr const char* kName = "spring";
  /// The most neighbours a walker reacts to.
  static constexpr int kNeighbors = 8;
  /// Its grid: columns as wide as two of the largest walkers, 8 a row.
  static GridSpec grid(float largestRadius) { return {largestRadius > 0 ? 2 * largestRadius : 1.0f, kNeighbors}; }
  std::string_view name() const override { return kName; }
  void solve(StepContext& ctx) override;
  void explain(StepContext& ctx, std::size_t i, AgentExplain& out) override;

 private:
  void buildGrid(const World& w, AgentGrid& grid);
  float largestRadius_ = 0;
};

}  // namespace throng

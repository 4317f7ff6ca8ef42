#pragma once
// Continuum Crowds on the CPU (the math is continuum.hpp's, the fields
// fields/'s, built by the step's phase 2): phase 4 in two parallel passes,
// the agent grid (columns wide enough for any pair that could touch this
// step) and every walker's velocity (continuumVelocity). Nothing is kept
// across steps: a step depends on the state and the fields alone.
#include "core/model.hpp"
#include "core/world.hpp"
#include "models/continuum/continuum.hpp"

namespace throng {

class ContinuumModel final : public Model {
 public:
  static constexpr const char* kName = "continuum";
  std::string_view name() const override { return kName; }
  void solve(StepContext& ctx) override;
  void explain(StepContext& ctx, std::size_t i, AgentExplain& out) override;

  /// The step's reach (how far the limits look) for the walkers of w.
  static StepReach reach(const World& w, float dt);
  /// What continuumVelocity reads of w (its fields as they are).
  static ContinuumView view(const World& w, float dt);
  /// The agent grid for this step's limits, into w.grid.
  static void buildGrid(World& w, const StepReach& r);
};

}  // namespace throng

#pragma once
// Continuum Crowds on the CPU (the math is continuum.hpp's, the fields
// fields/'s, built by the step's fields phase): the solve phase in three parallel
// passes and the push's rounds: the agent grid (columns wide enough for
// any pair that could meet in this step's push), every walker's desired
// velocity (continuumDesired), kPushRounds rounds of the push (pushRound),
// then its step kept off the walls (continuumStep).
// Nothing is kept across steps: a step depends on the state and the
// fields alone.
#include <vector>

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
  static ContinuumView view(const World& w, const Settings& s, float dt);
  /// The agent grid for this step's limits, into ctx.scratch.grid, and the
  /// obstacles' edge grid fitted.
  /// Its shape, for its host and device forms and the host mirror: the
  /// agent grid's columns are as wide as two walkers can close in a step
  /// with their pushes (pushReach), 4 a row; the obstacle grid is fitted to
  /// the largest radius plus the farthest step.
  static GridSpec grid(const StepReach& r) {
    const float cell = pushReach(r);
    return {cell > 0.0f ? cell : 1.0f, 4};
  }
  static float obstacleReach(const StepReach& r) { return r.largestRadius + r.largestSpeed * r.dt; }
  static void buildGrid(StepContext& ctx, const StepReach& r);

 private:
  /// The push's rounds from (qx, qy), the unpushed steps (sx, sy) given.
  void push(const World& w, const AgentGrid& grid, const ContinuumView& cv, std::vector<float>& qx, std::vector<float>& qy,
            const std::vector<float>& sx, const std::vector<float>& sy);
  // Scratch, by walker: the unpushed steps, the pushed positions, a round's output.
  std::vector<float> stepX_, stepY_, qx_, qy_, scratchX_, scratchY_;
};

}  // namespace throng

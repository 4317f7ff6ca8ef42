#pragma once
// ORCA as RVO2's agent does it, one walker at a time: the reference a reader
// follows from neighbours to linear programs, and the one statement of
// ORCA's shape and settings that the fast CPU model (fast/orca_model.hpp),
// the device form (orca_device.cu) and the host mirror (tests/gpu) read.
//
// Design note. A step of the reference builds the agent grid, then for each
// walker in index order runs solveAgent (solve.hpp): its nearest
// maxNeighbors within perceptionRadius (selectNeighbors), its obstacle lines
// (obstacle_lines.hpp), its agent lines (agentLine, orca.hpp), the linear
// programs (linearProgram2, then linearProgram3 and the lean when jammed)
// and, with Settings::maxAccel, the kinematic envelope (envelope.hpp). It is
// scalar: every AVX2 form is off. The fast model and the device reach the
// same bits by other roads (candidate lists, lanes, batches; a thread a grid
// slot), and tests/sim/test_orca_reference.cpp holds them to this one over
// the shipped scenes.
#include <cstddef>

#include "core/model.hpp"
#include "core/world.hpp"
#include "models/orca/solve.hpp"

namespace throng {

class OrcaReference final : public Model {
 public:
  /// Its name where tests register it (tests/sim/test_orca_reference.cpp);
  /// the shipped registry holds the fast model alone.
  static constexpr const char* kName = "orca-reference";
  std::string_view name() const override { return kName; }
  void solve(StepContext& ctx) override;
  void explain(StepContext& ctx, std::size_t i, AgentExplain& out) override;

  /// What the solve of one walker reads of the settings, for a step of dt
  /// seconds. Scalar (lineLanes false); the fast model turns lanes on.
  static SolveParams solveParams(const Settings& s, float dt);
  /// ORCA's shape: the agent grid's columns are perceptionRadius wide,
  /// sized for maxNeighbors a row; the obstacle grid is fitted to the
  /// farthest any walker looks for an edge (World::obstacleReach).
  static GridSpec grid(const Settings& s) { return {s.perceptionRadius, s.maxNeighbors}; }
  /// That grid over w's walkers, into `g` (the step's, StepScratch::grid).
  static void buildGrid(const World& w, AgentGrid& g, const Settings& s);
  static float obstacleReach(const World& w, const Settings& s) { return w.obstacleReach(s); }

 private:
  /// The grid version and perception radius explain() last built its grid
  /// for: a paused teaching view asks every frame.
  std::uint64_t explainVersion_ = ~0ull;
  float explainPerception_ = -1;
};

}  // namespace throng

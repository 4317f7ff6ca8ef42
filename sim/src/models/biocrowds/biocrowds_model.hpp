#pragma once
// BioCrowds on the CPU (the math is biocrowds.hpp's, the markers
// markers.hpp's): the step's solve phase in three parallel passes:
//   1. the agent grid (cells at least R wide) and the marker field fitted
//      to the walkers (laid only when its inputs change or it must grow);
//   2. every marker's owner, cell by cell (ownersOfCell);
//   3. every walker's velocity from its owned markers (bioVelocity).
// Nothing is kept across steps but the marker field, which is a cache of a
// field fixed by the seed, the density and the geometry: a step depends on
// the state before it alone.
#include <cstdint>
#include <vector>

#include "core/model.hpp"
#include "core/world.hpp"
#include "models/biocrowds/biocrowds.hpp"
#include "models/biocrowds/markers.hpp"

namespace throng {

class BioCrowdsModel final : public Model {
 public:
  static constexpr const char* kName = "biocrowds";
  std::string_view name() const override { return kName; }
  void solve(StepContext& ctx) override;
  void explain(StepContext& ctx, std::size_t i, AgentExplain& out) override;
  MarkerView markers() const override;

  /// The solve phase's first two passes (the teaching view's too): the grid, the
  /// field, the owners, and the step's parameters. Public for the tests
  /// and the host mirror of the device step.
  void prepare(StepContext& ctx);
  /// The step's parameters for settings s and the walkers of w.
  /// Its shape, for its host and device forms and the host mirror: the agent
  /// grid's columns are R (personalSpace) wide with 4 a row, and the
  /// obstacle grid is fitted to R, the farthest it looks.
  static GridSpec grid(const Settings& s) { return {s.personalSpace, 4}; }
  static float obstacleReach(const Settings& s) { return s.personalSpace; }
  static BioParams params(const World& w, const Settings& s, float dt);
  /// The same given the walkers' largest radius and top speed and the
  /// step's envelope (World::stepEnvelope; its bounds are kept).
  static BioParams params(const Settings& s, float dt, float largestRadius, float largestSpeed,
                          const StepEnvelope& envelope);
  /// Fits `field` (MarkerField::fit) to the walkers' box [lo, hi] and the
  /// ground they head for: their goals and their routes' gates. The CPU
  /// step and the device form's host side both fit it here.
  static bool fitField(MarkerField& field, const World& w, const Settings& s, Vec2 lo, Vec2 hi, ThreadPool* pool);

  MarkerField field;
  std::vector<std::int32_t> owner;  ///< by marker, as of the last prepare
  BioParams bp;

 private:
  /// Its teaching view (throng/teaching.hpp) from out's markers, weights and M.
  static void teach(const Settings& s, Vec2 p, float maxSpeed, AgentExplain& out);
  // What the owners were last found for (the teaching view asks every
  // frame of a paused crowd).
  std::uint64_t preparedVersion_ = ~std::uint64_t{0}, preparedSeed_ = 0, preparedGeometry_ = 0;
  float preparedRadius_ = 0, preparedDensity_ = 0, preparedDt_ = 0;
  std::vector<float> explainWishX_, explainWishY_;  ///< everyone's wish, for the teaching view
};

}  // namespace throng

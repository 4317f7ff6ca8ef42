#pragma once
// The separation gate: the seed's verification step, as a library.
//
// Positions move in straight segments over a step, so a pair that swaps
// sides mid-step is apart at both ends. The gate therefore measures, for
// every pair within reach, the smallest centre distance over the two swept
// segments (same time parameter for both), and reports the gap: that
// distance minus the two radii (negative means overlap).
//
// It tells overlaps apart:
//  - jammed: either walker was jammed in that step (no permitted velocity
//    existed); ORCA allows these;
//  - unjammed: neither was jammed. A pair that starts the step apart must
//    stay apart (or within the model's promise: OverlapPromise); one that
//    starts in contact may close to the model's contact overlap (ORCA's:
//    0.101% of r_A + r_B) and no further; one that starts deeper (carried
//    in from a jam, being undone) must not overlap deeper. Any of these beyond the tolerance is a defect. minGapUnjammed
//    is the swept gap measured against that floor.
// It also measures how far any disc reached into an obstacle outline or
// across a wall (intrusion, in world units; 0 when clear).
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
#include <vector>

#include "throng/types.hpp"
#include "throng/vec2.hpp"

namespace throng {

/// The smallest distance between two points moving linearly over [0, 1],
/// from p0 to p1 and from q0 to q1.
inline float sweptDistance(Vec2 p0, Vec2 p1, Vec2 q0, Vec2 q1) {
  const Vec2 r = p0 - q0;
  const Vec2 d = (p1 - p0) - (q1 - q0);
  const float a = d.lengthSquared();
  float t = 0;
  if (a > 1e-20f) {
    t = -dot(r, d) / a;
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
  }
  return (r + t * d).length();
}

/// The smallest distance between segments a0-a1 and b0-b1 (0 if they cross).
float segmentDistance(Vec2 a0, Vec2 a1, Vec2 b0, Vec2 b1);

/// One step of a trajectory: walkers present at both ends, aligned.
struct GateStep {
  std::span<const Vec2> from, to;
  std::span<const float> radius;
  std::span<const std::uint8_t> jammed;  ///< during this step
  std::span<const std::uint64_t> id;     ///< for the report; may be empty
};

/// Static geometry to check intrusion against, as given to the crowd.
struct GateGeometry {
  std::span<const std::vector<Vec2>> outlines, walls;
};

struct GateReport {
  static constexpr float kNone = std::numeric_limits<float>::infinity();
  float minGap = kNone;            ///< any pair
  float minGapUnjammed = kNone;    ///< unjammed pair-steps, against min(start gap, 0)
  float maxOverlap = 0;            ///< max(0, -minGap)
  float maxWallIntrusion = 0;
  std::uint64_t worstA = 0, worstB = 0;  ///< ids (or indices) of the minGapUnjammed pair
  std::uint64_t step = 0;                ///< step of the minGapUnjammed pair (set by callers)
  std::size_t pairsChecked = 0;
  std::size_t unjammedOverlaps = 0;      ///< jam-free pair-steps deeper than the tolerance

  /// Folds another step's report in (keeps the worst of each).
  void merge(const GateReport& o);
  /// No unjammed overlap and no intrusion beyond the tolerance.
  bool passed() const { return unjammedOverlaps == 0 && maxWallIntrusion <= intrusionTolerance; }
  float intrusionTolerance = 1e-3f;
};

/// The promise of `model` (pipeline/registry.cpp); none (infinite overlaps
/// allowed) for a name that is no model.
OverlapPromise overlapPromiseOf(std::string_view model);

/// Checks one step. `tolerance` is the relative slack on r_A + r_B that
/// float rounding may eat (default 1e-4); `promise` that of the model that
/// took the step.
GateReport checkStep(const GateStep& step, const GateGeometry& geometry = {}, float tolerance = 1e-4f,
                     OverlapPromise promise = OverlapPromise{});

}  // namespace throng

#pragma once
// Continuum Crowds (Treuille, Cooper and Popović, SIGGRAPH 2006; the thesis
// in ../shared/seeds/004_*) for one walker, as a THRONG_HD function: the CPU
// step (continuum_model.cpp) loops over it, the CUDA kernel calls it once
// per thread, the teaching view for one walker.
//
// Design note.
// The fields (fields/field_math.hpp) are built in the step's phase 2, every
// fieldInterval steps; the wish (core/wish.hpp) of a walker with a target
// already points down its potential at its cruising speed (with the step's
// shake). This model sets the pace: the walker moves along its wish at
// |v_field| / f_max of it, v_field the face-interpolated field velocity at
// it (so ẋ = -f ∇φ / |∇φ| scaled to each walker's own top speed; f_max is
// the fastest walker's). A walker with no target (a goal point of its own),
// on its target, or with no way there walks its straight-line wish at the
// speed its cell gives in that direction.
//
// Bodies: the paper's minimum-distance enforcement. Discs that overlap
// (after a spawn, an edit, or another model) are pushed apart
// symmetrically, each half the overlap along the line between centres
// (gathered on the agent grid, so each walker computes its own half); the
// step itself is kept within the limits of core/keep_apart.hpp (a share of
// the gap to each walker that could touch it, the tangent of each wall),
// so discs apart stay apart and no step crosses a wall. A walker that wants
// to move and cannot (the limits leave it nothing) is jammed for the step.
#include <cmath>
#include <cstdint>

#include "core/keep_apart.hpp"
#include "fields/field_math.hpp"
#include "neighbors/agent_grid.hpp"
#include "throng/hd.hpp"
#include "throng/vec2.hpp"

namespace throng {

/// A step cut below this fraction of the one wanted counts as none.
inline constexpr float kContinuumStuck = 1e-3f;

/// What the per-walker motion reads besides the limits' views.
struct ContinuumView {
  FieldRouting field;                  ///< grid.cols == 0: no fields
  const std::int32_t *group = nullptr, *route = nullptr;
  StepReach reach;
};

/// The speed factor of the field at p along unit direction dir: the
/// cell's four speeds weighed by the squared components of dir, over f_max
/// (1 off the grid or with no fields).
THRONG_HD float cellPace(const FieldRouting& f, Vec2 p, Vec2 dir) {
  if (f.grid.cols == 0 || !(f.fmax > 0.0f)) return 1.0f;
  const std::int32_t c = fieldCellAt(f.grid, p);
  if (c < 0) return 1.0f;
  const float* sp = f.speed + 4 * c;
  const float ex = dir.x > 0.0f ? dir.x : 0.0f, wx = dir.x < 0.0f ? -dir.x : 0.0f;
  const float ny = dir.y > 0.0f ? dir.y : 0.0f, sy = dir.y < 0.0f ? -dir.y : 0.0f;
  const float pace = (ex * ex * sp[0] + ny * ny * sp[1] + wx * wx * sp[2] + sy * sy * sp[3]) / f.fmax;
  return pace < 1.0f ? pace : 1.0f;
}

/// Half the overlap with every walker whose disc overlaps i's, pushed away
/// from each (the minimum-distance enforcement), world units.
THRONG_HD Vec2 overlapPush(const AgentGridView& g, const MovingWalkers& a, const StepReach& r, std::int32_t i) {
  const Vec2 p{a.px[i], a.py[i]};
  const float ri = a.radius[i];
  std::uint64_t keys[kKeepApartNeighbors];
  const int found = gatherNear(g, p, i, ri + r.largestRadius, keys, kKeepApartNeighbors);
  Vec2 push{};
  if (found < 0) return push;
  for (int k = 0; k < found; ++k) {
    const std::int32_t j = static_cast<std::int32_t>(static_cast<std::uint32_t>(keys[k]));
    const float dSq = floatFromBits(static_cast<std::uint32_t>(keys[k] >> 32));
    const float sum = ri + a.radius[j];
    if (!(dSq < sum * sum) || !(dSq > 0.0f)) continue;  // apart, or coincident (no side to push to)
    const float d = std::sqrt(dSq);
    const float half = 0.5f * (sum - d) / d;
    push = push + Vec2{(p.x - a.px[j]) * half, (p.y - a.py[j]) * half};
  }
  return push;
}

/// What continuumVelocity found for one walker (the teaching view reads it).
struct ContinuumMotion {
  Vec2 flow;        ///< the field's velocity at the walker, units/s (0: none)
  float pace = 1;   ///< the fraction of its wish it walks at
  Vec2 push;        ///< the overlap push, world units
};

/// Walker i's new velocity into `out` from its wish (landing: the wish
/// lands exactly on its goal this step); false when it is jammed (it then
/// stands).
THRONG_HD bool continuumVelocity(const ContinuumView& cv, const AgentGridView& g, const ObstacleView& ov,
                                 const MovingWalkers& a, std::int32_t i, Vec2 wish, bool landing, Vec2& out,
                                 ContinuumMotion* motion = nullptr) {
  out = Vec2{};
  const Vec2 p{a.px[i], a.py[i]};
  const float want = wish.length();
  float pace = 1.0f;
  Vec2 flow{};
  const std::int32_t potential = cv.field.grid.cols > 0 ? potentialFor(cv.field, cv.group[i], cv.route[i]) : -1;
  bool onField = false;
  if (potential >= 0) {
    bool onTarget, lost;
    flow = fieldFlowAt(cv.field, potential, p, onTarget, lost);
    onField = !onTarget && !lost;
  }
  if (onField) {
    pace = flow.length() / cv.field.fmax;
    pace = pace < 1.0f ? pace : 1.0f;
  } else if (want > 0.0f && !landing) {
    pace = cellPace(cv.field, p, wish / want);
  }
  const Vec2 push = overlapPush(g, a, cv.reach, i);
  if (motion) *motion = {flow, pace, push};
  StepLimit limits[kKeepApartLimits];
  const int count = stepLimits(g, ov, a, cv.reach, i, limits);
  if (count < 0) return false;
  const float dt = cv.reach.dt;
  const Vec2 s = wish * (pace * dt);
  if (landing && push.x == 0.0f && push.y == 0.0f) {  // the landing step is exact when nothing cuts it
    const Vec2 taken = slideWithin(limits, count, s);
    if (taken.x == s.x && taken.y == s.y) {
      out = wish;
      return true;
    }
  }
  const Vec2 taken = slideWithin(limits, count, s + push);
  out = taken / dt;
  if (want == 0.0f) return true;  // standing by choice is not stuck
  return taken.length() > kContinuumStuck * s.length();
}

}  // namespace throng

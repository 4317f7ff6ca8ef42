#pragma once
// Continuum Crowds (Treuille, Cooper and Popović, SIGGRAPH 2006, as a
// thesis on GPU crowd path planning builds it) for one walker, as a
// THRONG_HD function: the CPU step (continuum_model.cpp) loops over it, the
// CUDA kernel calls it once per thread, the teaching view for one walker.
//
// Design note.
// The fields (fields/field_math.hpp) are built in the step's fields phase, every
// fieldInterval steps; the wish (core/wish.hpp) of a walker with a target
// already points down its potential at its cruising speed (with the step's
// shake). This model sets the pace: the walker moves along its wish at
// |v_field| / f_max of it, v_field the face-interpolated field velocity at
// it (so ẋ = -f ∇φ / |∇φ| scaled to each walker's own top speed; f_max is
// the fastest walker's). A walker with no target (a goal point of its own),
// on its target, or with no way there walks its straight-line wish at the
// speed its cell gives in that direction.
//
// Bodies: the paper's minimum-distance enforcement, as a second pass.
// Each walker's step is predicted from its desired velocity; every pair
// whose predicted discs overlap is pushed apart symmetrically, each half
// the overlap along the line between the predicted centres (gathered on
// the agent grid: each walker sums its own halves, so a round is race-free
// and order-free), kPushRounds rounds, each from the positions the last
// left (a walker pushed at most kMostPush radii in all); the step with its
// push is then kept off the walls (core/keep_apart.hpp's wall limits). A
// queue presses on the walker in front of it rather than freezing behind
// it; two walkers meeting head on also step to their right (kHeadOnSine).
// A walker that wants to move and makes no headway along its step, or is
// left overlapping a neighbour by more than kContinuumOverlap, is jammed
// for the step.
//
// Envelope (Settings::maxAccel, opt-in): the desired velocity is brought
// into it (core/envelope.hpp); the first move is kept from neighbours and
// walls at braking distance by the keep-apart limits (keptApartMove), and
// each round's move with its push is brought into the envelope too, so
// the next round's neighbours push against where it can be; the walls
// come last and win. The push then parts the crowd only as fast as its
// walkers can move; a walker left overlapping past kContinuumOverlap, or
// closing within the step deeper than the gate allows, is jammed.
#include <cmath>
#include <cstdint>

#include "core/envelope.hpp"
#include "core/keep_apart.hpp"
#include "fields/field_math.hpp"
#include "neighbors/agent_grid.hpp"
#include "throng/hd.hpp"
#include "throng/vec2.hpp"

namespace throng {

/// Headway below this fraction of the step wanted counts as none.
inline constexpr float kContinuumStuck = 1e-3f;

/// What the per-walker passes read besides the views.
struct ContinuumView {
  FieldRouting field;                  ///< grid.cols == 0: no fields
  const std::int32_t *group = nullptr, *route = nullptr;
  StepReach reach;
  StepEnvelope envelope;  ///< none by default (stepEnvelope)
};

/// The speed factor of the field at p along unit direction dir: the
/// cell's speeds through its open faces (a closed face's is 0, an open
/// one's never is) weighed by the squared components of dir, over f_max;
/// 1 off the grid, with no fields, or heading only into closed faces.
/// The closed faces are left out because a walker along a wall that the
/// cells draw as a staircase (any wall not along the grid) heads partly
/// into them: counted, they would slow it to a crawl in an empty corridor.
/// Walls are the push's to keep (continuumStep), not the speed's.
THRONG_HD float cellPace(const FieldRouting& f, Vec2 p, Vec2 dir) {
  if (f.grid.cols == 0 || !(f.fmax > 0.0f)) return 1.0f;
  const std::int32_t c = fieldCellAt(f.grid, p);
  if (c < 0) return 1.0f;
  const float* sp = f.speed + 4 * c;
  const float ex = dir.x > 0.0f ? dir.x : 0.0f, wx = dir.x < 0.0f ? -dir.x : 0.0f;
  const float ny = dir.y > 0.0f ? dir.y : 0.0f, sy = dir.y < 0.0f ? -dir.y : 0.0f;
  const float weight[4] = {ex * ex, ny * ny, wx * wx, sy * sy};
  float sum = 0.0f, open = 0.0f;
  for (int d = 0; d < 4; ++d) {
    if (!(sp[d] > 0.0f)) continue;
    sum += weight[d] * sp[d];
    open += weight[d];
  }
  if (!(open > 0.0f)) return 1.0f;
  const float pace = sum / (open * f.fmax);
  return pace < 1.0f ? pace : 1.0f;
}

/// What the first pass found for one walker (the teaching view reads it).
struct ContinuumMotion {
  Vec2 flow;        ///< the field's velocity at the walker, units/s (0: none)
  float pace = 1;   ///< the fraction of its wish it walks at
};

/// Pass 1: walker i at p, with its wish (landing: it lands exactly on its
/// goal this step), desires its wish, at most at the field's speed there:
/// |v_field| on its potential, else its cell's speed along the wish; under
/// the envelope, that velocity brought into it.
THRONG_HD Vec2 continuumDesired(const ContinuumView& cv, std::int32_t i, Vec2 p, Vec2 wish, bool landing,
                                ContinuumMotion* motion = nullptr) {
  float pace = 1.0f;
  Vec2 flow{};
  const std::int32_t potential = cv.field.grid.cols > 0 ? potentialFor(cv.field, cv.group[i], cv.route[i]) : -1;
  bool onField = false;
  if (potential >= 0) {
    bool onTarget, lost;
    flow = fieldFlowAt(cv.field, potential, p, onTarget, lost);
    onField = !onTarget && !lost;
  }
  const float want = wish.length();
  if (onField) {
    pace = flow.length() / cv.field.fmax;
    pace = pace < 1.0f ? pace : 1.0f;
  } else if (want > 0.0f && !landing) {
    pace = cellPace(cv.field, p, wish / want);
  }
  if (motion) *motion = {flow, pace};
  // The field gives the speed the crowd and the ground allow, pace * fmax
  // (units/s): the walker walks at its wish, at most that. Scaling the
  // wish by the pace instead would count the crowd twice for a wish the
  // pace phase has already slowed to the room ahead.
  // A wish at f_max or faster is scaled by the pace itself: the same
  // velocity, in the bits it always had.
  if (!(pace < 1.0f) || !(want < cv.field.fmax)) return cv.envelope.into(i, wish * pace);
  const float allowed = pace * cv.field.fmax;
  return cv.envelope.into(i, want > allowed ? wish * (allowed / want) : wish);
}

/// The overlap the push leaves, as a fraction of r_A + r_B, which the
/// gate holds the model to (the shipped scenes stay within it at
/// kPushRounds 8: `ctest -R "every shipped scene keeps"` prints each).
inline constexpr float kContinuumOverlap = 0.05f;

/// Rounds of the symmetric push a step takes (Jacobi: each round from the
/// positions the last one left), and the farthest the pushes may move a
/// walker in a step, in radii.
inline constexpr int kPushRounds = 8;
inline constexpr float kMostPush = 0.5f;

/// How far apart two walkers may be at the start of a step and still meet
/// in its push: their radii, both steps and both pushes.
THRONG_HD float pushReach(const StepReach& r) {
  return 2.0f * r.largestRadius * (1.0f + kMostPush) + 2.0f * r.largestSpeed * r.dt;
}

/// The walkers as the push reads them: where they start (the grid's
/// positions), their unpushed steps, and where the last round left them.
struct ContinuumWalkers {
  const float *px = nullptr, *py = nullptr, *radius = nullptr;
  const float *sx = nullptr, *sy = nullptr;
  const float *qx = nullptr, *qy = nullptr;
};

/// Two walkers whose steps meet head on (opposed, and their centres within
/// this sine of the line of one's step) each also step aside to their
/// right by the push's size, as pedestrians keep to one side: the push
/// alone is symmetric and would hold them nose to nose.
inline constexpr float kHeadOnSine = 0.1f;

/// Walker i's move from p_i by `move`, kept off the walls within its
/// reach this step (ri + its step + its most push, and under an envelope
/// its stopping distance: wallLimits): as far as the walls' limits allow,
/// then sliding along them, and under walker i's envelope kept within it
/// where the walls allow (slideWithinEnvelope). `move` itself when none is
/// near.
THRONG_HD Vec2 offWalls(const ObstacleView& ov, Vec2 p, float ri, float stepLength, Vec2 move, bool& blocked,
                        const StepEnvelope& envelope = {}, float dt = 0.0f, std::int32_t i = 0) {
  StepLimit limits[kKeepApartLimits];
  const float brakeRoom = envelope.brakeRoom(i);
  float reach = ri + stepLength + kMostPush * ri;
  if (brakeRoom > 0.0f) reach += stoppingReach(stepLength / dt, dt, brakeRoom);
  const int count = wallLimits(ov, p, ri, reach, limits, 0, brakeRoom);
  blocked = count < 0;
  if (blocked) return Vec2{};
  return slideWithinEnvelope(limits, count, move, envelope, i, dt);
}

/// Under the envelope, walker i's first move from its step s: kept from
/// its neighbours and the walls at braking distance by the keep-apart
/// limits (core/keep_apart.hpp, as BioCrowds keeps them) and within the
/// envelope, so a walker brakes for a body ahead in time rather than meet
/// it at speed and leave the push to part them. Standing when more are
/// within reach than the limits hold.
THRONG_HD Vec2 keptApartMove(const AgentGridView& g, const ObstacleView& ov, const MovingWalkers& a,
                             const ContinuumView& cv, std::int32_t i, Vec2 s) {
  StepReach reach = cv.reach;
  reach.envelope = cv.envelope;
  StepLimit limits[kKeepApartLimits];
  const int count = stepLimits(g, ov, a, reach, i, limits, nullptr, true);
  if (count < 0) return cv.envelope.into(i, Vec2{}) * reach.dt;
  return slideWithinEnvelope(limits, count, s, cv.envelope, i, reach.dt);
}

/// Walker i's first move from its unpushed step s (of length
/// `stepLength`), before the push: keptApartMove under the envelope, else
/// kept off the walls (offWalls).
THRONG_HD Vec2 firstMove(const AgentGridView& g, const ObstacleView& ov, const MovingWalkers& a,
                         const ContinuumView& cv, std::int32_t i, Vec2 s, float stepLength) {
  if (cv.envelope.onFor(i)) return keptApartMove(g, ov, a, cv, i, s);
  bool blocked;
  return offWalls(ov, Vec2{a.px[i], a.py[i]}, a.radius[i], stepLength, s, blocked);
}

/// One round of the push for walker i: from q_i, half the overlap with
/// every disc it overlaps at the q's pushed off each, the push since its
/// unpushed step s_i kept within kMostPush radii, the whole move from p_i
/// brought into the envelope (when there is one) and kept off the walls
/// (so its neighbours' next round sees where it can be).
THRONG_HD Vec2 pushRound(const AgentGridView& g, const ObstacleView& ov, const ContinuumWalkers& a, const StepReach& r,
                         std::int32_t i, Vec2 s, const StepEnvelope& envelope = {}) {
  const Vec2 p{a.px[i], a.py[i]};
  const Vec2 q{a.qx[i], a.qy[i]};
  const float ri = a.radius[i];
  std::uint64_t keys[kKeepApartNeighbors];
  const int found = gatherNear(g, p, i, pushReach(r), keys, kKeepApartNeighbors);
  Vec2 shove{};
  for (int k = 0; k < found; ++k) {
    const std::int32_t j = static_cast<std::int32_t>(static_cast<std::uint32_t>(keys[k]));
    const Vec2 dq{q.x - a.qx[j], q.y - a.qy[j]};
    const float sum = ri + a.radius[j];
    const float dSq = dq.lengthSquared();
    if (!(dSq < sum * sum) || !(dSq > 0.0f)) continue;  // apart, or coincident (no side to push to)
    const float d = std::sqrt(dSq);
    const float half = 0.5f * (sum - d);
    shove = shove + dq * (half / d);
    const Vec2 sj{a.sx[j], a.sy[j]};
    const float si = s.length();
    if (si > 0.0f && dot(s, sj) < 0.0f && std::fabs(det(dq, s)) < kHeadOnSine * d * si)
      shove = shove + Vec2{s.y, -s.x} * (half / si);  // to its right
  }
  Vec2 pushed = q + shove - (p + s);
  const float most = kMostPush * ri, length = pushed.length();
  if (length > most) pushed = pushed * (most / length);
  Vec2 move = s + pushed;
  if (envelope.onFor(i)) move = envelope.into(i, move * (1.0f / r.dt)) * r.dt;
  bool blocked;
  return p + offWalls(ov, p, ri, s.length(), move, blocked, envelope, r.dt, i);
}

/// Walker i's step to its pushed position q_i as a velocity into `out`;
/// `s` is its unpushed step (landing: exact, kept when nothing cut it).
/// False when it is jammed: it wanted to move and made no headway along s,
/// or the push left it overlapping a neighbour by more than
/// kContinuumOverlap (crushed); with `swept` (under the envelope, whose
/// push parts a crowd more slowly), also when its pair with a neighbour
/// closes within the step deeper than the gate allows (verify.hpp: past
/// kContinuumOverlap from apart, deeper than it started when deeper).
THRONG_HD bool continuumStep(const AgentGridView& g, const ContinuumWalkers& a, const StepReach& r, std::int32_t i,
                             Vec2 s, bool landing, Vec2& out, bool swept = false) {
  const Vec2 p{a.px[i], a.py[i]};
  const Vec2 q{a.qx[i], a.qy[i]};
  const Vec2 taken = q - p;
  if (landing && taken.x == s.x && taken.y == s.y) {
    out = s / r.dt;
  } else {
    out = taken / r.dt;
    const float wanted = s.lengthSquared();
    if (!(wanted == 0.0f || dot(taken, s) > kContinuumStuck * wanted)) return false;
  }
  std::uint64_t keys[kKeepApartNeighbors];
  const int found = gatherNear(g, p, i, pushReach(r), keys, kKeepApartNeighbors);
  const float ri = a.radius[i];
  for (int k = 0; k < found; ++k) {
    const std::int32_t j = static_cast<std::int32_t>(static_cast<std::uint32_t>(keys[k]));
    const float near = (1.0f - kContinuumOverlap) * (ri + a.radius[j]);
    const float dx = q.x - a.qx[j], dy = q.y - a.qy[j];
    if (dx * dx + dy * dy < near * near) return false;
    if (!swept) continue;
    // The pair's nearest along both straight steps, against its start.
    const float sum = ri + a.radius[j];
    const Vec2 from{p.x - a.px[j], p.y - a.py[j]};
    const Vec2 closing = Vec2{dx, dy} - from;
    const float lengthSq = closing.lengthSquared();
    float t = lengthSq > 0.0f ? -dot(from, closing) / lengthSq : 0.0f;
    t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
    const float startGap = from.length() - sum, nearestGap = (from + closing * t).length() - sum;
    const float floor = -kContinuumOverlap * sum;
    if (nearestGap < (startGap > floor ? floor : startGap)) return false;
  }
  return true;
}

}  // namespace throng

#pragma once
// Keeping discs apart within a step, for the models whose motion is not a
// velocity program (BioCrowds, Continuum Crowds): the limits of a walker's
// step, half-planes it may not cross, and the step slid within them, as
// THRONG_HD functions over plain views (the CPU passes, the CUDA kernels).
//
// Design note.
//  - For each walker j that could touch i this step (centres nearer than
//    r_i + r_j + (v_i + v_j) dt, v the top speeds): the line across p_i p_j
//    that leaves i its share of the gap d - r_i - r_j (kGapShare of it, so
//    rounding never closes the gap). Shares go by radius, except in touch
//    (the gap under kTouchGap (r_i + r_j)): a walker with the other ahead
//    of it along its wish yields (takes none) and the other takes it all
//    (head on, each ahead of the other: the lower index goes first). Both
//    walkers of a pair find the same shares, which never sum above the
//    gap, so discs apart stay apart and centres never cross or meet;
//  - for each obstacle edge or wall within r_i + v_i dt: the tangent line
//    of its nearest point, with r_i beyond it.
// Under a kinematic envelope, walkers and walls are looked for as far as
// the stopping distances too, and each limit's room is the step from which
// the walker can still stop short of it (brakingRoom), so a walker brakes
// for a neighbour or a wall within maxDecel rather than meet it at speed.
// A step is taken as far as the limits allow, then slides along the limit
// that stopped it (slideWithin).
#include <cmath>
#include <cstdint>

#include "core/envelope.hpp"
#include "geometry/obstacles.hpp"
#include "neighbors/agent_grid.hpp"
#include "neighbors/agents_view.hpp"
#include "neighbors/near_lists.hpp"
#include "throng/hd.hpp"
#include "throng/vec2.hpp"

namespace throng {

/// The part of its share of the gap to a neighbour, or of its room to a
/// wall, a walker may use in one step.
inline constexpr float kGapShare = 0.999f;
/// A pair nearer than this fraction of r_A + r_B beyond contact is in
/// touch: a walker that has the other ahead of it yields (see stepLimits).
inline constexpr float kTouchGap = 0.02f;

/// The most walkers one walker keeps apart from in a step, and the most
/// limits (walkers, then edges and walls); with more within reach it
/// stands, jammed (reached only far beyond a crush's density).
inline constexpr int kKeepApartNeighbors = 48;
inline constexpr int kKeepApartLimits = 64;
/// Wishes within this cosine of each other's (45°) walk the same way
/// (stepLimits' crossingOnly).
inline constexpr float kSameWayCos = 0.70710678f;
/// How many times a step cut by a limit slides along it (slideWithin).
inline constexpr int kSlides = 3;

/// The overlap the limits allow, as a fraction of r_A + r_B (the models
/// that keep to them promise it; the gate holds them to it): in exact
/// arithmetic none; this is the float rounding of positions far from the
/// origin, with a margin.
inline constexpr float kKeepApartOverlap = 1e-4f;

/// What the limits read besides the walkers: the step, the largest radius
/// and top speed over the walkers (how far to look), and the kinematic
/// envelope (core/envelope.hpp): a walker under one keeps walls and others
/// at braking distance, b_i·dt² (its brakeRoom); none by default.
struct StepReach {
  float dt = 1.0f / 60;     ///< s
  float largestRadius = 0;  ///< world units
  float largestSpeed = 0;   ///< units/s
  StepEnvelope envelope;
};

/// The most a step may close on a wall `room` away and still stop short
/// of it braking at b (brakeRoom = b·dt²): s with s + (s/dt)²/(2b) = room,
/// the step and the stopping distance after it. `room` itself with no
/// envelope (brakeRoom 0).
THRONG_HD float brakingRoom(float room, float brakeRoom) {
  if (!(brakeRoom > 0.0f)) return room;
  return brakeRoom * (std::sqrt(1.0f + 2.0f * room / brakeRoom) - 1.0f);
}

/// How far beyond its step a walker at `speed` looks for walls: its
/// stopping distance under the envelope (0 without one).
THRONG_HD float stoppingReach(float speed, float dt, float brakeRoom) {
  return brakeRoom > 0.0f ? speed * speed * dt * dt / (2.0f * brakeRoom) : 0.0f;
}

/// The walkers as the limits read them (the state before the step).
struct MovingWalkers {
  const float *px = nullptr, *py = nullptr, *radius = nullptr, *maxSpeed = nullptr;
  const float *wishX = nullptr, *wishY = nullptr;  ///< the step's wishes
  const float *vx = nullptr, *vy = nullptr;  ///< velocities as the step began (read under an envelope only)
  /// The walkers' own envelopes (AgentsView::maxAccel, maxDecel), or null.
  const float *maxAccel = nullptr, *maxDecel = nullptr;
  /// `e` reading these walkers' velocities and own bounds.
  THRONG_HD StepEnvelope envelopeOver(StepEnvelope e) const {
    e.vx = vx, e.vy = vy, e.ownAccel = maxAccel, e.ownDecel = maxDecel;
    return e;
  }
};

/// The walkers of `a` (the host's or the device's arrays) with the step's
/// wishes, as the limits read them.
THRONG_HD MovingWalkers movingWalkers(const AgentsView& a, const float* wishX, const float* wishY) {
  return MovingWalkers{a.px, a.py, a.radius, a.maxSpeed, wishX, wishY, a.vx, a.vy, a.maxAccel, a.maxDecel};
}

/// Whether the walker at p with wish g has the walker at q ahead of it
/// (the same bits whichever of the two asks).
THRONG_HD bool aheadOf(Vec2 p, Vec2 g, Vec2 q) { return (q.x - p.x) * g.x + (q.y - p.y) * g.y > 0.0f; }

/// One half-plane of S_i, relative to p_i: a step s is in it when
/// dot(s, normal) >= -room.
struct StepLimit {
  Vec2 normal;
  float room;
  bool yields = false;  ///< a walker's, in touch and ahead: this one yields to it
};

/// The limits of the walls and obstacle edges within `wallReach` of a disc
/// of radius ri at p, appended to out[] after `count`: the tangent line of
/// each one's nearest point, with ri beyond it (a centre on a wall may not
/// move); under an envelope (brakeRoom > 0), only as near as the walker
/// can still stop from (brakingRoom). The new count, or -1 past
/// kKeepApartLimits.
THRONG_HD int wallLimits(const ObstacleView& ov, Vec2 p, float ri, float wallReach, StepLimit* out, int count,
                         float brakeRoom = 0.0f) {
  const EdgeCells r = edgeCellsAround(ov, Vec2{p.x - wallReach, p.y - wallReach}, Vec2{p.x + wallReach, p.y + wallReach});
  const float reachSq = wallReach * wallReach;
  for (int cy = r.y0; cy <= r.y1; ++cy)
    for (int cx = r.x0; cx <= r.x1; ++cx) {
      const int c = cy * ov.cols + cx;
      for (int k = ov.cellStart[c]; k < ov.cellStart[c + 1]; ++k) {
        const ObstacleVertex& v1 = ov.vertices[ov.cellEdges[k]];
        const Vec2 a0 = v1.point, ab = ov.vertices[v1.next].point - v1.point;
        const float len2 = ab.lengthSquared();
        float f = len2 > 0.0f ? dot(p - a0, ab) / len2 : 0.0f;
        f = f < 0.0f ? 0.0f : (f > 1.0f ? 1.0f : f);
        const Vec2 away{p.x - (a0.x + f * ab.x), p.y - (a0.y + f * ab.y)};
        const float dSq = away.lengthSquared();
        if (!(dSq < reachSq)) continue;
        if (count + 4 > kKeepApartLimits) return -1;
        if (!(dSq > 0.0f)) {  // a centre on a wall: it may not move at all
          out[count++] = {Vec2{1, 0}, 0.0f};
          out[count++] = {Vec2{-1, 0}, 0.0f};
          out[count++] = {Vec2{0, 1}, 0.0f};
          out[count++] = {Vec2{0, -1}, 0.0f};
          continue;
        }
        const float d = std::sqrt(dSq);
        out[count++] = {Vec2{away.x / d, away.y / d}, d > ri ? brakingRoom(kGapShare * (d - ri), brakeRoom) : 0.0f};
      }
    }
  return count;
}

/// Walker i's limits into out[] (at most kKeepApartLimits): one per walker that
/// could touch it this step, then one per obstacle edge or wall within
/// r_i + v_i dt. The count, or -1 with more than that within reach;
/// `firstWall` (optional) takes the index of the first wall's. With
/// `crossingOnly`, walkers whose wishes lie within kSameWayCos of each
/// other's are left out (a pair agrees on it: the test is symmetric).
THRONG_HD int stepLimits(const AgentGridView& g, const ObstacleView& ov, const MovingWalkers& a, const StepReach& bp,
                         std::int32_t i, StepLimit* out, int* firstWall = nullptr, bool crossingOnly = false) {
  const Vec2 p{a.px[i], a.py[i]};
  const float ri = a.radius[i], vi = a.maxSpeed[i];
  const StepEnvelope& e = bp.envelope;
  const float brakeRoom = e.brakeRoom(i);  // 0: i is under no envelope
  std::uint64_t keys[kKeepApartNeighbors];
  float reach = ri + bp.largestRadius + (vi + bp.largestSpeed) * bp.dt;
  if (e.on())  // under an envelope: as far as both can take to stop
    reach += stoppingReach(vi, bp.dt, brakeRoom) + stoppingReach(bp.largestSpeed, bp.dt, e.weakestRoom);
  const int found = gatherNear(g, p, i, reach, keys, kKeepApartNeighbors);
  if (found < 0) return -1;
  int count = 0;
  for (int k = 0; k < found; ++k) {
    const std::int32_t j = static_cast<std::int32_t>(static_cast<std::uint32_t>(keys[k]));
    const float dSq = floatFromBits(static_cast<std::uint32_t>(keys[k] >> 32));
    const float sum = ri + a.radius[j];
    float touch = sum + (vi + a.maxSpeed[j]) * bp.dt;  // the same from either side
    if (e.on())  // one sum, the same bits from either side
      touch += (stoppingReach(vi, bp.dt, brakeRoom) + stoppingReach(a.maxSpeed[j], bp.dt, e.brakeRoom(j)));
    if (!(dSq < touch * touch)) continue;
    if (crossingOnly) {
      const Vec2 wi{a.wishX[i], a.wishY[i]}, wj{a.wishX[j], a.wishY[j]};
      if (dot(wi, wj) > kSameWayCos * (wi.length() * wj.length())) continue;
    }
    const float d = std::sqrt(dSq);
    if (!(d > 0.0f)) continue;  // coincident: no side to keep to
    const Vec2 pj{a.px[j], a.py[j]};
    const Vec2 u{(p.x - pj.x) / d, (p.y - pj.y) / d};
    // Shares of the gap: by radius; but in touch, a walker with the other
    // ahead of it yields (takes none) and the other takes all, so a queue
    // or an arch at a door opens from the front. Both walkers of a pair
    // find the same flags, so the shares never sum above the gap.
    const bool inTouch = d - sum < kTouchGap * sum;
    const bool jAhead = inTouch && aheadOf(p, Vec2{a.wishX[i], a.wishY[i]}, pj);
    const bool iAhead = inTouch && aheadOf(pj, Vec2{a.wishX[j], a.wishY[j]}, p);
    // Each ahead of the other (head on): the lower index goes first.
    const bool iYields = jAhead && !(iAhead && i < j);
    const bool jYields = iAhead && !(jAhead && j < i);
    const float share = iYields ? 0.0f : (jYields ? 1.0f : ri / sum);
    const float room = d > sum ? brakingRoom(kGapShare * (d - sum) * share, brakeRoom) : 0.0f;
    out[count++] = {u, room, iYields};
  }
  if (firstWall) *firstWall = count;
  return wallLimits(ov, p, ri, ri + vi * bp.dt + stoppingReach(vi, bp.dt, brakeRoom), out, count, brakeRoom);
}

/// The step s made to keep within the limits: taken as far as they allow,
/// then what is left slides along the limit that stopped it (the part
/// along its normal dropped), up to kSlides times. The step as a total.
THRONG_HD Vec2 slideWithin(const StepLimit* limits, int count, Vec2 s) {
  Vec2 total{}, rest = s;
  for (int pass = 0; pass <= kSlides; ++pass) {
    float t = 1;
    int stop = -1;
    for (int k = 0; k < count; ++k) {
      const float along = dot(rest, limits[k].normal);
      if (!(along < 0.0f)) continue;
      // Room left before this limit, after the part of the step taken.
      const float room = limits[k].room + dot(total, limits[k].normal);
      const float most = room > 0.0f ? room / -along : 0.0f;
      if (most < t) {
        t = most;
        stop = k;
      }
    }
    total = total + rest * t;
    if (stop < 0) break;
    rest = rest * (1.0f - t);
    const Vec2 n = limits[stop].normal;
    rest = rest - n * dot(rest, n);  // slide along the limit that stopped it
  }
  return total;
}

/// How many times slideWithinEnvelope brings a step into the envelope and
/// keeps it within the limits, by turns, before it looks along lines to
/// steps the envelope surely holds.
inline constexpr int kEnvelopeTurns = 16;

/// The nearest step to `from` on the segment from `from` to `to` that keeps
/// limits[0, count), into `out`; false when no point of it does.
THRONG_HD bool nearestWithin(const StepLimit* limits, int count, Vec2 from, Vec2 to, Vec2& out) {
  float lo = 0, hi = 1;
  const Vec2 span = to - from;
  for (int k = 0; k < count; ++k) {
    // dot(from + t span, n) + room >= 0, linear in t.
    const float at = dot(from, limits[k].normal) + limits[k].room, slope = dot(span, limits[k].normal);
    if (slope > 0.0f) {
      const float t = -at / slope;
      lo = t > lo ? t : lo;
    } else if (slope < 0.0f) {
      const float t = at / -slope;
      hi = t < hi ? t : hi;
    } else if (at < 0.0f) {
      return false;
    }
  }
  if (lo > hi) return false;
  out = from + span * lo;
  return true;
}

/// A step s of dt seconds kept within limits[0, count) and, under walker
/// i's envelope, within it too where the limits leave one: s brought into
/// the envelope and slid within the limits by turns (both are convex, so
/// the turns close in on a step in both). One still outside is looked for
/// on the lines from the last turn's step in the envelope to three the
/// envelope surely holds, keeping the velocity, braking hardest and turning
/// hardest away from the limit it breaks most: the point nearest it that
/// keeps the limits (in the envelope, which is convex). Otherwise the
/// limits win. slideWithin(s) without an envelope.
THRONG_HD Vec2 slideWithinEnvelope(const StepLimit* limits, int count, Vec2 s, const StepEnvelope& envelope,
                                   std::int32_t i, float dt) {
  Vec2 taken = slideWithin(limits, count, s);
  if (!envelope.onFor(i)) return taken;
  const float perStep = 1.0f / dt;
  Vec2 kept = envelope.into(i, taken * perStep) * dt;
  for (int turn = 0; turn < kEnvelopeTurns && !(kept == taken); ++turn) {
    taken = slideWithin(limits, count, kept);
    kept = envelope.into(i, taken * perStep) * dt;
  }
  if (kept == taken) return taken;
  Vec2 found;
  const Vec2 before{envelope.vx[i], envelope.vy[i]};
  if (nearestWithin(limits, count, kept, before * dt, found)) return found;
  if (nearestWithin(limits, count, kept, envelope.into(i, Vec2{}) * dt, found)) return found;
  // The limit the last turn's step breaks most: the envelope's step that
  // turns away from it hardest.
  int worst = -1;
  float deepest = 0;
  for (int k = 0; k < count; ++k) {
    const float room = dot(kept, limits[k].normal) + limits[k].room;
    if (room < deepest) deepest = room, worst = k;
  }
  if (worst >= 0) {
    const Vec2 away = envelope.into(i, before + limits[worst].normal * envelope.accelOf(i)) * dt;
    if (nearestWithin(limits, count, kept, away, found)) return found;
  }
  return taken;
}

}  // namespace throng

#pragma once
// BioCrowds (de Lima Bicho et al., "Simulating crowds based on a space
// colonization algorithm", Computers & Graphics 36(2), 2012) for one marker
// or one walker, as THRONG_HD functions over plain views: the CPU step
// (biocrowds_model.cpp) loops over them, the CUDA kernels call them once per
// thread (biocrowds_device.cu), the teaching view for one walker.
//
// Design note.
// Ownership. Markers (markers.hpp) are points on walkable ground. Each step
// every marker belongs to the nearest walker within the personal space R
// that sees it (the segment between them meets no obstacle edge or wall),
// ties to the lower index: computed per marker by gathering from the agent
// grid (markerOwner; ownersOfCell gathers once for a cell's markers), so it
// is race-free and the same on every thread and on the GPU.
//
// Motion. Walker i with wish g (the step's shared wish: goal, route gate,
// stream or closure, as every model takes it) and usable owned markers at
// offsets m_k weighs each f_k = (1 + cos θ_k) / (1 + |m_k|), θ_k the angle
// between g and m_k, and heads along M = Σ f_k m_k / Σ f_k at speed
//   min(gain |g| |M| / |M0(R)|, |g|, maxSpeed),
// where |M0(R)| is |M| for a lone walker on an even field of markers
// (loneWalkerReach: the integrals over the disc of radius R in closed form),
// so at gain 1 (Settings::markerGain) a lone walker's uncapped speed
// averages its wish's over the markers it passes; the lab code's factor of
// π at R = 1 m is 1 / |M0(1)| = 3.18. The cap at |g| cuts the steps where
// |M| is above |M0|, so its speed averages a little less than the wish: a
// gain a little above 1 keeps a lone walker at it.
//
// Bodies. Markers give personal space, not a body; discs are kept apart
// by each walker's limits, half-planes its step may not cross
// (core/keep_apart.hpp: a share of the gap to each walker that could touch
// it, the tangent of each wall near it), so centres never cross or meet.
// An owned marker is usable when i's disc fits on it (its clearance is at
// least r_i). The step along M is taken as far as the limits allow, then
// slides along the limit that stopped it (slideWithin). A walker whose step
// comes to nothing but that touches walkers ahead of it backs off from
// them by kBackOff of its step: hard discs pressing at a door form arches,
// as grains do, and the one behind giving way opens them. A walker that
// wants to move and has no usable marker, M ≈ 0, or no step at all stands
// and is jammed for that step: jammed means stuck here too.
//
// Envelope (Settings::maxAccel, opt-in): each step wanted, the back-off
// too, is brought into the kinematic envelope (core/envelope.hpp) before
// the limits cut it, and a walker that would stand brakes to a stop. The
// envelope wins: a step the limits cut past it (a neighbour stepping in
// closer than the walker can brake for) is brought back into it, and the
// walker is jammed for that step, so unjammed walkers still never meet.
// The walls win over the envelope: one closing in faster than the walker
// can brake stops it all the same.
#include <cmath>
#include <cstdint>

#include "core/envelope.hpp"
#include "core/keep_apart.hpp"
#include "geometry/obstacles.hpp"
#include "models/biocrowds/markers.hpp"
#include "neighbors/agent_grid.hpp"
#include "neighbors/near_lists.hpp"
#include "throng/hd.hpp"
#include "throng/vec2.hpp"

namespace throng {

// The limits that keep discs apart are core/keep_apart.hpp's, shared with
// Continuum Crowds; BioCrowds' names for them:
using BioWalkers = MovingWalkers;
using BioLimit = StepLimit;
inline constexpr int kBioNeighbors = kKeepApartNeighbors;
inline constexpr int kBioLimits = kKeepApartLimits;

/// |M| below this fraction of |M0(R)|, or a step cut below this fraction of
/// the one wanted, counts as none: the walker stands, jammed.
inline constexpr float kStuckFraction = 1e-3f;
/// How far a wedged walker backs off from those ahead in a step, as a
/// fraction of the step it wanted.
inline constexpr float kBackOff = 0.25f;
/// The overlap BioCrowds promises (the gate holds it to it).
inline constexpr float kBioOverlap = kKeepApartOverlap;
/// The most walkers a marker cell gathers at once (ownersOfCell); a cell
/// with more asks the grid per marker.
inline constexpr int kCellCandidates = 256;

/// |M| of a lone walker on an even field of markers within R, world units:
/// ∫0^R r^2/(1+r) dr / (2 ∫0^R r/(1+r) dr) (the angular integrals of
/// (1 + cos θ) cos θ and of (1 + cos θ) give π and 2π), from the closed
/// forms R^2/2 - R + ln(1+R) and R - ln(1+R); below R = 1e-3 their series
/// (R/3 at the limit), where the closed forms would cancel.
inline double loneWalkerReach(double R) {
  if (R < 1e-3) return R * (1.0 / 3 - R / 4 + R * R / 5) / (2 * (0.5 - R / 3 + R * R / 4));
  const double num = R * R / 2 - R + std::log1p(R);
  const double den = R - std::log1p(R);
  return num / (2 * den);
}

/// What the per-walker motion reads besides the views.
struct BioParams {
  float radius = 1;      ///< R, the personal space, world units
  float radiusSq = 1;    ///< R^2
  float gain = 1;        ///< Settings::markerGain / |M0(R)|
  float dt = 1.0f / 60;  ///< s
  float largestRadius = 0;  ///< over the walkers, world units
  float largestSpeed = 0;   ///< top speed over the walkers, units/s
  /// The kinematic envelope (core/envelope.hpp), its bounds only: the
  /// walkers' view (BioWalkers::envelopeOver) gives it their arrays.
  StepEnvelope envelope;
};



// ---- ownership --------------------------------------------------------------

/// Offers walker `index` at q (d = |q - m|^2, as the candidates compute
/// it) as the owner of the marker at m: it replaces (bestD, best) when
/// nearer, ties to the lower index, and its segment to m meets no edge
/// (tested only when `walls`). Start from (R^2, -1): strictly within R.
THRONG_HD void offerOwner(float d, std::int32_t index, Vec2 q, Vec2 m, const ObstacleView& ov, bool walls,
                          float& bestD, std::int32_t& best) {
  if (!(d < bestD || (d == bestD && index < best))) return;
  if (walls && segmentBlocked(ov, q, m)) return;
  bestD = d;
  best = index;
}

/// The owner of the marker at m among candidates (cx, cy, index), or -1:
/// the same answer for any order and any superset of the walkers within R.
THRONG_HD std::int32_t ownerAmong(const float* cx, const float* cy, const std::int32_t* ci, int count, Vec2 m,
                                  float radiusSq, const ObstacleView& ov, bool walls) {
  float bestD = radiusSq;
  std::int32_t best = -1;
  for (int j = 0; j < count; ++j) {
    const float dx = cx[j] - m.x;
    const float dy = cy[j] - m.y;
    offerOwner(dx * dx + dy * dy, ci[j], Vec2{cx[j], cy[j]}, m, ov, walls, bestD, best);
  }
  return best;
}

/// The same from the agent grid (columns at least R wide) around m alone.
THRONG_HD std::int32_t markerOwner(const AgentGridView& g, const ObstacleView& ov, Vec2 m, float radius,
                                   bool walls) {
  if (g.cols == 0) return -1;
  const NearWindow w = nearWindow(g, m, radius);
  float bestD = w.radiusSq;
  std::int32_t best = -1;
  for (int row = w.ya; row <= w.yb; ++row) {
    const std::int32_t* const rowStart = g.cellStart + row * g.cols;
    const int end = rowStart[w.xb + 1];
    for (int s = firstAtOrAfter(g.sx, rowStart[w.xa], end, w.lowX); s < end && g.sx[s] <= w.highX; ++s) {
      const float dx = g.sx[s] - m.x;
      const float dy = g.sy[s] - m.y;
      offerOwner(dx * dx + dy * dy, g.sortedIndex[s], Vec2{g.sx[s], g.sy[s]}, m, ov, walls, bestD, best);
    }
  }
  return best;
}

/// Every walker in the grid within the box [lo, hi] (padded for the
/// rounding of the box, as nearWindow pads) into (cx, cy, ci); the count,
/// or -1 when there are more than `capacity`.
THRONG_HD int gatherBox(const AgentGridView& g, Vec2 lo, Vec2 hi, float* cx, float* cy, std::int32_t* ci,
                        int capacity) {
  if (g.cols == 0) return 0;
  const float pad = (hi.x - lo.x + hi.y - lo.y) * 1e-3f +
                    (std::fabs(lo.x) + std::fabs(lo.y) + std::fabs(hi.x) + std::fabs(hi.y)) * 1e-6f;
  const float lowX = lo.x - pad, highX = hi.x + pad;
  const int xa = gridCoord(lowX, g.origin.x, g.invCell, g.cols);
  const int xb = gridCoord(highX, g.origin.x, g.invCell, g.cols);
  const int ya = gridCoord(lo.y - pad, g.origin.y, g.invRow, g.rows);
  const int yb = gridCoord(hi.y + pad, g.origin.y, g.invRow, g.rows);
  int count = 0;
  for (int row = ya; row <= yb; ++row) {
    const std::int32_t* const rowStart = g.cellStart + row * g.cols;
    const int end = rowStart[xb + 1];
    for (int s = firstAtOrAfter(g.sx, rowStart[xa], end, lowX); s < end && g.sx[s] <= highX; ++s) {
      if (count == capacity) return -1;
      cx[count] = g.sx[s];
      cy[count] = g.sy[s];
      ci[count] = g.sortedIndex[s];
      ++count;
    }
  }
  return count;
}

/// The owners of marker cell c's markers into owner[] (by marker index):
/// the walkers within R of the cell gathered once, each marker's owner
/// among them (or from the grid per marker when more
/// than kCellCandidates are around). The caller's buffers hold
/// kCellCandidates.
THRONG_HD void ownersOfCell(const MarkerGridView& mg, const AgentGridView& g, const ObstacleView& ov, float radius,
                            int c, float* cx, float* cy, std::int32_t* ci, std::int32_t* owner) {
  const int begin = mg.cellStart[c], end = mg.cellStart[c + 1];
  if (begin == end) return;
  const bool walls = mg.nearEdges[c] != 0;
  const int col = c % mg.cols, row = c / mg.cols;
  const float side = 1.0f / mg.invCell;
  // The cell widened by R (a marker strays from its cell by rounding only,
  // which gatherBox's pad covers).
  const Vec2 lo{mg.origin.x + static_cast<float>(col) * side - radius,
                mg.origin.y + static_cast<float>(row) * side - radius};
  const Vec2 hi{lo.x + side + 2 * radius, lo.y + side + 2 * radius};
  const int count = gatherBox(g, lo, hi, cx, cy, ci, kCellCandidates);
  const float radiusSq = radius * radius;
  if (count < 0) {
    for (int k = begin; k < end; ++k) owner[k] = markerOwner(g, ov, Vec2{mg.mx[k], mg.my[k]}, radius, walls);
    return;
  }
  for (int k = begin; k < end; ++k)
    owner[k] = ownerAmong(cx, cy, ci, count, Vec2{mg.mx[k], mg.my[k]}, radiusSq, ov, walls);
}

// ---- motion -----------------------------------------------------------------


/// Walker i's limits (stepLimits) with BioCrowds' step and reach.
THRONG_HD int bioLimits(const AgentGridView& g, const ObstacleView& ov, const BioWalkers& a, const BioParams& bp,
                        std::int32_t i, BioLimit* out, int* firstWall = nullptr) {
  return stepLimits(g, ov, a, StepReach{bp.dt, bp.largestRadius, bp.largestSpeed, a.envelopeOver(bp.envelope)}, i,
                    out, firstWall);
}

/// Calls visit(k, offset, weight, usable) for every marker k owned by
/// walker i at p, in the order the sums take them (cells row by row, then
/// markers in cell order), with wish g; usable: its disc (radius r) fits
/// there.
template <class Visit>
THRONG_HD void forOwnedMarkers(const MarkerGridView& mg, const std::int32_t* owner, std::int32_t i, Vec2 p,
                               float r, Vec2 g, Visit&& visit) {
  if (mg.cols == 0) return;
  // The cells that hold markers within R of p (three or four each way),
  // padded for the rounding of a cell index.
  const float reach = mg.radius * 1.001f + (std::fabs(p.x) + std::fabs(p.y)) * 1e-6f;
  const int x0 = gridCoord(p.x - reach, mg.origin.x, mg.invCell, mg.cols);
  const int x1 = gridCoord(p.x + reach, mg.origin.x, mg.invCell, mg.cols);
  const int y0 = gridCoord(p.y - reach, mg.origin.y, mg.invCell, mg.rows);
  const int y1 = gridCoord(p.y + reach, mg.origin.y, mg.invCell, mg.rows);
  const float gLength = g.length();
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      const int c = y * mg.cols + x;
      for (int k = mg.cellStart[c]; k < mg.cellStart[c + 1]; ++k) {
        if (owner[k] != i) continue;
        const Vec2 m{mg.mx[k] - p.x, mg.my[k] - p.y};
        const float mLength = m.length();
        // cos θ from the dot product; 0 with no wish or a marker on p
        // (which moves nothing anyway).
        const float cosTheta = gLength > 0.0f && mLength > 0.0f ? dot(g, m) / (gLength * mLength) : 0.0f;
        visit(k, m, (1.0f + cosTheta) / (1.0f + mLength), mg.clear[k] >= r);
      }
    }
  }
}

/// What bioVelocity found for one walker (the teaching view reads it).
struct BioMotion {
  Vec2 motion;     ///< M, world units
  int owned = 0;   ///< markers owned
  int usable = 0;  ///< of them, usable
};

/// Walker i's new velocity from its owned markers and its wish (landing:
/// the wish lands exactly on its goal this step); false when it is jammed
/// (it then stands). `motion` (optional) takes M and its counts.
THRONG_HD bool bioVelocity(const MarkerGridView& mg, const std::int32_t* owner, const AgentGridView& g,
                           const ObstacleView& ov, const BioWalkers& a, const BioParams& bp, std::int32_t i,
                           Vec2 wish, bool landing, Vec2& out, BioMotion* motion = nullptr) {
  out = Vec2{};
  if (motion) *motion = {};
  const Vec2 p{a.px[i], a.py[i]};
  const float r = a.radius[i];
  float sum = 0, mx = 0, my = 0;
  int owned = 0, usable = 0;
  forOwnedMarkers(mg, owner, i, p, r, wish, [&](std::int32_t, Vec2 m, float f, bool use) {
    ++owned;
    if (!use) return;
    ++usable;
    sum += f;
    mx += f * m.x;
    my += f * m.y;
  });
  const Vec2 M = sum > 0.0f ? Vec2{mx / sum, my / sum} : Vec2{};
  if (motion) *motion = {M, owned, usable};
  // Under the envelope every step wanted is brought into it before the
  // limits cut it, and a walker that would stand brakes to a stop instead.
  // A cut step that leaves the envelope (braking harder than it may) is
  // brought back into it, and the walker is jammed for the step: the
  // envelope wins, as ORCA's does.
  const StepEnvelope e = a.envelopeOver(bp.envelope);
  const bool envelope = e.onFor(i);
  const float want = wish.length();
  if (want == 0.0f && !(envelope && (a.vx[i] != 0.0f || a.vy[i] != 0.0f)))
    return true;  // standing by choice is not stuck
  BioLimit limits[kBioLimits];
  int firstWall = 0;
  const int count = bioLimits(g, ov, a, bp, i, limits, &firstWall);
  if (count < 0) {
    if (envelope) out = e.into(i, Vec2{});
    return false;
  }
  // A step of this step's length brought into the envelope (itself
  // without one).
  const auto reachable = [&](Vec2 step) { return envelope ? e.into(i, step / bp.dt) * bp.dt : step; };
  // The step taken as its velocity, and whether it kept the limits.
  const auto settle = [&](Vec2 taken) {
    out = taken / bp.dt;
    if (!envelope) return true;
    if (e.into(i, out) == out) return true;
    // Into the envelope, within the walls only (they still win).
    out = slideWithinEnvelope(limits + firstWall, count - firstWall, taken, e, i, bp.dt) / bp.dt;
    return false;
  };
  const auto brakeToStop = [&] { return !envelope || settle(slideWithin(limits, count, reachable(Vec2{}))); };
  if (want == 0.0f) return brakeToStop();
  // The landing step is exact when no limit cuts it.
  if (landing && want <= a.maxSpeed[i]) {
    const Vec2 s = wish * bp.dt;
    const Vec2 taken = slideWithin(limits, count, s);
    if (taken.x == s.x && taken.y == s.y && e.into(i, wish) == wish) {
      out = wish;
      return true;
    }
  }
  const float reach = M.length();
  if (usable == 0 || !(reach * bp.gain > kStuckFraction)) {
    brakeToStop();
    return false;
  }
  float speed = want * reach * bp.gain;
  speed = speed < want ? speed : want;
  speed = speed < a.maxSpeed[i] ? speed : a.maxSpeed[i];
  const Vec2 s = reachable(M * (speed * bp.dt / reach));
  Vec2 taken = slideWithin(limits, count, s);
  if (!(taken.length() > kStuckFraction * s.length())) {
    // Wedged. Touching walkers ahead of it (an arch at a door, a queue
    // pressing): it backs off from them a little, which opens the arch;
    // otherwise it stands.
    Vec2 away{};
    for (int k = 0; k < count; ++k)
      if (limits[k].yields) away = away + limits[k].normal;
    const float awayLength = away.length();
    if (!(awayLength > 0.0f)) {
      brakeToStop();
      return false;
    }
    taken = slideWithin(limits, count, reachable(away * (kBackOff * s.length() / awayLength)));
    if (!(taken.length() > kStuckFraction * s.length())) {
      brakeToStop();
      return false;
    }
  }
  return settle(taken);
}

}  // namespace throng

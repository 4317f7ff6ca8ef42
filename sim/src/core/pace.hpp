#pragma once
// The empirical pace: each walker's wished speed from the room ahead of it,
// so a crowd slows as it packs, as people do (and, before it, from the ground
// under it: pacePhaseWish). THRONG_HD: the CPU step
// (pipeline/step.cpp), the CUDA kernels and the host mirror take the same
// bits.
//
// Design note. People walking in single file keep a spacing that grows
// with their speed, d = a + T v (Seyfried, Steffen and Klingsch 2005);
// Tordeux, Chraibi and Seyfried's collision-free speed model (2016) turns
// it round, v = min(v0, max(0, (s - a) / T)), with s the distance to the
// nearest person in one's path. Here s is the distance along the wish,
// centre to centre, to the nearest walker ahead in the walker's path,
// looked for only as far as a + T |wish| (past it the wish is not slowed).
//  - The path: the other's centre within (r_i + r_j) / 2 of the line of
//    the wish (one radius, for walkers alike), half the width at which two
//    discs touch: ORCA sidesteps a walker met off-centre, where the
//    collision-free speed model turns its walkers off one another's lines.
//  - The pace follows: it counts a walker standing or heading within 45°
//    of the wish, as the time gap is a follower's. One crossing the path
//    or coming the other way is left to the model's avoidance.
//  - a and T come from Settings (Settings::pedestrian() has them, and
//    docs/walking.md their calibration on the fundamental diagram).
// The wish keeps its direction and takes that speed; the model then avoids
// as before. It is applied after every kind of wish (goals, routes,
// streams, fields, the preferredVelocity closure and the shake), and it
// slows a landing wish like any other, which then no longer lands. Walls
// are not seen: the model's own wall avoidance slows a walker there.
//
// Determinism: s is a minimum of values each computed from one pair alone,
// over the walkers inside a box round the path (whatever the grid's
// shape), so neither the grid nor the order it is scanned in can change it.
#include <cmath>
#include <cstdint>

#include "geometry/ground.hpp"
#include "neighbors/agent_grid.hpp"
#include "neighbors/agents_view.hpp"
#include "throng/hd.hpp"
#include "throng/settings.hpp"
#include "throng/vec2.hpp"

namespace throng {

/// What the pace reads of the settings: a (paceLength, world units) and T
/// (paceTimeGap, s); T = 0: no pace.
struct PaceParams {
  float length = 0;
  float timeGap = 0;
  float maxRadius = 0;  ///< the largest walker radius, world units (bounds the box scanned)
};

inline bool paceOn(const Settings& s) { return s.paceTimeGap > 0; }

inline PaceParams paceParams(const Settings& s, float maxRadius) {
  return PaceParams{s.paceLength, s.paceTimeGap, maxRadius};
}

/// The grid's column width the pace scans with: the farthest any walker
/// looks ahead, a + T * topSpeed, and never below the path's width.
THRONG_HD float paceReach(const PaceParams& p, float topSpeed) {
  const float ahead = p.length + p.timeGap * topSpeed;
  const float across = 2.0f * p.maxRadius;
  return ahead > across ? ahead : across;
}

/// cos 45°: the pace follows a walker heading within 45° of the wish.
inline constexpr float kFollowCos = 0.70710678f;

/// The speed the room ahead allows at headway s: max(0, (s - a) / T).
THRONG_HD float paceSpeed(const PaceParams& p, float s) {
  const float v = (s - p.length) / p.timeGap;
  return v > 0.0f ? v : 0.0f;
}

/// Walker i's wish `wish` slowed to the room ahead of it (unchanged when
/// nobody is within a + T |wish| in its path). `slowed` says whether it
/// was; a NaN wish is left as it is. The grid is over the walkers'
/// positions as the step began.
THRONG_HD Vec2 pacedWish(const AgentsView& a, const AgentGridView& g, const PaceParams& p, std::int32_t i,
                         Vec2 wish, bool& slowed) {
  slowed = false;
  const float speedSq = wish.lengthSquared();
  if (!(speedSq > 0.0f)) return wish;
  const float speed = std::sqrt(speedSq);
  const Vec2 e = wish / speed;
  const Vec2 at{a.px[i], a.py[i]};
  const float ri = a.radius[i];
  const float look = p.length + p.timeGap * speed;  // s at or past it leaves the wish as it is
  const float half = ri + p.maxRadius;  // twice the path's half-width: the box has room to spare
  // The box round the path ahead: along e from 0 to look, across by half.
  const Vec2 endAt = at + e * look;
  const float spanX = half * std::fabs(e.y), spanY = half * std::fabs(e.x);
  const float x0 = (at.x < endAt.x ? at.x : endAt.x) - spanX, x1 = (at.x < endAt.x ? endAt.x : at.x) + spanX;
  const float y0 = (at.y < endAt.y ? at.y : endAt.y) - spanY, y1 = (at.y < endAt.y ? endAt.y : at.y) + spanY;
  const int cx0 = gridCoord(x0, g.origin.x, g.invCell, g.cols), cx1 = gridCoord(x1, g.origin.x, g.invCell, g.cols);
  const int cy0 = gridCoord(y0, g.origin.y, g.invRow, g.rows), cy1 = gridCoord(y1, g.origin.y, g.invRow, g.rows);
  float s = look;
  for (int row = cy0; row <= cy1; ++row) {
    const std::int32_t* const rowStart = g.cellStart + row * g.cols;
    // The row's cells are one range sorted by x: only slots with x in [x0, x1].
    const int from = firstAtOrAfter(g.sx, rowStart[cx0], rowStart[cx1 + 1], x0);
    for (int slot = from; slot < rowStart[cx1 + 1] && g.sx[slot] <= x1; ++slot) {
      // The box itself, not the rows it falls in: the walkers looked at
      // never depend on the grid's shape.
      if (!(g.sy[slot] >= y0 && g.sy[slot] <= y1)) continue;
      const std::int32_t j = g.sortedIndex[slot];
      if (j == i) continue;
      const Vec2 d{g.sx[slot] - at.x, g.sy[slot] - at.y};
      const float along = dot(d, e);
      if (!(along > 0.0f) || !(along < s)) continue;
      if (!(std::fabs(det(e, d)) < 0.5f * (ri + a.radius[j]))) continue;
      // Followed only when standing or going the walker's way (within 45°).
      const Vec2 vj{a.vx[j], a.vy[j]};
      if (dot(vj, e) >= kFollowCos * vj.length()) s = along;
    }
  }
  const float v = paceSpeed(p, s);
  if (!(v < speed)) return wish;
  slowed = true;
  return e * v;
}

/// The pace phase for walker i, as every backend runs it: its wish slowed
/// to the ground under it (geometry/ground.hpp), then, while `pace`, to the
/// room ahead (pacedWish over g). `slowed` says whether either changed it.
THRONG_HD Vec2 pacePhaseWish(const GroundView& ground, const AgentsView& a, const AgentGridView& g,
                             const PaceParams& p, bool pace, std::int32_t i, Vec2 wish, bool& slowed) {
  bool onGround, paced = false;
  Vec2 v = groundWish(ground, Vec2{a.px[i], a.py[i]}, wish, onGround);
  if (pace) v = pacedWish(a, g, p, i, v, paced);
  slowed = onGround || paced;
  return v;
}

}  // namespace throng

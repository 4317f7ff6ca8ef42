#pragma once
// The per-agent phases of a step as THRONG_HD functions over plain views:
// preferred velocity (goal, gate, jitter), neighbour selection from the
// uniform grid, and the ORCA solve. The CPU backend loops over them; the
// CUDA kernels call them once per thread; the teaching view calls them for
// one walker. Every view reads the state as it was before the step.
#include <cstdint>

#include "throng/hd.hpp"
#include "throng/obstacles.hpp"
#include "throng/orca.hpp"
#include "throng/vec2.hpp"

namespace throng {

/// The old state, in agent-index order.
struct AgentsView {
  const float *px = nullptr, *py = nullptr, *vx = nullptr, *vy = nullptr;
  const float *radius = nullptr, *maxSpeed = nullptr;
  const std::uint64_t* id = nullptr;
  std::int32_t count = 0;
};

/// A uniform grid over the agents, built by counting sort each step. Cells
/// are row-major, so the three cells of a row are one contiguous range of
/// the sorted arrays. The cell side is at least the perception radius, so
/// the 3x3 block around a walker's cell holds every agent it can perceive.
struct AgentGridView {
  Vec2 origin;
  float invCell = 1;
  std::int32_t cols = 0, rows = 0;
  const std::int32_t* cellStart = nullptr;    ///< cols*rows + 1 offsets
  const std::int32_t* sortedIndex = nullptr;  ///< agent index of each sorted slot
  const float *sx = nullptr, *sy = nullptr;   ///< positions in sorted order
};

THRONG_HD int gridCoord(float v, float origin, float invCell, int size) {
  const float f = (v - origin) * invCell;
  int c = f >= 0.0f ? static_cast<int>(f) : 0;  // also sends NaN to 0
  return c >= size ? size - 1 : c;
}

/// The k nearest agents to agent `self` strictly within sqrt(rangeSq),
/// ordered by (distance squared, index). Returns the count.
THRONG_HD int selectNeighbors(const AgentGridView& g, Vec2 p, std::int32_t self, float rangeSq, int k,
                              std::int32_t* outIndex, float* outDistSq) {
  if (k <= 0 || g.cols == 0) return 0;
  const int cx = gridCoord(p.x, g.origin.x, g.invCell, g.cols);
  const int cy = gridCoord(p.y, g.origin.y, g.invCell, g.rows);
  const int xa = cx > 0 ? cx - 1 : 0;
  const int xb = cx + 1 < g.cols ? cx + 1 : g.cols - 1;
  int count = 0;
  float limit = rangeSq;  // candidates at or beyond it cannot enter
  for (int row = (cy > 0 ? cy - 1 : 0); row <= cy + 1 && row < g.rows; ++row) {
    const int begin = g.cellStart[row * g.cols + xa];
    const int end = g.cellStart[row * g.cols + xb + 1];
    for (int s = begin; s < end; ++s) {
      const float dx = g.sx[s] - p.x, dy = g.sy[s] - p.y;
      const float d = dx * dx + dy * dy;
      if (d > limit || (count < k && d == rangeSq)) continue;
      const std::int32_t idx = g.sortedIndex[s];
      if (idx == self) continue;
      if (count == k && d == limit && idx > outIndex[k - 1]) continue;
      int pos = count < k ? count : k - 1;
      while (pos > 0 && (outDistSq[pos - 1] > d || (outDistSq[pos - 1] == d && outIndex[pos - 1] > idx))) {
        outDistSq[pos] = outDistSq[pos - 1];
        outIndex[pos] = outIndex[pos - 1];
        --pos;
      }
      outDistSq[pos] = d;
      outIndex[pos] = idx;
      if (count < k) ++count;
      if (count == k) limit = outDistSq[k - 1];
    }
  }
  return count;
}

/// What the solve of one walker needs besides the views.
struct SolveParams {
  float invTimeHorizon = 1, invObstacleTimeHorizon = 2, invDt = 60;
  float perceptionRadiusSq = 1e4f;
  std::int32_t maxNeighbors = 10;
};

/// The solve's working set; the teaching view reads it back.
struct SolveScratch {
  Line lines[kMaxLines];
  std::int32_t neighbors[kMaxNeighbors];
  float neighborDistSq[kMaxNeighbors];
  std::int32_t edges[kMaxObstacleLines];
  float edgeDistSq[kMaxObstacleLines];
  int neighborCount = 0, edgeCount = 0, obstacleLineCount = 0, lineCount = 0;
};

/// ORCA for agent i: returns false when the walker is jammed. `preferred`
/// is its wish for this step; the new velocity goes to `out`.
THRONG_HD bool solveAgent(const AgentsView& a, const AgentGridView& g, const ObstacleView& ov,
                          const SolveParams& sp, std::int32_t i, Vec2 preferred, Vec2& out,
                          SolveScratch& s) {
  const Vec2 p{a.px[i], a.py[i]};
  const Vec2 v{a.vx[i], a.vy[i]};
  const float r = a.radius[i];
  const float maxSpeed = a.maxSpeed[i];

  const float reach = maxSpeed / sp.invObstacleTimeHorizon + r;
  s.edgeCount = selectObstacleEdges(ov, p, reach * reach, s.edges, s.edgeDistSq, kMaxObstacleLines);
  s.obstacleLineCount =
      obstacleLines(ov, s.edges, s.edgeCount, p, v, r, sp.invObstacleTimeHorizon, s.lines);

  s.neighborCount = selectNeighbors(g, p, i, sp.perceptionRadiusSq, sp.maxNeighbors, s.neighbors,
                                    s.neighborDistSq);
  int n = s.obstacleLineCount;
  for (int k = 0; k < s.neighborCount; ++k) {
    const std::int32_t j = s.neighbors[k];
    const Vec2 relPos = Vec2{a.px[j], a.py[j]} - p;
    const Vec2 relVel = v - Vec2{a.vx[j], a.vy[j]};
    s.lines[n++] = agentLine(v, relPos, relVel, r + a.radius[j], sp.invTimeHorizon, sp.invDt, a.id[i], a.id[j]);
  }
  s.lineCount = n;
  return solveVelocity(s.lines, n, s.obstacleLineCount, maxSpeed, preferred, out);
}

// ---- preferred velocities -------------------------------------------------

/// The lowest pace, as a fraction of the top speed, that slowingRadius eases to.
inline constexpr float kSlowestPace = 0.1f;

/// The wish to reach `goal`: full speed, eased within slowingRadius, and on
/// the last step exactly the velocity that lands on it (`landing` is set).
THRONG_HD Vec2 goalWish(Vec2 p, Vec2 goal, float maxSpeed, float slowingRadius, float dt, bool& landing) {
  const Vec2 toGoal = goal - p;
  const float distSq = toGoal.lengthSquared();
  landing = false;
  if (distSq == 0.0f) return Vec2{};
  const float dist = std::sqrt(distSq);
  float speed = maxSpeed;
  if (slowingRadius > 0.0f && dist < slowingRadius) {
    const float pace = dist / slowingRadius;
    speed = maxSpeed * (pace > kSlowestPace ? pace : kSlowestPace);
  }
  if (dist <= speed * dt) {
    landing = true;
    return toGoal / dt;
  }
  return toGoal * (speed / dist);
}

/// Which side of gate a-b the point is on: +1 (left or on it) or -1.
THRONG_HD float gateSide(Vec2 a, Vec2 b, Vec2 p) { return det(b - a, p - a) >= 0.0f ? 1.0f : -1.0f; }

/// The point a routed walker aims at: the nearest point of the gate kept a
/// radius in from each end, pushed two radii through to the far side.
THRONG_HD Vec2 gateTarget(Vec2 a, Vec2 b, Vec2 p, float radius) {
  const Vec2 ab = b - a;
  const float len = ab.length();
  if (len == 0.0f) return a;
  const Vec2 t = ab / len;
  float inset = radius < 0.5f * len ? radius : 0.5f * len;
  float along = dot(p - a, t);
  along = along < inset ? inset : (along > len - inset ? len - inset : along);
  const Vec2 normal = perpLeft(t);  // points to the +1 side
  return a + along * t - normal * (gateSide(a, b, p) * 2.0f * radius);
}

/// True when a move from `from` to `to` crosses the infinite line of gate a-b.
THRONG_HD bool crossesGate(Vec2 a, Vec2 b, Vec2 from, Vec2 to) {
  return gateSide(a, b, from) != gateSide(a, b, to);
}

/// Adds the step's shake to a moving walker's wish: a vector of length at
/// most jitter*maxSpeed, hashed from (seed, id, step).
THRONG_HD Vec2 jitterWish(Vec2 wish, float maxSpeed, float jitter, std::uint64_t seed, std::uint64_t id,
                          std::uint64_t step) {
  if (jitter <= 0.0f || wish.lengthSquared() == 0.0f) return wish;
  const std::uint64_t h = mix64(seed ^ mix64(id ^ mix64(step)));
  Vec2 d{unitFromBits(h), unitFromBits(mix64(h))};
  const float len2 = d.lengthSquared();
  if (len2 > 1.0f) d = d / std::sqrt(len2);
  return wish + d * (jitter * maxSpeed);
}

}  // namespace throng

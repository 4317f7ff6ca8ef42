#pragma once
// Obstacles and walls as RVO2 obstacle vertices and their edge grid: the
// geometry every model keeps walkers out of (ORCA's obstacle lines are in
// models/orca/obstacle_lines.hpp).
//
// Every outline is stored counter-clockwise (the solid on the left of each
// edge); an outline given clockwise is reversed. A wall (a polyline of zero
// thickness) is stored as the closed loop that runs along it and back, so
// each segment is an edge from both sides and each end is a convex
// turnaround vertex; at a bend one side is convex and the other reflex,
// exactly as RVO2 treats a 2-vertex obstacle, generalised.
//
// Edge e runs from vertex e to vertex next(e). The edge grid is a CSR over
// square cells: an edge is listed in every cell its bounding box touches.
#include <cstdint>

#include <cmath>
#include <span>
#include <vector>

#include "throng/hd.hpp"
#include "throng/vec2.hpp"

namespace throng {

struct ObstacleVertex {
  Vec2 point;
  Vec2 unitDir;   ///< towards next
  std::int32_t next = 0, prev = 0;
  std::uint8_t convex = 1;
};

/// A read-only view of the obstacle vertices and their edge grid (host or
/// device pointers).
struct ObstacleView {
  const ObstacleVertex* vertices = nullptr;
  std::int32_t vertexCount = 0;
  Vec2 origin;                       ///< lower-left corner of cell (0, 0)
  float cell = 1;                    ///< cell side, world units
  std::int32_t cols = 0, rows = 0;
  const std::int32_t* cellStart = nullptr;  ///< cols*rows + 1 offsets into cellEdges
  const std::int32_t* cellEdges = nullptr;  ///< edge ids, ascending within each cell
};

/// Squared distance from p to the segment a-b.
THRONG_HD float distSqPointSegment(Vec2 a, Vec2 b, Vec2 p) {
  const Vec2 ab = b - a;
  const float len2 = ab.lengthSquared();
  float t = len2 > 0.0f ? dot(p - a, ab) / len2 : 0.0f;
  t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
  return (p - (a + t * ab)).lengthSquared();
}

/// > 0 when c lies left of the directed line a->b.
THRONG_HD float leftOf(Vec2 a, Vec2 b, Vec2 c) { return det(a - c, b - a); }

/// True when segments a-b and c-d meet, touching included: an orientation
/// test on each side (exact for the signs that matter here: a zero is a
/// touch and counts).
THRONG_HD bool segmentsMeet(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  const float d1 = det(b - a, c - a), d2 = det(b - a, d - a);
  const float d3 = det(d - c, a - c), d4 = det(d - c, b - c);
  if (((d1 > 0.0f && d2 < 0.0f) || (d1 < 0.0f && d2 > 0.0f)) && ((d3 > 0.0f && d4 < 0.0f) || (d3 < 0.0f && d4 > 0.0f)))
    return true;
  // Collinear or touching: an end on the other segment.
  const auto on = [](Vec2 p, Vec2 q, Vec2 r, float dd) {  // r on segment p-q, given det(q - p, r - p) == dd
    return dd == 0.0f && (r.x >= (p.x < q.x ? p.x : q.x)) && (r.x <= (p.x > q.x ? p.x : q.x)) &&
           (r.y >= (p.y < q.y ? p.y : q.y)) && (r.y <= (p.y > q.y ? p.y : q.y));
  };
  return on(a, b, c, d1) || on(a, b, d, d2) || on(c, d, a, d3) || on(c, d, b, d4);
}

/// The edge grid's cells [x0, x1] x [y0, y1] that meet the box [lo, hi]
/// widened by a cell each way (far above the rounding of a cell index):
/// every edge that meets the box is listed in one of them. Empty (x0 > x1)
/// when the widened box misses the grid, or there is no grid.
struct EdgeCells {
  int x0 = 0, x1 = -1, y0 = 0, y1 = -1;
};
THRONG_HD EdgeCells edgeCellsAround(const ObstacleView& ov, Vec2 lo, Vec2 hi) {
  EdgeCells r;
  if (ov.vertexCount == 0 || ov.cols == 0) return r;
  const float inv = 1.0f / ov.cell;
  const float x0f = (lo.x - ov.origin.x) * inv, x1f = (hi.x - ov.origin.x) * inv;
  const float y0f = (lo.y - ov.origin.y) * inv, y1f = (hi.y - ov.origin.y) * inv;
  if (x1f < -1.0f || y1f < -1.0f || x0f >= ov.cols + 1.0f || y0f >= ov.rows + 1.0f) return r;
  const auto clampTo = [](int v, int size) { return v < 0 ? 0 : (v >= size ? size - 1 : v); };
  r.x0 = clampTo(static_cast<int>(std::floor(x0f)) - 1, ov.cols);
  r.x1 = clampTo(static_cast<int>(std::floor(x1f)) + 1, ov.cols);
  r.y0 = clampTo(static_cast<int>(std::floor(y0f)) - 1, ov.rows);
  r.y1 = clampTo(static_cast<int>(std::floor(y1f)) + 1, ov.rows);
  return r;
}

/// True when the segment a-b meets an obstacle edge or a wall (the edge
/// grid's cells about its bounding box, each edge tested exactly).
THRONG_HD bool segmentBlocked(const ObstacleView& ov, Vec2 a, Vec2 b) {
  const EdgeCells r = edgeCellsAround(ov, Vec2{a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y},
                                      Vec2{a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y});
  for (int cy = r.y0; cy <= r.y1; ++cy)
    for (int cx = r.x0; cx <= r.x1; ++cx) {
      const int c = cy * ov.cols + cx;
      for (int k = ov.cellStart[c]; k < ov.cellStart[c + 1]; ++k) {
        const ObstacleVertex& v1 = ov.vertices[ov.cellEdges[k]];
        if (segmentsMeet(a, b, v1.point, ov.vertices[v1.next].point)) return true;
      }
    }
  return false;
}

/// The obstacle edges within sqrt(rangeSq) of p that face it (p strictly
/// right of the edge, outside the solid), nearest first by (distance, edge
/// id), at most `capacity`. Writes their ids to `out`; returns the count.
THRONG_HD int selectObstacleEdges(const ObstacleView& ov, Vec2 p, float rangeSq, std::int32_t* out,
                                  float* outDistSq, int capacity) {
  if (ov.vertexCount == 0 || ov.cols == 0) return 0;
  const float range = std::sqrt(rangeSq);
  const float inv = 1.0f / ov.cell;
  int x0 = static_cast<int>(std::floor((p.x - range - ov.origin.x) * inv));
  int x1 = static_cast<int>(std::floor((p.x + range - ov.origin.x) * inv));
  int y0 = static_cast<int>(std::floor((p.y - range - ov.origin.y) * inv));
  int y1 = static_cast<int>(std::floor((p.y + range - ov.origin.y) * inv));
  x0 = x0 < 0 ? 0 : x0;
  y0 = y0 < 0 ? 0 : y0;
  x1 = x1 >= ov.cols ? ov.cols - 1 : x1;
  y1 = y1 >= ov.rows ? ov.rows - 1 : y1;
  int count = 0;
  for (int cy = y0; cy <= y1; ++cy) {
    for (int cx = x0; cx <= x1; ++cx) {
      const int c = cy * ov.cols + cx;
      for (int k = ov.cellStart[c]; k < ov.cellStart[c + 1]; ++k) {
        const std::int32_t e = ov.cellEdges[k];
        const ObstacleVertex& v1 = ov.vertices[e];
        const ObstacleVertex& v2 = ov.vertices[v1.next];
        if (leftOf(v1.point, v2.point, p) >= 0.0f) continue;  // back face
        const float d = distSqPointSegment(v1.point, v2.point, p);
        if (d >= rangeSq) continue;
        // Insert sorted by (d, e); an edge met again in another cell is skipped.
        int pos = count;
        while (pos > 0 && (outDistSq[pos - 1] > d || (outDistSq[pos - 1] == d && out[pos - 1] > e))) --pos;
        if (pos > 0 && out[pos - 1] == e) continue;
        if (pos >= capacity) continue;
        // Edges pos.. move up one (the last one out when full), carried
        // forward: a shift written backwards was made a memmove whose
        // offsets GCC 12 could not bound (a false -Warray-bounds).
        const int last = count < capacity ? count : capacity - 1;
        std::int32_t carryEdge = e;
        float carryDistSq = d;
        for (int j = pos; j <= last; ++j) {
          const std::int32_t edge = out[j];
          const float distSq = outDistSq[j];
          out[j] = carryEdge;
          outDistSq[j] = carryDistSq;
          carryEdge = edge;
          carryDistSq = distSq;
        }
        if (count < capacity) ++count;
      }
    }
  }
  return count;
}


/// Obstacles and walls: the outlines as given, the RVO2 vertex loops, and
/// the edge grid over them.
struct ObstacleSet {
  std::vector<std::vector<Vec2>> outlines, walls;  // as given
  std::vector<ObstacleVertex> vertices;
  Vec2 origin;
  float cell = 1;
  std::int32_t cols = 0, rows = 0;
  std::vector<std::int32_t> cellStart, cellEdges;
  std::uint64_t version = 0;  ///< bumped on every change (device copies follow it)
  float fittedReach = 0;      ///< the reach fitToReach last built the grid for (>= 1e-3)
  std::uint64_t gridBuilds = 0;  ///< rebuildGrid calls (tests watch that a settled crowd makes none)

  void addLoop(std::span<const Vec2> loop);  ///< counter-clockwise, >= 2 points
  /// Builds the edge grid with cells `cell` wide (at least 1/1024 of the
  /// geometry's extent, so at most 1024 x 1024 cells).
  void rebuildGrid();
  /// Fits the grid to the walkers' obstacle reach (the farthest any of them
  /// looks for an edge: maxSpeed * obstacleTimeHorizon + radius, world
  /// units): rebuilt when the geometry changed, or when the reach has left
  /// [1/2, 2] times the one it was built for; a reach under 1e-3 counts as
  /// 1e-3. Returns true when it rebuilt. Both backends call it.
  bool fitToReach(float reach);
  ObstacleView view() const;
};

}  // namespace throng

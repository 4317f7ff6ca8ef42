#pragma once
// Obstacles and walls as RVO2 obstacle vertices, their edge grid, and the
// per-agent obstacle lines.
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

#include "throng/hd.hpp"
#include "throng/orca.hpp"
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

/// RVO2's obstacle lines for a walker at `position` with `velocity` and
/// `radius`, from the edges in `edges` (nearest first). Writes at most
/// kMaxObstacleLines lines to `lines`; returns the count.
THRONG_HD int obstacleLines(const ObstacleView& ov, const std::int32_t* edges, int edgeCount,
                            Vec2 position, Vec2 velocity, float radius, float invTimeHorizonObst,
                            Line* lines) {
  int count = 0;
  const float radiusSq = radius * radius;
  for (int k = 0; k < edgeCount && count < kMaxObstacleLines; ++k) {
    std::int32_t i1 = edges[k];
    std::int32_t i2 = ov.vertices[i1].next;
    const ObstacleVertex* obstacle1 = &ov.vertices[i1];
    const ObstacleVertex* obstacle2 = &ov.vertices[i2];
    const Vec2 relativePosition1 = obstacle1->point - position;
    const Vec2 relativePosition2 = obstacle2->point - position;

    // Skip an edge whose velocity obstacle earlier obstacle lines already cover.
    bool alreadyCovered = false;
    for (int j = 0; j < count; ++j) {
      if (det(invTimeHorizonObst * relativePosition1 - lines[j].point, lines[j].direction) -
                  invTimeHorizonObst * radius >= -kOrcaEpsilon &&
          det(invTimeHorizonObst * relativePosition2 - lines[j].point, lines[j].direction) -
                  invTimeHorizonObst * radius >= -kOrcaEpsilon) {
        alreadyCovered = true;
        break;
      }
    }
    if (alreadyCovered) continue;

    const float distSq1 = relativePosition1.lengthSquared();
    const float distSq2 = relativePosition2.lengthSquared();
    const Vec2 obstacleVector = obstacle2->point - obstacle1->point;
    const float s = dot(-relativePosition1, obstacleVector) / obstacleVector.lengthSquared();
    const float distSqLine = (-relativePosition1 - s * obstacleVector).lengthSquared();

    Line line;
    if (s < 0.0f && distSq1 <= radiusSq) {
      // Touching the left vertex; a reflex vertex is covered by its edges.
      if (obstacle1->convex) {
        line.point = Vec2{};
        line.direction = Vec2{-relativePosition1.y, relativePosition1.x}.normalized();
        lines[count++] = line;
      }
      continue;
    }
    if (s > 1.0f && distSq2 <= radiusSq) {
      // Touching the right vertex; the next edge handles it unless convex and facing.
      if (obstacle2->convex && det(relativePosition2, obstacle2->unitDir) >= 0.0f) {
        line.point = Vec2{};
        line.direction = Vec2{-relativePosition2.y, relativePosition2.x}.normalized();
        lines[count++] = line;
      }
      continue;
    }
    if (s >= 0.0f && s < 1.0f && distSqLine <= radiusSq) {
      // Touching the edge itself.
      line.point = Vec2{};
      line.direction = -obstacle1->unitDir;
      lines[count++] = line;
      continue;
    }

    // No contact: the legs of the velocity obstacle. Seen obliquely, one
    // vertex defines both; at a reflex vertex the leg runs along the edge.
    Vec2 leftLegDirection, rightLegDirection;
    if (s < 0.0f && distSqLine <= radiusSq) {
      if (!obstacle1->convex) continue;  // obliquely seen reflex vertex: ignore
      i2 = i1;
      obstacle2 = obstacle1;
      leftLegDirection = leftLeg(relativePosition1, radius, distSq1);
      rightLegDirection = rightLeg(relativePosition1, radius, distSq1);
    } else if (s > 1.0f && distSqLine <= radiusSq) {
      if (!obstacle2->convex) continue;
      i1 = i2;
      obstacle1 = obstacle2;
      leftLegDirection = leftLeg(relativePosition2, radius, distSq2);
      rightLegDirection = rightLeg(relativePosition2, radius, distSq2);
    } else {
      if (obstacle1->convex) {
        leftLegDirection = leftLeg(relativePosition1, radius, distSq1);
      } else {
        leftLegDirection = -obstacle1->unitDir;
      }
      if (obstacle2->convex) {
        rightLegDirection = rightLeg(relativePosition2, radius, distSq2);
      } else {
        rightLegDirection = obstacle1->unitDir;
      }
    }

    // A leg from a convex vertex never points into the neighbouring edge:
    // take that edge's cut-off line instead, and add no line when the
    // velocity projects on such a foreign leg.
    const ObstacleVertex* leftNeighbor = &ov.vertices[obstacle1->prev];
    bool isLeftLegForeign = false, isRightLegForeign = false;
    if (obstacle1->convex && det(leftLegDirection, -leftNeighbor->unitDir) >= 0.0f) {
      leftLegDirection = -leftNeighbor->unitDir;
      isLeftLegForeign = true;
    }
    if (obstacle2->convex && det(rightLegDirection, obstacle2->unitDir) <= 0.0f) {
      rightLegDirection = obstacle2->unitDir;
      isRightLegForeign = true;
    }

    const Vec2 leftCutoff = invTimeHorizonObst * (obstacle1->point - position);
    const Vec2 rightCutoff = invTimeHorizonObst * (obstacle2->point - position);
    const Vec2 cutoffVec = rightCutoff - leftCutoff;
    const bool sameVertex = i1 == i2;

    const float t = sameVertex ? 0.5f : dot(velocity - leftCutoff, cutoffVec) / cutoffVec.lengthSquared();
    const float tLeft = dot(velocity - leftCutoff, leftLegDirection);
    const float tRight = dot(velocity - rightCutoff, rightLegDirection);

    if ((t < 0.0f && tLeft < 0.0f) || (sameVertex && tLeft < 0.0f && tRight < 0.0f)) {
      // Project on the left cut-off circle.
      const Vec2 unitW = (velocity - leftCutoff).normalized();
      line.direction = Vec2{unitW.y, -unitW.x};
      line.point = leftCutoff + radius * invTimeHorizonObst * unitW;
      lines[count++] = line;
      continue;
    }
    if (t > 1.0f && tRight < 0.0f) {
      // Project on the right cut-off circle.
      const Vec2 unitW = (velocity - rightCutoff).normalized();
      line.direction = Vec2{unitW.y, -unitW.x};
      line.point = rightCutoff + radius * invTimeHorizonObst * unitW;
      lines[count++] = line;
      continue;
    }

    // Project on the left leg, the right leg or the cut-off line, whichever is nearest.
    constexpr float kInf = 3.4028235e38f;
    const float distSqCutoff = (t < 0.0f || t > 1.0f || sameVertex)
                                   ? kInf
                                   : (velocity - (leftCutoff + t * cutoffVec)).lengthSquared();
    const float distSqLeft =
        tLeft < 0.0f ? kInf : (velocity - (leftCutoff + tLeft * leftLegDirection)).lengthSquared();
    const float distSqRight =
        tRight < 0.0f ? kInf : (velocity - (rightCutoff + tRight * rightLegDirection)).lengthSquared();

    if (distSqCutoff <= distSqLeft && distSqCutoff <= distSqRight) {
      line.direction = -obstacle1->unitDir;
      line.point = leftCutoff + radius * invTimeHorizonObst * perpLeft(line.direction);
      lines[count++] = line;
    } else if (distSqLeft <= distSqRight) {
      if (isLeftLegForeign) continue;
      line.direction = leftLegDirection;
      line.point = leftCutoff + radius * invTimeHorizonObst * perpLeft(line.direction);
      lines[count++] = line;
    } else {
      if (isRightLegForeign) continue;
      line.direction = -rightLegDirection;
      line.point = rightCutoff + radius * invTimeHorizonObst * perpLeft(line.direction);
      lines[count++] = line;
    }
  }
  return count;
}

}  // namespace throng

#pragma once
// RVO2's obstacle lines: the half-planes of velocities that keep a walker
// out of the obstacle edges near it for obstacleTimeHorizon, never relaxed.
#include <cstdint>

#include "geometry/obstacles.hpp"
#include "models/orca/orca.hpp"

namespace throng {

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
    // velocity projects on such a foreign leg, since that edge adds its own.
    // Unlike RVO2, keep the line when the neighbouring edge is this one
    // (seen obliquely, both legs from one vertex: the left leg's past the
    // right vertex, the right leg's past the left one): RVO2 then adds none
    // at all, and a walker sliding along a wall at exactly its radius walks
    // into the wall's end as it passes it (2.2 cm into a door jamb in
    // `evacuation`, density 0.9, seed 2).
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
      if (isLeftLegForeign && obstacle1->prev != edges[k]) continue;
      line.direction = leftLegDirection;
      line.point = leftCutoff + radius * invTimeHorizonObst * perpLeft(line.direction);
      lines[count++] = line;
    } else {
      if (isRightLegForeign && i2 != edges[k]) continue;
      line.direction = -rightLegDirection;
      line.point = rightCutoff + radius * invTimeHorizonObst * perpLeft(line.direction);
      lines[count++] = line;
    }
  }
  return count;
}

}  // namespace throng

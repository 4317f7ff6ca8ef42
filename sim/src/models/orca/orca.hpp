#pragma once
// ORCA per-agent math: the half-planes and the incremental 2-D linear
// program of RVO2, written once for the CPU backend and the CUDA kernels.
//
// Design note. A walker A with velocity v and a neighbour B define the
// velocity obstacle VO: relative velocities that bring them within r_A + r_B
// inside tau seconds, a cone truncated by a disc of radius (r_A+r_B)/tau
// centred at relPos/tau. u is the smallest change to the relative velocity
// that leaves VO. A permits itself the half-plane through v + u/2 whose
// normal is u; B draws the mirror line, so each takes half. Obstacles do
// not move: the walker takes all of the change and those lines are never
// relaxed. The new velocity is the permitted one nearest the preferred one
// within maxSpeed (linearProgram2); when none exists, linearProgram3 keeps
// the obstacle lines and minimises the largest penetration of the agent
// lines, and the walker is jammed for that step.
//
// A Line permits the velocities on the left of `direction` through `point`:
// v is permitted iff det(direction, point - v) <= 0.
//
// Deterministic rules go beyond RVO2 where it degenerates:
//  - Head-on: when a pair is on a collision course and their relative
//    velocity lies along the line of centres, the cut-off projection is pure
//    braking, and a slow pair brakes to a standstill facing each other. We
//    turn the projection normal by a fixed angle (within the cut-off arc, so
//    the line still supports the VO) so both pass on their right. Both sides
//    of the pair turn the same way, so reciprocity holds exactly. Only for a
//    pair moving more against each other than together: side by side, a
//    pair drifting closer just brakes apart, as in RVO2.
//  - Overlaps: the line faces straight apart (see agentLine), so an
//    overlap never deepens mid-step; touching to within 0.1% counts as
//    just apart, so a pair in contact cannot close in.
//  - Coincident centres: RVO2 gets a NaN line. We push the pair apart along
//    a direction hashed from their two ids, opposite for each.
//  - Jammed: linearProgram3's least-penetrating velocity ignores the wish;
//    the walker then leans toward it within a small slack (leanTowardWish).
//  - Right of way (opt-in, Settings::rightOfWay; solve.hpp's giveWay): of a
//    pair one behind the other along both wishes, the one behind takes more
//    than half of u, so a queue at a door lets its front row through.
#include <cstdint>

#include "base/hash.hpp"
#include "throng/hd.hpp"
#include "throng/settings.hpp"
#include "throng/vec2.hpp"

namespace throng {

/// One half-plane of permitted velocities: those left of `direction` through
/// `point` (det(direction, point - v) <= 0). `direction` is a unit vector.
struct Line {
  Vec2 point, direction;
};

inline constexpr float kOrcaEpsilon = 0.00001f;
/// cos of the head-on turn (about 11.5 degrees), and its sine.
inline constexpr float kHeadOnCos = 0.98f;
inline constexpr float kHeadOnSin = 0.19899749f;  // sqrt(1 - 0.98^2)
/// Room for every line of one walker's program: its obstacle lines, the
/// kinematic envelope's eight (envelope.hpp) and its agent lines.
inline constexpr int kMaxLines = kMaxNeighbors + kMaxObstacleLines + 8;
/// How much further past the agent lines than the least penetration a
/// jammed walker may go to get nearer its wish, as a fraction of its top
/// speed (see leanTowardWish).
inline constexpr float kJamSlack = 0.001f;
/// Pairs overlapping by less than 0.1% of r_A + r_B count as touching
/// (kContactSq = 0.999^2); they are treated as 0.001% apart.
inline constexpr float kContactSq = 0.998001f;
inline constexpr float kContactOut = 1.00001f;
/// The deepest two unjammed walkers overlap, as a fraction of r_A + r_B:
/// a pair in contact (within 0.1%) is not pushed apart, and its line, drawn
/// as if 0.001% apart, lets it close by at most that much in a step; a
/// deeper overlap is pushed out whole. The separation gate holds walkers to
/// it (verify.hpp).
inline constexpr float kContactOverlap = 0.00101f;

/// The unit directions of the two tangents from the origin to the disc of
/// radius r centred at rp (|rp| > r; distSq = |rp|^2): the left leg turns
/// counter-clockwise from rp, the right leg clockwise.
THRONG_HD Vec2 leftLeg(Vec2 rp, float r, float distSq) {
  const float leg = std::sqrt(distSq - r * r);
  return Vec2{rp.x * leg - rp.y * r, rp.x * r + rp.y * leg} / distSq;
}
THRONG_HD Vec2 rightLeg(Vec2 rp, float r, float distSq) {
  const float leg = std::sqrt(distSq - r * r);
  return Vec2{rp.x * leg + rp.y * r, -rp.x * r + rp.y * leg} / distSq;
}

/// The ORCA line agent A draws for neighbour B.
///  relPos = pB - pA, relVel = vA - vB, combinedRadius = rA + rB,
///  invTau = 1 / timeHorizon, invDt = 1 / step (used while overlapping),
///  idA, idB = stable ids (for coincident centres),
///  commonSq = |vA + vB|^2, the pair's common motion (the head-on rule).
THRONG_HD_HOT Line agentLine(Vec2 velocity, Vec2 relPos, Vec2 relVel, float combinedRadius, float invTau,
                         float invDt, std::uint64_t idA, std::uint64_t idB, float commonSq = 0.0f) {
  float distSq = relPos.lengthSquared();
  const float combinedRadiusSq = combinedRadius * combinedRadius;
  if (distSq <= combinedRadiusSq && distSq > kContactSq * combinedRadiusSq) {
    // Touching, to within a hair: treat the pair as just apart, so the line
    // forbids closing in at all. (RVO2's overlap branch below only parts
    // them by the end of the step, and a pair sliding round each other in
    // contact would dip inside mid-step.)
    relPos = relPos * (kContactOut * combinedRadius / std::sqrt(distSq));
    distSq = relPos.lengthSquared();
  }
  Line line;
  Vec2 u;
  if (distSq > combinedRadiusSq) {
    // No collision yet: project relVel on the boundary of the truncated cone.
    const Vec2 w = relVel - invTau * relPos;  // from the cut-off centre to relVel
    const float wLengthSq = w.lengthSquared();
    const float dotProduct1 = dot(w, relPos);
    if (dotProduct1 < 0.0f && dotProduct1 * dotProduct1 > combinedRadiusSq * wLengthSq) {
      // Project on the cut-off circle.
      const float wLength = std::sqrt(wLengthSq);
      Vec2 unitW = w / wLength;
      float along = wLength;  // w's length along unitW (RVO2's term, bit for bit, unless turned)
      if (wLength < combinedRadius * invTau) {
        // On a collision course. Head-on rule: keep the normal at least the
        // fixed angle off the line of centres, turned the way it already
        // leans (counter-clockwise on a tie: each passes on its right). The
        // turned normal stays inside the cut-off arc (half-angle acos(r/d)).
        // Only for a pair moving more against each other than together
        // (|vA + vB| <= |vA - vB|): walkers side by side that drift closer
        // brake apart as in RVO2. Both sides compute the same test bits.
        const float dist = std::sqrt(distSq);
        const Vec2 axis = relPos / -dist;  // from B towards A
        const float cosAngle = dot(unitW, axis);
        float cosTurn = combinedRadius / dist;
        if (cosTurn < kHeadOnCos) cosTurn = kHeadOnCos;
        if (cosAngle > cosTurn && commonSq <= relVel.lengthSquared()) {
          const float sinTurn = cosTurn == kHeadOnCos ? kHeadOnSin : std::sqrt(1.0f - cosTurn * cosTurn);
          const float side = det(axis, unitW) >= 0.0f ? 1.0f : -1.0f;
          unitW = axis * cosTurn + perpLeft(axis) * (side * sinTurn);
          along = dot(w, unitW);
        }
      }
      line.direction = Vec2{unitW.y, -unitW.x};
      u = (combinedRadius * invTau - along) * unitW;
    } else {
      // Project on a leg.
      line.direction = det(relPos, w) > 0.0f ? leftLeg(relPos, combinedRadius, distSq)
                                             : -rightLeg(relPos, combinedRadius, distSq);
      u = dot(relVel, line.direction) * line.direction - relVel;
    }
  } else {
    // Overlapping: part by the end of this step. RVO2 takes the tangent of
    // the (combinedRadius/dt)-disc nearest relVel, which lets a pair slide
    // round each other and dip deeper mid-step. We take the tangent facing
    // straight apart instead (still a supporting line of that disc): the
    // gap along the line of centres then only grows, so the overlap never
    // deepens within the step.
    const Vec2 w = relVel - invDt * relPos;
    Vec2 unitW;
    if (distSq > 1e-12f * combinedRadiusSq) {
      unitW = relPos / -std::sqrt(distSq);
    } else {
      // Coincident centres: split along a direction hashed from the pair.
      const std::uint64_t lo = idA < idB ? idA : idB, hi = idA < idB ? idB : idA;
      unitW = hashedDirection(mix64(lo * 0x100000001B3ull ^ mix64(hi)));
      if (idA > idB) unitW = -unitW;
    }
    line.direction = Vec2{unitW.y, -unitW.x};
    u = (combinedRadius * invDt - dot(w, unitW)) * unitW;
  }
  line.point = velocity + 0.5f * u;
  return line;
}

/// Solves for the point of line `lineNo` closest to optVelocity (or furthest
/// along it when directionOpt) that satisfies lines [0, lineNo) and |v| <=
/// radius. Returns false when no such point exists.
THRONG_HD bool linearProgram1(const Line* lines, int lineNo, float radius, Vec2 optVelocity,
                              bool directionOpt, Vec2& result) {
  const Line& L = lines[lineNo];
  const float dotProduct = dot(L.point, L.direction);
  const float discriminant = dotProduct * dotProduct + radius * radius - L.point.lengthSquared();
  if (discriminant < 0.0f) return false;  // the speed circle misses the line
  const float sqrtDiscriminant = std::sqrt(discriminant);
  float tLeft = -dotProduct - sqrtDiscriminant;
  float tRight = -dotProduct + sqrtDiscriminant;
  for (int i = 0; i < lineNo; ++i) {
    const float denominator = det(L.direction, lines[i].direction);
    const float numerator = det(lines[i].direction, L.point - lines[i].point);
    if (std::fabs(denominator) <= kOrcaEpsilon) {
      if (numerator < 0.0f) return false;  // parallel and excluded
      continue;
    }
    const float t = numerator / denominator;
    if (denominator >= 0.0f) {
      if (t < tRight) tRight = t;  // line i bounds line lineNo on the right
    } else {
      if (t > tLeft) tLeft = t;    // ... or on the left
    }
    if (tLeft > tRight) return false;
  }
  if (directionOpt) {
    result = dot(optVelocity, L.direction) > 0.0f ? L.point + tRight * L.direction
                                                  : L.point + tLeft * L.direction;
  } else {
    const float t = dot(L.direction, optVelocity - L.point);
    result = L.point + (t < tLeft ? tLeft : (t > tRight ? tRight : t)) * L.direction;
  }
  return true;
}

/// v, or v scaled down to length `radius` when it is longer.
THRONG_HD Vec2 withinSpeed(Vec2 v, float radius) {
  return v.lengthSquared() > radius * radius ? v.normalized() * radius : v;
}

/// The permitted velocity nearest optVelocity (or furthest in the unit
/// direction optVelocity when directionOpt) within |v| <= radius. Returns
/// lineCount on success, else the index of the first line it could not meet
/// (result then holds the best velocity before that line).
THRONG_HD int linearProgram2(const Line* lines, int lineCount, float radius, Vec2 optVelocity,
                             bool directionOpt, Vec2& result) {
  result = directionOpt ? optVelocity * radius : withinSpeed(optVelocity, radius);
  for (int i = 0; i < lineCount; ++i) {
    if (det(lines[i].direction, lines[i].point - result) > 0.0f) {
      const Vec2 tempResult = result;
      if (!linearProgram1(lines, i, radius, optVelocity, directionOpt, result)) {
        result = tempResult;
        return i;
      }
    }
  }
  return lineCount;
}

/// linearProgram3's line for line `other` projected on line `onto`: where
/// the two cross (their midpoint when they face opposite ways), along the
/// bisector of their directions. False (no line) when they are parallel
/// and face the same way.
THRONG_HD bool projectLine(const Line& onto, const Line& other, Line& out) {
  const float determinant = det(onto.direction, other.direction);
  if (std::fabs(determinant) <= kOrcaEpsilon) {
    if (dot(onto.direction, other.direction) > 0.0f) return false;  // same direction
    out.point = 0.5f * (onto.point + other.point);                  // opposite
  } else {
    out.point = onto.point + (det(other.direction, onto.point - other.point) / determinant) * onto.direction;
  }
  out.direction = (other.direction - onto.direction).normalized();
  return true;
}

/// Lines [from, to) projected on line `onto` (projectLine), in order, into
/// out; returns how many.
THRONG_HD int projectLines(const Line* lines, int from, int to, const Line& onto, Line* out) {
  int count = 0;
  for (int j = from; j < to; ++j) count += projectLine(onto, lines[j], out[count]);
  return count;
}

#if !defined(__CUDA_ARCH__)
/// projectLines, eight at a time, bit for bit: host code where
/// lanesAvailable() (fast/lanes.cpp). It may write up to seven lines
/// past those it returns (linearProgram3's storage has room for eight).
int projectLinesInLanes(const Line* lines, int from, int to, const Line& onto, Line* out);
#endif

/// The infeasible case: keeps lines [0, obstacleLineCount) and minimises the
/// largest penetration of the agent lines from beginLine on, which it returns.
/// `lanes`: project eight lines at a time (projectLinesInLanes, the same bits;
/// host code on a CPU with AVX2 only, as SolveParams::lineLanes).
THRONG_HD float linearProgram3(const Line* lines, int lineCount, int obstacleLineCount, int beginLine,
                               float radius, Vec2& result, bool lanes = false) {
  float distance = 0.0f;
  // Raw storage: Line's members default to zero, and zeroing kMaxLines of
  // them on every call costs more than the projection itself. Eight more
  // for projectLinesInLanes's last group.
  union Storage {
    THRONG_HD Storage() {}
    Line lines[kMaxLines + 8];
  } storage;
  Line* projLines = storage.lines;
  (void)lanes;
  for (int i = beginLine; i < lineCount; ++i) {
    if (det(lines[i].direction, lines[i].point - result) <= distance) continue;
    // result does not satisfy line i by more than the current penetration.
    int projCount = 0;
    for (int j = 0; j < obstacleLineCount; ++j) projLines[projCount++] = lines[j];
#if !defined(__CUDA_ARCH__)
    if (lanes)
      projCount += projectLinesInLanes(lines, obstacleLineCount, i, lines[i], projLines + projCount);
    else
#endif
      projCount += projectLines(lines, obstacleLineCount, i, lines[i], projLines + projCount);
    const Vec2 tempResult = result;
    if (linearProgram2(projLines, projCount, radius, Vec2{-lines[i].direction.y, lines[i].direction.x},
                       true, result) < projCount) {
      // Cannot happen in exact arithmetic (result is feasible for this
      // program); on a rounding failure keep the previous result.
      result = tempResult;
    }
    distance = det(lines[i].direction, lines[i].point - result);
  }
  return distance;
}

#if !defined(__CUDA_ARCH__)
/// leanTowardWish, eight lines at a time, bit for bit: host code where
/// lanesAvailable() (fast/lanes.cpp).
void leanTowardWishInLanes(const Line* lines, int lineCount, int obstacleLineCount, float radius, Vec2 optVelocity,
                     float deepest, Vec2& result);
#endif

/// leanTowardWish's second leg, once a line with direction `along` stopped
/// the velocity at `result`: the slide along that line toward the wish, and
/// how much of it (at most all) keeps within the speed limit `radius`.
/// False when there is nothing to slide.
THRONG_HD bool leanSlide(Vec2 wish, Vec2 result, Vec2 along, float radius, Vec2& slide, float& limit) {
  slide = dot(wish - result, along) * along;
  const float a = slide.lengthSquared(), b = dot(result, slide);
  if (!(a > 0.0f)) return false;
  // Where the slide meets the speed limit. linearProgram3 often leaves the
  // velocity on it, a rounding error either side: taken as on it, so a
  // slide inward goes ahead and one outward (b >= 0) stops at once.
  float c = result.lengthSquared() - radius * radius;
  if (c > 0.0f) c = 0.0f;
  const float edge = (-b + std::sqrt(b * b - a * c)) / a;
  limit = edge < 1.0f ? edge : 1.0f;
  return true;
}

/// A jammed walker's choice, after linearProgram3 found `result`, least far
/// past any agent line (by `deepest`): it moves from there toward
/// optVelocity (capped at `radius`), going no more than kJamSlack * radius
/// further past any agent line and no further past any obstacle line than
/// it was: first straight at the wish, then, if a line stops it, along that
/// line toward the wish until another does or the speed limit is reached.
///
/// The least-penetrating velocity alone ignores the wish, so no shake of
/// the wish reaches a jammed walker and a symmetric knot can last. With a
/// thousandth of the top speed, RVO2's Circle of 250 clears sooner and its
/// deepest overlaps get a little deeper; exact ties alone (slack 0) change
/// nothing, and the velocity nearest the wish within the slack (a second
/// full linear program) costs far more for the same (the figures are in
/// docs/engineering.md).
THRONG_HD void leanTowardWish(const Line* lines, int lineCount, int obstacleLineCount, float radius,
                              Vec2 optVelocity, float deepest, Vec2& result) {
  const Vec2 wish = withinSpeed(optVelocity, radius);
  const Vec2 toward = wish - result;  // stays in the speed disc: both ends are in it
  const float allowed = deepest + kJamSlack * radius;
  // past[i]: how far the velocity is past line i; room[i]: how far it may be.
  float past[kMaxLines], room[kMaxLines];
  // How far along `toward` the velocity may go: the nearest stop of any
  // line it moves further past (rate > 0), first such line on a tie. Each
  // line's stop is its own, so the divisions run side by side and the
  // nearest is a select, not a branch on data (which mispredicted often).
  float t = 1.0f;
  int blocker = -1;
  for (int i = 0; i < lineCount; ++i) {
    past[i] = det(lines[i].direction, lines[i].point - result);
    room[i] = i >= obstacleLineCount ? allowed : (past[i] > 0.0f ? past[i] : 0.0f);
    const float rate = -det(lines[i].direction, toward);  // d past / d t
    const float stop = (room[i] - past[i]) / rate;
    const bool nearer = rate > 0.0f && stop < t;
    t = nearer ? stop : t;
    blocker = nearer ? i : blocker;
  }
  if (t < 0.0f) t = 0.0f;  // rounding
  result = result + t * toward;
  if (blocker < 0) return;
  Vec2 slide;
  float u;
  if (!leanSlide(wish, result, lines[blocker].direction, radius, slide, u)) return;
  for (int i = 0; i < lineCount; ++i) {
    const float at = past[i] - t * det(lines[i].direction, toward);
    const float rate = -det(lines[i].direction, slide);
    const float stop = (room[i] - at) / rate;
    u = i != blocker && rate > 0.0f && stop < u ? stop : u;
  }
  if (u > 0.0f) result = result + u * slide;
}

/// Solves the whole program; returns true when it was feasible, false when
/// the walker is jammed (linearProgram3 and leanTowardWish then chose the
/// velocity). `lanes`: linearProgram3 projects and leanTowardWish leans
/// eight lines at a time (the same bits; host code on a CPU with AVX2 only,
/// as SolveParams::lineLanes).
THRONG_HD bool solveVelocity(const Line* lines, int lineCount, int obstacleLineCount, float maxSpeed,
                             Vec2 preferred, Vec2& result, bool lanes = false) {
  const int lineFail = linearProgram2(lines, lineCount, maxSpeed, preferred, false, result);
  if (lineFail < lineCount) {
    const float deepest = linearProgram3(lines, lineCount, obstacleLineCount, lineFail, maxSpeed, result, lanes);
#if !defined(__CUDA_ARCH__)
    if (lanes) {
      leanTowardWishInLanes(lines, lineCount, obstacleLineCount, maxSpeed, preferred, deepest, result);
      return false;
    }
#endif
    leanTowardWish(lines, lineCount, obstacleLineCount, maxSpeed, preferred, deepest, result);
    return false;
  }
  return true;
}

}  // namespace throng

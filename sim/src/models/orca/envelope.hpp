#pragma once
// The kinematic envelope as lines of ORCA's linear program: the velocities
// a walker can reach in one step from its velocity as the step began.
//
// Design note. A walker may change its velocity by at most a·dt speeding
// up or turning (Settings::maxAccel) and b·dt braking (maxDecel): the
// reachable set is a half-disc of radius a·dt ahead of v_prev joined to a
// half-ellipse behind it, a·dt across and b·dt along -v_prev (b·dt is kept
// to |v_prev| + a·dt: past a standstill, walking backwards is speeding up
// again). ORCA takes the octagon inscribed in that set, eight half-planes,
// as hard lines beside the obstacle lines: they are never relaxed when the
// walker is jammed, so a jammed walker's least-penetrating velocity keeps
// the envelope too. Its forward vertex lies on the circle, so a walker
// speeding up straight ahead reaches its speed in v/a seconds; elsewhere
// the octagon gives up at most 8% (1 - cos 22.5°) of the bound.
//
// The envelope takes part only where it binds (models/orca/solve.hpp,
// solveWithinEnvelope): the program is first solved without it, and a velocity
// already inside is the envelope's optimum too. When the walls and the
// envelope leave no velocity at all (a wall closing in faster than the
// walker can brake), the walls win and the envelope is given up for that
// step. Reciprocity is ORCA's, not acceleration-velocity obstacles' (van
// den Berg, Snape, Guy and Manocha, 2011): each walker still takes half of
// each pair's change, and one that cannot take its half in a step is
// jammed for that step, its overlaps held to the gate's jammed bound
// (docs/engineering.md, "The kinematic envelope").
#include "models/orca/orca.hpp"
#include "throng/hd.hpp"
#include "throng/vec2.hpp"

namespace throng {

inline constexpr int kEnvelopeLines = 8;

/// The envelope's lines around `velocity` (v_prev) for a step that may add
/// `accelStep` (a·dt, > 0) speeding up or turning and `brakeStep` (b·dt;
/// 0 takes accelStep) braking, counter-clockwise, into out[0, 8).
THRONG_HD void envelopeLines(Vec2 velocity, float accelStep, float brakeStep, Line* out) {
  const float speed = velocity.length();
  const Vec2 ahead = speed > 0.0f ? velocity / speed : Vec2{1.0f, 0.0f};
  const Vec2 left = perpLeft(ahead);
  const float brake0 = brakeStep > 0.0f ? brakeStep : accelStep;
  const float back = brake0 < speed + accelStep ? brake0 : speed + accelStep;
  constexpr float c = 0.70710678f;  // cos 45°
  // Vertex k at 45k degrees from ahead: the circle ahead, the ellipse behind.
  const float along[kEnvelopeLines] = {accelStep, c * accelStep, 0.0f, -c * back, -back, -c * back, 0.0f,
                                       c * accelStep};
  const float across[kEnvelopeLines] = {0.0f, c * accelStep, accelStep, c * accelStep, 0.0f, -c * accelStep, -accelStep,
                                        -c * accelStep};
  Vec2 vertex[kEnvelopeLines];
  for (int k = 0; k < kEnvelopeLines; ++k) vertex[k] = velocity + along[k] * ahead + across[k] * left;
  for (int k = 0; k < kEnvelopeLines; ++k) {
    out[k].point = vertex[k];
    out[k].direction = (vertex[(k + 1) % kEnvelopeLines] - vertex[k]).normalized();
  }
}

/// Whether v is permitted by every one of lines[0, count), as
/// linearProgram2 tests them.
THRONG_HD bool permittedByAll(const Line* lines, int count, Vec2 v) {
  for (int k = 0; k < count; ++k)
    if (det(lines[k].direction, lines[k].point - v) > 0.0f) return false;
  return true;
}

}  // namespace throng

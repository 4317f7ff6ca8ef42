#pragma once
// The kinematic envelope for the models whose motion is not a velocity
// program (BioCrowds, Continuum Crowds): the velocities a walker can reach
// in one step from its velocity as the step began, and a velocity brought
// into them. ORCA keeps the same bounds as lines of its linear program
// (models/orca/envelope.hpp).
//
// Design note. With u the velocity as the step began, a·dt the most it may
// change speeding up or turning (Settings::maxAccel) and b·dt braking
// (maxDecel), the change d = v - u is split along u and across it, as the
// gate measures it (app/cli/trajectory.hpp): ahead of u (or from a
// standstill) |d| <= a·dt, a half-disc; behind it, braking by at most b·dt
// (and at most |u| + a·dt, so a walker all but standing cannot reverse
// faster than it could set off) and turning by at most a·dt across, a
// rectangle. Together they are one convex set. intoEnvelope maps a wanted velocity into it: the half-disc's
// part scaled back to its rim, the rectangle's clamped along and across,
// so a velocity inside is kept bit for bit.
#include <cstdint>

#include "throng/hd.hpp"
#include "throng/settings.hpp"
#include "throng/vec2.hpp"

namespace throng {

/// The velocity nearest `wanted`, along u and across it, that a walker
/// moving at `velocity` (u) may reach in one step that may add accelStep
/// (a·dt, > 0) speeding up or turning and brakeStep (b·dt; 0 takes
/// accelStep) braking. `wanted` itself when it is within reach.
THRONG_HD Vec2 intoEnvelope(Vec2 velocity, Vec2 wanted, float accelStep, float brakeStep) {
  const Vec2 change = wanted - velocity;
  const float speed = velocity.length();
  // Past a standstill, walking backwards is speeding up again: braking is
  // kept to |u| + a·dt (as ORCA's octagon keeps it).
  float brake = brakeStep > 0.0f ? brakeStep : accelStep;
  brake = brake < speed + accelStep ? brake : speed + accelStep;
  const Vec2 ahead = speed > 0.0f ? velocity / speed : Vec2{};
  const float along = dot(change, ahead);
  if (!(along < 0.0f)) {
    const float length = change.length();
    return length > accelStep ? velocity + change * (accelStep / length) : wanted;
  }
  const Vec2 across = change - ahead * along;
  const float acrossLength = across.length();
  if (!(along < -brake) && !(acrossLength > accelStep)) return wanted;
  const float keptAlong = along < -brake ? -brake : along;
  const Vec2 keptAcross = acrossLength > accelStep ? across * (accelStep / acrossLength) : across;
  return velocity + ahead * keptAlong + keptAcross;
}

/// The envelope of a step as the per-walker passes read it: its bounds
/// (accelStep 0: none) and the velocities as the step began.
struct StepEnvelope {
  float accelStep = 0, brakeStep = 0;  ///< a·dt and b·dt, units/s
  const float *vx = nullptr, *vy = nullptr;
  THRONG_HD bool on() const { return accelStep > 0.0f; }
  /// b·dt² for a step of dt seconds, world units (the keep-apart limits'
  /// StepReach::brakeRoom); 0 without an envelope.
  THRONG_HD float brakeRoom(float dt) const { return on() ? brakeStep * dt : 0.0f; }
  /// Walker i's `wanted` velocity brought into its envelope (itself with none).
  THRONG_HD Vec2 into(std::int32_t i, Vec2 wanted) const {
    return on() ? intoEnvelope(Vec2{vx[i], vy[i]}, wanted, accelStep, brakeStep) : wanted;
  }
};

/// The envelope's bounds for a step of dt seconds under s (maxDecel 0
/// takes maxAccel's); none when maxAccel is 0. The velocities are the
/// caller's to point at.
inline StepEnvelope stepEnvelope(const Settings& s, float dt) {
  StepEnvelope e;
  if (s.maxAccel > 0) {
    e.accelStep = s.maxAccel * dt;
    e.brakeStep = (s.maxDecel > 0 ? s.maxDecel : s.maxAccel) * dt;
  }
  return e;
}

}  // namespace throng

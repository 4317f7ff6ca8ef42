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
#include <cstddef>
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

/// The envelope of a step as the per-walker passes read it: the settings'
/// bounds, each walker's own where it has one (Agent::maxAccel, maxDecel:
/// a group's override, > 0), and the velocities as the step began. Walker
/// i's bounds: a_i its own maxAccel or else Settings::maxAccel; b_i its own
/// maxDecel, else Settings::maxDecel, else a_i; none when a_i is 0.
struct StepEnvelope {
  float accelStep = 0;  ///< Settings::maxAccel * dt, units/s; 0: none but the walkers' own
  float brakeStep = 0;  ///< Settings::maxDecel * dt, units/s; 0 takes the walker's a·dt
  float dt = 0;         ///< s: the walkers' own bounds are per second
  /// The smallest b_i·dt² of any walker under an envelope, world units (how
  /// far the keep-apart limits look for the others' stopping distances); 0:
  /// no walker is under one.
  float weakestRoom = 0;
  const float *vx = nullptr, *vy = nullptr;
  const float *ownAccel = nullptr, *ownDecel = nullptr;  ///< per walker, 0: the settings'; null: none own one
  /// Whether any walker is under an envelope this step.
  THRONG_HD bool on() const { return weakestRoom > 0.0f; }
  /// a_i·dt, units/s; 0: walker i is under none.
  THRONG_HD float accelOf(std::int32_t i) const {
    const float own = ownAccel ? ownAccel[i] : 0.0f;
    return own > 0.0f ? own * dt : accelStep;
  }
  /// b_i·dt for a walker whose a_i·dt is `accel`, units/s.
  THRONG_HD float brakeOf(std::int32_t i, float accel) const {
    const float own = ownDecel ? ownDecel[i] : 0.0f;
    return own > 0.0f ? own * dt : (brakeStep > 0.0f ? brakeStep : accel);
  }
  THRONG_HD bool onFor(std::int32_t i) const { return accelOf(i) > 0.0f; }
  /// b_i·dt² for walker i, world units (the keep-apart limits'
  /// brakingRoom); 0 when it is under no envelope.
  THRONG_HD float brakeRoom(std::int32_t i) const {
    const float a = accelOf(i);
    return a > 0.0f ? brakeOf(i, a) * dt : 0.0f;
  }
  /// Walker i's `wanted` velocity brought into its envelope (itself with none).
  THRONG_HD Vec2 into(std::int32_t i, Vec2 wanted) const {
    const float a = accelOf(i);
    return a > 0.0f ? intoEnvelope(Vec2{vx[i], vy[i]}, wanted, a, brakeOf(i, a)) : wanted;
  }
};

/// The settings' bounds for a step of dt seconds (accelStep, brakeStep,
/// dt); no walker's own, and weakestRoom left 0.
inline StepEnvelope settingsEnvelope(const Settings& s, float dt) {
  StepEnvelope e;
  e.accelStep = s.maxAccel > 0 ? s.maxAccel * dt : 0.0f;
  e.brakeStep = s.maxDecel > 0 ? s.maxDecel * dt : 0.0f;
  e.dt = dt;
  return e;
}

/// The envelope's bounds for a step of dt seconds under s and the walkers'
/// own (ownAccel, ownDecel over n walkers; null: none own one), with
/// weakestRoom found over them; the velocities are the caller's to point
/// at, and the pointers its to set to the arrays its pass reads (the
/// host's or the device's).
inline StepEnvelope stepEnvelope(const Settings& s, float dt, const float* ownAccel, const float* ownDecel,
                                 std::size_t n) {
  StepEnvelope e = settingsEnvelope(s, dt);
  e.ownAccel = ownAccel;
  e.ownDecel = ownDecel;
  float weakest = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const float room = e.brakeRoom(static_cast<std::int32_t>(i));
    if (room > 0.0f && (weakest == 0.0f || room < weakest)) weakest = room;
  }
  e.weakestRoom = weakest;
  return e;
}

}  // namespace throng

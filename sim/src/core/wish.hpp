#pragma once
// A walker's wish for the step (its preferred velocity): towards its goal,
// eased within slowingRadius and landing exactly on it; through its route's
// gates; or its group's stream; then the step's shake. THRONG_HD: the CPU
// step, the CUDA kernels and the teaching view take the same bits. Every
// model reads the wish; none writes it.
#include <cmath>
#include <cstdint>

#include "base/hash.hpp"
#include "throng/hd.hpp"
#include "throng/vec2.hpp"

namespace throng {

// ---- preferred velocities -------------------------------------------------

/// The lowest pace, as a fraction of the top speed, that slowingRadius eases to.
inline constexpr float kSlowestPace = 0.1f;

/// The speed a walker heads for its goal at: its preferred speed when that
/// is above zero and below its top speed, else its top speed.
THRONG_HD float cruiseSpeed(float prefSpeed, float maxSpeed) {
  return prefSpeed > 0 && prefSpeed < maxSpeed ? prefSpeed : maxSpeed;
}

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
  return toGoal / dist * speed;  // as RVO2 normalises: its wish, bit for bit, at speed 1
}

#if !defined(__CUDA_ARCH__)
/// goalWish for eight walkers l in [0, 8), at cruiseSpeed(prefSpeed[l],
/// maxSpeed[l]): the same bits. landing[l] is 1 or 0. Host code,
/// only where lanesAvailable() (orca_lanes.cpp).
void goalWishes8(const float* px, const float* py, const float* gx, const float* gy, const float* prefSpeed,
                 const float* maxSpeed, float slowingRadius, float dt, float* wishX, float* wishY,
                 std::uint8_t* landing);
#endif

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

#pragma once
// A walker's wish for the step (its preferred velocity): towards its goal,
// eased within slowingRadius and landing exactly on it; through its route's
// gates; or its group's stream; then the step's shake. THRONG_HD: the CPU
// step, the CUDA kernels and the teaching view take the same bits. Every
// model reads the wish; none writes it.
#include <cmath>
#include <cstdint>

#include "base/hash.hpp"
#include "fields/field_math.hpp"
#include "throng/hd.hpp"
#include "throng/types.hpp"
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
/// only where lanesAvailable() (fast/lanes.cpp).
void goalWishesBatch(const float* px, const float* py, const float* gx, const float* gy, const float* prefSpeed,
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

/// What the wish and integrate phases read besides positions and speeds.
struct WorldView {
  const float *px = nullptr, *py = nullptr, *radius = nullptr, *maxSpeed = nullptr;
  const float* prefSpeed = nullptr;  ///< <= 0: maxSpeed
  const std::uint8_t* hasGoal = nullptr;
  const float *gx = nullptr, *gy = nullptr;
  const std::int32_t *group = nullptr, *route = nullptr, *gate = nullptr;
  const std::uint64_t* id = nullptr;
  const std::int32_t* routeStart = nullptr;  ///< routes + 1 offsets into waypoints
  const Waypoint* waypoints = nullptr;
  const std::int32_t* streamGroups = nullptr;  ///< sorted
  const Vec2* streamVelocity = nullptr;
  std::int32_t streamCount = 0;
  /// The fields of the last refresh (grid.cols == 0: none this step).
  FieldRouting field;
};

/// What the wish reads of the settings.
struct WishParams {
  float slowingRadius = 0, jitter = 0, dt = 1.0f / 60;
  std::uint64_t seed = 0, step = 0;
};

/// The stream velocity of group g, or nullptr: lower_bound over the sorted groups.
THRONG_HD const Vec2* streamOf(const WorldView& w, std::int32_t g) {
  std::int32_t lo = 0, hi = w.streamCount;
  while (lo < hi) {
    const std::int32_t mid = lo + (hi - lo) / 2;
    if (w.streamGroups[mid] < g) lo = mid + 1; else hi = mid;
  }
  return lo < w.streamCount && w.streamGroups[lo] == g ? &w.streamVelocity[lo] : nullptr;
}

/// Field routing: walker i's wish down its target's potential at `speed`
/// into `wish`; false when the step has no fields, the walker no target,
/// or it stands on its target's cells (then its goal leads it, as without
/// fields; with no goal, route or stream it walks on along the field's
/// flow, into the target, as `onTarget` holds) or has no way there.
THRONG_HD bool fieldWish(const WorldView& w, std::int32_t i, Vec2 p, float speed, Vec2& wish, Vec2& onTarget) {
  onTarget = Vec2{};
  if (w.field.grid.cols == 0) return false;
  const std::int32_t potential = potentialFor(w.field, w.group[i], w.route[i]);
  if (potential < 0) return false;
  bool there, lost;
  const Vec2 flow = fieldFlowAt(w.field, potential, p, there, lost);
  if (there) {
    const Vec2 inward = fieldVelocity(flowOf(w.field, potential), p);
    if (inward.lengthSquared() > 0.0f) onTarget = inward.normalized() * speed;
  }
  if (there || lost) return false;
  wish = flow.normalized() * speed;
  return true;
}

/// Agent i's wish for the step (no closure): down its target's potential
/// when the step has fields and it has a target (throng/fields.hpp), else
/// through its route's next gate while it has one, else its group's
/// stream, else towards its goal; then the step's shake (none on the
/// landing step, which is exact).
THRONG_HD Vec2 wishAt(const WorldView& w, const WishParams& s, std::int32_t i, bool& landing) {
  landing = false;
  const Vec2 p{w.px[i], w.py[i]};
  const float speed = cruiseSpeed(w.prefSpeed[i], w.maxSpeed[i]);
  Vec2 wish;
  const std::int32_t r = w.route[i];
  Vec2 intoTarget;
  if (fieldWish(w, i, p, speed, wish, intoTarget)) {
    // down the potential
  } else if (r >= 0 && w.gate[i] < w.routeStart[r + 1] - w.routeStart[r]) {
    const Waypoint& g = w.waypoints[w.routeStart[r] + w.gate[i]];
    const Vec2 toTarget = gateTarget(g.a, g.b, p, w.radius[i]) - p;
    wish = toTarget.normalized() * speed;
  } else if (const Vec2* stream = streamOf(w, w.group[i])) {
    wish = *stream;
  } else if (w.hasGoal[i]) {
    wish = goalWish(p, Vec2{w.gx[i], w.gy[i]}, speed, s.slowingRadius, s.dt, landing);
  } else {
    wish = intoTarget;
  }
  if (landing) return wish;  // the landing step is exact: no shake
  return jitterWish(wish, w.maxSpeed[i], s.jitter, s.seed, w.id[i], s.step);
}

}  // namespace throng

#pragma once
// The CPU step's own per-agent phases eight agents at a time (World's
// trackMotion and integrate), beside their one-at-a-time forms; defined in
// orca_lanes.cpp, the file built for AVX2. Internal to the library (the
// tests include it by path).
#include <cstddef>
#include <cstdint>

#include "throng/agents_view.hpp"
#include "throng/vec2.hpp"

namespace throng {

/// World::trackMotion's work on agents [0, count), one at a time: lastX and
/// lastY take px and py, kin the AgentKin records, and the largest
/// displacement squared since lastX/lastY (in double, from the float
/// differences) is returned; NaN when one is.
inline double trackMotionOneByOne(const float* px, const float* py, const float* vx, const float* vy,
                                  const float* radius, float* lastX, float* lastY, AgentKin* kin,
                                  std::size_t count) {
  double m = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const double dx = px[i] - lastX[i], dy = py[i] - lastY[i];  // float differences: exact or 1 ulp
    const double d = dx * dx + dy * dy;
    m = d > m || d != d ? d : m;
    lastX[i] = px[i];
    lastY[i] = py[i];
    kin[i] = {px[i], py[i], vx[i], vy[i], radius[i]};
  }
  return m;
}
/// trackMotionOneByOne eight agents at a time, the same values (a NaN may
/// be another NaN). Only where lineLanesAvailable().
double trackMotion8(const float* px, const float* py, const float* vx, const float* vy, const float* radius,
                    float* lastX, float* lastY, AgentKin* kin, std::size_t count);

/// What World::integrate reads and writes, all by agent index: the agents'
/// arrays, and the solve's new velocities and jammed flags.
struct IntegrateArrays {
  float *px, *py, *vx, *vy;
  std::uint8_t* jammed;
  const float *gx, *gy, *wishX, *wishY;
  const std::uint8_t *hasGoal, *landing;
  const float *nvx, *nvy;
  const std::uint8_t* njammed;
};
/// World::integrate for walker i, apart from its route: its new velocity
/// and jammed flag, and its new position, exactly on the goal on the
/// landing step when nobody was in the way. Returns 1 when it is jammed,
/// plus 256 when it is on its goal.
inline unsigned integrateOne(const IntegrateArrays& a, std::size_t i, float dt) {
  a.vx[i] = a.nvx[i];
  a.vy[i] = a.nvy[i];
  a.jammed[i] = a.njammed[i];
  Vec2 to = Vec2{a.px[i], a.py[i]} + Vec2{a.vx[i], a.vy[i]} * dt;
  if (a.landing[i] && a.vx[i] == a.wishX[i] && a.vy[i] == a.wishY[i]) to = {a.gx[i], a.gy[i]};
  a.px[i] = to.x;
  a.py[i] = to.y;
  const bool arrived = a.hasGoal[i] && a.px[i] == a.gx[i] && a.py[i] == a.gy[i];
  return a.jammed[i] + (arrived ? 256u : 0u);
}
/// integrateOne for the eight walkers from `first`, none of them on a
/// route, summed: the same values. Only where lineLanesAvailable().
unsigned integrate8(const IntegrateArrays& a, std::size_t first, float dt);

}  // namespace throng

#pragma once
// The step's last phase for every model: the new velocity and jam flag
// taken, the walker moved (exactly onto its goal on the landing step when
// nobody was in the way), its route's gate passed. One walker at a time
// here; integrate8 eight at a time (core/lanes.cpp, AVX2).
#include <cstddef>
#include <cstdint>

#include "throng/vec2.hpp"

namespace throng {

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
/// route, summed: the same values. Only where lanesAvailable().
unsigned integrate8(const IntegrateArrays& a, std::size_t first, float dt);

}  // namespace throng

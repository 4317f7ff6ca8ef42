#pragma once
// The step's last phase for every model: the new velocity and jam flag
// taken, the walker moved (exactly onto its goal on the landing step when
// nobody was in the way), its route's gate passed. THRONG_HD: the CPU step
// and the CUDA kernels take the same bits; integrateBatch eight walkers at a
// time (core/lanes.cpp, AVX2).
#include <cstddef>
#include <cstdint>

#include "core/wish.hpp"
#include "throng/hd.hpp"
#include "throng/vec2.hpp"

namespace throng {

/// The arrays integrate writes.
struct MutableState {
  float *px = nullptr, *py = nullptr, *vx = nullptr, *vy = nullptr;
  std::uint8_t* jammed = nullptr;
  std::int32_t* gate = nullptr;
};

/// The phase outputs integrate reads.
struct StepOutputs {
  const float *wishX = nullptr, *wishY = nullptr;
  const std::uint8_t* landing = nullptr;
  const float *nvx = nullptr, *nvy = nullptr;
  const std::uint8_t* njammed = nullptr;
};

/// The step's end for agent i. Returns bit 0: jammed, bit 1: arrived.
/// `w` supplies goals and routes (its px/py/gate are not read: m's are).
THRONG_HD unsigned integrateAt(const WorldView& w, const MutableState& m, const StepOutputs& o, float dt,
                               std::int32_t i) {
  const Vec2 from{m.px[i], m.py[i]};
  m.vx[i] = o.nvx[i];
  m.vy[i] = o.nvy[i];
  m.jammed[i] = o.njammed[i];
  Vec2 to = from + Vec2{m.vx[i], m.vy[i]} * dt;
  // The last step lands exactly on the goal when nobody was in the way.
  if (o.landing[i] && m.vx[i] == o.wishX[i] && m.vy[i] == o.wishY[i]) to = {w.gx[i], w.gy[i]};
  m.px[i] = to.x;
  m.py[i] = to.y;
  const std::int32_t r = w.route[i];
  if (r >= 0 && m.gate[i] < w.routeStart[r + 1] - w.routeStart[r]) {
    const Waypoint& g = w.waypoints[w.routeStart[r] + m.gate[i]];
    if (crossesGate(g.a, g.b, from, to)) ++m.gate[i];
  }
  const bool arrived = w.hasGoal[i] && m.px[i] == w.gx[i] && m.py[i] == w.gy[i];
  return (m.jammed[i] ? 1u : 0u) | (arrived ? 2u : 0u);
}

/// integrateAt for the eight walkers from `first`, none of them on a route,
/// summed: the same values, the count of the jammed plus 256 for each on
/// its goal. Only where lanesAvailable() (core/lanes.cpp).
unsigned integrateBatch(const WorldView& w, const MutableState& m, const StepOutputs& o, std::size_t first, float dt);

}  // namespace throng

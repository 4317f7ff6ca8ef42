#pragma once
// The CUDA backend's per-agent and per-slot phases as THRONG_HD functions,
// so the kernels in cuda_backend.cu are one-line wrappers and the CPU tests
// (tests/gpu/test_gpu_host.cpp) can run the very same code on the host and
// compare it with World::stepCpu, phase by phase, without a GPU.
//
// Each function here mirrors a piece of sim/src/world.cpp operation for
// operation; a change there must be made here too (the host tests fail
// otherwise):
//   sortKey               <- World::buildGrid (cell cy * cols + cx, then x)
//   cellStartsForSlot     <- World::buildGrid (prefix sums of the counts)
//   wishAt                <- World::wishOf
//   integrateAt           <- World::integrate
//
// The grid. The CPU counts agents per cell, places them with running
// cursors (index order), then insertion-sorts each cell by x, stably: the
// order is (cell, x, index). The device gets the same arrays from a
// *stable* radix sort of (key, agent index) pairs, the 64-bit key being the
// cell in the high word and an order-preserving integer of x in the low one
// (-0 folded onto +0, which the CPU's `>` also treats as equal): within one
// key the indices stay ascending, so sortedIndex is identical. cellStart[c]
// is then the first slot whose cell is >= c, written by the slot where the
// cell steps past c (cellStartsForSlot), each entry exactly once.
// Atomic counting would give the same counts, but the placement inside a
// cell would follow thread arrival and change sortedIndex from run to run
// (and with it the order neighbours are met in); the stable sort fixes it.
//
// The bounds are a min/max reduction by atomics on order-preserving integer
// keys of the floats: min and max are exact and order-free, so the result is
// the CPU's, except that a -0/+0 tie may pick the other zero, which changes
// no grid coordinate, cell count or cell size (x - (-0) == x - (+0)).
#include <cmath>
#include <cstdint>

#include "core/wish.hpp"
#include "models/orca/solve.hpp"
#include "neighbors/near_lists.hpp"
#include "throng/crowd.hpp"
#include "throng/hd.hpp"
#include "throng/vec2.hpp"

namespace throng::cudastep {

// The views the kernels assemble from device pointers. A new field in one
// of them must be filled here (and in the kernels' setup) too: these
// asserts fail so that it cannot be missed.
static_assert(sizeof(AgentGridView) == 56, "AgentGridView changed: update gridViewOf (agent_step.hpp)");
static_assert(sizeof(AgentsView) == 72, "AgentsView changed: update the CUDA backend's AgentsView setup");
static_assert(sizeof(ObstacleView) == 48, "ObstacleView changed: update the CUDA backend's ObstacleView setup");

/// An unsigned key with the order of the float (for atomicMin/atomicMax).
THRONG_HD std::uint32_t orderedKey(std::uint32_t floatBits) {
  return (floatBits & 0x80000000u) ? ~floatBits : (floatBits | 0x80000000u);
}
/// The float bits back from orderedKey.
THRONG_HD std::uint32_t floatBitsOfKey(std::uint32_t key) {
  return (key & 0x80000000u) ? (key & 0x7FFFFFFFu) : ~key;
}

/// The grid's sort key: (cell, x). `xBits` are the float bits of x.
THRONG_HD std::uint64_t sortKey(std::uint32_t cell, std::uint32_t xBits) {
  if (xBits == 0x80000000u) xBits = 0;  // -0 sorts with +0
  return (static_cast<std::uint64_t>(cell) << 32) | orderedKey(xBits);
}

/// Slot s of n (s == n is the end) writes cellStart[c] = s for every cell c
/// in (cell[s-1], cell[s]], with cell[-1] = -1 and cell[n] = cells. Over all
/// n + 1 slots that writes each of the cells + 1 entries exactly once.
THRONG_HD void cellStartsForSlot(const std::uint64_t* sortedKeys, std::int32_t n, std::int32_t cells,
                                 std::int32_t s, std::int32_t* cellStart) {
  const std::int64_t prev = s == 0 ? -1 : static_cast<std::int64_t>(sortedKeys[s - 1] >> 32);
  const std::int64_t cur = s == n ? cells : static_cast<std::int64_t>(sortedKeys[s] >> 32);
  for (std::int64_t c = prev + 1; c <= cur; ++c) cellStart[c] = s;
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
};

/// What the wish reads of the settings.
struct WishParams {
  float slowingRadius = 0, jitter = 0, dt = 1.0f / 60;
  std::uint64_t seed = 0, step = 0;
};

/// World::streamOf: lower_bound over the sorted groups.
THRONG_HD const Vec2* streamOf(const WorldView& w, std::int32_t g) {
  std::int32_t lo = 0, hi = w.streamCount;
  while (lo < hi) {
    const std::int32_t mid = lo + (hi - lo) / 2;
    if (w.streamGroups[mid] < g) lo = mid + 1; else hi = mid;
  }
  return lo < w.streamCount && w.streamGroups[lo] == g ? &w.streamVelocity[lo] : nullptr;
}

/// World::wishOf for agent i (no closure).
THRONG_HD Vec2 wishAt(const WorldView& w, const WishParams& s, std::int32_t i, bool& landing) {
  landing = false;
  const Vec2 p{w.px[i], w.py[i]};
  const float speed = cruiseSpeed(w.prefSpeed[i], w.maxSpeed[i]);
  Vec2 wish;
  const std::int32_t r = w.route[i];
  if (r >= 0 && w.gate[i] < w.routeStart[r + 1] - w.routeStart[r]) {
    const Waypoint& g = w.waypoints[w.routeStart[r] + w.gate[i]];
    const Vec2 toTarget = gateTarget(g.a, g.b, p, w.radius[i]) - p;
    wish = toTarget.normalized() * speed;
  } else if (const Vec2* stream = streamOf(w, w.group[i])) {
    wish = *stream;
  } else if (w.hasGoal[i]) {
    wish = goalWish(p, Vec2{w.gx[i], w.gy[i]}, speed, s.slowingRadius, s.dt, landing);
  }
  if (landing) return wish;  // the landing step is exact: no shake
  return jitterWish(wish, w.maxSpeed[i], s.jitter, s.seed, w.id[i], s.step);
}

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

/// World::integrate for agent i. Returns bit 0: jammed, bit 1: arrived.
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

}  // namespace throng::cudastep

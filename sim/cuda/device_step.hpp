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

#include "core/integrate.hpp"
#include "core/wish.hpp"
#include "models/orca/solve.hpp"
#include "neighbors/near_lists.hpp"
#include "throng/types.hpp"
#include "throng/hd.hpp"
#include "throng/vec2.hpp"

namespace throng::cudastep {

// The views the kernels assemble from device pointers. A new field in one
// of them must be filled here (and in the kernels' setup) too: these
// asserts fail so that it cannot be missed.
static_assert(sizeof(AgentGridView) == 56, "AgentGridView changed: update gridViewOf (agent_step.hpp)");
static_assert(sizeof(AgentsView) == 88, "AgentsView changed: update the CUDA backend's AgentsView setup");
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

}  // namespace throng::cudastep

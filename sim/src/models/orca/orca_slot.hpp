#pragma once
// ORCA's solve phase for one grid slot (device_model.hpp): the kernel's body,
// and the host mirror's.
#include "device_solve.hpp"
#include "models/orca/solve.hpp"

namespace throng {

/// Solves the walker in grid slot `slot`: its neighbours from the grid,
/// then ORCA (solveAgent), into d.nvx, d.nvy and d.njammed.
THRONG_HD void orcaSolveSlot(const DeviceSolve& d, SolveParams sp, std::int32_t slot) {
  sp.wishX = d.wishX;  // right of way reads the others' wishes
  sp.wishY = d.wishY;
  const AgentGridView g = gridViewOf(*d.shape, d.cellStart, d.sortedIndex, d.sx, d.sy);
  const std::int32_t i = d.sortedIndex[slot];
  SolveScratch ss;
  Vec2 out;
  const bool ok = solveAgent(d.agents, g, d.obstacles, sp, i, Vec2{d.wishX[i], d.wishY[i]}, out, ss, nullptr, 0, slot);
  d.nvx[i] = out.x;
  d.nvy[i] = out.y;
  d.njammed[i] = ok ? 0 : 1;
}

}  // namespace throng

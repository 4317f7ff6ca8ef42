#pragma once
// What a model's phase 4 reads and writes on the device (device_model.hpp):
// plain pointers, so the host mirror (tests/gpu/test_gpu_host.cpp) fills
// the same struct with host arrays and runs a model's THRONG_HD per-slot
// function on the CPU.
#include <cstdint>

#include "geometry/obstacles.hpp"
#include "neighbors/agent_grid.hpp"
#include "neighbors/agents_view.hpp"

namespace throng {

/// A step's device arrays for a model's phase 4 (device pointers; host
/// pointers in the host mirror).
struct DeviceSolve {
  std::int32_t n = 0;
  AgentsView agents;                ///< the state as it was before the step
  const GridShape* shape = nullptr; ///< the agent grid's shape (computed on the device)
  const std::int32_t* cellStart = nullptr;
  const std::int32_t* sortedIndex = nullptr;
  const float *sx = nullptr, *sy = nullptr;
  ObstacleView obstacles;
  const float *wishX = nullptr, *wishY = nullptr;  ///< the step's wishes, by agent
  float *nvx = nullptr, *nvy = nullptr;            ///< written: new velocities, by agent
  std::uint8_t* njammed = nullptr;                 ///< written: jam flags, by agent
};

}  // namespace throng

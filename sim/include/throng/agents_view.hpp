#pragma once
// AgentsView: the old state of every agent, as the per-agent functions read
// it (agent_step.hpp, orca_lanes.hpp). Layer 2: plain pointers, no owner.
#include <cstdint>

namespace throng {

/// The old state, in agent-index order.
struct AgentsView {
  const float *px = nullptr, *py = nullptr, *vx = nullptr, *vy = nullptr;
  const float *radius = nullptr, *maxSpeed = nullptr;
  const std::uint64_t* id = nullptr;
  std::int32_t count = 0;
};

}  // namespace throng

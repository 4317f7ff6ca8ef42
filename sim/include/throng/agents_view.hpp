#pragma once
// AgentsView: the old state of every agent, as the per-agent functions read
// it (agent_step.hpp, orca_lanes.hpp). Layer 2: plain pointers, no owner.
#include <cstdint>

namespace throng {

/// One agent's position, velocity and radius in 32 bytes (the CPU step's
/// copy for agentLines8, which loads a neighbour in two reads instead of
/// five scattered ones).
struct alignas(32) AgentKin {
  float px = 0, py = 0, vx = 0, vy = 0, radius = 0, unused[3] = {};
};

/// The old state, in agent-index order.
struct AgentsView {
  const float *px = nullptr, *py = nullptr, *vx = nullptr, *vy = nullptr;
  const float *radius = nullptr, *maxSpeed = nullptr;
  const std::uint64_t* id = nullptr;
  std::int32_t count = 0;
  /// The same values as AgentKin records, or null (the CPU step fills them
  /// at its start; everyone else leaves it null).
  const AgentKin* kin = nullptr;
};

}  // namespace throng

#pragma once
// AgentsView: the old state of every agent, as the per-agent functions read
// it (models/orca/solve.hpp, fast/lanes.hpp, models/biocrowds/). Layer 2: plain pointers, no owner.
#include <cstdint>

namespace throng {

/// One agent's position, velocity and radius in 32 bytes (the CPU step's
/// copy for agentLinesInLanes, which loads a neighbour in two reads instead of
/// five scattered ones).
struct alignas(32) AgentKin {
  float px = 0, py = 0, vx = 0, vy = 0, radius = 0;
  std::int32_t tile = 0;  ///< the CPU step's motion tile (TileShape) this step started in, or 0
  float unused[2] = {};
};

/// The old state, in agent-index order.
struct AgentsView {
  const float *px = nullptr, *py = nullptr, *vx = nullptr, *vy = nullptr;
  const float *radius = nullptr, *maxSpeed = nullptr;
  const std::uint64_t* id = nullptr;
  /// Each walker's own kinematic envelope (Agent::maxAccel, maxDecel), 0
  /// for the settings'; null: every walker's is the settings'.
  const float *maxAccel = nullptr, *maxDecel = nullptr;
  std::int32_t count = 0;
  /// The same values as AgentKin records, or null (the CPU step fills them
  /// at its start; everyone else leaves it null).
  const AgentKin* kin = nullptr;
};

/// Square tiles over the agents, for the CPU step's relative motion
/// (World's MotionTiles): a position's tile is floor((x - originX) *
/// invWidth) clamped to the columns (a NaN to the first), likewise in y,
/// then row * cols + column. Monotone in x and in y, so clamping never
/// puts near points further apart.
struct TileShape {
  float originX = 0, originY = 0, invWidth = 0;
  float lastColumn = 0, lastRow = 0;  ///< cols - 1, rows - 1
  std::int32_t cols = 0, rows = 0;
};

}  // namespace throng

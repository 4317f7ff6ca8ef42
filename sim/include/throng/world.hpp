#pragma once
// World: the crowd's structure-of-arrays state, under the Crowd facade.
//
// Hot data, read by every phase each step (24 bytes per walker): position,
// velocity, radius, maxSpeed. Warm: jammed flag, preferred speed, goal,
// group, route state (25 bytes). Cold: the stable id (8 bytes), read by the solve only for
// jitter and coincident pairs. Obstacles are a separate set that changes
// rarely; its edge grid is rebuilt when it does.
#include <cstdint>
#include <memory>
#include <vector>

#include "throng/agent_step.hpp"
#include "throng/crowd.hpp"
#include "throng/obstacles.hpp"

namespace throng {

/// Obstacles and walls: the outlines as given, the RVO2 vertex loops, and
/// the edge grid over them.
struct ObstacleSet {
  std::vector<std::vector<Vec2>> outlines, walls;  // as given
  std::vector<ObstacleVertex> vertices;
  Vec2 origin;
  float cell = 1;
  std::int32_t cols = 0, rows = 0;
  std::vector<std::int32_t> cellStart, cellEdges;
  std::uint64_t version = 0;  ///< bumped on every change (device copies follow it)

  void addLoop(std::span<const Vec2> loop);  ///< counter-clockwise, >= 2 points
  void rebuildGrid();
  ObstacleView view() const;
};

/// Scratch rebuilt each step: the agent grid and the new state.
struct StepScratch {
  std::vector<std::int32_t> cellOf, cellStart, sortedIndex;
  std::vector<std::int32_t> slotOf;    // each agent's slot: sortedIndex[slotOf[i]] == i
  std::vector<std::int32_t> previousOrder;  // last step's sortedIndex (placement order)
  std::vector<float> sx, sy;
  GridShape grid;
  std::vector<float> wishX, wishY;     // preferred velocities
  std::vector<std::uint8_t> landing;   // wish lands exactly on the goal
  // The solve's results by grid slot, the order it runs in: each thread
  // writes a contiguous range, so no cache line is shared between threads
  // (by agent index, a jammed byte's line held 64 walkers from all over).
  std::vector<float> nvx, nvy;         // new velocities
  std::vector<std::uint8_t> njammed;
  // Each walker's neighbours of the step before, a starting bound for its
  // next neighbour scan (never changes a result): a row of hintStride per
  // walker, the count (-1: none known) then the indices.
  std::vector<std::int32_t> hint;
  int hintStride = 0;

  AgentGridView gridView() const;
};

class ThreadPool;

class World {
 public:
  World();
  ~World();

  // hot
  std::vector<float> px, py, vx, vy, radius, maxSpeed;
  // warm
  std::vector<float> prefSpeed;  ///< wish speed; <= 0: maxSpeed
  std::vector<std::uint8_t> jammed, hasGoal;
  std::vector<float> gx, gy;
  std::vector<std::int32_t> group, route, gate;
  // cold
  std::vector<std::uint64_t> id;
  std::uint64_t nextId = 0;

  std::uint64_t step = 0;  ///< steps taken (the jitter counter)
  double time = 0;         ///< simulated seconds
  StepStats stats;

  ObstacleSet obstacles;
  std::vector<std::vector<Waypoint>> routes;
  std::vector<std::int32_t> streamGroups;  // sorted; streamVelocity alongside
  std::vector<Vec2> streamVelocity;

  StepScratch scratch;

  std::size_t size() const { return px.size(); }
  void resize(std::size_t n);
  /// Bumped by every step and host edit; explain() rebuilds its grid only
  /// when it changed (or the perception radius did).
  std::uint64_t version = 0, explainGridVersion = ~0ull;
  float explainGridPerception = -1;
  void erase(const std::vector<std::uint8_t>& remove);  ///< keeps order
  AgentsView view() const;
  /// The stream velocity of a group, or nullptr.
  const Vec2* streamOf(std::int32_t g) const;

  /// The CPU reference step: the phases of crowd.hpp, on `threads` workers.
  /// The caller advances `step` and `time`.
  void stepCpu(const Settings& s, float dt, const std::function<Vec2(const Agent&)>& closure,
               int threads);
  /// Phase 1 (also used by the teaching view): the agent grid.
  void buildGrid(const Settings& s);
  /// Phase 2: the wish of agent i (no closure).
  Vec2 wishOf(std::size_t i, const Settings& s, float dt, bool& landing) const;
  /// Phase 5: commit new velocities, move, land, advance gates.
  void integrate(float dt);
  /// fn over chunks of [0, n), on the step's pool when there is one.
  void forEach(std::size_t n, const std::function<void(std::size_t, std::size_t)>& fn);

  Agent agentAt(std::size_t i) const;
  SolveParams solveParams(const Settings& s, float dt) const;

 private:
  std::unique_ptr<ThreadPool> pool_;
};

}  // namespace throng

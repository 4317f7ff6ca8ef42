#pragma once
// World: the crowd's structure-of-arrays state, under the Crowd facade, and
// beside it the step's scratch (StepScratch: what a step hands from phase to
// phase). A model's phases see the two apart (core/model.hpp's StepContext):
// the state as it was, read only, and the scratch they write.
//
// Hot data, read by every phase each step (24 bytes per walker): position,
// velocity, radius, maxSpeed. Warm: jammed flag, preferred speed, goal,
// group, route state (25 bytes). Cold: the stable id (8 bytes), read by the
// solve only for jitter and coincident pairs. Obstacles are a separate set
// that changes rarely; its edge grid is rebuilt when it does. Routes are
// kept as given and as one CSR array (routeStart, waypoints) that the wish
// and the integration read on both backends.
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "geometry/ground.hpp"
#include "core/envelope.hpp"
#include "core/keep_apart.hpp"
#include "core/measure.hpp"
#include "core/pace.hpp"
#include "core/wish.hpp"
#include "fields/fields.hpp"
#include "geometry/obstacles.hpp"
#include "neighbors/agent_grid.hpp"
#include "neighbors/agents_view.hpp"
#include "throng/fields.hpp"
#include "throng/settings.hpp"
#include "throng/types.hpp"

namespace throng {

class Model;
class ThreadPool;

/// What a step's phases hand on, by agent index: the wishes (wishX, wishY,
/// and landing: the wish lands exactly on the goal), and the model's new
/// velocities and jam flags, which integrate takes. Walkers near in the grid
/// are mostly near in index, so threads writing by index seldom share a
/// cache line (the dense 10k at 2 threads: the solve as fast).
struct StepBuffers {
  std::vector<float> wishX, wishY;
  std::vector<std::uint8_t> landing;
  std::vector<float> nvx, nvy;
  std::vector<std::uint8_t> njammed;
  void resize(std::size_t n);
};

/// The step's scratch: what a step builds and hands on from phase to phase,
/// overwritten by every step and never part of the state (stateHash reads
/// none of it). The phases write it; integrate takes from it.
struct StepScratch {
  StepBuffers buffers;
  /// The agent grid, built by the models that need it when they need it.
  AgentGrid grid;
  /// The pace's grid (core/pace.hpp), built by World::paceGridFor.
  AgentGrid paceGrid;
};

class World {
 public:
  World();
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  // hot
  std::vector<float> px, py, vx, vy, radius, maxSpeed;
  // warm
  std::vector<float> prefSpeed;  ///< wish speed; <= 0: maxSpeed
  /// The walker's own envelope (Agent::maxAccel, maxDecel); 0: the settings'.
  std::vector<float> maxAccel, maxDecel;
  std::vector<std::uint8_t> jammed, hasGoal;
  std::vector<float> gx, gy;
  std::vector<std::int32_t> group, route, gate;
  // cold
  std::vector<std::uint64_t> id;
  std::uint64_t nextId = 0;

  std::uint64_t step = 0;  ///< steps taken (the jitter counter)
  double time = 0;         ///< simulated seconds
  StepStats stats;
  StepProfile profile;  ///< the last CPU step's, phase by phase (timings, not state)

  ObstacleSet obstacles;
  std::vector<std::vector<Waypoint>> routes;  ///< as given
  std::vector<std::int32_t> routeStart{0};    ///< routes + 1 offsets into waypoints
  std::vector<Waypoint> waypoints;            ///< every route's gates, route after route
  std::vector<std::int32_t> streamGroups;     ///< sorted; streamVelocity alongside
  std::vector<Vec2> streamVelocity;

  /// The ground the fields are built over, and the fields of the last
  /// refresh (the fields phase; cleared when a step builds none).
  Terrain terrain;
  std::uint64_t terrainVersion = 0;  ///< bumped by every change of terrain
  GroundShapes ground;               ///< the terrain's speed zones and stairs, flattened
  FieldState fields;

  /// The step's scratch (StepScratch), beside the state.
  StepScratch scratch;
  /// The measurement lines and areas and their series (the measure phase).
  MeasureState measure;
  /// The model the last step ran (pipeline/step.hpp makes it); null before
  /// the first.
  std::unique_ptr<Model> model;

  std::size_t size() const { return px.size(); }
  void resize(std::size_t n);
  void erase(const std::vector<std::uint8_t>& remove);  ///< keeps order
  /// Appends a route (as given and to the CSR arrays); returns its number.
  int addRoute(std::vector<Waypoint> gates);
  /// Bumped by every step and host edit (a model's teaching view keeps its
  /// grid while it stays).
  std::uint64_t version = 0;
  AgentsView view() const;
  /// The walkers as a field refresh reads them.
  FieldWalkers fieldWalkers() const;
  /// What the wish and integrate read: the host arrays.
  WorldView worldView() const;
  /// The stream velocity of a group, or nullptr.
  const Vec2* streamOf(std::int32_t g) const;
  Agent agentAt(std::size_t i) const;
  /// What the wish reads of the settings for this step of dt seconds.
  WishParams wishParams(const Settings& s, float dt) const;
  /// The largest walker radius, world units (0 with no walkers).
  float largestRadius() const;
  /// The pace's parameters for these settings, with the largest walker
  /// radius (the CPU's pace phase and the teaching view; the CUDA backend
  /// keeps largestRadius() from its last upload).
  PaceParams paceParamsFor(const Settings& s) const;
  /// paceGrid built over the walkers as they are now; returns
  /// paceParamsFor(s).
  PaceParams paceGridFor(const Settings& s);
  /// The walkers as the keep-apart limits read them, with these wishes.
  MovingWalkers movingWalkers(const float* wishX, const float* wishY) const;
  /// The kinematic envelope of a step of dt seconds (core/envelope.hpp):
  /// the settings' bounds and the walkers' own, over the host's arrays.
  StepEnvelope stepEnvelope(const Settings& s, float dt) const;
  /// The farthest any walker looks for an obstacle edge: the largest
  /// maxSpeed * obstacleTimeHorizon + radius (0 with no walkers).
  float obstacleReach(const Settings& s) const;

  /// The step's pool, with `threads` workers (resolveThreads) from now on.
  ThreadPool& pool(int threads);
  /// The pool the last step used, or null before the first.
  ThreadPool* pool() const { return pool_.get(); }
  /// fn over chunks of [0, n), on the step's pool when there is one
  /// (ThreadPool::parallelFor).
  void forEach(std::size_t n, const std::function<void(std::size_t, std::size_t)>& fn,
               int chunksPerThread = 8) const;

 private:
  std::unique_ptr<ThreadPool> pool_;
};

}  // namespace throng

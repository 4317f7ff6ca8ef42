#pragma once
// What a model's solve phase reads and writes on the device (device_model.hpp):
// plain pointers, so the host mirror (tests/gpu/test_gpu_host.cpp) fills
// the same struct with host arrays and runs a model's THRONG_HD per-slot
// function on the CPU. DeviceHost is what the model's host side knows of
// the walkers before a step's kernels, without reading the device back; no
// CUDA types here either, so the mirror runs that side too.
#include <cstdint>
#include <functional>

#include "fields/field_math.hpp"
#include "geometry/obstacles.hpp"
#include "neighbors/agent_grid.hpp"
#include "neighbors/agents_view.hpp"
#include "throng/vec2.hpp"

namespace throng {

class World;
class ThreadPool;

/// A step's device arrays for a model's solve phase (device pointers; host
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
  const std::uint8_t* landing = nullptr;           ///< by agent: the wish lands exactly on the goal
  float *nvx = nullptr, *nvy = nullptr;            ///< written: new velocities, by agent
  std::uint8_t* njammed = nullptr;                 ///< written: jam flags, by agent
  const std::int32_t *group = nullptr, *route = nullptr;  ///< by agent
  FieldRouting field;  ///< the fields the step's wishes read (grid.cols == 0: none)
};

/// What a model's host side may use before a step's kernels
/// (DeviceModel::prepare). The positions live on the device between host
/// edits: the host's copy holds them only when this step uploaded it.
struct DeviceHost {
  /// The host copy: the truth for what the step never writes (radius,
  /// maxSpeed, goals, routes, obstacles), and for positions when
  /// `uploaded`. Its obstacle grid is already fitted for the step.
  const World* world = nullptr;
  /// The step's pool, for the host's share of the work (the markers' fit).
  ThreadPool* pool = nullptr;
  /// The host's arrays were uploaded for this step (the first step, or an
  /// edit since the last one): its positions are the step's, and radius or
  /// maxSpeed may have changed.
  bool uploaded = false;
  /// The bounds (lo, hi) of the positions the last step on the device
  /// started from, and that step's dt in seconds; false when there is none,
  /// or after a CUDA error (reported). May wait for that step's bounds
  /// kernel (never for the rest of it).
  std::function<bool(Vec2& lo, Vec2& hi, float& dt)> lastBounds;
};

}  // namespace throng

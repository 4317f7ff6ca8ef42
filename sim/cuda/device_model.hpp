#pragma once
// The CUDA backend's seam with a model (core/model.hpp's solve phase on the
// device): the pipeline (cuda_backend.cu) runs the shared phases as kernels
// on the crowd's stream, builds the agent grid, and hands a model the
// device arrays below; the model launches its own kernels on the same
// stream, writing every walker's new velocity and jam flag. A model's
// per-walker work is a THRONG_HD function (sim/src/models/NAME/NAME_slot.hpp)
// so that the host mirror (tests/gpu/test_gpu_host.cpp) runs the very same
// code on the CPU; its kernels live beside it in NAME_device.cu, and both
// read the model's one statement of its grids (GridSpec, from its host
// form). A model without a device form steps on the CPU even when the
// crowd's backend is CUDA.
//
// A step, as the pipeline calls the model:
//   (the fields phase before: device_fields.hpp)
//   obstacleReach  the obstacle grid fitted on the host (ObstacleSet::fitToReach),
//                  as the model's CPU step fits it, then uploaded if it changed
//   prepare        the model's host side (BioCrowds: its marker field), which
//                  may upload what it keeps on the device
//   grid           the agent grid's shape, built on the device
//   solve          the model's kernels
// The grid and the obstacle grid must be the ones the model's CPU step
// builds: the order in which a model meets neighbours and edges is part of
// its result.
#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <string_view>

#include "core/model.hpp"
#include "device_solve.hpp"
#include "throng/settings.hpp"
#include "throng/types.hpp"

namespace throng {

class DeviceModel {
 public:
  virtual ~DeviceModel() = default;
  /// The agent grid the model's CPU step builds (StepScratch::grid): the model's
  /// own statement of it (GridSpec), which its CPU form reads too.
  virtual GridSpec grid(const Settings& s) const = 0;
  /// The reach (world units) the obstacle grid is fitted to before the
  /// step of dt seconds, as the model's CPU step fits it; asked only when
  /// there are obstacles and walkers. `walkersChanged`: the host's arrays
  /// were uploaded for this step (radius or maxSpeed may differ).
  virtual float obstacleReach(const World& w, const Settings& s, bool walkersChanged, float dt) = 0;
  /// The host's share of the solve phase, before the step's kernels are launched.
  /// False after a failure (reported on stderr).
  virtual bool prepare(const DeviceHost&, const Settings&, float /*dt*/, cudaStream_t) { return true; }
  /// Launches the solve phase on `stream`. False after a CUDA error (reported).
  virtual bool solve(const DeviceSolve& d, const Settings& s, float dt, cudaStream_t stream) = 0;
  /// The points the model lays on the ground and their owners as of its
  /// last step, the owners copied back on `stream` (Backend::markers); empty
  /// for a model with none, or after a CUDA error.
  virtual MarkerView markers(cudaStream_t) { return {}; }
};

/// The device form of the model named `name`, or null when it has none
/// (device_models.cu lists them).
std::unique_ptr<DeviceModel> makeDeviceModel(std::string_view name);

}  // namespace throng

#pragma once
// The CUDA backend's seam with a model (core/model.hpp's phase 4 on the
// device): the pipeline (cuda_backend.cu) runs the shared phases as kernels
// on the crowd's stream, builds the agent grid, and hands a model the
// device arrays below; the model launches its own kernels on the same
// stream, writing every walker's new velocity and jam flag. A model's
// per-walker work is a THRONG_HD function (models/NAME_slot.hpp) so that
// the host mirror (tests/gpu/test_gpu_host.cpp) runs the very same code on
// the CPU; its kernels live in models/NAME.cu. A model without a device
// form steps on the CPU even when the crowd's backend is CUDA.
#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <string_view>

#include "device_solve.hpp"
#include "throng/settings.hpp"

namespace throng {

class DeviceModel {
 public:
  virtual ~DeviceModel() = default;
  /// Launches phase 4 on `stream`. False after a CUDA error (reported).
  virtual bool solve(const DeviceSolve& d, const Settings& s, float dt, cudaStream_t stream) = 0;
};

/// The device form of the model named `name`, or null when it has none
/// (device_models.cu lists them).
std::unique_ptr<DeviceModel> makeDeviceModel(std::string_view name);

}  // namespace throng

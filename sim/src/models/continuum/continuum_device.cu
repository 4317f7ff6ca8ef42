// Continuum Crowds on the device: the solve phase (device_model.hpp) as kernels on
// the crowd's stream, a thread per grid slot, after the fields phase
// (field_refresh.cu) and the wishes that read them (continuum_slot.hpp's
// design note): desired steps, kPushRounds rounds of the push, the steps.
// The host side (ContinuumDeviceHost) gives the step's reach, which sizes
// the agent grid and the obstacle grid as the CPU model does.
#include <cstdint>

#include "cuda_check.cuh"
#include "device_buffer.hpp"
#include "device_model.hpp"
#include "models/continuum/continuum_slot.hpp"

namespace throng {
namespace {

constexpr int kContinuumBlock = 128;

__global__ void __launch_bounds__(kContinuumBlock) throngContinuumDesiredKernel(DeviceSolve d, ContinuumSolve c) {
  const std::int32_t slot = blockIdx.x * blockDim.x + threadIdx.x;
  if (slot < d.n) continuumDesiredSlot(d, c, slot);
}
__global__ void __launch_bounds__(kContinuumBlock) throngContinuumPushKernel(DeviceSolve d, ContinuumSolve c, int round) {
  const std::int32_t slot = blockIdx.x * blockDim.x + threadIdx.x;
  if (slot < d.n) continuumPushSlot(d, c, round, slot);
}
__global__ void __launch_bounds__(kContinuumBlock) throngContinuumStepKernel(DeviceSolve d, ContinuumSolve c) {
  const std::int32_t slot = blockIdx.x * blockDim.x + threadIdx.x;
  if (slot < d.n) continuumStepSlot(d, c, slot);
}

class ContinuumDevice final : public DeviceModel {
 public:
  GridSpec grid(const Settings&) const override { return ContinuumModel::grid(reach_); }
  float obstacleReach(const World& w, const Settings&, bool walkersChanged, float dt) override {
    reach_ = host_.reach(w, walkersChanged, dt);
    return ContinuumModel::obstacleReach(reach_);
  }
  bool prepare(const DeviceHost& h, const Settings& s, float dt, cudaStream_t) override {
    reach_ = host_.reach(*h.world, h.uploaded, dt);
    // The walkers' own envelopes, like their radii, change only with edits.
    envelope_ = h.world->stepEnvelope(s, dt);
    return true;
  }
  bool solve(const DeviceSolve& d, const Settings&, float, cudaStream_t stream) override {
    const auto n = static_cast<std::size_t>(d.n);
    if (!(sx_.reserve(n) && sy_.reserve(n) && qx_[0].reserve(n) && qy_[0].reserve(n) && qx_[1].reserve(n) &&
          qy_[1].reserve(n)))
      return false;
    ContinuumSolve c;
    c.cv = continuumViewOf(d, reach_, envelope_);
    c.sx = sx_.get();
    c.sy = sy_.get();
    for (int b = 0; b < 2; ++b) {
      c.qx[b] = qx_[b].get();
      c.qy[b] = qy_[b].get();
    }
    const int blocks = (d.n + kContinuumBlock - 1) / kContinuumBlock;
    throngContinuumDesiredKernel<<<blocks, kContinuumBlock, 0, stream>>>(d, c);
    for (int round = 0; round < kPushRounds; ++round)
      throngContinuumPushKernel<<<blocks, kContinuumBlock, 0, stream>>>(d, c, round);
    throngContinuumStepKernel<<<blocks, kContinuumBlock, 0, stream>>>(d, c);
    return THRONG_CUDA_CHECK(cudaGetLastError());
  }

 private:
  ContinuumDeviceHost host_;
  StepReach reach_;         ///< this step's, from prepare
  StepEnvelope envelope_;   ///< this step's bounds, from prepare
  DeviceBuffer<float> sx_, sy_, qx_[2], qy_[2];
};

}  // namespace

std::unique_ptr<DeviceModel> makeContinuumDevice() { return std::make_unique<ContinuumDevice>(); }

}  // namespace throng

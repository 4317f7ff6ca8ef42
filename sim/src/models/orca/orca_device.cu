// ORCA on the device: the solve phase (device_model.hpp), one thread a grid slot at
// a time (orcaSolveSlot).
#include <algorithm>

#include "core/world.hpp"
#include "cuda_check.cuh"
#include "models/orca/reference.hpp"
#include "device_model.hpp"
#include "models/orca/orca_slot.hpp"

namespace throng {
namespace {

constexpr int kSolveBlock = 128;
constexpr int kSolveBlocksPerSm = 4;  ///< see throngSolveKernel

/// The solve over a grid of kSolveBlocksPerSm blocks a multiprocessor that
/// strides across the slots: 16 warps a multiprocessor rather than 64, so
/// each has four times the L1 for its stack (the solve's neighbour keys
/// and lines live there; docs/engineering.md's GPU section has the figures).
__global__ void __launch_bounds__(kSolveBlock) throngSolveKernel(DeviceSolve d, SolveParams sp) {
  for (std::int32_t slot = blockIdx.x * blockDim.x + threadIdx.x; slot < d.n; slot += gridDim.x * blockDim.x)
    orcaSolveSlot(d, sp, slot);
}

class OrcaDevice final : public DeviceModel {
 public:
  OrcaDevice() {
    int device = 0, sms = 1;
    if (cudaGetDevice(&device) == cudaSuccess &&
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) == cudaSuccess)
      blocks_ = std::max(1, sms) * kSolveBlocksPerSm;
  }
  GridSpec grid(const Settings& s) const override { return OrcaReference::grid(s); }
  /// The CPU models' rule (OrcaReference::obstacleReach): the farthest any walker looks
  /// for an edge, kept while the walkers and obstacleTimeHorizon stay.
  float obstacleReach(const World& w, const Settings& s, bool walkersChanged, float) override {
    if (walkersChanged || s.obstacleTimeHorizon != reachHorizon_) {
      reach_ = OrcaReference::obstacleReach(w, s);
      reachHorizon_ = s.obstacleTimeHorizon;
    }
    return reach_;
  }
  bool solve(const DeviceSolve& d, const Settings& s, float dt, cudaStream_t stream) override {
    const int blocks = std::min((d.n + kSolveBlock - 1) / kSolveBlock, blocks_);
    throngSolveKernel<<<blocks, kSolveBlock, 0, stream>>>(d, OrcaReference::solveParams(s, dt));
    return THRONG_CUDA_CHECK(cudaGetLastError());
  }

 private:
  int blocks_ = 132 * kSolveBlocksPerSm;  ///< kSolveBlocksPerSm on each multiprocessor
  float reach_ = 0, reachHorizon_ = -1;   ///< obstacleReach's, for that obstacleTimeHorizon
};

}  // namespace

std::unique_ptr<DeviceModel> makeOrcaDevice() { return std::make_unique<OrcaDevice>(); }

}  // namespace throng

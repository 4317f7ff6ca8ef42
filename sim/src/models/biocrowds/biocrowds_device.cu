// BioCrowds on the device: the solve phase (device_model.hpp) as two kernels on
// the crowd's stream, after the host side (BioDeviceHost, biocrowds_slot.hpp)
// has fitted the marker field and uploaded it when it was laid:
//   1. owners: a thread per marker cell (bioOwnersCell: the walkers near the
//      cell gathered once on the thread's stack, then each marker's owner);
//   2. velocities: a thread per grid slot (bioVelocitySlot), so neighbouring
//      threads read neighbouring walkers and the same marker cells.
// The owners stay on the device; markers() copies them back when asked
// (the visualizer asks when it draws them).
#include <cstdint>
#include <cstdio>
#include <vector>

#include "cuda_check.cuh"
#include "device_buffer.hpp"
#include "device_model.hpp"
#include "models/biocrowds/biocrowds_slot.hpp"

namespace throng {
namespace {

constexpr int kOwnersBlock = 128;
constexpr int kVelocityBlock = 128;

__global__ void __launch_bounds__(kOwnersBlock) throngBioOwnersKernel(DeviceSolve d, BioSolve b, std::int32_t cells) {
  const std::int32_t c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < cells) bioOwnersCell(d, b, c);
}

__global__ void __launch_bounds__(kVelocityBlock) throngBioVelocityKernel(DeviceSolve d, BioSolve b) {
  const std::int32_t slot = blockIdx.x * blockDim.x + threadIdx.x;
  if (slot < d.n) bioVelocitySlot(d, b, slot);
}

int blocksFor(std::int64_t threads, int block) { return static_cast<int>((threads + block - 1) / block); }

class BioDevice final : public DeviceModel {
 public:
  GridSpec grid(const Settings& s) const override { return BioCrowdsModel::grid(s); }
  float obstacleReach(const World&, const Settings& s, bool, float) override { return BioCrowdsModel::obstacleReach(s); }

  bool prepare(const DeviceHost& h, const Settings& s, float dt, cudaStream_t stream) override {
    if (!host_.prepare(h, s, dt)) {
      std::fprintf(stderr, "throng: BioCrowds on the device: the walkers' last bounds are unknown\n");
      return false;
    }
    const MarkerField& f = host_.field;
    if (f.version == uploadedVersion_) return true;
    // A new field: up it goes (pageable copies: the host may relay it
    // once they return), with room for its owners.
    if (!(mx_.upload(f.mx, stream) && my_.upload(f.my, stream) && clear_.upload(f.clear, stream) &&
          cellStart_.upload(f.cellStart, stream) && nearEdges_.upload(f.nearEdges, stream) &&
          owner_.reserve(f.size())))
      return false;
    uploadedVersion_ = f.version;
    owned_ = false;
    return true;
  }

  bool solve(const DeviceSolve& d, const Settings&, float, cudaStream_t stream) override {
    const MarkerField& f = host_.field;
    BioSolve b;
    b.markers = f.view();  // the host view's scalars, device pointers below
    b.markers.cellStart = cellStart_.get();
    b.markers.mx = mx_.get();
    b.markers.my = my_.get();
    b.markers.clear = clear_.get();
    b.markers.nearEdges = nearEdges_.get();
    b.owner = owner_.get();
    b.bp = host_.bp;
    const std::int64_t cells = static_cast<std::int64_t>(f.cols) * f.rows;
    if (cells > 0) {
      throngBioOwnersKernel<<<blocksFor(cells, kOwnersBlock), kOwnersBlock, 0, stream>>>(
          d, b, static_cast<std::int32_t>(cells));
      if (!THRONG_CUDA_CHECK(cudaGetLastError())) return false;
    }
    throngBioVelocityKernel<<<blocksFor(d.n, kVelocityBlock), kVelocityBlock, 0, stream>>>(d, b);
    if (!THRONG_CUDA_CHECK(cudaGetLastError())) return false;
    owned_ = true;
    return true;
  }

  MarkerView markers(cudaStream_t stream) override {
    const MarkerField& f = host_.field;
    MarkerView v;
    v.x = f.mx;
    v.y = f.my;
    if (!owned_) return v;
    hostOwner_.resize(f.size());
    if (!(owner_.download(hostOwner_, stream) && THRONG_CUDA_CHECK(cudaStreamSynchronize(stream)))) return {};
    v.owner = hostOwner_;
    return v;
  }

 private:
  BioDeviceHost host_;
  std::uint64_t uploadedVersion_ = ~std::uint64_t{0};  ///< the field version on the device
  bool owned_ = false;  ///< owner_ holds the owners of the field on the device
  DeviceBuffer<float> mx_, my_, clear_;
  DeviceBuffer<std::int32_t> cellStart_, owner_;
  DeviceBuffer<std::uint8_t> nearEdges_;
  std::vector<std::int32_t> hostOwner_;  ///< markers()' copy
};

}  // namespace

std::unique_ptr<DeviceModel> makeBioCrowdsDevice() { return std::make_unique<BioDevice>(); }

}  // namespace throng

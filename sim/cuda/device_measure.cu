// The measure phase's kernel and its host side (device_measure.hpp).
#include "device_measure.hpp"

#include <algorithm>

#include "core/world.hpp"

namespace throng {

namespace {

constexpr int kMeasureBlock = 256;

/// measureWalker's sink on the device: integer atomics (exact in any
/// order); crossings appended in any order, sorted on the host.
struct DeviceMeasureSink {
  std::uint32_t* counts;
  unsigned long long* speed;
  MeasureEvent* events;
  std::uint32_t capacity;
  std::int32_t count;  ///< measurements
  std::int32_t walker;
  __device__ void crossed(std::int32_t m, int direction, double along) {
    atomicAdd(&counts[(direction > 0 ? 0 : count) + m], 1u);
    const std::uint32_t k = atomicAdd(&counts[3 * count], 1u);
    if (k < capacity) events[k] = MeasureEvent{walker, m, direction, along};
  }
  __device__ void inside(std::int32_t m, std::int64_t s) {
    atomicAdd(&counts[2 * count + m], 1u);
    atomicAdd(&speed[m], static_cast<unsigned long long>(s));
  }
};

__global__ void throngMeasureKernel(std::int32_t n, MeasureShapesView v, const float* ox, const float* oy,
                                    const float* px, const float* py, const float* vx, const float* vy,
                                    std::uint32_t* counts, unsigned long long* speed, MeasureEvent* events,
                                    std::uint32_t capacity) {
  const std::int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  DeviceMeasureSink sink{counts, speed, events, capacity, v.count, i};
  measureWalker(v, ox[i], oy[i], px[i], py[i], vx[i], vy[i], sink);
}

}  // namespace

bool DeviceMeasure::keepStarts(const float* px, const float* py, std::int32_t n, cudaStream_t st) {
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
  return ox_.reserve(n) && oy_.reserve(n) &&
         THRONG_CUDA_CHECK(cudaMemcpyAsync(ox_.get(), px, bytes, cudaMemcpyDeviceToDevice, st)) &&
         THRONG_CUDA_CHECK(cudaMemcpyAsync(oy_.get(), py, bytes, cudaMemcpyDeviceToDevice, st));
}

bool DeviceMeasure::upload(const MeasureState& ms, cudaStream_t st) {
  if (ms.version == version_) return true;
  const MeasureShapes& s = ms.shapes;
  if (!kind_.upload(s.kind, st) || !first_.upload(s.first, st) || !x_.upload(s.x, st) || !y_.upload(s.y, st) ||
      !box_.upload(s.box, st) || !binStart_.upload(s.binStart, st) || !binList_.upload(s.binList, st))
    return false;
  view_ = s.view();
  view_.kind = kind_.get();
  view_.first = first_.get();
  view_.x = x_.get();
  view_.y = y_.get();
  view_.box = box_.get();
  view_.binStart = binStart_.get();
  view_.binList = binList_.get();
  const std::size_t m = s.kind.size();
  if (!counts_.reserve(3 * m + 1) || !speed_.reserve(m)) return false;
  hostCounts_.assign(3 * m + 1, 0);
  hostSpeed_.assign(m, 0);
  version_ = ms.version;
  return true;
}

bool DeviceMeasure::run(const float* px, const float* py, const float* vx, const float* vy, std::int32_t n,
                        cudaStream_t st) {
  const std::size_t m = hostSpeed_.size();
  if (!THRONG_CUDA_CHECK(cudaMemsetAsync(counts_.get(), 0, (3 * m + 1) * sizeof(std::uint32_t), st)) ||
      !THRONG_CUDA_CHECK(cudaMemsetAsync(speed_.get(), 0, m * sizeof(unsigned long long), st)))
    return false;
  throngMeasureKernel<<<(n + kMeasureBlock - 1) / kMeasureBlock, kMeasureBlock, 0, st>>>(
      n, view_, ox_.get(), oy_.get(), px, py, vx, vy, counts_.get(), speed_.get(), events_.get(), capacity_);
  return THRONG_CUDA_CHECK(cudaGetLastError()) && counts_.download(hostCounts_, st) &&
         speed_.download(hostSpeed_, st) && THRONG_CUDA_CHECK(cudaStreamSynchronize(st));
}

bool DeviceMeasure::step(World& w, const float* px, const float* py, const float* vx, const float* vy,
                         std::int32_t n, float dt, cudaStream_t st) {
  MeasureState& ms = w.measure;
  if (!upload(ms, st)) return false;
  if (capacity_ == 0) {
    if (!events_.reserve(1024)) return false;
    capacity_ = 1024;
  }
  if (!run(px, py, vx, vy, n, st)) return false;
  const std::size_t m = hostSpeed_.size();
  const std::uint32_t found = hostCounts_[3 * m];
  if (found > capacity_) {  // more crossings than room: again, with room for them all
    if (!events_.reserve(found)) return false;
    capacity_ = found;
    if (!run(px, py, vx, vy, n, st)) return false;
  }
  hostEvents_.resize(found);
  if (!events_.download(hostEvents_, st) || !THRONG_CUDA_CHECK(cudaStreamSynchronize(st))) return false;
  MeasureTally tally(m);
  for (std::size_t k = 0; k < m; ++k) {
    tally.forward[k] = hostCounts_[k];
    tally.backward[k] = hostCounts_[m + k];
    tally.inside[k] = hostCounts_[2 * m + k];
    tally.speedSum[k] = static_cast<std::int64_t>(hostSpeed_[k]);
  }
  ms.record(tally, hostEvents_, w.id.data(), w.step, w.time, dt);
  return true;
}

}  // namespace throng

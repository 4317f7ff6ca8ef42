#pragma once
// The measure phase on the device (core/measure.hpp's rule, one thread a
// walker). The walkers stay on the device: a step brings back only the
// tally (three counts and a speed sum per measurement) and the crossings,
// so the host waits for the stream once per step while the crowd measures
// anything, and not at all while it measures nothing.
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "core/measure.hpp"
#include "device_buffer.hpp"

namespace throng {

class World;

class DeviceMeasure {
 public:
  /// Before integrate moves them: where the n walkers begin the step.
  bool keepStarts(const float* px, const float* py, std::int32_t n, cudaStream_t st);
  /// After integrate: the step's row of w.measure's series, from the
  /// walkers' start (keepStarts) and end. False after a CUDA error.
  bool step(World& w, const float* px, const float* py, const float* vx, const float* vy, std::int32_t n, float dt,
            cudaStream_t st);

 private:
  bool upload(const MeasureState& ms, cudaStream_t st);
  bool run(const float* px, const float* py, const float* vx, const float* vy, std::int32_t n, cudaStream_t st);

  DeviceBuffer<float> ox_, oy_;
  DeviceBuffer<std::uint8_t> kind_;
  DeviceBuffer<std::int32_t> first_, binStart_, binList_;
  DeviceBuffer<double> x_, y_, box_;
  MeasureShapesView view_;  ///< into the buffers above
  std::uint64_t version_ = ~std::uint64_t{0};
  /// forward, backward and inside by measurement, then the crossings found
  DeviceBuffer<std::uint32_t> counts_;
  DeviceBuffer<unsigned long long> speed_;
  DeviceBuffer<MeasureEvent> events_;
  std::uint32_t capacity_ = 0;  ///< crossings events_ holds
  std::vector<std::uint32_t> hostCounts_;
  std::vector<unsigned long long> hostSpeed_;
  std::vector<MeasureEvent> hostEvents_;
};

}  // namespace throng

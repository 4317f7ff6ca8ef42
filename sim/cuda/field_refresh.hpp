#pragma once
// The fields on the device (device_fields.hpp's design note): their arrays,
// the fields phase's kernels on the crowd's stream, and the copies between the
// device and World::fields. The CUDA backend owns one DeviceFields.
#include <cuda_runtime.h>

#include <cstdint>

#include "device_buffer.hpp"
#include "device_fields.hpp"

namespace throng {

/// The walkers a refresh reads (device pointers).
struct DeviceWalkers {
  const float *px = nullptr, *py = nullptr, *vx = nullptr, *vy = nullptr;
  std::int32_t n = 0;
};

class DeviceFields {
 public:
  DeviceFields();
  ~DeviceFields();
  DeviceFields(const DeviceFields&) = delete;
  DeviceFields& operator=(const DeviceFields&) = delete;
  bool ok() const { return ok_; }

  /// The fields phase of a device step with walkers, before the model's obstacle
  /// fit: the host's fields up when the device lacks them, the CPU's
  /// obstacle fit, then a refresh when one is due (its box is a round trip:
  /// the host waits for the walkers' bounds). `walkersUploaded`: the host's
  /// walkers went up for this step. False after a CUDA error (reported).
  bool step(World& w, const Settings& s, const DeviceWalkers& dw, bool walkersUploaded, cudaStream_t st);
  /// Brings World::fields' refreshed arrays down when the device's are
  /// newer; waits for the stream. False after a CUDA error.
  bool bringDown(World& w, cudaStream_t st);
  /// What the wish and the models read this step: the device's fields, or
  /// none (grid.cols == 0).
  FieldRouting routing() const;

  /// The potential over grid g by the device's tiled solve into phi (device
  /// arrays: cost 4 per cell, blocked per cell, goals `goalCount` cells),
  /// on `st`; the rounds that had work go to *rounds (device memory) when
  /// given. False after a CUDA error.
  bool solve(const FieldGridView& g, const float* cost, const std::uint8_t* blocked, const std::int32_t* goals,
             std::int32_t goalCount, float* phi, cudaStream_t st, std::int32_t* rounds = nullptr);

  DeviceFieldsHost host;

 private:
  bool upload(const World& w, cudaStream_t st);
  bool uploadStatics(const FieldState& f, cudaStream_t st);
  bool refresh(World& w, const Settings& s, const DeviceWalkers& dw, cudaStream_t st);

  bool ok_ = false;
  int roundBlocks_ = 132 * 16;
  std::uint32_t* hostKeys_ = nullptr;      ///< pinned: the box's four keys
  std::int32_t* hostCounts_ = nullptr;     ///< pinned: two batches' next-round counts
  cudaEvent_t batchDone_[2] = {nullptr, nullptr};
  // what routing() hands out
  FieldGridView grid_;
  std::int32_t keyCount_ = 0;
  float fmax_ = 1;
  // fixed parts
  DeviceBuffer<std::uint8_t> blocked_, open_;
  DeviceBuffer<float> height_, discomfort_, groundFactor_, groundLimit_;
  DeviceBuffer<std::int32_t> goalCells_;
  DeviceBuffer<TargetKey> keys_;
  // refreshed
  DeviceBuffer<float> density_, velocityX_, velocityY_, speed_, cost_, potentials_;
  DeviceBuffer<std::int32_t> potentialOf_;
  // scratch
  DeviceBuffer<std::uint32_t> boxKeys_;
  DeviceBuffer<std::int64_t> sums_;
  DeviceBuffer<float> otherPhi_;
  DeviceBuffer<std::uint8_t> isGoal_;
  DeviceBuffer<std::int32_t> stamp_, lists_, counts_;
};

}  // namespace throng

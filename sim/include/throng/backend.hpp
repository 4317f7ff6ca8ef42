#pragma once
// Where a Crowd's steps run (Crowd::setBackend): the CPU, the reference, or
// CUDA (built when nvcc is found), which keeps the state on the device and
// gives the same bits; and the device's arrays for drawing straight from
// them (Crowd::deviceFrame, CUDA-GL interop).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>


namespace throng {

enum class BackendKind { Auto, Cpu, Cuda };

/// "cpu", "cuda" or "auto" (as the command lines spell them); nullopt otherwise.
std::optional<BackendKind> backendFromName(std::string_view name);

/// True when this build has the CUDA backend and a device is present; else
/// `why` says what is missing.
bool cudaAvailable(std::string* why = nullptr);

/// Read-only device pointers to a backend's current state, for consumers on
/// the GPU (render/cuda_interop). Valid until the next step or host write;
/// work must be queued on `stream` (a cudaStream_t).
struct DeviceFrame {
  const float *px, *py, *vx, *vy, *radius;
  const std::int32_t* group;
  const std::uint8_t* jammed;
  std::size_t count;
  void* stream;
};

}  // namespace throng

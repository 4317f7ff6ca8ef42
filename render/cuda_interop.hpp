#pragma once
// CUDA-GL interop for the instance buffer (sim/cuda/README.md, "CUDA-GL
// interop"). Built from render/cuda_interop.cu only when THRONG_HAVE_CUDA
// (target throng_render_interop, which defines THRONG_RENDER_INTEROP=1);
// otherwise this header is a stub whose calls all report "unavailable", so
// callers compile and take the host upload (packInstances +
// GlRenderer::uploadInstances) either way. Both paths call packInstance, so
// both give the same bytes.
#include <cstddef>
#include <span>
#include <string>

#include "render/instance.hpp"
#include "throng/backend.hpp"

namespace throng::render {

#if defined(THRONG_RENDER_INTEROP)

/// True when this build has the interop code (not whether a device is present).
inline constexpr bool kCudaInteropBuilt = true;

class CudaInterop {
 public:
  CudaInterop() = default;
  CudaInterop(const CudaInterop&) = delete;
  CudaInterop& operator=(const CudaInterop&) = delete;
  ~CudaInterop();
  /// Registers GL buffer `vbo` (room for `capacity` instances) with CUDA,
  /// write-discard. Registers once; again only when vbo or capacity change.
  /// False, with the reason, when there is no device or the GL context is not
  /// on the NVIDIA driver (e.g. Mesa): keep the host upload then.
  bool attach(unsigned vbo, std::size_t capacity, std::string* why = nullptr);
  bool attached() const { return resource_ != nullptr; }
  /// Maps the buffer on f.stream, packs f.count instances (plus the
  /// selection flags, as markSelection does), unmaps on the same stream.
  /// False (with why) when not attached, f.count > capacity, or CUDA fails.
  bool fill(const DeviceFrame& f, std::ptrdiff_t selected, std::span<const std::size_t> neighbours,
            std::string* why = nullptr);
  void detach();

 private:
  void* resource_ = nullptr;  // cudaGraphicsResource_t
  unsigned vbo_ = 0;
  std::size_t capacity_ = 0;
  std::size_t* dNeighbours_ = nullptr;  // device scratch for the selection
  std::size_t neighbourCap_ = 0;
};

/// The pack kernel into plain device memory (no GL): `dOut` is a device
/// array of f.count records. Synchronises f.stream. For tests and tools.
bool packInstancesDevice(const DeviceFrame& f, AgentInstance* dOut, std::ptrdiff_t selected,
                         std::span<const std::size_t> neighbours, std::string* why = nullptr);

#else  // the no-CUDA stub

inline constexpr bool kCudaInteropBuilt = false;

class CudaInterop {
 public:
  bool attach(unsigned, std::size_t, std::string* why = nullptr) { return no(why); }
  bool attached() const { return false; }
  bool fill(const DeviceFrame&, std::ptrdiff_t, std::span<const std::size_t>, std::string* why = nullptr) {
    return no(why);
  }
  void detach() {}

 private:
  static bool no(std::string* why) {
    if (why) *why = "this build has no CUDA (CUDA-GL interop not built)";
    return false;
  }
};

inline bool packInstancesDevice(const DeviceFrame&, AgentInstance*, std::ptrdiff_t, std::span<const std::size_t>,
                                std::string* why = nullptr) {
  if (why) *why = "this build has no CUDA (CUDA-GL interop not built)";
  return false;
}

#endif

}  // namespace throng::render

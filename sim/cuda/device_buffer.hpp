#pragma once
// DeviceBuffer: a device array that grows and never shrinks, shared by the
// pipeline (cuda_backend.cu) and the models' device forms (models/*.cu).
// Copies go on the caller's stream; every CUDA call is checked with file and
// line (cuda_check.cuh).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <vector>

#include "cuda_check.cuh"

namespace throng {

/// A device array that grows (by half again) and never shrinks.
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { release(); }

  bool reserve(std::size_t n) {
    if (n <= capacity_ && ptr_) return true;
    release();
    const std::size_t want = std::max<std::size_t>(n + n / 2, 16);
    if (!THRONG_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&ptr_), want * sizeof(T)))) {
      ptr_ = nullptr;
      return false;
    }
    capacity_ = want;
    return true;
  }
  bool upload(const T* host, std::size_t n, cudaStream_t stream) {
    if (!reserve(n)) return false;
    return n == 0 || THRONG_CUDA_CHECK(cudaMemcpyAsync(ptr_, host, n * sizeof(T), cudaMemcpyHostToDevice, stream));
  }
  bool upload(const std::vector<T>& host, cudaStream_t stream) { return upload(host.data(), host.size(), stream); }
  bool download(std::vector<T>& host, cudaStream_t stream) const {
    return host.empty() ||
           THRONG_CUDA_CHECK(cudaMemcpyAsync(host.data(), ptr_, host.size() * sizeof(T), cudaMemcpyDeviceToHost, stream));
  }
  T* get() const { return ptr_; }

 private:
  void release() {
    if (ptr_) cudaFree(ptr_);  // errors at exit (runtime unloading) are not ours to report
    ptr_ = nullptr;
    capacity_ = 0;
  }
  T* ptr_ = nullptr;
  std::size_t capacity_ = 0;
};

}  // namespace throng

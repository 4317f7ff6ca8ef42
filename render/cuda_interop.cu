// CUDA-GL interop for the instance buffer: the one file (see the header).
// Compiled with throng_cuda_flags (--fmad=false, precise div/sqrt), so the
// pack kernel's packInstance gives the host's bytes.
#include <epoxy/gl.h>  // before cuda_gl_interop.h, which includes GL/gl.h

#include <cuda_gl_interop.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "render/cuda_interop.hpp"

namespace throng::render {
namespace {

constexpr int kBlock = 256;

__global__ void throngPackInstancesKernel(std::int64_t n, const float* px, const float* py, const float* vx,
                                          const float* vy, const float* radius, const std::int32_t* group,
                                          const std::uint8_t* jammed, AgentInstance* out) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = packInstance(px[i], py[i], vx[i], vy[i], radius[i], group[i], jammed[i]);
}

/// markSelection on the device: indices past the end are ignored.
__global__ void throngMarkSelectionKernel(std::size_t n, AgentInstance* out, std::ptrdiff_t selected,
                                          const std::size_t* nb, std::size_t nbCount) {
  for (std::size_t k = threadIdx.x; k < nbCount; k += blockDim.x)
    if (nb[k] < n) atomicOr(&out[nb[k]].flags, kInstanceNeighbour);
  if (threadIdx.x == 0 && selected >= 0 && static_cast<std::size_t>(selected) < n)
    atomicOr(&out[selected].flags, kInstanceSelected);
}

bool check(cudaError_t e, const char* what, std::string* why) {
  if (e == cudaSuccess) return true;
  (void)cudaGetLastError();
  if (why) *why = std::string(what) + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")";
  return false;
}

/// Queues the pack and the selection on `st`; `dNb` holds the neighbours.
bool launch(const DeviceFrame& f, AgentInstance* out, std::ptrdiff_t selected, const std::size_t* dNb,
            std::size_t nbCount, cudaStream_t st, std::string* why) {
  if (f.count == 0) return true;
  const auto n = static_cast<std::int64_t>(f.count);
  throngPackInstancesKernel<<<static_cast<unsigned>((n + kBlock - 1) / kBlock), kBlock, 0, st>>>(
      n, f.px, f.py, f.vx, f.vy, f.radius, f.group, f.jammed, out);
  if (selected >= 0 || nbCount > 0)
    throngMarkSelectionKernel<<<1, kBlock, 0, st>>>(f.count, out, selected, dNb, nbCount);
  return check(cudaGetLastError(), "pack kernel launch", why);
}

/// Grows a device array of neighbour indices and copies `nb` into it on st.
bool uploadNeighbours(std::span<const std::size_t> nb, std::size_t*& ptr, std::size_t& cap, cudaStream_t st,
                      std::string* why) {
  if (nb.empty()) return true;
  if (nb.size() > cap) {
    if (ptr) cudaFree(ptr);
    ptr = nullptr;
    cap = 0;
    if (!check(cudaMalloc(reinterpret_cast<void**>(&ptr), nb.size() * sizeof(std::size_t)), "cudaMalloc", why))
      return false;
    cap = nb.size();
  }
  return check(cudaMemcpyAsync(ptr, nb.data(), nb.size() * sizeof(std::size_t), cudaMemcpyHostToDevice, st),
               "neighbour upload", why);
}

bool haveDevice(std::string* why) {
  std::string reason;
  if (cudaAvailable(&reason)) return true;
  if (why) *why = reason;
  return false;
}

}  // namespace

CudaInterop::~CudaInterop() { detach(); }

bool CudaInterop::attach(unsigned vbo, std::size_t capacity, std::string* why) {
  if (resource_ && vbo == vbo_ && capacity == capacity_) return true;
  detach();
  if (!haveDevice(why)) return false;
  cudaGraphicsResource_t r = nullptr;
  if (!check(cudaGraphicsGLRegisterBuffer(&r, static_cast<GLuint>(vbo), cudaGraphicsRegisterFlagsWriteDiscard),
             "cudaGraphicsGLRegisterBuffer (the GL context must be on the NVIDIA driver)", why))
    return false;
  resource_ = r;
  vbo_ = vbo;
  capacity_ = capacity;
  return true;
}

void CudaInterop::detach() {
  if (resource_) cudaGraphicsUnregisterResource(static_cast<cudaGraphicsResource_t>(resource_));
  if (dNeighbours_) cudaFree(dNeighbours_);
  resource_ = nullptr;
  dNeighbours_ = nullptr;
  neighbourCap_ = 0;
  vbo_ = 0;
  capacity_ = 0;
}

bool CudaInterop::fill(const DeviceFrame& f, std::ptrdiff_t selected, std::span<const std::size_t> neighbours,
                       std::string* why) {
  if (!resource_) {
    if (why) *why = "not attached";
    return false;
  }
  if (f.count > capacity_) {
    if (why) *why = "the instance buffer is smaller than the crowd (attach again after it grows)";
    return false;
  }
  const auto st = static_cast<cudaStream_t>(f.stream);
  auto r = static_cast<cudaGraphicsResource_t>(resource_);
  if (!uploadNeighbours(neighbours, dNeighbours_, neighbourCap_, st, why)) return false;
  if (!check(cudaGraphicsMapResources(1, &r, st), "cudaGraphicsMapResources", why)) return false;
  void* ptr = nullptr;
  std::size_t bytes = 0;
  bool ok = check(cudaGraphicsResourceGetMappedPointer(&ptr, &bytes, r), "cudaGraphicsResourceGetMappedPointer", why);
  if (ok && bytes < f.count * sizeof(AgentInstance)) {
    if (why) *why = "the mapped buffer is smaller than the crowd";
    ok = false;
  }
  if (ok) ok = launch(f, static_cast<AgentInstance*>(ptr), selected, dNeighbours_, neighbours.size(), st, why);
  const bool unmapped = check(cudaGraphicsUnmapResources(1, &r, st), "cudaGraphicsUnmapResources", why);
  return ok && unmapped;
}

bool packInstancesDevice(const DeviceFrame& f, AgentInstance* dOut, std::ptrdiff_t selected,
                         std::span<const std::size_t> neighbours, std::string* why) {
  if (!haveDevice(why)) return false;
  const auto st = static_cast<cudaStream_t>(f.stream);
  std::size_t* dNb = nullptr;
  std::size_t cap = 0;
  bool ok = uploadNeighbours(neighbours, dNb, cap, st, why) &&
            launch(f, dOut, selected, dNb, neighbours.size(), st, why) &&
            check(cudaStreamSynchronize(st), "cudaStreamSynchronize", why);
  if (dNb) cudaFree(dNb);
  return ok;
}

}  // namespace throng::render

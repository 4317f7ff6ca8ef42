// The interop pack kernel on a device: a crowd stepped on the CUDA backend,
// packed by render::packInstancesDevice (plain device memory, no GL), must
// give the same bytes as the host's packInstances + markSelection. Without a
// device it prints SKIP with the reason and exits 77 (ctest: skipped).
// The GL half (cudaGraphicsGLRegisterBuffer) needs EGL on the NVIDIA driver
// and is not covered here.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gpu_scenes.hpp"
#include "render/cuda_interop.hpp"
#include "render/pack.hpp"
#include "throng/backend.hpp"
#include "throng/crowd.hpp"

using namespace throng;

int main() {
  std::string why;
  if (!cudaAvailable(&why)) {
    std::printf("SKIP: %s\n", why.c_str());
    return 77;
  }
  int failures = 0;
  for (int n : {1, 257, 100000}) {
    Crowd c;
    gpuscenes::randomCrowd(c, n);
    std::string msg;
    if (!c.setBackend(BackendKind::Cuda, &msg)) {
      std::printf("FAIL n=%d: setBackend(Cuda): %s\n", n, msg.c_str());
      ++failures;
      continue;
    }
    for (int k = 0; k < 5; ++k) c.advance();
    std::vector<render::AgentInstance> host;
    render::packInstances(c.frame(), host);
    const std::vector<std::size_t> nb = {0, 3, static_cast<std::size_t>(n) - 1, static_cast<std::size_t>(n) + 5};
    const std::ptrdiff_t selected = n / 2;
    render::markSelection(host, selected, nb);
    DeviceFrame f{};
    if (!c.deviceFrame(f) || f.count != host.size()) {
      std::printf("FAIL n=%d: no device frame after stepping (count %zu)\n", n, f.count);
      ++failures;
      continue;
    }
    render::AgentInstance* d = nullptr;
    if (cudaMalloc(reinterpret_cast<void**>(&d), host.size() * sizeof(render::AgentInstance)) != cudaSuccess) {
      std::printf("FAIL n=%d: cudaMalloc\n", n);
      ++failures;
      continue;
    }
    std::vector<render::AgentInstance> dev(host.size());
    const bool ok = render::packInstancesDevice(f, d, selected, nb, &why) &&
                    cudaMemcpy(dev.data(), d, dev.size() * sizeof(render::AgentInstance), cudaMemcpyDeviceToHost) ==
                        cudaSuccess;
    cudaFree(d);
    if (!ok) {
      std::printf("FAIL n=%d: %s\n", n, why.c_str());
      ++failures;
    } else if (std::memcmp(dev.data(), host.data(), host.size() * sizeof(render::AgentInstance)) != 0) {
      std::printf("FAIL n=%d: device pack differs from packInstances\n", n);
      ++failures;
    } else {
      std::printf("ok n=%d: %zu instances byte-identical\n", n, host.size());
    }
  }
  return failures == 0 ? 0 : 1;
}

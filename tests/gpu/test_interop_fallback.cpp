// On the CPU (no device, or no CUDA in the build): the interop reports
// "unavailable" cleanly, so the app keeps the host upload.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "render/cuda_interop.hpp"
#include "throng/backend.hpp"
#include "throng/crowd.hpp"

using namespace throng;

TEST_CASE("interop: without a device attach, fill and the plain pack report unavailable") {
  if (cudaAvailable()) {
    MESSAGE("a CUDA device is present: the no-device path is not what runs here");
    return;
  }
  render::CudaInterop interop;
  std::string why;
  CHECK_FALSE(interop.attach(1u, 100, &why));
  CHECK_FALSE(why.empty());
  CHECK_FALSE(interop.attached());
  DeviceFrame f{};
  why.clear();
  const std::vector<std::size_t> nb = {0};
  CHECK_FALSE(interop.fill(f, 0, nb, &why));
  CHECK_FALSE(why.empty());
  why.clear();
  CHECK_FALSE(render::packInstancesDevice(f, nullptr, -1, {}, &why));
  CHECK_FALSE(why.empty());
  interop.detach();  // harmless when never attached
}

TEST_CASE("interop: the CPU backend gives no device frame") {
  Crowd c;
  c.add({10, 10});
  DeviceFrame f{};
  CHECK_FALSE(c.deviceFrame(f));
}

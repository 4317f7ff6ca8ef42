// gpu_bench: ms per ORCA step on the CUDA backend, at 100k, 1M and 10M
// walkers, on RVO2's Circle (the ring) and on a random crowd at pedestrian
// density (1 per square metre). A plain main: it builds on a bare GPU
// machine (scripts/gpu_check.sh) with nothing but nvcc, cmake and ninja.
//
// Usage: gpu_bench [MAX_AGENTS] [STEPS]   (defaults 10000000 and 20)
// Each case: build on the CPU, switch to CUDA, one step (the upload), three
// warm-up steps, then STEPS timed steps; the stream is drained with
// cudaDeviceSynchronize before and after the timed block, so the figure is
// device time per step plus launch overhead, with no host copies in it.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "../gpu/gpu_scenes.hpp"
#include "throng/backend.hpp"
#include "throng/crowd.hpp"

using namespace throng;
using Clock = std::chrono::steady_clock;

namespace {

double msSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

void runCase(const char* scenario, int n, int steps) {
  Crowd c;
  const auto t0 = Clock::now();
  if (std::string(scenario) == "ring") gpuscenes::rvoCircle(c, n);
  else gpuscenes::randomCrowd(c, n);
  const double buildMs = msSince(t0);
  std::string msg;
  if (!c.setBackend(BackendKind::Cuda, &msg)) {
    std::printf("%-7s %9d  setBackend failed: %s\n", scenario, n, msg.c_str());
    return;
  }
  const double dt = c.settings.maxStep;  // one step per advance
  const auto t1 = Clock::now();
  c.advance(dt);
  cudaDeviceSynchronize();
  const double firstMs = msSince(t1);
  for (int k = 0; k < 3; ++k) c.advance(dt);
  cudaDeviceSynchronize();
  const auto t2 = Clock::now();
  for (int k = 0; k < steps; ++k) c.advance(dt);
  const cudaError_t err = cudaDeviceSynchronize();
  const double ms = msSince(t2) / steps;
  const StepStats st = c.lastStats();
  std::printf("%-7s %9d  %9.3f ms/step  %8.1f M agent-steps/s  (first step with upload %.1f ms; build %.0f ms; "
              "jammed %zu)%s%s\n",
              scenario, n, ms, n / ms / 1e3, firstMs, buildMs, st.jammed, err == cudaSuccess ? "" : "  CUDA error: ",
              err == cudaSuccess ? "" : cudaGetErrorString(err));
}

}  // namespace

int main(int argc, char** argv) {
  const long maxAgents = argc > 1 ? std::atol(argv[1]) : 10000000;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 20;
  std::string why;
  if (!cudaAvailable(&why)) {
    std::printf("SKIP: gpu_bench needs a CUDA device: %s\n", why.c_str());
    return 0;
  }
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  std::printf("gpu_bench on %s (sm_%d%d, %d SMs), %d timed steps per case\n", prop.name, prop.major, prop.minor,
              prop.multiProcessorCount, steps);
  std::printf("ring = RVO2 Circle scaled (r 1.5, v 2, neighborDist 15, k 10, tau 10, dt 0.25); random = 1 walker/m^2 "
              "(r 0.25, v 1.4, perception 3, k 10, tau 2, dt 1/60)\n");
  for (const char* scenario : {"ring", "random"})
    for (const long n : {100000L, 1000000L, 10000000L})
      if (n <= maxAgents) runCase(scenario, static_cast<int>(n), steps);
  // The slow path, for scale: a preferredVelocity closure at 100k.
  {
    Crowd c;
    gpuscenes::randomCrowd(c, 100000);
    c.preferredVelocity = [](const Agent& a) { return a.goal ? (*a.goal - a.position).normalized() : Vec2{}; };
    if (c.setBackend(BackendKind::Cuda)) {
      c.advance();
      cudaDeviceSynchronize();
      const auto t = Clock::now();
      for (int k = 0; k < 5; ++k) c.advance();
      cudaDeviceSynchronize();
      std::printf("closure 100000  %9.3f ms/step  (the slow path: state down, wishes up, every step)\n",
                  msSince(t) / 5);
    }
  }
  std::printf("interop: not measured (the CUDA-GL interop file is not part of this build)\n");
  return 0;
}

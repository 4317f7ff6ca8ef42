// gpu_bench: ms per ORCA step on the CUDA backend, at 100k, 1M and 10M
// walkers, on RVO2's Circle (the ring) and on random crowds at pedestrian
// density (1 per square metre), placed at random (overlapping) or spread. A plain main: it builds on a bare GPU
// machine (scripts/gpu_check.sh) with nothing but nvcc, cmake and ninja.
//
// Usage: gpu_bench [MAX_AGENTS] [STEPS] [ring|random|spread|all] [ONLY_N]
//   (defaults 10000000, 20, all; ONLY_N runs that one count, for a profiler)
// Each case: build on the CPU, switch to CUDA, one step (the upload), three
// warm-up steps, then STEPS steps each timed alone (the stream drained
// before and after it, so a step is device time plus launch overhead, with
// no host copies in it): the figure is their median, with the fastest and
// slowest beside it. Then the same STEPS back to back, one drain at the
// end, as a loop that never reads back would run them (the mean).
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

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
  else if (std::string(scenario) == "spread") gpuscenes::spreadCrowd(c, n);
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
  std::vector<double> each;
  for (int k = 0; k < steps; ++k) {
    const auto t = Clock::now();
    c.advance(dt);
    cudaDeviceSynchronize();
    each.push_back(msSince(t));
  }
  const auto t2 = Clock::now();
  for (int k = 0; k < steps; ++k) c.advance(dt);
  const cudaError_t err = cudaDeviceSynchronize();
  const double meanMs = msSince(t2) / steps;
  std::sort(each.begin(), each.end());
  const double med = each[each.size() / 2];
  const StepStats st = c.lastStats();
  std::printf("%-7s %9d  %9.3f ms/step median (%.3f-%.3f)  %8.1f M agent-steps/s  back to back %.3f ms/step  "
              "(first step with upload %.1f ms; build %.0f ms; jammed %zu)%s%s\n",
              scenario, n, med, each.front(), each.back(), n / med / 1e3, meanMs, firstMs, buildMs, st.jammed,
              err == cudaSuccess ? "" : "  CUDA error: ", err == cudaSuccess ? "" : cudaGetErrorString(err));
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const long maxAgents = argc > 1 ? std::atol(argv[1]) : 10000000;
  const int steps = std::max(1, argc > 2 ? std::atoi(argv[2]) : 20);
  const std::string which = argc > 3 ? argv[3] : "all";
  const long onlyN = argc > 4 ? std::atol(argv[4]) : 0;
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
              "(r 0.25, v 1.4, perception 3, k 10, tau 2, dt 1/60), overlapping at the start; spread = the same without "
              "overlaps\n");
  for (const char* scenario : {"ring", "random", "spread"}) {
    if (which != "all" && which != scenario) continue;
    for (const long n : {100000L, 1000000L, 10000000L})
      if (n <= maxAgents && (onlyN == 0 || n == onlyN)) runCase(scenario, static_cast<int>(n), steps);
  }
  if (which != "all") return 0;
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
  return 0;
}

// gpu_bench: ms per ORCA step on the CUDA backend, at 100k, 1M and 10M
// walkers, on RVO2's Circle (the ring) and on random crowds at pedestrian
// density (1 per square metre), placed at random (overlapping) or spread;
// and ms per BioCrowds step at 1M and 10M on the make-bench field
// (bench::bioField: 1 per square metre, the default 16 markers per square
// metre, so 10M walkers hold about 160M markers: 2 GB of markers on the
// host and on the device, twice that on the host while they are laid);
// Continuum Crowds at 1M on a 1024² field grid (bench::continuumField: two
// groups crossing a 1 km square to strips beyond its edges, two
// potentials), ORCA at 1M routed by the same fields (`field`), and the
// 1024² potential alone (`potential`: the device's tiled solve, timed by
// events, against solvePotential on the host's threads, bit for bit). A
// plain main: it builds on a bare GPU machine (scripts/gpu_check.sh) with
// nothing but nvcc, cmake and ninja.
//
// Usage: gpu_bench [MAX_AGENTS] [STEPS] [ring|random|spread|bio|continuum|field|potential|all] [ONLY_N]
//   (defaults 10000000, 20, all; ONLY_N runs that one count alone, listed
//   or not, for a profiler or the sanitizer)
// Each case: build on the CPU, switch to CUDA, one step (the upload), three
// warm-up steps, then STEPS steps each timed alone (the stream drained
// before and after it, so a step is device time plus launch overhead, with
// no host copies in it): the figure is their median, with the fastest and
// slowest beside it. Then the same STEPS back to back, one drain at the
// end, as a loop that never reads back would run them (the mean). Where
// the fields are built (continuum, field), every fieldInterval-th step
// refreshes them: the medians of the refresh steps and of the others are
// given apart, STEPS is rounded up to whole intervals, and the mean holds
// the refreshes' share.
#include <cuda_runtime.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "../gpu/gpu_scenes.hpp"
#include "base/thread_pool.hpp"
#include "device_potential.hpp"
#include "fields/fields.hpp"
#include "pipeline/registry.hpp"
#include "scenarios.hpp"
#include "throng/backend.hpp"
#include "throng/crowd.hpp"

using namespace throng;
using Clock = std::chrono::steady_clock;

namespace {

double msSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

/// Host memory available now, bytes (MemAvailable; the physical memory
/// where /proc/meminfo says nothing).
double hostAvailable() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  double kb = 0;
  while (in >> key >> kb) {
    if (key == "MemAvailable:") return kb * 1024;
    in.ignore(256, '\n');
  }
  return static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGESIZE));
}

/// Whether a BioCrowds case of n walkers fits here, else why not. Its
/// field holds about 16 n markers (12 bytes each, laid through per-row
/// lists that double that for a moment, owners 4 more on the device), the
/// crowd about 100 bytes a walker on each side, and a device array is
/// given half again its size: 600 bytes a walker on the host and 500 on
/// the device, with room to spare.
bool bioFits(long n, std::string& why) {
  const double host = hostAvailable(), needHost = 600.0 * static_cast<double>(n);
  std::size_t freeBytes = 0, total = 0;
  cudaMemGetInfo(&freeBytes, &total);
  const double needDevice = 500.0 * static_cast<double>(n);
  if (host < needHost || static_cast<double>(freeBytes) < needDevice) {
    char buf[200];
    std::snprintf(buf, sizeof buf, "needs about %.1f GB of host memory (%.1f available) and %.1f GB on the device (%.1f free)",
                  needHost / 1e9, host / 1e9, needDevice / 1e9, static_cast<double>(freeBytes) / 1e9);
    why = buf;
    return false;
  }
  return true;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// The field grid of the continuum and field cases, cells across.
constexpr int kFieldCells = 1024;

void runCase(const char* scenario, int n, int steps) {
  Crowd c;
  std::string why;
  if (std::string(scenario) == "bio" && !bioFits(n, why)) {
    std::printf("%-7s %9d  skipped: %s\n", scenario, n, why.c_str());
    return;
  }
  const auto t0 = Clock::now();
  if (std::string(scenario) == "ring") gpuscenes::rvoCircle(c, n);
  else if (std::string(scenario) == "spread") gpuscenes::spreadCrowd(c, n);
  else if (std::string(scenario) == "bio") c = bench::bioField(n, 0);
  else if (std::string(scenario) == "continuum") c = bench::continuumField(n, 0, kFieldCells);
  else if (std::string(scenario) == "field") {
    // ORCA at pedestrian scale, its wishes down the continuum case's potentials.
    c = bench::continuumField(n, 0, kFieldCells);
    c.settings.model = "orca";
    c.settings.routing = "field";
    c.settings.perceptionRadius = 3;
    c.settings.maxNeighbors = 10;
    c.settings.timeHorizon = 2;
    c.settings.obstacleTimeHorizon = 1;
  } else gpuscenes::randomCrowd(c, n);
  const Settings settings = sanitized(c.settings);
  const int interval = fieldsTaken(settings) ? std::max(1, settings.fieldInterval) : 0;
  if (interval > 0) steps = (steps + interval - 1) / interval * interval;
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
  std::vector<double> each, refreshing, between;
  for (int k = 0; k < steps; ++k) {
    const bool refresh = interval > 0 && c.stepCount() % static_cast<std::uint64_t>(interval) == 0;
    const auto t = Clock::now();
    c.advance(dt);
    cudaDeviceSynchronize();
    each.push_back(msSince(t));
    (refresh ? refreshing : between).push_back(each.back());
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
  if (interval > 0) {
    const FieldView f = c.fields(0);
    std::printf("%-7s %9d  fields %dx%d cells, %d potentials, refreshed every %d steps: refresh steps %.3f ms median, "
                "the others %.3f ms median; mean %.3f ms/step back to back\n",
                scenario, n, f.cols, f.rows, f.potentials, interval, median(refreshing), median(between), meanMs);
  }
  std::fflush(stdout);
}

/// The potential alone on a side x side grid of 1 m cells: a room with a
/// wall across most of it and a door, a block, the cost of a crowd here
/// and there (a unit cost between 1 and 3), the target along the east
/// edge; the device's solve (median of `runs`, its kernels alone) against
/// solvePotential on this machine's threads.
void runPotential(int side, int runs) {
  FieldGridView g;
  g.cols = g.rows = side;
  g.cell = 1.0f;
  g.invCell = 1.0f;
  const std::size_t cells = static_cast<std::size_t>(side) * static_cast<std::size_t>(side);
  std::vector<float> cost(4 * cells);
  std::vector<std::uint8_t> blocked(cells, 0);
  gpuscenes::Lcg r(11);
  for (std::size_t c = 0; c < cells; ++c) {
    const float crowd = r.next() < 0.1f ? 2.0f * r.next() : 0.0f;
    for (int d = 0; d < 4; ++d) cost[4 * c + d] = 1.0f + crowd;
    const int x = static_cast<int>(c % static_cast<std::size_t>(side)), y = static_cast<int>(c / static_cast<std::size_t>(side));
    if (x == side / 2 && y < side * 8 / 10) blocked[c] = 1;
    if (x >= side / 5 && x < side * 3 / 10 && y >= side / 5 && y < side * 4 / 10) blocked[c] = 1;
  }
  std::vector<std::int32_t> goals;
  for (int y = 0; y < side; ++y) goals.push_back(y * side + side - 1);
  std::vector<float> phi(cells), want(cells);
  std::vector<double> ms;
  int rounds = 0;
  for (int k = 0; k < runs; ++k) {
    double t = 0;
    if (!devicePotential(g, cost.data(), blocked.data(), goals.data(), goals.size(), phi.data(), &rounds, &t)) {
      std::printf("potential %dx%d: the device solve failed (CUDA errors above)\n", side, side);
      return;
    }
    ms.push_back(t);
  }
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  ThreadPool pool(static_cast<int>(threads));
  const auto t0 = Clock::now();
  const int cpuRounds = solvePotential(g, cost.data(), blocked.data(), goals.data(), goals.size(), want.data(), &pool);
  const double cpuMs = msSince(t0);
  const bool same = std::memcmp(phi.data(), want.data(), cells * sizeof(float)) == 0 && rounds == cpuRounds;
  std::printf("potential %dx%d  %9.3f ms median of %d on the device (%d rounds; kernels alone), %.1f ms on %u host "
              "threads (%d rounds): %s\n",
              side, side, median(ms), runs, rounds, cpuMs, threads, cpuRounds, same ? "bit for bit" : "THE BITS DIFFER");
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
              "overlaps; bio = BioCrowds, 1 walker/m^2 on a jittered grid crossing east and west (r 0.25, v 1.3, "
              "R 1, 16 markers/m^2, dt 0.05); continuum = Continuum Crowds, the bio crowd in two groups crossing to strips "
              "beyond the square's edges, a %dx%d field grid, fieldInterval 4; field = ORCA on the same crowd and "
              "fields (routing = field, perception 3, k 10, tau 2)\n", kFieldCells, kFieldCells);
  for (const char* scenario : {"ring", "random", "spread", "bio", "continuum", "field"}) {
    if (which != "all" && which != scenario) continue;
    const std::string sc = scenario;
    const bool bio = sc == "bio", fields = sc == "continuum" || sc == "field";
    std::vector<long> counts = bio ? std::vector<long>{1000000L, 10000000L}
                               : fields ? std::vector<long>{1000000L}
                                        : std::vector<long>{100000L, 1000000L, 10000000L};
    if (onlyN != 0) counts = {onlyN};
    for (const long n : counts)
      if (n <= maxAgents) runCase(scenario, static_cast<int>(n), steps);
  }
  if (which == "all" || which == "potential") runPotential(kFieldCells, 5);
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

// CPU vs CUDA on a device: the same crowd stepped by both backends must have
// equal state hashes after every checked step. Without a device it prints
// SKIP with the reason and exits 77, which ctest reports as skipped.
//
// A plain main (no doctest) so the GPU machine can build it with nothing
// but nvcc, cmake and ninja (scripts/gpu_check.sh).
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "gpu_scenes.hpp"
#include "throng/backend.hpp"
#include "throng/crowd.hpp"

using namespace throng;

namespace {

constexpr int kSkip = 77;
int failures = 0;

/// Runs `steps` steps on both backends, comparing every `every` steps (and
/// the last); `edit` (if any) is applied to both at step `editAt`.
void compare(const char* name, const std::function<void(Crowd&)>& build, int steps, int every = 1,
             const std::function<void(Crowd&)>& edit = {}, int editAt = -1) {
  Crowd cpu, gpu;
  build(cpu);
  build(gpu);
  std::string msg;
  if (!gpu.setBackend(BackendKind::Cuda, &msg)) {
    std::printf("FAIL %s: setBackend(Cuda): %s\n", name, msg.c_str());
    ++failures;
    return;
  }
  for (int k = 0; k < steps; ++k) {
    if (k == editAt && edit) {
      edit(cpu);
      edit(gpu);
    }
    cpu.advance();
    gpu.advance();
    if ((k + 1) % every != 0 && k + 1 != steps) continue;
    const std::uint64_t a = cpu.stateHash(), b = gpu.stateHash();
    const StepStats sa = cpu.lastStats(), sb = gpu.lastStats();
    if (a != b || sa.jammed != sb.jammed || sa.arrived != sb.arrived) {
      std::printf("FAIL %s: step %d: hash cpu %016llx cuda %016llx, jammed %zu/%zu, arrived %zu/%zu\n", name,
                  k + 1, static_cast<unsigned long long>(a), static_cast<unsigned long long>(b), sa.jammed,
                  sb.jammed, sa.arrived, sb.arrived);
      for (std::size_t i = 0; i < cpu.count(); ++i) {
        const Agent p = cpu.agent(i), q = gpu.agent(i);
        if (!(p.position == q.position) || !(p.velocity == q.velocity) || p.isJammed != q.isJammed) {
          std::printf("  first differing walker %zu: cpu (%.9g, %.9g) v (%.9g, %.9g) j%d, cuda (%.9g, %.9g) v "
                      "(%.9g, %.9g) j%d\n",
                      i, p.position.x, p.position.y, p.velocity.x, p.velocity.y, p.isJammed, q.position.x,
                      q.position.y, q.velocity.x, q.velocity.y, q.isJammed);
          break;
        }
      }
      ++failures;
      return;
    }
  }
  std::printf("ok   %s: %d steps, %zu walkers, hash %016llx, jammed %zu, arrived %zu\n", name, steps, cpu.count(),
              static_cast<unsigned long long>(cpu.stateHash()), cpu.lastStats().jammed, cpu.lastStats().arrived);
}

}  // namespace

int main() {
  std::string why;
  if (!cudaAvailable(&why)) {
    std::printf("SKIP: the CPU-vs-CUDA comparisons need a CUDA device: %s\n", why.c_str());
    return kSkip;
  }
  using namespace gpuscenes;
  compare("ring 60 (seed)", [](Crowd& c) { ring(c, 60); }, 600);
  compare("ring 60, jitter 0", [](Crowd& c) { c.settings.jitter = 0; ring(c, 60); }, 300);
  compare("ring 1000", [](Crowd& c) { ring(c, 1000, 4000, {5000, 5000}); }, 400, 10);
  compare("door", [](Crowd& c) { door(c); }, 600, 5);
  compare("crossing (goals, streams, routes)", [](Crowd& c) { crossing(c); }, 600, 5);
  compare("RVO2 circle 2000", [](Crowd& c) { rvoCircle(c, 2000); }, 200, 10);
  compare("random 100k", [](Crowd& c) { randomCrowd(c, 100000); }, 30, 10);
  compare("spread 100k", [](Crowd& c) { spreadCrowd(c, 100000); }, 30, 10);
  compare("closure (slow path)",
          [](Crowd& c) {
            ring(c, 60);
            c.preferredVelocity = [](const Agent& a) {
              return a.goal ? (*a.goal - a.position).normalized() * (0.5f * a.maxSpeed) : Vec2{};
            };
          },
          200, 10);
  compare("edits mid-run (shove, add, remove, obstacle, settings, preferred speed)",
          [](Crowd& c) { ring(c, 80); }, 300, 5,
          [](Crowd& c) {
            Agent a = c.agent(3);
            a.position = a.position + Vec2{15, -5};
            c.setAgent(3, a);
            c.add(Vec2{500, 500}, Vec2{100, 100});
            c.addObstacle(Rect{480, 300, 30, 30});
            c.removeAgents([](const Agent& x) { return x.position.x < 120; });
            c.setPreferredSpeed(5, 50);
            c.settings.perceptionRadius = 60;
            c.settings.jitter = 0.1f;
          },
          100);
  compare("advance(1/30) splits into two steps", [](Crowd& c) { ring(c, 60); }, 1, 1,
          [](Crowd& c) { c.advance(1.0 / 30); }, 0);

  // Switching backends mid-run keeps the trajectory.
  {
    Crowd a, b;
    ring(a, 60);
    ring(b, 60);
    for (int k = 0; k < 200; ++k) {
      if (k == 50) b.setBackend(BackendKind::Cuda);
      if (k == 120) b.setBackend(BackendKind::Cpu);
      if (k == 160) b.setBackend(BackendKind::Auto);
      a.advance();
      b.advance();
    }
    const bool same = a.stateHash() == b.stateHash();
    std::printf("%s switching cpu -> cuda -> cpu -> auto (%s) mid-run\n", same ? "ok  " : "FAIL", b.backendName());
    failures += same ? 0 : 1;
  }
  std::printf("%s\n", failures ? "FAILED" : "all CPU-vs-CUDA comparisons equal");
  return failures ? 1 : 0;
}

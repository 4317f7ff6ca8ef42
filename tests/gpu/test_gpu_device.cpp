// CPU vs CUDA on a device: the same crowd stepped by both backends must have
// equal state hashes after every checked step. Without a device it prints
// SKIP with the reason and exits 77, which ctest reports as skipped.
//
// A plain main (no doctest) so the GPU machine can build it with nothing
// but nvcc, cmake and ninja (scripts/gpu_check.sh). The shipped scenes are
// read from THRONG_SCENES_DIR when it is set (a bundle built elsewhere),
// else from this source tree's assets/scenes.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include "../bench/scenarios.hpp"
#include "base/thread_pool.hpp"
#include "device_potential.hpp"
#include "fields/fields.hpp"
#include "gpu_scenes.hpp"
#include "throng/backend.hpp"
#include "throng/crowd.hpp"
#include "throng/scene.hpp"

using namespace throng;

namespace {

constexpr int kSkip = 77;
int failures = 0;

/// Prints the first walker whose state differs.
void firstDiffering(const Crowd& cpu, const Crowd& gpu) {
  for (std::size_t i = 0; i < cpu.count() && i < gpu.count(); ++i) {
    const Agent p = cpu.agent(i), q = gpu.agent(i);
    if (!(p.position == q.position) || !(p.velocity == q.velocity) || p.isJammed != q.isJammed) {
      std::printf("  first differing walker %zu: cpu (%.9g, %.9g) v (%.9g, %.9g) j%d, cuda (%.9g, %.9g) v "
                  "(%.9g, %.9g) j%d\n",
                  i, p.position.x, p.position.y, p.velocity.x, p.velocity.y, p.isJammed, q.position.x, q.position.y,
                  q.velocity.x, q.velocity.y, q.isJammed);
      return;
    }
  }
}

/// Runs `steps` steps of dt seconds on both backends, comparing every
/// `every` steps (and the last); `edit` (if any) is applied to both at step
/// `editAt`.
void compare(const char* name, const std::function<void(Crowd&)>& build, int steps, int every = 1,
             const std::function<void(Crowd&)>& edit = {}, int editAt = -1, double dt = 1.0 / 60) {
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
    cpu.advance(dt);
    gpu.advance(dt);
    if ((k + 1) % every != 0 && k + 1 != steps) continue;
    const std::uint64_t a = cpu.stateHash(), b = gpu.stateHash();
    const StepStats sa = cpu.lastStats(), sb = gpu.lastStats();
    if (a != b || sa.jammed != sb.jammed || sa.arrived != sb.arrived) {
      std::printf("FAIL %s: step %d: hash cpu %016llx cuda %016llx, jammed %zu/%zu, arrived %zu/%zu\n", name,
                  k + 1, static_cast<unsigned long long>(a), static_cast<unsigned long long>(b), sa.jammed,
                  sb.jammed, sa.arrived, sb.arrived);
      firstDiffering(cpu, gpu);
      ++failures;
      return;
    }
  }
  std::printf("ok   %s: %d steps, %zu walkers, hash %016llx, jammed %zu, arrived %zu\n", name, steps, cpu.count(),
              static_cast<unsigned long long>(cpu.stateHash()), cpu.lastStats().jammed, cpu.lastStats().arrived);
}

/// A shipped scene run by SceneRun (sources, sinks) on both backends.
void compareScene(const char* name, const char* scene, const std::vector<std::string>& sets, int steps,
                  int every = 1) {
  const char* env = std::getenv("THRONG_SCENES_DIR");
  const std::string path = std::string(env && *env ? env : THRONG_TEST_SCENES_DIR) + "/" + scene + ".json";
  std::string err;
  auto sc = Scene::load(path, &err);
  for (const std::string& a : sets)
    if (sc && !sc->assign(a, &err)) sc.reset();
  if (!sc) {
    std::printf("FAIL %s: %s (set THRONG_SCENES_DIR to the repository's assets/scenes)\n", name, err.c_str());
    ++failures;
    return;
  }
  SceneRun cpu(*sc), gpu(*sc);
  std::string msg;
  if (!gpu.crowd().setBackend(BackendKind::Cuda, &msg)) {
    std::printf("FAIL %s: setBackend(Cuda): %s\n", name, msg.c_str());
    ++failures;
    return;
  }
  for (int k = 0; k < steps; ++k) {
    cpu.step();
    gpu.step();
    if ((k + 1) % every != 0 && k + 1 != steps) continue;
    const std::uint64_t a = cpu.crowd().stateHash(), b = gpu.crowd().stateHash();
    if (a != b || cpu.arrived() != gpu.arrived() || cpu.removed() != gpu.removed()) {
      std::printf("FAIL %s: step %d: hash cpu %016llx cuda %016llx, arrived %zu/%zu, removed %zu/%zu\n", name, k + 1,
                  static_cast<unsigned long long>(a), static_cast<unsigned long long>(b), cpu.arrived(),
                  gpu.arrived(), cpu.removed(), gpu.removed());
      firstDiffering(cpu.crowd(), gpu.crowd());
      ++failures;
      return;
    }
  }
  std::printf("ok   %s: %d steps, %zu walkers in all, %zu removed, hash %016llx, jammed agent-steps %llu\n", name,
              steps, cpu.agentsEver(), cpu.removed(), static_cast<unsigned long long>(cpu.crowd().stateHash()),
              static_cast<unsigned long long>(cpu.jammedAgentSteps()));
}

/// Whether two views of the fields hold the same bits (grid, density,
/// velocity, speed, cost, the potential); `what` names the first difference.
bool sameFieldView(const FieldView& a, const FieldView& b, std::string& what) {
  const auto same = [](auto x, auto y) {
    return x.size() == y.size() && (x.empty() || std::memcmp(x.data(), y.data(), x.size_bytes()) == 0);
  };
  if (a.cols != b.cols || a.rows != b.rows || !(a.cell == b.cell) || !(a.origin == b.origin)) what = "the grid";
  else if (a.refreshStep != b.refreshStep || a.potentials != b.potentials) what = "the refresh step or the potentials' count";
  else if (!same(a.blocked, b.blocked) || !same(a.height, b.height) || !same(a.discomfort, b.discomfort)) what = "the fixed parts";
  else if (!same(a.density, b.density)) what = "density";
  else if (!same(a.velocityX, b.velocityX) || !same(a.velocityY, b.velocityY)) what = "velocity";
  else if (!same(a.speed, b.speed)) what = "speed";
  else if (!same(a.cost, b.cost)) what = "cost";
  else if (!same(a.potential, b.potential)) what = "the potential";
  else return true;
  return false;
}

/// The device's tiled solve against solvePotential on random costs, bit
/// for bit and round for round.
void comparePotential(const char* name, std::int32_t cols, std::int32_t rows, int goals, float blockedShare,
                      float closedShare, std::uint64_t seed) {
  gpuscenes::Lcg g(seed);
  FieldGridView grid;
  grid.cols = cols;
  grid.rows = rows;
  grid.cell = 0.5f + g.next();
  grid.invCell = 1.0f / grid.cell;
  const std::size_t cells = static_cast<std::size_t>(cols) * static_cast<std::size_t>(rows);
  std::vector<float> cost(4 * cells);
  std::vector<std::uint8_t> blocked(cells);
  for (std::size_t c = 0; c < cells; ++c) {
    blocked[c] = g.next() < blockedShare;
    for (int d = 0; d < 4; ++d) cost[4 * c + d] = g.next() < closedShare ? fieldInfinity() : 0.5f + 4.0f * g.next() * g.next();
  }
  std::vector<std::int32_t> goal;
  for (int k = 0; k < goals; ++k) {
    const auto c = static_cast<std::int32_t>(static_cast<double>(g.next()) * static_cast<double>(cells)) %
                   static_cast<std::int32_t>(cells);
    blocked[static_cast<std::size_t>(c)] = 0;
    if (std::find(goal.begin(), goal.end(), c) == goal.end()) goal.push_back(c);
  }
  std::sort(goal.begin(), goal.end());
  std::vector<float> want(cells), got(cells);
  ThreadPool pool(4);
  const int rounds = solvePotential(grid, cost.data(), blocked.data(), goal.data(), goal.size(), want.data(), &pool);
  int deviceRounds = -1;
  double ms = 0;
  if (!devicePotential(grid, cost.data(), blocked.data(), goal.data(), goal.size(), got.data(), &deviceRounds, &ms)) {
    std::printf("FAIL %s: the device solve failed (CUDA errors above)\n", name);
    ++failures;
    return;
  }
  std::size_t differ = 0;
  for (std::size_t c = 0; c < cells; ++c) differ += std::memcmp(&want[c], &got[c], 4) != 0;
  if (differ != 0 || deviceRounds != rounds) {
    std::printf("FAIL %s: %zu of %zu cells differ, rounds cpu %d cuda %d\n", name, differ, cells, rounds, deviceRounds);
    ++failures;
    return;
  }
  std::printf("ok   %s: %dx%d, %zu goal cells, %d rounds, bit for bit (device %.3f ms)\n", name, cols, rows, goal.size(),
              rounds, ms);
}

/// The markers some walker owns, as (x bits, y bits, owner), sorted: the
/// same for the CPU's field and the device's, whatever each one's extent.
std::vector<std::tuple<std::uint32_t, std::uint32_t, std::int32_t>> ownedMarkers(const Crowd& c) {
  const MarkerView v = c.markers();
  std::vector<std::tuple<std::uint32_t, std::uint32_t, std::int32_t>> out;
  if (v.owner.size() != v.x.size()) return out;
  for (std::size_t k = 0; k < v.owner.size(); ++k) {
    if (v.owner[k] < 0) continue;
    std::uint32_t x, y;
    std::memcpy(&x, &v.x[k], 4);
    std::memcpy(&y, &v.y[k], 4);
    out.emplace_back(x, y, v.owner[k]);
  }
  std::sort(out.begin(), out.end());
  return out;
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

  // BioCrowds (models/biocrowds.cu): the marker field fitted on the host
  // from the last step's bounds, owners per marker cell, velocities per slot.
  compareScene("biocrowds: door scene", "door", {"model=biocrowds"}, 900, 5);
  compareScene("biocrowds: corridor scene (sources, sinks)", "corridor", {"model=biocrowds"}, 900, 5);
  compare("biocrowds: crossing (goals, streams, routes, a wall; pixels)",
          [](Crowd& c) {
            c.settings.model = "biocrowds";
            c.settings.personalSpace = 30;
            c.settings.markerDensity = 0.02f;
            crossing(c);
          },
          600, 5);
  compare("biocrowds: open ground with walls, 2000", [](Crowd& c) {
    c.settings = bioSettings();
    bioGround(c, 2000, true);
  }, 300, 10, {}, -1, 0.05);
  compare("biocrowds: bench field 100k", [](Crowd& c) { c = bench::bioField(100000, 0); }, 30, 10, {}, -1,
          bench::kBioStep);
  compare("biocrowds: edits mid-run (shove far, add, remove, obstacle, personalSpace, markerDensity)",
          [](Crowd& c) {
            c.settings = bioSettings();
            bioGround(c, 500, true, 13);
          },
          200, 5,
          [](Crowd& c) {
            Agent a = c.agent(3);
            a.position = a.position + Vec2{60, 40};
            c.setAgent(3, a);
            c.add(Vec2{-20, 3}, Vec2{5, 5}, 0.3f, 1.6f);
            c.removeAgents([](const Agent& x) { return x.position.y < 2; });
            c.addObstacle(Rect{6, 6, 1, 1});
            c.settings.personalSpace = 1.5f;
            c.settings.markerDensity = 20;
          },
          80, 0.05);
  // orca -> biocrowds -> orca mid-run, and the owners copied back equal the CPU's.
  {
    Crowd cpu, gpu;
    for (Crowd* c : {&cpu, &gpu}) {
      c->settings = bioSettings();
      c->settings.model = "orca";
      c->settings.perceptionRadius = 3;
      c->settings.timeHorizon = 2;
      c->settings.obstacleTimeHorizon = 1;
      bioGround(*c, 1000, true, 21);
    }
    std::string msg;
    bool ok = gpu.setBackend(BackendKind::Cuda, &msg);
    if (!ok) std::printf("FAIL biocrowds: model switches: setBackend(Cuda): %s\n", msg.c_str());
    bool owners = true;
    for (int k = 0; k < 350 && ok; ++k) {
      if (k == 100 || k == 250)
        for (Crowd* c : {&cpu, &gpu}) c->setModel(k == 100 ? "biocrowds" : "orca");
      cpu.advance(0.05);
      gpu.advance(0.05);
      ok = cpu.stateHash() == gpu.stateHash() && cpu.lastStats().jammed == gpu.lastStats().jammed;
      if (!ok) {
        std::printf("FAIL biocrowds: model switches: step %d differs\n", k + 1);
        firstDiffering(cpu, gpu);
      }
      if (ok && (k == 100 || k == 249)) {
        const auto a = ownedMarkers(cpu), b = ownedMarkers(gpu);
        owners = owners && a == b && a.size() > 5000;
        if (!owners) std::printf("FAIL biocrowds: markers(): %zu owned on the CPU, %zu on CUDA\n", a.size(), b.size());
      }
    }
    if (ok && owners) {
      std::printf("ok   biocrowds: orca -> biocrowds -> orca mid-run, 350 steps, hash %016llx; markers() owners equal\n",
                  static_cast<unsigned long long>(cpu.stateHash()));
    } else {
      ++failures;
    }
  }


  // Continuum Crowds and the fields (field_refresh.cu, models/continuum.cu):
  // the fields phase on the device, the wish down its potentials, every model.
  const auto fieldScene = [](const char* model, bool crossing, int interval = 4) {
    return [=](Crowd& c) {
      c.settings = fieldSettings(model);
      c.settings.fieldInterval = interval;
      if (crossing) fieldCrossing(c);
      else fieldRoom(c);
    };
  };
  compare("continuum: a room with a door (a target beyond it, discomfort)", fieldScene("continuum", false), 500, 1, {}, -1, 0.05);
  compare("continuum: two groups crossing, a block and a hill", fieldScene("continuum", true), 500, 1, {}, -1, 0.05);
  compare("continuum: the crossing refreshed every step", fieldScene("continuum", true, 1), 200, 1, {}, -1, 0.05);
  compare("orca, routing = field: the room", fieldScene("orca", false), 400, 1, {}, -1, 0.05);
  compare("orca, routing = field: the crossing", fieldScene("orca", true), 300, 1, {}, -1, 0.05);
  compare("biocrowds, routing = field: the room", fieldScene("biocrowds", false), 300, 1, {}, -1, 0.05);
  compare("continuum: edits mid-run (shove, add, remove, obstacle, terrain, costs)", fieldScene("continuum", false), 300, 1,
          [](Crowd& c) {
            Agent a = c.agent(3);
            a.position = a.position + Vec2{1.5f, 0.5f};
            c.setAgent(3, a);
            c.add(Vec2{12, 12}, Vec2{27, 8}, 0.3f, 1.6f, 0);
            c.removeAgents([](const Agent& x) { return x.position.x < 3; });
            c.addObstacle(Rect{10, 4, 1, 1});
            Terrain t = c.terrain();
            t.targets.push_back({"back", {Rect{1, 1, 2, 2}}, {1}, -1});
            t.hills.push_back({Vec2{8, 8}, 3, 1});
            c.setTerrain(t);
            c.settings.costDiscomfort = 4;
          },
          37, 0.05);
  compareScene("continuum: door scene (sources, sinks)", "door", {"model=continuum"}, 900, 5);
  compareScene("continuum: evacuation scene", "evacuation", {"model=continuum"}, 600, 5);
  compareScene("orca, routing = field: door scene", "door", {"routing=field"}, 600, 5);
  compare("continuum: bench field 100k (256^2 cells)", [](Crowd& c) { c = bench::continuumField(100000, 0, 256); }, 24, 4,
          {}, -1, bench::kBioStep);
  // Models and routing switched mid-run, and the fields() copy back.
  {
    Crowd cpu, gpu;
    fieldScene("continuum", true)(cpu);
    fieldScene("continuum", true)(gpu);
    std::string msg;
    bool ok = gpu.setBackend(BackendKind::Cuda, &msg);
    if (!ok) std::printf("FAIL continuum: switches: setBackend(Cuda): %s\n", msg.c_str());
    std::string what;
    for (int k = 0; k < 400 && ok; ++k) {
      for (Crowd* c : {&cpu, &gpu}) {
        if (k == 90) c->setModel("orca");
        if (k == 150) c->settings.routing = "goals";
        if (k == 190) { c->setModel("biocrowds"); c->settings.routing = "field"; }
        if (k == 260) { c->setModel("continuum"); c->settings.fieldInterval = 3; }
      }
      cpu.advance(0.05);
      gpu.advance(0.05);
      ok = cpu.stateHash() == gpu.stateHash() && cpu.lastStats().jammed == gpu.lastStats().jammed;
      if (!ok) {
        std::printf("FAIL continuum: model and routing switches: step %d differs\n", k + 1);
        firstDiffering(cpu, gpu);
      }
      if (ok && (k == 89 || k == 301 || k == 399)) {
        for (int target = 0; target < 2 && ok; ++target) {
          ok = sameFieldView(cpu.fields(target), gpu.fields(target), what) && cpu.fields(target).potential.size() > 0;
          if (!ok) std::printf("FAIL continuum: fields(%d) after step %d: %s differs\n", target, k + 1, what.c_str());
        }
      }
    }
    if (ok) std::printf("ok   continuum: continuum -> orca -> goals -> biocrowds -> continuum mid-run, 400 steps, hash %016llx; fields() equal\n",
                        static_cast<unsigned long long>(cpu.stateHash()));
    else ++failures;
  }
  // Backend switches between refreshes: the device takes the host's
  // fields, and the CPU the device's.
  for (const char* model : {"continuum", "orca"}) {
    Crowd a, b;
    fieldScene(model, true)(a);
    fieldScene(model, true)(b);
    bool same = true;
    for (int k = 0; k < 300 && same; ++k) {
      if (k % 50 == 7) b.setBackend(k % 100 == 7 ? BackendKind::Cuda : BackendKind::Cpu);
      a.advance(0.05);
      b.advance(0.05);
      same = a.stateHash() == b.stateHash();
      if (!same) std::printf("FAIL %s, routing = field: backend switches: step %d differs (on %s)\n", model, k + 1, b.backendName());
    }
    if (same) std::printf("ok   %s, routing = field: cpu -> cuda -> cpu ... between refreshes, 300 steps\n", model);
    else ++failures;
  }
  // The tiled solve alone, against the CPU's.
  comparePotential("potential: 37x23, walls and closed faces", 37, 23, 2, 0.1f, 0.05f, 3);
  comparePotential("potential: 256x200, 5 goals", 256, 200, 5, 0.15f, 0.05f, 4);
  comparePotential("potential: 1024x1024, one goal, open", 1024, 1024, 1, 0.0f, 0.0f, 5);
  comparePotential("potential: 1024x1024, blocked 20%", 1024, 1024, 3, 0.2f, 0.02f, 6);

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

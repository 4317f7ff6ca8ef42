// The CUDA backend's host-side logic, tested without a GPU.
//
// The kernels in sim/cuda/cuda_backend.cu are thin wrappers over the
// THRONG_HD phases of sim/cuda/device_step.hpp. Here those phases run on
// the host, in the kernels' order and with the device's data layout (the
// atomic bounds on ordered keys, a stable sort of (cell, x) keys, cell
// starts written per slot, the solve in sorted-slot order, integrate with
// counts), and must give World::stepCpu's state bit for bit. What this
// cannot cover (device arithmetic and the flags behind it, the CUDA calls
// themselves) the device test in this folder covers on a GPU.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "device_step.hpp"
#if THRONG_TEST_CUDA_CHECK
#include <unistd.h>

#include <cstdio>

#include "cuda_check.cuh"
#endif
#include "gpu_scenes.hpp"
#include "pipeline/backend.hpp"
#include "throng/crowd.hpp"
#include "core/world.hpp"
#include "device_solve.hpp"
#include "models/orca_slot.hpp"
#include "models/orca/orca_model.hpp"
#include "../models/walk_straight.hpp"

using namespace throng;
using namespace throng::cudastep;

namespace {

std::uint32_t bitsOf(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float floatOf(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

/// The device grid, built on the host the device's way.
struct MirrorGrid {
  GridShape params;
  std::vector<std::int32_t> cellStart, sortedIndex;
  std::vector<float> sx, sy;
};

MirrorGrid mirrorGrid(const World& w, const Settings& s) {
  const auto n = static_cast<std::int32_t>(w.size());
  // 1. bounds, as the atomics see them
  std::uint32_t lo[2] = {0xFFFFFFFFu, 0xFFFFFFFFu}, hi[2] = {0, 0};
  for (std::int32_t i = 0; i < n; ++i) {
    const std::uint32_t kx = orderedKey(bitsOf(w.px[i])), ky = orderedKey(bitsOf(w.py[i]));
    lo[0] = std::min(lo[0], kx); hi[0] = std::max(hi[0], kx);
    lo[1] = std::min(lo[1], ky); hi[1] = std::max(hi[1], ky);
  }
  auto f = [](std::uint32_t k) { return floatOf(floatBitsOfKey(k)); };
  MirrorGrid g;
  // 2. params
  g.params = gridShapeFromBounds(f(lo[0]), f(lo[1]), f(hi[0]), f(hi[1]), s.perceptionRadius, n, s.maxNeighbors);
  REQUIRE(g.params.cells <= maxGridCells(n));
  // 3. keys, 4. stable sort of (key, index)
  std::vector<std::uint64_t> keys(n);
  for (std::int32_t i = 0; i < n; ++i) keys[i] = sortKey(gridCellOf(g.params, w.px[i], w.py[i]), bitsOf(w.px[i]));
  g.sortedIndex.resize(n);
  std::iota(g.sortedIndex.begin(), g.sortedIndex.end(), 0);
  std::stable_sort(g.sortedIndex.begin(), g.sortedIndex.end(),
                   [&](std::int32_t a, std::int32_t b) { return keys[a] < keys[b]; });
  std::vector<std::uint64_t> sorted(n);
  for (std::int32_t k = 0; k < n; ++k) sorted[k] = keys[g.sortedIndex[k]];
  // cell starts, one slot at a time, in reverse to show order does not matter
  g.cellStart.assign(static_cast<std::size_t>(g.params.cells) + 1, -1);
  for (std::int32_t slot = n; slot >= 0; --slot) cellStartsForSlot(sorted.data(), n, g.params.cells, slot, g.cellStart.data());
  g.sx.resize(n);
  g.sy.resize(n);
  for (std::int32_t k = 0; k < n; ++k) {
    g.sx[k] = w.px[g.sortedIndex[k]];
    g.sy[k] = w.py[g.sortedIndex[k]];
  }
  return g;
}

/// A model's device phase 4 for one grid slot (device_model.hpp).
using SlotSolve = std::function<void(const DeviceSolve&, const Settings&, float, std::int32_t)>;

/// ORCA's, as the kernel runs it (orcaSolveSlot; lines one at a time, so
/// this also checks the CPU's agentLines8).
void orcaSlot(const DeviceSolve& d, const Settings& s, float dt, std::int32_t slot) {
  SolveParams sp = OrcaModel::solveParams(s, dt);
  sp.lineLanes = false;
  orcaSolveSlot(d, sp, slot);
}

/// One step the way the CUDA backend takes it (no closure), on the host,
/// with `solveSlot` as the model's device phase.
void mirrorStep(World& w, const Settings& s, float dt, const SlotSolve& solveSlot = orcaSlot) {
  const auto n = static_cast<std::int32_t>(w.size());
  if (n == 0) {
    w.stats = {};
    return;
  }
  MirrorGrid g = mirrorGrid(w, s);
  // obstacles: the CPU step's sizing rule (the backend applies it on the host)
  ObstacleSet& o = w.obstacles;
  if (!o.vertices.empty()) o.fitToReach(w.obstacleReach(s));
  const WorldView wv = w.worldView();
  WishParams wp;
  wp.slowingRadius = s.slowingRadius; wp.jitter = s.jitter; wp.dt = dt; wp.seed = s.seed; wp.step = w.step;
  std::vector<float> wishX(n), wishY(n), nvx(n), nvy(n);
  std::vector<std::uint8_t> landing(n), njammed(n);
  for (std::int32_t i = 0; i < n; ++i) {
    bool land;
    const Vec2 v = wishAt(wv, wp, i, land);
    wishX[i] = v.x; wishY[i] = v.y; landing[i] = land;
  }
  // Phase 4, the model's, through the device seam (device_solve.hpp): its
  // per-slot function over the grid's slots, in descending slot order: any
  // order must do (read old, write new).
  DeviceSolve d;
  d.n = n;
  d.agents = w.view();
  d.shape = &g.params;
  d.cellStart = g.cellStart.data(); d.sortedIndex = g.sortedIndex.data(); d.sx = g.sx.data(); d.sy = g.sy.data();
  d.obstacles = o.view();
  d.wishX = wishX.data(); d.wishY = wishY.data();
  d.nvx = nvx.data(); d.nvy = nvy.data(); d.njammed = njammed.data();
  for (std::int32_t slot = n - 1; slot >= 0; --slot) solveSlot(d, s, dt, slot);
  MutableState m;
  m.px = w.px.data(); m.py = w.py.data(); m.vx = w.vx.data(); m.vy = w.vy.data();
  m.jammed = w.jammed.data(); m.gate = w.gate.data();
  StepOutputs out;
  out.wishX = wishX.data(); out.wishY = wishY.data(); out.landing = landing.data();
  out.nvx = nvx.data(); out.nvy = nvy.data(); out.njammed = njammed.data();
  std::size_t jammed = 0, arrived = 0;
  for (std::int32_t i = 0; i < n; ++i) {
    const unsigned r = integrateAt(wv, m, out, dt, i);
    jammed += r & 1u;
    arrived += (r >> 1) & 1u;
  }
  w.stats.jammed = jammed;
  w.stats.arrived = arrived;
}

/// The test model's, as a kernel would run it.
void walkSlot(const DeviceSolve& d, const Settings&, float, std::int32_t slot) {
  const std::int32_t i = d.sortedIndex[slot];
  const Vec2 v = test::walkStraight({d.wishX[i], d.wishY[i]}, d.agents.maxSpeed[i]);
  d.nvx[i] = v.x;
  d.nvy[i] = v.y;
  d.njammed[i] = 0;
}

/// Advances like Crowd::advance(1/60) through the mirror, with the device
/// phase of the crowd's model.
void mirrorAdvance(Crowd& c) {
  World& w = c.world();
  const Settings s = sanitized(c.settings);
  const double dt = 1.0 / 60;
  REQUIRE((s.model == "orca" || s.model == test::WalkStraight::kName));
  mirrorStep(w, s, static_cast<float>(dt), s.model == "orca" ? SlotSolve(orcaSlot) : SlotSolve(walkSlot));
  ++w.step;
  w.time += dt;
}

/// Steps a CPU crowd and its mirror twin side by side; returns the first
/// step whose hashes differ, or -1.
int firstDivergence(Crowd& cpu, Crowd& mirror, int steps) {
  for (int k = 0; k < steps; ++k) {
    cpu.advance();
    mirrorAdvance(mirror);
    if (cpu.stateHash() != mirror.stateHash()) return k;
    const StepStats a = cpu.lastStats(), b = mirror.lastStats();
    if (a.jammed != b.jammed || a.arrived != b.arrived) return k;
  }
  return -1;
}

}  // namespace

TEST_CASE("ordered keys keep the order of floats and round-trip") {
  const float values[] = {-3e38f, -1e5f, -1.5f, -1e-40f, -0.0f, 0.0f, 1e-40f, 1e-7f, 0.5f, 1.5f, 7e4f, 3e38f};
  for (std::size_t k = 0; k + 1 < std::size(values); ++k) {
    CHECK(orderedKey(bitsOf(values[k])) < orderedKey(bitsOf(values[k + 1])));
    CHECK(floatBitsOfKey(orderedKey(bitsOf(values[k]))) == bitsOf(values[k]));
  }
  // the grid key folds -0 onto +0, as the CPU's `>` comparison does
  CHECK(sortKey(3, bitsOf(-0.0f)) == sortKey(3, bitsOf(0.0f)));
  CHECK(sortKey(3, bitsOf(-1.0f)) < sortKey(3, bitsOf(0.0f)));
  CHECK(sortKey(2, bitsOf(1e30f)) < sortKey(3, bitsOf(-1e30f)));
}

TEST_CASE("cell starts per slot write every entry once, as the prefix sums do") {
  // cells 0..6: 1 1 (empty) 3 3 3 (empty) 6 ; keys hold the cell in the high word
  const std::uint64_t sorted[] = {1ull << 32, 1ull << 32 | 5, 3ull << 32, 3ull << 32 | 1, 3ull << 32 | 9, 6ull << 32};
  const std::int32_t n = 6, cells = 8;
  std::vector<std::int32_t> starts(cells + 1, -1);
  for (std::int32_t s = 0; s <= n; ++s) cellStartsForSlot(sorted, n, cells, s, starts.data());
  CHECK(starts == std::vector<std::int32_t>{0, 0, 2, 2, 5, 5, 5, 6, 6});
  std::vector<std::int32_t> empty(5, -1);
  cellStartsForSlot(nullptr, 0, 4, 0, empty.data());
  CHECK(empty == std::vector<std::int32_t>{0, 0, 0, 0, 0});
}

TEST_CASE("the device grid build gives AgentGrid::build's arrays") {
  struct Case {
    const char* name;
    int n;
    float perception;
  };
  for (const Case cs : {Case{"empty", 0, 100}, Case{"one walker", 1, 100}, Case{"ring 60", 60, 100},
                        Case{"random 5000, small cells", 5000, 3}, Case{"random 3000, huge radius", 3000, 1e5f},
                        Case{"random 2000, tiny radius", 2000, 1e-3f}}) {
    CAPTURE(cs.name);
    Crowd c;
    if (cs.n == 60) gpuscenes::ring(c, 60);
    else if (cs.n > 1) gpuscenes::randomCrowd(c, cs.n, 11);
    else if (cs.n == 1) c.add(Vec2{-0.0f, 3}, Vec2{1, 1});
    // ties in x inside a cell, and the two zeros
    if (cs.n > 10) {
      c.add(Vec2{0.0f, 0.5f});
      c.add(Vec2{-0.0f, 0.6f});
      c.add(Vec2{1.25f, 0.5f});
      c.add(Vec2{1.25f, 0.25f});
    }
    Settings s = sanitized(c.settings);
    s.perceptionRadius = cs.perception;
    World& w = c.world();
    w.grid.build(w.px.data(), w.py.data(), w.size(), s.perceptionRadius, s.maxNeighbors, nullptr);
    const MirrorGrid g = mirrorGrid(w, s);
    const AgentGrid& sc = w.grid;
    CHECK(g.params.origin.x == sc.shape.origin.x);
    CHECK(g.params.origin.y == sc.shape.origin.y);
    CHECK(bitsOf(g.params.invCell) == bitsOf(sc.shape.invCell));
    CHECK(bitsOf(g.params.invRow) == bitsOf(sc.shape.invRow));
    CHECK(g.params.cols == sc.shape.cols);
    CHECK(g.params.rows == sc.shape.rows);
    CHECK(g.cellStart == sc.cellStart);
    CHECK(g.sortedIndex == sc.sortedIndex);
    CHECK(g.sx == sc.sx);
    CHECK(g.sy == sc.sy);
  }
}

TEST_CASE("the CPU step's wishes (eight at a time where it can) are wishAt's: goals, slowing, landing, routes, streams, jitter") {
  // A crowd with group streams takes wishAt throughout; without, eight
  // walkers with goals of their own at a time take goalWishes8.
  for (const bool streams : {false, true})
  for (const float dt : {1.0f / 60, 0.25f}) {
    CAPTURE(streams);
    Crowd c;
    if (streams) gpuscenes::crossing(c, 12);
    gpuscenes::door(c, 2, 3);
    gpuscenes::ring(c, 40, 300, {1500, 1500});
    c.add(Vec2{20, 20}, Vec2{20, 20});     // on its goal
    c.add(Vec2{30, 30});                   // no goal
    c.setPreferredSpeed(0, 40);
    c.setPreferredSpeed(1, 1e6f);          // above maxSpeed: maxSpeed
    c.settings.seed = 99;
    c.settings.maxStep = dt;  // one step an advance
    for (int k = 0; k < 3; ++k) c.advance(dt);
    // Sixteen, far apart, a twentieth of a step from their goals: they land next step.
    for (int k = 0; k < 16; ++k)
      c.add(Vec2{-100.0f - 60.0f * k, -500}, Vec2{-100.0f - 60.0f * k, -500.0f - 0.05f * 120 * dt});
    Settings s = sanitized(c.settings);
    World& w = c.world();
    WishParams wp;
    wp.slowingRadius = s.slowingRadius; wp.jitter = s.jitter; wp.dt = dt; wp.seed = s.seed; wp.step = w.step;
    std::vector<float> wx(w.size()), wy(w.size());
    std::vector<std::uint8_t> land(w.size());
    const WorldView v = w.worldView();
    for (std::size_t i = 0; i < w.size(); ++i) {
      bool b;
      const Vec2 d = wishAt(v, wp, static_cast<std::int32_t>(i), b);
      wx[i] = d.x;
      wy[i] = d.y;
      land[i] = b;
    }
    c.advance(dt);
    int landings = 0, differ = 0;
    for (std::size_t i = 0; i < w.size(); ++i) {
      differ += bitsOf(w.buffers.wishX[i]) != bitsOf(wx[i]) || bitsOf(w.buffers.wishY[i]) != bitsOf(wy[i]) ||
                w.buffers.landing[i] != land[i];
      landings += land[i];
    }
    CHECK(differ == 0);
    CHECK(landings >= 8);
  }
}

TEST_CASE("the host mirror of the device step equals the CPU step, scene by scene") {
  struct Case {
    const char* name;
    int steps;
    void (*build)(Crowd&);
  };
  const Case cases[] = {
      {"ring of 60", 400, [](Crowd& c) { gpuscenes::ring(c, 60); }},
      {"ring of 60, jitter 0", 200, [](Crowd& c) { c.settings.jitter = 0; gpuscenes::ring(c, 60); }},
      {"door", 300, [](Crowd& c) { gpuscenes::door(c); }},
      {"crossing", 300, [](Crowd& c) { gpuscenes::crossing(c); }},
      {"random 2000", 40, [](Crowd& c) { gpuscenes::randomCrowd(c, 2000); }},
      {"RVO2 circle 250", 60, [](Crowd& c) { gpuscenes::rvoCircle(c, 250); }},
  };
  for (const Case& cs : cases) {
    CAPTURE(cs.name);
    Crowd cpu, mirror;
    cs.build(cpu);
    cs.build(mirror);
    cpu.settings.threads = 2;
    REQUIRE(cpu.stateHash() == mirror.stateHash());
    CHECK(firstDivergence(cpu, mirror, cs.steps) == -1);
  }
}

TEST_CASE("a second model (the tests' walk-straight) runs through the host mirror of the device step as on the CPU") {
  test::registerWalkStraight();
  for (const bool walls : {false, true}) {
    CAPTURE(walls);
    Crowd cpu, mirror;
    for (Crowd* c : {&cpu, &mirror}) {
      if (walls) gpuscenes::crossing(*c);  // routes, streams and a wall (walked through: the model ignores it)
      else gpuscenes::ring(*c, 60);
      c->setModel(test::WalkStraight::kName);
    }
    CHECK(firstDivergence(cpu, mirror, 120) == -1);
    // and back to ORCA mid-run, on both
    cpu.setModel("orca");
    mirror.setModel("orca");
    CHECK(firstDivergence(cpu, mirror, 60) == -1);
  }
}

TEST_CASE("the host mirror follows edits between steps as the CPU does") {
  Crowd cpu, mirror;
  gpuscenes::ring(cpu, 40);
  gpuscenes::ring(mirror, 40);
  CHECK(firstDivergence(cpu, mirror, 30) == -1);
  for (Crowd* c : {&cpu, &mirror}) {
    Agent a = c->agent(3);
    a.position = a.position + Vec2{15, -5};
    c->setAgent(3, a);
    c->add(Vec2{500, 500}, Vec2{100, 100});
    c->addObstacle(Rect{480, 300, 30, 30});
    c->removeAgents([](const Agent& x) { return x.group == 0 && x.position.x < 150; });
    c->settings.perceptionRadius = 60;
    c->settings.jitter = 0.1f;
  }
  CHECK(firstDivergence(cpu, mirror, 60) == -1);
  for (Crowd* c : {&cpu, &mirror}) c->removeAllObstacles();
  CHECK(firstDivergence(cpu, mirror, 20) == -1);
}

TEST_CASE("cudaAvailable says plainly why not, and the backends fall back cleanly") {
  std::string why;
  const bool available = cudaAvailable(&why);
  if (available) {
    MESSAGE("a CUDA device is present here: the fallback checks are the device test's business");
    return;
  }
  CHECK_FALSE(why.empty());
  MESSAGE("cudaAvailable: " << why);
  std::string why2 = "stale";
  CHECK(makeCudaBackend(&why2) == nullptr);
  CHECK(why2 == why);

  Crowd c;
  gpuscenes::ring(c, 20);
  c.advance();
  const std::uint64_t before = c.stateHash();
  std::string msg;
  CHECK_FALSE(c.setBackend(BackendKind::Cuda, &msg));
  CHECK(msg.find("CUDA backend unavailable") != std::string::npos);
  CHECK(msg.find(why) != std::string::npos);
  CHECK(std::string(c.backendName()) == "cpu");
  CHECK(c.stateHash() == before);  // nothing lost
  msg.clear();
  CHECK(c.setBackend(BackendKind::Auto, &msg));
  CHECK(msg.find("using the CPU backend") != std::string::npos);
  CHECK(std::string(c.backendName()) == "cpu");
  c.advance();  // and it still steps
  CHECK(c.stepCount() == 2);
  CHECK(c.setBackend(BackendKind::Cpu, nullptr));
}

#if THRONG_TEST_CUDA_CHECK
TEST_CASE("THRONG_CUDA_CHECK reports the call, file, line and error, and never aborts") {
  CHECK(THRONG_CUDA_CHECK(cudaSuccess));
  std::FILE* capture = std::tmpfile();
  REQUIRE(capture);
  std::fflush(stderr);
  const int saved = dup(fileno(stderr));
  dup2(fileno(capture), fileno(stderr));
  const int line = __LINE__ + 1;
  const bool ok = THRONG_CUDA_CHECK(cudaErrorInvalidValue);
  std::fflush(stderr);
  dup2(saved, fileno(stderr));
  close(saved);
  CHECK_FALSE(ok);
  std::rewind(capture);
  char buf[512] = {};
  const std::size_t got = std::fread(buf, 1, sizeof buf - 1, capture);
  std::fclose(capture);
  const std::string text(buf, got);
  MESSAGE(text);
  CHECK(text.find("test_gpu_host.cpp:" + std::to_string(line)) != std::string::npos);
  CHECK(text.find("cudaErrorInvalidValue") != std::string::npos);
  CHECK(text.find("THRONG_CUDA_CHECK") == std::string::npos);  // the call itself, not the macro
}
#endif

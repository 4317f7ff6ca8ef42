// The CUDA backend's host-side logic, tested without a GPU.
//
// The kernels in sim/cuda/cuda_backend.cu are thin wrappers over the
// THRONG_HD phases of sim/cuda/device_step.hpp. Here those phases run on
// the host, in the kernels' order and with the device's data layout (the
// atomic bounds on ordered keys, a stable sort of (cell, x) keys, cell
// starts written per slot, the solve in sorted-slot order, integrate with
// counts), and must give World::stepCpu's state bit for bit. A model's
// device form runs here through the same seam (device_solve.hpp): ORCA's
// per-slot solve, and BioCrowds' host side (its marker field fitted to the
// last step's bounds, as the backend knows them), its owners per marker
// cell and its velocities per slot (models/biocrowds_slot.hpp). What this
// cannot cover (device arithmetic and the flags behind it, the CUDA calls
// themselves) the device test in this folder covers on a GPU.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <numeric>
#include <string>
#include <tuple>
#include <utility>
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
#include "models/biocrowds_slot.hpp"
#include "models/biocrowds/biocrowds_model.hpp"
#include "models/orca_slot.hpp"
#include "models/orca/orca_model.hpp"
#include "pipeline/registry.hpp"
#include "throng/scene.hpp"
#include "../bench/scenarios.hpp"
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
  Vec2 lo, hi;  ///< the bounds, as the atomics reduce them
  std::vector<std::int32_t> cellStart, sortedIndex;
  std::vector<float> sx, sy;
};

/// The grid of columns `radius` wide holding `neighbors` a row (the
/// model's gridRadius and gridNeighbors).
MirrorGrid mirrorGrid(const World& w, float radius, int neighbors) {
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
  g.lo = Vec2{f(lo[0]), f(lo[1])};
  g.hi = Vec2{f(hi[0]), f(hi[1])};
  g.params = gridShapeFromBounds(g.lo.x, g.lo.y, g.hi.x, g.hi.y, radius, n, neighbors);
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

/// The test model's, as a kernel would run it.
void walkSlot(const DeviceSolve& d, const Settings&, float, std::int32_t slot) {
  const std::int32_t i = d.sortedIndex[slot];
  const Vec2 v = test::walkStraight({d.wishX[i], d.wishY[i]}, d.agents.maxSpeed[i]);
  d.nvx[i] = v.x;
  d.nvy[i] = v.y;
  d.njammed[i] = 0;
}

/// What the CUDA backend keeps on the host across steps, mirrored: the
/// device form of the last step's model (BioCrowds' host side, remade when
/// the model changes, as deviceModelFor does), its owners, and the last
/// step's bounds (the pinned copy behind DeviceHost::lastBounds).
struct MirrorBackend {
  std::string model;
  std::unique_ptr<BioDeviceHost> bio;
  std::vector<std::int32_t> owner;  ///< the owners pass's output, by marker of bio->field
  bool haveBounds = false;
  Vec2 lo, hi;
  float dt = 0;
  /// World::version once the mirror's last step is done; another value at
  /// the next step means an edit (Crowd::pushed: the backend uploads).
  std::uint64_t version = ~std::uint64_t{0};
  std::size_t bioSteps = 0, lagSteps = 0;  ///< BioCrowds steps, and those fitted from the last bounds
  // Counterfactuals (the tests' own): the last bounds kept from the first
  // step on; a change to the owners before the velocities read them.
  bool freezeBounds = false;
  std::function<void(const World&, const MarkerField&, std::vector<std::int32_t>&)> tamper;
};

/// The model's share of the step as the backend runs it (the obstacle
/// grid fitted, the model's host side, the agent grid), then its phase 4
/// through the device seam: its per-cell and per-slot functions in
/// descending order (any order must do: read old, write new). Writes nvx,
/// nvy and njammed for every walker of w (at least one).
void mirrorModelPhase(World& w, const Settings& s, float dt, MirrorBackend& mb, const float* wishX,
                      const float* wishY, const std::uint8_t* landing, float* nvx, float* nvy,
                      std::uint8_t* njammed) {
  const auto n = static_cast<std::int32_t>(w.size());
  const bool uploaded = w.version != mb.version;
  if (s.model != mb.model) {
    mb.model = s.model;
    mb.bio.reset();
    if (s.model == BioCrowdsModel::kName) mb.bio = std::make_unique<BioDeviceHost>();
  }
  const bool bio = mb.bio != nullptr;
  SlotSolve slotSolve = orcaSlot;
  if (s.model == test::WalkStraight::kName) slotSolve = walkSlot;
  else REQUIRE((bio || s.model == "orca"));
  // the obstacle grid as the model's CPU step fits it (syncObstacles)
  ObstacleSet& o = w.obstacles;
  if (!o.vertices.empty()) o.fitToReach(bio ? bioObstacleReach(s) : w.obstacleReach(s));
  if (bio) {
    DeviceHost h;
    h.world = &w;
    h.uploaded = uploaded;
    h.lastBounds = [&mb](Vec2& lo, Vec2& hi, float& lastDt) {
      lo = mb.lo;
      hi = mb.hi;
      lastDt = mb.dt;
      return mb.haveBounds;
    };
    REQUIRE(mb.bio->prepare(h, s, dt));
    ++mb.bioSteps;
    mb.lagSteps += uploaded ? 0 : 1;
    // The parameters are the CPU's, bit for bit.
    const BioParams want = BioCrowdsModel::params(w, s, dt), got = mb.bio->bp;
    const float a[] = {want.radius, want.radiusSq, want.gain, want.dt, want.largestRadius, want.largestSpeed};
    const float b[] = {got.radius, got.radiusSq, got.gain, got.dt, got.largestRadius, got.largestSpeed};
    for (int k = 0; k < 6; ++k) REQUIRE(bitsOf(a[k]) == bitsOf(b[k]));
  }
  const MirrorGrid g = bio ? mirrorGrid(w, s.personalSpace, kBioGridNeighbors)
                           : mirrorGrid(w, s.perceptionRadius, s.maxNeighbors);
  if (!(mb.freezeBounds && mb.haveBounds)) {
    mb.lo = g.lo;
    mb.hi = g.hi;
    mb.dt = dt;
    mb.haveBounds = true;
  }
  DeviceSolve d;
  d.n = n;
  d.agents = w.view();
  d.shape = &g.params;
  d.cellStart = g.cellStart.data(); d.sortedIndex = g.sortedIndex.data(); d.sx = g.sx.data(); d.sy = g.sy.data();
  d.obstacles = o.view();
  d.wishX = wishX; d.wishY = wishY; d.landing = landing;
  d.nvx = nvx; d.nvy = nvy; d.njammed = njammed;
  if (!bio) {
    for (std::int32_t slot = n - 1; slot >= 0; --slot) slotSolve(d, s, dt, slot);
    return;
  }
  const MarkerField& field = mb.bio->field;
  BioSolve b;
  b.markers = field.view();
  b.bp = mb.bio->bp;
  // Every owner is written once by its cell's thread: none keeps the mark.
  constexpr std::int32_t kUnwritten = -7;
  mb.owner.assign(field.size(), kUnwritten);
  b.owner = mb.owner.data();
  for (std::int32_t c = field.cols * field.rows - 1; c >= 0; --c) bioOwnersCell(d, b, c);
  REQUIRE(std::count(mb.owner.begin(), mb.owner.end(), kUnwritten) == 0);
  if (mb.tamper) mb.tamper(w, field, mb.owner);
  for (std::int32_t slot = n - 1; slot >= 0; --slot) bioVelocitySlot(d, b, slot);
}

/// One step the way the CUDA backend takes it (no closure), on the host,
/// with the device form of the settings' model.
void mirrorStep(World& w, const Settings& s, float dt, MirrorBackend& mb) {
  const auto n = static_cast<std::int32_t>(w.size());
  if (n == 0) {
    w.stats = {};
    return;
  }
  const WorldView wv = w.worldView();
  const WishParams wp = w.wishParams(s, dt);
  std::vector<float> wishX(n), wishY(n), nvx(n), nvy(n);
  std::vector<std::uint8_t> landing(n), njammed(n);
  for (std::int32_t i = 0; i < n; ++i) {
    bool land;
    const Vec2 v = wishAt(wv, wp, i, land);
    wishX[i] = v.x; wishY[i] = v.y; landing[i] = land;
  }
  mirrorModelPhase(w, s, dt, mb, wishX.data(), wishY.data(), landing.data(), nvx.data(), nvy.data(), njammed.data());
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

/// Advances like Crowd::advance(dt) (one step: dt <= maxStep) through the
/// mirror. The mirror is the backend: it writes the arrays without an edit
/// (Crowd::world() would count one), and bumps the version as advance does.
void mirrorAdvance(Crowd& c, MirrorBackend& mb, double dt = 1.0 / 60) {
  World& w = const_cast<World&>(std::as_const(c).world());
  const Settings s = sanitized(c.settings);
  REQUIRE(dt <= s.maxStep);
  mirrorStep(w, s, static_cast<float>(dt), mb);
  ++w.step;
  ++w.version;
  w.time += dt;
  mb.version = w.version;
}

/// Steps a CPU crowd and its mirror twin side by side; returns the first
/// step whose hashes differ, or -1.
int firstDivergence(Crowd& cpu, Crowd& mirror, int steps, MirrorBackend& mb, double dt = 1.0 / 60) {
  for (int k = 0; k < steps; ++k) {
    cpu.advance(dt);
    mirrorAdvance(mirror, mb, dt);
    if (cpu.stateHash() != mirror.stateHash()) return k;
    const StepStats a = cpu.lastStats(), b = mirror.lastStats();
    if (a.jammed != b.jammed || a.arrived != b.arrived) return k;
  }
  return -1;
}

/// The markers some walker owns, as (x bits, y bits, owner), sorted: the
/// same on any field that covers every walker's personal space, however
/// far it reaches beyond.
using Owned = std::vector<std::tuple<std::uint32_t, std::uint32_t, std::int32_t>>;
Owned ownedMarkers(std::span<const float> x, std::span<const float> y, std::span<const std::int32_t> owner) {
  REQUIRE(owner.size() == x.size());
  Owned out;
  for (std::size_t k = 0; k < owner.size(); ++k)
    if (owner[k] >= 0) out.emplace_back(bitsOf(x[k]), bitsOf(y[k]), owner[k]);
  std::sort(out.begin(), out.end());
  return out;
}
Owned ownedMarkers(const Crowd& cpu) {
  const MarkerView v = cpu.markers();
  return ownedMarkers(v.x, v.y, v.owner);
}
Owned ownedMarkers(const MirrorBackend& mb) {
  REQUIRE(mb.bio);
  return ownedMarkers(mb.bio->field.mx, mb.bio->field.my, mb.owner);
}

/// Whether the mirror's field differs in extent from the CPU model's.
bool fieldsDiffer(const Crowd& cpu, const MirrorBackend& mb) {
  const auto* model = dynamic_cast<const BioCrowdsModel*>(std::as_const(cpu).world().model.get());
  REQUIRE(model);
  REQUIRE(mb.bio);
  const MarkerField &a = model->field, &b = mb.bio->field;
  return a.cellX0 != b.cellX0 || a.cellY0 != b.cellY0 || a.cols != b.cols || a.rows != b.rows;
}

/// BioCrowds' device form inside the CPU pipeline, for scenes a SceneRun
/// drives (sources and sinks edit the crowd between steps): phase 4 as
/// mirrorModelPhase runs it, with the step's shared wishes (the CPU's,
/// which the tests above hold equal to the device's wishAt).
class BioMirrorModel final : public Model {
 public:
  static constexpr const char* kName = "biocrowds-device-mirror";
  std::string_view name() const override { return kName; }
  void solve(StepContext& ctx) override {
    World& w = ctx.world;
    if (w.size() > 0) {  // the backend's step ends before the model's share with no walkers
      Settings s = ctx.settings;
      s.model = BioCrowdsModel::kName;
      StepBuffers& b = w.buffers;
      mirrorModelPhase(w, s, ctx.dt, mb, b.wishX.data(), b.wishY.data(), b.landing.data(), b.nvx.data(),
                       b.nvy.data(), b.njammed.data());
    }
    mb.version = w.version + 1;  // Crowd::advance bumps it after the step
  }
  void explain(StepContext&, std::size_t, AgentExplain&) override {}
  void resume() override { mb.version = ~std::uint64_t{0}; }
  MirrorBackend mb;
};

void registerBioMirror() {
  registerModel({BioMirrorModel::kName, "BioCrowds' device form run on the host (tests)",
                 OverlapPromise{kBioOverlap, kBioOverlap}, "as biocrowds",
                 [] { return std::unique_ptr<Model>(new BioMirrorModel()); }});
}

/// A shipped scene with --set assignments, from THRONG_SCENES_DIR when it
/// is set (a bundle run on another machine), else this tree's assets/scenes.
Scene shippedScene(const std::string& name, const std::vector<std::string>& sets) {
  const char* env = std::getenv("THRONG_SCENES_DIR");
  std::string err;
  auto sc = Scene::load(std::string(env && *env ? env : THRONG_TEST_SCENES_DIR) + "/" + name + ".json", &err);
  INFO(err);
  REQUIRE(sc.has_value());
  for (const std::string& a : sets) {
    INFO(a, ": ", err);
    REQUIRE(sc->assign(a, &err));
  }
  return *sc;
}

/// How far the walkers of `c` are from where `start` had them, summed.
double moved(const Crowd& c, const std::vector<Vec2>& start) {
  double sum = 0;
  for (std::size_t i = 0; i < start.size() && i < c.count(); ++i) sum += (c.agent(i).position - start[i]).length();
  return sum;
}
std::vector<Vec2> positionsOf(const Crowd& c) {
  std::vector<Vec2> out;
  for (std::size_t i = 0; i < c.count(); ++i) out.push_back(c.agent(i).position);
  return out;
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
    const MirrorGrid g = mirrorGrid(w, s.perceptionRadius, s.maxNeighbors);
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
    const WishParams wp = w.wishParams(s, dt);
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
    const std::string name = cs.name;
    CAPTURE(name);
    Crowd cpu, mirror;
    MirrorBackend mb;
    cs.build(cpu);
    cs.build(mirror);
    cpu.settings.threads = 2;
    REQUIRE(cpu.stateHash() == mirror.stateHash());
    CHECK(firstDivergence(cpu, mirror, cs.steps, mb) == -1);
  }
}

TEST_CASE("a second model (the tests' walk-straight) runs through the host mirror of the device step as on the CPU") {
  test::registerWalkStraight();
  for (const bool walls : {false, true}) {
    CAPTURE(walls);
    Crowd cpu, mirror;
    MirrorBackend mb;
    for (Crowd* c : {&cpu, &mirror}) {
      if (walls) gpuscenes::crossing(*c);  // routes, streams and a wall (walked through: the model ignores it)
      else gpuscenes::ring(*c, 60);
      c->setModel(test::WalkStraight::kName);
    }
    CHECK(firstDivergence(cpu, mirror, 120, mb) == -1);
    // and back to ORCA mid-run, on both
    cpu.setModel("orca");
    mirror.setModel("orca");
    CHECK(firstDivergence(cpu, mirror, 60, mb) == -1);
  }
}

TEST_CASE("the host mirror follows edits between steps as the CPU does") {
  Crowd cpu, mirror;
  MirrorBackend mb;
  gpuscenes::ring(cpu, 40);
  gpuscenes::ring(mirror, 40);
  CHECK(firstDivergence(cpu, mirror, 30, mb) == -1);
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
  CHECK(firstDivergence(cpu, mirror, 60, mb) == -1);
  for (Crowd* c : {&cpu, &mirror}) c->removeAllObstacles();
  CHECK(firstDivergence(cpu, mirror, 20, mb) == -1);
}

TEST_CASE("BioCrowds' device form builds the CPU model's grid, parameters and owners") {
  for (const bool walls : {false, true}) {
    CAPTURE(walls);
    Crowd c(gpuscenes::bioSettings());
    gpuscenes::bioGround(c, 400, walls);
    const Settings s = sanitized(c.settings);
    const float dt = 0.05f;
    World& w = c.world();
    BioCrowdsModel cpu;
    cpu.prepare(w, s, dt);
    // The agent grid: the CPU's (personalSpace wide, kBioGridNeighbors a row).
    const MirrorGrid g = mirrorGrid(w, s.personalSpace, kBioGridNeighbors);
    CHECK(bitsOf(g.params.invCell) == bitsOf(w.grid.shape.invCell));
    CHECK(bitsOf(g.params.invRow) == bitsOf(w.grid.shape.invRow));
    CHECK(g.params.cols == w.grid.shape.cols);
    CHECK(g.params.rows == w.grid.shape.rows);
    CHECK(g.cellStart == w.grid.cellStart);
    CHECK(g.sortedIndex == w.grid.sortedIndex);
    // The obstacle grid: already fitted to the reach the device form asks for.
    if (walls) CHECK_FALSE(w.obstacles.fitToReach(bioObstacleReach(s)));
    // The host side from the host's positions (an upload), then the owners
    // cell by cell: the CPU's, marker for marker.
    MirrorBackend mb;
    mb.model = s.model;
    mb.bio = std::make_unique<BioDeviceHost>();
    DeviceHost h;
    h.world = &w;
    h.uploaded = true;
    REQUIRE(mb.bio->prepare(h, s, dt));
    const BioParams want = BioCrowdsModel::params(w, s, dt);
    CHECK(bitsOf(mb.bio->bp.gain) == bitsOf(want.gain));
    CHECK(bitsOf(mb.bio->bp.largestSpeed) == bitsOf(want.largestSpeed));
    DeviceSolve d;
    d.n = static_cast<std::int32_t>(w.size());
    d.agents = w.view();
    d.shape = &g.params;
    d.cellStart = g.cellStart.data(); d.sortedIndex = g.sortedIndex.data(); d.sx = g.sx.data(); d.sy = g.sy.data();
    d.obstacles = w.obstacles.view();
    BioSolve b;
    b.markers = mb.bio->field.view();
    b.bp = mb.bio->bp;
    mb.owner.assign(mb.bio->field.size(), -7);
    b.owner = mb.owner.data();
    for (std::int32_t cell = 0; cell < mb.bio->field.cols * mb.bio->field.rows; ++cell) bioOwnersCell(d, b, cell);
    const MarkerView cv = cpu.markers();
    const Owned mine = ownedMarkers(mb), theirs = ownedMarkers(cv.x, cv.y, cv.owner);
    CHECK(mine.size() > 1000);
    CHECK(mine == theirs);
    // ... and a counterfactual: one owner lost is seen.
    const auto k = std::find_if(mb.owner.begin(), mb.owner.end(), [](std::int32_t o) { return o >= 0; });
    REQUIRE(k != mb.owner.end());
    *k = -1;
    CHECK(ownedMarkers(mb) != theirs);
  }
}

TEST_CASE("BioCrowds: the host mirror of the device step equals the CPU step") {
  struct Case {
    const char* name;
    int steps;
    double dt;
    std::function<void(Crowd&)> build;
  };
  const Case cases[] = {
      {"open ground, 300", 400, 0.05, [](Crowd& c) { c.settings = gpuscenes::bioSettings(); gpuscenes::bioGround(c, 300, false); }},
      {"walls and a pillar near the markers, 300", 300, 0.05,
       [](Crowd& c) { c.settings = gpuscenes::bioSettings(); gpuscenes::bioGround(c, 300, true, 9); }},
      {"jitter 0, a denser field", 200, 0.05,
       [](Crowd& c) {
         c.settings = gpuscenes::bioSettings();
         c.settings.jitter = 0;
         c.settings.markerDensity = 40;
         gpuscenes::bioGround(c, 200, true, 3);
       }},
      {"crossing (routes, streams, a wall; in pixels)", 300, 1.0 / 60,
       [](Crowd& c) {
         c.settings.model = BioCrowdsModel::kName;
         c.settings.personalSpace = 30;
         c.settings.markerDensity = 0.02f;
         gpuscenes::crossing(c);
       }},
      {"the bench field, 400", 200, bench::kBioStep, [](Crowd& c) { c = bench::bioField(400, 2); }},
  };
  for (const Case& cs : cases) {
    const std::string name = cs.name;
    CAPTURE(name);
    Crowd cpu, mirror;
    MirrorBackend mb;
    cs.build(cpu);
    cs.build(mirror);
    REQUIRE(cpu.stateHash() == mirror.stateHash());
    const std::vector<Vec2> start = positionsOf(cpu);
    std::size_t jammed = 0;
    for (int chunk = 0; chunk < 4; ++chunk) {
      CHECK(firstDivergence(cpu, mirror, cs.steps / 4, mb, cs.dt) == -1);
      CHECK(ownedMarkers(cpu) == ownedMarkers(mb));
      jammed += cpu.lastStats().jammed;
    }
    // It ran: the walkers went a good way, most steps fitted the field from
    // the last step's bounds, and the markers were owned.
    const double perWalker = moved(cpu, start) / static_cast<double>(start.size());
    MESSAGE(name << ": " << perWalker << " units a walker, " << mb.lagSteps << " of " << mb.bioSteps
                    << " steps fitted from the last bounds, " << ownedMarkers(mb).size() << " markers owned, jammed "
                    << jammed << " (last steps of the chunks)");
    CHECK(perWalker > 0.2 * cs.steps * cs.dt * sanitized(cpu.settings).personalSpace);
    CHECK(mb.bioSteps == static_cast<std::size_t>(cs.steps / 4 * 4));
    CHECK(mb.lagSteps == mb.bioSteps - 1);  // all but the first (an upload)
    CHECK(ownedMarkers(mb).size() > 10 * start.size());
  }
}

TEST_CASE("BioCrowds: the device's field grows from the last step's bounds and gives the CPU's steps") {
  // Walkers following a stream east, with no goal for the field to cover in
  // advance: they walk out of the first field, which must grow after them.
  const auto build = [](Crowd& c) {
    c.settings = gpuscenes::bioSettings();
    c.setGroupVelocity(1, Vec2{1.3f, 0});
    for (int i = 0; i < 30; ++i)
      c.add({0.7f * static_cast<float>(i % 6), 0.7f * static_cast<float>(i / 6)}, std::nullopt, 0.25f, 1.3f, 1);
  };
  Crowd cpu, mirror;
  MirrorBackend mb;
  build(cpu);
  build(mirror);
  int differ = 0;
  for (int k = 0; k < 40; ++k) {
    CHECK(firstDivergence(cpu, mirror, 10, mb, 0.05) == -1);
    differ += fieldsDiffer(cpu, mb);
  }
  CHECK(cpu.agent(0).position.x > 10);
  CHECK(mb.bio->field.version >= 2);  // it grew
  CHECK(differ > 0);                  // at times unlike the CPU's
  CHECK(mb.lagSteps == 399);
  // The counterfactual: a field fitted to bounds that never move on is left
  // behind, and the steps differ.
  Crowd cpu2, frozen;
  MirrorBackend stale;
  stale.freezeBounds = true;
  build(cpu2);
  build(frozen);
  CHECK(firstDivergence(cpu2, frozen, 400, stale, 0.05) != -1);
}

TEST_CASE("BioCrowds: a changed owner changes the mirror's step (the comparison can fail)") {
  Crowd cpu, mirror;
  MirrorBackend mb;
  for (Crowd* c : {&cpu, &mirror}) {
    c->settings = gpuscenes::bioSettings();
    gpuscenes::bioGround(*c, 200, true);
  }
  CHECK(firstDivergence(cpu, mirror, 20, mb, 0.05) == -1);
  // Next step, the walker that owns the most markers loses one.
  bool tampered = false;
  mb.tamper = [&](const World& w, const MarkerField&, std::vector<std::int32_t>& owner) {
    std::vector<int> count(w.size());
    for (const std::int32_t o : owner)
      if (o >= 0) ++count[static_cast<std::size_t>(o)];
    const auto most = static_cast<std::int32_t>(std::max_element(count.begin(), count.end()) - count.begin());
    *std::find(owner.begin(), owner.end(), most) = -1;
    tampered = true;
  };
  CHECK(firstDivergence(cpu, mirror, 1, mb, 0.05) == 0);
  CHECK(tampered);
}

TEST_CASE("BioCrowds: the host mirror switches models mid-run as the CPU does (orca, biocrowds, orca)") {
  Crowd cpu, mirror;
  MirrorBackend mb;
  for (Crowd* c : {&cpu, &mirror}) {
    c->settings = gpuscenes::bioSettings();
    c->settings.model = "orca";
    c->settings.perceptionRadius = 3;
    c->settings.timeHorizon = 2;
    c->settings.obstacleTimeHorizon = 1;
    gpuscenes::bioGround(*c, 300, true, 21);
  }
  CHECK(firstDivergence(cpu, mirror, 100, mb, 0.05) == -1);
  for (Crowd* c : {&cpu, &mirror}) c->setModel(BioCrowdsModel::kName);
  CHECK(firstDivergence(cpu, mirror, 150, mb, 0.05) == -1);
  CHECK(mb.bioSteps == 150);
  CHECK(mb.lagSteps == 150);  // the first from ORCA's last bounds
  for (Crowd* c : {&cpu, &mirror}) c->setModel("orca");
  CHECK(firstDivergence(cpu, mirror, 100, mb, 0.05) == -1);
  CHECK(mb.bio == nullptr);
}

TEST_CASE("BioCrowds: the host mirror follows edits between steps as the CPU does") {
  Crowd cpu, mirror;
  MirrorBackend mb;
  for (Crowd* c : {&cpu, &mirror}) {
    c->settings = gpuscenes::bioSettings();
    gpuscenes::bioGround(*c, 200, true, 13);
  }
  CHECK(firstDivergence(cpu, mirror, 50, mb, 0.05) == -1);
  const std::uint64_t laid = mb.bio->field.version;
  for (Crowd* c : {&cpu, &mirror}) {
    Agent a = c->agent(3);
    a.position = a.position + Vec2{40, 25};  // far beyond the field: it must grow at once
    c->setAgent(3, a);
    c->add(Vec2{-20, 3}, Vec2{5, 5}, 0.3f, 1.6f);
    c->removeAgents([](const Agent& x) { return x.position.y < 2; });
  }
  CHECK(firstDivergence(cpu, mirror, 40, mb, 0.05) == -1);
  CHECK(mb.bio->field.version > laid);
  for (Crowd* c : {&cpu, &mirror}) {
    c->settings.personalSpace = 1.5f;
    c->settings.markerDensity = 20;
    c->addObstacle(Rect{6, 6, 1, 1});
  }
  CHECK(firstDivergence(cpu, mirror, 40, mb, 0.05) == -1);
  for (Crowd* c : {&cpu, &mirror}) c->settings.seed = 77;
  CHECK(firstDivergence(cpu, mirror, 30, mb, 0.05) == -1);
  for (Crowd* c : {&cpu, &mirror}) c->removeAllObstacles();
  CHECK(firstDivergence(cpu, mirror, 30, mb, 0.05) == -1);
  CHECK(ownedMarkers(cpu) == ownedMarkers(mb));
}

TEST_CASE("BioCrowds: the door and corridor scenes step alike on the CPU and through the device form") {
  registerBioMirror();
  struct Case {
    const char* scene;
    int steps;
  };
  for (const Case cs : {Case{"door", 600}, Case{"corridor", 600}}) {
    const std::string scene = cs.scene;
    CAPTURE(scene);
    const Scene sc = shippedScene(cs.scene, {"model=biocrowds", "threads=2"});
    SceneRun cpu(sc), mirror(sc);
    mirror.crowd().settings.model = BioMirrorModel::kName;
    const std::size_t first = cpu.crowd().count();
    int divergence = -1;
    for (int k = 0; k < cs.steps && divergence < 0; ++k) {
      cpu.step();
      mirror.step();
      if (cpu.crowd().stateHash() != mirror.crowd().stateHash() || cpu.arrived() != mirror.arrived() ||
          cpu.crowd().lastStats().jammed != mirror.crowd().lastStats().jammed)
        divergence = k;
    }
    CHECK(divergence == -1);
    const auto* model = dynamic_cast<const BioMirrorModel*>(std::as_const(mirror.crowd()).world().model.get());
    REQUIRE(model);
    MESSAGE(scene << ": " << first << " walkers at first, " << cpu.agentsEver() << " in all, " << cpu.removed()
                     << " left through the sinks; " << model->mb.lagSteps << " of " << model->mb.bioSteps
                     << " steps fitted from the last bounds");
    CHECK(cpu.removed() > 0);  // they walked through
    CHECK(model->mb.bioSteps > 0);
    CHECK(model->mb.lagSteps > 0);
    CHECK(ownedMarkers(cpu.crowd()) == ownedMarkers(model->mb));
    if (std::string(cs.scene) == "corridor") CHECK(cpu.agentsEver() > first);  // and the sources fed it
  }
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

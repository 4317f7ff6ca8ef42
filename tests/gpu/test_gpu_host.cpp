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
// cell and its velocities per slot (models/biocrowds/biocrowds_slot.hpp); Continuum
// Crowds' passes per slot (models/continuum/continuum_slot.hpp). The fields phase
// runs as the device runs it (device_fields.hpp): the walkers' box from
// ordered keys, the grid and fixed parts planned on the host, the splat per
// walker, speed and cost per cell, and the potentials' rounds with their
// queues and a block's threads emulated one colour at a time. What this
// cannot cover (device arithmetic and the flags behind it, the CUDA calls
// themselves) the device test in this folder covers on a GPU.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <numeric>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "device_fields.hpp"
#include "device_step.hpp"
#if THRONG_TEST_CUDA_CHECK
#include <unistd.h>

#include <cstdio>

#include "cuda_check.cuh"
#endif
#include "gpu_scenes.hpp"
#include "base/thread_pool.hpp"
#include "pipeline/backend.hpp"
#include "throng/crowd.hpp"
#include "core/world.hpp"
#include "device_solve.hpp"
#include "models/biocrowds/biocrowds_slot.hpp"
#include "models/biocrowds/biocrowds_model.hpp"
#include "models/continuum/continuum_slot.hpp"
#include "models/continuum/continuum_model.hpp"
#include "pipeline/step.hpp"
#include "models/orca/orca_slot.hpp"
#include "models/orca/reference.hpp"
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
std::uint64_t bitsOf(double d) {
  std::uint64_t u;
  std::memcpy(&u, &d, 8);
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

/// The device's agent grid for the model's GridSpec (its columns spec.cell
/// wide, sized for spec.neighbors a row).
MirrorGrid mirrorGrid(const World& w, GridSpec spec) {
  const float radius = spec.cell;
  const int neighbors = spec.neighbors;
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

/// A model's device solve phase for one grid slot (device_model.hpp).
using SlotSolve = std::function<void(const DeviceSolve&, const Settings&, float, std::int32_t)>;

/// ORCA's, as the kernel runs it (orcaSolveSlot; lines one at a time, so
/// this also checks the CPU's agentLinesInLanes).
void orcaSlot(const DeviceSolve& d, const Settings& s, float dt, std::int32_t slot) {
  SolveParams sp = OrcaReference::solveParams(s, dt);
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
/// The device's fields (DeviceFields' arrays) as host arrays, and the
/// host side that drives them.
struct MirrorFields {
  DeviceFieldsHost host;
  FieldGridView grid;
  std::int32_t keyCount = 0;
  float fmax = 1;
  std::vector<std::uint8_t> blocked, open;
  std::vector<float> height, discomfort, groundFactor, groundLimit;
  std::vector<std::int32_t> goalCells;
  std::vector<TargetKey> keys;
  std::vector<float> density, velocityX, velocityY, speed, cost, potentials;
  std::vector<std::int32_t> potentialOf;
  std::size_t refreshes = 0, uploads = 0, staticsUploads = 0, broughtDown = 0;
  std::vector<int> rounds;  ///< each solve's rounds with work
  FieldRouting routing() const {
    FieldRouting r;
    if (!host.valid) return r;
    r.grid = grid;
    r.keys = keys.data();
    r.keyCount = keyCount;
    r.potentialOf = potentialOf.data();
    r.potentials = potentials.data();
    r.speed = speed.data();
    r.open = open.data();
    r.fmax = fmax;
    return r;
  }
};

struct MirrorBackend {
  std::string model;
  std::unique_ptr<BioDeviceHost> bio;
  std::unique_ptr<ContinuumDeviceHost> continuum;
  MirrorFields fields;
  bool bringDownEachStep = true;  ///< as a pull after every step does
  std::size_t continuumSteps = 0;
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

// ---- the fields phase as the device runs it (device_fields.hpp, field_refresh.cu) ----

/// DeviceFields::uploadStatics.
void mirrorUploadStatics(MirrorFields& m, const FieldState& f) {
  m.blocked = f.blocked;
  m.open = f.open;
  m.height = f.height;
  m.discomfort = f.discomfort;
  m.groundFactor = f.groundFactor;
  m.groundLimit = f.groundLimit;
  m.goalCells = f.goalCells;
  m.keys = f.keys;
  m.grid = f.grid;
  m.keyCount = static_cast<std::int32_t>(f.keys.size());
  ++m.staticsUploads;
}

/// DeviceFields::upload: the host's fields, all of them.
void mirrorUpload(MirrorFields& m, const World& w) {
  const FieldState& f = w.fields;
  mirrorUploadStatics(m, f);
  m.density = f.density;
  m.velocityX = f.velocityX;
  m.velocityY = f.velocityY;
  m.speed = f.speed;
  m.cost = f.cost;
  m.potentialOf = f.potentialOf;
  m.potentials = f.potentials;
  m.fmax = f.params.fmax;
  m.host.uploaded(w);
  ++m.uploads;
}

/// DeviceFields::bringDown.
void mirrorBringDown(MirrorFields& m, World& w) {
  if (!m.host.hostStale) return;
  FieldState& f = w.fields;
  const std::size_t cells = f.cells();
  REQUIRE(m.density.size() >= cells);
  f.density.assign(m.density.begin(), m.density.begin() + static_cast<std::ptrdiff_t>(cells));
  f.velocityX.assign(m.velocityX.begin(), m.velocityX.begin() + static_cast<std::ptrdiff_t>(cells));
  f.velocityY.assign(m.velocityY.begin(), m.velocityY.begin() + static_cast<std::ptrdiff_t>(cells));
  f.speed.assign(m.speed.begin(), m.speed.begin() + static_cast<std::ptrdiff_t>(4 * cells));
  f.cost.assign(m.cost.begin(), m.cost.begin() + static_cast<std::ptrdiff_t>(4 * cells));
  const std::size_t pot = static_cast<std::size_t>(m.host.potentials) * cells;
  REQUIRE(m.potentials.size() >= pot);
  f.potentials.assign(m.potentials.begin(), m.potentials.begin() + static_cast<std::ptrdiff_t>(pot));
  m.host.broughtDown();
  ++m.broughtDown;
}

/// The tiled solve as DeviceFields::solve runs it: the seed and goals
/// kernels, then rounds of throngFieldRoundKernel, each queued tile a block
/// whose threads run one colour at a time (here in descending order), the
/// tiles of a round in descending order too; the rounds go on in batches
/// of 8 until a batch ends with nothing queued (and the batch after it,
/// already launched, finds nothing). Writes phi; returns the rounds that
/// had work. `inPlace`: the counterfactual of reading the round's own
/// writes (one buffer), which the two buffers exist to prevent.
int mirrorSolve(const FieldGridView& g, const float* cost, const std::uint8_t* blocked, const std::int32_t* goals,
                std::size_t goalCount, float* phi, bool inPlace = false) {
  const std::size_t cells = static_cast<std::size_t>(g.cols) * static_cast<std::size_t>(g.rows);
  std::vector<float> other(cells);
  std::vector<std::uint8_t> isGoal(cells);
  TileQueue q;
  q.tcols = tilesAcross(g.cols);
  q.trows = tilesAcross(g.rows);
  q.tiles = q.tcols * q.trows;
  std::vector<std::int32_t> stamp(static_cast<std::size_t>(q.tiles), 0), lists(2 * static_cast<std::size_t>(q.tiles), -1),
      counts(3, 0);
  q.stamp = stamp.data();
  q.lists = lists.data();
  q.counts = counts.data();
  float* buf[2] = {phi, inPlace ? phi : other.data()};
  for (std::size_t c = 0; c < cells; ++c) {  // seed
    phi[c] = other[c] = fieldInfinity();
    isGoal[c] = 0;
  }
  for (std::size_t k = goalCount; k-- > 0;) {  // goals
    const std::int32_t c = goals[k];
    isGoal[static_cast<std::size_t>(c)] = 1;
    phi[c] = other[static_cast<std::size_t>(c)] = 0.0f;
    queueAround(q, tileOfCell(g, c), 1);
  }
  if (goalCount == 0) return 0;
  const TileInputs in{g, cost, blocked, isGoal.data()};
  int worked = 0;
  float local[kTileSpan * kTileSpan];
  TileThread threads[kTile * kTile];
  const auto round = [&](std::int32_t r) {
    const std::int32_t count = counts[static_cast<std::size_t>(r % 3)];
    counts[static_cast<std::size_t>((r + 2) % 3)] = 0;
    if (count > 0) ++worked;
    const float* cur = buf[(r - 1) & 1];
    float* next = buf[r & 1];
    for (std::int32_t k = count - 1; k >= 0; --k) {
      const std::int32_t t = lists[static_cast<std::size_t>((r & 1) * q.tiles + k)];
      const TileBox b = tileBox(g, t);
      for (int slot = kTileSpan * kTileSpan - 1; slot >= 0; --slot) local[slot] = tileHaloValue(g, b, cur, slot);
      for (int tid = 0; tid < kTile * kTile; ++tid) threads[tid] = tileThreadOf(in, b, tid);
      for (int sweep = 0; sweep < kTileSweeps; ++sweep) {
        bool any = false;
        for (int colour = 0; colour < 2; ++colour)
          for (int tid = kTile * kTile - 1; tid >= 0; --tid) any = tileThreadSweep(local, threads[tid], colour) || any;
        if (!any) break;
      }
      bool changed = false;
      for (int tid = kTile * kTile - 1; tid >= 0; --tid) changed = tileThreadStore(cur, next, threads[tid], local) || changed;
      if (changed) queueAround(q, t, r + 1);
    }
  };
  std::int32_t r = 1;
  for (int batch = 0;; ++batch) {
    for (int k = 0; k < 8; ++k, ++r) round(r);
    if (counts[static_cast<std::size_t>(r % 3)] == 0) {
      for (int k = 0; k < 8; ++k, ++r) round(r);  // the batch already on its way
      break;
    }
  }
  if (!inPlace)
    for (std::size_t c = 0; c < cells; ++c) REQUIRE(bitsOf(phi[c]) == bitsOf(other[c]));  // both buffers agree
  return worked;
}

/// A refresh as DeviceFields::refresh makes it, on the mirror's arrays.
void mirrorRefresh(MirrorFields& m, World& w, const Settings& s) {
  const auto n = static_cast<std::int32_t>(w.size());
  // the box, as throngFieldBoundsKernel reduces it
  std::uint32_t keys[4] = {0xFFFFFFFFu, 0xFFFFFFFFu, 0u, 0u};
  for (std::int32_t i = n - 1; i >= 0; --i) {
    std::uint32_t kx, ky;
    if (!fieldBoundsKeys(w.px.data(), w.py.data(), i, kx, ky)) continue;
    keys[0] = std::min(keys[0], kx); keys[1] = std::min(keys[1], ky);
    keys[2] = std::max(keys[2], kx); keys[3] = std::max(keys[3], ky);
  }
  if (m.host.plan(w, s, fieldBoxOfKeys(keys))) {
    mirrorUploadStatics(m, w.fields);
    m.host.staticsUploaded(w);
  }
  const FieldState& f = w.fields;
  m.fmax = f.params.fmax;
  m.potentialOf = f.potentialOf;
  const std::size_t cells = f.cells();
  const FieldGridView g = f.grid;
  // density: a thread per walker, in descending order
  std::vector<std::int64_t> sums(3 * cells, 0);
  const FieldSumsView sv{sums.data(), sums.data() + cells, sums.data() + 2 * cells};
  for (std::int32_t i = n - 1; i >= 0; --i)
    splatWalker(g, latticeExponent(s.densityExponent), w.px.data(), w.py.data(), w.vx.data(), w.vy.data(), i, sv);
  m.density.assign(cells, -1);
  m.velocityX.assign(cells, -1);
  m.velocityY.assign(cells, -1);
  for (std::int32_t c = static_cast<std::int32_t>(cells) - 1; c >= 0; --c)
    flowCell(sv, c, m.density.data(), m.velocityX.data(), m.velocityY.data());
  // speed and cost: a thread per cell
  m.speed.assign(4 * cells, -1);
  m.cost.assign(4 * cells, -1);
  const FieldCells fc{m.density.data(),    m.velocityX.data(), m.velocityY.data(),    m.height.data(),
                      m.discomfort.data(), m.open.data(),      m.groundFactor.data(), m.groundLimit.data()};
  const SlopeParams sl{s.slopeMin, s.slopeMax, s.slopeSpeed};
  for (std::int32_t c = static_cast<std::int32_t>(cells) - 1; c >= 0; --c)
    cellSpeedAndCost(g, fc, f.params, sl, c, &m.speed[4 * static_cast<std::size_t>(c)],
                     &m.cost[4 * static_cast<std::size_t>(c)]);
  // a potential per target in use
  m.potentials.assign(static_cast<std::size_t>(m.host.potentials) * cells, -1);
  for (std::size_t t = 0; t < f.potentialOf.size(); ++t) {
    if (f.potentialOf[t] < 0) continue;
    const std::int32_t first = f.goalStart[t];
    m.rounds.push_back(mirrorSolve(g, m.cost.data(), m.blocked.data(), m.goalCells.data() + first,
                                   static_cast<std::size_t>(f.goalStart[t + 1] - first),
                                   m.potentials.data() + static_cast<std::size_t>(f.potentialOf[t]) * cells));
  }
  m.host.refreshed(w);
  ++m.refreshes;
}

/// DeviceFields::step: the fields phase of a step with walkers, before the model's
/// obstacle fit.
void mirrorFieldsStep(MirrorFields& m, World& w, const Settings& s, bool walkersUploaded) {
  if (walkersUploaded) m.host.walkersChanged();
  const DeviceFieldsHost::StepPlan p = m.host.begin(w, s, fieldsTaken(s));
  DeviceFieldsHost::fitObstacles(w, s, p);
  if (!p.wanted) return;
  if (p.upload) mirrorUpload(m, w);
  if (p.refresh) mirrorRefresh(m, w, s);
}

/// The model's share of the step as the backend runs it (the obstacle
/// grid fitted, the model's host side, the agent grid), then its solve phase
/// through the device seam: its per-cell and per-slot functions in
/// descending order (any order must do: read old, write new). Writes nvx,
/// nvy and njammed for every walker of w (at least one).
void mirrorModelPhase(const World& w, ObstacleSet& o, ThreadPool* pool, const Settings& s, float dt,
                      MirrorBackend& mb, const float* wishX,
                      const float* wishY, const std::uint8_t* landing, float* nvx, float* nvy,
                      std::uint8_t* njammed, const FieldRouting& routing) {
  const auto n = static_cast<std::int32_t>(w.size());
  const bool uploaded = w.version != mb.version;
  if (s.model != mb.model) {
    mb.model = s.model;
    mb.bio.reset();
    mb.continuum.reset();
    if (s.model == BioCrowdsModel::kName) mb.bio = std::make_unique<BioDeviceHost>();
    if (s.model == ContinuumModel::kName) mb.continuum = std::make_unique<ContinuumDeviceHost>();
  }
  const bool bio = mb.bio != nullptr, continuum = mb.continuum != nullptr;
  SlotSolve slotSolve = orcaSlot;
  if (s.model == test::WalkStraight::kName) slotSolve = walkSlot;
  else REQUIRE((bio || continuum || s.model == "orca"));
  StepReach reach;
  if (continuum) reach = mb.continuum->reach(w, uploaded, dt);
  // the obstacle grid as the model's CPU step fits it (syncObstacles)
  if (!o.vertices.empty())
    o.fitToReach(bio         ? BioCrowdsModel::obstacleReach(s)
                 : continuum ? ContinuumModel::obstacleReach(reach)
                             : OrcaReference::obstacleReach(w, s));
  if (bio) {
    DeviceHost h;
    h.world = &w;
    h.pool = pool;
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
    const StepEnvelope& we = want.envelope;
    const StepEnvelope& ge = got.envelope;
    const float a[] = {want.radius,        want.radiusSq,     want.gain,    want.dt,      want.largestRadius,
                       want.largestSpeed, we.accelStep, we.brakeStep, we.dt, we.weakestRoom};
    const float b[] = {got.radius,        got.radiusSq,     got.gain,    got.dt,      got.largestRadius,
                       got.largestSpeed, ge.accelStep, ge.brakeStep, ge.dt, ge.weakestRoom};
    for (int k = 0; k < 10; ++k) REQUIRE(bitsOf(a[k]) == bitsOf(b[k]));
  }
  const MirrorGrid g = mirrorGrid(w, bio ? BioCrowdsModel::grid(s) : continuum ? ContinuumModel::grid(reach) : OrcaReference::grid(s));
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
  d.group = w.group.data(); d.route = w.route.data();
  d.field = routing;
  if (continuum) {
    // continuum.cu's three passes, slots in descending order
    ++mb.continuumSteps;
    std::vector<float> sx(n, -1), sy(n, -1), qx[2] = {std::vector<float>(n, -1), std::vector<float>(n, -1)},
                                         qy[2] = {std::vector<float>(n, -1), std::vector<float>(n, -1)};
    ContinuumSolve c;
    c.cv = continuumViewOf(d, reach, w.stepEnvelope(s, dt));
    c.sx = sx.data();
    c.sy = sy.data();
    for (int b = 0; b < 2; ++b) {
      c.qx[b] = qx[b].data();
      c.qy[b] = qy[b].data();
    }
    for (std::int32_t slot = n - 1; slot >= 0; --slot) continuumDesiredSlot(d, c, slot);
    for (int round = 0; round < kPushRounds; ++round)
      for (std::int32_t slot = n - 1; slot >= 0; --slot) continuumPushSlot(d, c, round, slot);
    for (std::int32_t slot = n - 1; slot >= 0; --slot) continuumStepSlot(d, c, slot);
    return;
  }
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
/// with the device form of the settings' model: kStepPlan's phases in
/// order, as the backend runs them.
void mirrorStep(World& w, const Settings& s, float dt, MirrorBackend& mb) {
  const auto n = static_cast<std::int32_t>(w.size());
  if (n == 0) {  // the backend's step on the host
    mirrorBringDown(mb.fields, w);
    stepCpu(w, s, dt, {});
    mb.fields.host.hostTookOver();
    return;
  }
  WorldView wv;
  std::vector<float> wishX(n), wishY(n), nvx(n), nvy(n);
  std::vector<std::uint8_t> landing(n), njammed(n);
  std::vector<float> ox, oy;  // where the walkers began the step, for the measure phase
  const auto phase = [&](StepPhase p) {
    switch (p) {
      case StepPhase::Fields:  // before the model's obstacle fit
        mirrorFieldsStep(mb.fields, w, s, w.version != mb.version);
        return;
      case StepPhase::Wishes: {
        wv = w.worldView();
        wv.field = mb.fields.routing();
        const WishParams wp = w.wishParams(s, dt);
        for (std::int32_t i = 0; i < n; ++i) {
          bool land;
          const Vec2 v = wishAt(wv, wp, i, land);
          wishX[i] = v.x; wishY[i] = v.y; landing[i] = land;
        }
        return;
      }
      case StepPhase::Pace: {
        const bool pace = paceTaken(s);
        if (!pace && w.ground.regions.empty()) return;
        // Over a grid of another shape than the CPU step's (ORCA's
        // neighbour grid): the headway does not depend on it.
        const MirrorGrid g = mirrorGrid(w, OrcaReference::grid(s));
        const PaceParams pp = w.paceParamsFor(s);
        const AgentGridView gv =
            gridViewOf(g.params, g.cellStart.data(), g.sortedIndex.data(), g.sx.data(), g.sy.data());
        for (std::int32_t i = n - 1; i >= 0; --i) {  // any order: read old, write new
          bool slowed;
          const Vec2 v = pacePhaseWish(w.ground.view(), w.view(), gv, pp, pace, i, Vec2{wishX[i], wishY[i]}, slowed);
          if (!slowed) continue;
          wishX[i] = v.x; wishY[i] = v.y; landing[i] = 0;
        }
        return;
      }
      case StepPhase::Solve:
        mirrorModelPhase(w, w.obstacles, &w.pool(s.threads), s, dt, mb, wishX.data(), wishY.data(), landing.data(), nvx.data(), nvy.data(),
                         njammed.data(), wv.field);
        return;
      case StepPhase::Integrate: {
        ox = w.px;
        oy = w.py;
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
        return;
      }
      case StepPhase::Measure: {
        // As the kernel adds into one tally and appends crossings in any
        // order: walkers met last to first.
        if (!w.measure.on()) return;
        MeasureTally tally(w.measure.series.measurements.size());
        std::vector<MeasureEvent> events(static_cast<std::size_t>(n) * tally.forward.size());
        ArrayMeasureSink sink = tally.sink(events);
        const MeasureShapesView v = w.measure.shapes.view();
        for (std::int32_t i = n - 1; i >= 0; --i) {
          sink.walker = i;
          measureWalker(v, ox[i], oy[i], w.px[i], w.py[i], w.vx[i], w.vy[i], sink);
        }
        events.resize(sink.found);
        w.measure.record(tally, events, w.id.data(), w.step, w.time, dt);
        return;
      }
    }
  };
  for (const StepPhaseEntry& entry : kStepPlan) phase(entry.phase);
  // The host reads the state after every step here (stateHash): pull()
  // brings the fields down with it.
  if (mb.bringDownEachStep) mirrorBringDown(mb.fields, w);
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
  if (w.measure.on()) w.measure.series.time.back() = w.time;  // as Crowd::advance stamps the row
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

/// A model's device form inside the CPU pipeline, for scenes a SceneRun
/// drives (sources and sinks edit the crowd between steps): the solve phase as
/// mirrorModelPhase runs it, with the step's shared wishes and fields (the
/// CPU's, which the tests above hold equal to the device's wishAt and
/// the fields phase). Registered as "NAME-device-mirror" for BioCrowds and Continuum
/// Crowds (the latter reads the fields, as Continuum Crowds' entry says).
class DeviceMirrorModel final : public Model {
 public:
  DeviceMirrorModel(std::string name, std::string real) : name_(std::move(name)), real_(std::move(real)) {}
  std::string_view name() const override { return name_; }
  void solve(StepContext& ctx) override {
    const World& w = ctx.state;
    if (w.size() > 0) {  // the backend's step ends before the model's share with no walkers
      Settings s = ctx.settings;
      s.model = real_;
      StepBuffers& b = ctx.scratch.buffers;
      mirrorModelPhase(w, ctx.obstacles, w.pool(), s, ctx.dt, mb, b.wishX.data(), b.wishY.data(), b.landing.data(), b.nvx.data(),
                       b.nvy.data(), b.njammed.data(), w.fields.routing());
    }
    mb.version = w.version + 1;  // Crowd::advance bumps it after the step
  }
  void explain(StepContext&, std::size_t, AgentExplain&) override {}
  void resume() override { mb.version = ~std::uint64_t{0}; }
  MirrorBackend mb;

 private:
  std::string name_, real_;
};
constexpr const char* kBioMirror = "biocrowds-device-mirror";
constexpr const char* kContinuumMirror = "continuum-device-mirror";

void registerDeviceMirrors() {
  registerModel({kBioMirror, "BioCrowds' device form run on the host (tests)", OverlapPromise{kBioOverlap, kBioOverlap},
                 "as biocrowds", [] { return std::unique_ptr<Model>(new DeviceMirrorModel(kBioMirror, BioCrowdsModel::kName)); },
                 /*ownPace=*/true});
  registerModel({kContinuumMirror, "Continuum Crowds' device form run on the host (tests)",
                 OverlapPromise{kContinuumOverlap, kContinuumOverlap}, "as continuum",
                 [] { return std::unique_ptr<Model>(new DeviceMirrorModel(kContinuumMirror, ContinuumModel::kName)); },
                 /*ownPace=*/false, /*readsFields=*/true});
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
    w.scratch.grid.build(w.px.data(), w.py.data(), w.size(), s.perceptionRadius, s.maxNeighbors, nullptr);
    const MirrorGrid g = mirrorGrid(w, OrcaReference::grid(s));
    const AgentGrid& sc = w.scratch.grid;
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
  // walkers with goals of their own at a time take goalWishesBatch.
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
      differ += bitsOf(w.scratch.buffers.wishX[i]) != bitsOf(wx[i]) || bitsOf(w.scratch.buffers.wishY[i]) != bitsOf(wy[i]) ||
                w.scratch.buffers.landing[i] != land[i];
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

TEST_CASE("measurements: the host mirror's tally and crossings are the CPU step's, bit for bit") {
  // Lines across the crowd's box both ways and an area over its middle.
  const auto measure = [](Crowd& c) {
    const FrameView f = c.frame();
    float x0 = f.px[0], x1 = x0, y0 = f.py[0], y1 = y0;
    for (std::size_t i = 0; i < f.px.size(); ++i) {
      x0 = std::min(x0, f.px[i]), x1 = std::max(x1, f.px[i]);
      y0 = std::min(y0, f.py[i]), y1 = std::max(y1, f.py[i]);
    }
    const float mx = (x0 + x1) / 2, my = (y0 + y1) / 2, w = x1 - x0, h = y1 - y0;
    c.addMeasurement({"across", MeasureKind::Line, {{mx, y0 - h}, {mx, y1 + h}}});
    c.addMeasurement({"along", MeasureKind::Line, {{x1 + w, my}, {x0 - w, my}}});
    c.addMeasurement({"quarter", MeasureKind::Line, {{x0 + w / 4, y0}, {x0 + w / 4, my}}});
    c.addMeasurement({"middle", MeasureKind::Area, {{mx - w / 4, my - h / 4}, {mx + w / 4, my - h / 4},
                                                    {mx + w / 4, my + h / 4}, {mx - w / 4, my + h / 4}}});
  };
  struct Case {
    const char* name;
    void (*build)(Crowd&);
  };
  for (const Case& cs : {Case{"door", [](Crowd& c) { gpuscenes::door(c); }},
                         Case{"crossing", [](Crowd& c) { gpuscenes::crossing(c); }}}) {
    const std::string name = cs.name;
    const auto build = cs.build;
    CAPTURE(name);
    Crowd cpu, mirror;
    MirrorBackend mb;
    build(cpu);
    build(mirror);
    measure(cpu);
    measure(mirror);
    cpu.settings.threads = 2;
    CHECK(firstDivergence(cpu, mirror, 300, mb) == -1);
    const MeasureSeries &a = cpu.measurements(), &b = mirror.measurements();
    REQUIRE(a.steps() == 300);
    REQUIRE(b.steps() == 300);
    CHECK(a.time == b.time);
    std::size_t crossed = 0, inside = 0;
    for (std::size_t k = 0; k < a.samples.size(); ++k) {
      CHECK(a.samples[k].forward == b.samples[k].forward);
      CHECK(a.samples[k].backward == b.samples[k].backward);
      CHECK(a.samples[k].inside == b.samples[k].inside);
      CHECK(bitsOf(a.samples[k].meanSpeed) == bitsOf(b.samples[k].meanSpeed));
      inside += a.samples[k].inside;
    }
    REQUIRE(a.crossings.size() == b.crossings.size());
    for (std::size_t k = 0; k < a.crossings.size(); ++k) {
      CHECK(a.crossings[k].id == b.crossings[k].id);
      CHECK(a.crossings[k].measurement == b.crossings[k].measurement);
      CHECK(a.crossings[k].direction == b.crossings[k].direction);
      CHECK(bitsOf(a.crossings[k].time) == bitsOf(b.crossings[k].time));
      ++crossed;
    }
    MESSAGE(name << ": " << crossed << " crossings, " << inside << " walker-steps in the area");
    CHECK(crossed > 0);  // the comparison compared something
    CHECK(inside > 0);
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
    StepContext ctx{w, w.scratch, w.obstacles, s, dt};
    cpu.prepare(ctx);
    // The agent grid: the CPU's (BioCrowdsModel::grid).
    const MirrorGrid g = mirrorGrid(w, BioCrowdsModel::grid(s));
    CHECK(bitsOf(g.params.invCell) == bitsOf(w.scratch.grid.shape.invCell));
    CHECK(bitsOf(g.params.invRow) == bitsOf(w.scratch.grid.shape.invRow));
    CHECK(g.params.cols == w.scratch.grid.shape.cols);
    CHECK(g.params.rows == w.scratch.grid.shape.rows);
    CHECK(g.cellStart == w.scratch.grid.cellStart);
    CHECK(g.sortedIndex == w.scratch.grid.sortedIndex);
    // The obstacle grid: already fitted to the reach the device form asks for.
    if (walls) CHECK_FALSE(w.obstacles.fitToReach(BioCrowdsModel::obstacleReach(s)));
    // The host side from the host's positions (an upload), then the owners
    // cell by cell: the CPU's, marker for marker.
    MirrorBackend mb;
    mb.model = s.model;
    mb.bio = std::make_unique<BioDeviceHost>();
    DeviceHost h;
    h.world = &w;
    h.pool = &w.pool(s.threads);
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
  registerDeviceMirrors();
  struct Case {
    const char* scene;
    int steps;
  };
  for (const Case cs : {Case{"door", 600}, Case{"corridor", 600}}) {
    const std::string scene = cs.scene;
    CAPTURE(scene);
    const Scene sc = shippedScene(cs.scene, {"model=biocrowds", "threads=2"});
    SceneRun cpu(sc), mirror(sc);
    mirror.crowd().settings.model = kBioMirror;
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
    const auto* model = dynamic_cast<const DeviceMirrorModel*>(std::as_const(mirror.crowd()).world().model.get());
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

// ---- the fields and Continuum Crowds (device_fields.hpp, field_refresh.cu,
// models/continuum/continuum_slot.hpp) ---------------------------------------------------

namespace {

template <class T>
bool sameBits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

/// Everything a refresh builds, compared bit for bit; the first difference
/// is printed.
bool sameFields(const FieldState& a, const FieldState& b) {
  const auto say = [](const std::string& what) {
    MESSAGE("the fields differ in " << what);
    return false;
  };
  if (a.grid.cols != b.grid.cols || a.grid.rows != b.grid.rows || bitsOf(a.grid.cell) != bitsOf(b.grid.cell) ||
      bitsOf(a.grid.origin.x) != bitsOf(b.grid.origin.x) || bitsOf(a.grid.origin.y) != bitsOf(b.grid.origin.y) ||
      bitsOf(a.grid.invCell) != bitsOf(b.grid.invCell))
    return say("the grid");
  if (a.built != b.built || a.refreshStep != b.refreshStep) return say("built or refreshStep");
  if (!sameBits(a.blocked, b.blocked) || !sameBits(a.open, b.open) || !sameBits(a.height, b.height) ||
      !sameBits(a.discomfort, b.discomfort) || !sameBits(a.groundFactor, b.groundFactor) ||
      !sameBits(a.groundLimit, b.groundLimit) || a.goalStart != b.goalStart || a.goalCells != b.goalCells)
    return say("the fixed parts");
  if (!sameBits(a.density, b.density)) return say("density");
  if (!sameBits(a.velocityX, b.velocityX) || !sameBits(a.velocityY, b.velocityY)) return say("velocity");
  if (!sameBits(a.speed, b.speed)) return say("speed");
  if (!sameBits(a.cost, b.cost)) return say("cost");
  if (a.potentialOf != b.potentialOf) return say("potentialOf");
  if (!sameBits(a.potentials, b.potentials)) return say("potentials");
  if (bitsOf(a.params.fmax) != bitsOf(b.params.fmax)) return say("fmax");
  return true;
}

/// The fields' scenes, by name.
using Build = std::function<void(Crowd&)>;
Build fieldScene(const char* model, bool crossing, int fieldInterval = 4, float jitter = 0.05f) {
  return [=](Crowd& c) {
    c.settings = gpuscenes::fieldSettings(model);
    c.settings.fieldInterval = fieldInterval;
    c.settings.jitter = jitter;
    if (crossing) gpuscenes::fieldCrossing(c);
    else gpuscenes::fieldRoom(c);
  };
}

/// Walkers of group g within their target's region (x0, y0, w, h) or past it along x.
std::size_t inRegion(const Crowd& c, Rect r) {
  std::size_t k = 0;
  for (std::size_t i = 0; i < c.count(); ++i) {
    const Vec2 p = c.agent(i).position;
    k += p.x >= r.x && p.x <= r.x + r.width && p.y >= r.y && p.y <= r.y + r.height;
  }
  return k;
}

}  // namespace

TEST_CASE("fields: the device's box gives chooseFieldGrid's grid (non-finite walkers skipped, both zeros)") {
  Crowd c(gpuscenes::fieldSettings("continuum"));
  gpuscenes::fieldRoom(c, 3, 4);
  c.add(Vec2{-0.0f, 3}, std::nullopt, 0.4f);  // the largest radius: it sets the cell
  World& w = c.world();
  const Settings s = sanitized(c.settings);
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  struct Poke {
    const char* what;
    float x, y;
  };
  for (const Poke pk : {Poke{"as placed", 2, 3}, Poke{"one far east", 300, 3}, Poke{"one at +inf", inf, 3},
                        Poke{"one at NaN", 5, nan}, Poke{"one at -0", -0.0f, -0.0f}, Poke{"one far south-west", -77.5f, -1e4f}}) {
    CAPTURE(pk.what);
    w.px[0] = pk.x;
    w.py[0] = pk.y;
    std::uint32_t keys[4] = {0xFFFFFFFFu, 0xFFFFFFFFu, 0u, 0u};
    for (std::int32_t i = 0; i < static_cast<std::int32_t>(w.size()); ++i) {
      std::uint32_t kx, ky;
      if (!fieldBoundsKeys(w.px.data(), w.py.data(), i, kx, ky)) continue;
      keys[0] = std::min(keys[0], kx); keys[1] = std::min(keys[1], ky);
      keys[2] = std::max(keys[2], kx); keys[3] = std::max(keys[3], ky);
    }
    float largest = 0;
    for (const float r : w.radius) largest = std::max(largest, r);
    const FieldGridView a = fieldGridFor(s, fieldBoxOfKeys(keys), largest, w);
    const FieldGridView b = chooseFieldGrid(s, w.fieldWalkers(), w.obstacles, w.terrain);
    CHECK(a.cols == b.cols);
    CHECK(a.rows == b.rows);
    CHECK(bitsOf(a.cell) == bitsOf(b.cell));
    CHECK(bitsOf(a.origin.x) == bitsOf(b.origin.x));
    CHECK(bitsOf(a.origin.y) == bitsOf(b.origin.y));
  }
  // No finite walker at all: the box of the geometry and targets alone.
  for (std::size_t i = 0; i < w.size(); ++i) w.px[i] = nan;
  std::uint32_t none[4] = {0xFFFFFFFFu, 0xFFFFFFFFu, 0u, 0u};
  CHECK_FALSE(fieldBoxOfKeys(none).any);
  const FieldGridView a = fieldGridFor(s, fieldBoxOfKeys(none), 0.4f, w);
  const FieldGridView b = chooseFieldGrid(s, w.fieldWalkers(), w.obstacles, w.terrain);
  CHECK(a.cols == b.cols);
  CHECK(bitsOf(a.origin.x) == bitsOf(b.origin.x));
}

TEST_CASE("fields: the splat's device form (a thread a walker, integer sums) equals splatDensity") {
  for (const int n : {1, 37, 5000}) {
    CAPTURE(n);
    gpuscenes::Lcg g(static_cast<std::uint64_t>(n));
    std::vector<float> px, py, vx, vy, radius(n, 0.25f), speed(n, 1.3f), pref(n, 0.0f);
    std::vector<std::int32_t> group(n, 0), route(n, -1);
    for (int i = 0; i < n; ++i) {
      // some off the grid's edge and beyond it
      px.push_back(-3.0f + 46.0f * g.next());
      py.push_back(-2.0f + 30.0f * g.next());
      vx.push_back(3.0f * g.next() - 1.5f);
      vy.push_back(3.0f * g.next() - 1.5f);
    }
    FieldWalkers fw{px.data(), py.data(), vx.data(), vy.data(), radius.data(), speed.data(), pref.data(),
                    group.data(), route.data(), static_cast<std::size_t>(n)};
    for (const float lambda : {1.5f, 0.0f, 3.3f}) {
      CAPTURE(lambda);
      Settings s;
      s.densityExponent = lambda;
      FieldState f;
      f.grid.origin = {0, 0};
      f.grid.cell = 1.25f;
      f.grid.invCell = 1.0f / 1.25f;
      f.grid.cols = 32;
      f.grid.rows = 21;
      ThreadPool pool(3);
      splatDensity(f, s, fw, &pool);
      const std::size_t cells = f.cells();
      std::vector<std::int64_t> sums(3 * cells, 0);
      const FieldSumsView sv{sums.data(), sums.data() + cells, sums.data() + 2 * cells};
      for (int i = n - 1; i >= 0; --i)
        splatWalker(f.grid, latticeExponent(lambda), px.data(), py.data(), vx.data(), vy.data(), i, sv);
      std::vector<float> d(cells), mx(cells), my(cells);
      for (std::int32_t c = static_cast<std::int32_t>(cells) - 1; c >= 0; --c) flowCell(sv, c, d.data(), mx.data(), my.data());
      CHECK(sameBits(d, f.density));
      CHECK(sameBits(mx, f.velocityX));
      CHECK(sameBits(my, f.velocityY));
      if (n > 1) CHECK(*std::max_element(d.begin(), d.end()) > 0.0f);
    }
  }
}

TEST_CASE("fields: the tiled solve's device form equals solvePotential bit for bit on random cost fields") {
  struct Case {
    std::int32_t cols, rows;
    int goals;
    float blockedShare, closedShare;
  };
  int inPlaceDiffer = 0, cases = 0;
  for (const Case cs : {Case{8, 8, 1, 0, 0}, Case{1, 1, 1, 0, 0}, Case{37, 23, 2, 0.1f, 0.05f}, Case{64, 64, 1, 0.2f, 0.1f},
                        Case{100, 75, 5, 0.05f, 0.02f}, Case{130, 70, 3, 0.3f, 0.0f}, Case{17, 129, 1, 0.1f, 0.1f},
                        Case{256, 200, 2, 0.15f, 0.05f}}) {
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      CAPTURE(cs.cols);
      CAPTURE(cs.rows);
      CAPTURE(seed);
      gpuscenes::Lcg g(seed * 1000 + static_cast<std::uint64_t>(cs.cols));
      FieldGridView grid;
      grid.cols = cs.cols;
      grid.rows = cs.rows;
      grid.cell = 0.5f + g.next();
      grid.invCell = 1.0f / grid.cell;
      const std::size_t cells = static_cast<std::size_t>(cs.cols) * static_cast<std::size_t>(cs.rows);
      std::vector<float> cost(4 * cells);
      std::vector<std::uint8_t> blocked(cells);
      for (std::size_t c = 0; c < cells; ++c) {
        blocked[c] = g.next() < cs.blockedShare;
        for (int d = 0; d < 4; ++d)
          cost[4 * c + d] = g.next() < cs.closedShare ? fieldInfinity() : 0.5f + 4.0f * g.next() * g.next();
      }
      std::vector<std::int32_t> goals;
      for (int k = 0; k < cs.goals; ++k) {
        const auto c = static_cast<std::int32_t>(g.next() * static_cast<float>(cells)) % static_cast<std::int32_t>(cells);
        blocked[static_cast<std::size_t>(c)] = 0;
        if (std::find(goals.begin(), goals.end(), c) == goals.end()) goals.push_back(c);
      }
      std::sort(goals.begin(), goals.end());
      std::vector<float> want(cells), got(cells), inPlace(cells);
      ThreadPool pool(2);
      const int rounds = solvePotential(grid, cost.data(), blocked.data(), goals.data(), goals.size(), want.data(), &pool);
      const int mine = mirrorSolve(grid, cost.data(), blocked.data(), goals.data(), goals.size(), got.data());
      CHECK(mine == rounds);
      std::size_t differ = 0, finite = 0;
      for (std::size_t c = 0; c < cells; ++c) {
        differ += bitsOf(want[c]) != bitsOf(got[c]);
        finite += want[c] < fieldInfinity();
      }
      CHECK(differ == 0);
      CHECK(finite > 0);
      // The counterfactual: one buffer, so a tile reads what its neighbours
      // wrote in the same round (in whatever order they ran).
      mirrorSolve(grid, cost.data(), blocked.data(), goals.data(), goals.size(), inPlace.data(), true);
      inPlaceDiffer += !sameBits(inPlace, want);
      ++cases;
    }
  }
  MESSAGE("a single buffer gives other bits in " << inPlaceDiffer << " of " << cases << " cases");
  CHECK(inPlaceDiffer > 0);
}

TEST_CASE("fields: a refresh's device form equals refreshFields (density, speed, cost, potentials)") {
  for (const bool crossing : {false, true}) {
    CAPTURE(crossing);
    Crowd c;
    fieldScene("continuum", crossing)(c);
    for (int k = 0; k < 40; ++k) c.advance(0.05);  // the crowd moving, velocities set
    World& w = c.world();
    const Settings s = sanitized(c.settings);
    FieldState cpu;
    if (!w.obstacles.vertices.empty() && w.obstacles.cols == 0) w.obstacles.fitToReach(w.obstacleReach(s));
    refreshFields(cpu, s, w.fieldWalkers(), w.obstacles, w.terrainVersion, w.terrain, w.step, &w.pool(2));
    w.fields.clear();
    MirrorFields m;
    mirrorFieldsStep(m, w, s, true);
    CHECK(m.refreshes == 1);
    CHECK(m.staticsUploads == 1);
    mirrorBringDown(m, w);
    CHECK(sameFields(w.fields, cpu));
    CHECK(cpu.potentials.size() == (crossing ? 2u : 1u) * cpu.cells());
    // Moved on, the next refresh keeps the fixed parts on the device.
    w.step += 4;
    for (std::size_t i = 0; i < w.size(); ++i) w.px[i] += 0.01f;
    refreshFields(cpu, s, w.fieldWalkers(), w.obstacles, w.terrainVersion, w.terrain, w.step, nullptr);
    mirrorFieldsStep(m, w, s, true);
    mirrorBringDown(m, w);
    CHECK(m.refreshes == 2);
    CHECK(m.staticsUploads == 1);
    CHECK(sameFields(w.fields, cpu));
  }
}

TEST_CASE("fields: the host mirror of the device step equals the CPU step: continuum, and ORCA and BioCrowds under field routing") {
  struct Case {
    const char* name;
    int steps;
    Build build;
  };
  const Case cases[] = {
      {"continuum: a room with a door", 500, fieldScene("continuum", false)},
      {"continuum: two groups crossing, a block and a hill", 500, fieldScene("continuum", true)},
      {"continuum: the room, refreshed every step, jitter 0", 300, fieldScene("continuum", false, 1, 0)},
      {"continuum: the crossing, refreshed every 3rd step", 300, fieldScene("continuum", true, 3)},
      {"orca, routing = field: the room", 400, fieldScene("orca", false)},
      {"biocrowds, routing = field: the room", 300, fieldScene("biocrowds", false)},
      {"orca, routing = field: the crossing", 300, fieldScene("orca", true)},
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
    const int divergence = firstDivergence(cpu, mirror, cs.steps, mb, 0.05);
    CHECK(divergence == -1);
    CHECK(sameFields(std::as_const(cpu).world().fields, std::as_const(mirror).world().fields));
    const double perWalker = moved(cpu, start) / static_cast<double>(start.size());
    const int interval = cpu.settings.fieldInterval;
    MESSAGE(name << ": " << perWalker << " m a walker in " << cs.steps * 0.05 << " s, "
                 << inRegion(cpu, Rect{21, 0, 20, 40}) << " of " << cpu.count() << " east of x = 21, "
                 << mb.fields.refreshes << " refreshes on the device form, rounds per solve " << mb.fields.rounds.front()
                 << " .. " << *std::max_element(mb.fields.rounds.begin(), mb.fields.rounds.end()) << ", "
                 << cpu.lastStats().jammed << " jammed at the end");
    CHECK(mb.fields.refreshes == static_cast<std::size_t>((cs.steps + interval - 1) / interval));
    CHECK(mb.fields.uploads == 0);
    CHECK(perWalker > 0.25 * cs.steps * 0.05 * 1.3);
    if (std::string(cs.name).rfind("continuum", 0) == 0) CHECK(mb.continuumSteps == static_cast<std::size_t>(cs.steps));
  }
}

TEST_CASE("ground: with a speed zone and stairs the host mirror of the device step equals the CPU step, each model") {
  // The room's walkers cross a slow zone and a flight on their way east;
  // under routing = field the cost sees both.
  const auto ground = [](Crowd& c) {
    Terrain t = c.terrain();
    t.speedZones.push_back({{{6, 0}, {12, 0}, {12, 20}, {6, 20}}, 0.5f});
    t.stairs.push_back({{{14, 2}, {20, 2}, {20, 18}, {14, 18}}, Vec2{1, 0.5f}, 0.61f, 0.694f});
    c.setTerrain(t);
  };
  for (const char* model : {"continuum", "orca", "biocrowds"}) {
    CAPTURE(model);
    Crowd cpu, mirror;
    MirrorBackend mb;
    for (Crowd* c : {&cpu, &mirror}) {
      fieldScene(model, false)(*c);
      ground(*c);
    }
    const std::vector<Vec2> start = positionsOf(cpu);
    CHECK(firstDivergence(cpu, mirror, 300, mb, 0.05) == -1);
    CHECK(sameFields(std::as_const(cpu).world().fields, std::as_const(mirror).world().fields));
    CHECK(moved(cpu, start) > 0);
    // The ground is in the run: without it the same steps end elsewhere.
    Crowd flat;
    fieldScene(model, false)(flat);
    for (int k = 0; k < 300; ++k) flat.advance(0.05);
    CHECK(flat.stateHash() != cpu.stateHash());
  }
}

TEST_CASE("fields: the mirror follows edits, terrain, routing and model switches as the CPU does") {
  Crowd cpu, mirror;
  MirrorBackend mb;
  fieldScene("continuum", false)(cpu);
  fieldScene("continuum", false)(mirror);
  const auto both = [&](const std::function<void(Crowd&)>& f) {
    f(cpu);
    f(mirror);
  };
  CHECK(firstDivergence(cpu, mirror, 37, mb, 0.05) == -1);  // ends between refreshes
  both([](Crowd& c) {
    Agent a = c.agent(3);
    a.position = a.position + Vec2{1.5f, 0.5f};
    c.setAgent(3, a);
    c.add(Vec2{12, 12}, Vec2{27, 8}, 0.3f, 1.6f, 0);
    c.removeAgents([](const Agent& x) { return x.position.x < 3; });
  });
  CHECK(firstDivergence(cpu, mirror, 30, mb, 0.05) == -1);
  both([](Crowd& c) {
    c.addObstacle(Rect{10, 4, 1, 1});
    c.settings.costDiscomfort = 4;
    c.settings.densityMax = 2.5f;
  });
  CHECK(firstDivergence(cpu, mirror, 30, mb, 0.05) == -1);
  both([](Crowd& c) {  // a new ground between refreshes: the next step refreshes
    Terrain t = c.terrain();
    t.targets.push_back({"back", {Rect{1, 1, 2, 2}}, {1}, -1});
    t.hills.push_back({Vec2{8, 8}, 3, 1});
    c.setTerrain(t);
  });
  CHECK(firstDivergence(cpu, mirror, 30, mb, 0.05) == -1);
  const std::size_t refreshes = mb.fields.refreshes;
  both([](Crowd& c) { c.setModel("orca"); });  // routing stays field
  CHECK(firstDivergence(cpu, mirror, 30, mb, 0.05) == -1);
  both([](Crowd& c) { c.settings.routing = "goals"; });  // no fields at all
  CHECK(firstDivergence(cpu, mirror, 20, mb, 0.05) == -1);
  CHECK_FALSE(std::as_const(mirror).world().fields.built);
  CHECK(mb.fields.routing().grid.cols == 0);
  both([](Crowd& c) { c.setModel("biocrowds"); c.settings.routing = "field"; });
  CHECK(firstDivergence(cpu, mirror, 30, mb, 0.05) == -1);
  both([](Crowd& c) { c.setModel("continuum"); c.settings.fieldInterval = 2; c.settings.fieldCell = 0.7f; });
  CHECK(firstDivergence(cpu, mirror, 41, mb, 0.05) == -1);
  CHECK(mb.fields.refreshes > refreshes + 20);
  CHECK(mb.fields.staticsUploads >= 4);  // the obstacle, the terrain, the cell, after the routing's gap
  CHECK(mb.fields.uploads == 0);
  CHECK(sameFields(std::as_const(cpu).world().fields, std::as_const(mirror).world().fields));
}

TEST_CASE("fields: switching between the CPU and the device form between refreshes keeps the run") {
  for (const char* model : {"continuum", "orca"}) {
    CAPTURE(model);
    Crowd one, two;
    fieldScene(model, true)(one);
    fieldScene(model, true)(two);
    // `two` alternates: the CPU, then a fresh device form (a new backend,
    // which must take the host's fields), and back (after a pull).
    std::unique_ptr<MirrorBackend> mb;
    std::size_t uploads = 0, refreshes = 0;
    for (int k = 0; k < 200; ++k) {
      if (k % 30 == 7) {  // a switch three steps after a refresh
        if (mb) {
          mirrorBringDown(mb->fields, const_cast<World&>(std::as_const(two).world()));  // setBackend's pull
          uploads += mb->fields.uploads;
          refreshes += mb->fields.refreshes;
          mb.reset();
        } else {
          mb = std::make_unique<MirrorBackend>();
          mb->bringDownEachStep = false;  // brought down only when the host reads (here: at the switch)
        }
      }
      one.advance(0.05);
      if (mb) mirrorAdvance(two, *mb, 0.05);
      else two.advance(0.05);
      REQUIRE(one.stateHash() == two.stateHash());
    }
    REQUIRE(mb);  // it ends on the device form: the host reads the fields (a pull)
    mirrorBringDown(mb->fields, const_cast<World&>(std::as_const(two).world()));
    uploads += mb->fields.uploads;
    refreshes += mb->fields.refreshes;
    CHECK(uploads >= 4);
    CHECK(refreshes >= 3 * 7 + 3);
    CHECK(sameFields(std::as_const(one).world().fields, std::as_const(two).world().fields));
  }
  // The counterfactual: a device that refreshes on its first step instead
  // of taking the host's fields walks another way.
  Crowd one, two;
  fieldScene("continuum", true)(one);
  fieldScene("continuum", true)(two);
  for (int k = 0; k < 30; ++k) {
    one.advance(0.05);
    two.advance(0.05);
  }
  MirrorBackend mb;
  const_cast<World&>(std::as_const(two).world()).fields.clear();
  CHECK(firstDivergence(one, two, 40, mb, 0.05) != -1);
}

TEST_CASE("fields: a crowd that empties and fills again steps alike through the device form") {
  Crowd cpu, mirror;
  MirrorBackend mb;
  fieldScene("continuum", false)(cpu);
  fieldScene("continuum", false)(mirror);
  CHECK(firstDivergence(cpu, mirror, 10, mb, 0.05) == -1);
  for (Crowd* c : {&cpu, &mirror}) c->removeAgents([](const Agent&) { return true; });
  CHECK(firstDivergence(cpu, mirror, 6, mb, 0.05) == -1);
  for (Crowd* c : {&cpu, &mirror})
    for (int k = 0; k < 12; ++k) c->add(Vec2{3.0f + k, 5}, Vec2{27, 8}, 0.25f, 1.3f, 0);
  CHECK(firstDivergence(cpu, mirror, 60, mb, 0.05) == -1);
  CHECK(mb.fields.uploads >= 1);  // the host's fields, built with nobody there
}

TEST_CASE("fields: the shipped door and evacuation scenes under continuum step alike through the device form") {
  registerDeviceMirrors();
  for (const std::string scene : {"door", "evacuation"}) {
    CAPTURE(scene);
    // The whole device form (the fields phase too) on the scene's walkers, SceneRun's
    // sources and sinks left out.
    const Scene sc = shippedScene(scene, {"model=continuum", "threads=2"});
    SceneRun a(sc), b(sc);
    MirrorBackend mb;
    CHECK(firstDivergence(a.crowd(), b.crowd(), 300, mb, sc.spec().settings.maxStep) == -1);
    CHECK(mb.fields.refreshes > 0);
    CHECK(mb.continuumSteps == 300);
    // The solve phase's device form inside SceneRun (sources, sinks), the CPU's fields.
    const Scene sf = shippedScene(scene, {"model=continuum", "routing=field", "threads=2"});
    SceneRun cpu(sf), mirror(sf);
    mirror.crowd().settings.model = kContinuumMirror;
    int divergence = -1;
    for (int k = 0; k < 600 && divergence < 0; ++k) {
      cpu.step();
      mirror.step();
      if (cpu.crowd().stateHash() != mirror.crowd().stateHash() || cpu.arrived() != mirror.arrived() ||
          cpu.crowd().lastStats().jammed != mirror.crowd().lastStats().jammed)
        divergence = k;
    }
    CHECK(divergence == -1);
    MESSAGE(scene << ": " << cpu.agentsEver() << " walkers in all, " << cpu.removed() << " left through the sinks");
    CHECK(cpu.removed() > 0);
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

#pragma once
// The fields phase on the device: the fields of Continuum Crowds (fields/), built by
// the CUDA backend with field_math.hpp's THRONG_HD functions and equal to
// the CPU's refreshFields bit for bit. This header holds what the kernels
// (field_refresh.cu) and the host mirror (tests/gpu/test_gpu_host.cpp) both
// run: the per-thread bodies, and the host side (DeviceFieldsHost) that
// decides when to refresh, upload or bring the fields down, and plans a
// refresh. No CUDA types here, so the mirror runs all of it on the CPU.
//
// Design note.
//  When. The CPU's rule (buildFields): while fieldsTaken(s), refresh when
//  none are built or w.step % fieldInterval == 0; else clear them. The
//  device keeps its own copy of the fields; `valid` says it holds what the
//  CPU's World::fields would hold now. The host's World::fields keeps the
//  fixed parts (fitted on the host), the parameters and which targets have
//  a potential; after a device refresh its other arrays are stale until
//  the backend brings them down (pull, Backend::fields, a switch to the
//  CPU). A host copy the device does not hold (built on the CPU before a
//  switch, or by the teaching view after setTerrain) goes up before the
//  step that reads it: a stamp of (refresh step, versions, grid) tells.
//  The grid. chooseFieldGrid reads the walkers' positions: the device
//  reduces their min and max exactly (order-preserving integer keys,
//  skipping a walker with a non-finite coordinate as the CPU's box does)
//  and the host waits for those 16 bytes (a refresh is a round trip; so is
//  the potential's stop rule), then calls chooseFieldGrid with two stand-in
//  walkers at the corners, which gives the same box: min and max are exact
//  and order-free, and the sign of a zero cannot move floor(x / tile).
//  The cell side reads the largest radius, kept from the last upload.
//  Fixed parts: fitFieldStatics on the host into World::fields, uploaded
//  when the grid, the geometry or the terrain changed.
//  Density: a thread per walker (splatWalker) adding 64-bit fixed-point
//  sums with integer atomics: the same sums as the CPU's fetch_add in any
//  order. Then a thread per cell for ρ and v̄ (flowCell), and one for the
//  speeds and costs (cellSpeedAndCost).
//  Potentials, per target in use (targetsInUse on the host's groups and
//  routes, kept from the last upload): the CPU's rounds exactly. Round r's
//  active tiles each take a block of kTile * kTile threads: the tile and
//  its halo from the round's read buffer into shared memory, the red-black
//  sweeps (a colour's cells never read each other, so the threads of one
//  colour update at once, and the sweep's "changed" is a block vote), at
//  most kTileSweeps, the cells written to the other buffer. A changed tile
//  queues itself and its four neighbours for round r + 1 (a stamp per tile
//  keeps each once); the set is the CPU's, its order is not, and no tile
//  reads what another writes in the same round. Two buffers take turns:
//  every tile of round r reads buffer (r - 1) & 1 and writes r & 1, and a
//  tile left out of round r did not change in round r - 1, so both buffers
//  hold its values; when a round queues nothing both buffers are equal and
//  hold the CPU's fixed point.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "base/thread_pool.hpp"
#include "core/world.hpp"
#include "device_step.hpp"
#include "fields/field_math.hpp"
#include "fields/fields.hpp"
#include "throng/hd.hpp"
#include "throng/settings.hpp"

namespace throng {

// ---- per-thread bodies -------------------------------------------------------

/// Whether x is finite (neither infinite nor NaN), as std::isfinite says.
THRONG_HD bool finiteValue(float x) { return x - x == 0.0f; }

/// The fixed-point sums of the density splat (FieldCellSums, one array each).
struct FieldSumsView {
  std::int64_t *rho = nullptr, *momentumX = nullptr, *momentumY = nullptr;
};

/// A 64-bit integer sum: an atomic add on the device (two's complement, so
/// the unsigned add is the signed one), a plain one in the host mirror.
THRONG_HD void fieldSumAdd(std::int64_t* at, std::int64_t v) {
#if defined(__CUDA_ARCH__)
  atomicAdd(reinterpret_cast<unsigned long long*>(at), static_cast<unsigned long long>(v));
#else
  *at += v;
#endif
}

/// Walker i's splat added to the sums (splatDensity's loop body).
THRONG_HD void splatWalker(const FieldGridView& g, std::int32_t lambdaQ, const float* px, const float* py,
                           const float* vx, const float* vy, std::int32_t i, const FieldSumsView& s) {
  const Splat sp = splatAt(g, Vec2{px[i], py[i]}, lambdaQ);
  for (int k = 0; k < 4; ++k) {
    if (sp.cell[k] < 0) continue;
    const std::int32_t c = sp.cell[k];
    fieldSumAdd(s.rho + c, toFixed(sp.weight[k], kDensityScale));
    fieldSumAdd(s.momentumX + c, toFixed(sp.weight[k] * vx[i], kMomentumScale));
    fieldSumAdd(s.momentumY + c, toFixed(sp.weight[k] * vy[i], kMomentumScale));
  }
}

/// Cell c's density and mean velocity from the sums (cellFlow).
THRONG_HD void flowCell(const FieldSumsView& s, std::int32_t c, float* density, float* velocityX, float* velocityY) {
  const FieldCellSums sums{s.rho[c], s.momentumX[c], s.momentumY[c]};
  const CellFlow f = cellFlow(sums);
  density[c] = f.density;
  velocityX[c] = f.velocity.x;
  velocityY[c] = f.velocity.y;
}

/// Walker i's part of the box the grid is chosen for: its position's
/// ordered keys into lo/hi (x, y), skipped when a coordinate is not finite
/// (as the CPU's box skips it). False when skipped.
THRONG_HD bool fieldBoundsKeys(const float* px, const float* py, std::int32_t i, std::uint32_t& kx, std::uint32_t& ky) {
  const float x = px[i], y = py[i];
  if (!finiteValue(x) || !finiteValue(y)) return false;
  std::uint32_t bx, by;
  __builtin_memcpy(&bx, &x, 4);
  __builtin_memcpy(&by, &y, 4);
  kx = cudastep::orderedKey(bx);
  ky = cudastep::orderedKey(by);
  return true;
}

/// One thread of a tile's block: its cell (lx, ly) = (tid % kTile, tid /
/// kTile), whether the tile holds it (clipped at the grid's edge), its
/// colour, step costs and whether it is fixed.
struct TileThread {
  std::int32_t lx = 0, ly = 0, cell = -1;
  int colour = -1;  ///< (x + y) & 1; -1 outside the tile
  bool fixed = true;
  float hc[4] = {0, 0, 0, 0};
};
THRONG_HD TileThread tileThreadOf(const TileInputs& in, const TileBox& b, int tid) {
  TileThread t;
  t.lx = tid % kTile;
  t.ly = tid / kTile;
  if (!(t.lx < b.w && t.ly < b.h)) return t;
  const FieldGridView& g = in.grid;
  const std::int32_t x = b.x0 + t.lx, y = b.y0 + t.ly;
  const std::int32_t c = y * g.cols + x;
  t.cell = c;
  t.colour = (x + y) & 1;
  for (int d = 0; d < 4; ++d) t.hc[d] = g.cell * in.cost[4 * c + d];
  t.fixed = in.blocked[c] || in.goal[c];
  return t;
}
/// The value of slot `slot` of a tile's working copy (kTileSpan^2 slots,
/// the halo included) as solveTile loads it from the round's values `cur`.
THRONG_HD float tileHaloValue(const FieldGridView& g, const TileBox& b, const float* cur, int slot) {
  const int lx = slot % kTileSpan - 1, ly = slot / kTileSpan - 1;
  const std::int32_t x = b.x0 + lx, y = b.y0 + ly;
  const bool inside = lx <= b.w && ly <= b.h && x >= 0 && y >= 0 && x < g.cols && y < g.rows;
  return inside ? cur[y * g.cols + x] : fieldInfinity();
}
/// The thread's share of colour `colour`'s half-sweep (tileCellUpdate).
THRONG_HD bool tileThreadSweep(float* local, const TileThread& t, int colour) {
  if (t.colour != colour) return false;
  return tileCellUpdate(local, t.lx, t.ly, t.hc, t.fixed);
}
/// The thread's cell written to `next`; true when it differs from `cur`.
THRONG_HD bool tileThreadStore(const float* cur, float* next, const TileThread& t, const float* local) {
  if (t.cell < 0) return false;
  const float v = local[tileSlot(t.lx, t.ly)];
  next[t.cell] = v;
  return v != cur[t.cell];
}

/// The rounds' queues: round r's tiles in lists[(r & 1) * tiles + k] for k
/// below counts[r % 3]; stamp[t], the last round t was queued for (0: none).
struct TileQueue {
  std::int32_t* stamp = nullptr;
  std::int32_t* lists = nullptr;   ///< 2 * tiles
  std::int32_t* counts = nullptr;  ///< 3
  std::int32_t tiles = 0, tcols = 0, trows = 0;
};
/// Queues tile t for round `round` unless it already is.
THRONG_HD void queueTile(const TileQueue& q, std::int32_t t, std::int32_t round) {
#if defined(__CUDA_ARCH__)
  if (atomicMax(q.stamp + t, round) >= round) return;
  const std::int32_t k = atomicAdd(q.counts + round % 3, 1);
#else
  if (q.stamp[t] >= round) return;
  q.stamp[t] = round;
  const std::int32_t k = q.counts[round % 3]++;
#endif
  q.lists[static_cast<std::int64_t>(round & 1) * q.tiles + k] = t;
}
/// Tile t and its four neighbours, for round `round` (solvePotential's activateAround).
THRONG_HD void queueAround(const TileQueue& q, std::int32_t t, std::int32_t round) {
  const std::int32_t tx = t % q.tcols, ty = t / q.tcols;
  queueTile(q, t, round);
  if (tx > 0) queueTile(q, t - 1, round);
  if (tx + 1 < q.tcols) queueTile(q, t + 1, round);
  if (ty > 0) queueTile(q, t - q.tcols, round);
  if (ty + 1 < q.trows) queueTile(q, t + q.tcols, round);
}
/// The tile that holds cell c.
THRONG_HD std::int32_t tileOfCell(const FieldGridView& g, std::int32_t c) {
  return ((c / g.cols) / kTile) * tilesAcross(g.cols) + (c % g.cols) / kTile;
}

// ---- the host side -------------------------------------------------------------

/// The walkers' box at a refresh, as the device reduced it: `any` false
/// when no walker has a finite position.
struct FieldBox {
  bool any = false;
  Vec2 lo, hi;
};

/// The box from the reduced keys (minX, minY, maxX, maxY).
inline FieldBox fieldBoxOfKeys(const std::uint32_t keys[4]) {
  FieldBox b;
  b.any = keys[0] <= keys[2];
  if (!b.any) return b;
  float v[4];
  for (int k = 0; k < 4; ++k) {
    const std::uint32_t bits = cudastep::floatBitsOfKey(keys[k]);
    __builtin_memcpy(&v[k], &bits, 4);
  }
  b.lo = Vec2{v[0], v[1]};
  b.hi = Vec2{v[2], v[3]};
  return b;
}

/// chooseFieldGrid for walkers inside `box` whose largest radius is
/// `largestRadius`: two stand-in walkers at its corners (none: at NaN,
/// which the box skips) give the same grid.
inline FieldGridView fieldGridFor(const Settings& s, const FieldBox& box, float largestRadius, const World& w) {
  const float nan = __builtin_nanf("");
  const float px[2] = {box.any ? box.lo.x : nan, box.any ? box.hi.x : nan};
  const float py[2] = {box.any ? box.lo.y : nan, box.any ? box.hi.y : nan};
  const float radius[2] = {largestRadius, largestRadius};
  FieldWalkers fw;
  fw.px = px;
  fw.py = py;
  fw.radius = radius;
  fw.count = 2;
  return chooseFieldGrid(s, fw, w.obstacles, w.terrain);
}

/// What identifies a FieldState's contents between the host and the device.
struct FieldStamp {
  bool built = false;
  std::uint64_t refreshStep = 0, geometryVersion = 0, terrainVersion = 0;
  std::int32_t cols = 0, rows = 0;
  float cell = 0, ox = 0, oy = 0;
  std::size_t potentials = 0, keys = 0;
  static FieldStamp of(const FieldState& f) {
    FieldStamp s;
    s.built = f.built;
    s.refreshStep = f.refreshStep;
    s.geometryVersion = f.geometryVersion;
    s.terrainVersion = f.terrainVersion;
    s.cols = f.grid.cols;
    s.rows = f.grid.rows;
    s.cell = f.grid.cell;
    s.ox = f.grid.origin.x;
    s.oy = f.grid.origin.y;
    s.potentials = static_cast<std::size_t>(std::count_if(f.potentialOf.begin(), f.potentialOf.end(),
                                                          [](std::int32_t p) { return p >= 0; }));
    s.keys = f.keys.size();
    return s;
  }
  /// The fixed parts alone (the grid and the versions they were fitted for).
  bool sameStatics(const FieldStamp& o) const {
    return cols == o.cols && rows == o.rows && cell == o.cell && ox == o.ox && oy == o.oy &&
           geometryVersion == o.geometryVersion && terrainVersion == o.terrainVersion && keys == o.keys;
  }
  bool operator==(const FieldStamp& o) const {
    return built == o.built && refreshStep == o.refreshStep && potentials == o.potentials && sameStatics(o);
  }
};

/// The device form's host side: where the device's fields stand and what a
/// step must do with them (the backend does it on the device, the host
/// mirror on host arrays).
class DeviceFieldsHost {
 public:
  /// What the fields phase does this step.
  struct StepPlan {
    bool wanted = false;   ///< fieldsTaken(s), as the caller found it
    bool upload = false;   ///< the host's fields go up first (all of them)
    bool refresh = false;  ///< a refresh on the device
  };

  /// The fields phase's decision, before the step's obstacle fit, for a
  /// step that builds fields when `wanted` (fieldsTaken: the registry's,
  /// a layer above). Clears the host's fields when none are wanted, as
  /// buildFields does.
  StepPlan begin(World& w, const Settings& s, bool wanted) {
    StepPlan p;
    p.wanted = wanted;
    if (!p.wanted) {
      if (w.fields.built) w.fields.clear();
      valid = false;
      hostStale = false;
      return p;
    }
    if (!w.fields.built) {
      valid = false;  // cleared on the host (setTerrain) or never built
    } else if (!valid || !(FieldStamp::of(w.fields) == stamp_)) {
      p.upload = true;  // the host holds fields the device does not
      valid = true;
    }
    const std::uint64_t every = static_cast<std::uint64_t>(s.fieldInterval > 0 ? s.fieldInterval : 1);
    p.refresh = !valid || w.step % every == 0;
    return p;
  }

  /// The obstacle fit the CPU's fields phase makes on a refresh before the
  /// model fits its own (buildFields): the edge grid's history is part of
  /// the models' results (the order they meet edges in).
  static void fitObstacles(World& w, const Settings& s, const StepPlan& p) {
    if (p.refresh && !w.obstacles.vertices.empty() && w.obstacles.cols == 0) w.obstacles.fitToReach(w.obstacleReach(s));
  }

  /// The host's walkers went up: their radius, speeds, groups or routes
  /// may differ (the largest radius, the top speed and the targets in use
  /// are taken again at the next refresh).
  void walkersChanged() { haveWalkers_ = false; }

  /// The host's fields went up (StepPlan::upload): the device holds them.
  void uploaded(const World& w) {
    stamp_ = FieldStamp::of(w.fields);
    staticsOnDevice_ = stamp_;
    haveStatics_ = true;
    valid = true;
    hostStale = false;
  }

  /// A refresh's host side once the walkers' box is known: the grid, the
  /// fixed parts in w.fields (refitted only when they changed), the
  /// parameters and which targets get a potential (w.fields.potentialOf).
  /// Returns whether the fixed parts on the device must be replaced (then
  /// call staticsUploaded once they are).
  bool plan(World& w, const Settings& s, const FieldBox& box) {
    if (!haveWalkers_) {
      const FieldWalkers fw = w.fieldWalkers();
      largestRadius_ = 0;
      for (std::size_t i = 0; i < fw.count; ++i) largestRadius_ = fw.radius[i] > largestRadius_ ? fw.radius[i] : largestRadius_;
      topSpeed_ = fieldTopSpeed(fw);
      haveWalkers_ = true;
      haveUse_ = false;
    }
    fitFieldStatics(w.fields, fieldGridFor(s, box, largestRadius_, w), w.obstacles, w.terrainVersion, w.terrain,
                    &w.pool(s.threads));
    w.fields.params = fieldParams(s, topSpeed_);
    if (!haveUse_ || useTerrain_ != w.terrainVersion) {
      used_ = targetsInUse(w.fields.keys, w.terrain.targets.size(), w.fieldWalkers());
      useTerrain_ = w.terrainVersion;
      haveUse_ = true;
    }
    FieldState& f = w.fields;
    f.potentialOf.assign(w.terrain.targets.size(), -1);
    std::int32_t count = 0;
    for (std::size_t t = 0; t < used_.size(); ++t)
      if (used_[t] && f.goalStart[t + 1] > f.goalStart[t]) f.potentialOf[t] = count++;
    potentials = count;
    return !haveStatics_ || !FieldStamp::of(f).sameStatics(staticsOnDevice_);
  }
  void staticsUploaded(const World& w) {
    staticsOnDevice_ = FieldStamp::of(w.fields);
    haveStatics_ = true;
  }
  /// The refresh's device work is queued: the host's fields say built at
  /// this step, their refreshed arrays stale.
  void refreshed(World& w) {
    w.fields.refreshStep = w.step;
    w.fields.built = true;
    stamp_ = FieldStamp::of(w.fields);
    valid = true;
    hostStale = true;
  }
  /// The host's copy was brought down from the device.
  void broughtDown() { hostStale = false; }
  /// The host's copy is the truth now (a step taken on the host): the
  /// device's must be replaced before it is read.
  void hostTookOver() {
    valid = false;
    hostStale = false;
  }

  bool valid = false;      ///< the device holds the fields World::fields stands for
  bool hostStale = false;  ///< the host's refreshed arrays are older than the device's
  std::int32_t potentials = 0;  ///< the last plan's potentials

 private:
  FieldStamp stamp_, staticsOnDevice_;
  bool haveStatics_ = false, haveWalkers_ = false, haveUse_ = false;
  float largestRadius_ = 0, topSpeed_ = 1;
  std::vector<std::uint8_t> used_;
  std::uint64_t useTerrain_ = 0;
};

}  // namespace throng

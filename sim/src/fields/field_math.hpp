#pragma once
// The fields of Continuum Crowds (Treuille, Cooper and Popović, SIGGRAPH
// 2006) for one cell, one walker or one tile, as THRONG_HD functions over
// plain views: the CPU refresh (fields.cpp) loops over them, the CUDA
// kernels call them once per thread, the teaching view for one walker.
//
// Design note.
// Grid. Cell (x, y) covers origin + [x, x + 1) h by [y, y + 1) h; values sit
// at cell centres. A face between two cells is closed when either cell is
// inside an obstacle or a wall or obstacle edge meets the segment between
// their centres (host-side, fields.cpp): no cost and no gradient crosses it.
//
// Density. Each walker splats onto the four cells whose centres surround
// it: min(1 - Δx, 1 - Δy)^λ to the lower-left and its mirrors, so its own
// cell gets at least (1/2)^λ. The weights and the weighted velocities are
// summed as 64-bit integers (fixed point, kDensityScale and kMomentumScale),
// so the sum is the same in any order, on any thread and on the GPU. λ is
// taken to 1/256 and x^λ built from products and square roots alone
// (powLattice), which round the same everywhere.
//
// Speed and cost, per cell M and direction d, evaluated at the cell N that
// a step that way enters: the ground's speed f_T (slope (h_N - h_M) / h:
// f_max up to slopeMin, slopeSpeed f_max from slopeMax, linear between),
// the flow speed f_v = v̄_N · n_d clamped to [0, f_max] (a crowd slows a
// walker, never carries it backwards), blended f = f_T + t (f_v - f_T),
// t = (ρ_N - ρ_min) / (ρ_max - ρ_min) clamped to [0, 1]; f is kept at or
// above kSlowestFlow f_max so a standing crowd is dear to cross, never a
// wall. Unit cost C = (α f + β + γ g_N) / f (its numerator kept positive
// under a preferred region's negative g).
//
// Potential. |∇φ| = C with φ = 0 on the target's cells, by the paper's
// upwind update (eikonalUpdate): per axis the neighbour with the smaller
// φ + h C, the larger root of the quadratic, the one-sided value when one
// axis has no finite neighbour or its root would not be upwind; where
// costs unlike in opposite directions split the choice, the least root of
// the four quadrants, which keeps the update monotone (one fixed point). The solve
// is the fast iterative method (Jeong and Whitaker 2008) made exact and
// order-free: the grid is cut into kTile x kTile tiles; each round every
// active tile, reading the potential as it was at the round's start for its
// halo, runs red-black sweeps of the update inside itself until a sweep
// changes nothing (at most kTileSweeps); a tile that changed activates
// itself and its four neighbours for the next round; the solve ends when a
// round changes nothing: an exact fixed point. Every step of that schedule
// is a function of the values alone, so the CPU (tiles on its threads) and
// the GPU (a block per tile) compute the same bits.
//
// Motion. The velocity field is taken on faces (a MAC grid): across the
// face between A and B, the component -f ∂φ/∂n / |∇φ| with ∂φ/∂n from
// φ_B - φ_A and the tangential part averaged from the two cells, f the
// speed into the cell the walker would enter; a walker's velocity is the
// bilinear interpolation of the faces around it (fieldVelocity).
#include <cmath>
#include <cstdint>

#include "throng/hd.hpp"
#include "throng/vec2.hpp"

namespace throng {

inline constexpr int kTile = 8;             ///< tile side, cells
inline constexpr int kTileSweeps = 16;      ///< red-black sweeps a tile takes per visit, at most
inline constexpr float kSlowestFlow = 0.05f;  ///< the lowest speed a field gives, × f_max
inline constexpr float kDensityScale = 16777216.0f;  ///< 2^24: ρ's fixed point
inline constexpr float kMomentumScale = 65536.0f;    ///< 2^16: ρ v̄'s fixed point, per unit/s

/// +inf as the fields write it (no path, a closed face).
THRONG_HD float fieldInfinity() { return __builtin_huge_valf(); }

struct FieldGridView {
  Vec2 origin;
  float cell = 1, invCell = 1;  ///< h, 1 / h
  std::int32_t cols = 0, rows = 0;
};

/// The unit vector of direction d (FieldDirection: east, north, west, south).
THRONG_HD Vec2 directionVector(int d) {
  return d == 0 ? Vec2{1, 0} : d == 1 ? Vec2{0, 1} : d == 2 ? Vec2{-1, 0} : Vec2{0, -1};
}
/// The neighbour of cell (x, y) in direction d, or -1 off the grid.
THRONG_HD std::int32_t neighbourCell(const FieldGridView& g, std::int32_t x, std::int32_t y, int d) {
  const std::int32_t nx = x + (d == 0 ? 1 : d == 2 ? -1 : 0), ny = y + (d == 1 ? 1 : d == 3 ? -1 : 0);
  if (nx < 0 || ny < 0 || nx >= g.cols || ny >= g.rows) return -1;
  return ny * g.cols + nx;
}

/// x^(q / 256) for x in [0, 1] and a whole q >= 0: products and square
/// roots only, so every backend rounds it the same.
THRONG_HD float powLattice(float x, std::int32_t q) {
  float r = 1.0f;
  for (std::int32_t k = 0; k < (q >> 8); ++k) r *= x;
  float s = x;
  for (int bit = 7; bit >= 0; --bit) {
    s = std::sqrt(s);  // x^(2^(bit - 8))
    if ((q >> bit) & 1) r *= s;
  }
  return r;
}
/// λ as powLattice takes it: the nearest multiple of 1/256.
THRONG_HD std::int32_t latticeExponent(float lambda) { return static_cast<std::int32_t>(lambda * 256.0f + 0.5f); }

/// A value in fixed point: the nearest multiple of 1/scale, as an integer.
THRONG_HD std::int64_t toFixed(float v, float scale) {
  return static_cast<std::int64_t>(std::floor(static_cast<double>(v) * static_cast<double>(scale) + 0.5));
}

/// One walker's splat at p: the four cells (-1 off the grid) and their weights.
struct Splat {
  std::int32_t cell[4];
  float weight[4];
};
THRONG_HD Splat splatAt(const FieldGridView& g, Vec2 p, std::int32_t lambdaQ) {
  const float u = (p.x - g.origin.x) * g.invCell - 0.5f, v = (p.y - g.origin.y) * g.invCell - 0.5f;
  const float fx = std::floor(u), fy = std::floor(v);
  const float dx = u - fx, dy = v - fy;  // in [0, 1]
  Splat s;
  const float big = 1e9f;  // far off the grid: no cell
  const std::int32_t x0 = fx > -big && fx < big ? static_cast<std::int32_t>(fx) : -2;
  const std::int32_t y0 = fy > -big && fy < big ? static_cast<std::int32_t>(fy) : -2;
  const float ex = 1.0f - dx, ey = 1.0f - dy;
  const std::int32_t xs[4] = {x0, x0 + 1, x0 + 1, x0}, ys[4] = {y0, y0, y0 + 1, y0 + 1};
  const float ws[4] = {ex < ey ? ex : ey, dx < ey ? dx : ey, dx < dy ? dx : dy, ex < dy ? ex : dy};
  for (int k = 0; k < 4; ++k) {
    const bool in = xs[k] >= 0 && ys[k] >= 0 && xs[k] < g.cols && ys[k] < g.rows;
    s.cell[k] = in ? ys[k] * g.cols + xs[k] : -1;
    s.weight[k] = powLattice(ws[k], lambdaQ);
  }
  return s;
}

/// The fixed-point sums of one cell (splatAt's weights, and weight times
/// velocity, summed over the walkers).
struct FieldCellSums {
  std::int64_t rho = 0, momentumX = 0, momentumY = 0;
};
struct CellFlow {
  float density = 0;  ///< ρ, walkers per cell
  Vec2 velocity;      ///< v̄, units/s (0 where ρ is 0)
};
THRONG_HD CellFlow cellFlow(const FieldCellSums& s) {
  CellFlow f;
  f.density = static_cast<float>(static_cast<double>(s.rho) / static_cast<double>(kDensityScale));
  if (s.rho > 0) {
    const float mx = static_cast<float>(static_cast<double>(s.momentumX) / static_cast<double>(kMomentumScale));
    const float my = static_cast<float>(static_cast<double>(s.momentumY) / static_cast<double>(kMomentumScale));
    f.velocity = Vec2{mx / f.density, my / f.density};
  }
  return f;
}

/// How the ground's slope slows a walker (Settings: slopeMin, slopeMax, slopeSpeed).
struct SlopeParams {
  float min = 0.05f, max = 0.5f, slowest = 0.2f;
};
/// The ground's speed on a slope (rise over run; downhill is negative), as
/// a fraction of the top speed: 1 up to min, `slowest` from max, linear between.
THRONG_HD float slopeFraction(const SlopeParams& sp, float slope) {
  if (slope <= sp.min) return 1.0f;
  if (!(slope < sp.max)) return sp.slowest;
  return 1.0f + (slope - sp.min) / (sp.max - sp.min) * (sp.slowest - 1.0f);
}

/// The per-cell fields a speed and cost read.
struct FieldCells {
  const float *density = nullptr, *velocityX = nullptr, *velocityY = nullptr;
  const float *height = nullptr, *discomfort = nullptr;
  const std::uint8_t* open = nullptr;  ///< bit d: the face that way is open
  /// The ground (geometry/ground.hpp) at the cell's centre: the speed zones'
  /// factor, and per direction the stairs' limit, units/s (+inf: none).
  const float *groundFactor = nullptr, *groundLimit = nullptr;
};

/// What the speed and cost read besides the grid.
struct FieldParams {
  float fmax = 1;                  ///< the fastest walker's cruising speed, units/s
  float alpha = 1, beta = 1, gamma = 1;
  float densityMin = 1.0f, densityMax = 3.0f;  ///< walkers per cell
};

/// The speed into neighbour N (density rhoN, mean velocity vN) along unit
/// direction n, where the ground alone gives terrainSpeed.
THRONG_HD float blendedSpeed(const FieldParams& fp, float terrainSpeed, float rhoN, Vec2 vN, Vec2 n) {
  float flow = dot(vN, n);
  flow = flow > 0.0f ? (flow < fp.fmax ? flow : fp.fmax) : 0.0f;
  const float span = fp.densityMax - fp.densityMin;
  float t = span > 0.0f ? (rhoN - fp.densityMin) / span : (rhoN >= fp.densityMax ? 1.0f : 0.0f);
  t = t > 0.0f ? (t < 1.0f ? t : 1.0f) : 0.0f;
  const float f = terrainSpeed + t * (flow - terrainSpeed);
  const float floor = kSlowestFlow * fp.fmax;
  return f > floor ? f : floor;
}

/// The unit cost of stepping at speed f onto ground of discomfort g.
THRONG_HD float unitCost(const FieldParams& fp, float f, float g) {
  const float base = fp.alpha * f + fp.beta;
  float num = base + fp.gamma * g;
  const float least = 0.01f * base;
  num = num > least ? num : least;
  return num / f;
}

/// Cell c's speed (units/s) and unit cost in each direction into speed[4]
/// and cost[4]: 0 and +inf through a closed face.
THRONG_HD void cellSpeedAndCost(const FieldGridView& g, const FieldCells& fc, const FieldParams& fp, const SlopeParams& sl,
                                std::int32_t c, float* speed, float* cost) {
  const std::int32_t x = c % g.cols, y = c / g.cols;
  for (int d = 0; d < 4; ++d) {
    const std::int32_t nb = neighbourCell(g, x, y, d);
    if (nb < 0 || !((fc.open[c] >> d) & 1)) {
      speed[d] = 0.0f;
      cost[d] = fieldInfinity();
      continue;
    }
    const float slope = (fc.height[nb] - fc.height[c]) * g.invCell;
    const float ground = fp.fmax * slopeFraction(sl, slope);
    const float f = blendedSpeed(fp, ground, fc.density[nb], Vec2{fc.velocityX[nb], fc.velocityY[nb]}, directionVector(d));
    speed[d] = f;
    // The cost is of the time a walker takes here, on the neighbour's
    // ground; the speed stays the flat ground's (the wish carries the zone).
    float walked = f * fc.groundFactor[nb];
    const float limit = fc.groundLimit[4 * nb + d];
    walked = walked < limit ? walked : limit;
    cost[d] = unitCost(fp, walked, fc.discomfort[nb]);
  }
}

/// The upwind solution at a cell with upwind neighbour values a (x axis)
/// and b (y axis) at step costs ca and cb (h C): the larger root of
/// ((φ - a) / ca)^2 + ((φ - b) / cb)^2 = 1 when both axes are upwind, else
/// the one-sided a + ca or b + cb. +inf where neither is finite.
THRONG_HD float eikonalSolve(float a, float ca, float b, float cb) {
  const float inf = fieldInfinity();
  const float oa = a + ca, ob = b + cb;  // +inf when either part is
  if (!(oa < inf) && !(ob < inf)) return inf;
  if (oa <= b) return oa;
  if (ob <= a) return ob;
  const float ca2 = ca * ca, cb2 = cb * cb, d = a - b;
  const float disc = ca2 + cb2 - d * d;
  const float least = oa < ob ? oa : ob;
  if (!(disc > 0.0f)) return least;
  const float phi = (a * cb2 + b * ca2 + ca * cb * std::sqrt(disc)) / (ca2 + cb2);
  return phi < least ? phi : least;
}

/// The update at cell c from the four neighbour values nb[d] (+inf off the
/// grid or behind a closed face) and its step costs hc[d] = h C (+inf
/// through a closed face): the least of eikonalSolve over the four
/// quadrants (east or west, with north or south). Where one neighbour of
/// each axis has both the smaller φ and the smaller φ + h C (always, with
/// costs alike in both directions) that is the paper's choice, per axis the
/// neighbour with the smaller φ + h C; with costs unlike enough to split
/// the two, the least root keeps the update monotone in the neighbours, so
/// the iteration has one fixed point, which fast marching also finds.
THRONG_HD float eikonalUpdate(const float nb[4], const float hc[4]) {
  const float ne = eikonalSolve(nb[0], hc[0], nb[1], hc[1]);
  const float nw = eikonalSolve(nb[2], hc[2], nb[1], hc[1]);
  const float se = eikonalSolve(nb[0], hc[0], nb[3], hc[3]);
  const float sw = eikonalSolve(nb[2], hc[2], nb[3], hc[3]);
  const float n = ne < nw ? ne : nw, s = se < sw ? se : sw;
  return n < s ? n : s;
}

/// The cells of tile t: its corner and extent (clipped at the grid's edge).
struct TileBox {
  std::int32_t x0, y0, w, h;
};
THRONG_HD std::int32_t tilesAcross(std::int32_t cells) { return (cells + kTile - 1) / kTile; }
THRONG_HD TileBox tileBox(const FieldGridView& g, std::int32_t t) {
  const std::int32_t tc = tilesAcross(g.cols);
  TileBox b;
  b.x0 = (t % tc) * kTile;
  b.y0 = (t / tc) * kTile;
  b.w = g.cols - b.x0 < kTile ? g.cols - b.x0 : kTile;
  b.h = g.rows - b.y0 < kTile ? g.rows - b.y0 : kTile;
  return b;
}

/// A tile's working copy: its cells with a one-cell halo, (kTile + 2)^2
/// values, the halo as the round found it.
inline constexpr int kTileSpan = kTile + 2;
THRONG_HD int tileSlot(int lx, int ly) { return (ly + 1) * kTileSpan + (lx + 1); }

/// One colour's half of a red-black sweep over cell (lx, ly) of a tile's
/// working copy `local`: the update from the four neighbours in `local`,
/// kept when lower. `hc` is the cell's four step costs; `fixed`: a target
/// or blocked cell, never updated. True when it lowered the value.
THRONG_HD bool tileCellUpdate(float* local, int lx, int ly, const float hc[4], bool fixed) {
  if (fixed) return false;
  const int s = tileSlot(lx, ly);
  const float nb[4] = {local[s + 1], local[s + kTileSpan], local[s - 1], local[s - kTileSpan]};
  const float u = eikonalUpdate(nb, hc);
  if (u < local[s]) {
    local[s] = u;
    return true;
  }
  return false;
}

/// What a tile's solve reads: the grid, unit costs (4 per cell), and the
/// cells that never change (blocked: +inf; goal: 0).
struct TileInputs {
  FieldGridView grid;
  const float* cost = nullptr;
  const std::uint8_t* blocked = nullptr;
  const std::uint8_t* goal = nullptr;
};

/// Tile t's visit in a round: its cells and halo from `cur` (the round's
/// start), red-black sweeps until one changes nothing (at most
/// kTileSweeps), its cells written to `next`. `local` holds kTileSpan^2.
/// True when a cell differs from `cur`. The CPU runs it per tile as is;
/// the CUDA kernel runs the same sweeps a thread per cell.
THRONG_HD bool solveTile(const TileInputs& in, const float* cur, float* next, std::int32_t t, float* local) {
  const FieldGridView& g = in.grid;
  const TileBox b = tileBox(g, t);
  const float inf = fieldInfinity();
  for (int ly = -1; ly <= kTile; ++ly)
    for (int lx = -1; lx <= kTile; ++lx) {
      const std::int32_t x = b.x0 + lx, y = b.y0 + ly;
      const bool inside = lx <= b.w && ly <= b.h && x >= 0 && y >= 0 && x < g.cols && y < g.rows;
      local[tileSlot(lx, ly)] = inside ? cur[y * g.cols + x] : inf;
    }
  for (int sweep = 0; sweep < kTileSweeps; ++sweep) {
    bool any = false;
    for (int colour = 0; colour < 2; ++colour)
      for (int ly = 0; ly < b.h; ++ly)
        for (int lx = 0; lx < b.w; ++lx) {
          const std::int32_t x = b.x0 + lx, y = b.y0 + ly;
          if (((x + y) & 1) != colour) continue;
          const std::int32_t c = y * g.cols + x;
          const float hc[4] = {g.cell * in.cost[4 * c], g.cell * in.cost[4 * c + 1], g.cell * in.cost[4 * c + 2],
                               g.cell * in.cost[4 * c + 3]};
          any |= tileCellUpdate(local, lx, ly, hc, in.blocked[c] || in.goal[c]);
        }
    if (!any) break;
  }
  bool changed = false;
  for (int ly = 0; ly < b.h; ++ly)
    for (int lx = 0; lx < b.w; ++lx) {
      const std::int32_t c = (b.y0 + ly) * g.cols + b.x0 + lx;
      const float v = local[tileSlot(lx, ly)];
      next[c] = v;
      changed |= v != cur[c];
    }
  return changed;
}

/// The potential's gradient direction and the field's velocity at p: the
/// bilinear interpolation of the face velocities around it. `speed` holds
/// 4 speeds per cell (into the neighbour that way), `open` 4 bits per cell
/// (bit d: the face that way is open). Zero where no finite potential is
/// near.
struct FieldFlowView {
  FieldGridView grid;
  const float* potential = nullptr;  ///< cols * rows of one target
  const float* speed = nullptr;
  const std::uint8_t* open = nullptr;
};

/// The tangential derivative of φ at cell (x, y) along axis `vertical`
/// (central where both neighbours are finite and open, else one-sided, else 0).
THRONG_HD float tangentSlope(const FieldFlowView& f, std::int32_t x, std::int32_t y, bool vertical) {
  const FieldGridView& g = f.grid;
  const std::int32_t c = y * g.cols + x;
  const float inf = fieldInfinity();
  const float pc = f.potential[c];
  const int up = vertical ? 1 : 0, down = vertical ? 3 : 2;
  const std::int32_t cu = (f.open[c] >> up) & 1 ? neighbourCell(g, x, y, up) : -1;
  const std::int32_t cd = (f.open[c] >> down) & 1 ? neighbourCell(g, x, y, down) : -1;
  const float pu = cu >= 0 ? f.potential[cu] : inf, pd = cd >= 0 ? f.potential[cd] : inf;
  if (pu < inf && pd < inf) return (pu - pd) * 0.5f * g.invCell;
  if (pu < inf) return (pu - pc) * g.invCell;
  if (pd < inf) return (pc - pd) * g.invCell;
  return 0.0f;
}

/// The velocity across the face on side d (0: east, 1: north) of cell
/// (x, y): its normal component, units/s (positive east or north). 0 when
/// the face is closed or either side has no finite potential.
THRONG_HD float faceVelocity(const FieldFlowView& f, std::int32_t x, std::int32_t y, int d) {
  const FieldGridView& g = f.grid;
  if (x < 0 || y < 0 || x >= g.cols || y >= g.rows) return 0.0f;
  const std::int32_t a = y * g.cols + x;
  if (!((f.open[a] >> d) & 1)) return 0.0f;
  const std::int32_t b = neighbourCell(g, x, y, d);
  if (b < 0) return 0.0f;
  const float inf = fieldInfinity();
  const float pa = f.potential[a], pb = f.potential[b];
  if (!(pa < inf) || !(pb < inf)) return 0.0f;
  const bool vertical = d == 1;
  const float normal = (pb - pa) * g.invCell;
  const std::int32_t bx = x + (vertical ? 0 : 1), by = y + (vertical ? 1 : 0);
  const float tangent = 0.5f * (tangentSlope(f, x, y, !vertical) + tangentSlope(f, bx, by, !vertical));
  const float len = std::sqrt(normal * normal + tangent * tangent);
  if (!(len > 0.0f)) return 0.0f;
  const float along = -normal / len;  // downhill along the face's normal
  // The speed into the cell being entered: b when moving +, a when moving -.
  const float speed = along > 0.0f ? f.speed[4 * a + d] : f.speed[4 * b + d + 2];
  return along * speed;
}

/// The field's velocity at p, units/s (the bilinear interpolation of the
/// face velocities around it); zero off the grid.
THRONG_HD Vec2 fieldVelocity(const FieldFlowView& f, Vec2 p) {
  const FieldGridView& g = f.grid;
  if (g.cols == 0) return Vec2{};
  const float u = (p.x - g.origin.x) * g.invCell, v = (p.y - g.origin.y) * g.invCell;
  if (!(u >= 0.0f && v >= 0.0f && u < static_cast<float>(g.cols) && v < static_cast<float>(g.rows))) return Vec2{};
  // x components sit at (x + 1, y + 1/2) in cell units, y components at (x + 1/2, y + 1).
  const auto lerp2 = [&](float su, float sv, int d) {
    const float fu = std::floor(su), fv = std::floor(sv);
    const std::int32_t x0 = static_cast<std::int32_t>(fu), y0 = static_cast<std::int32_t>(fv);
    const float tx = su - fu, ty = sv - fv;
    const float v00 = faceVelocity(f, x0, y0, d), v10 = faceVelocity(f, x0 + 1, y0, d);
    const float v01 = faceVelocity(f, x0, y0 + 1, d), v11 = faceVelocity(f, x0 + 1, y0 + 1, d);
    const float lo = v00 + tx * (v10 - v00), hi = v01 + tx * (v11 - v01);
    return lo + ty * (hi - lo);
  };
  return Vec2{lerp2(u - 1.0f, v - 0.5f, 0), lerp2(u - 0.5f, v - 1.0f, 1)};
}

/// The cell holding p, or -1 off the grid.
THRONG_HD std::int32_t fieldCellAt(const FieldGridView& g, Vec2 p) {
  const float u = (p.x - g.origin.x) * g.invCell, v = (p.y - g.origin.y) * g.invCell;
  if (!(u >= 0.0f && v >= 0.0f && u < static_cast<float>(g.cols) && v < static_cast<float>(g.rows))) return -1;
  std::int32_t x = static_cast<std::int32_t>(u), y = static_cast<std::int32_t>(v);
  x = x < g.cols ? x : g.cols - 1;
  y = y < g.rows ? y : g.rows - 1;
  return y * g.cols + x;
}

// ---- targets and the wish ---------------------------------------------------

/// Which target a walker takes: the first key that matches its group
/// (or -1: any) and its route (or -1: any).
struct TargetKey {
  std::int32_t group = -1, route = -1, target = 0;
};

/// What the wish reads of the fields: the targets' keys, the potential of
/// each target (-1: none solved), and the flow.
struct FieldRouting {
  FieldGridView grid;              ///< cols == 0: no fields this step
  const TargetKey* keys = nullptr;
  std::int32_t keyCount = 0;
  const std::int32_t* potentialOf = nullptr;  ///< by target: index of its potential, or -1
  const float* potentials = nullptr;          ///< potential after potential, cols * rows each
  const float* speed = nullptr;
  const std::uint8_t* open = nullptr;
  float fmax = 1;                             ///< the field's top speed, units/s
};

/// The potential walker (group, route) follows, or -1.
THRONG_HD std::int32_t potentialFor(const FieldRouting& r, std::int32_t group, std::int32_t route) {
  for (std::int32_t k = 0; k < r.keyCount; ++k) {
    const TargetKey& key = r.keys[k];
    if ((key.group < 0 || key.group == group) && (key.route < 0 || key.route == route))
      return r.potentialOf[key.target];
  }
  return -1;
}

/// The flow of potential `index`.
THRONG_HD FieldFlowView flowOf(const FieldRouting& r, std::int32_t index) {
  FieldFlowView f;
  f.grid = r.grid;
  f.potential = r.potentials + static_cast<std::int64_t>(index) * r.grid.cols * r.grid.rows;
  f.speed = r.speed;
  f.open = r.open;
  return f;
}

/// A walker's field velocity at p (units/s, at most fmax), following
/// potential `index`, and whether it is already on its target (φ = 0 in its
/// cell) or has no way there (no flow): then `onTarget` or `lost` is set and
/// the velocity is zero.
THRONG_HD Vec2 fieldFlowAt(const FieldRouting& r, std::int32_t index, Vec2 p, bool& onTarget, bool& lost) {
  onTarget = lost = false;
  const FieldFlowView f = flowOf(r, index);
  const std::int32_t c = fieldCellAt(r.grid, p);
  if (c < 0) {
    lost = true;
    return Vec2{};
  }
  const float pc = f.potential[c];
  if (pc == 0.0f) {
    onTarget = true;
    return Vec2{};
  }
  const Vec2 v = fieldVelocity(f, p);
  if (!(pc < fieldInfinity()) || v.lengthSquared() == 0.0f) {
    lost = true;
    return Vec2{};
  }
  return v;
}

}  // namespace throng

// The fields on the host (fields.hpp): the grid, its fixed parts, and the
// CPU refresh.
#include "fields/fields.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>

#include "base/thread_pool.hpp"
#include "geometry/ground.hpp"

namespace throng {

namespace {

void forChunks(ThreadPool* pool, std::size_t n, const std::function<void(std::size_t, std::size_t)>& fn,
               int chunksPerThread = 4) {
  if (pool) pool->parallelFor(n, fn, chunksPerThread);
  else if (n > 0) fn(0, n);
}

/// Even-odd test of p against a closed polygon.
bool insidePolygon(const std::vector<Vec2>& poly, Vec2 p) {
  bool in = false;
  const std::size_t n = poly.size();
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    const Vec2 a = poly[i], b = poly[j];
    if ((a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x) in = !in;
  }
  return n >= 3 && in;
}

bool insideRect(const Rect& r, Vec2 p) {
  return p.x >= r.x && p.x <= r.x + r.width && p.y >= r.y && p.y <= r.y + r.height;
}

Vec2 cellCentre(const FieldGridView& g, std::int32_t x, std::int32_t y) {
  return Vec2{g.origin.x + (static_cast<float>(x) + 0.5f) * g.cell, g.origin.y + (static_cast<float>(y) + 0.5f) * g.cell};
}

/// Bilinear interpolation of a lattice's node values (HeightMap,
/// DiscomfortMap): false, and `out` untouched, outside the nodes' hull
/// (edges included) or for a malformed lattice, which reads as 0.
bool latticeAt(Vec2 origin, float cell, int cols, int rows, const std::vector<float>& values, Vec2 p, float& out) {
  if (!(cols >= 1 && rows >= 1 && cell > 0.0f &&
        values.size() == static_cast<std::size_t>(cols) * static_cast<std::size_t>(rows)))
    return false;
  const float u = (p.x - origin.x) / cell, v = (p.y - origin.y) / cell;
  if (!(u >= 0.0f && v >= 0.0f && u <= static_cast<float>(cols - 1) && v <= static_cast<float>(rows - 1))) return false;
  const int x0 = std::min(static_cast<int>(u), std::max(cols - 2, 0));
  const int y0 = std::min(static_cast<int>(v), std::max(rows - 2, 0));
  const int x1 = std::min(x0 + 1, cols - 1), y1 = std::min(y0 + 1, rows - 1);
  const float tx = std::clamp(u - static_cast<float>(x0), 0.0f, 1.0f);
  const float ty = std::clamp(v - static_cast<float>(y0), 0.0f, 1.0f);
  const auto at = [&](int x, int y) { return values[static_cast<std::size_t>(y) * cols + x]; };
  const float lo = at(x0, y0) + tx * (at(x1, y0) - at(x0, y0));
  const float hi = at(x0, y1) + tx * (at(x1, y1) - at(x0, y1));
  out = lo + ty * (hi - lo);
  return true;
}

struct Box {
  float x0 = std::numeric_limits<float>::infinity(), y0 = x0, x1 = -x0, y1 = -x0;
  void add(Vec2 p) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) return;
    x0 = std::min(x0, p.x); y0 = std::min(y0, p.y);
    x1 = std::max(x1, p.x); y1 = std::max(y1, p.y);
  }
  bool empty() const { return !(x0 <= x1); }
};

}  // namespace

float Terrain::heightAt(Vec2 p) const {
  float h = 0;
  for (const Hill& hill : hills) {
    if (!(hill.radius > 0.0f)) continue;
    const float d2 = (p - hill.at).lengthSquared() / (hill.radius * hill.radius);
    if (d2 < 1.0f) h += hill.height * (1.0f - d2) * (1.0f - d2);
  }
  const HeightMap& m = heightMap;
  float v = 0;
  if (latticeAt(m.origin, m.cell, m.cols, m.rows, m.heights, p, v)) h += v;
  return h;
}

float Terrain::discomfortAt(Vec2 p) const {
  float g = 0;
  for (const Discomfort& d : discomfort)
    if (insidePolygon(d.outline, p)) g += d.value;
  const DiscomfortMap& m = discomfortMap;
  float v = 0;
  if (latticeAt(m.origin, m.cell, m.cols, m.rows, m.values, p, v)) g += v;
  return g;
}


std::vector<TargetKey> targetKeys(const Terrain& t) {
  std::vector<TargetKey> keys;
  for (std::size_t i = 0; i < t.targets.size(); ++i) {
    const Target& tg = t.targets[i];
    const std::int32_t index = static_cast<std::int32_t>(i);
    if (tg.groups.empty()) keys.push_back({-1, tg.route, index});
    for (int g : tg.groups) keys.push_back({g, tg.route, index});
  }
  return keys;
}

FieldParams fieldParams(const Settings& s, float fmax) {
  FieldParams p;
  p.fmax = fmax;
  p.alpha = s.costDistance;
  p.beta = s.costTime;
  // α + β = 0 would make a free cell cost nothing: β takes a trace.
  if (!(p.alpha + p.beta > 0.0f)) p.beta = 1e-3f;
  p.gamma = s.costDiscomfort;
  p.densityMin = s.densityMin;
  p.densityMax = std::max(s.densityMax, s.densityMin);
  return p;
}

void FieldState::clear() {
  built = false;
  potentialOf.clear();
  potentials.clear();
}

FieldRouting FieldState::routing() const {
  FieldRouting r;
  if (!built) return r;
  r.grid = grid;
  r.keys = keys.data();
  r.keyCount = static_cast<std::int32_t>(keys.size());
  r.potentialOf = potentialOf.data();
  r.potentials = potentials.data();
  r.speed = speed.data();
  r.open = open.data();
  r.fmax = params.fmax;
  return r;
}

FieldView FieldState::view(int target) const {
  FieldView v;
  if (!built) return v;
  v.origin = grid.origin;
  v.cell = grid.cell;
  v.cols = grid.cols;
  v.rows = grid.rows;
  v.potentials = static_cast<int>(std::count_if(potentialOf.begin(), potentialOf.end(), [](std::int32_t p) { return p >= 0; }));
  v.blocked = blocked;
  v.density = density;
  v.velocityX = velocityX;
  v.velocityY = velocityY;
  v.height = height;
  v.discomfort = discomfort;
  v.speed = speed;
  v.cost = cost;
  if (target >= 0 && static_cast<std::size_t>(target) < potentialOf.size() && potentialOf[target] >= 0)
    v.potential = std::span<const float>(potentials.data() + static_cast<std::size_t>(potentialOf[target]) * cells(), cells());
  v.refreshStep = refreshStep;
  return v;
}

float fieldTopSpeed(const FieldWalkers& w) {
  float top = 0;
  for (std::size_t i = 0; i < w.count; ++i) {
    const float p = w.prefSpeed[i], m = w.maxSpeed[i];
    top = std::max(top, p > 0 && p < m ? p : m);
  }
  return top > 0.0f ? top : 1.0f;
}

FieldGridView chooseFieldGrid(const Settings& s, const FieldWalkers& w, const ObstacleSet& obstacles,
                              const Terrain& terrain) {
  float h = s.fieldCell;
  if (!(h > 0.0f)) {
    float r = 0;
    for (std::size_t i = 0; i < w.count; ++i) r = std::max(r, w.radius[i]);
    h = r > 0.0f ? 4.0f * r : 1.0f;
  }
  Box box;
  for (const auto& o : obstacles.outlines) for (Vec2 p : o) box.add(p);
  for (const auto& o : obstacles.walls) for (Vec2 p : o) box.add(p);
  for (const Target& t : terrain.targets)
    for (const Rect& r : t.regions) {
      box.add({r.x, r.y});
      box.add({r.x + r.width, r.y + r.height});
    }
  for (std::size_t i = 0; i < w.count; ++i) box.add({w.px[i], w.py[i]});
  if (box.empty()) box.add({0, 0});
  FieldGridView g;
  for (;;) {
    const double tile = static_cast<double>(h) * kTile;
    const double tx0 = std::floor(box.x0 / tile) - 1, ty0 = std::floor(box.y0 / tile) - 1;
    const double tx1 = std::floor(box.x1 / tile) + 1, ty1 = std::floor(box.y1 / tile) + 1;
    const double cols = (tx1 - tx0 + 1) * kTile, rows = (ty1 - ty0 + 1) * kTile;
    if (cols * rows <= static_cast<double>(kMaxFieldCells)) {
      g.origin = {static_cast<float>(tx0 * tile), static_cast<float>(ty0 * tile)};
      g.cell = h;
      g.invCell = 1.0f / h;
      g.cols = static_cast<std::int32_t>(cols);
      g.rows = static_cast<std::int32_t>(rows);
      return g;
    }
    h *= 2.0f;
  }
}

void fitFieldStatics(FieldState& f, const FieldGridView& g, const ObstacleSet& obstacles, std::uint64_t terrainVersion,
                     const Terrain& terrain, ThreadPool* pool) {
  const bool same = f.grid.cols == g.cols && f.grid.rows == g.rows && f.grid.cell == g.cell &&
                    f.grid.origin.x == g.origin.x && f.grid.origin.y == g.origin.y &&
                    f.geometryVersion == obstacles.version && f.terrainVersion == terrainVersion;
  if (same) return;
  f.grid = g;
  f.geometryVersion = obstacles.version;
  f.terrainVersion = terrainVersion;
  const std::size_t n = f.cells();
  f.blocked.assign(n, 0);
  f.open.assign(n, 0);
  f.height.assign(n, 0);
  f.discomfort.assign(n, 0);
  f.groundFactor.assign(n, 1.0f);
  f.groundLimit.assign(4 * n, std::numeric_limits<float>::infinity());
  GroundShapes ground;
  ground.build(terrain);
  const GroundView gv = ground.view();
  // Blocked: the cell's centre inside an obstacle outline.
  for (const auto& outline : obstacles.outlines) {
    Box b;
    for (Vec2 p : outline) b.add(p);
    if (b.empty()) continue;
    const auto clampX = [&](float v) { return std::clamp(static_cast<std::int32_t>(std::floor((v - g.origin.x) * g.invCell)), 0, g.cols - 1); };
    const auto clampY = [&](float v) { return std::clamp(static_cast<std::int32_t>(std::floor((v - g.origin.y) * g.invCell)), 0, g.rows - 1); };
    for (std::int32_t y = clampY(b.y0); y <= clampY(b.y1); ++y)
      for (std::int32_t x = clampX(b.x0); x <= clampX(b.x1); ++x)
        if (insidePolygon(outline, cellCentre(g, x, y))) f.blocked[static_cast<std::size_t>(y) * g.cols + x] = 1;
  }
  const ObstacleView ov = obstacles.view();
  forChunks(pool, static_cast<std::size_t>(g.rows), [&](std::size_t b, std::size_t e) {
    for (std::size_t yy = b; yy < e; ++yy) {
      const std::int32_t y = static_cast<std::int32_t>(yy);
      for (std::int32_t x = 0; x < g.cols; ++x) {
        const std::size_t c = static_cast<std::size_t>(y) * g.cols + x;
        const Vec2 p = cellCentre(g, x, y);
        f.height[c] = terrain.heightAt(p);
        f.discomfort[c] = terrain.discomfortAt(p);
        if (!gv.on()) continue;
        f.groundFactor[c] = zoneFactor(gv, p);
        for (int d = 0; d < 4; ++d) f.groundLimit[4 * c + d] = stairsLimit(gv, p, directionVector(d));
      }
    }
  });
  // Open faces, east and north from each cell (the west and south bits
  // are the neighbour's east and north).
  forChunks(pool, static_cast<std::size_t>(g.rows), [&](std::size_t b, std::size_t e) {
    for (std::size_t yy = b; yy < e; ++yy) {
      const std::int32_t y = static_cast<std::int32_t>(yy);
      for (std::int32_t x = 0; x < g.cols; ++x) {
        const std::size_t c = static_cast<std::size_t>(y) * g.cols + x;
        for (int d = 0; d < 2; ++d) {
          const std::int32_t nb = neighbourCell(g, x, y, d);
          if (nb < 0 || f.blocked[c] || f.blocked[static_cast<std::size_t>(nb)]) continue;
          const Vec2 q = cellCentre(g, x + (d == 0), y + (d == 1));
          if (!segmentBlocked(ov, cellCentre(g, x, y), q)) f.open[c] |= static_cast<std::uint8_t>(1u << d);
        }
      }
    }
  });
  for (std::int32_t y = 0; y < g.rows; ++y)
    for (std::int32_t x = 0; x < g.cols; ++x) {
      const std::size_t c = static_cast<std::size_t>(y) * g.cols + x;
      if (x > 0 && (f.open[c - 1] & 1u)) f.open[c] |= 4u;
      if (y > 0 && (f.open[c - static_cast<std::size_t>(g.cols)] & 2u)) f.open[c] |= 8u;
    }
  // Goal cells: those whose centre lies in a region, and the cell of each
  // region's centre; never a blocked one.
  f.goalStart.assign(1, 0);
  f.goalCells.clear();
  for (const Target& t : terrain.targets) {
    std::vector<std::int32_t> cells;
    for (const Rect& r : t.regions) {
      const std::int32_t x0 = std::max(0, static_cast<std::int32_t>(std::floor((r.x - g.origin.x) * g.invCell)));
      const std::int32_t y0 = std::max(0, static_cast<std::int32_t>(std::floor((r.y - g.origin.y) * g.invCell)));
      const std::int32_t x1 = std::min(g.cols - 1, static_cast<std::int32_t>(std::floor((r.x + r.width - g.origin.x) * g.invCell)));
      const std::int32_t y1 = std::min(g.rows - 1, static_cast<std::int32_t>(std::floor((r.y + r.height - g.origin.y) * g.invCell)));
      for (std::int32_t y = y0; y <= y1; ++y)
        for (std::int32_t x = x0; x <= x1; ++x)
          if (insideRect(r, cellCentre(g, x, y))) cells.push_back(y * g.cols + x);
      const std::int32_t centre = fieldCellAt(g, Vec2{r.x + 0.5f * r.width, r.y + 0.5f * r.height});
      if (centre >= 0) cells.push_back(centre);
    }
    std::sort(cells.begin(), cells.end());
    cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
    for (std::int32_t c : cells)
      if (!f.blocked[static_cast<std::size_t>(c)]) f.goalCells.push_back(c);
    f.goalStart.push_back(static_cast<std::int32_t>(f.goalCells.size()));
  }
  f.keys = targetKeys(terrain);
}

std::vector<std::uint8_t> targetsInUse(const std::vector<TargetKey>& keys, std::size_t targets, const FieldWalkers& w) {
  std::vector<std::uint8_t> used(targets, 0);
  std::vector<std::int32_t> identity(targets);
  for (std::size_t t = 0; t < targets; ++t) identity[t] = static_cast<std::int32_t>(t);
  FieldRouting r;
  r.keys = keys.data();
  r.keyCount = static_cast<std::int32_t>(keys.size());
  r.potentialOf = identity.data();
  for (std::size_t i = 0; i < w.count; ++i) {
    const std::int32_t t = potentialFor(r, w.group[i], w.route[i]);
    if (t >= 0) used[static_cast<std::size_t>(t)] = 1;
  }
  return used;
}

void splatDensity(FieldState& f, const Settings& s, const FieldWalkers& w, ThreadPool* pool) {
  const std::size_t n = f.cells();
  // Integer sums: the same in any order (fields.hpp's design note).
  std::vector<std::atomic<std::int64_t>> rho(n), mx(n), my(n);
  for (std::size_t c = 0; c < n; ++c) {
    rho[c].store(0, std::memory_order_relaxed);
    mx[c].store(0, std::memory_order_relaxed);
    my[c].store(0, std::memory_order_relaxed);
  }
  const std::int32_t lambdaQ = latticeExponent(s.densityExponent);
  const FieldGridView g = f.grid;
  forChunks(pool, w.count, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      const Splat sp = splatAt(g, Vec2{w.px[i], w.py[i]}, lambdaQ);
      for (int k = 0; k < 4; ++k) {
        if (sp.cell[k] < 0) continue;
        const std::size_t c = static_cast<std::size_t>(sp.cell[k]);
        rho[c].fetch_add(toFixed(sp.weight[k], kDensityScale), std::memory_order_relaxed);
        mx[c].fetch_add(toFixed(sp.weight[k] * w.vx[i], kMomentumScale), std::memory_order_relaxed);
        my[c].fetch_add(toFixed(sp.weight[k] * w.vy[i], kMomentumScale), std::memory_order_relaxed);
      }
    }
  });
  f.density.resize(n);
  f.velocityX.resize(n);
  f.velocityY.resize(n);
  forChunks(pool, n, [&](std::size_t b, std::size_t e) {
    for (std::size_t c = b; c < e; ++c) {
      const FieldCellSums sums{rho[c].load(std::memory_order_relaxed), mx[c].load(std::memory_order_relaxed),
                               my[c].load(std::memory_order_relaxed)};
      const CellFlow flow = cellFlow(sums);
      f.density[c] = flow.density;
      f.velocityX[c] = flow.velocity.x;
      f.velocityY[c] = flow.velocity.y;
    }
  }, 2);
}

void buildSpeedAndCost(FieldState& f, const Settings& s, ThreadPool* pool) {
  const std::size_t n = f.cells();
  f.speed.resize(4 * n);
  f.cost.resize(4 * n);
  const FieldGridView g = f.grid;
  const FieldParams fp = f.params;
  const SlopeParams sl{s.slopeMin, s.slopeMax, s.slopeSpeed};
  const FieldCells cells = f.cellsView();
  forChunks(pool, n, [&](std::size_t b, std::size_t e) {
    for (std::size_t c = b; c < e; ++c)
      cellSpeedAndCost(g, cells, fp, sl, static_cast<std::int32_t>(c), &f.speed[4 * c], &f.cost[4 * c]);
  }, 2);
}

int solvePotential(const FieldGridView& g, const float* cost, const std::uint8_t* blocked, const std::int32_t* goals,
                   std::size_t goalCount, float* phi, ThreadPool* pool) {
  const std::size_t n = static_cast<std::size_t>(g.cols) * static_cast<std::size_t>(g.rows);
  const float inf = fieldInfinity();
  std::vector<std::uint8_t> isGoal(n, 0);
  for (std::size_t k = 0; k < goalCount; ++k) isGoal[static_cast<std::size_t>(goals[k])] = 1;
  for (std::size_t c = 0; c < n; ++c) phi[c] = isGoal[c] ? 0.0f : inf;
  std::vector<float> next(phi, phi + n);
  const std::int32_t tcols = tilesAcross(g.cols), trows = tilesAcross(g.rows);
  const std::size_t tiles = static_cast<std::size_t>(tcols) * static_cast<std::size_t>(trows);
  std::vector<std::uint8_t> activeFlag(tiles, 0), changed(tiles, 0);
  const auto activateAround = [&](std::int32_t t) {
    const std::int32_t tx = t % tcols, ty = t / tcols;
    activeFlag[static_cast<std::size_t>(t)] = 1;
    if (tx > 0) activeFlag[static_cast<std::size_t>(t - 1)] = 1;
    if (tx + 1 < tcols) activeFlag[static_cast<std::size_t>(t + 1)] = 1;
    if (ty > 0) activeFlag[static_cast<std::size_t>(t - tcols)] = 1;
    if (ty + 1 < trows) activeFlag[static_cast<std::size_t>(t + tcols)] = 1;
  };
  for (std::size_t k = 0; k < goalCount; ++k) {
    const std::int32_t c = goals[k], x = c % g.cols, y = c / g.cols;
    activateAround((y / kTile) * tcols + x / kTile);
  }
  std::vector<std::int32_t> active;
  int rounds = 0;
  for (;;) {
    active.clear();
    for (std::size_t t = 0; t < tiles; ++t)
      if (activeFlag[t]) active.push_back(static_cast<std::int32_t>(t));
    if (active.empty()) break;
    ++rounds;
    std::fill(activeFlag.begin(), activeFlag.end(), 0);
    const TileInputs in{g, cost, blocked, isGoal.data()};
    forChunks(pool, active.size(), [&](std::size_t b, std::size_t e) {
      float local[kTileSpan * kTileSpan];
      for (std::size_t k = b; k < e; ++k) {
        const std::int32_t t = active[k];
        changed[static_cast<std::size_t>(t)] = solveTile(in, phi, next.data(), t, local) ? 1 : 0;
      }
    }, 4);
    for (std::int32_t t : active) {
      if (!changed[static_cast<std::size_t>(t)]) continue;
      const TileBox tb = tileBox(g, t);
      for (std::int32_t y = tb.y0; y < tb.y0 + tb.h; ++y) {
        const std::size_t row = static_cast<std::size_t>(y) * g.cols;
        std::copy(next.begin() + static_cast<std::ptrdiff_t>(row + tb.x0),
                  next.begin() + static_cast<std::ptrdiff_t>(row + tb.x0 + tb.w), phi + row + tb.x0);
      }
      activateAround(t);
    }
  }
  return rounds;
}

void fastMarching(const FieldGridView& g, const float* cost, const std::uint8_t* blocked, const std::int32_t* goals,
                  std::size_t goalCount, float* phi) {
  const std::size_t n = static_cast<std::size_t>(g.cols) * static_cast<std::size_t>(g.rows);
  const float inf = fieldInfinity();
  std::vector<std::uint8_t> accepted(n, 0);
  for (std::size_t c = 0; c < n; ++c) phi[c] = inf;
  using Entry = std::pair<float, std::int32_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
  for (std::size_t k = 0; k < goalCount; ++k) {
    phi[goals[k]] = 0.0f;
    heap.push({0.0f, goals[k]});
  }
  while (!heap.empty()) {
    const auto [value, c] = heap.top();
    heap.pop();
    if (accepted[static_cast<std::size_t>(c)] || value > phi[c]) continue;
    accepted[static_cast<std::size_t>(c)] = 1;
    const std::int32_t x = c % g.cols, y = c / g.cols;
    for (int d = 0; d < 4; ++d) {
      const std::int32_t m = neighbourCell(g, x, y, d);
      if (m < 0 || accepted[static_cast<std::size_t>(m)] || blocked[m]) continue;
      // m's update from its accepted neighbours only.
      const std::int32_t mx = m % g.cols, my = m / g.cols;
      float nb[4], hc[4];
      for (int e = 0; e < 4; ++e) {
        const std::int32_t k = neighbourCell(g, mx, my, e);
        const bool use = k >= 0 && accepted[static_cast<std::size_t>(k)];
        nb[e] = use ? phi[k] : inf;
        hc[e] = g.cell * cost[4 * static_cast<std::size_t>(m) + e];
      }
      const float u = eikonalUpdate(nb, hc);
      if (u < phi[m]) {
        phi[m] = u;
        heap.push({u, m});
      }
    }
  }
}

void refreshFields(FieldState& f, const Settings& s, const FieldWalkers& w, const ObstacleSet& obstacles,
                   std::uint64_t terrainVersion, const Terrain& terrain, std::uint64_t step, ThreadPool* pool) {
  fitFieldStatics(f, chooseFieldGrid(s, w, obstacles, terrain), obstacles, terrainVersion, terrain, pool);
  f.params = fieldParams(s, fieldTopSpeed(w));
  splatDensity(f, s, w, pool);
  buildSpeedAndCost(f, s, pool);
  const std::vector<std::uint8_t> used = targetsInUse(f.keys, terrain.targets.size(), w);
  f.potentialOf.assign(terrain.targets.size(), -1);
  std::int32_t count = 0;
  for (std::size_t t = 0; t < used.size(); ++t)
    if (used[t] && f.goalStart[t + 1] > f.goalStart[t]) f.potentialOf[t] = count++;
  const std::size_t n = f.cells();
  f.potentials.resize(static_cast<std::size_t>(count) * n);
  for (std::size_t t = 0; t < used.size(); ++t) {
    if (f.potentialOf[t] < 0) continue;
    const std::size_t first = static_cast<std::size_t>(f.goalStart[t]);
    solvePotential(f.grid, f.cost.data(), f.blocked.data(), f.goalCells.data() + first,
                   static_cast<std::size_t>(f.goalStart[t + 1]) - first,
                   f.potentials.data() + static_cast<std::size_t>(f.potentialOf[t]) * n, pool);
  }
  f.refreshStep = step;
  f.built = true;
}

}  // namespace throng

// BioCrowds' marker field (markers.hpp): the lattice, one stratum's marker,
// and laying the field, cell row by cell row on the step's threads.
#include "models/biocrowds/markers.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "base/hash.hpp"
#include "base/thread_pool.hpp"

namespace throng {

namespace {

/// A double in [0, 1) from the top 53 bits of h: exact.
double unit53(std::uint64_t h) { return static_cast<double>(h >> 11) * 0x1p-53; }

int clampTo(int v, int size) { return v < 0 ? 0 : (v >= size ? size - 1 : v); }

/// Whether p is inside an obstacle outline: the parity of the edges a ray
/// from p towards +x crosses (a wall, stored along and back, crosses twice).
/// Each crossing is counted in the one cell of p's row that holds its x.
bool insideOutline(const ObstacleView& ov, Vec2 p) {
  if (ov.cols == 0) return false;
  const float inv = 1.0f / ov.cell;
  const float rowF = (p.y - ov.origin.y) * inv;
  if (!(rowF >= 0.0f) || rowF >= static_cast<float>(ov.rows)) return false;
  const int row = static_cast<int>(rowF);
  bool inside = false;
  for (int c = clampTo(static_cast<int>(std::floor((p.x - ov.origin.x) * inv)), ov.cols); c < ov.cols; ++c) {
    const int cell = row * ov.cols + c;
    for (int k = ov.cellStart[cell]; k < ov.cellStart[cell + 1]; ++k) {
      const ObstacleVertex& v = ov.vertices[ov.cellEdges[k]];
      const Vec2 a = v.point, b = ov.vertices[v.next].point;
      if ((a.y > p.y) == (b.y > p.y)) continue;
      const float x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
      if (!(x > p.x)) continue;
      if (clampTo(static_cast<int>(std::floor((x - ov.origin.x) * inv)), ov.cols) != c) continue;
      inside = !inside;
    }
  }
  return inside;
}

/// Distance from p to the nearest edge when below `reach`, else INFINITY.
float clearance(const ObstacleView& ov, Vec2 p, float reach) {
  const EdgeCells r = edgeCellsAround(ov, Vec2{p.x - reach, p.y - reach}, Vec2{p.x + reach, p.y + reach});
  float best = reach * reach;
  for (int cy = r.y0; cy <= r.y1; ++cy)
    for (int cx = r.x0; cx <= r.x1; ++cx) {
      const int cell = cy * ov.cols + cx;
      for (int k = ov.cellStart[cell]; k < ov.cellStart[cell + 1]; ++k) {
        const ObstacleVertex& v = ov.vertices[ov.cellEdges[k]];
        best = std::min(best, distSqPointSegment(v.point, ov.vertices[v.next].point, p));
      }
    }
  return best < reach * reach ? std::sqrt(best) : INFINITY;
}

/// Whether any edge is listed in the obstacle cells that meet the square
/// [lo, hi] (a superset of "an edge lies in it").
bool edgesIn(const ObstacleView& ov, Vec2 lo, Vec2 hi) {
  const EdgeCells r = edgeCellsAround(ov, lo, hi);
  for (int cy = r.y0; cy <= r.y1; ++cy)
    for (int cx = r.x0; cx <= r.x1; ++cx) {
      const int cell = cy * ov.cols + cx;
      if (ov.cellStart[cell + 1] > ov.cellStart[cell]) return true;
    }
  return false;
}

}  // namespace

MarkerLattice markerLattice(double radius, double density) {
  MarkerLattice lat;
  lat.spacing = 1.0 / std::sqrt(density);
  const double need = radius;  // the cell's side at least
  double k = std::ceil(need / lat.spacing);
  if (!(k >= 1)) k = 1;
  if (k > kMaxStrataPerCell) {
    k = kMaxStrataPerCell;
    lat.spacing = need / kMaxStrataPerCell;
  }
  lat.perCell = static_cast<int>(k);
  return lat;
}

float markerSpacing(float personalSpace, float markerDensity) {
  if (!(personalSpace > 0) || !(markerDensity > 0)) return 0;
  return static_cast<float>(markerLattice(personalSpace, markerDensity).spacing);
}

bool markerOfStratum(const ObstacleView& ov, const MarkerLattice& lat, std::uint64_t seed, float radius,
                     std::int64_t ix, std::int64_t iy, Vec2& at, float& clear) {
  const std::uint64_t h = mix64(seed ^ mix64(static_cast<std::uint64_t>(ix) ^ mix64(static_cast<std::uint64_t>(iy))));
  at = {static_cast<float>((static_cast<double>(ix) + unit53(h)) * lat.spacing),
        static_cast<float>((static_cast<double>(iy) + unit53(mix64(h))) * lat.spacing)};
  clear = clearance(ov, at, 2 * radius);
  if (clear < kMarkerClearance * radius) return false;
  return !insideOutline(ov, at);
}

bool MarkerField::covers(Vec2 lo, Vec2 hi) const {
  if (cols == 0 || !(lo.x <= hi.x) || !(lo.y <= hi.y)) return cols != 0;
  // Every point within R of [lo, hi] in the cells laid, computed as the
  // walkers' cells are, with a margin for the rounding.
  const MarkerGridView v = view();
  const float r = radius * 1.01f + (std::fabs(lo.x) + std::fabs(lo.y) + std::fabs(hi.x) + std::fabs(hi.y)) * 1e-6f;
  const auto inside = [&](float x, float origin, int size) {
    const float f = (x - origin) * v.invCell;
    return f >= 0.0f && f < static_cast<float>(size);
  };
  return inside(lo.x - r, v.origin.x, cols) && inside(hi.x + r, v.origin.x, cols) &&
         inside(lo.y - r, v.origin.y, rows) && inside(hi.y + r, v.origin.y, rows);
}

void MarkerField::lay(const ObstacleSet& obstacles, CellBox ground, CellBox walkers, std::size_t walkerCount,
                      ThreadPool* pool) {
  const double k2 = static_cast<double>(lattice.perCell) * lattice.perCell;
  const auto markersIn = [k2](const CellBox& c) {
    return (static_cast<double>(c.x1 - c.x0) + 1) * (static_cast<double>(c.y1 - c.y0) + 1) * k2;
  };
  const double most = std::min(static_cast<double>(kMaxMarkers),
                               std::max(static_cast<double>(kMinMarkerCap),
                                        kCapCellsPerWalker * static_cast<double>(walkerCount) * k2));
  const std::int64_t sx = (ground.x1 - ground.x0) / 4 + 2, sy = (ground.y1 - ground.y0) / 4 + 2;
  CellBox box{ground.x0 - sx, ground.y0 - sy, ground.x1 + sx, ground.y1 + sy};
  clipped = false;
  if (markersIn(box) > most) box = ground;
  if (markersIn(box) > most) box = walkers;
  if (markersIn(box) > most) {
    const auto side = static_cast<std::int64_t>(std::floor(std::sqrt(most / k2)));
    const std::int64_t mx = walkers.x0 + (walkers.x1 - walkers.x0) / 2, my = walkers.y0 + (walkers.y1 - walkers.y0) / 2;
    box = {mx - side / 2, my - side / 2, mx - side / 2 + side - 1, my - side / 2 + side - 1};
    clipped = true;
  }
  const std::int64_t gx0 = box.x0, gy0 = box.y0, gx1 = box.x1, gy1 = box.y1;
  cellX0 = gx0;
  cellY0 = gy0;
  cols = static_cast<std::int32_t>(gx1 - gx0 + 1);
  rows = static_cast<std::int32_t>(gy1 - gy0 + 1);
  const int k = lattice.perCell;
  const double cell = lattice.cell();
  const ObstacleView ov = obstacles.view();
  const float r = radius;
  // Each cell row into its own lists, then joined in row order: the same
  // field on any number of threads.
  struct Row {
    std::vector<std::int32_t> counts;
    std::vector<float> x, y, c;
    std::vector<std::uint8_t> near;
  };
  std::vector<Row> laid(static_cast<std::size_t>(rows));
  const auto layRows = [&](std::size_t b, std::size_t e) {
    for (std::size_t row = b; row < e; ++row) {
      Row& out = laid[row];
      out.counts.assign(static_cast<std::size_t>(cols), 0);
      out.near.assign(static_cast<std::size_t>(cols), 0);
      const std::int64_t gy = gy0 + static_cast<std::int64_t>(row);
      for (std::int32_t cx = 0; cx < cols; ++cx) {
        const std::int64_t gx = gx0 + cx;
        const Vec2 lo{static_cast<float>(gx * cell - r), static_cast<float>(gy * cell - r)};
        const Vec2 hi{static_cast<float>((gx + 1) * cell + r), static_cast<float>((gy + 1) * cell + r)};
        out.near[static_cast<std::size_t>(cx)] = edgesIn(ov, lo, hi);
        for (int sy = 0; sy < k; ++sy)
          for (int sx = 0; sx < k; ++sx) {
            Vec2 at;
            float clear;
            if (!markerOfStratum(ov, lattice, seed_, r, gx * k + sx, gy * k + sy, at, clear)) continue;
            out.x.push_back(at.x);
            out.y.push_back(at.y);
            out.c.push_back(clear);
            ++out.counts[static_cast<std::size_t>(cx)];
          }
      }
    }
  };
  if (pool) pool->parallelFor(laid.size(), layRows, 2);
  else layRows(0, laid.size());
  std::size_t total = 0;
  for (const Row& row : laid) total += row.x.size();
  cellStart.assign(static_cast<std::size_t>(cols) * static_cast<std::size_t>(rows) + 1, 0);
  mx.resize(total);
  my.resize(total);
  clear.resize(total);
  nearEdges.resize(static_cast<std::size_t>(cols) * static_cast<std::size_t>(rows));
  std::size_t at = 0, c = 0;
  for (Row& row : laid) {
    std::copy(row.x.begin(), row.x.end(), mx.begin() + static_cast<std::ptrdiff_t>(at));
    std::copy(row.y.begin(), row.y.end(), my.begin() + static_cast<std::ptrdiff_t>(at));
    std::copy(row.c.begin(), row.c.end(), clear.begin() + static_cast<std::ptrdiff_t>(at));
    for (std::size_t cx = 0; cx < row.counts.size(); ++cx, ++c) {
      cellStart[c + 1] = cellStart[c] + row.counts[cx];
      nearEdges[c] = row.near[cx];
    }
    at += row.x.size();
    row = Row{};
  }
  ++version;
}

MarkerGridView MarkerField::view() const {
  MarkerGridView v;
  const double cell = lattice.cell();
  v.origin = {static_cast<float>(static_cast<double>(cellX0) * cell), static_cast<float>(static_cast<double>(cellY0) * cell)};
  v.invCell = static_cast<float>(1.0 / cell);
  v.cols = cols;
  v.rows = rows;
  v.cellStart = cellStart.data();
  v.mx = mx.data();
  v.my = my.data();
  v.clear = clear.data();
  v.nearEdges = nearEdges.data();
  v.count = static_cast<std::int32_t>(mx.size());
  v.radius = radius;
  return v;
}

}  // namespace throng

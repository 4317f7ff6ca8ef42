// ObstacleSet: RVO2 vertex loops and the CSR edge grid.
#include <algorithm>
#include <cassert>
#include <cmath>

#include "geometry/obstacles.hpp"

namespace throng {

void ObstacleSet::addLoop(std::span<const Vec2> loop) {
  const auto n = static_cast<std::int32_t>(loop.size());
  assert(n >= 2);
  const auto base = static_cast<std::int32_t>(vertices.size());
  for (std::int32_t i = 0; i < n; ++i) {
    const std::int32_t prev = (i + n - 1) % n, next = (i + 1) % n;
    ObstacleVertex v;
    v.point = loop[i];
    v.prev = base + prev;
    v.next = base + next;
    v.unitDir = (loop[next] - loop[i]).normalized();
    v.convex = n == 2 || leftOf(loop[prev], loop[i], loop[next]) >= 0.0f;
    vertices.push_back(v);
  }
  ++version;
  cols = rows = 0;  // the grid is rebuilt before the next use
}

bool ObstacleSet::fitToReach(float reach) {
  const float want = std::isfinite(reach) && reach > 1e-3f ? reach : 1e-3f;
  if (cols != 0 && want <= 2 * fittedReach && want >= 0.5f * fittedReach) return false;
  fittedReach = want;
  cell = want;
  rebuildGrid();
  return true;
}

void ObstacleSet::rebuildGrid() {
  ++gridBuilds;
  cellStart.assign(1, 0);
  cellEdges.clear();
  cols = rows = 0;
  if (vertices.empty()) return;
  Vec2 lo = vertices[0].point, hi = lo;
  for (const auto& v : vertices) {
    lo = {std::min(lo.x, v.point.x), std::min(lo.y, v.point.y)};
    hi = {std::max(hi.x, v.point.x), std::max(hi.y, v.point.y)};
  }
  float target = cell > 0 && std::isfinite(cell) ? cell : 1.0f;
  const float extent = std::max(hi.x - lo.x, hi.y - lo.y);
  target = std::max(target, extent / 1024.0f);
  target = std::max(target, 1e-6f);
  cell = target;
  origin = lo;
  cols = static_cast<std::int32_t>((hi.x - lo.x) / cell) + 1;
  rows = static_cast<std::int32_t>((hi.y - lo.y) / cell) + 1;
  // An edge is listed in the cells it passes through, widened by `pad`
  // (far above the rounding of a cell index): row by row, the span of x the
  // edge covers within the row's band. A superset is harmless (the query
  // tests each edge's distance); a long diagonal wall costs cells in
  // proportion to its length, not to its bounding box's area.
  const double pad = 0.01 * cell, inv = 1.0 / cell;
  auto coord = [&](double v, float o, int size) {
    const double c = std::floor((v - o) * inv);
    return c < 0 ? 0 : (c >= size ? size - 1 : static_cast<int>(c));
  };
  // Calls visit(cellIndex) for every cell listing edge e, in ascending order.
  auto cellsOfEdge = [&](std::int32_t e, auto&& visit) {
    const Vec2 a = vertices[e].point, b = vertices[vertices[e].next].point;
    const double ylo = std::min(a.y, b.y) - pad, yhi = std::max(a.y, b.y) + pad;
    const int y0 = coord(ylo, origin.y, rows), y1 = coord(yhi, origin.y, rows);
    for (int y = y0; y <= y1; ++y) {
      double xa = std::min(a.x, b.x), xb = std::max(a.x, b.x);
      if (a.y != b.y) {
        const double bandLo = std::max(ylo, static_cast<double>(origin.y) + y * static_cast<double>(cell) - pad);
        const double bandHi = std::min(yhi, static_cast<double>(origin.y) + (y + 1) * static_cast<double>(cell) + pad);
        const double t0 = std::clamp((bandLo - a.y) / (static_cast<double>(b.y) - a.y), 0.0, 1.0);
        const double t1 = std::clamp((bandHi - a.y) / (static_cast<double>(b.y) - a.y), 0.0, 1.0);
        const double u = a.x + t0 * (static_cast<double>(b.x) - a.x), v = a.x + t1 * (static_cast<double>(b.x) - a.x);
        xa = std::min(u, v);
        xb = std::max(u, v);
      }
      const int x0 = coord(xa - pad, origin.x, cols), x1 = coord(xb + pad, origin.x, cols);
      for (int x = x0; x <= x1; ++x) visit(static_cast<std::size_t>(y) * cols + x);
    }
  };
  // A CSR by counting: each cell's count, the starts, then the edges in
  // ascending order within each cell.
  const auto edges = static_cast<std::int32_t>(vertices.size());
  std::vector<std::int32_t> fill(static_cast<std::size_t>(cols) * rows + 1, 0);
  for (std::int32_t e = 0; e < edges; ++e) cellsOfEdge(e, [&](std::size_t c) { ++fill[c + 1]; });
  for (std::size_t c = 1; c < fill.size(); ++c) fill[c] += fill[c - 1];
  cellStart = fill;
  cellEdges.resize(static_cast<std::size_t>(cellStart.back()));
  for (std::int32_t e = 0; e < edges; ++e) cellsOfEdge(e, [&](std::size_t c) { cellEdges[fill[c]++] = e; });
}

ObstacleView ObstacleSet::view() const {
  ObstacleView v;
  v.vertices = vertices.data();
  v.vertexCount = static_cast<std::int32_t>(vertices.size());
  v.origin = origin;
  v.cell = cell;
  v.cols = cols;
  v.rows = rows;
  v.cellStart = cellStart.data();
  v.cellEdges = cellEdges.data();
  return v;
}

}  // namespace throng

// ObstacleSet: RVO2 vertex loops and the CSR edge grid.
#include <algorithm>
#include <cassert>
#include <cmath>

#include "throng/world.hpp"

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

void ObstacleSet::rebuildGrid() {
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
  const float pad = 1e-4f * cell;
  std::vector<std::vector<std::int32_t>> buckets(static_cast<std::size_t>(cols) * rows);
  const float inv = 1.0f / cell;
  auto coord = [&](float v, float o, int size) {
    const int c = static_cast<int>(std::floor((v - o) * inv));
    return std::clamp(c, 0, size - 1);
  };
  for (std::int32_t e = 0; e < static_cast<std::int32_t>(vertices.size()); ++e) {
    const Vec2 a = vertices[e].point, b = vertices[vertices[e].next].point;
    const int x0 = coord(std::min(a.x, b.x) - pad, origin.x, cols), x1 = coord(std::max(a.x, b.x) + pad, origin.x, cols);
    const int y0 = coord(std::min(a.y, b.y) - pad, origin.y, rows), y1 = coord(std::max(a.y, b.y) + pad, origin.y, rows);
    for (int y = y0; y <= y1; ++y)
      for (int x = x0; x <= x1; ++x) buckets[static_cast<std::size_t>(y) * cols + x].push_back(e);
  }
  cellStart.resize(buckets.size() + 1);
  cellStart[0] = 0;
  for (std::size_t c = 0; c < buckets.size(); ++c) {
    cellEdges.insert(cellEdges.end(), buckets[c].begin(), buckets[c].end());
    cellStart[c + 1] = static_cast<std::int32_t>(cellEdges.size());
  }
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

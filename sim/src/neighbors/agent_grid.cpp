// AgentGrid::build (agent_grid.hpp): the bounds, the cells, a counting sort
// placed in last build's order, each cell sorted by x then index.
#include "neighbors/agent_grid.hpp"

#include <cstdlib>
#include <functional>
#include <limits>
#include <utility>

#include "base/thread_pool.hpp"
#include "base/vector_memory.hpp"

namespace throng {

namespace {
/// The agents' bounds, NaN positions left out (max and lowest when none
/// is a number), four agents at a time: the bound of each lane, then of the
/// lanes (min and max are exact, so their order changes at most the sign
/// of a zero bound, and the grid's shape never changes what a scan finds).
void boundsOf(const float* px, const float* py, std::size_t n, float& minX, float& minY, float& maxX, float& maxY) {
  using V = Float4;
  const float big = std::numeric_limits<float>::max(), low = std::numeric_limits<float>::lowest();
  V loX = {big, big, big, big}, loY = loX, hiX = {low, low, low, low}, hiY = hiX;
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const V x = loadU<V>(px + i), y = loadU<V>(py + i);
    loX = x < loX ? x : loX;  // a NaN compares false: the bound stays
    loY = y < loY ? y : loY;
    hiX = hiX < x ? x : hiX;
    hiY = hiY < y ? y : hiY;
  }
  minX = big, minY = big, maxX = low, maxY = low;
  for (int l = 0; l < 4; ++l) {
    minX = loX[l] < minX ? loX[l] : minX;
    minY = loY[l] < minY ? loY[l] : minY;
    maxX = maxX < hiX[l] ? hiX[l] : maxX;
    maxY = maxY < hiY[l] ? hiY[l] : maxY;
  }
  for (; i < n; ++i) {
    minX = px[i] < minX ? px[i] : minX;
    minY = py[i] < minY ? py[i] : minY;
    maxX = maxX < px[i] ? px[i] : maxX;
    maxY = maxY < py[i] ? py[i] : maxY;
  }
}

/// gridCellOf of agents [b, e), four at a time: each lane does gridCoord's
/// operations (the same floats, truncated alike), its tests as masks.
void cellsOf(const GridShape& g, const float* px, const float* py, std::int32_t* cell, std::size_t b, std::size_t e) {
  using V = Float4;
  using I = Int4;
  // The shape's fields as locals: a store to cell[] might otherwise alias
  // them, and each round would load and broadcast them again.
  const float ox = g.origin.x, oy = g.origin.y, invCell = g.invCell, invRow = g.invRow;
  const std::int32_t cols = g.cols;
  const V colsF = V{} + static_cast<float>(g.cols), rowsF = V{} + static_cast<float>(g.rows);
  const I lastCol = I{} + (g.cols - 1), lastRow = I{} + (g.rows - 1);
  const auto coord = [](V f, V size, I last) {
    const I inside = f < size ? __builtin_convertvector(f, I) : last;
    return f >= 0.0f ? inside : I{};  // also NaN
  };
  std::size_t i = b;
  for (; i + 4 <= e; i += 4) {
    const I cx = coord((loadU<V>(px + i) - ox) * invCell, colsF, lastCol);
    const I cy = coord((loadU<V>(py + i) - oy) * invRow, rowsF, lastRow);
    storeU(cell + i, cy * cols + cx);
  }
  for (; i < e; ++i) cell[i] = gridCellOf(g, px[i], py[i]);
}
}  // namespace

AgentGridView AgentGrid::view() const {
  return gridViewOf(shape, cellStart.data(), sortedIndex.data(), sx.data(), sy.data());
}

void AgentGrid::build(const float* px, const float* py, std::size_t n, float perceptionRadius, int maxNeighbors,
                      ThreadPool* pool) {
  AgentGrid& sc = *this;
  ++version;
  boundsOf(px, py, n, minX, minY, maxX, maxY);
  shape = gridShapeFromBounds(minX, minY, maxX, maxY, perceptionRadius, static_cast<std::int64_t>(n), maxNeighbors);
  const auto forEach = [pool](std::size_t count, const std::function<void(std::size_t, std::size_t)>& fn) {
    if (pool) pool->parallelFor(count, fn);
    else if (count > 0) fn(0, count);
  };
  const std::size_t cells = static_cast<std::size_t>(shape.cells);
  sc.cellOf.resize(n);
  sc.cellStart.assign(cells + 1, 0);
  forEach(n, [&](std::size_t b, std::size_t e) { cellsOf(shape, px, py, sc.cellOf.data(), b, e); });
  // Counts, then running sums: cellStart[c] is first the end of cell c; the
  // placement below counts it down to the cell's start.
  for (std::size_t i = 0; i < n; ++i) ++sc.cellStart[sc.cellOf[i]];
  for (std::size_t c = 1; c < cells; ++c) sc.cellStart[c] += sc.cellStart[c - 1];
  sc.cellStart[cells] = static_cast<std::int32_t>(n);
  // Placement in last step's grid order where there is one (the same
  // agents, n of them), else in index order: either way every agent once.
  // Last step's order puts each cell's agents nearly sorted by x already,
  // so the sort below has little to move (in index order, half a ring of
  // walkers arrives in reverse x, and the sort shifts each one far).
  const bool again = sc.sortedIndex.size() == n;
  std::swap(sc.sortedIndex, sc.previousOrder);
  sc.sortedIndex.resize(n);
  sc.slotOf.resize(n);
  sc.sx.resize(n);
  sc.sy.resize(n);
  std::int32_t* const sorted = sc.sortedIndex.data();
  std::int32_t* const slotOf = sc.slotOf.data();
  float* const sx = sc.sx.data();
  float* const sy = sc.sy.data();
  const std::int32_t* const cellStart = sc.cellStart.data();
  // Each agent's slot is written as it is placed; the sort below rewrites
  // those of the agents it moves.
  for (std::size_t k = n; k-- > 0;) {  // backwards, filling each cell from its end
    const std::size_t i = again ? static_cast<std::size_t>(sc.previousOrder[k]) : k;
    const std::int32_t slot = --sc.cellStart[sc.cellOf[i]];
    sorted[slot] = static_cast<std::int32_t>(i);
    slotOf[i] = slot;
    sx[slot] = px[i];
    sy[slot] = py[i];
  }
  // Within each cell, by x then index: a total order, so the grid is the
  // same whatever order the agents were placed in. An insertion sort, as
  // cells hold a few dozen agents that come nearly in order; cells are
  // independent, so they are sorted in parallel.
  forEach(cells, [&](std::size_t cb, std::size_t ce) {
    for (std::size_t c = cb; c < ce; ++c) {
      const std::int32_t start = cellStart[c], end = cellStart[c + 1];
      for (std::int32_t a = start + 1; a < end; ++a) {
        const float x = sx[a];
        // Most come in order (last step's): one comparison, nothing moved.
        if (sx[a - 1] < x) continue;
        const float y = sy[a];
        const std::int32_t idx = sorted[a];
        std::int32_t b = a;
        for (; b > start && (sx[b - 1] > x || (sx[b - 1] == x && sorted[b - 1] > idx)); --b) {
          sx[b] = sx[b - 1];
          sy[b] = sy[b - 1];
          sorted[b] = sorted[b - 1];
          slotOf[sorted[b]] = b;
        }
        sx[b] = x;
        sy[b] = y;
        sorted[b] = idx;
        slotOf[idx] = b;
      }
    }
  });
}

}  // namespace throng

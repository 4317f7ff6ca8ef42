#pragma once
// The uniform grid over the walkers and the exact k-nearest search on it,
// as THRONG_HD functions over plain views: the CPU step loops over them, the
// CUDA kernels call them once per thread, the teaching view for one walker.
// Every model that asks who is near (ORCA's neighbours, BioCrowds' marker
// owners) asks here. Every view reads the state as it was before the step.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "neighbors/agents_view.hpp"
#include "throng/hd.hpp"
#include "throng/settings.hpp"
#include "throng/vec2.hpp"

// SSE2 is every x86-64 CPU's: the host code below may use it unasked.
#if defined(__SSE2__) && !defined(__CUDA_ARCH__)
#define THRONG_SSE2 1
#include <emmintrin.h>
#else
#define THRONG_SSE2 0
#endif

namespace throng {

/// A uniform grid over the agents, built each step. Its columns are at
/// least the perception radius wide, so the three columns around a walker
/// hold every agent it can perceive; its rows may be finer (up to
/// kMaxRowsPerCell per column width, see gridShapeFromBounds), so a scan
/// that already knows a small bound (the usual case in a crowd) reads only
/// the rows it needs. Cells are row-major, and within a cell agents are
/// sorted by x (ties by index), so the cells of a row are one contiguous
/// range sorted by x.
struct AgentGridView {
  Vec2 origin;
  float invCell = 1;  ///< 1 / column width
  float invRow = 1;   ///< 1 / row height
  std::int32_t cols = 0, rows = 0;
  const std::int32_t* cellStart = nullptr;    ///< cols*rows + 1 offsets
  const std::int32_t* sortedIndex = nullptr;  ///< agent index of each sorted slot
  const float *sx = nullptr, *sy = nullptr;   ///< positions in sorted order
};

THRONG_HD int gridCoord(float v, float origin, float invCell, int size) {
  const float f = (v - origin) * invCell;
  if (!(f >= 0.0f)) return 0;  // also NaN
  // Compared before the cast: a float past INT_MAX (or inf) has no int.
  return f < static_cast<float>(size) ? static_cast<int>(f) : size - 1;
}

/// The agent grid's shape for one step, from the agents' bounds; the CPU
/// (World::buildGrid) and the CUDA backend both take it from here.
struct GridShape {
  Vec2 origin;
  float invCell = 1, invRow = 1;
  std::int32_t cols = 0, rows = 0;
  std::int32_t cells = 0;  ///< cols * rows
};

/// The most rows a column-wide cell is split into.
inline constexpr int kMaxRowsPerCell = 4;

/// The most cells gridShapeFromBounds makes for n agents: the device sizes
/// its cell starts once per agent count.
THRONG_HD std::int64_t maxGridCells(std::int64_t n) { return kMaxRowsPerCell * (2 * n + 64); }

/// The column width is the perception radius, grown so there are at most
/// about 2 column-wide square cells per agent (a sparse crowd in a big world
/// stays cheap). Each is split into rows no shorter than the radius that
/// holds `maxNeighbors` agents at the crowd's mean density, at most
/// kMaxRowsPerCell of them. The shape changes only how fast the scan is,
/// never what it finds.
THRONG_HD GridShape gridShapeFromBounds(float minX, float minY, float maxX, float maxY, float perceptionRadius,
                                        std::int64_t n, int maxNeighbors) {
  if (n == 0) minX = minY = maxX = maxY = 0;
  float cell = perceptionRadius < 1e-6f ? 1e-6f : perceptionRadius;
  const double maxCells = 2.0 * static_cast<double>(n) + 64.0;
  double c = 0, r = 0;
  for (;;) {
    c = std::floor((maxX - minX) / cell) + 1.0;
    r = std::floor((maxY - minY) / cell) + 1.0;
    if (c * r <= maxCells) break;
    const double grow = std::sqrt(c * r / maxCells);
    cell *= static_cast<float>(1.05 < grow ? grow : 1.05);
  }
  // A row of height cell / split holds about k agents within its height
  // when pi (cell / split)^2 (perCell / cell^2) >= k.
  const double perCell = static_cast<double>(n) / (c * r);
  const double k = maxNeighbors > 1 ? static_cast<double>(maxNeighbors) : 1.0;
  int split = 1;
  while (split < kMaxRowsPerCell && 3.14159265 * perCell >= k * (split + 1) * (split + 1)) ++split;
  GridShape g;
  g.origin = {minX, minY};
  g.invCell = 1.0f / cell;
  g.invRow = static_cast<float>(split) / cell;
  g.cols = static_cast<std::int32_t>((maxX - minX) * g.invCell) + 1;
  g.rows = static_cast<std::int32_t>((maxY - minY) * g.invRow) + 1;
  g.cells = g.cols * g.rows;
  return g;
}

/// The row-major cell of a position.
THRONG_HD std::int32_t gridCellOf(const GridShape& g, float x, float y) {
  const int cx = gridCoord(x, g.origin.x, g.invCell, g.cols);
  const int cy = gridCoord(y, g.origin.y, g.invRow, g.rows);
  return cy * g.cols + cx;
}

/// The scan's view of a grid of that shape over its arrays (the CPU's
/// scratch, or the device's).
THRONG_HD AgentGridView gridViewOf(const GridShape& shape, const std::int32_t* cellStart,
                                   const std::int32_t* sortedIndex, const float* sx, const float* sy) {
  AgentGridView g;
  g.origin = shape.origin;
  g.invCell = shape.invCell;
  g.invRow = shape.invRow;
  g.cols = shape.cols;
  g.rows = shape.rows;
  g.cellStart = cellStart;
  g.sortedIndex = sortedIndex;
  g.sx = sx;
  g.sy = sy;
  return g;
}

/// The bits of a float; for d >= 0 they order as the floats do.
THRONG_HD std::uint32_t floatBits(float f) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(f);
#else
  std::uint32_t u;
  __builtin_memcpy(&u, &f, sizeof u);
  return u;
#endif
}

THRONG_HD float floatFromBits(std::uint32_t u) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(u);
#else
  float f;
  __builtin_memcpy(&f, &u, sizeof f);
  return f;
#endif
}

/// How many candidate keys a scan collects before it trims them to the k
/// nearest; at least twice kMaxNeighbors.
inline constexpr int kScanBuffer = 2 * kMaxNeighbors;

/// A candidate's key: (bits of d) << 32 | index. For d >= 0 one integer
/// comparison orders by distance and breaks ties by index.
THRONG_HD std::uint64_t neighborKey(float distSq, std::int32_t index) {
  return static_cast<std::uint64_t>(floatBits(distSq)) << 32 | static_cast<std::uint32_t>(index);
}

/// Agent j's squared distance from p as every search takes it: the
/// differences, their squares, then their sum.
THRONG_HD_HOT float distSqAt(const AgentsView& a, Vec2 p, std::int32_t j) {
  const float dx = a.px[j] - p.x;
  const float dy = a.py[j] - p.y;
  return dx * dx + dy * dy;
}

/// Agent j's key as seen from p.
THRONG_HD_HOT std::uint64_t keyAt(const AgentsView& a, Vec2 p, std::int32_t j) {
  return neighborKey(distSqAt(a, p, j), j);
}

/// Sorts keys[0, count) ascending and keeps at most k; returns the count kept.
THRONG_HD int keepNearest(std::uint64_t* keys, int count, int k) {
  for (int a = 1; a < count; ++a) {
    const std::uint64_t key = keys[a];
    int b = a;
    for (; b > 0 && keys[b - 1] > key; --b) keys[b] = keys[b - 1];
    keys[b] = key;
  }
  return count < k ? count : k;
}

/// Sorts keys[0, head) (distinct) ascending when keys[0, from) already are:
/// the rest is inserted.
THRONG_HD void sortHeadFrom(std::uint64_t* keys, int head, int from) {
  for (int a = from; a < head; ++a) {
    const std::uint64_t key = keys[a];
    int b = a;
    for (; b > 0 && keys[b - 1] > key; --b) keys[b] = keys[b - 1];
    keys[b] = key;
  }
}

/// Sorts keys[0, head) (distinct) ascending: the sorted start is only
/// compared, a key at a time, then the rest is inserted.
THRONG_HD void sortHead(std::uint64_t* keys, int head) {
  int a = 1;
  while (a < head && keys[a - 1] < keys[a]) ++a;
  sortHeadFrom(keys, head, a);
}

/// Offers `key` (distinct from them) to a sorted head keys[0, head), head
/// >= 1: when it is below the head's last, it takes its place in order and
/// the last is returned; else `key` itself is.
THRONG_HD std::uint64_t offerToHead(std::uint64_t* keys, int head, std::uint64_t key) {
  const std::uint64_t last = keys[head - 1];
  if (!(key < last)) return key;
  int b = head - 1;
  for (; b > 0 && keys[b - 1] > key; --b) keys[b] = keys[b - 1];
  keys[b] = key;
  return last;
}

/// Permutes keys[0, count) (distinct) so that its first min(k, count) are
/// the k smallest, sorted; the rest keep no order. A list kept in last
/// step's order has its k nearest mostly at the head already, so most of
/// the tail costs one comparison. (nearestFromList does the same as it
/// takes the tail's distances.)
THRONG_HD void keepHeadNearest(std::uint64_t* keys, int count, int k) {
  const int head = count < k ? count : k;
  sortHead(keys, head);
  for (int m = head; m < count; ++m) keys[m] = offerToHead(keys, head, keys[m]);
}

/// The k smallest of keys[0, count) (distinct), sorted, into out; returns
/// how many. Each key's rank is the number of keys below it, counted
/// without a data-dependent branch: for the dozen or so candidates a scan
/// that starts from a good bound collects, cheaper than sorting them.
inline constexpr int kRankMax = 16;
THRONG_HD int rankNearest(const std::uint64_t* keys, int count, int k, std::uint64_t* out) {
  for (int a = 0; a < count; ++a) {
    int rank = 0;
    for (int b = 0; b < count; ++b) rank += keys[b] < keys[a];
    if (rank < k) out[rank] = keys[a];
  }
  return count < k ? count : k;
}

/// The first slot in [begin, end) whose x is not below `x` (the slots are
/// sorted by x); written without a data-dependent branch.
THRONG_HD int firstAtOrAfter(const float* sx, int begin, int end, float x) {
  int first = begin, len = end - begin;
  while (len > 0) {
    const int half = len >> 1;
    const int below = -static_cast<int>(sx[first + half] < x);  // all ones or zero
    first += (half + 1) & below;
    len = half + ((len - 2 * half - 1) & below);  // below: len - half - 1, else half
  }
  return first;
}

/// The first slot of `row` at or after x, for a walker in column cx. Columns
/// follow x, so it lies within column cx's slots (or just past them): the
/// binary search needs only those.
THRONG_HD int rowSplit(const AgentGridView& g, int row, int cx, float x) {
  const std::int32_t* const rowStart = g.cellStart + row * g.cols;
  return firstAtOrAfter(g.sx, rowStart[cx], rowStart[cx + 1], x);
}

/// One candidate of a scan: slot s into the buffer when its key is below
/// the limit, trimming a full buffer to the k nearest. `Tight` says the
/// limit is close to the k-th distance; `CheckSelf` that s may be the walker.
template <bool Tight, bool CheckSelf>
THRONG_HD_HOT void visitSlot(const float* sx, const float* sy, const std::int32_t* sortedIndex, int s, Vec2 p,
                             std::int32_t self, int k, std::uint64_t* buf, int& count, std::uint64_t& limitKey,
                             float& limit) {
  const float dx = sx[s] - p.x;
  const float dy = sy[s] - p.y;
  const float d = dx * dx + dy * dy;
  // With a loose limit most candidates fail, and a plain branch is
  // cheapest; with a tight one about half pass, and a branch would
  // mispredict half the time.
  if (!Tight && d > limit) return;
  const std::int32_t idx = sortedIndex[s];
  const std::uint64_t key = neighborKey(d, idx);
  buf[count] = key;
  count += CheckSelf ? (key < limitKey) & (idx != self) : (key < limitKey);
  if (count == kScanBuffer) {
    count = keepNearest(buf, count, k);
    limitKey = buf[k - 1];
    limit = floatFromBits(static_cast<std::uint32_t>(limitKey >> 32));
  }
}

/// Visits columns [xa, xb] of one row (their slots are one range sorted by
/// x) outward from the walker's x: rightward from slot `right`, leftward
/// from slot `left`, each way until dx^2 + dyMin2 exceeds the limit.
/// `CheckSelf` says the walker's own slot may be among them (else the
/// caller has left it out of both walks). The scan's running state
/// (buffer, count, limit) is passed as separate scalars so that, inlined,
/// they stay in registers.
template <bool Tight, bool CheckSelf>
THRONG_HD_HOT void scanRow(const AgentGridView& g, Vec2 p, int row, int xa, int xb, int right, int left,
                           float dyMin2, std::int32_t self, int k, std::uint64_t* buf, int& count,
                           std::uint64_t& limitKey, float& limit) {
  const std::int32_t* const rowStart = g.cellStart + row * g.cols;
  const int begin = rowStart[xa], end = rowStart[xb + 1];
  // Locals, so the compiler need not reload them after each store to buf.
  const float* const sx = g.sx;
  const float* const sy = g.sy;
  const std::int32_t* const sortedIndex = g.sortedIndex;
  for (int s = right; s < end; ++s) {
    const float dx = sx[s] - p.x;
    if (dx * dx + dyMin2 > limit) break;
    visitSlot<Tight, CheckSelf>(sx, sy, sortedIndex, s, p, self, k, buf, count, limitKey, limit);
  }
  for (int s = left; s >= begin; --s) {
    const float dx = sx[s] - p.x;
    if (dx * dx + dyMin2 > limit) break;
    visitSlot<Tight, CheckSelf>(sx, sy, sortedIndex, s, p, self, k, buf, count, limitKey, limit);
  }
}

/// The k nearest agents to agent `self` with keys below `limitKey`, sorted
/// by key into keys[0, count); returns the count.
///
/// It visits the walker's own row, then the rows below and above, outward
/// until a row's nearest edge is beyond the k-th distance so far; within
/// the three columns of a row outward in x from the walker, stopping each
/// way once dx^2 plus that edge distance^2 exceeds it. Candidates
/// go into a buffer without a data-dependent branch; a full buffer is
/// trimmed to the k nearest, which tightens the limit. `Tight` says the
/// limit is already close to the k-th distance. The result is every
/// key below limitKey, the k smallest of them: it does not depend on the
/// order of the visits or on when the buffer is trimmed.
///
/// `known` (may be null): the keys of k distinct agents, all below
/// limitKey. The scan collects them among the others; when it collects
/// exactly k and never trims, those are the whole answer, and sorting the
/// known keys (a step's neighbours of the step before: nearly in order) is
/// cheaper than ranking the buffer.
///
/// `selfSlot`: the walker's own slot, in its row at its x; the walks of its
/// row start either side of it, so no visit needs to test for the walker.
/// With `CheckSelf` (the walker is not at p in the grid) it is -1, and
/// every visit tests.
template <bool Tight, bool CheckSelf>
THRONG_HD_HOT int scanNeighbors(const AgentGridView& g, Vec2 p, std::int32_t self, std::int32_t selfSlot,
                                std::uint64_t limitKey, int k, int cx, int cy, std::uint64_t* keys,
                                const std::uint64_t* known = nullptr) {
  const int xa = cx > 0 ? cx - 1 : 0;
  const int xb = cx + 1 < g.cols ? cx + 1 : g.cols - 1;
  const std::uint64_t startKey = limitKey;
  std::uint64_t buf[kScanBuffer];
  int count = 0;
  // d above `limit` cannot enter (its key would not be below limitKey).
  float limit = floatFromBits(static_cast<std::uint32_t>(limitKey >> 32));
  // How far the walker is from the rows below and above its own: every
  // agent m rows away is at least (m - 1) rows and that far in y, less a
  // margin for rounding at row edges (gridCoord's row is off by at most a
  // few ulps of the row number, so the margin grows with the rows).
  const float rowHeight = 1.0f / g.invRow;
  const float inRow = p.y - (g.origin.y + static_cast<float>(cy) * rowHeight);
  // Far from the origin the float row edge itself is off by ulps of the
  // coordinates (at y = 1e7, half a unit): the margin grows with them too.
  const float margin = rowHeight * (1e-3f + 5e-7f * static_cast<float>(g.rows)) +
                       (std::fabs(p.y) + std::fabs(g.origin.y)) * 2.4e-7f;
  float gapBelow = inRow - margin, gapAbove = rowHeight - inRow - margin;
  gapBelow = gapBelow > 0.0f ? gapBelow : 0.0f;
  gapAbove = gapAbove > 0.0f ? gapAbove : 0.0f;
  // The walker's row, then outward a row at a time each way, while a row
  // can still hold an agent within the limit.
  {
    const int split = CheckSelf ? rowSplit(g, cy, cx, p.x) : selfSlot;
    scanRow<Tight, CheckSelf>(g, p, cy, xa, xb, CheckSelf ? split : split + 1, split - 1, 0.0f, self, k, buf,
                              count, limitKey, limit);
  }
  for (int m = 1;; ++m) {
    const float below = gapBelow + static_cast<float>(m - 1) * rowHeight;
    const float above = gapAbove + static_cast<float>(m - 1) * rowHeight;
    const bool doBelow = cy - m >= 0 && below * below <= limit;
    if (doBelow) {
      const int split = rowSplit(g, cy - m, cx, p.x);
      scanRow<Tight, CheckSelf>(g, p, cy - m, xa, xb, split, split - 1, below * below, self, k, buf, count,
                                limitKey, limit);
    }
    const bool doAbove = cy + m < g.rows && above * above <= limit;
    if (doAbove) {
      const int split = rowSplit(g, cy + m, cx, p.x);
      scanRow<Tight, CheckSelf>(g, p, cy + m, xa, xb, split, split - 1, above * above, self, k, buf, count,
                                limitKey, limit);
    }
    if (!doBelow && !doAbove) break;
  }
  if (known != nullptr && count == k && limitKey == startKey) {
    for (int n = 0; n < k; ++n) keys[n] = known[n];
    return keepNearest(keys, k, k);
  }
  return count <= kRankMax ? rankNearest(buf, count, k, keys) : [&] {
    count = keepNearest(buf, count, k);
    for (int n = 0; n < count; ++n) keys[n] = buf[n];
    return count;
  }();
}

/// The keys, at today's positions, of the first k agents of a hint (any
/// distinct agents, such as last step's neighbours) into keys; returns the
/// largest, which bounds the k-th nearest key, or all ones when one of them
/// is not an agent other than `self`.
THRONG_HD_HOT std::uint64_t hintBound(const AgentsView& a, Vec2 p, std::int32_t self, const std::int32_t* hint,
                                      int k, std::uint64_t* keys) {
  std::uint64_t farthest = 0;
  const std::int32_t count = a.count;
  for (int n = 0; n < k; ++n) {
    const std::int32_t j = hint[n];
    // One unsigned comparison rejects both j < 0 and j >= count.
    if (static_cast<std::uint32_t>(j) >= static_cast<std::uint32_t>(count) || j == self) return ~std::uint64_t{0};
    const std::uint64_t key = keyAt(a, p, j);
    keys[n] = key;
    farthest = key > farthest ? key : farthest;
  }
  return farthest;
}

/// keys[0, count) as agent indices and squared distances.
THRONG_HD void unpackKeys(const std::uint64_t* keys, int count, std::int32_t* outIndex, float* outDistSq) {
  for (int n = 0; n < count; ++n) {
    outIndex[n] = static_cast<std::int32_t>(static_cast<std::uint32_t>(keys[n]));
    outDistSq[n] = floatFromBits(static_cast<std::uint32_t>(keys[n] >> 32));
  }
}

/// The k nearest agents to agent `self` strictly within sqrt(rangeSq),
/// ordered by (distance squared, index). Returns the count.
///
/// The result depends only on the positions, never on the bound the scan
/// starts with, so a scan may start from any bound known to hold k agents:
///  - `hint` (may be null): any distinct agents, such as the walker's
///    neighbours of the step before. The farthest of them, at today's
///    positions, bounds the k-th distance when there are k of them; when
///    there are fewer (hintCount >= 0), the scan takes the full range at
///    once. hintCount < 0 says nothing is known. When no other agent is
///    within that bound, the answer is the hint itself, sorted (cheapest
///    when the hint comes nearly in order, as last step's neighbours do).
///  - Otherwise a bound guessed from the walker's own cell (1.5 times the
///    radius that holds k agents at that cell's density). If k are found
///    inside it, no agent outside it can displace them; if fewer, the scan
///    is repeated with the full range.
/// `selfSlot` (optional): the walker's slot in the grid, which the caller
/// looping over slots knows; checked, and looked for when wrong or -1.
THRONG_HD int selectNeighbors(const AgentGridView& g, const AgentsView& a, Vec2 p, std::int32_t self, float rangeSq,
                              int k, std::int32_t* outIndex, float* outDistSq, const std::int32_t* hint = nullptr,
                              int hintCount = 0, std::int32_t selfSlot = -1) {
  if (k <= 0 || g.cols == 0) return 0;
  if (k > kMaxNeighbors) k = kMaxNeighbors;
  const int cx = gridCoord(p.x, g.origin.x, g.invCell, g.cols);
  const int cy = gridCoord(p.y, g.origin.y, g.invRow, g.rows);
  const std::uint64_t rangeKey = static_cast<std::uint64_t>(floatBits(rangeSq)) << 32;
  std::uint64_t startKey = rangeKey;
  std::uint64_t hintKeys[kMaxNeighbors];
  const std::uint64_t* known = nullptr;  // hintKeys, once they bound the scan
  if (hint != nullptr && hintCount >= k) {
    // The k-th smallest of k distinct keys is their largest; admitting keys
    // up to it (limit = it + 1) admits at least these k.
    const std::uint64_t farthest = hintBound(a, p, self, hint, k, hintKeys);
    if (farthest < rangeKey) {
      startKey = farthest + 1;
      known = hintKeys;
    }
  }
  // A walker that had fewer than k neighbours a step ago most likely still
  // has: a guessed bound would only make it scan twice.
  const bool fewBefore = hint != nullptr && hintCount >= 0 && hintCount < k;
  const int own = cy * g.cols + cx;  // the walker's cell
  if (startKey == rangeKey && !fewBefore) {
    const int inCell = g.cellStart[own + 1] - g.cellStart[own];
    if (inCell > 1) {
      // pi r^2 (inCell / cellArea) = k  =>  r^2 = k cellArea / (pi inCell); times 1.5^2.
      const float guess =
          2.25f * static_cast<float>(k) / (3.14159265f * static_cast<float>(inCell) * g.invCell * g.invRow);
      if (guess < rangeSq) startKey = static_cast<std::uint64_t>(floatBits(guess)) << 32;
    }
  }
  // The walker's own slot: in its cell, among the slots at its x (sorted by
  // index there). The caller's `selfSlot` is taken when it is that slot,
  // else it is looked for. A walker not found there (a caller asking about
  // a point away from it) takes the full scan that tests every visit.
  const bool given = selfSlot >= g.cellStart[own] && selfSlot < g.cellStart[own + 1] &&
                     g.sortedIndex[selfSlot] == self && g.sx[selfSlot] == p.x;
  if (!given) {
    selfSlot = -1;
    for (int s = rowSplit(g, cy, cx, p.x); s < g.cellStart[own + 1] && g.sx[s] == p.x; ++s)
      if (g.sortedIndex[s] == self) {
        selfSlot = s;
        break;
      }
  }
  std::uint64_t keys[kMaxNeighbors];
  int count;
  if (selfSlot < 0) {
    count = scanNeighbors<false, true>(g, p, self, -1, rangeKey, k, cx, cy, keys);
  } else {
    count = startKey < rangeKey ? scanNeighbors<true, false>(g, p, self, selfSlot, startKey, k, cx, cy, keys, known)
                                : scanNeighbors<false, false>(g, p, self, selfSlot, rangeKey, k, cx, cy, keys);
    if (count < k && startKey < rangeKey)
      count = scanNeighbors<false, false>(g, p, self, selfSlot, rangeKey, k, cx, cy, keys);
  }
  unpackKeys(keys, count, outIndex, outDistSq);
  return count;
}

class ThreadPool;

/// The agent grid's arrays, as any model builds it for a step: every agent
/// in a cell (CSR by cell, row-major), each cell sorted by x then index.
/// Shared by the models (ORCA's neighbour search, BioCrowds' marker owners),
/// kept by the step between steps so that a build starts from the last
/// one's order (most agents then come nearly sorted).
struct AgentGrid {
  std::vector<std::int32_t> cellOf, cellStart, sortedIndex;
  std::vector<std::int32_t> slotOf;         ///< each agent's slot: sortedIndex[slotOf[i]] == i
  std::vector<std::int32_t> previousOrder;  ///< the last build's sortedIndex (placement order)
  std::vector<float> sx, sy;                ///< positions by slot
  GridShape shape;
  float minX = 0, minY = 0, maxX = 0, maxY = 0;  ///< the agents' bounds at the last build (NaN left out)
  std::uint64_t version = 0;                     ///< bumped by every build

  /// Builds over positions px, py of n agents, columns at least
  /// perceptionRadius wide (gridShapeFromBounds), on `pool`'s threads when
  /// given. The result depends only on the positions.
  void build(const float* px, const float* py, std::size_t n, float perceptionRadius, int maxNeighbors,
             ThreadPool* pool);
  AgentGridView view() const;
};

}  // namespace throng

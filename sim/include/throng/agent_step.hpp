#pragma once
// The per-agent phases of a step as THRONG_HD functions over plain views:
// preferred velocity (goal, gate, jitter), neighbour selection from the
// uniform grid, and the ORCA solve. The CPU backend loops over them; the
// CUDA kernels call them once per thread; the teaching view calls them for
// one walker. Every view reads the state as it was before the step.
#include <cmath>
#include <cstdint>

#include "throng/agents_view.hpp"
#include "throng/hd.hpp"
#include "throng/obstacles.hpp"
#include "throng/orca.hpp"
#include "throng/orca_lanes.hpp"
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

// ---- candidate lists --------------------------------------------------------
//
// Design note. A walker's neighbours change little from one step to the
// next, so the CPU step keeps, for each walker, a list of every agent that
// was within a radius R of it when the list was built: the k nearest at the
// time plus a skin, as in molecular dynamics' Verlet lists. Each step the
// neighbours are chosen from the list alone, and that answer is exact when
// nobody left out can have come near enough to displace it: an agent left
// out was at least R away; since then the walker has moved |p - p_built|
// and every other agent at most M (the sum over the steps since of the
// largest displacement of any agent that step). So an agent left out is now
// at least R - |p - p_built| - M away ("reach"), and the list's answer is
// the true one when its k-th distance is below reach (or, with fewer than k
// in range, when the range is). Otherwise the list is rebuilt. The lists
// never change a result, only how fast it is found; every bound is taken
// with margins far above float rounding (1e-5 relative).

/// The most agents a candidate list holds; a walker with more around it
/// takes the grid scan.
inline constexpr int kNearCapacity = 32;

/// The part of the grid gatherNear reads for a radius about p: rows [ya,
/// yb], and in each the slots from the first at or after lowX while their x
/// is at most highX (the columns [xa, xb] hold them). The grid's columns
/// and rows are monotone in x and y, so they follow from p -+ radius
/// (padded for the rounding of those bounds).
struct NearWindow {
  float lowX, highX, radiusSq;
  int xa, xb, ya, yb;
};
THRONG_HD NearWindow nearWindow(const AgentGridView& g, Vec2 p, float radius) {
  const float pad = radius * 1.001f + (std::fabs(p.x) + std::fabs(p.y)) * 1e-6f;
  NearWindow w;
  w.lowX = p.x - pad;
  w.highX = p.x + pad;
  w.radiusSq = radius * radius;
  w.xa = gridCoord(w.lowX, g.origin.x, g.invCell, g.cols);
  w.xb = gridCoord(w.highX, g.origin.x, g.invCell, g.cols);
  w.ya = gridCoord(p.y - pad, g.origin.y, g.invRow, g.rows);
  w.yb = gridCoord(p.y + pad, g.origin.y, g.invRow, g.rows);
  return w;
}

/// Every agent other than `self` whose squared distance d from p (computed
/// as the scan computes it) is below radius^2, as its key (d, index) into
/// keys, in no particular order; returns how many, or -1 when there are more
/// than `capacity`.
THRONG_HD int gatherNear(const AgentGridView& g, Vec2 p, std::int32_t self, float radius, std::uint64_t* keys,
                         int capacity) {
  if (g.cols == 0) return 0;
  const NearWindow w = nearWindow(g, p, radius);
  int count = 0;
  for (int row = w.ya; row <= w.yb; ++row) {
    const std::int32_t* const rowStart = g.cellStart + row * g.cols;
    const int end = rowStart[w.xb + 1];
    for (int s = firstAtOrAfter(g.sx, rowStart[w.xa], end, w.lowX); s < end && g.sx[s] <= w.highX; ++s) {
      const float dx = g.sx[s] - p.x;
      const float dy = g.sy[s] - p.y;
      const float d = dx * dx + dy * dy;
      if (!(d < w.radiusSq)) continue;
      const std::int32_t idx = g.sortedIndex[s];
      if (idx == self) continue;
      if (count == capacity) return -1;
      keys[count++] = neighborKey(d, idx);
    }
  }
  return count;
}

#if !defined(__CUDA_ARCH__)
/// gatherNear, eight slots at a time: the same keys, in the same order.
/// Host code, only where lineLanesAvailable() (orca_lanes.cpp).
int gatherNear8(const AgentGridView& g, Vec2 p, std::int32_t self, float radius, std::uint64_t* keys, int capacity);
#endif

/// How near (squared) an agent left out of a list of radius `listRadius`
/// can be now, when the walker has moved `ownMove` since the list was built
/// and every other agent at most `othersMove`: less margins far above the
/// rounding of the distances and of this bound. 0 when nothing is left.
THRONG_HD float nearReachSq(float listRadius, float ownMove, float othersMove) {
  // A list wider than sqrt(FLT_MAX) may have left out agents whose squared
  // distance overflowed: it vouches for no more than that.
  listRadius = listRadius < 1.8e19f ? listRadius : 1.8e19f;
  const float reach = listRadius * (1.0f - 1e-5f) - (ownMove + othersMove) * (1.0f + 1e-5f);
  // Below 1e-15 the squares near the subnormal range lose the margins.
  return reach > 1e-15f ? reach * reach * (1.0f - 1e-5f) : 0.0f;  // NaN: 0
}

/// nearReachSq, or the same bound from relative motion where that is
/// nearer: an agent left out of the list was at least `listRadius` away;
/// while it stays within `side` of the walker, it moves relative to it by
/// at most the walker's summed spreads `relMoved` (World's MotionTiles);
/// to come from beyond `side` it first crossed a step in which both moved
/// at most `othersMove`. relMoved inf: the first bound alone.
THRONG_HD float listReachSq(float listRadius, float ownMove, float othersMove, float side, float relMoved) {
  listRadius = listRadius < 1.8e19f ? listRadius : 1.8e19f;
  const float near = listRadius * (1.0f - 1e-5f);
  const float global = near - (ownMove + othersMove) * (1.0f + 1e-5f);
  const float far = side * (1.0f - 1e-5f) - 2.0f * othersMove * (1.0f + 1e-5f);
  const float relative = (far < near ? far : near) - relMoved * (1.0f + 1e-5f);
  const float reach = relative > global ? relative : global;
  return reach > 1e-15f ? reach * reach * (1.0f - 1e-5f) : 0.0f;  // NaN: 0
}

/// nearestFromList's answer once the head keys[0, head) holds the list's
/// nearest min(k, its count), sorted: they are unpacked into outIndex (up to
/// k entries are written, those past `found` as scratch) and sorted[0,
/// head), those in range counted into `found`, the k-th's squared distance
/// written when there are k; the count when the list proves it (reachSq),
/// else -1.
THRONG_HD int answerFromHead(const std::uint64_t* keys, int head, int k, float rangeSq, float reachSq,
                             std::int32_t* sorted, std::int32_t* outIndex, float& kthDistSq, int& found) {
  const std::uint64_t rangeKey = static_cast<std::uint64_t>(floatBits(rangeSq)) << 32;
  int count = 0;
  int n = 0;
#if THRONG_SSE2
  // Four keys at a time: their indices (low halves) stored, their distances
  // (high halves) counted below the range's bits, unsigned (a key is below
  // rangeKey exactly when its high half is below the range's bits).
  const __m128i flip = _mm_set1_epi32(static_cast<int>(0x80000000u));
  const __m128i range = _mm_xor_si128(_mm_set1_epi32(static_cast<int>(floatBits(rangeSq))), flip);
  __m128i below = _mm_setzero_si128();
  for (; n + 4 <= head; n += 4) {
    const __m128 low = _mm_castsi128_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(keys + n)));
    const __m128 high = _mm_castsi128_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(keys + n + 2)));
    const __m128i index = _mm_castps_si128(_mm_shuffle_ps(low, high, _MM_SHUFFLE(2, 0, 2, 0)));
    const __m128i dist = _mm_castps_si128(_mm_shuffle_ps(low, high, _MM_SHUFFLE(3, 1, 3, 1)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(sorted + n), index);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(outIndex + n), index);
    below = _mm_sub_epi32(below, _mm_cmplt_epi32(_mm_xor_si128(dist, flip), range));
  }
  below = _mm_add_epi32(below, _mm_shuffle_epi32(below, _MM_SHUFFLE(1, 0, 3, 2)));
  below = _mm_add_epi32(below, _mm_shuffle_epi32(below, _MM_SHUFFLE(2, 3, 0, 1)));
  count = _mm_cvtsi128_si32(below);
#endif
  for (; n < head; ++n) {
    const std::int32_t index = static_cast<std::int32_t>(static_cast<std::uint32_t>(keys[n]));
    count += keys[n] < rangeKey;
    sorted[n] = index;
    outIndex[n] = index;
  }
  found = count;
  if (count == k) kthDistSq = floatFromBits(static_cast<std::uint32_t>(keys[k - 1] >> 32));
  // The k-th must be nearer than anyone left out could be; with fewer than
  // k in range, nobody left out may be in range.
  const bool proven = count == k ? kthDistSq < reachSq : rangeSq <= reachSq;
  return proven ? count : -1;
}

/// selectNeighbors' answer (the k nearest strictly within sqrt(rangeSq), by
/// (distance squared, index)) from a candidate list, when every agent not
/// in it is at least sqrt(reachSq) away. The list's nearest (at most k, in
/// range) go to outIndex and their count to `found` (up to k entries past
/// it are written too, as scratch), and the k-th's squared distance, when
/// there are k, to kthDistSq (the step needs no other). Returns the count
/// when the list proves it is the answer, else -1. The list is written to
/// `sorted` (may be `list`) with today's k nearest first, in order, so the
/// next step's head has little to move and its tail little to swap in.
/// A list of fewer than k that cannot prove itself (the range is beyond
/// reach) fails at once: nothing is written, and `found` is 0.
THRONG_HD_HOT int nearestFromList(const AgentsView& a, Vec2 p, float rangeSq, int k, const std::int32_t* list,
                                  int listCount, float reachSq, std::int32_t* sorted, std::int32_t* outIndex,
                                  float& kthDistSq, int& found) {
  found = 0;
  if (k <= 0) return 0;
  if (k > kMaxNeighbors) k = kMaxNeighbors;
  // With fewer than k listed the list proves itself only when the range is
  // within reach, whatever the distances: a ring's lists, all built at
  // once, fail together every few steps, and skip taking them then.
  if (listCount < k && !(rangeSq <= reachSq)) return -1;
  const auto keyOf = [&](std::int32_t j) { return keyAt(a, p, j); };
  // The head's keys, sorted; then each of the tail's offered to it as it is
  // taken, the key it leaves out written back to the tail.
  const int head = listCount < k ? listCount : k;
  std::uint64_t keys[kMaxNeighbors];
  // Where the head's order first breaks (head: nowhere) is found as its
  // keys are taken, with a select, not by a loop of its own: that loop's
  // exit, at the head's varying length, was a mispredicted branch for
  // many walkers.
  int unsortedFrom = head;
  std::uint64_t previous = 0;  // no key is below it
  for (int m = 0; m < head; ++m) {
    const std::uint64_t key = keys[m] = keyOf(list[m]);
    unsortedFrom = unsortedFrom == head && previous > key ? m : unsortedFrom;
    previous = key;
  }
  sortHeadFrom(keys, head, unsortedFrom);
  for (int m = head; m < listCount; ++m) {
    const std::int32_t j = list[m];
    sorted[m] = static_cast<std::int32_t>(static_cast<std::uint32_t>(offerToHead(keys, head, keyOf(j))));
  }
  return answerFromHead(keys, head, k, rangeSq, reachSq, sorted, outIndex, kthDistSq, found);
}

/// nearestFromList's answer, but in the list's order rather than nearest
/// first, for a list of fewer than k that proves the range (its range is
/// within reach, so every listed agent strictly in range is a neighbour):
/// them into outIndex (room for listCount), returning how many. The keys
/// and their sort are left to orderNeighbors, for the walkers whose linear
/// program reads their order (SolveBatch: on a ring, none). SolveBatch
/// takes it for a batch with obstacle lines; elsewhere agentLinePairs8
/// tells the same in its lanes.
THRONG_HD int inRangeFromList(const AgentsView& a, Vec2 p, float rangeSq, const std::int32_t* list, int listCount,
                              std::int32_t* outIndex) {
  // In range as a key is (answerFromHead): its distance's bits below the
  // range's, so a NaN distance is out.
  const std::uint32_t range = floatBits(rangeSq);
  std::int32_t* out = outIndex;  // (an index into outIndex took three more instructions an agent)
  for (const std::int32_t* at = list; at != list + listCount; ++at) {
    const std::int32_t j = *at;
    *out = j;
    out += floatBits(distSqAt(a, p, j)) < range;
  }
  return static_cast<int>(out - outIndex);
}

/// Orders a walker's neighbours[0, count) at p nearest first, by (distance
/// squared, index) as every neighbour search gives them, moving lines[m]
/// (its agent lines, built in the neighbours' order) along with them.
THRONG_HD void orderNeighbors(const AgentsView& a, Vec2 p, std::int32_t* neighbors, int count, Line* lines) {
  std::uint64_t keys[kMaxNeighbors];
  for (int m = 0; m < count; ++m) keys[m] = keyAt(a, p, neighbors[m]);
  for (int m = 1; m < count; ++m) {
    const std::uint64_t key = keys[m];
    const Line line = lines[m];
    int b = m;
    for (; b > 0 && keys[b - 1] > key; --b) {
      keys[b] = keys[b - 1];
      lines[b] = lines[b - 1];
    }
    keys[b] = key;
    lines[b] = line;
  }
  for (int m = 0; m < count; ++m) neighbors[m] = static_cast<std::int32_t>(static_cast<std::uint32_t>(keys[m]));
}

/// nearestFromList for a list just gathered, as keys (gatherNear), which
/// it permutes: the same answer without taking the distances again, and
/// the whole list written to `sorted` (its nearest first) whatever it is.
THRONG_HD int nearestFromKeys(std::uint64_t* keys, int count, float rangeSq, int k, float reachSq,
                              std::int32_t* sorted, std::int32_t* outIndex, float& kthDistSq, int& found) {
  k = k < 0 ? 0 : (k > kMaxNeighbors ? kMaxNeighbors : k);
  const int head = count < k ? count : k;
  keepHeadNearest(keys, count, k);
  for (int m = head; m < count; ++m) sorted[m] = static_cast<std::int32_t>(static_cast<std::uint32_t>(keys[m]));
  found = 0;
  if (k == 0) return 0;
  return answerFromHead(keys, head, k, rangeSq, reachSq, sorted, outIndex, kthDistSq, found);
}

/// What the solve of one walker needs besides the views.
struct SolveParams {
  float invTimeHorizon = 1, invObstacleTimeHorizon = 2, invDt = 60;
  float perceptionRadiusSq = 1e4f;
  std::int32_t maxNeighbors = 10;
  /// Build the agent lines eight at a time (agentLines8, the same bits as
  /// agentLine; host code on a CPU where lineLanesAvailable(); the CUDA
  /// kernels ignore it).
  bool lineLanes = false;
};

/// The solve's working set; the teaching view reads it back.
struct SolveScratch {
  Line lines[kMaxLines];
  std::int32_t neighbors[kMaxNeighbors];
  float neighborDistSq[kMaxNeighbors];  // the grid scan's; a list's walker leaves it as it was
  std::int32_t edges[kMaxObstacleLines];
  float edgeDistSq[kMaxObstacleLines];
  int neighborCount = 0, edgeCount = 0, obstacleLineCount = 0, lineCount = 0;
  /// A list stands in for the neighbours (the CPU step's SolveBatch):
  /// `list`, of neighborCount agents, whose ones in range are the
  /// neighbours (inRangeFromList), in the list's order rather than nearest
  /// first. The batch finds them with their lines, and orders them
  /// (orderNeighbors) before a linear program reads them.
  bool fromList = false;
  const std::int32_t* list = nullptr;  ///< read only with fromList
};

/// solveWithNeighbors' first part: agent i's obstacle edges and lines,
/// into s.edges and s.lines[0, s.obstacleLineCount).
THRONG_HD void obstacleLinesOf(const AgentsView& a, const ObstacleView& ov, const SolveParams& sp, std::int32_t i,
                               SolveScratch& s) {
  if (ov.vertexCount == 0) {  // no obstacles: nothing to read or divide (selectObstacleEdges' first test)
    s.edgeCount = s.obstacleLineCount = 0;
    return;
  }
  const Vec2 p{a.px[i], a.py[i]};
  const float r = a.radius[i];
  const float reach = a.maxSpeed[i] / sp.invObstacleTimeHorizon + r;
  s.edgeCount = selectObstacleEdges(ov, p, reach * reach, s.edges, s.edgeDistSq, kMaxObstacleLines);
  s.obstacleLineCount =  // the test skips an out-of-line call in the open (about 28 instructions)
      s.edgeCount > 0 ? obstacleLines(ov, s.edges, s.edgeCount, p, Vec2{a.vx[i], a.vy[i]}, r,
                                      sp.invObstacleTimeHorizon, s.lines)
                      : 0;
}

/// solveWithNeighbors' last part, once the agent lines follow the
/// obstacle lines in s.lines: the linear programs. False when jammed.
THRONG_HD bool solveWithLines(const AgentsView& a, const SolveParams& sp, std::int32_t i, Vec2 preferred,
                              Vec2& out, SolveScratch& s) {
  s.lineCount = s.obstacleLineCount + s.neighborCount;
  return solveVelocity(s.lines, s.lineCount, s.obstacleLineCount, a.maxSpeed[i], preferred, out, sp.lineLanes);
}

/// ORCA for agent i once its neighbours are in s.neighbors[0,
/// s.neighborCount), as selectNeighbors or nearestFromList chose them:
/// solveAgent's second half.
THRONG_HD bool solveWithNeighbors(const AgentsView& a, const ObstacleView& ov, const SolveParams& sp,
                                  std::int32_t i, Vec2 preferred, Vec2& out, SolveScratch& s) {
  obstacleLinesOf(a, ov, sp, i, s);
  Line* const agentLineOut = s.lines + s.obstacleLineCount;
#if !defined(__CUDA_ARCH__)  // host code, the same in every compiler's host pass
  if (sp.lineLanes)
    agentLines8(a, i, s.neighbors, s.neighborCount, sp.invTimeHorizon, sp.invDt, agentLineOut);
  else
#endif
    agentLines(a, i, s.neighbors, s.neighborCount, sp.invTimeHorizon, sp.invDt, agentLineOut);
  return solveWithLines(a, sp, i, preferred, out, s);
}

/// ORCA for agent i: returns false when the walker is jammed. `preferred`
/// is its wish for this step; the new velocity goes to `out`. `hint`,
/// `hintCount` and `slot` (i's grid slot) only speed up the neighbour
/// search (see selectNeighbors).
THRONG_HD bool solveAgent(const AgentsView& a, const AgentGridView& g, const ObstacleView& ov,
                          const SolveParams& sp, std::int32_t i, Vec2 preferred, Vec2& out,
                          SolveScratch& s, const std::int32_t* hint = nullptr, int hintCount = 0,
                          std::int32_t slot = -1) {
  s.neighborCount = selectNeighbors(g, a, Vec2{a.px[i], a.py[i]}, i, sp.perceptionRadiusSq, sp.maxNeighbors,
                                    s.neighbors, s.neighborDistSq, hint, hintCount, slot);
  return solveWithNeighbors(a, ov, sp, i, preferred, out, s);
}

// ---- preferred velocities -------------------------------------------------

/// The lowest pace, as a fraction of the top speed, that slowingRadius eases to.
inline constexpr float kSlowestPace = 0.1f;

/// The speed a walker heads for its goal at: its preferred speed when that
/// is above zero and below its top speed, else its top speed.
THRONG_HD float cruiseSpeed(float prefSpeed, float maxSpeed) {
  return prefSpeed > 0 && prefSpeed < maxSpeed ? prefSpeed : maxSpeed;
}

/// The wish to reach `goal`: full speed, eased within slowingRadius, and on
/// the last step exactly the velocity that lands on it (`landing` is set).
THRONG_HD Vec2 goalWish(Vec2 p, Vec2 goal, float maxSpeed, float slowingRadius, float dt, bool& landing) {
  const Vec2 toGoal = goal - p;
  const float distSq = toGoal.lengthSquared();
  landing = false;
  if (distSq == 0.0f) return Vec2{};
  const float dist = std::sqrt(distSq);
  float speed = maxSpeed;
  if (slowingRadius > 0.0f && dist < slowingRadius) {
    const float pace = dist / slowingRadius;
    speed = maxSpeed * (pace > kSlowestPace ? pace : kSlowestPace);
  }
  if (dist <= speed * dt) {
    landing = true;
    return toGoal / dt;
  }
  return toGoal / dist * speed;  // as RVO2 normalises: its wish, bit for bit, at speed 1
}

#if !defined(__CUDA_ARCH__)
/// goalWish for eight walkers l in [0, 8), at cruiseSpeed(prefSpeed[l],
/// maxSpeed[l]): the same bits. landing[l] is 1 or 0. Host code,
/// only where lineLanesAvailable() (orca_lanes.cpp).
void goalWishes8(const float* px, const float* py, const float* gx, const float* gy, const float* prefSpeed,
                 const float* maxSpeed, float slowingRadius, float dt, float* wishX, float* wishY,
                 std::uint8_t* landing);
#endif

/// Which side of gate a-b the point is on: +1 (left or on it) or -1.
THRONG_HD float gateSide(Vec2 a, Vec2 b, Vec2 p) { return det(b - a, p - a) >= 0.0f ? 1.0f : -1.0f; }

/// The point a routed walker aims at: the nearest point of the gate kept a
/// radius in from each end, pushed two radii through to the far side.
THRONG_HD Vec2 gateTarget(Vec2 a, Vec2 b, Vec2 p, float radius) {
  const Vec2 ab = b - a;
  const float len = ab.length();
  if (len == 0.0f) return a;
  const Vec2 t = ab / len;
  float inset = radius < 0.5f * len ? radius : 0.5f * len;
  float along = dot(p - a, t);
  along = along < inset ? inset : (along > len - inset ? len - inset : along);
  const Vec2 normal = perpLeft(t);  // points to the +1 side
  return a + along * t - normal * (gateSide(a, b, p) * 2.0f * radius);
}

/// True when a move from `from` to `to` crosses the infinite line of gate a-b.
THRONG_HD bool crossesGate(Vec2 a, Vec2 b, Vec2 from, Vec2 to) {
  return gateSide(a, b, from) != gateSide(a, b, to);
}

/// Adds the step's shake to a moving walker's wish: a vector of length at
/// most jitter*maxSpeed, hashed from (seed, id, step).
THRONG_HD Vec2 jitterWish(Vec2 wish, float maxSpeed, float jitter, std::uint64_t seed, std::uint64_t id,
                          std::uint64_t step) {
  if (jitter <= 0.0f || wish.lengthSquared() == 0.0f) return wish;
  const std::uint64_t h = mix64(seed ^ mix64(id ^ mix64(step)));
  Vec2 d{unitFromBits(h), unitFromBits(mix64(h))};
  const float len2 = d.lengthSquared();
  if (len2 > 1.0f) d = d / std::sqrt(len2);
  return wish + d * (jitter * maxSpeed);
}

}  // namespace throng

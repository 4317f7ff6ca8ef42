#pragma once
// Candidate lists: each walker's neighbours proved from a list kept across
// steps instead of a grid scan (the design note below). THRONG_HD, host and
// device; the CPU step keeps the lists.
#include <cstdint>

#include "neighbors/agent_grid.hpp"

namespace throng {

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
/// Host code, only where lanesAvailable() (fast/lanes.cpp).
int gatherNearInLanes(const AgentGridView& g, Vec2 p, std::int32_t self, float radius, std::uint64_t* keys, int capacity);
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
/// takes it for a batch with obstacle lines; elsewhere batchAgentLines
/// tells the same in its lanes.
THRONG_HD int inRangeFromList(const AgentsView& a, Vec2 p, float rangeSq, const std::int32_t* list, int listCount,
                              std::int32_t* outIndex) {
  // In range as a key is (answerFromHead): its distance's bits below the
  // range's, so a NaN distance is out.
  const std::uint32_t range = floatBits(rangeSq);
  std::int32_t* out = outIndex;  // a pointer: an index into outIndex costs more instructions an agent
  for (const std::int32_t* at = list; at != list + listCount; ++at) {
    const std::int32_t j = *at;
    *out = j;
    out += floatBits(distSqAt(a, p, j)) < range;
  }
  return static_cast<int>(out - outIndex);
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

}  // namespace throng

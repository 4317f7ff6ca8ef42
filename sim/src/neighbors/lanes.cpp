// The neighbour search's phases eight at a time (AVX2): trackMotionBatch
// (neighbors/motion.hpp) and gatherNearInLanes (neighbors/near_lists.hpp), the
// same values; and their portable forms.
#include <cstdint>
#include <limits>

#include "base/lanes.hpp"
#include "neighbors/motion.hpp"
#include "neighbors/near_lists.hpp"

namespace throng {

#if THRONG_LANES
using namespace lanes;

// gatherNear's rows eight slots at a time, read straight from the grid's
// position arrays (no gathers). A row's walk stops at its first slot past
// highX (or its end), as gatherNear's does: lanes from there on are dropped
// even if they would pass (a NaN position breaks the order by x).
THRONG_AVX2 int gatherNearInLanes(const AgentGridView& g, Vec2 p, std::int32_t self, float radius, std::uint64_t* keys,
                            int capacity) {
  if (g.cols == 0) return 0;
  const NearWindow w = nearWindow(g, p, radius);
  const F x0 = F{} + p.x, y0 = F{} + p.y, high = F{} + w.highX, limit = F{} + w.radiusSq;
  // The grid's slots: a group reaching past the last is read masked.
  const int slots = g.cellStart[g.cols * g.rows];
  int count = 0;
  alignas(32) float d[8];
  for (int row = w.ya; row <= w.yb; ++row) {
    const std::int32_t* const rowStart = g.cellStart + row * g.cols;
    const int end = rowStart[w.xb + 1];
    for (int s = firstAtOrAfter(g.sx, rowStart[w.xa], end, w.lowX); s < end; s += 8) {
      F x, y;
      if (s + 8 <= slots) {
        x = load(g.sx + s);
        y = load(g.sy + s);
      } else {
        const __m256i valid = reinterpret_cast<__m256i>(lanesBelow(slots - s));
        x = _mm256_maskload_ps(g.sx + s, valid);
        y = _mm256_maskload_ps(g.sy + s, valid);
      }
      // The walk's lanes: those before the first past highX or the end.
      const unsigned stop =
          static_cast<unsigned>(_mm256_movemask_ps(reinterpret_cast<F>(~(lanesBelow(end - s) & (x <= high))))) |
          0x100u;
      const int walked = __builtin_ctz(stop);
      const F dx = x - x0, dy = y - y0;
      const F dist = dx * dx + dy * dy;
      unsigned pass = static_cast<unsigned>(_mm256_movemask_ps(reinterpret_cast<F>(dist < limit))) &
                      ((1u << walked) - 1u);
      if (pass != 0) {
        _mm256_store_ps(d, dist);
        do {
          const int lane = __builtin_ctz(pass);
          pass &= pass - 1;
          const std::int32_t idx = g.sortedIndex[s + lane];
          if (idx == self) continue;
          if (count == capacity) return -1;
          keys[count++] = neighborKey(d[lane], idx);
        } while (pass != 0);
      }
      if (walked < 8) break;
    }
  }
  return count;
}

namespace {
/// Eight agents' tiles (TileShape) from where they started, lanes of
/// tileOf's values.
THRONG_AVX2 inline __m256i tileLanes(const TileShape& t, F lx, F ly) {
  const F zero = F{};
  // max(f, 0) is 0 for a NaN f, as tileOf's select.
  const F fx = _mm256_min_ps(_mm256_max_ps((lx - t.originX) * t.invWidth, zero), zero + t.lastColumn);
  const F fy = _mm256_min_ps(_mm256_max_ps((ly - t.originY) * t.invWidth, zero), zero + t.lastRow);
  return _mm256_add_epi32(_mm256_mullo_epi32(_mm256_cvttps_epi32(fy), _mm256_set1_epi32(t.cols)),
                          _mm256_cvttps_epi32(fx));
}

/// Eight displacements into their tiles' boxes (TileBoxes): when all eight
/// started in one tile, their lowest and highest once, else one by one.
THRONG_AVX2 inline void boxLanes(float* box, __m256i tile, F dx, F dy) {
  const __m256i first = _mm256_permutevar8x32_epi32(tile, _mm256_setzero_si256());
  if (_mm256_movemask_epi8(_mm256_cmpeq_epi32(tile, first)) == -1) {
    const F pairs = _mm256_unpacklo_ps(dx, dy), others = _mm256_unpackhi_ps(dx, dy);  // (dx, dy) of lanes
    const F low8 = _mm256_min_ps(pairs, others), high8 = _mm256_max_ps(pairs, others);
    __m128 low = _mm_min_ps(_mm256_castps256_ps128(low8), _mm256_extractf128_ps(low8, 1));
    __m128 high = _mm_max_ps(_mm256_castps256_ps128(high8), _mm256_extractf128_ps(high8, 1));
    low = _mm_min_ps(low, _mm_movehl_ps(low, low));  // lowest dx, lowest dy first
    high = _mm_max_ps(high, _mm_movehl_ps(high, high));
    float* const b = box + 4 * static_cast<std::size_t>(_mm256_cvtsi256_si32(tile));
    const __m128 got = _mm_unpacklo_ps(_mm_xor_ps(low, _mm_set1_ps(-0.0f)), high);  // -low x, high x, -low y, high y
    _mm_storeu_ps(b, _mm_max_ps(got, _mm_loadu_ps(b)));
    return;
  }
  alignas(32) float ex[8], ey[8];
  alignas(32) std::int32_t ek[8];
  _mm256_store_ps(ex, dx);
  _mm256_store_ps(ey, dy);
  _mm256_store_si256(reinterpret_cast<__m256i*>(ek), tile);
  for (int l = 0; l < 8; ++l) boxMove(box, ek[l], ex[l], ey[l]);
}
}  // namespace

// trackMotion's chunk eight agents at a time: the displacements squared in
// double from float differences (as the scalar loop takes them), their
// largest by lanes with NaN kept aside (a lane's max drops a NaN), the
// positions kept, and the AgentKin records written by a transpose.
THRONG_AVX2 double trackMotionBatch(const float* px, const float* py, const float* vx, const float* vy,
                                const float* radius, float* lastX, float* lastY, AgentKin* kin, std::size_t count,
                                const TileBoxes* tiles) {
  __m256d largest = _mm256_setzero_pd(), unordered = _mm256_setzero_pd();
  const F zero = F{};
  std::size_t i = 0;
  for (; i + 8 <= count; i += 8) {
    const F x = load(px + i), y = load(py + i), lx = load(lastX + i), ly = load(lastY + i);
    const F dx = x - lx, dy = y - ly;
    const __m256d dxLow = _mm256_cvtps_pd(_mm256_castps256_ps128(dx));
    const __m256d dxHigh = _mm256_cvtps_pd(_mm256_extractf128_ps(dx, 1));
    const __m256d dyLow = _mm256_cvtps_pd(_mm256_castps256_ps128(dy));
    const __m256d dyHigh = _mm256_cvtps_pd(_mm256_extractf128_ps(dy, 1));
    const __m256d low = dxLow * dxLow + dyLow * dyLow, high = dxHigh * dxHigh + dyHigh * dyHigh;
    unordered = _mm256_or_pd(unordered, _mm256_or_pd(_mm256_cmp_pd(low, low, _CMP_UNORD_Q),
                                                     _mm256_cmp_pd(high, high, _CMP_UNORD_Q)));
    largest = _mm256_max_pd(largest, _mm256_max_pd(low, high));
    F tile = zero;  // as bits
    if (tiles) {
      const __m256i k = tileLanes(tiles->shape, lx, ly);
      boxLanes(tiles->box, k, dx, dy);
      tile = _mm256_castsi256_ps(k);
    }
    _mm256_storeu_ps(lastX + i, x);
    _mm256_storeu_ps(lastY + i, y);
    // Records: {px, py, vx, vy} of agent l (and l + 4) in each half of
    // motion[l], {radius, tile, 0, 0} in rest[l].
    const F u = load(vx + i), v = load(vy + i), r = load(radius + i);
    const F xyLow = _mm256_unpacklo_ps(x, y), xyHigh = _mm256_unpackhi_ps(x, y);
    const F uvLow = _mm256_unpacklo_ps(u, v), uvHigh = _mm256_unpackhi_ps(u, v);
    const F rLow = _mm256_unpacklo_ps(r, tile), rHigh = _mm256_unpackhi_ps(r, tile);
    const F motion[4] = {_mm256_shuffle_ps(xyLow, uvLow, 0x44), _mm256_shuffle_ps(xyLow, uvLow, 0xEE),
                         _mm256_shuffle_ps(xyHigh, uvHigh, 0x44), _mm256_shuffle_ps(xyHigh, uvHigh, 0xEE)};
    const F rest[4] = {_mm256_shuffle_ps(rLow, zero, 0x04), _mm256_shuffle_ps(rLow, zero, 0x0E),
                       _mm256_shuffle_ps(rHigh, zero, 0x04), _mm256_shuffle_ps(rHigh, zero, 0x0E)};
    float* const out = reinterpret_cast<float*>(kin + i);
    for (int l = 0; l < 4; ++l) {
      _mm256_storeu_ps(out + 8 * l, _mm256_permute2f128_ps(motion[l], rest[l], 0x20));
      _mm256_storeu_ps(out + 8 * (l + 4), _mm256_permute2f128_ps(motion[l], rest[l], 0x31));
    }
  }
  alignas(32) double lanes[4];
  _mm256_store_pd(lanes, largest);
  double m = 0;
  for (const double d : lanes) m = d > m ? d : m;
  const double tail = trackMotionOneByOne(px + i, py + i, vx + i, vy + i, radius + i, lastX + i, lastY + i, kin + i,
                                          count - i, tiles);
  m = tail > m ? tail : m;
  const bool nan = _mm256_movemask_pd(unordered) != 0 || tail != tail;
  return nan ? std::numeric_limits<double>::quiet_NaN() : m;
}

#else
int gatherNearInLanes(const AgentGridView& g, Vec2 p, std::int32_t self, float radius, std::uint64_t* keys,
                int capacity) {
  return gatherNear(g, p, self, radius, keys, capacity);
}
double trackMotionBatch(const float* px, const float* py, const float* vx, const float* vy, const float* radius,
                    float* lastX, float* lastY, AgentKin* kin, std::size_t count, const TileBoxes* tiles) {
  return trackMotionOneByOne(px, py, vx, vy, radius, lastX, lastY, kin, count, tiles);
}
#endif

}  // namespace throng

// The shared phases eight walkers at a time (AVX2): goalWishesBatch (core/
// wish.hpp's goalWish) and integrateBatch (core/integrate.hpp's integrateAt),
// the same bits; and their portable forms.
#include <cstdint>

#include "base/lanes.hpp"
#include "core/integrate.hpp"
#include "core/wish.hpp"

namespace throng {

#if THRONG_LANES
using namespace lanes;

// goalWish for eight walkers: every branch in every lane, with the same
// operations in the same order (Vec2's division is a reciprocal, then two
// products), and a mask picks each lane's.
THRONG_AVX2 void goalWishesBatch(const float* px, const float* py, const float* gx, const float* gy,
                             const float* prefSpeed, const float* maxSpeed, float slowingRadius, float dt,
                             float* wishX, float* wishY, std::uint8_t* landing) {
  const F zero = F{}, one = zero + 1.0f;
  const F x = load(px), y = load(py);
  const F toX = load(gx) - x, toY = load(gy) - y;
  const F distSq = toX * toX + toY * toY;
  const F pref = load(prefSpeed), top = load(maxSpeed);
  F speed = ((pref > zero) & (pref < top)) ? pref : top;  // cruiseSpeed
  const F dist = sqrtLanes(distSq);
  if (slowingRadius > 0.0f) {
    const F radius = zero + slowingRadius, slowest = zero + kSlowestPace;
    const F pace = dist / radius;
    const F eased = speed * (pace > slowest ? pace : slowest);
    speed = dist < radius ? eased : speed;
  }
  const F step = zero + dt;
  const M none = distSq == zero;
  const M lands = ~none & (dist <= speed * step);
  const F invDt = one / step, invDist = one / dist;
  F outX = lands ? toX * invDt : toX * invDist * speed;
  F outY = lands ? toY * invDt : toY * invDist * speed;
  outX = none ? zero : outX;
  outY = none ? zero : outY;
  _mm256_storeu_ps(wishX, outX);
  _mm256_storeu_ps(wishY, outY);
  const unsigned bits = static_cast<unsigned>(_mm256_movemask_ps(reinterpret_cast<F>(lands)));
  for (int l = 0; l < 8; ++l) landing[l] = static_cast<std::uint8_t>((bits >> l) & 1u);
}

namespace {
/// The lanes whose flag byte (of eight from `bytes`) is set.
THRONG_AVX2 inline M flagLanes(const std::uint8_t* bytes) {
  std::uint64_t eight;
  __builtin_memcpy(&eight, bytes, sizeof eight);
  const __m256i wide = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(static_cast<long long>(eight)));
  return reinterpret_cast<M>(_mm256_cmpgt_epi32(wide, _mm256_setzero_si256()));
}
}  // namespace

THRONG_AVX2 unsigned integrateBatch(const WorldView& w, const MutableState& m, const StepOutputs& o, std::size_t first,
                                float dt) {
  const F vx = load(o.nvx + first), vy = load(o.nvy + first);
  _mm256_storeu_ps(m.vx + first, vx);
  _mm256_storeu_ps(m.vy + first, vy);
  std::uint64_t flags;  // eight jammed flags, each 0 or 1
  __builtin_memcpy(&flags, o.njammed + first, sizeof flags);
  __builtin_memcpy(m.jammed + first, &flags, sizeof flags);
  const unsigned jam = static_cast<unsigned>(__builtin_popcountll(flags));
  const F step = F{} + dt;
  F x = load(m.px + first) + vx * step, y = load(m.py + first) + vy * step;
  // The last step lands exactly on the goal when nobody was in the way.
  const F goalX = load(w.gx + first), goalY = load(w.gy + first);
  const M lands = flagLanes(o.landing + first) & (vx == load(o.wishX + first)) & (vy == load(o.wishY + first));
  x = lands ? goalX : x;
  y = lands ? goalY : y;
  _mm256_storeu_ps(m.px + first, x);
  _mm256_storeu_ps(m.py + first, y);
  const M arrived = flagLanes(w.hasGoal + first) & (x == goalX) & (y == goalY);
  const unsigned done = static_cast<unsigned>(__builtin_popcount(
      static_cast<unsigned>(_mm256_movemask_ps(reinterpret_cast<F>(arrived)))));
  return jam + 256u * done;
}

#else
void goalWishesBatch(const float* px, const float* py, const float* gx, const float* gy, const float* prefSpeed,
                 const float* maxSpeed, float slowingRadius, float dt, float* wishX, float* wishY,
                 std::uint8_t* landing) {
  for (int l = 0; l < 8; ++l) {
    bool lands;
    const Vec2 w =
        goalWish({px[l], py[l]}, {gx[l], gy[l]}, cruiseSpeed(prefSpeed[l], maxSpeed[l]), slowingRadius, dt, lands);
    wishX[l] = w.x;
    wishY[l] = w.y;
    landing[l] = lands;
  }
}
unsigned integrateBatch(const WorldView& w, const MutableState& m, const StepOutputs& o, std::size_t first, float dt) {
  unsigned counts = 0;
  for (std::size_t i = first; i < first + 8; ++i) {
    const unsigned r = integrateAt(w, m, o, dt, static_cast<std::int32_t>(i));
    counts += (r & 1u) + (r >> 1) * 256u;
  }
  return counts;
}
#endif

}  // namespace throng

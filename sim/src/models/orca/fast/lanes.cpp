// ORCA's lanes: agentLinesInLanes (fast/lanes.hpp, whose design note says why
// and how) and the linear programs eight walkers at a time (orca.hpp's, bit
// for bit): the host code built for AVX2, and their portable forms for other
// CPUs (THRONG_NO_LANES builds those alone; tests/sim compiles them so).
#include "models/orca/fast/lanes.hpp"

#include <algorithm>
#include <cstddef>
#include <limits>

#include "base/lanes.hpp"
#include "models/orca/solve.hpp"
#include "neighbors/near_lists.hpp"

namespace throng {

#if THRONG_LANES
using namespace lanes;

namespace {

static_assert(kMaxNeighbors % 8 == 0, "the last group of eight must fit SolveScratch::lines");
/// The distance and the unit axis from B towards A.
THRONG_AVX2 inline void axisLanes(F rpx, F rpy, F distSq, F& dist, F& axisX, F& axisY) {
  dist = sqrtLanes(distSq);
  const F invNegDist = (F{} + 1.0f) / -dist;
  axisX = rpx * invNegDist;
  axisY = rpy * invNegDist;
}
/// Eight Lines {point.x, point.y, direction.x, direction.y} from four
/// arrays: a 4x4 transpose in each 128-bit half, then the halves in line
/// order.
/// The transpose: lines[q] holds lines q (low half) and q + 4 (high half).
THRONG_AVX2 inline void transposeLines(F pointX, F pointY, F dirX, F dirY, F lines[4]) {
  const F pLo = _mm256_unpacklo_ps(pointX, pointY), pHi = _mm256_unpackhi_ps(pointX, pointY);
  const F dLo = _mm256_unpacklo_ps(dirX, dirY), dHi = _mm256_unpackhi_ps(dirX, dirY);
  lines[0] = _mm256_shuffle_ps(pLo, dLo, 0x44);
  lines[1] = _mm256_shuffle_ps(pLo, dLo, 0xEE);
  lines[2] = _mm256_shuffle_ps(pHi, dHi, 0x44);
  lines[3] = _mm256_shuffle_ps(pHi, dHi, 0xEE);
}
THRONG_AVX2 inline void storeLines(F pointX, F pointY, F dirX, F dirY, Line* out) {
  F t[4];
  transposeLines(pointX, pointY, dirX, dirY, t);
  const F l04 = t[0], l15 = t[1], l26 = t[2], l37 = t[3];
  float* o = reinterpret_cast<float*>(out);
  _mm256_storeu_ps(o, _mm256_permute2f128_ps(l04, l15, 0x20));
  _mm256_storeu_ps(o + 8, _mm256_permute2f128_ps(l26, l37, 0x20));
  _mm256_storeu_ps(o + 16, _mm256_permute2f128_ps(l04, l15, 0x31));
  _mm256_storeu_ps(o + 24, _mm256_permute2f128_ps(l26, l37, 0x31));
}
/// Eight neighbours' AgentKin records (n of them; the lanes past n read
/// agent 0's) as five arrays: px, py, vx, vy, radius.
THRONG_AVX2 inline void kinLanes(const AgentKin* kin, const std::int32_t* neighbors, int n, F& px, F& py, F& vx,
                                 F& vy, F& radius) {
  // Lanes past n read agent 0's record (there is one: the walker's own
  // crowd), for the caller to mask: without a branch per lane on n, which
  // mispredicted as the neighbour count varied.
  alignas(32) std::int32_t index[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(index),
                     _mm256_maskload_epi32(neighbors, reinterpret_cast<__m256i>(lanesBelow(n))));
  const float* r[8];
  for (int l = 0; l < 8; ++l) r[l] = reinterpret_cast<const float*>(&kin[index[l]]);
  // Lanes l and l + 4 share a register: [record l | record l + 4], first
  // the motion (px, py, vx, vy), then the radius (and three unused).
  F motion[4], radii[4];
  for (int q = 0; q < 4; ++q) {
    motion[q] = _mm256_loadu2_m128(r[q + 4], r[q]);
    radii[q] = _mm256_loadu2_m128(r[q + 4] + 4, r[q] + 4);
  }
  const F t0 = _mm256_unpacklo_ps(motion[0], motion[1]), t1 = _mm256_unpacklo_ps(motion[2], motion[3]);
  const F u0 = _mm256_unpackhi_ps(motion[0], motion[1]), u1 = _mm256_unpackhi_ps(motion[2], motion[3]);
  px = _mm256_shuffle_ps(t0, t1, 0x44);
  py = _mm256_shuffle_ps(t0, t1, 0xEE);
  vx = _mm256_shuffle_ps(u0, u1, 0x44);
  vy = _mm256_shuffle_ps(u0, u1, 0xEE);
  radius = _mm256_shuffle_ps(_mm256_unpacklo_ps(radii[0], radii[1]), _mm256_unpacklo_ps(radii[2], radii[3]), 0x44);
}
/// Up to eight Lines (n of them; none past n is read, and those lanes are
/// zero) as four arrays: two lines to a register, masked, then a 4x4
/// transpose in each 128-bit half and the lanes back in line order.
THRONG_AVX2 inline void loadLines(const Line* lines, int n, F& px, F& py, F& dx, F& dy) {
  const __m256i lineOfLane = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1);
  F pair[4];  // {px, py, dx, dy} of lines 2q (low half) and 2q + 1 (high)
  for (int q = 0; q < 4; ++q) {
    const __m256i valid = _mm256_cmpgt_epi32(_mm256_set1_epi32(n - 2 * q), lineOfLane);
    pair[q] = _mm256_maskload_ps(reinterpret_cast<const float*>(lines + 2 * q), valid);
  }
  const F t01 = _mm256_unpacklo_ps(pair[0], pair[1]), t23 = _mm256_unpacklo_ps(pair[2], pair[3]);
  const F u01 = _mm256_unpackhi_ps(pair[0], pair[1]), u23 = _mm256_unpackhi_ps(pair[2], pair[3]);
  // Lanes in the order 0 2 4 6 | 1 3 5 7 (the halves), then in order.
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  px = _mm256_permutevar8x32_ps(_mm256_shuffle_ps(t01, t23, 0x44), order);
  py = _mm256_permutevar8x32_ps(_mm256_shuffle_ps(t01, t23, 0xEE), order);
  dx = _mm256_permutevar8x32_ps(_mm256_shuffle_ps(u01, u23, 0x44), order);
  dy = _mm256_permutevar8x32_ps(_mm256_shuffle_ps(u01, u23, 0xEE), order);
}
}  // namespace

/// withinSpeed in lanes: (ox, oy), or scaled down to length r when longer;
/// normalized() as Vec2's (a reciprocal, then two products; zero stays
/// zero), then times r.
THRONG_AVX2 inline void withinSpeedLanes(F ox, F oy, F r, F& x, F& y) {
  const F zero = F{}, one = zero + 1.0f;
  const F lengthSq = ox * ox + oy * oy;
  const F length = sqrtLanes(lengthSq);
  const F inv = one / length;
  const M some = length > zero;
  const F nx = some ? ox * inv : zero, ny = some ? oy * inv : zero;
  const M over = lengthSq > r * r;
  x = over ? nx * r : ox;
  y = over ? ny * r : oy;
}

/// One group of eight agent lines (agentLine's, lane by lane): walker A
/// (px, py, vx, vy, rA) against neighbour B (pjx, ... rB) in each lane
/// where `real`; the other lanes compute nothing undefined and are left
/// for the caller to drop. Sets `coincident` where A and B share a centre
/// (agentLine's hashed direction, for the caller to take one at a time).
THRONG_AVX2 inline void lineGroup(F px, F py, F vx, F vy, F rA, F pjx, F pjy, F vjx, F vjy, F rB, M real, F tau,
                                  F dt, F& pointX, F& pointY, F& dirX, F& dirY, M& coincident) {
  const F zero = F{}, one = F{} + 1.0f;
  // The lanes past the count take a neighbour 1000 away at rest with the
  // walker.
  const F commonX = vx + vjx, commonY = vy + vjy;
  F rpx = real ? pjx - px : zero + 1000.0f, rpy = real ? pjy - py : zero;
  const F rvx = real ? vx - vjx : zero, rvy = real ? vy - vjy : zero;
  const F cr = real ? rA + rB : one;
  const F common = real ? commonX * commonX + commonY * commonY : zero;

  F distSq = rpx * rpx + rpy * rpy;
  const F crSq = cr * cr;
  const M touching = (distSq <= crSq) & (distSq > kContactSq * crSq);
  if (any(touching)) {
    const F s = kContactOut * cr / sqrtLanes(distSq);
    rpx = touching ? rpx * s : rpx;
    rpy = touching ? rpy * s : rpy;
    distSq = touching ? rpx * rpx + rpy * rpy : distSq;
  }
  const M apart = distSq > crSq;
  const F wx = rvx - rpx * tau, wy = rvy - rpy * tau;  // from the cut-off centre to relVel
  const F wLengthSq = wx * wx + wy * wy;
  const F dotProduct1 = wx * rpx + wy * rpy;
  const M cutoff = (dotProduct1 < zero) & (dotProduct1 * dotProduct1 > crSq * wLengthSq);
  const M onCut = apart & cutoff, onLeg = apart & ~cutoff, over = ~apart;
  // Each way runs only when some lane takes it (the selects below read a
  // way's values only in its own lanes): a ring's pairs all take the
  // cut-off circle, and its square roots and divisions are most of the
  // time here.
  dirX = zero;
  dirY = zero;
  F ux = zero, uy = zero;
  F dist = zero, axisX = zero, axisY = zero;  // from B towards A, where needed
  bool haveAxis = false;
  if (any(onCut)) {
    // Apart, on the cut-off circle.
    const F wLength = sqrtLanes(wLengthSq);
    const F invW = one / wLength;
    F unitX = wx * invW, unitY = wy * invW, along = wLength;
    const M onCourse = onCut & (wLength < cr * tau);
    if (any(onCourse)) {
      axisLanes(rpx, rpy, distSq, dist, axisX, axisY);
      haveAxis = true;
      const F cosAngle = unitX * axisX + unitY * axisY;
      F cosTurn = cr / dist;
      cosTurn = cosTurn < kHeadOnCos ? F{} + kHeadOnCos : cosTurn;
      const M turn = onCourse & (cosAngle > cosTurn) & (common <= rvx * rvx + rvy * rvy);
      if (any(turn)) {
        const F sinTurn = cosTurn == kHeadOnCos ? F{} + kHeadOnSin : sqrtLanes(one - cosTurn * cosTurn);
        const F side = axisX * unitY - axisY * unitX >= zero ? one : -one;
        const F ss = side * sinTurn;
        const F turnedX = axisX * cosTurn + -axisY * ss, turnedY = axisY * cosTurn + axisX * ss;
        along = turn ? wx * turnedX + wy * turnedY : along;
        unitX = turn ? turnedX : unitX;
        unitY = turn ? turnedY : unitY;
      }
    }
    const F cutScale = cr * tau - along;
    dirX = unitY;
    dirY = -unitX;
    ux = unitX * cutScale;
    uy = unitY * cutScale;
  }
  if (any(onLeg)) {
    // Apart, on a leg (leftLeg, or the reversed rightLeg).
    const M leftSide = rpx * wy - rpy * wx > zero;
    const F leg = sqrtLanes(distSq - crSq);
    const F invDistSq = one / distSq;
    const F leftX = (rpx * leg - rpy * cr) * invDistSq, leftY = (rpx * cr + rpy * leg) * invDistSq;
    const F rightX = (rpx * leg + rpy * cr) * invDistSq, rightY = (-rpx * cr + rpy * leg) * invDistSq;
    const F legX = leftSide ? leftX : -rightX, legY = leftSide ? leftY : -rightY;
    const F legDot = rvx * legX + rvy * legY;
    dirX = onLeg ? legX : dirX;
    dirY = onLeg ? legY : dirY;
    ux = onLeg ? legX * legDot - rvx : ux;
    uy = onLeg ? legY * legDot - rvy : uy;
  }
  if (any(over)) {
    // Overlapping: the tangent facing straight apart.
    if (!haveAxis) axisLanes(rpx, rpy, distSq, dist, axisX, axisY);
    const F owx = rvx - rpx * dt, owy = rvy - rpy * dt;
    const F overScale = cr * dt - (owx * axisX + owy * axisY);
    dirX = over ? axisY : dirX;
    dirY = over ? -axisX : dirY;
    ux = over ? axisX * overScale : ux;
    uy = over ? axisY * overScale : uy;
  }
  pointX = vx + ux * 0.5f;
  pointY = vy + uy * 0.5f;
  coincident = ~apart & ~(distSq > 1e-12f * crSq);
}

THRONG_AVX2 void agentLinesInLanes(const AgentsView& a, std::int32_t self, const std::int32_t* neighbors, int count,
                             float invTau, float invDt, Line* out) {
  if (a.kin == nullptr) {  // only the CPU step fills the records
    agentLines(a, self, neighbors, count, invTau, invDt, out);
    return;
  }
  const F vx = F{} + a.vx[self], vy = F{} + a.vy[self];
  const F px = F{} + a.px[self], py = F{} + a.py[self], rA = F{} + a.radius[self];
  const F tau = F{} + invTau, dt = F{} + invDt;
  for (int base = 0; base < count; base += 8) {
    // pairInputs from the neighbours' AgentKin records, two reads each and
    // a transpose (a scalar gather into arrays, read back as whole
    // registers, stalls store forwarding).
    F pjx, pjy, vjx, vjy, rB, pointX, pointY, dirX, dirY;
    kinLanes(a.kin, neighbors + base, count - base, pjx, pjy, vjx, vjy, rB);
    M coincident;
    lineGroup(px, py, vx, vy, rA, pjx, pjy, vjx, vjy, rB, lanesBelow(count - base), tau, dt, pointX, pointY, dirX,
              dirY, coincident);
    storeLines(pointX, pointY, dirX, dirY, out + base);
    if (any(coincident)) {
      for (int l = 0; l < 8 && base + l < count; ++l)
        if (coincident[l]) agentLines(a, self, neighbors + base + l, 1, invTau, invDt, out + base + l);
    }
  }
}

namespace {
/// batchAgentLines, and with kStarts the starts and the walkers that break
/// them, with kListed for walkers that queued lists: each a template
/// parameter, so a crowd that needs neither spills no registers for the
/// starts and runs no test for lists in every group.
template <bool kStarts, bool kListed>
THRONG_AVX2 unsigned linePairs(const AgentsView& a, const std::int32_t* walkers, int walkerCount,
                               const std::int32_t* walkerOf, const std::int32_t* others, int count, float invTau,
                               float invDt, Line* const* outs, const Vec2* wishes, const float* speeds,
                               Vec2* starts, Line* packed, unsigned unfiltered, float rangeSq,
                               std::uint8_t* inRange) {
  const F tau = F{} + invTau, dt = F{} + invDt;
  // The walkers' own records once, lane w holding walker w; each group
  // then picks its lanes' walkers out of them.
  F wpx, wpy, wvx, wvy, wr;
  kinLanes(a.kin, walkers, walkerCount, wpx, wpy, wvx, wvy, wr);
  // Each walker's linear program start (linearProgram2's, withinSpeed of
  // its wish), lane w holding walker w's, and the walkers whose start
  // breaks a line (det(direction, point - start) > 0, as the program
  // tests it) or whose line was built one at a time.
  F startX = F{}, startY = F{};
  if constexpr (kStarts) {
    alignas(32) float wishX[8] = {}, wishY[8] = {}, speed[8] = {};
    for (int w = 0; w < walkerCount; ++w) {
      wishX[w] = wishes[w].x;
      wishY[w] = wishes[w].y;
      speed[w] = speeds[w];
    }
    withinSpeedLanes(load(wishX), load(wishY), load(speed), startX, startY);
    alignas(32) float sx[8], sy[8];
    _mm256_store_ps(sx, startX);
    _mm256_store_ps(sy, startY);
    for (int w = 0; w < walkerCount; ++w) starts[w] = {sx[w], sy[w]};
  }
  __m256i broken = _mm256_setzero_si256();  // lane by lane, the bit of its walker
  const __m256i one = _mm256_set1_epi32(1);
  // In range as inRangeFromList tests it: the distance's bits below the
  // range's, as unsigned (flipped sign bits, compared signed).
  const __m256i flip = _mm256_set1_epi32(static_cast<int>(0x80000000u));
  const __m256i range = _mm256_xor_si256(_mm256_set1_epi32(static_cast<int>(floatBits(rangeSq))), flip);
  const __m256i listing = _mm256_set1_epi32(static_cast<int>(unfiltered));
  for (int base = 0; base < count; base += 8) {
    const int n = count - base;
    const M real = lanesBelow(n);
    const __m256i w = _mm256_maskload_epi32(walkerOf + base, reinterpret_cast<__m256i>(real));
    const F px = _mm256_permutevar8x32_ps(wpx, w), py = _mm256_permutevar8x32_ps(wpy, w);
    const F vx = _mm256_permutevar8x32_ps(wvx, w), vy = _mm256_permutevar8x32_ps(wvy, w);
    const F rA = _mm256_permutevar8x32_ps(wr, w);
    F pjx, pjy, vjx, vjy, rB, pointX, pointY, dirX, dirY;
    kinLanes(a.kin, others + base, n, pjx, pjy, vjx, vjy, rB);
    M coincident;
    lineGroup(px, py, vx, vy, rA, pjx, pjy, vjx, vjy, rB, real, tau, dt, pointX, pointY, dirX, dirY, coincident);
    // The pairs that count: all, but of a listing walker's only those in
    // range (distSqAt's distance: the same differences and squares).
    M counts = real;
    if constexpr (kListed) {
      const F dx = pjx - px, dy = pjy - py;
      const __m256i bits = _mm256_xor_si256(_mm256_castps_si256(dx * dx + dy * dy), flip);
      const __m256i listed = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_srlv_epi32(listing, w), one), one);
      counts &= reinterpret_cast<M>(_mm256_castsi256_ps(_mm256_andnot_si256(listed, _mm256_set1_epi32(-1)) |
                                                        _mm256_cmpgt_epi32(range, bits)));
      inRange[base >> 3] = static_cast<std::uint8_t>(_mm256_movemask_ps(reinterpret_cast<F>(counts)));
    }
    if constexpr (kStarts) {
      const F ox = _mm256_permutevar8x32_ps(startX, w), oy = _mm256_permutevar8x32_ps(startY, w);
      const M breaks = counts & ((dirX * (pointY - oy) - dirY * (pointX - ox) > F{}) | coincident);
      broken = _mm256_or_si256(broken, _mm256_and_si256(_mm256_sllv_epi32(one, w),
                                                        _mm256_castps_si256(reinterpret_cast<F>(breaks))));
    }
    if (packed) {
      // In pair order, eight at a time.
      storeLines(pointX, pointY, dirX, dirY, packed + base);
      if (any(coincident)) {
        for (int l = 0; l < 8 && l < n; ++l)
          if (coincident[l])
            agentLines(a, walkers[walkerOf[base + l]], others + base + l, 1, invTau, invDt, packed + base + l);
      }
      continue;
    }
    // Each lane's line to its own place.
    F t[4];
    transposeLines(pointX, pointY, dirX, dirY, t);
    Line* const* o = outs + base;
    for (int q = 0; q < 4; ++q) {
      _mm_storeu_ps(reinterpret_cast<float*>(o[q]), _mm256_castps256_ps128(t[q]));
      _mm_storeu_ps(reinterpret_cast<float*>(o[q + 4]), _mm256_extractf128_ps(t[q], 1));
    }
    if (any(coincident)) {
      for (int l = 0; l < 8 && l < n; ++l)
        if (coincident[l])
          agentLines(a, walkers[walkerOf[base + l]], others + base + l, 1, invTau, invDt, o[l]);
    }
  }
  if constexpr (!kStarts) return (1u << walkerCount) - 1u;
  // The lanes' bits, or-ed together.
  __m128i bits = _mm_or_si128(_mm256_castsi256_si128(broken), _mm256_extracti128_si256(broken, 1));
  bits = _mm_or_si128(bits, _mm_shuffle_epi32(bits, _MM_SHUFFLE(1, 0, 3, 2)));
  bits = _mm_or_si128(bits, _mm_shuffle_epi32(bits, _MM_SHUFFLE(2, 3, 0, 1)));
  return static_cast<unsigned>(_mm_cvtsi128_si32(bits));
}

}  // namespace

THRONG_AVX2 unsigned batchAgentLines(const AgentsView& a, const std::int32_t* walkers, int walkerCount,
                                     const std::int32_t* walkerOf, const std::int32_t* others, int count,
                                     float invTau, float invDt, Line* const* outs, const Vec2* wishes,
                                     const float* speeds, Vec2* starts, Line* packed, unsigned unfiltered,
                                     float rangeSq, std::uint8_t* inRange) {
  if (unfiltered != 0) {
    return wishes ? linePairs<true, true>(a, walkers, walkerCount, walkerOf, others, count, invTau, invDt, outs,
                                          wishes, speeds, starts, packed, unfiltered, rangeSq, inRange)
                  : linePairs<false, true>(a, walkers, walkerCount, walkerOf, others, count, invTau, invDt, outs,
                                           wishes, speeds, starts, packed, unfiltered, rangeSq, inRange);
  }
  return wishes ? linePairs<true, false>(a, walkers, walkerCount, walkerOf, others, count, invTau, invDt, outs,
                                         wishes, speeds, starts, packed, 0, 0.0f, nullptr)
                : linePairs<false, false>(a, walkers, walkerCount, walkerOf, others, count, invTau, invDt, outs,
                                          wishes, speeds, starts, packed, 0, 0.0f, nullptr);
}

THRONG_AVX2 int queueBatchPairs(int walkers, const std::int32_t* const* neighbors, const int* count, Line* const* lines,
                            std::int32_t* walkerOf, std::int32_t* others, Line** outs) {
  const __m256i four = _mm256_set1_epi64x(static_cast<long long>(4 * sizeof(Line)));
  const __m256i steps = _mm256_setr_epi64x(0, sizeof(Line), 2 * sizeof(Line), 3 * sizeof(Line));
  int pairs = 0;
  for (int walker = 0; walker < walkers; ++walker) {
    const __m256i w = _mm256_set1_epi32(walker);
    __m256i at = outs ? _mm256_add_epi64(_mm256_set1_epi64x(reinterpret_cast<long long>(lines[walker])), steps)
                      : steps;
    const std::int32_t* const from = neighbors[walker];
    const int n = count[walker];
    for (int k = 0; k < n; k += 8) {
      const __m256i real = reinterpret_cast<__m256i>(lanesBelow(n - k));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(walkerOf + pairs + k), w);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(others + pairs + k), _mm256_maskload_epi32(from + k, real));
      if (outs) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(outs + pairs + k), at);
        at = _mm256_add_epi64(at, four);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(outs + pairs + k + 4), at);
        at = _mm256_add_epi64(at, four);
      }
    }
    pairs += n;
  }
  return pairs;
}

namespace {
/// projectLine in lanes: line j (pj, dj) projected on line i (pi, di), lane
/// by lane; `same` marks the lanes where projectLine gives no line
/// (parallel, the same way), whose point and direction are not its.
THRONG_AVX2 inline void projectLanes(F pix, F piy, F dix, F diy, F pjx, F pjy, F djx, F djy, F& pointX, F& pointY,
                                     F& dirX, F& dirY, M& same) {
  const F zero = F{}, one = zero + 1.0f, half = zero + 0.5f, epsilon = zero + kOrcaEpsilon;
  const F determinant = dix * djy - diy * djx;
  const M parallel = _mm256_and_ps(determinant, _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff))) <= epsilon;
  same = parallel & (dix * djx + diy * djy > zero);
  // Opposite: the midpoint; else where line j crosses line i.
  const F t = (djx * (piy - pjy) - djy * (pix - pjx)) / determinant;
  pointX = parallel ? (pix + pjx) * half : pix + dix * t;
  pointY = parallel ? (piy + pjy) * half : piy + diy * t;
  const F vx = djx - dix, vy = djy - diy;
  const F len = sqrtLanes(vx * vx + vy * vy);
  const F inv = one / len;
  const M positive = len > zero;
  dirX = positive ? vx * inv : zero;
  dirY = positive ? vy * inv : zero;
}
}  // namespace

THRONG_AVX2 int projectLinesInLanes(const Line* lines, int from, int to, const Line& onto, Line* out) {
  const F lpx = F{} + onto.point.x, lpy = F{} + onto.point.y;
  const F ldx = F{} + onto.direction.x, ldy = F{} + onto.direction.y;
  int count = 0;
  for (int base = from; base < to; base += 8) {
    const int n = to - base < 8 ? to - base : 8;
    // Lanes past n are zero lines, which project as opposite ones (finite).
    F pjx, pjy, djx, djy, pointX, pointY, dirX, dirY;
    M same;
    loadLines(lines + base, n, pjx, pjy, djx, djy);
    projectLanes(lpx, lpy, ldx, ldy, pjx, pjy, djx, djy, pointX, pointY, dirX, dirY, same);
    if (any(same)) {
      // A line facing line i's way adds none: this group one at a time.
      count += projectLines(lines, base, base + n, onto, out + count);
      continue;
    }
    storeLines(pointX, pointY, dirX, dirY, out + count);
    count += n;
  }
  return count;
}


namespace {
/// The smallest of v's lanes where `take` (all ones or zero, as a float's
/// bits), if below `none`, else `none`; `first` is the first lane (in
/// order) that holds it, or -1. As a loop keeping the first strictly
/// smaller value would: -0 and +0 compare equal, so the value is read from
/// that lane.
THRONG_AVX2 inline float smallest(const float* v, const float* take, int count, float none, int& first) {
  F m = F{} + none;
  for (int base = 0; base < count; base += 8) {
    const M use = reinterpret_cast<M>(load(take + base)) != 0;
    m = _mm256_min_ps(use ? load(v + base) : m, m);  // a NaN lane keeps m
  }
  const __m128 h = _mm_min_ps(_mm256_castps256_ps128(m), _mm256_extractf128_ps(m, 1));
  const __m128 q = _mm_min_ps(h, _mm_movehl_ps(h, h));
  const float least = _mm_cvtss_f32(_mm_min_ss(q, _mm_shuffle_ps(q, q, 1)));
  first = -1;
  if (!(least < none)) return none;
  for (int base = 0; base < count && first < 0; base += 8) {
    const M use = reinterpret_cast<M>(load(take + base)) != 0;
    const int hits = _mm256_movemask_ps(reinterpret_cast<F>(use & (load(v + base) == least)));
    if (hits != 0) first = base + __builtin_ctz(static_cast<unsigned>(hits));
  }
  return v[first];
}
}  // namespace

THRONG_AVX2 void leanTowardWishInLanes(const Line* lines, int lineCount, int obstacleLineCount, float radius,
                                 Vec2 optVelocity, float deepest, Vec2& result) {
  const Vec2 wish = withinSpeed(optVelocity, radius);
  const Vec2 toward = wish - result;  // stays in the speed disc: both ends are in it
  const float allowed = deepest + kJamSlack * radius;
  // leanTowardWish's two passes, a group of eight lines at a time: each
  // line's stop on its own, then the nearest (smallest). `take` marks the
  // lines that may stop the move.
  constexpr int kRoom = kMaxLines + 8;
  alignas(32) float dirX[kRoom], dirY[kRoom], past[kRoom], room[kRoom], stop[kRoom], take[kRoom];
  const F rx = F{} + result.x, ry = F{} + result.y, tx = F{} + toward.x, ty = F{} + toward.y;
  const F zero = F{}, allowedLanes = F{} + allowed;
  for (int base = 0; base < lineCount; base += 8) {
    const int n = lineCount - base < 8 ? lineCount - base : 8;
    F px, py, dx, dy;
    loadLines(lines + base, n, px, py, dx, dy);
    const M agentLine = ~lanesBelow(obstacleLineCount - base);
    const M real = lanesBelow(n);
    const F p = dx * (py - ry) - dy * (px - rx);  // det(direction, point - result)
    const F r = agentLine ? allowedLanes : (p > zero ? p : zero);
    const F rate = -(dx * ty - dy * tx);  // -det(direction, toward)
    _mm256_store_ps(dirX + base, dx);
    _mm256_store_ps(dirY + base, dy);
    _mm256_store_ps(past + base, p);
    _mm256_store_ps(room + base, r);
    _mm256_store_ps(stop + base, (r - p) / rate);
    _mm256_store_ps(take + base, reinterpret_cast<F>(real & (rate > zero)));
  }
  int blocker;
  float t = smallest(stop, take, lineCount, 1.0f, blocker);
  if (t < 0.0f) t = 0.0f;  // rounding
  result = result + t * toward;
  if (blocker < 0) return;
  Vec2 slide;
  float limit;
  if (!leanSlide(wish, result, lines[blocker].direction, radius, slide, limit)) return;
  const F tt = F{} + t, sx = F{} + slide.x, sy = F{} + slide.y;
  for (int base = 0; base < lineCount; base += 8) {
    const F dx = load(dirX + base), dy = load(dirY + base);
    const M blockerLane = reinterpret_cast<M>(_mm256_castsi256_ps(
        _mm256_cmpeq_epi32(_mm256_set1_epi32(blocker - base), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7))));
    const M other = lanesBelow(lineCount - base) & ~blockerLane;
    const F at = load(past + base) - tt * (dx * ty - dy * tx);
    const F rate = -(dx * sy - dy * sx);  // -det(direction, slide)
    _mm256_store_ps(stop + base, (load(room + base) - at) / rate);
    _mm256_store_ps(take + base, reinterpret_cast<F>(other & (rate > zero)));
  }
  int first;
  const float u = smallest(stop, take, lineCount, limit, first);
  if (u > 0.0f) result = result + u * slide;
}

namespace {
/// Eight walkers' lines in lanes: line i of every walker, one register's
/// worth per coordinate.
struct LaneLines {
  alignas(32) float px[kMaxLines][8], py[kMaxLines][8], dx[kMaxLines][8], dy[kMaxLines][8];
};

/// linearProgram2 in the lanes `lanes`, over lines [0, count) of `l` (lane
/// w's own count in counts, for lanes whose lines end earlier; a zero line,
/// which no velocity breaks and which bounds nothing, may stand for a
/// missing one), from the start it sets: each lane takes exactly the scalar
/// program's operations in its order, selects standing in for branches. A
/// lane moves onto line i (linearProgram1) only where its result breaks it,
/// leaves a bound alone unless linearProgram1 would have set it, and stops
/// (keeping its result) at the first line it cannot meet. Returns the lanes
/// that stopped; failAt takes the line they stopped at.
THRONG_AVX2 M lanesProgram2(const LaneLines& l, int count, __m256i counts, M lanes, F r, F ox, F oy,
                            bool directionOpt, F& rx, F& ry, __m256i& failAt) {
  const F zero = F{}, epsilon = zero + kOrcaEpsilon;
  const F signBit = _mm256_set1_ps(-0.0f);  // negation flips it, fabs clears it
  if (directionOpt) {  // optVelocity * radius
    rx = lanes ? ox * r : rx;
    ry = lanes ? oy * r : ry;
  } else {
    F x, y;
    withinSpeedLanes(ox, oy, r, x, y);
    rx = lanes ? x : rx;
    ry = lanes ? y : ry;
  }
  M failed = M{};
  for (int i = 0; i < count; ++i) {
    const M active =
        lanes & reinterpret_cast<M>(_mm256_castsi256_ps(_mm256_cmpgt_epi32(counts, _mm256_set1_epi32(i)))) & ~failed;
    const F lpx = load(l.px[i]), lpy = load(l.py[i]), ldx = load(l.dx[i]), ldy = load(l.dy[i]);
    // det(direction, point - result) > 0: the result breaks line i.
    const M breaks = active & (ldx * (lpy - ry) - ldy * (lpx - rx) > zero);
    if (!any(breaks)) continue;
    // linearProgram1 for line i, in the lanes that break it.
    const F dotProduct = lpx * ldx + lpy * ldy;
    const F discriminant = dotProduct * dotProduct + r * r - (lpx * lpx + lpy * lpy);
    M stop = breaks & (discriminant < zero);
    const F sqrtDiscriminant = sqrtLanes(discriminant);
    const F negDot = _mm256_xor_ps(dotProduct, signBit);
    F tLeft = negDot - sqrtDiscriminant, tRight = negDot + sqrtDiscriminant;
    M live = breaks & ~stop;
    for (int j = 0; j < i && any(live); ++j) {
      const F jpx = load(l.px[j]), jpy = load(l.py[j]), jdx = load(l.dx[j]), jdy = load(l.dy[j]);
      const F denominator = ldx * jdy - ldy * jdx;
      const F numerator = jdx * (lpy - jpy) - jdy * (lpx - jpx);
      const M parallel = _mm256_andnot_ps(signBit, denominator) <= epsilon;
      const M excluded = live & parallel & (numerator < zero);
      const F t = numerator / denominator;
      const M bounds = live & ~parallel;
      const M right = denominator >= zero;
      tRight = (bounds & right & (t < tRight)) ? t : tRight;
      tLeft = (bounds & ~right & (t > tLeft)) ? t : tLeft;
      const M empty = bounds & (tLeft > tRight);
      stop |= excluded | empty;
      live &= ~(excluded | empty);
    }
    const M moves = breaks & ~stop;
    F along;
    if (directionOpt) {
      along = ox * ldx + oy * ldy > zero ? tRight : tLeft;
    } else {
      const F t = ldx * (ox - lpx) + ldy * (oy - lpy);
      along = t < tLeft ? tLeft : (t > tRight ? tRight : t);
    }
    rx = moves ? lpx + along * ldx : rx;
    ry = moves ? lpy + along * ldy : ry;
    failAt = _mm256_blendv_epi8(failAt, _mm256_set1_epi32(i), _mm256_castps_si256(reinterpret_cast<F>(stop)));
    failed |= stop;
  }
  return failed;
}

/// Walker w's lines [0, count[w]) into lanes, zero lines past them, up to
/// `most`.
THRONG_AVX2 void loadLaneLines(const Line* const* lines, const std::int32_t* count, int most, LaneLines& l) {
  static const Line kNone{};
  int fewest = most;
  for (int w = 0; w < 8; ++w) fewest = count[w] < fewest ? count[w] : fewest;
  for (int i = 0; i < most; ++i) {
    const float* r[8];
    if (i < fewest) {  // every walker has line i
      for (int w = 0; w < 8; ++w) r[w] = reinterpret_cast<const float*>(lines[w] + i);
    } else {
      for (int w = 0; w < 8; ++w) r[w] = reinterpret_cast<const float*>(i < count[w] ? lines[w] + i : &kNone);
    }
    F pair[4];  // lanes q (low half) and q + 4 (high half)
    for (int q = 0; q < 4; ++q) pair[q] = _mm256_loadu2_m128(r[q + 4], r[q]);
    const F t0 = _mm256_unpacklo_ps(pair[0], pair[1]), t1 = _mm256_unpacklo_ps(pair[2], pair[3]);
    const F u0 = _mm256_unpackhi_ps(pair[0], pair[1]), u1 = _mm256_unpackhi_ps(pair[2], pair[3]);
    _mm256_store_ps(l.px[i], _mm256_shuffle_ps(t0, t1, 0x44));
    _mm256_store_ps(l.py[i], _mm256_shuffle_ps(t0, t1, 0xEE));
    _mm256_store_ps(l.dx[i], _mm256_shuffle_ps(u0, u1, 0x44));
    _mm256_store_ps(l.dy[i], _mm256_shuffle_ps(u0, u1, 0xEE));
  }
}
}  // namespace

namespace {
/// linearProgram3 for eight walkers, a lane each, on their lines in lanes:
/// lane w's lines [0, count[w]), of which obstacles[w] obstacle lines, from
/// begin[w] (count[w] or more: left as it is), its result in (rx, ry) and
/// its deepest penetration into `distance`. For each line i (from the first
/// any walker begins at), the walkers whose result penetrates it more than
/// their deepest so far project their lines before it on it, and run the
/// program on those (lanesProgram2, towards line i's normal); each lane
/// takes exactly linearProgram3's operations in its order. A projected line
/// projectLine leaves out (parallel, the same way) is a zero line here,
/// which changes nothing in the program; an obstacle line is taken as it is.
THRONG_AVX2 void lanesProgram3(const LaneLines& l, const std::int32_t* count, const std::int32_t* begin,
                               const std::int32_t* obstacles, F r, F& rx, F& ry, F& distance) {
  int most = 0, first = kMaxLines, mostObstacles = 0;
  for (int w = 0; w < 8; ++w) {
    if (begin[w] >= count[w]) continue;
    most = count[w] > most ? count[w] : most;
    first = begin[w] < first ? begin[w] : first;
    mostObstacles = obstacles[w] > mostObstacles ? obstacles[w] : mostObstacles;
  }
  LaneLines proj;
  const F zero = F{};
  const __m256i counts = _mm256_load_si256(reinterpret_cast<const __m256i*>(count));
  const __m256i begins = _mm256_load_si256(reinterpret_cast<const __m256i*>(begin));
  const __m256i obstacleCounts = _mm256_load_si256(reinterpret_cast<const __m256i*>(obstacles));
  distance = zero;
  for (int i = first; i < most; ++i) {
    const __m256i at = _mm256_set1_epi32(i);
    const M inRange = reinterpret_cast<M>(_mm256_castsi256_ps(
        _mm256_andnot_si256(_mm256_cmpgt_epi32(begins, at), _mm256_cmpgt_epi32(counts, at))));
    const F lpx = load(l.px[i]), lpy = load(l.py[i]), ldx = load(l.dx[i]), ldy = load(l.dy[i]);
    // Not (det(direction, point - result) <= distance): penetrated deeper.
    const M deeper = inRange & ~(ldx * (lpy - ry) - ldy * (lpx - rx) <= distance);
    if (!any(deeper)) continue;
    // Each lane's obstacle lines as they are (all of them, even past i),
    // then its lines before i projected on its line i.
    const int upto = i > mostObstacles ? i : mostObstacles;
    for (int j = 0; j < upto; ++j) {
      const F jpx = load(l.px[j]), jpy = load(l.py[j]), jdx = load(l.dx[j]), jdy = load(l.dy[j]);
      const M obstacle =
          reinterpret_cast<M>(_mm256_castsi256_ps(_mm256_cmpgt_epi32(obstacleCounts, _mm256_set1_epi32(j))));
      F pointX, pointY, dirX, dirY;
      M same;
      projectLanes(lpx, lpy, ldx, ldy, jpx, jpy, jdx, jdy, pointX, pointY, dirX, dirY, same);
      same |= j >= i ? ~M{} : M{};  // none past i
      _mm256_store_ps(proj.px[j], obstacle ? jpx : (same ? zero : pointX));
      _mm256_store_ps(proj.py[j], obstacle ? jpy : (same ? zero : pointY));
      _mm256_store_ps(proj.dx[j], obstacle ? jdx : (same ? zero : dirX));
      _mm256_store_ps(proj.dy[j], obstacle ? jdy : (same ? zero : dirY));
    }
    // Towards line i's normal, {-direction.y, direction.x}; a lane whose
    // program fails keeps its result.
    F px2 = rx, py2 = ry;
    __m256i unused = _mm256_set1_epi32(i);
    const M failed = lanesProgram2(proj, upto, _mm256_set1_epi32(upto), deeper, r,
                                   _mm256_xor_ps(ldy, _mm256_set1_ps(-0.0f)), ldx, true, px2, py2, unused);
    const M keep = deeper & ~failed;
    rx = keep ? px2 : rx;
    ry = keep ? py2 : ry;
    distance = deeper ? ldx * (lpy - ry) - ldy * (lpx - rx) : distance;
  }
}

/// leanTowardWish for eight walkers, a lane each, on their lines in lanes,
/// in the lanes `jammed`: lane w's lines [0, counts[w]), of which
/// obstacles[w] obstacle lines, speed limit r, wish (ox, oy), from
/// linearProgram3's result (rx, ry) and deepest penetration `deepest`. Each
/// lane takes exactly leanTowardWish's operations in its order (a line
/// stops the move where it is nearer than the nearest before it), selects
/// standing in for its branches; the slide's set-up (leanSlide) runs one
/// lane at a time. Eight walkers' lines at once, instead of one walker's
/// eight (leanTowardWishInLanes): cheaper for a dense crowd, whose walkers are
/// mostly jammed (docs/orca-cpu-notes.md has the figures).
THRONG_AVX2 void lanesLean(const LaneLines& l, int most, __m256i counts, __m256i obstacles, M jammed, F r, F ox,
                           F oy, F deepest, F& rx, F& ry) {
  const F zero = F{};
  F wishX, wishY;
  withinSpeedLanes(ox, oy, r, wishX, wishY);
  const F fromX = rx, fromY = ry;
  const F towardX = wishX - fromX, towardY = wishY - fromY;
  const F allowed = deepest + (zero + kJamSlack) * r;
  // past[i]: how far the velocity is past line i; room[i]: how far it may be.
  alignas(32) float past[kMaxLines][8], room[kMaxLines][8];
  F t = zero + 1.0f;
  __m256i blocker = _mm256_set1_epi32(-1);
  for (int i = 0; i < most; ++i) {
    const __m256i at = _mm256_set1_epi32(i);
    const M live = jammed & reinterpret_cast<M>(_mm256_castsi256_ps(_mm256_cmpgt_epi32(counts, at)));
    const M agentLine = ~reinterpret_cast<M>(_mm256_castsi256_ps(_mm256_cmpgt_epi32(obstacles, at)));
    const F px = load(l.px[i]), py = load(l.py[i]), dx = load(l.dx[i]), dy = load(l.dy[i]);
    const F p = dx * (py - fromY) - dy * (px - fromX);
    const F roomHere = agentLine ? allowed : (p > zero ? p : zero);
    const F rate = -(dx * towardY - dy * towardX);
    const F stop = (roomHere - p) / rate;
    const M nearer = live & (rate > zero) & (stop < t);
    t = nearer ? stop : t;
    blocker = _mm256_blendv_epi8(blocker, at, _mm256_castps_si256(reinterpret_cast<F>(nearer)));
    _mm256_store_ps(past[i], p);
    _mm256_store_ps(room[i], roomHere);
  }
  t = t < zero ? zero : t;  // rounding
  rx = jammed ? fromX + t * towardX : rx;
  ry = jammed ? fromY + t * towardY : ry;
  // The slide along each blocking line, one lane at a time.
  alignas(32) std::int32_t stopper[8];
  alignas(32) float slideX[8] = {}, slideY[8] = {}, limit[8] = {}, wx[8], wy[8], resX[8], resY[8], rad[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(stopper), blocker);
  _mm256_store_ps(wx, wishX);
  _mm256_store_ps(wy, wishY);
  _mm256_store_ps(resX, rx);
  _mm256_store_ps(resY, ry);
  _mm256_store_ps(rad, r);
  alignas(32) std::int32_t slides[8] = {};
  bool anySlide = false;
  for (int w = 0; w < 8; ++w) {
    const int b = stopper[w];
    if (b < 0) continue;  // (never a lane outside `jammed`)
    Vec2 slide;
    const Vec2 along{l.dx[b][w], l.dy[b][w]};
    if (!leanSlide(Vec2{wx[w], wy[w]}, Vec2{resX[w], resY[w]}, along, rad[w], slide, limit[w])) continue;
    slideX[w] = slide.x;
    slideY[w] = slide.y;
    slides[w] = -1;
    anySlide = true;
  }
  if (!anySlide) return;
  const M sliding = reinterpret_cast<M>(_mm256_load_si256(reinterpret_cast<const __m256i*>(slides)));
  const F sx = load(slideX), sy = load(slideY);
  F u = load(limit);
  for (int i = 0; i < most; ++i) {
    const __m256i at = _mm256_set1_epi32(i);
    const M live = sliding & reinterpret_cast<M>(_mm256_castsi256_ps(_mm256_andnot_si256(
                                 _mm256_cmpeq_epi32(blocker, at), _mm256_cmpgt_epi32(counts, at))));
    const F dx = load(l.dx[i]), dy = load(l.dy[i]);
    const F along = load(past[i]) - t * (dx * towardY - dy * towardX);
    const F rate = -(dx * sy - dy * sx);
    const F stop = (load(room[i]) - along) / rate;
    u = (live & (rate > zero) & (stop < u)) ? stop : u;
  }
  const M moves = sliding & (u > zero);
  rx = moves ? rx + u * sx : rx;
  ry = moves ? ry + u * sy : ry;
}

/// Up to eight walkers' inputs as lanes' arrays, zero past `walkers`: the
/// line counts (at most kMaxLines), obstacle line counts (at most those)
/// and speed limits; returns the most lines any walker has.
int laneInputs(const int* lineCount, const int* obstacleLineCount, const float* radius, int walkers,
               std::int32_t* count, std::int32_t* obstacles, float* rad) {
  int most = 0;
  for (int w = 0; w < 8; ++w) {
    count[w] = w < walkers ? (lineCount[w] < kMaxLines ? lineCount[w] : kMaxLines) : 0;
    obstacles[w] = w < walkers ? (obstacleLineCount[w] < count[w] ? obstacleLineCount[w] : count[w]) : 0;
    rad[w] = w < walkers ? radius[w] : 0.0f;
    most = count[w] > most ? count[w] : most;
  }
  return most;
}

/// The first `walkers` lanes' velocities (rx, ry) and deepest penetrations
/// into result and deepest (when not null).
THRONG_AVX2 void storeLaneResults(F rx, F ry, F distance, int walkers, Vec2* result, float* deepest) {
  alignas(32) float outX[8], outY[8], outD[8];
  _mm256_store_ps(outX, rx);
  _mm256_store_ps(outY, ry);
  _mm256_store_ps(outD, distance);
  for (int w = 0; w < walkers; ++w) {
    result[w] = {outX[w], outY[w]};
    if (deepest) deepest[w] = outD[w];
  }
}
}  // namespace

namespace {
// linearProgram2, then linearProgram3 for those it left jammed, and with
// `lean` leanTowardWish for them, for eight walkers, a lane each, their
// lines read into lanes once (a walker with fewer lines reads the zero
// line past its own, which no velocity breaks). lineFail and deepest may
// be null; returns the jammed walkers' bits.
THRONG_AVX2 unsigned programsInLanes(const Line* const* lines, const int* lineCount, const int* obstacleLineCount,
                                     const float* radius, const Vec2* optVelocity, int walkers, Vec2* result,
                                     int* lineFail, float* deepest, bool lean) {
  alignas(32) float rad[8], optX[8] = {}, optY[8] = {};
  alignas(32) std::int32_t count[8], obstacles[8], fail[8];
  const int most = laneInputs(lineCount, obstacleLineCount, radius, walkers, count, obstacles, rad);
  for (int w = 0; w < walkers; ++w) {
    optX[w] = optVelocity[w].x;
    optY[w] = optVelocity[w].y;
  }
  LaneLines l;
  loadLaneLines(lines, count, most, l);
  const __m256i counts = _mm256_load_si256(reinterpret_cast<const __m256i*>(count));
  __m256i failAt = counts;
  const F r = load(rad);
  F rx = F{}, ry = F{}, distance = F{};
  const M jammed = lanesProgram2(l, most, counts, ~M{}, r, load(optX), load(optY), false, rx, ry, failAt);
  _mm256_store_si256(reinterpret_cast<__m256i*>(fail), failAt);
  if (any(jammed)) {
    lanesProgram3(l, count, fail, obstacles, r, rx, ry, distance);
    if (lean) {
      lanesLean(l, most, counts, _mm256_load_si256(reinterpret_cast<const __m256i*>(obstacles)), jammed, r,
                load(optX), load(optY), distance, rx, ry);
    }
  }
  storeLaneResults(rx, ry, distance, walkers, result, deepest);
  if (lineFail) std::copy(fail, fail + walkers, lineFail);
  return static_cast<unsigned>(_mm256_movemask_ps(reinterpret_cast<F>(jammed)));  // none past `walkers`
}
}  // namespace

THRONG_AVX2 void batchLinearPrograms(const Line* const* lines, const int* lineCount, const int* obstacleLineCount,
                                 const float* radius, const Vec2* optVelocity, int walkers, Vec2* result,
                                 int* lineFail, float* deepest) {
  programsInLanes(lines, lineCount, obstacleLineCount, radius, optVelocity, walkers, result, lineFail, deepest,
                  false);
}

THRONG_AVX2 unsigned batchSolveVelocities(const Line* const* lines, const int* lineCount, const int* obstacleLineCount,
                                      const float* radius, const Vec2* optVelocity, int walkers, Vec2* result) {
  return programsInLanes(lines, lineCount, obstacleLineCount, radius, optVelocity, walkers, result, nullptr,
                         nullptr, true);
}

THRONG_AVX2 void batchLinearProgram3(const Line* const* lines, const int* lineCount, const int* obstacleLineCount,
                                  const int* beginLine, const float* radius, int walkers, Vec2* result,
                                  float* deepest) {
  alignas(32) float rad[8], resX[8] = {}, resY[8] = {};
  alignas(32) std::int32_t count[8], obstacles[8], begin[8] = {};
  const int most = laneInputs(lineCount, obstacleLineCount, radius, walkers, count, obstacles, rad);
  for (int w = 0; w < walkers; ++w) {
    resX[w] = result[w].x;
    resY[w] = result[w].y;
    begin[w] = beginLine[w];
  }
  LaneLines l;
  loadLaneLines(lines, count, most, l);
  F rx = load(resX), ry = load(resY), distance;
  lanesProgram3(l, count, begin, obstacles, load(rad), rx, ry, distance);
  storeLaneResults(rx, ry, distance, walkers, result, deepest);
}

#else
void agentLinesInLanes(const AgentsView& a, std::int32_t self, const std::int32_t* neighbors, int count, float invTau,
                 float invDt, Line* out) {
  agentLines(a, self, neighbors, count, invTau, invDt, out);
}
int queueBatchPairs(int walkers, const std::int32_t* const* neighbors, const int* count, Line* const* lines,
                std::int32_t* walkerOf, std::int32_t* others, Line** outs) {
  int pairs = 0;
  for (int walker = 0; walker < walkers; ++walker) {
    for (int k = 0; k < count[walker]; ++k, ++pairs) {
      walkerOf[pairs] = walker;
      others[pairs] = neighbors[walker][k];
      if (outs) outs[pairs] = lines[walker] + k;
    }
  }
  return pairs;
}
unsigned batchAgentLines(const AgentsView& a, const std::int32_t* walkers, int walkerCount,
                         const std::int32_t* walkerOf, const std::int32_t* others, int count, float invTau,
                         float invDt, Line* const* outs, const Vec2* wishes, const float* speeds, Vec2* starts,
                         Line* packed, unsigned unfiltered, float rangeSq, std::uint8_t* inRange) {
  const auto out = [&](int m) { return packed ? packed + m : outs[m]; };
  for (int m = 0; m < count; ++m) agentLines(a, walkers[walkerOf[m]], others + m, 1, invTau, invDt, out(m));
  // The pairs that count (all but a listing walker's out of range), a bit each.
  const auto counts = [&](int m) {
    if ((unfiltered >> walkerOf[m] & 1u) == 0) return true;
    const std::int32_t self = walkers[walkerOf[m]];
    return floatBits(distSqAt(a, Vec2{a.px[self], a.py[self]}, others[m])) < floatBits(rangeSq);
  };
  if (unfiltered != 0) {
    for (int m = 0; m < count; m += 8) inRange[m >> 3] = 0;
    for (int m = 0; m < count; ++m) inRange[m >> 3] |= static_cast<std::uint8_t>(counts(m) ? 1u << (m & 7) : 0u);
  }
  if (!wishes) return (1u << walkerCount) - 1u;
  for (int w = 0; w < walkerCount; ++w) starts[w] = withinSpeed(wishes[w], speeds[w]);
  unsigned broken = 0;
  for (int m = 0; m < count; ++m) {
    const Line& l = *out(m);
    broken |= counts(m) && det(l.direction, l.point - starts[walkerOf[m]]) > 0.0f ? 1u << walkerOf[m] : 0u;
  }
  return broken;
}
int projectLinesInLanes(const Line* lines, int from, int to, const Line& onto, Line* out) {
  return projectLines(lines, from, to, onto, out);
}
void leanTowardWishInLanes(const Line* lines, int lineCount, int obstacleLineCount, float radius, Vec2 optVelocity,
                     float deepest, Vec2& result) {
  leanTowardWish(lines, lineCount, obstacleLineCount, radius, optVelocity, deepest, result);
}
void batchLinearPrograms(const Line* const* lines, const int* lineCount, const int* obstacleLineCount, const float* radius,
                     const Vec2* optVelocity, int walkers, Vec2* result, int* lineFail, float* deepest) {
  for (int w = 0; w < walkers; ++w) {
    lineFail[w] = linearProgram2(lines[w], lineCount[w], radius[w], optVelocity[w], false, result[w]);
    deepest[w] = lineFail[w] < lineCount[w] ? linearProgram3(lines[w], lineCount[w], obstacleLineCount[w],
                                                             lineFail[w], radius[w], result[w])
                                            : 0.0f;
  }
}
unsigned batchSolveVelocities(const Line* const* lines, const int* lineCount, const int* obstacleLineCount,
                          const float* radius, const Vec2* optVelocity, int walkers, Vec2* result) {
  unsigned jammed = 0;
  for (int w = 0; w < walkers; ++w)
    if (!solveVelocity(lines[w], lineCount[w], obstacleLineCount[w], radius[w], optVelocity[w], result[w]))
      jammed |= 1u << w;
  return jammed;
}
void batchLinearProgram3(const Line* const* lines, const int* lineCount, const int* obstacleLineCount,
                      const int* beginLine, const float* radius, int walkers, Vec2* result, float* deepest) {
  for (int w = 0; w < walkers; ++w)
    deepest[w] = linearProgram3(lines[w], lineCount[w], obstacleLineCount[w], beginLine[w], radius[w], result[w]);
}
#endif

}  // namespace throng

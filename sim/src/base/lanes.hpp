#pragma once
// Eight lanes at a time on x86-64 CPUs with AVX2: the plumbing every lanes
// file shares (core/lanes.cpp, neighbors/lanes.cpp, models/orca/
// fast/lanes.cpp). Each function carries the AVX2 target itself, not the
// file: nothing built with it may run on a CPU without AVX2 unless
// lanesAvailable() said yes first. The lanes do each scalar operation in
// the scalar order, and the build never contracts a*b+c, so a lane's value
// is the scalar code's, bit for bit.
//
// THRONG_NO_LANES builds the portable forms alone, as on a CPU other than
// x86-64 (tests/sim builds the lanes files so too, to keep them compiling).

namespace throng {

/// True where the lanes may run: an x86-64 CPU with AVX2. Asked of the CPU
/// once; every phase of every step then reads the answer.
bool lanesAvailable();

}  // namespace throng

#if defined(__x86_64__) && !defined(THRONG_NO_LANES)
#define THRONG_LANES 1
#include <immintrin.h>

#define THRONG_AVX2 __attribute__((target("avx2")))

namespace throng::lanes {

using F = __m256;
using M = decltype(F{} < F{});  // all ones or zero per lane
THRONG_AVX2 inline F sqrtLanes(F v) { return _mm256_sqrt_ps(v); }
THRONG_AVX2 inline bool any(M m) { return _mm256_movemask_ps(reinterpret_cast<F>(m)) != 0; }
THRONG_AVX2 inline F load(const float* p) { return _mm256_loadu_ps(p); }
/// The lanes numbered below n (all of them from n = 8 up, none from 0 down).
THRONG_AVX2 inline M lanesBelow(int n) {
  return reinterpret_cast<M>(_mm256_castsi256_ps(
      _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7))));
}

}  // namespace throng::lanes
#else
#define THRONG_LANES 0
#endif

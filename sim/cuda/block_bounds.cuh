#pragma once
// A block's share of a bounding box of ordered float keys (see
// cudastep::orderedKey): each thread brings its own [lo, hi] per axis; the
// warps reduce in registers, meet in shared memory, and one thread a block
// takes the four atomics into keys = {min x, min y, max x, max y} (a
// block's worth of atomics rather than a warp's each: a million walkers'
// atomics on four words serialise). Every thread of the block must call
// it; the block has kBlockSize threads, a multiple of 32.
#include <cstdint>

namespace throng::cudastep {

template <int kBlockSize>
__device__ inline void blockBoundsToKeys(std::uint32_t lo[2], std::uint32_t hi[2], std::uint32_t* keys) {
  const unsigned all = 0xFFFFFFFFu;
  lo[0] = __reduce_min_sync(all, lo[0]); lo[1] = __reduce_min_sync(all, lo[1]);
  hi[0] = __reduce_max_sync(all, hi[0]); hi[1] = __reduce_max_sync(all, hi[1]);
  __shared__ std::uint32_t part[4][kBlockSize / 32];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  if (lane == 0) part[0][warp] = lo[0], part[1][warp] = lo[1], part[2][warp] = hi[0], part[3][warp] = hi[1];
  __syncthreads();
  if (warp != 0) return;
  const bool has = lane < static_cast<int>(blockDim.x >> 5);
  lo[0] = __reduce_min_sync(all, has ? part[0][lane] : 0xFFFFFFFFu);
  lo[1] = __reduce_min_sync(all, has ? part[1][lane] : 0xFFFFFFFFu);
  hi[0] = __reduce_max_sync(all, has ? part[2][lane] : 0u);
  hi[1] = __reduce_max_sync(all, has ? part[3][lane] : 0u);
  if (lane == 0) {
    atomicMin(&keys[0], lo[0]); atomicMin(&keys[1], lo[1]);
    atomicMax(&keys[2], hi[0]); atomicMax(&keys[3], hi[1]);
  }
}

}  // namespace throng::cudastep

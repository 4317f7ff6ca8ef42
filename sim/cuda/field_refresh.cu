// The fields phase on the device: the fields' kernels and their driver
// (field_refresh.hpp; the design note is device_fields.hpp's). Every
// kernel is a loop over one THRONG_HD body that the host mirror
// (tests/gpu/test_gpu_host.cpp) runs too:
//   throngFieldBoundsKernel     fieldBoundsKeys per walker, reduced by block, then atomics
//   throngFieldSplatKernel      splatWalker per walker (64-bit integer atomics)
//   throngFieldFlowKernel       flowCell per cell
//   throngFieldSpeedCostKernel  cellSpeedAndCost per cell
//   throngFieldSeedKernel       the potential's start, per cell
//   throngFieldGoalsKernel      its target cells, and round 1's tiles
//   throngFieldRoundKernel      one round: a block per queued tile
// The rounds go out in batches; after each batch the count queued for the
// next round is copied to pinned memory, and the host reads the one of the
// batch before (so the device always has a batch queued) and stops when
// nothing is left: the extra batch's rounds find nothing queued and end at
// once.
#include <algorithm>
#include <cstdio>

#include "block_bounds.cuh"
#include "cuda_check.cuh"
#include "field_refresh.hpp"
#include "pipeline/registry.hpp"

namespace throng {
namespace {

constexpr int kBlock = 256;
constexpr int kTileThreads = kTile * kTile;
constexpr int kRoundsPerBatch = 8;
static_assert(kTileThreads <= 1024 && kTileThreads % 32 == 0, "a tile is one block of whole warps");

int blocksFor(std::int64_t threads, int block) { return static_cast<int>((threads + block - 1) / block); }

__global__ void throngFieldBoundsKernel(std::int32_t n, const float* px, const float* py, std::uint32_t* keys) {
  std::uint32_t lo[2] = {0xFFFFFFFFu, 0xFFFFFFFFu}, hi[2] = {0u, 0u};
  for (std::int32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    std::uint32_t kx, ky;
    if (!fieldBoundsKeys(px, py, i, kx, ky)) continue;
    lo[0] = min(lo[0], kx); hi[0] = max(hi[0], kx);
    lo[1] = min(lo[1], ky); hi[1] = max(hi[1], ky);
  }
  cudastep::blockBoundsToKeys<kBlock>(lo, hi, keys);
}

__global__ void throngFieldBoundsInitKernel(std::uint32_t* keys) {
  keys[0] = keys[1] = 0xFFFFFFFFu;
  keys[2] = keys[3] = 0u;
}

__global__ void throngFieldSplatKernel(std::int32_t n, FieldGridView g, std::int32_t lambdaQ, const float* px,
                                       const float* py, const float* vx, const float* vy, FieldSumsView sums) {
  for (std::int32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    splatWalker(g, lambdaQ, px, py, vx, vy, i, sums);
}

__global__ void throngFieldFlowKernel(std::int32_t cells, FieldSumsView sums, float* density, float* velocityX,
                                      float* velocityY) {
  const std::int32_t c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < cells) flowCell(sums, c, density, velocityX, velocityY);
}

__global__ void throngFieldSpeedCostKernel(std::int32_t cells, FieldGridView g, FieldCells fc, FieldParams fp,
                                           SlopeParams sl, float* speed, float* cost) {
  const std::int32_t c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < cells) cellSpeedAndCost(g, fc, fp, sl, c, speed + 4 * static_cast<std::int64_t>(c), cost + 4 * static_cast<std::int64_t>(c));
}

__global__ void throngFieldSeedKernel(std::int32_t cells, float* phi, float* other, std::uint8_t* isGoal) {
  const std::int32_t c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cells) return;
  phi[c] = other[c] = fieldInfinity();
  isGoal[c] = 0;
}

__global__ void throngFieldGoalsKernel(std::int32_t count, const std::int32_t* goals, FieldGridView g, float* phi,
                                       float* other, std::uint8_t* isGoal, TileQueue q) {
  const std::int32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= count) return;
  const std::int32_t c = goals[k];
  isGoal[c] = 1;
  phi[c] = other[c] = 0.0f;
  queueAround(q, tileOfCell(g, c), 1);
}

/// Round `round`: each block takes queued tiles in turn (solveTile's
/// sweeps, a thread a cell), reading buffer (round - 1) & 1 and writing
/// round & 1; a changed tile queues itself and its neighbours for the next
/// round. Block 0 clears the count of the round after next and counts the
/// rounds that had work.
__global__ void __launch_bounds__(kTileThreads) throngFieldRoundKernel(TileInputs in, float* buf0, float* buf1,
                                                                       TileQueue q, std::int32_t round,
                                                                       std::int32_t* worked) {
  const std::int32_t count = q.counts[round % 3];
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    q.counts[(round + 2) % 3] = 0;
    if (count > 0 && worked) ++*worked;
  }
  if (count == 0) return;
  const float* cur = ((round - 1) & 1) ? buf1 : buf0;
  float* next = (round & 1) ? buf1 : buf0;
  const std::int32_t* list = q.lists + static_cast<std::int64_t>(round & 1) * q.tiles;
  __shared__ float local[kTileSpan * kTileSpan];
  const int tid = threadIdx.x;
  for (std::int32_t k = blockIdx.x; k < count; k += gridDim.x) {
    const std::int32_t t = list[k];
    const TileBox b = tileBox(in.grid, t);
    for (int slot = tid; slot < kTileSpan * kTileSpan; slot += kTileThreads)
      local[slot] = tileHaloValue(in.grid, b, cur, slot);
    const TileThread me = tileThreadOf(in, b, tid);
    __syncthreads();
    for (int sweep = 0; sweep < kTileSweeps; ++sweep) {
      bool any = tileThreadSweep(local, me, 0);
      __syncthreads();
      any = tileThreadSweep(local, me, 1) || any;
      if (!__syncthreads_or(any)) break;
    }
    const bool changed = tileThreadStore(cur, next, me, local);
    // The vote is also the barrier before the next tile loads `local`.
    if (__syncthreads_or(changed) && tid == 0) queueAround(q, t, round + 1);
  }
}

}  // namespace

DeviceFields::DeviceFields() {
  int device = 0, sms = 0;
  if (cudaGetDevice(&device) == cudaSuccess &&
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) == cudaSuccess && sms > 0)
    roundBlocks_ = sms * 16;
  ok_ = THRONG_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&hostKeys_), 4 * sizeof(std::uint32_t))) &&
        THRONG_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&hostCounts_), 2 * sizeof(std::int32_t))) &&
        THRONG_CUDA_CHECK(cudaEventCreateWithFlags(&batchDone_[0], cudaEventDisableTiming)) &&
        THRONG_CUDA_CHECK(cudaEventCreateWithFlags(&batchDone_[1], cudaEventDisableTiming)) &&
        boxKeys_.reserve(4) && counts_.reserve(4);
}

DeviceFields::~DeviceFields() {
  for (cudaEvent_t& e : batchDone_)
    if (e) cudaEventDestroy(e);
  if (hostKeys_) cudaFreeHost(hostKeys_);
  if (hostCounts_) cudaFreeHost(hostCounts_);
}

FieldRouting DeviceFields::routing() const {
  FieldRouting r;
  if (!host.valid) return r;
  r.grid = grid_;
  r.keys = keys_.get();
  r.keyCount = keyCount_;
  r.potentialOf = potentialOf_.get();
  r.potentials = potentials_.get();
  r.speed = speed_.get();
  r.open = open_.get();
  r.fmax = fmax_;
  return r;
}

bool DeviceFields::step(World& w, const Settings& s, const DeviceWalkers& dw, bool walkersUploaded, cudaStream_t st) {
  if (!ok_) return false;
  if (walkersUploaded) host.walkersChanged();
  const DeviceFieldsHost::StepPlan p = host.begin(w, s, fieldsTaken(s));
  DeviceFieldsHost::fitObstacles(w, s, p);
  if (!p.wanted) return true;
  if (p.upload && !upload(w, st)) return false;
  return !p.refresh || refresh(w, s, dw, st);
}

bool DeviceFields::uploadStatics(const FieldState& f, cudaStream_t st) {
  const bool ok = blocked_.upload(f.blocked, st) && open_.upload(f.open, st) && height_.upload(f.height, st) &&
                  discomfort_.upload(f.discomfort, st) && groundFactor_.upload(f.groundFactor, st) &&
                  groundLimit_.upload(f.groundLimit, st) && goalCells_.upload(f.goalCells, st) &&
                  keys_.upload(f.keys, st);
  grid_ = f.grid;
  keyCount_ = static_cast<std::int32_t>(f.keys.size());
  return ok;
}

bool DeviceFields::upload(const World& w, cudaStream_t st) {
  const FieldState& f = w.fields;
  if (!(uploadStatics(f, st) && density_.upload(f.density, st) && velocityX_.upload(f.velocityX, st) &&
        velocityY_.upload(f.velocityY, st) && speed_.upload(f.speed, st) && cost_.upload(f.cost, st) &&
        potentialOf_.upload(f.potentialOf, st) && potentials_.upload(f.potentials, st)))
    return false;
  fmax_ = f.params.fmax;
  host.uploaded(w);
  return true;
}

bool DeviceFields::bringDown(World& w, cudaStream_t st) {
  if (!host.hostStale) return true;
  FieldState& f = w.fields;
  const std::size_t cells = f.cells();
  f.density.resize(cells);
  f.velocityX.resize(cells);
  f.velocityY.resize(cells);
  f.speed.resize(4 * cells);
  f.cost.resize(4 * cells);
  f.potentials.resize(static_cast<std::size_t>(host.potentials) * cells);
  if (!(density_.download(f.density, st) && velocityX_.download(f.velocityX, st) &&
        velocityY_.download(f.velocityY, st) && speed_.download(f.speed, st) && cost_.download(f.cost, st) &&
        potentials_.download(f.potentials, st) && THRONG_CUDA_CHECK(cudaStreamSynchronize(st))))
    return false;
  host.broughtDown();
  return true;
}

bool DeviceFields::refresh(World& w, const Settings& s, const DeviceWalkers& dw, cudaStream_t st) {
  // The walkers' box: the one round trip before the grid is known.
  throngFieldBoundsInitKernel<<<1, 1, 0, st>>>(boxKeys_.get());
  throngFieldBoundsKernel<<<std::min(blocksFor(dw.n, kBlock), 1024), kBlock, 0, st>>>(dw.n, dw.px, dw.py,
                                                                                      boxKeys_.get());
  if (!THRONG_CUDA_CHECK(cudaGetLastError()) ||
      !THRONG_CUDA_CHECK(cudaMemcpyAsync(hostKeys_, boxKeys_.get(), 4 * sizeof(std::uint32_t), cudaMemcpyDeviceToHost, st)) ||
      !THRONG_CUDA_CHECK(cudaStreamSynchronize(st)))
    return false;
  const FieldBox box = fieldBoxOfKeys(hostKeys_);
  const bool statics = host.plan(w, s, box);
  const FieldState& f = w.fields;
  if (statics) {
    if (!uploadStatics(f, st)) return false;
    host.staticsUploaded(w);
  }
  fmax_ = f.params.fmax;
  const std::size_t cells = f.cells();
  const auto cellCount = static_cast<std::int32_t>(cells);
  const FieldGridView g = f.grid;
  if (!(potentialOf_.upload(f.potentialOf, st) && density_.reserve(cells) && velocityX_.reserve(cells) &&
        velocityY_.reserve(cells) && speed_.reserve(4 * cells) && cost_.reserve(4 * cells) &&
        potentials_.reserve(static_cast<std::size_t>(host.potentials) * cells) && sums_.reserve(3 * cells) &&
        THRONG_CUDA_CHECK(cudaMemsetAsync(sums_.get(), 0, 3 * cells * sizeof(std::int64_t), st))))
    return false;
  // Density and mean velocity.
  const FieldSumsView sums{sums_.get(), sums_.get() + cells, sums_.get() + 2 * cells};
  throngFieldSplatKernel<<<std::min(blocksFor(dw.n, kBlock), 8192), kBlock, 0, st>>>(
      dw.n, g, latticeExponent(s.densityExponent), dw.px, dw.py, dw.vx, dw.vy, sums);
  throngFieldFlowKernel<<<blocksFor(cellCount, kBlock), kBlock, 0, st>>>(cellCount, sums, density_.get(),
                                                                         velocityX_.get(), velocityY_.get());
  // Speed and cost.
  const FieldCells fc{density_.get(),    velocityX_.get(), velocityY_.get(),    height_.get(),
                      discomfort_.get(), open_.get(),      groundFactor_.get(), groundLimit_.get()};
  throngFieldSpeedCostKernel<<<blocksFor(cellCount, kBlock), kBlock, 0, st>>>(
      cellCount, g, fc, f.params, SlopeParams{s.slopeMin, s.slopeMax, s.slopeSpeed}, speed_.get(), cost_.get());
  if (!THRONG_CUDA_CHECK(cudaGetLastError())) return false;
  // A potential per target in use.
  for (std::size_t t = 0; t < f.potentialOf.size(); ++t) {
    if (f.potentialOf[t] < 0) continue;
    const std::int32_t first = f.goalStart[t];
    if (!solve(g, cost_.get(), blocked_.get(), goalCells_.get() + first, f.goalStart[t + 1] - first,
               potentials_.get() + static_cast<std::size_t>(f.potentialOf[t]) * cells, st))
      return false;
  }
  host.refreshed(w);
  return true;
}

bool DeviceFields::solve(const FieldGridView& g, const float* cost, const std::uint8_t* blocked,
                         const std::int32_t* goals, std::int32_t goalCount, float* phi, cudaStream_t st,
                         std::int32_t* rounds) {
  const std::size_t cells = static_cast<std::size_t>(g.cols) * static_cast<std::size_t>(g.rows);
  const auto cellCount = static_cast<std::int32_t>(cells);
  TileQueue q;
  q.tcols = tilesAcross(g.cols);
  q.trows = tilesAcross(g.rows);
  q.tiles = q.tcols * q.trows;
  if (!(otherPhi_.reserve(cells) && isGoal_.reserve(cells) && stamp_.reserve(static_cast<std::size_t>(q.tiles)) &&
        lists_.reserve(2 * static_cast<std::size_t>(q.tiles))))
    return false;
  q.stamp = stamp_.get();
  q.lists = lists_.get();
  q.counts = counts_.get();
  if (!(THRONG_CUDA_CHECK(cudaMemsetAsync(q.stamp, 0, static_cast<std::size_t>(q.tiles) * sizeof(std::int32_t), st)) &&
        THRONG_CUDA_CHECK(cudaMemsetAsync(q.counts, 0, 3 * sizeof(std::int32_t), st))))
    return false;
  if (cellCount > 0)
    throngFieldSeedKernel<<<blocksFor(cellCount, kBlock), kBlock, 0, st>>>(cellCount, phi, otherPhi_.get(), isGoal_.get());
  if (goalCount > 0)
    throngFieldGoalsKernel<<<blocksFor(goalCount, kBlock), kBlock, 0, st>>>(goalCount, goals, g, phi, otherPhi_.get(),
                                                                           isGoal_.get(), q);
  if (!THRONG_CUDA_CHECK(cudaGetLastError())) return false;
  if (goalCount <= 0) return true;  // no tile queued: +inf everywhere, as the CPU leaves it
  const TileInputs in{g, cost, blocked, isGoal_.get()};
  const int blocks = std::max(1, std::min(q.tiles, roundBlocks_));
  std::int32_t round = 1;
  for (int batch = 0;; ++batch) {
    for (int k = 0; k < kRoundsPerBatch; ++k, ++round)
      throngFieldRoundKernel<<<blocks, kTileThreads, 0, st>>>(in, phi, otherPhi_.get(), q, round, rounds);
    // The count queued for the next round, behind this batch.
    const int slot = batch & 1;
    if (!THRONG_CUDA_CHECK(cudaGetLastError()) ||
        !THRONG_CUDA_CHECK(cudaMemcpyAsync(hostCounts_ + slot, q.counts + round % 3, sizeof(std::int32_t),
                                           cudaMemcpyDeviceToHost, st)) ||
        !THRONG_CUDA_CHECK(cudaEventRecord(batchDone_[slot], st)))
      return false;
    if (batch == 0) continue;
    // The batch before this one: nothing queued after it means this one
    // (already on its way) finds nothing either.
    if (!THRONG_CUDA_CHECK(cudaEventSynchronize(batchDone_[slot ^ 1]))) return false;
    if (hostCounts_[slot ^ 1] == 0) return true;
  }
}

}  // namespace throng

// ---- the solve alone (device_potential.hpp) ----------------------------------

#include "device_potential.hpp"

namespace throng {

bool devicePotential(const FieldGridView& g, const float* cost, const std::uint8_t* blocked, const std::int32_t* goals,
                     std::size_t goalCount, float* phi, int* rounds, double* ms) {
  const std::size_t cells = static_cast<std::size_t>(g.cols) * static_cast<std::size_t>(g.rows);
  cudaStream_t st = nullptr;
  cudaEvent_t t0 = nullptr, t1 = nullptr;
  bool ok = THRONG_CUDA_CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking)) &&
            THRONG_CUDA_CHECK(cudaEventCreate(&t0)) && THRONG_CUDA_CHECK(cudaEventCreate(&t1));
  {
    DeviceFields fields;
    DeviceBuffer<float> dCost, dPhi;
    DeviceBuffer<std::uint8_t> dBlocked;
    DeviceBuffer<std::int32_t> dGoals, dRounds;
    ok = ok && fields.ok() && dCost.upload(cost, 4 * cells, st) && dBlocked.upload(blocked, cells, st) &&
         dGoals.upload(goals, goalCount, st) && dPhi.reserve(cells) && dRounds.reserve(1) &&
         THRONG_CUDA_CHECK(cudaMemsetAsync(dRounds.get(), 0, sizeof(std::int32_t), st)) &&
         THRONG_CUDA_CHECK(cudaEventRecord(t0, st)) &&
         fields.solve(g, dCost.get(), dBlocked.get(), dGoals.get(), static_cast<std::int32_t>(goalCount), dPhi.get(), st,
                      dRounds.get()) &&
         THRONG_CUDA_CHECK(cudaEventRecord(t1, st));
    std::int32_t worked = 0;
    ok = ok && THRONG_CUDA_CHECK(cudaMemcpyAsync(phi, dPhi.get(), cells * sizeof(float), cudaMemcpyDeviceToHost, st)) &&
         THRONG_CUDA_CHECK(cudaMemcpyAsync(&worked, dRounds.get(), sizeof worked, cudaMemcpyDeviceToHost, st)) &&
         THRONG_CUDA_CHECK(cudaStreamSynchronize(st));
    float elapsed = 0;
    ok = ok && THRONG_CUDA_CHECK(cudaEventElapsedTime(&elapsed, t0, t1));
    if (rounds) *rounds = worked;
    if (ms) *ms = elapsed;
  }
  if (t0) cudaEventDestroy(t0);
  if (t1) cudaEventDestroy(t1);
  if (st) cudaStreamDestroy(st);
  return ok;
}

}  // namespace throng

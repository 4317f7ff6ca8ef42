// The CUDA backend: the crowd's step as kernels on one non-default stream,
// bit-identical to World::stepCpu.
//
// Design note.
//  State. The device holds the same structure of arrays as World. The host
//  copy stays authoritative for what the step never writes (radius,
//  maxSpeed, goals, groups, routes, ids, obstacles); the step writes
//  positions, velocities, jammed flags and gates, and pull() copies exactly
//  those back (plus the stats) when the host reads. pushed() marks the
//  host copy changed: the next step uploads everything once.
//  Step. The plan's phases (kStepPlan, throng/types.hpp), one method
//  each, an event recorded at every boundary for profile(); no host round
//  trip except on a field refresh (the 16-byte copies of the stats and the
//  bounds are asynchronous, to pinned memory):
//    fields     when the model or the routing wants them (field_refresh.cu;
//               device_fields.hpp's design note): on a refresh step the
//               walkers' box comes back to the host (a round trip), which
//               fits the grid's fixed parts, then the density, speed, cost
//               and potential kernels, whose rounds the host stops (a round
//               trip per batch of rounds)
//    wishes     on the host, the model's share: the obstacle grid fitted as
//               its CPU step fits it, then its prepare (BioCrowds: the
//               marker field); then the neighbour grid riding with the
//               wishes, as the model's first pass does on the CPU:
//                - init the bounds and counters (1 thread)
//                - bounds: min/max of positions (a block's reduction, then
//                  atomics on ordered keys)
//                - grid params: AgentGrid::build's cell loop with the
//                  model's radius and neighbours (1 thread, on the device,
//                  so the host never waits for the bounds); the bounds are
//                  copied to pinned memory behind an event, for the next
//                  step's host side (DeviceHost::lastBounds), which waits
//                  only if it asks before they land
//                - prep: each walker's cell key, and its wish (goal, route,
//                  stream, jitter) unless a preferredVelocity closure is set
//                - stable radix sort of ((cell, x) key, walker index) on
//                  the key bits in use (CUB), then cell starts at the cell
//                  boundaries and the sorted positions gathered: the CPU's
//                  counting sort plus its per-cell insertion sort by x, the
//                  same arrays
//    solve      the model's kernels (device_model.hpp; ORCA's in
//               models/orca.cu, BioCrowds' in models/biocrowds.cu,
//               Continuum Crowds' in models/continuum.cu), writing new
//               velocities and jammed flags
//    integrate  World::integrate per walker (landing, gates) with block
//               counts of jammed and arrived walkers, then an async copy of
//               the two counts to pinned memory.
//    measure    while the crowd measures anything: the walkers' starts
//               kept before integrate, then a thread a walker
//               (device_measure.hpp); the tally and the crossings come
//               back, a round trip per step.
//  The fields live on the device between refreshes; World::fields holds
//  their fixed parts and is brought up to date on pull() (and by fields()),
//  so a switch to the CPU between refreshes steps on the device's fields,
//  and a switch from it uploads the host's before the first device step.
//  With no walkers the step runs on the host (stepCpu: the fields phase has nothing
//  to splat, and the model's fits are replayed as its CPU step makes them).
//  A closure cannot run on the device: with one set the host pulls the
//  state, calls it, and uploads the wishes each step (the slow path; said
//  once on stderr). Obstacles go up when their version or grid changes.
//
// Bit-identity rules (CPU == CUDA; also in throng/hd.hpp):
//  - device code: --fmad=false (no a*b+c contraction into FMA), the default
//    IEEE-rounded division and square root (-prec-div=true -prec-sqrt=true),
//    denormals kept (-ftz=false), never -use_fast_math. Host: -ffp-contract=off.
//  - only +, -, *, /, sqrt, floor, fabs and comparisons in the step: all
//    correctly rounded or exact on both sides; no transcendental functions;
//  - jitter is an integer hash of (seed, id, step);
//  - the grid's sortedIndex is the CPU's (stable sort), so neighbours are
//    met in the same order and ordered by (distance squared, index);
//  - reductions are exact and order-free (integer counts, min/max).
//  The host tests (tests/gpu/test_gpu_host.cpp) run this pipeline's
//  THRONG_HD phases on the host against World::stepCpu; tests/gpu's device
//  test compares state hashes on a GPU.
//
// Errors: every CUDA call goes through THRONG_CUDA_CHECK (file and line on
// stderr). A failed step says so and the crowd continues on the CPU from the
// last state the host holds; nothing throws through a step but what the
// model's CPU step would throw before it changes anything (BioCrowds'
// std::length_error for a marker field beyond kMaxMarkers).
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "block_bounds.cuh"
#include "cuda_check.cuh"
#include "device_buffer.hpp"
#include "device_measure.hpp"
#include "device_model.hpp"
#include "device_step.hpp"
#include "field_refresh.hpp"
#include "fields/fields.hpp"
#include "pipeline/backend.hpp"
#include "pipeline/registry.hpp"
#include "core/world.hpp"
#include "models/orca/fast/orca_model.hpp"
#include "pipeline/step.hpp"

namespace throng {
namespace {

constexpr int kBlock = 256;

/// Per-step scalars in device memory.
struct DeviceScalars {
  std::uint32_t boundKeys[4];  ///< ordered keys of minX, minY, maxX, maxY
  unsigned long long jammed, arrived;
  GridShape grid;  ///< gridShapeFromBounds, as AgentGrid::build takes it
};

/// The two counts copied back each step.
struct HostStats {
  unsigned long long jammed, arrived;
};

// ---- kernels ---------------------------------------------------------------

__global__ void throngInitKernel(DeviceScalars* sc) {
  sc->boundKeys[0] = sc->boundKeys[1] = 0xFFFFFFFFu;
  sc->boundKeys[2] = sc->boundKeys[3] = 0u;
  sc->jammed = sc->arrived = 0;
}

__global__ void throngBoundsKernel(std::int32_t n, const float* px, const float* py, DeviceScalars* sc) {
  std::uint32_t lo[2] = {0xFFFFFFFFu, 0xFFFFFFFFu}, hi[2] = {0u, 0u};
  for (std::int32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const std::uint32_t kx = cudastep::orderedKey(__float_as_uint(px[i]));
    const std::uint32_t ky = cudastep::orderedKey(__float_as_uint(py[i]));
    lo[0] = min(lo[0], kx); hi[0] = max(hi[0], kx);
    lo[1] = min(lo[1], ky); hi[1] = max(hi[1], ky);
  }
  cudastep::blockBoundsToKeys<kBlock>(lo, hi, sc->boundKeys);
}

__global__ void throngGridParamsKernel(DeviceScalars* sc, float radius, std::int32_t n, int neighbors) {
  auto f = [&](int k) { return __uint_as_float(cudastep::floatBitsOfKey(sc->boundKeys[k])); };
  sc->grid = gridShapeFromBounds(f(0), f(1), f(2), f(3), radius, n, neighbors);
}

__global__ void throngIotaKernel(std::int32_t n, std::int32_t* out) {
  const std::int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i;
}

__global__ void throngPrepKernel(std::int32_t n, const DeviceScalars* sc, WorldView w,
                                 WishParams wp, bool doWish, std::uint64_t* keys, float* wishX,
                                 float* wishY, std::uint8_t* landing) {
  const std::int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  keys[i] = cudastep::sortKey(gridCellOf(sc->grid, w.px[i], w.py[i]), __float_as_uint(w.px[i]));
  if (doWish) {
    bool land;
    const Vec2 wish = wishAt(w, wp, i, land);
    wishX[i] = wish.x;
    wishY[i] = wish.y;
    landing[i] = land ? 1 : 0;
  }
}

/// The pace phase (core/pace.hpp's pacePhaseWish) over the model's grid:
/// any grid's shape finds the same headway, so the CPU's own grid and this
/// one give the same bits.
__global__ void throngPaceKernel(std::int32_t n, AgentsView a, const DeviceScalars* sc,
                                 const std::int32_t* cellStart, const std::int32_t* sortedIndex, const float* sx,
                                 const float* sy, GroundView ground, bool pace, PaceParams pp, float* wishX,
                                 float* wishY, std::uint8_t* landing) {
  const std::int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  bool slowed;
  const Vec2 v = pacePhaseWish(ground, a, gridViewOf(sc->grid, cellStart, sortedIndex, sx, sy), pp, pace, i,
                               Vec2{wishX[i], wishY[i]}, slowed);
  if (!slowed) return;
  wishX[i] = v.x;
  wishY[i] = v.y;
  landing[i] = 0;
}

__global__ void throngCellStartsKernel(std::int32_t n, const DeviceScalars* sc, const std::uint64_t* sortedKeys,
                                       const std::int32_t* sortedIndex, const float* px, const float* py,
                                       std::int32_t* cellStart, float* sx, float* sy) {
  const std::int32_t s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s > n) return;
  cudastep::cellStartsForSlot(sortedKeys, n, sc->grid.cells, s, cellStart);
  if (s < n) {
    const std::int32_t i = sortedIndex[s];
    sx[s] = px[i];
    sy[s] = py[i];
  }
}

__global__ void throngIntegrateKernel(std::int32_t n, WorldView w, MutableState m,
                                      StepOutputs o, float dt, DeviceScalars* sc) {
  const std::int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned r = i < n ? integrateAt(w, m, o, dt, i) : 0u;
  const int jammed = __syncthreads_count(r & 1u);
  const int arrived = __syncthreads_count(r & 2u);
  if (threadIdx.x == 0) {
    if (jammed) atomicAdd(&sc->jammed, static_cast<unsigned long long>(jammed));
    if (arrived) atomicAdd(&sc->arrived, static_cast<unsigned long long>(arrived));
  }
}

// ---- device memory -----------------------------------------------------------

int blocksFor(std::int64_t threads, int block) { return static_cast<int>((threads + block - 1) / block); }

/// The sort key's bits in use: x's 32, plus what holds any cell below
/// maxGridCells(n).
int keyBits(std::int64_t n) {
  const auto top = static_cast<std::uint64_t>(maxGridCells(n) - 1);
  int bits = 1;
  while (bits < 32 && (top >> bits) != 0) ++bits;
  return 32 + bits;
}

// ---- the backend -------------------------------------------------------------

class CudaBackend final : public Backend {
 public:
  CudaBackend() {
    ok_ = THRONG_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)) &&
          THRONG_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&scalars_), sizeof(DeviceScalars))) &&
          THRONG_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&hostStats_), sizeof(HostStats))) &&
          THRONG_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&hostBoundKeys_), 4 * sizeof(std::uint32_t))) &&
          THRONG_CUDA_CHECK(cudaEventCreateWithFlags(&boundsReady_, cudaEventDisableTiming)) && fields_.ok();
    for (cudaEvent_t& e : phaseEvents_) ok_ = ok_ && THRONG_CUDA_CHECK(cudaEventCreate(&e));
    if (!ok_) release();
  }
  ~CudaBackend() override { release(); }

  bool ok() const { return ok_; }
  const char* name() const override { return "cuda"; }

  void step(World& w, const Settings& s, float dt, const std::function<Vec2(const Agent&)>& closure) override {
    if (!failed_ && !stepDevice(w, s, dt, closure)) {
      const bool pulled = download(w);
      // A refresh may have stopped half-way: the CPU builds the fields afresh.
      w.fields.clear();
      fields_.host.hostTookOver();
      failed_ = true;
      std::fprintf(stderr,
                   "throng: the CUDA backend failed (CUDA errors above); continuing on the CPU from %s\n",
                   pulled ? "the latest state" : "the last state the host copied back (later steps are lost)");
      hostStale_ = false;
    }
    if (failed_) stepCpu(w, s, dt, closure);
  }

  void pull(World& w) override {
    if (!failed_ && download(w)) (void)fields_.bringDown(w, stream_);
  }
  /// The fields of the last refresh: the device's, brought down first.
  FieldView fields(World& w, int target) override {
    if (!failed_ && !fields_.bringDown(w, stream_)) return {};
    return w.fields.view(target);
  }
  bool deviceFrame(DeviceFrame& f) override {
    if (!ok_ || failed_ || dirty_) return false;  // dirty_: the host copy is newer
    f.px = px_.get(); f.py = py_.get(); f.vx = vx_.get(); f.vy = vy_.get(); f.radius = radius_.get();
    f.group = group_.get(); f.jammed = jammed_.get();
    f.count = count_;
    f.stream = stream_;
    return true;
  }
  /// The host copy is now the truth (Crowd pulled before editing it).
  void pushed() override {
    dirty_ = true;
    hostStale_ = false;
  }
  /// The last step's phases as the stream took them (the time between the
  /// events at their boundaries; waits for the step to finish), or the CPU
  /// step's when the last step ran on the host.
  StepProfile profile(const World& w) override {
    if (failed_ || !lastOnDevice_ || !profileReady_) return Backend::profile(w);
    StepProfile p;
    if (!THRONG_CUDA_CHECK(cudaEventSynchronize(phaseEvents_[kStepPhases]))) return p;
    for (std::size_t k = 0; k < kStepPhases; ++k) {
      float ms = 0;
      if (!THRONG_CUDA_CHECK(cudaEventElapsedTime(&ms, phaseEvents_[k], phaseEvents_[k + 1]))) return StepProfile{};
      p.ms[static_cast<std::size_t>(kStepPlan[k].phase)] = ms;
    }
    float total = 0;
    if (!THRONG_CUDA_CHECK(cudaEventElapsedTime(&total, phaseEvents_[0], phaseEvents_[kStepPhases])))
      return StepProfile{};
    p.totalMs = total;
    p.measured = true;
    return p;
  }
  /// The device model's markers and their owners (copied back now) when the
  /// last step ran on the device; else the CPU model's.
  MarkerView markers(World& w) override {
    if (!failed_ && lastOnDevice_ && deviceModel_) return deviceModel_->markers(stream_);
    return Backend::markers(w);
  }

 private:
  /// Copies what the step writes back to the host, once per step taken.
  bool download(World& w) {
    if (!hostStale_) return true;
    const bool ok = px_.download(w.px, stream_) && py_.download(w.py, stream_) && vx_.download(w.vx, stream_) &&
                    vy_.download(w.vy, stream_) && jammed_.download(w.jammed, stream_) &&
                    gate_.download(w.gate, stream_) && THRONG_CUDA_CHECK(cudaStreamSynchronize(stream_));
    if (!ok) return false;
    w.stats.jammed = static_cast<std::size_t>(hostStats_->jammed);
    w.stats.arrived = static_cast<std::size_t>(hostStats_->arrived);
    hostStale_ = false;
    return true;
  }

  bool uploadAll(const World& w) {
    const cudaStream_t st = stream_;
    bool ok = px_.upload(w.px, st) && py_.upload(w.py, st) && vx_.upload(w.vx, st) && vy_.upload(w.vy, st) &&
              radius_.upload(w.radius, st) && maxSpeed_.upload(w.maxSpeed, st) && prefSpeed_.upload(w.prefSpeed, st) &&
              maxAccel_.upload(w.maxAccel, st) && maxDecel_.upload(w.maxDecel, st) && jammed_.upload(w.jammed, st) &&
              hasGoal_.upload(w.hasGoal, st) && gx_.upload(w.gx, st) && gy_.upload(w.gy, st) && group_.upload(w.group, st) && route_.upload(w.route, st) &&
              gate_.upload(w.gate, st) && id_.upload(w.id, st);
    // Routes as CSR (World keeps them so), streams as sorted arrays.
    ok = ok && dRouteStart_.upload(w.routeStart, st) && dWaypoints_.upload(w.waypoints, st) &&
         dStreamGroups_.upload(w.streamGroups, st) && dStreamVelocity_.upload(w.streamVelocity, st);
    streamCount_ = static_cast<std::int32_t>(w.streamGroups.size());
    // Per-count scratch: the sort's buffers and the phase outputs.
    const std::size_t n = w.size();
    count_ = n;
    if (n != sizedFor_) {
      const auto cells = static_cast<std::size_t>(maxGridCells(static_cast<std::int64_t>(n)));
      ok = ok && keys_.reserve(n) && sortedKeys_.reserve(n) && iota_.reserve(n) && sortedIndex_.reserve(n) &&
           cellStart_.reserve(cells + 1) && sx_.reserve(n) && sy_.reserve(n) && wishX_.reserve(n) &&
           wishY_.reserve(n) && landing_.reserve(n) && nvx_.reserve(n) && nvy_.reserve(n) && njammed_.reserve(n);
      if (ok && n > 0) {
        throngIotaKernel<<<blocksFor(static_cast<std::int64_t>(n), kBlock), kBlock, 0, st>>>(
            static_cast<std::int32_t>(n), iota_.get());
        ok = THRONG_CUDA_CHECK(cudaGetLastError());
      }
      std::size_t bytes = 0;
      const int bits = keyBits(static_cast<std::int64_t>(n));
      ok = ok && THRONG_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
                     nullptr, bytes, keys_.get(), sortedKeys_.get(), iota_.get(), sortedIndex_.get(),
                     static_cast<std::int32_t>(n), 0, bits, st)) &&
           sortTemp_.reserve(bytes);
      sortBytes_ = bytes;
      if (ok) sizedFor_ = n;
    }
    return ok;
  }

  /// The obstacle grid as the model's CPU step sizes it, then the upload
  /// when the set or its grid changed.
  bool syncObstacles(World& w, const Settings& s, DeviceModel& model, bool walkersChanged, float dt) {
    ObstacleSet& o = w.obstacles;
    if (o.vertices.empty()) return true;
    if (w.size() > 0) o.fitToReach(model.obstacleReach(w, s, walkersChanged, dt));
    const bool same = uploadedObstacles_ && o.version == obstacleVersion_ && o.cell == obstacleCell_ &&
                      o.cols == obstacleCols_ && o.rows == obstacleRows_;
    if (same) return true;
    const cudaStream_t st = stream_;
    if (!(dVertices_.upload(o.vertices, st) && dObstacleStart_.upload(o.cellStart, st) &&
          dObstacleEdges_.upload(o.cellEdges, st)))
      return false;
    uploadedObstacles_ = true;
    obstacleVersion_ = o.version;
    obstacleCell_ = o.cell;
    obstacleCols_ = o.cols;
    obstacleRows_ = o.rows;
    return true;
  }

  WorldView worldView() const {
    WorldView v;
    v.px = px_.get(); v.py = py_.get(); v.radius = radius_.get(); v.maxSpeed = maxSpeed_.get();
    v.prefSpeed = prefSpeed_.get();
    v.hasGoal = hasGoal_.get(); v.gx = gx_.get(); v.gy = gy_.get();
    v.group = group_.get(); v.route = route_.get(); v.gate = gate_.get(); v.id = id_.get();
    v.routeStart = dRouteStart_.get(); v.waypoints = dWaypoints_.get();
    v.streamGroups = dStreamGroups_.get(); v.streamVelocity = dStreamVelocity_.get();
    v.streamCount = streamCount_;
    return v;
  }

  /// The slow path: the closure's wishes, computed on the host.
  bool hostWishes(World& w, const Settings& s, const std::function<Vec2(const Agent&)>& closure) {
    if (!saidSlowPath_) {
      std::fprintf(stderr,
                   "throng: a preferredVelocity closure runs on the host: the CUDA backend copies the state "
                   "back and the wishes up every step (the slow path; goals, routes and group streams run on "
                   "the device)\n");
      saidSlowPath_ = true;
    }
    if (!download(w)) return false;
    const std::size_t n = w.size();
    hostWishX_.resize(n);
    hostWishY_.resize(n);
    hostLanding_.assign(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
      const Vec2 v = jitterWish(closure(w.agentAt(i)), w.maxSpeed[i], s.jitter, s.seed, w.id[i], w.step);
      hostWishX_[i] = v.x;
      hostWishY_[i] = v.y;
    }
    return wishX_.upload(hostWishX_, stream_) && wishY_.upload(hostWishY_, stream_) &&
           landing_.upload(hostLanding_, stream_);
  }

  /// The bounds the last device step's kernel reduced (DeviceHost::lastBounds).
  bool lastBounds(Vec2& lo, Vec2& hi, float& dt) {
    if (!boundsValid_ || !THRONG_CUDA_CHECK(cudaEventSynchronize(boundsReady_))) return false;
    const auto f = [this](int k) {
      const std::uint32_t bits = cudastep::floatBitsOfKey(hostBoundKeys_[k]);
      float v;
      std::memcpy(&v, &bits, sizeof v);
      return v;
    };
    lo = Vec2{f(0), f(1)};
    hi = Vec2{f(2), f(3)};
    dt = boundsDt_;
    return true;
  }

  bool stepDevice(World& w, const Settings& s, float dt, const std::function<Vec2(const Agent&)>& closure) {
    if (!ok_) return false;
    lastOnDevice_ = false;
    DeviceModel* const model = deviceModelFor(s.model);
    if (!model) {  // a model with no device form: this step on the CPU
      if (!saidNoDevice_) {
        std::fprintf(stderr, "throng: model %s has no CUDA form: its steps run on the CPU\n", s.model.c_str());
        saidNoDevice_ = true;
      }
      if (!download(w) || !fields_.bringDown(w, stream_)) return false;
      stepCpu(w, s, dt, closure);
      dirty_ = true;  // the host copy is the truth now
      fields_.host.hostTookOver();
      return true;
    }
    const bool walkersChanged = dirty_;
    if (dirty_) {
      if (!uploadAll(w)) return false;
      dirty_ = false;
      fields_.host.walkersChanged();
    }
    const std::size_t count = w.size();
    if (count == 0) {
      // Nothing on the device to step: the host's step (its fields from the
      // geometry alone, the model's fits as its CPU step makes them).
      if (!fields_.bringDown(w, stream_)) return false;
      stepCpu(w, s, dt, closure);
      fields_.host.hostTookOver();
      return true;
    }
    DeviceStepRun run{w, s, dt, closure, *model, walkersChanged, static_cast<std::int32_t>(count), {}};
    // The plan's phases in order, an event at each boundary (profile()).
    profileReady_ = false;
    if (!THRONG_CUDA_CHECK(cudaEventRecord(phaseEvents_[0], stream_))) return false;
    for (std::size_t k = 0; k < kStepPhases; ++k) {
      if (!runPhase(run, kStepPlan[k].phase)) return false;
      if (!THRONG_CUDA_CHECK(cudaEventRecord(phaseEvents_[k + 1], stream_))) return false;
    }
    hostStale_ = true;
    lastOnDevice_ = true;
    profileReady_ = true;
    return true;
  }

  /// What the phases of one device step share.
  struct DeviceStepRun {
    World& w;
    const Settings& s;
    float dt;
    const std::function<Vec2(const Agent&)>& closure;
    DeviceModel& model;
    bool walkersChanged;  ///< everything was uploaded for this step
    std::int32_t n;       ///< walkers, > 0
    WorldView wv;         ///< device pointers and the fields; set by the wishes phase
  };

  bool runPhase(DeviceStepRun& r, StepPhase phase) {
    switch (phase) {
      case StepPhase::Fields: return fieldsPhase(r);
      case StepPhase::Wishes: return wishesPhase(r);
      case StepPhase::Pace: return pacePhase(r);
      case StepPhase::Solve: return solvePhase(r);
      case StepPhase::Integrate: return integratePhase(r);
      case StepPhase::Measure: return measurePhase(r);
    }
    return false;
  }

  /// The fields, before the model's obstacle fit (as buildFields runs
  /// before the model on the CPU).
  bool fieldsPhase(DeviceStepRun& r) {
    DeviceWalkers dw;
    dw.px = px_.get(); dw.py = py_.get(); dw.vx = vx_.get(); dw.vy = vy_.get();
    dw.n = r.n;
    return fields_.step(r.w, r.s, dw, false, stream_);
  }

  /// The model's host side (obstacle grid, prepare), the neighbour grid's
  /// bounds and shape, then each walker's cell key and wish in one kernel,
  /// the sort and the cell starts.
  bool wishesPhase(DeviceStepRun& r) {
    World& w = r.w;
    const Settings& s = r.s;
    if (!syncObstacles(w, s, r.model, r.walkersChanged, r.dt)) return false;
    if (r.closure && !hostWishes(w, s, r.closure)) return false;
    DeviceHost host;
    host.world = &w;
    host.pool = &w.pool(s.threads);
    host.uploaded = r.walkersChanged;
    host.lastBounds = [this](Vec2& lo, Vec2& hi, float& lastDt) { return lastBounds(lo, hi, lastDt); };
    if (!r.model.prepare(host, s, r.dt, stream_)) return false;

    const std::int32_t n = r.n;
    const cudaStream_t st = stream_;
    const int blocks = blocksFor(n, kBlock);
    const int reduceBlocks = std::min(blocks, 1024);
    throngInitKernel<<<1, 1, 0, st>>>(scalars_);
    throngBoundsKernel<<<reduceBlocks, kBlock, 0, st>>>(n, px_.get(), py_.get(), scalars_);
    const GridSpec spec = r.model.grid(s);
    throngGridParamsKernel<<<1, 1, 0, st>>>(scalars_, spec.cell, n, spec.neighbors);
    if (!THRONG_CUDA_CHECK(cudaGetLastError()) ||
        !THRONG_CUDA_CHECK(cudaMemcpyAsync(hostBoundKeys_, scalars_->boundKeys, 4 * sizeof(std::uint32_t),
                                           cudaMemcpyDeviceToHost, st)) ||
        !THRONG_CUDA_CHECK(cudaEventRecord(boundsReady_, st)))
      return false;
    boundsValid_ = true;
    boundsDt_ = r.dt;

    const WishParams wp = w.wishParams(s, r.dt);
    r.wv = worldView();
    r.wv.field = fields_.routing();
    throngPrepKernel<<<blocks, kBlock, 0, st>>>(n, scalars_, r.wv, wp, !r.closure, keys_.get(), wishX_.get(),
                                                 wishY_.get(), landing_.get());
    if (!THRONG_CUDA_CHECK(cudaGetLastError())) return false;

    std::size_t bytes = sortBytes_;
    if (!THRONG_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(sortTemp_.get(), bytes, keys_.get(), sortedKeys_.get(),
                                                           iota_.get(), sortedIndex_.get(), n, 0, keyBits(n), st)))
      return false;
    throngCellStartsKernel<<<blocksFor(static_cast<std::int64_t>(n) + 1, kBlock), kBlock, 0, st>>>(
        n, scalars_, sortedKeys_.get(), sortedIndex_.get(), px_.get(), py_.get(), cellStart_.get(), sx_.get(),
        sy_.get());
    return THRONG_CUDA_CHECK(cudaGetLastError());
  }

  /// Every wish slowed to the ground under it, then to the room ahead over
  /// the grid the wishes phase built.
  bool pacePhase(DeviceStepRun& r) {
    const bool pace = paceTaken(r.s);
    const GroundShapes& ground = r.w.ground;
    if (!pace && ground.regions.empty()) return true;
    if (!haveGround_ || groundVersion_ != r.w.terrainVersion) {
      if (!(dGroundRegions_.upload(ground.regions, stream_) && dGroundX_.upload(ground.x, stream_) &&
            dGroundY_.upload(ground.y, stream_)))
        return false;
      groundVersion_ = r.w.terrainVersion;
      haveGround_ = true;
    }
    GroundView gv = ground.view();
    gv.regions = dGroundRegions_.get();
    gv.x = dGroundX_.get();
    gv.y = dGroundY_.get();
    // The largest radius (World::paceParamsFor's), taken again only when
    // the host's walkers were uploaded for this step: the host's radii are
    // the device's, and change only with the host's edits.
    if (pace && (r.walkersChanged || !havePaceRadius_)) {
      paceRadius_ = r.w.largestRadius();
      havePaceRadius_ = true;
    }
    throngPaceKernel<<<blocksFor(r.n, kBlock), kBlock, 0, stream_>>>(
        r.n, deviceAgents(r), scalars_, cellStart_.get(), sortedIndex_.get(), sx_.get(), sy_.get(), gv, pace,
        pace ? paceParams(r.s, paceRadius_) : PaceParams{}, wishX_.get(), wishY_.get(), landing_.get());
    return THRONG_CUDA_CHECK(cudaGetLastError());
  }

  /// The walkers as the kernels read them: the host view's scalars, the
  /// device's arrays.
  AgentsView deviceAgents(const DeviceStepRun& r) const {
    AgentsView av = r.w.view();
    av.px = px_.get(); av.py = py_.get(); av.vx = vx_.get(); av.vy = vy_.get();
    av.radius = radius_.get(); av.maxSpeed = maxSpeed_.get(); av.id = id_.get();
    av.maxAccel = maxAccel_.get(); av.maxDecel = maxDecel_.get();
    av.count = r.n;
    av.kin = nullptr;  // the host step's records; the kernels build their lines one at a time
    return av;
  }

  /// The model's kernels: new velocities and jam flags.
  bool solvePhase(DeviceStepRun& r) {
    const World& w = r.w;
    const AgentsView av = deviceAgents(r);
    const ObstacleSet& o = w.obstacles;
    ObstacleView ov;
    if (!o.vertices.empty()) {
      ov = o.view();  // the host view's scalars, device pointers below
      ov.vertices = dVertices_.get();
      ov.cellStart = dObstacleStart_.get();
      ov.cellEdges = dObstacleEdges_.get();
    }
    DeviceSolve d;
    d.n = r.n;
    d.agents = av;
    d.shape = &scalars_->grid;
    d.cellStart = cellStart_.get(); d.sortedIndex = sortedIndex_.get(); d.sx = sx_.get(); d.sy = sy_.get();
    d.obstacles = ov;
    d.wishX = wishX_.get(); d.wishY = wishY_.get(); d.landing = landing_.get();
    d.nvx = nvx_.get(); d.nvy = nvy_.get(); d.njammed = njammed_.get();
    d.group = group_.get(); d.route = route_.get();
    d.field = r.wv.field;
    return r.model.solve(d, r.s, r.dt, stream_);
  }

  /// World::integrate per walker (landing, gates) with block counts of
  /// jammed and arrived walkers, then the two counts to pinned memory.
  bool integratePhase(DeviceStepRun& r) {
    const cudaStream_t st = stream_;
    MutableState m;
    m.px = px_.get(); m.py = py_.get(); m.vx = vx_.get(); m.vy = vy_.get();
    m.jammed = jammed_.get(); m.gate = gate_.get();
    StepOutputs out;
    out.wishX = wishX_.get(); out.wishY = wishY_.get(); out.landing = landing_.get();
    out.nvx = nvx_.get(); out.nvy = nvy_.get(); out.njammed = njammed_.get();
    if (r.w.measure.on() && !measure_.keepStarts(px_.get(), py_.get(), r.n, st)) return false;
    throngIntegrateKernel<<<blocksFor(r.n, kBlock), kBlock, 0, st>>>(r.n, r.wv, m, out, r.dt, scalars_);
    return THRONG_CUDA_CHECK(cudaGetLastError()) &&
           THRONG_CUDA_CHECK(cudaMemcpyAsync(hostStats_, &scalars_->jammed, sizeof(HostStats),
                                             cudaMemcpyDeviceToHost, st));
  }

  /// The measurements' tally and crossings (device_measure.hpp), while
  /// the crowd measures anything.
  bool measurePhase(DeviceStepRun& r) {
    return !r.w.measure.on() ||
           measure_.step(r.w, px_.get(), py_.get(), vx_.get(), vy_.get(), r.n, r.dt, stream_);
  }

  /// The device form of the model named `name`, made when the name changes.
  DeviceModel* deviceModelFor(std::string_view name) {
    if (name != deviceModelName_) {
      deviceModel_ = makeDeviceModel(name);
      deviceModelName_ = std::string(name);
    }
    return deviceModel_.get();
  }

  void release() {
    for (cudaEvent_t& e : phaseEvents_) {
      if (e) cudaEventDestroy(e);
      e = nullptr;
    }
    if (boundsReady_) cudaEventDestroy(boundsReady_);
    if (stream_) cudaStreamDestroy(stream_);
    if (scalars_) cudaFree(scalars_);
    if (hostStats_) cudaFreeHost(hostStats_);
    if (hostBoundKeys_) cudaFreeHost(hostBoundKeys_);
    boundsReady_ = nullptr;
    stream_ = nullptr;
    scalars_ = nullptr;
    hostStats_ = nullptr;
    hostBoundKeys_ = nullptr;
  }

  bool ok_ = false, failed_ = false, dirty_ = true, hostStale_ = false, saidSlowPath_ = false;
  cudaStream_t stream_ = nullptr;
  DeviceScalars* scalars_ = nullptr;
  HostStats* hostStats_ = nullptr;  // pinned
  // the last step's bounds (boundKeys), pinned, for the next step's host side
  std::uint32_t* hostBoundKeys_ = nullptr;
  cudaEvent_t boundsReady_ = nullptr;  ///< recorded after their copy
  bool boundsValid_ = false;           ///< a device step has recorded them
  float boundsDt_ = 0;                 ///< that step's dt, s
  bool lastOnDevice_ = false;          ///< the last step ran the model's device form
  /// Recorded on the stream at the plan's phase boundaries: before the
  /// first phase, then after each.
  cudaEvent_t phaseEvents_[kStepPhases + 1] = {};
  bool profileReady_ = false;  ///< the last device step recorded them all
  DeviceMeasure measure_;

  // the SoA mirror of World
  DeviceBuffer<float> px_, py_, vx_, vy_, radius_, maxSpeed_, prefSpeed_, maxAccel_, maxDecel_, gx_, gy_;
  DeviceBuffer<std::uint8_t> jammed_, hasGoal_;
  DeviceBuffer<std::int32_t> group_, route_, gate_;
  DeviceBuffer<std::uint64_t> id_;
  // routes, streams, obstacles
  DeviceBuffer<std::int32_t> dRouteStart_, dStreamGroups_;
  DeviceBuffer<Waypoint> dWaypoints_;
  DeviceBuffer<Vec2> dStreamVelocity_;
  std::int32_t streamCount_ = 0;
  std::size_t count_ = 0;  // walkers on the device (set by uploadAll)
  DeviceBuffer<ObstacleVertex> dVertices_;
  DeviceBuffer<std::int32_t> dObstacleStart_, dObstacleEdges_;
  bool uploadedObstacles_ = false;
  // the ground (pacePhase), as of terrain version groundVersion_
  DeviceBuffer<GroundRegion> dGroundRegions_;
  DeviceBuffer<float> dGroundX_, dGroundY_;
  std::uint64_t groundVersion_ = 0;
  bool haveGround_ = false;
  bool havePaceRadius_ = false;
  float paceRadius_ = 0;  ///< the largest radius, as of the last upload (pacePhase)
  std::uint64_t obstacleVersion_ = 0;
  float obstacleCell_ = 0;
  std::int32_t obstacleCols_ = 0, obstacleRows_ = 0;
  // per-step scratch
  std::size_t sizedFor_ = static_cast<std::size_t>(-1), sortBytes_ = 0;
  DeviceBuffer<std::uint64_t> keys_, sortedKeys_;
  DeviceBuffer<std::int32_t> iota_, sortedIndex_, cellStart_;
  DeviceBuffer<unsigned char> sortTemp_;
  DeviceBuffer<float> sx_, sy_, wishX_, wishY_, nvx_, nvy_;
  DeviceBuffer<std::uint8_t> landing_, njammed_;
  // the model's device form, for the model it was made for
  std::unique_ptr<DeviceModel> deviceModel_;
  std::string deviceModelName_;
  bool saidNoDevice_ = false;
  // the fields phase's state
  DeviceFields fields_;
  // the slow path's host wishes
  std::vector<float> hostWishX_, hostWishY_;
  std::vector<std::uint8_t> hostLanding_;
};

}  // namespace

bool cudaAvailable(std::string* why) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    // 35 (cudaErrorInsufficientDriver) and 34 (cudaErrorStubLibrary) are the
    // usual answers on a machine with no NVIDIA driver.
    if (why)
      *why = std::string("no CUDA device (") + cudaGetErrorName(err) + ": " + cudaGetErrorString(err) + ")";
    return false;
  }
  if (count == 0) {
    if (why) *why = "no CUDA device (the driver reports none)";
    return false;
  }
  // The device must run this build's code: sm_90 SASS, or compute_90 PTX JIT.
  cudaFuncAttributes attr;
  const cudaError_t fe = cudaFuncGetAttributes(&attr, throngIntegrateKernel);
  if (fe != cudaSuccess) {
    (void)cudaGetLastError();
    cudaDeviceProp prop;
    std::string dev = "device 0";
    if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess)
      dev += std::string(" (") + prop.name + ", compute capability " + std::to_string(prop.major) + "." +
             std::to_string(prop.minor) + ")";
    if (why)
      *why = dev + " cannot run this build's kernels (" + cudaGetErrorName(fe) +
             "); rebuild with CMAKE_CUDA_ARCHITECTURES set for it";
    return false;
  }
  if (why) why->clear();
  return true;
}

std::unique_ptr<Backend> makeCudaBackend(std::string* why) {
  if (!cudaAvailable(why)) return nullptr;
  auto b = std::make_unique<CudaBackend>();
  if (!b->ok()) {
    if (why) *why = "could not create the CUDA stream and buffers (CUDA errors above)";
    return nullptr;
  }
  return b;
}

}  // namespace throng

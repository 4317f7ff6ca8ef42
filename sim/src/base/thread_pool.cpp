#include "base/thread_pool.hpp"

#include <algorithm>
#include <chrono>
#include <limits>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define THRONG_PAUSE() _mm_pause()
#else
#define THRONG_PAUSE() std::this_thread::yield()
#endif

namespace throng {
namespace {
/// How long a thread spins for the next phase (or the last chunk) before it
/// blocks: longer than the serial work between a step's phases, short
/// enough not to matter to a core that has other work.
constexpr auto kSpin = std::chrono::microseconds(200);

/// Spins until done() or kSpin has passed; returns done().
template <class Done>
bool spinFor(Done done) {
  const auto until = std::chrono::steady_clock::now() + kSpin;
  for (int k = 0;; ++k) {
    if (done()) return true;
    THRONG_PAUSE();
    if ((k & 63) == 63 && std::chrono::steady_clock::now() > until) return done();
  }
}
}  // namespace

namespace {
thread_local const ThreadPool* tPool = nullptr;
thread_local int tSelf = 0;
}  // namespace

int ThreadPool::currentThread() const { return tPool == this ? tSelf : 0; }

int resolveThreads(int threads) {
  if (threads > 0) return std::min(threads, 256);
  const unsigned hw = std::thread::hardware_concurrency();
  return hw == 0 ? 1 : static_cast<int>(std::min(hw, 256u));
}

ThreadPool::ThreadPool(int threads) : shares_(static_cast<std::size_t>(std::max(threads, 1))) {
  for (int w = 1; w < threads; ++w) workers_.emplace_back([this, w] { run(w); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
    generation_.fetch_add(1);  // ends any spin
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
}

void ThreadPool::drainShare(int t, std::uint32_t generation, const Phase& phase) {
  Share& share = shares_[static_cast<std::size_t>(t)];
  const std::uint32_t end = shareEnd(phase.n, t);  // of this phase, from its own copy
  std::uint64_t cur = share.claim.load(std::memory_order_acquire);
  for (;;) {
    if (static_cast<std::uint32_t>(cur >> 32) != generation) return;  // a later phase: not ours
    const auto begin = static_cast<std::uint32_t>(cur);
    if (begin >= end) return;
    if (!share.claim.compare_exchange_weak(cur, cur + phase.grain, std::memory_order_acq_rel)) continue;
    (*phase.job)(begin, std::min(end, begin + phase.grain));
    if (completed_.fetch_add(1, std::memory_order_acq_rel) + 1 == phase.chunks) {
      std::lock_guard lock(mutex_);  // the caller may be about to wait
      done_.notify_one();
    }
    cur = share.claim.load(std::memory_order_acquire);
  }
}

void ThreadPool::drain(int self, std::uint32_t generation, const Phase& phase) {
  const int threads = size();
  for (int k = 0; k < threads; ++k) drainShare((self + k) % threads, generation, phase);
}

void ThreadPool::parallelFor(std::size_t n, const Job& fn, int chunksPerThread) {
  if (workers_.empty() || n < 64 || n > std::numeric_limits<std::uint32_t>::max() / 2) {
    if (n > 0) fn(0, n);
    return;
  }
  // For the solve about 8 chunks per thread, of at least 32 agents: fewer
  // to claim than 16, and still enough for a thread with jammed walkers to
  // hand some to the other.
  const std::size_t threads = static_cast<std::size_t>(size());
  const std::size_t perThread = static_cast<std::size_t>(std::max(chunksPerThread, 1));
  const std::size_t grain = std::max<std::size_t>(32, n / (perThread * threads));
  Phase phase;
  phase.job = &fn;
  phase.n = static_cast<std::uint32_t>(n);
  phase.grain = static_cast<std::uint32_t>(grain);
  std::uint32_t generation;
  bool wake;
  {
    std::lock_guard lock(mutex_);
    generation = generation_.load(std::memory_order_relaxed) + 1;
    phase.chunks = 0;
    for (int t = 0; t < static_cast<int>(threads); ++t) {
      const std::uint32_t begin = shareEnd(phase.n, t - 1), end = shareEnd(phase.n, t);  // shareEnd(n, -1) == 0
      shares_[static_cast<std::size_t>(t)].claim.store(std::uint64_t{generation} << 32 | begin,
                                                       std::memory_order_relaxed);
      phase.chunks += (end - begin + phase.grain - 1) / phase.grain;
    }
    phase_ = phase;
    completed_.store(0, std::memory_order_relaxed);
    generation_.store(generation, std::memory_order_release);
    wake = sleeping_ > 0;
  }
  if (wake) wake_.notify_all();
  drain(0, generation, phase);
  const auto allDone = [&] { return completed_.load(std::memory_order_acquire) == phase.chunks; };
  if (spinFor(allDone)) return;
  std::unique_lock lock(mutex_);
  done_.wait(lock, allDone);
}

void ThreadPool::run(int self) {
  tPool = this;
  tSelf = self;
  std::uint32_t seen = 0;
  for (;;) {
    spinFor([&] { return generation_.load(std::memory_order_acquire) != seen; });
    Phase phase;
    {
      std::unique_lock lock(mutex_);
      ++sleeping_;
      wake_.wait(lock, [&] { return stop_ || generation_.load(std::memory_order_relaxed) != seen; });
      --sleeping_;
      if (stop_) return;
      seen = generation_.load(std::memory_order_relaxed);
      phase = phase_;
    }
    drain(self, seen, phase);
  }
}

}  // namespace throng

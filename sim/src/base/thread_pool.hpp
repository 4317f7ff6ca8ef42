#pragma once
// A fixed pool for the per-agent phases. parallelFor hands out [0, n) in
// contiguous chunks, each taken by whichever thread is free (walkers in a
// jam cost more than free ones, so fixed halves leave a core idle); every
// agent's work is independent, so the split never changes a result, only
// the time.
//
// A step is several short phases back to back, so the hand-over is what a
// small crowd pays for: a worker asleep on a condition variable takes tens
// of microseconds to wake, longer than a small crowd's whole phase. So a
// worker that finishes spins a short while for the next phase before it
// sleeps, and the caller waits only for the chunks, not for workers that
// never woke in time to take one.
//
// Each thread first takes the chunks of its own share of [0, n) (the same
// share every step, so a walker's data stays in that core's cache: grid
// order changes little from step to step), then helps with the others'.
// Chunks are claimed from atomic words that hold the phase's generation
// with the next index, so a late worker can never take a chunk of a later
// phase with an earlier phase's function.
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace throng {

class ThreadPool {
 public:
  using Job = std::function<void(std::size_t, std::size_t)>;

  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }
  /// Which of the pool's threads calls it, in [0, size()): 0 for the
  /// caller of parallelFor (and any thread not of this pool).
  int currentThread() const;
  /// Calls fn(begin, end) over chunks of [0, n), on the caller and the
  /// workers; returns when every chunk is done. About `chunksPerThread`
  /// chunks a thread: 8 where agents cost unlike amounts (the solve, so a
  /// thread left with jammed walkers hands some on), 2 where each costs a
  /// few instructions and the claims would cost more than the work.
  void parallelFor(std::size_t n, const Job& fn, int chunksPerThread = 8);
  /// [shareEnd(n, t - 1), shareEnd(n, t)) is the part of [0, n) thread t
  /// takes first in every parallelFor (shareEnd(n, -1) == 0): a phase by
  /// agent index leaves those agents' data in t's cache.
  std::uint32_t shareEnd(std::uint32_t n, int t) const {
    return static_cast<std::uint32_t>(std::uint64_t{n} * static_cast<std::uint64_t>(t + 1) /
                                      static_cast<std::uint64_t>(size()));
  }

 private:
  /// What a phase is: read by a worker under the mutex.
  struct Phase {
    const Job* job = nullptr;
    std::uint32_t n = 0, grain = 1, chunks = 0;
  };
  /// One thread's share of a phase: generation << 32 | next index, claimed
  /// only for its own phase. Where a share ends follows from the phase
  /// (shareEnd), never from shared state a later phase may have rewritten.
  struct alignas(64) Share {
    std::atomic<std::uint64_t> claim{0};
  };
  void run(int self);
  /// Takes and runs chunks of phase `generation`, its own share first
  /// (thread `self`), until none is left.
  void drain(int self, std::uint32_t generation, const Phase& phase);
  /// Runs chunks from share t until it is empty or belongs to a later phase.
  void drainShare(int t, std::uint32_t generation, const Phase& phase);

  std::vector<std::thread> workers_;
  std::vector<Share> shares_;  // one per thread, 0 the caller's
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  Phase phase_;
  std::atomic<std::uint32_t> generation_{0}, completed_{0};
  int sleeping_ = 0;  // workers waiting on wake_ (under the mutex)
  bool stop_ = false;
};

/// The worker count for a `threads` setting: 0 means every core.
int resolveThreads(int threads);

/// Chunks a thread for the phases that cost a few instructions an agent
/// (the step's start and end, the wishes, takeOrder): with the solve's 8,
/// the claims cost about as much as the work. The solve takes as few while
/// its batches skip their programs (their walkers cost alike, so no thread
/// is left with costly ones to hand on); a dense crowd, whose batches are
/// not looked at, keeps 8, as its jammed walkers cost unlike amounts.
inline constexpr int kLightChunks = 2;

}  // namespace throng

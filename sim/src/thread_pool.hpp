#pragma once
// A fixed pool for the per-agent phases. parallelFor hands out [0, n) in
// contiguous chunks, each taken by whichever thread is free (walkers in a
// jam cost more than free ones, so fixed halves leave a core idle); every
// agent's work is independent, so the split never changes a result, only
// the time.
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace throng {

class ThreadPool {
 public:
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }
  /// Calls fn(begin, end) over chunks of [0, n), on the caller and the workers.
  void parallelFor(std::size_t n, const std::function<void(std::size_t, std::size_t)>& fn);

 private:
  void run();
  void drain(const std::function<void(std::size_t, std::size_t)>& fn, std::size_t n, std::size_t grain);

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(std::size_t, std::size_t)>* job_ = nullptr;
  std::size_t n_ = 0, grain_ = 1;
  std::atomic<std::size_t> next_{0};
  std::uint64_t generation_ = 0;
  int pending_ = 0;
  bool stop_ = false;
};

/// The worker count for a `threads` setting: 0 means every core.
int resolveThreads(int threads);

}  // namespace throng

#include "thread_pool.hpp"

#include <algorithm>

namespace throng {

int resolveThreads(int threads) {
  if (threads > 0) return std::min(threads, 256);
  const unsigned hw = std::thread::hardware_concurrency();
  return hw == 0 ? 1 : static_cast<int>(std::min(hw, 256u));
}

ThreadPool::ThreadPool(int threads) {
  for (int w = 1; w < threads; ++w) workers_.emplace_back([this] { run(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
}

void ThreadPool::drain(const std::function<void(std::size_t, std::size_t)>& fn, std::size_t n, std::size_t grain) {
  for (;;) {
    const std::size_t begin = next_.fetch_add(grain, std::memory_order_relaxed);
    if (begin >= n) return;
    fn(begin, std::min(n, begin + grain));
  }
}

void ThreadPool::parallelFor(std::size_t n, const std::function<void(std::size_t, std::size_t)>& fn) {
  if (workers_.empty() || n < 64) {
    if (n > 0) fn(0, n);
    return;
  }
  // About 16 chunks per thread, of at least 32 agents.
  const std::size_t grain = std::max<std::size_t>(32, n / (16 * static_cast<std::size_t>(size())));
  {
    std::lock_guard lock(mutex_);
    job_ = &fn;
    n_ = n;
    grain_ = grain;
    next_.store(0, std::memory_order_relaxed);
    pending_ = static_cast<int>(workers_.size());
    ++generation_;
  }
  wake_.notify_all();
  drain(fn, n, grain);
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return pending_ == 0; });
  job_ = nullptr;
}

void ThreadPool::run() {
  std::uint64_t seen = 0;
  for (;;) {
    const std::function<void(std::size_t, std::size_t)>* job;
    std::size_t n, grain;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      job = job_;
      n = n_;
      grain = grain_;
    }
    drain(*job, n, grain);
    {
      std::lock_guard lock(mutex_);
      if (--pending_ == 0) done_.notify_one();
    }
  }
}

}  // namespace throng

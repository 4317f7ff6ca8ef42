// ThreadPool (sim/src/thread_pool.*): every index once per phase, whatever
// the thread count, the size, or how late a worker wakes.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "base/thread_pool.hpp"

using namespace throng;

TEST_CASE("parallelFor visits every index exactly once, phase after phase") {
  for (int threads : {1, 2, 3, 4}) {
    ThreadPool pool(threads);
    CAPTURE(threads);
    for (std::size_t n : {0u, 1u, 63u, 64u, 65u, 100u, 1000u, 4097u, 100000u}) {
      CAPTURE(n);
      std::vector<std::atomic<int>> hits(n);
      // back to back, as a step's phases run: a worker still on the last
      // phase must not take a chunk of this one with the last one's
      // function, and whatever the chunks a thread (the solve's 8, the light
      // phases' 2, or 1)
      for (int phase = 0; phase < 5; ++phase) {
        pool.parallelFor(n, [&, phase](std::size_t b, std::size_t e) {
          REQUIRE(b < e);
          REQUIRE(e <= n);
          for (std::size_t i = b; i < e; ++i) hits[i].fetch_add(phase + 1, std::memory_order_relaxed);
        }, phase % 3 == 0 ? 8 : phase % 3 == 1 ? 2 : 1);
      }
      int wrong = 0;
      for (std::size_t i = 0; i < n; ++i) wrong += hits[i].load() != 15;  // 1 + 2 + 3 + 4 + 5
      CHECK(wrong == 0);
    }
  }
}

TEST_CASE("parallelFor returns only when every chunk is done, with the workers asleep or not") {
  ThreadPool pool(2);
  for (int round = 0; round < 3; ++round) {
    std::atomic<std::size_t> done{0};
    pool.parallelFor(256, [&](std::size_t b, std::size_t e) {
      std::this_thread::sleep_for(std::chrono::microseconds(200));  // slow chunks
      done += e - b;
    });
    CHECK(done.load() == 256);
    // long enough for the worker to stop spinning and sleep
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

TEST_CASE("with two threads both take part in a long phase") {
  // The caller's chunks hold the phase open until another thread has run
  // one (for at most 10 s), so a worker slow to start on a loaded machine
  // still gets its turn: with chunks that only slept, the caller once ran
  // all sixteen before the new worker was scheduled (ctest -j2). A pool
  // whose workers never take part still fails, after the wait.
  ThreadPool pool(2);
  std::atomic<int> other{0};
  const auto caller = std::this_thread::get_id();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  pool.parallelFor(64 * 64, [&](std::size_t, std::size_t) {
    if (std::this_thread::get_id() != caller) {
      ++other;
      return;
    }
    while (other.load() == 0 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::microseconds(100));
  });
  CHECK(other.load() > 0);
}

TEST_CASE("a worker late from one phase never runs the next one's chunks with the old function") {
  // Back-to-back phases of different sizes, each with a function that dies
  // with it: a stale claim would run indices twice or past n, or run a
  // dead function (its tag would not match).
  ThreadPool pool(2);
  long bad = 0, wrongSum = 0;
  for (int phase = 0; phase < 20000; ++phase) {
    const std::size_t n = phase % 2 ? 2000 : 64;
    auto tag = std::make_unique<int>(phase);
    std::atomic<long> sum{0}, badHere{0};
    pool.parallelFor(n, [&, p = tag.get()](std::size_t b, std::size_t e) {
      if (*p != phase || e > n) ++badHere;
      sum += static_cast<long>(e - b);
    });
    bad += badHere.load();
    wrongSum += sum.load() != static_cast<long>(n);
  }
  CHECK(bad == 0);
  CHECK(wrongSum == 0);
}

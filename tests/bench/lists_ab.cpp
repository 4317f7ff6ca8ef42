// The candidate lists' relative-motion bound against the global bound
// alone (OrcaModel::relativeLists), timed in one process: two crowds of the
// same scenario step in turns, a block each, so both see the same machine
// from second to second (separate processes on a shared machine differ by
// tens of percent from minute to minute). Both must end in the same state.
//   build/release/tests/bench/throng_lists_ab circle 1000 1
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "core/world.hpp"
#include "models/orca/fast/orca_model.hpp"
#include "pipeline/step.hpp"
#include "scenarios.hpp"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: throng_lists_ab circle|dense N THREADS\n");
    return 2;
  }
  const bool circle = std::strcmp(argv[1], "circle") == 0;
  const int n = std::atoi(argv[2]), threads = std::atoi(argv[3]);
  if ((!circle && std::strcmp(argv[1], "dense") != 0) || n <= 0 || threads <= 0) {
    std::fprintf(stderr, "throng_lists_ab: a scenario (circle or dense), N and THREADS, both positive\n");
    return 2;
  }
  const auto make = [&] { return circle ? throng::bench::circle(n, threads) : throng::bench::dense(n, threads); };
  // About 5 ms a block, 10 blocks a round, 8 rounds from a fresh start.
  const int steps = std::max(1, 50000 / n);
  std::vector<double> global, relative;
  for (int round = 0; round < 8; ++round) {
    throng::Crowd off = make(), on = make();
    static_cast<throng::OrcaModel&>(*throng::modelFor(off.world(), "orca")).relativeLists = false;
    off.advance(throng::bench::kStep);
    on.advance(throng::bench::kStep);
    for (int block = 0; block < 10; ++block) {
      const auto t0 = std::chrono::steady_clock::now();
      for (int s = 0; s < steps; ++s) off.advance(throng::bench::kStep);
      const auto t1 = std::chrono::steady_clock::now();
      for (int s = 0; s < steps; ++s) on.advance(throng::bench::kStep);
      const auto t2 = std::chrono::steady_clock::now();
      global.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count() / steps);
      relative.push_back(std::chrono::duration<double, std::milli>(t2 - t1).count() / steps);
    }
    if (off.stateHash() != on.stateHash()) {
      std::fprintf(stderr, "throng_lists_ab: the two crowds differ after round %d\n", round);
      return 1;
    }
  }
  int wins = 0;
  for (std::size_t b = 0; b < global.size(); ++b) wins += relative[b] < global[b];
  std::sort(global.begin(), global.end());
  std::sort(relative.begin(), relative.end());
  const double g = global[global.size() / 2], r = relative[relative.size() / 2];
  std::printf("%s n=%d threads=%d: global bound %.4f ms/step, relative %.4f (%+.1f%%), "
              "relative faster in %d of %zu blocks\n",
              argv[1], n, threads, g, r, 100 * (r - g) / g, wins, global.size());
  return 0;
}

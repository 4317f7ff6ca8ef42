// Runs a benchmark scenario for a number of steps, for instruction counts:
//   valgrind --tool=callgrind --toggle-collect='throng::World::stepCpu*'
//       build/release/tests/bench/throng_count dense 10000 20
// then instructions per agent-step = the collected Ir / (n * steps).
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "scenarios.hpp"

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: throng_count circle|dense N STEPS [THREADS]\n");
    return 2;
  }
  const int n = std::atoi(argv[2]), steps = std::atoi(argv[3]);
  const int threads = argc > 4 ? std::atoi(argv[4]) : 1;
  if (n <= 0 || steps <= 0) {
    std::fprintf(stderr, "throng_count: N and STEPS must be positive\n");
    return 2;
  }
  throng::Crowd c = std::strcmp(argv[1], "circle") == 0 ? throng::bench::circle(n, threads)
                                                         : throng::bench::dense(n, threads);
  for (int s = 0; s < steps; ++s) c.advance(throng::bench::kStep);
  std::printf("%s n=%d steps=%d jammed(last)=%zu hash=%016llx\n", argv[1], n, steps, c.lastStats().jammed,
              static_cast<unsigned long long>(c.stateHash()));
  return 0;
}

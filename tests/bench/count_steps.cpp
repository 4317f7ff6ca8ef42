// Runs a benchmark scenario for a number of steps, for instruction counts:
//   valgrind --tool=callgrind --toggle-collect='throng::stepCpu*'
//       build/release/tests/bench/throng_count dense 10000 20
// then instructions per agent-step = the collected Ir / (n * steps).
//
// With a fifth argument it also writes the trajectory there, for the RVO2
// comparison (tests/quality): per frame, from the start, n (x, y) float32
// pairs then n jammed bytes, little-endian, no header.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "scenarios.hpp"

namespace {
bool writeFrame(std::FILE* f, const throng::Crowd& c) {
  const throng::FrameView v = c.frame();
  std::vector<float> xy(2 * v.px.size());
  std::vector<unsigned char> jam(v.px.size());
  for (std::size_t i = 0; i < v.px.size(); ++i) {
    xy[2 * i] = v.px[i];
    xy[2 * i + 1] = v.py[i];
    jam[i] = v.jammed[i] ? 1 : 0;
  }
  return std::fwrite(xy.data(), sizeof(float), xy.size(), f) == xy.size() &&
         std::fwrite(jam.data(), 1, jam.size(), f) == jam.size();
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: throng_count circle|dense N STEPS [THREADS [TRACE_FILE]]\n");
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
  std::FILE* trace = nullptr;
  if (argc > 5 && !(trace = std::fopen(argv[5], "wb"))) {
    std::fprintf(stderr, "throng_count: cannot write %s\n", argv[5]);
    return 1;
  }
  bool ok = !trace || writeFrame(trace, c);
  for (int s = 0; s < steps; ++s) {
    c.advance(throng::bench::kStep);
    if (trace) ok = ok && writeFrame(trace, c);
  }
  if (trace && (std::fclose(trace) != 0 || !ok)) {
    std::fprintf(stderr, "throng_count: writing %s failed\n", argv[5]);
    std::remove(argv[5]);
    return 1;
  }
  std::printf("%s n=%d steps=%d jammed(last)=%zu hash=%016llx\n", argv[1], n, steps, c.lastStats().jammed,
              static_cast<unsigned long long>(c.stateHash()));
  return 0;
}

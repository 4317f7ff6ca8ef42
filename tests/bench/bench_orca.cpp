// ORCA throughput: ms per step and agent-steps per second, on RVO2's
// Circle scaled up and a dense crowd, at 1 and 2 threads. Each repetition
// builds the scene afresh and times the first steps from the start.
//   build/release/tests/bench/throng_bench --benchmark_filter=dense
#include <benchmark/benchmark.h>

#include <algorithm>
#include <vector>

#include "scenarios.hpp"

using namespace throng;

namespace {
void run(benchmark::State& state, Crowd (*make)(int, int)) {
  const int n = static_cast<int>(state.range(0));
  const int threads = static_cast<int>(state.range(1));
  Crowd c = make(n, threads);
  c.advance(bench::kStep);  // warm: allocates the step's scratch
  for (auto _ : state) c.advance(bench::kStep);
  state.counters["agents"] = n;
  state.counters["agent_steps_per_s"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * n, benchmark::Counter::kIsRate);
}

void circle(benchmark::State& state) { run(state, bench::circle); }
void dense(benchmark::State& state) { run(state, bench::dense); }
}  // namespace

BENCHMARK(circle)->ArgsProduct({{1000, 10000, 100000}, {1, 2}})->ArgNames({"n", "threads"})
    ->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0)->Repetitions(3)->ReportAggregatesOnly()
    ->ComputeStatistics("median", [](const std::vector<double>& v) {
      std::vector<double> s(v);
      std::sort(s.begin(), s.end());
      return s[s.size() / 2];
    });
BENCHMARK(dense)->ArgsProduct({{10000, 100000}, {1, 2}})->ArgNames({"n", "threads"})
    ->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0)->Repetitions(3)->ReportAggregatesOnly();

BENCHMARK_MAIN();

// Throughput: ms per step and agent-steps per second, at 1 and 2 threads:
// ORCA on RVO2's Circle scaled up and a dense crowd, and BioCrowds at 1
// walker per m² with its default markers (bioField). Each repetition
// builds the scene afresh and times a fixed number of steps from the start
// (about a second's work on one core), so every thread count times the
// same states: a crowd's cost changes as it jams. `pedestrian` against
// `pedestrian_plain` is the cost of the pace and the kinematic envelope;
// `measured` the measure phase's share of a step with a dozen measurements.
//   build/release/tests/bench/throng_bench --benchmark_filter=dense
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "scenarios.hpp"

using namespace throng;

namespace {
void run(benchmark::State& state, Crowd (*make)(int, int), double step = bench::kStep, double walkIn = 0) {
  const int n = static_cast<int>(state.range(0));
  const int threads = static_cast<int>(state.range(1));
  Crowd c = make(n, threads);
  c.advance(step);  // warm: allocates the step's scratch (and lays BioCrowds' markers)
  if (walkIn > 0) c.advance(walkIn);  // timed once the crowd is under way
  for (auto _ : state) c.advance(step);
  state.counters["agents"] = n;
  state.counters["agent_steps_per_s"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * n, benchmark::Counter::kIsRate);
}

void circle(benchmark::State& state) {
  run(state, [](int n, int threads) { return bench::circle(n, threads); });
}
void dense(benchmark::State& state) { run(state, bench::dense); }
void biocrowds(benchmark::State& state) { run(state, bench::bioField, bench::kBioStep); }
// From 2 s in, once the crowd is walking (the envelope's first 0.67 s, in
// which every walker speeds up, cost about twice a plain step).
void people(benchmark::State& state) {
  run(state, [](int n, int threads) { return bench::pedestrians(n, threads, true); }, bench::kBioStep, 2.0);
}
void peopleOff(benchmark::State& state) {
  run(state, [](int n, int threads) { return bench::pedestrians(n, threads, false); }, bench::kBioStep, 2.0);
}

// ORCA's pedestrians (without the pace and envelope) measured as a study
// of a building would be: six lines 4 m long across their way and six
// areas of 4 m x 4 m, spread over the square. The measure phase's share of
// the step, from the crowd's own profile, beside the time per step.
void measured(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  Crowd c = bench::pedestrians(n, static_cast<int>(state.range(1)), false);
  const float side = std::ceil(std::sqrt(static_cast<float>(n)));
  for (int k = 0; k < 6; ++k) {
    const float x = side * static_cast<float>(k + 1) / 7, y = side * static_cast<float>(6 - k) / 7;
    c.addMeasurement({"line", MeasureKind::Line, {{x, y - 2}, {x, y + 2}}});
    c.addMeasurement({"area", MeasureKind::Area, {{y - 2, x - 2}, {y + 2, x - 2}, {y + 2, x + 2}, {y - 2, x + 2}}});
  }
  c.advance(bench::kBioStep);
  c.advance(2.0);
  double measure = 0, total = 0;
  for (auto _ : state) {
    c.advance(bench::kBioStep);
    const StepProfile p = c.profile();
    measure += p.of(StepPhase::Measure);
    total += p.totalMs;
  }
  state.counters["agents"] = n;
  state.counters["measure_share"] = total > 0 ? measure / total : 0;
}

double median(const std::vector<double>& v) {
  std::vector<double> s(v);
  std::sort(s.begin(), s.end());
  return s[s.size() / 2];
}

// n, steps timed
constexpr int kCircle[][2] = {{1000, 1000}, {10000, 300}, {100000, 25}};
constexpr int kDense[][2] = {{10000, 100}, {100000, 10}};
constexpr int kBio[][2] = {{10000, 100}, {100000, 20}};

int registerAll() {
  auto add = [](const char* name, void (*fn)(benchmark::State&), int n, int steps) {
    benchmark::RegisterBenchmark(name, fn)
        ->ArgsProduct({{n}, {1, 2}})
        ->ArgNames({"n", "threads"})
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(steps)
        ->Repetitions(3)
        ->ReportAggregatesOnly()
        ->ComputeStatistics("median", median);
  };
  for (const auto& c : kCircle) add("circle", circle, c[0], c[1]);
  for (const auto& d : kDense) add("dense", dense, d[0], d[1]);
  for (const auto& b : kBio) add("biocrowds", biocrowds, b[0], b[1]);
  // ORCA at 1 per m² with Settings::pedestrian(): with the pace and the
  // envelope, and without them.
  for (const auto& b : kBio) add("pedestrian", people, b[0], b[1]);
  for (const auto& b : kBio) add("pedestrian_plain", peopleOff, b[0], b[1]);
  for (const auto& b : kBio) add("measured", measured, b[0], b[1]);
  return 0;
}
const int registered = registerAll();
}  // namespace

BENCHMARK_MAIN();

// The fields and Continuum Crowds: a refresh (density, speed, cost and one
// potential) on grids of 128² to 1024², and the whole continuum step with
// 10k and 100k walkers (its fields refreshed every fieldInterval steps, so
// a step's time includes a share of a refresh), at 1 and 2 threads.
//   build/release/tests/bench/throng_bench --benchmark_filter='field|continuum'
#include <benchmark/benchmark.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "base/thread_pool.hpp"
#include "fields/fields.hpp"
#include "scenarios.hpp"

using namespace throng;

namespace {

double median(const std::vector<double>& v) {
  std::vector<double> s(v);
  std::sort(s.begin(), s.end());
  return s[s.size() / 2];
}

/// A refresh over an n x n grid of 1 m cells: a room with a wall across
/// most of it and a door, walkers at 1 per 8 cells, the target along one
/// edge.
void fieldRefresh(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const int threads = static_cast<int>(state.range(1));
  const float extent = static_cast<float>(n);
  ObstacleSet obstacles;
  const Vec2 wall[] = {{extent * 0.5f, 0}, {extent * 0.5f, extent * 0.8f}};
  obstacles.walls.push_back({wall[0], wall[1]});
  obstacles.addLoop(std::span<const Vec2>(wall, 2));
  const Vec2 box[] = {{extent * 0.2f, extent * 0.2f}, {extent * 0.3f, extent * 0.2f}, {extent * 0.3f, extent * 0.4f},
                      {extent * 0.2f, extent * 0.4f}};
  obstacles.outlines.push_back({box[0], box[1], box[2], box[3]});
  obstacles.addLoop(std::span<const Vec2>(box, 4));
  obstacles.fitToReach(2.0f);
  Terrain terrain;
  terrain.targets.push_back({"edge", {Rect{extent - 2, 0, 2, extent}}, {}, -1});
  terrain.hills.push_back({Vec2{extent * 0.7f, extent * 0.5f}, extent * 0.1f, extent * 0.02f});
  std::vector<float> px, py, vx, vy, radius, maxSpeed, pref;
  std::vector<std::int32_t> group, route;
  std::uint64_t h = 99;
  const std::size_t walkers = static_cast<std::size_t>(n) * n / 8;
  for (std::size_t i = 0; i < walkers; ++i) {
    h = mix64(h);
    px.push_back(0.5f * (unitFromBits(h) + 1.0f) * extent * 0.45f);
    py.push_back(0.5f * (unitFromBits(mix64(h)) + 1.0f) * extent);
    vx.push_back(1.0f);
    vy.push_back(0.0f);
    radius.push_back(0.25f);
    maxSpeed.push_back(1.3f);
    pref.push_back(0.0f);
    group.push_back(0);
    route.push_back(-1);
  }
  FieldWalkers w{px.data(), py.data(), vx.data(), vy.data(), radius.data(), maxSpeed.data(), pref.data(),
                 group.data(), route.data(), walkers};
  FieldGridView g;
  g.cols = g.rows = n;
  g.cell = 1.0f;
  g.invCell = 1.0f;
  std::unique_ptr<ThreadPool> pool = threads > 1 ? std::make_unique<ThreadPool>(threads) : nullptr;
  FieldState f;
  fitFieldStatics(f, g, obstacles, 1, terrain, pool.get());
  Settings s;
  f.params = fieldParams(s, fieldTopSpeed(w));
  std::vector<float> phi(f.cells());
  int rounds = 0;
  for (auto _ : state) {
    splatDensity(f, s, w, pool.get());
    buildSpeedAndCost(f, s, pool.get());
    rounds = solvePotential(g, f.cost.data(), f.blocked.data(), f.goalCells.data(), f.goalCells.size(), phi.data(),
                            pool.get());
    benchmark::DoNotOptimize(phi.data());
  }
  state.counters["cells"] = static_cast<double>(f.cells());
  state.counters["rounds"] = rounds;
}

void continuumStep(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const int threads = static_cast<int>(state.range(1));
  const int cells = static_cast<int>(state.range(2));
  Crowd c = bench::continuumField(n, threads, cells);
  c.advance(bench::kBioStep);  // warm: the grid's fixed parts
  for (auto _ : state) c.advance(bench::kBioStep);
  const FieldView v = c.fields(0);
  state.counters["grid_cols"] = v.cols;
  state.counters["grid_rows"] = v.rows;
  state.counters["agent_steps_per_s"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * n, benchmark::Counter::kIsRate);
}

int registerAll() {
  for (int n : {128, 256, 512, 1024})
    benchmark::RegisterBenchmark("field_refresh", fieldRefresh)
        ->ArgsProduct({{n}, {1, 2}})
        ->ArgNames({"cells_across", "threads"})
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(n >= 1024 ? 2 : n >= 512 ? 4 : 10)
        ->Repetitions(3)
        ->ReportAggregatesOnly()
        ->ComputeStatistics("median", median);
  // n, grid cells across, steps timed (a multiple of fieldInterval, 4)
  constexpr int kSteps[][3] = {{10000, 256, 40}, {100000, 512, 8}};
  for (const auto& k : kSteps)
    benchmark::RegisterBenchmark("continuum", continuumStep)
        ->ArgsProduct({{k[0]}, {1, 2}, {k[1]}})
        ->ArgNames({"n", "threads", "cells_across"})
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(k[2])
        ->Repetitions(3)
        ->ReportAggregatesOnly()
        ->ComputeStatistics("median", median);
  return 0;
}
const int registered = registerAll();
}  // namespace

// The fields (sim/src/fields/): the eikonal solve's accuracy against exact
// distances, its exactness (a fixed point, the same bits on any thread
// count), fast marching against it, the density splat, speed and cost; the
// terrain's discomfort (regions and the painted map) and a refresh's cost
// under it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "base/thread_pool.hpp"
#include "fields/fields.hpp"
#include "throng/crowd.hpp"

using namespace throng;

namespace {

FieldGridView gridOf(int cols, int rows, float cell, Vec2 origin = {0, 0}) {
  FieldGridView g;
  g.origin = origin;
  g.cell = cell;
  g.invCell = 1.0f / cell;
  g.cols = cols;
  g.rows = rows;
  return g;
}

/// Unit costs of 1 everywhere but through the grid's edges, blocked faces
/// closed.
std::vector<float> uniformCost(const FieldGridView& g, const std::vector<std::uint8_t>& blocked, float c = 1) {
  std::vector<float> cost(4 * static_cast<std::size_t>(g.cols) * g.rows, c);
  for (int y = 0; y < g.rows; ++y)
    for (int x = 0; x < g.cols; ++x)
      for (int d = 0; d < 4; ++d) {
        const int n = neighbourCell(g, x, y, d);
        if (n < 0 || blocked[static_cast<std::size_t>(y * g.cols + x)] || blocked[static_cast<std::size_t>(n)])
          cost[4 * static_cast<std::size_t>(y * g.cols + x) + d] = fieldInfinity();
      }
  return cost;
}

struct Solved {
  std::vector<float> phi;
  int rounds = 0;
};

Solved solve(const FieldGridView& g, const std::vector<float>& cost, const std::vector<std::uint8_t>& blocked,
             const std::vector<std::int32_t>& goals, ThreadPool* pool = nullptr) {
  Solved s;
  s.phi.resize(static_cast<std::size_t>(g.cols) * g.rows);
  s.rounds = solvePotential(g, cost.data(), blocked.data(), goals.data(), goals.size(), s.phi.data(), pool);
  return s;
}

/// The largest |φ - exact| over the cells whose exact value is finite, in
/// units of the domain (exact gives the distance of a cell centre).
template <class Exact>
double maxError(const FieldGridView& g, const std::vector<float>& phi, Exact exact) {
  double worst = 0;
  for (int y = 0; y < g.rows; ++y)
    for (int x = 0; x < g.cols; ++x) {
      const double e = exact(g.origin.x + (x + 0.5) * g.cell, g.origin.y + (y + 0.5) * g.cell);
      if (!std::isfinite(e)) continue;
      worst = std::max(worst, std::fabs(phi[static_cast<std::size_t>(y * g.cols + x)] - e));
    }
  return worst;
}

/// No cell can be lowered by its update: the solve stopped at a fixed point.
bool isFixedPoint(const FieldGridView& g, const std::vector<float>& cost, const std::vector<std::uint8_t>& blocked,
                  const std::vector<std::int32_t>& goals, const std::vector<float>& phi) {
  std::vector<std::uint8_t> goal(phi.size(), 0);
  for (std::int32_t c : goals) goal[static_cast<std::size_t>(c)] = 1;
  for (int y = 0; y < g.rows; ++y)
    for (int x = 0; x < g.cols; ++x) {
      const std::size_t c = static_cast<std::size_t>(y * g.cols + x);
      if (goal[c] || blocked[c]) continue;
      float nb[4], hc[4];
      for (int d = 0; d < 4; ++d) {
        const int n = neighbourCell(g, x, y, d);
        nb[d] = n < 0 ? fieldInfinity() : phi[static_cast<std::size_t>(n)];
        hc[d] = g.cell * cost[4 * c + d];
      }
      if (eikonalUpdate(nb, hc) < phi[c]) return false;
    }
  return true;
}

}  // namespace

TEST_CASE("eikonal: a uniform cost from a point gives the distance, to first order in the cell") {
  // A 16 x 16 square, the source at its centre; the cell halves three times.
  double previous = 0;
  for (int n : {32, 64, 128, 256}) {
    const float h = 16.0f / static_cast<float>(n);
    const FieldGridView g = gridOf(n, n, h);
    std::vector<std::uint8_t> blocked(static_cast<std::size_t>(n) * n, 0);
    const std::vector<float> cost = uniformCost(g, blocked);
    // The source: the four cells around the centre, at their exact distance
    // would need a non-zero goal value; one goal cell, distances from its centre.
    const int c = n / 2;
    const Solved s = solve(g, cost, blocked, {c * n + c});
    const double cx = (c + 0.5) * h, cy = cx;
    const double err = maxError(g, s.phi, [&](double x, double y) { return std::hypot(x - cx, y - cy); });
    MESSAGE("n = " << n << ", h = " << h << ": max |φ - distance| = " << err << " (" << err / h << " cells), "
                   << s.rounds << " rounds");
    CHECK(err < 16.0 * 0.06);  // the first-order scheme's error along the diagonals
    if (previous > 0) {
      const double ratio = err / previous;
      MESSAGE("  error ratio when the cell halves: " << ratio);
      CHECK(ratio < 0.75);  // falls with h (first order, with the point source's log h)
    }
    previous = err;
  }
}

TEST_CASE("eikonal: round a wall's end the potential follows the shortest path round the corner") {
  // A 20 x 20 square; a wall of blocked cells from the bottom edge up to
  // y = 12 at x = 10; the goal at (4, 4): cells right of the wall reach it
  // over the wall's top corner (10, 12).
  const int n = 160;
  const float h = 20.0f / n;
  const FieldGridView g = gridOf(n, n, h);
  std::vector<std::uint8_t> blocked(static_cast<std::size_t>(n) * n, 0);
  const int wx = static_cast<int>(10.0f / h), top = static_cast<int>(12.0f / h);
  for (int y = 0; y < top; ++y) blocked[static_cast<std::size_t>(y * n + wx)] = 1;
  const std::vector<float> cost = uniformCost(g, blocked);
  const int gx = static_cast<int>(4.0f / h), gy = gx;
  const Solved s = solve(g, cost, blocked, {gy * n + gx});
  const double sx = (gx + 0.5) * h, sy = (gy + 0.5) * h;
  const double cornerX = (wx + 0.5) * h, cornerY = top * h + 0.5 * h;  // the first free cell centre above the wall
  const auto exact = [&](double x, double y) {
    if (x < cornerX - h || y > cornerY) return std::hypot(x - sx, y - sy);  // in sight of the goal (near enough)
    if (x <= cornerX + h) return std::numeric_limits<double>::infinity();     // the wall's own column: skip
    return std::hypot(cornerX - sx, cornerY - sy) + std::hypot(x - cornerX, y - cornerY);
  };
  double worstBehind = 0;
  for (int y = 0; y < top - 4; ++y)
    for (int x = wx + 4; x < n; ++x) {
      const double e = exact((x + 0.5) * h, (y + 0.5) * h);
      worstBehind = std::max(worstBehind, std::fabs(s.phi[static_cast<std::size_t>(y * n + x)] - e) / e);
    }
  MESSAGE("behind the wall: worst relative error against the geodesic " << worstBehind);
  CHECK(worstBehind < 0.05);
  // And the straight line through the wall would be much shorter: the
  // potential is not that.
  const int bx = wx + 10, by = gy;
  CHECK(s.phi[static_cast<std::size_t>(by * n + bx)] > 1.5 * std::hypot((bx + 0.5) * h - sx, (by + 0.5) * h - sy));
}

TEST_CASE("eikonal: a 1-D corridor of varying speed sums h / f exactly") {
  const int n = 200;
  const float h = 0.25f;
  const FieldGridView g = gridOf(n, 1, h);
  std::vector<std::uint8_t> blocked(n, 0);
  std::vector<float> cost(4 * n, fieldInfinity());
  std::vector<float> speed(n);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(0.2f, 2.0f);
  for (int x = 0; x < n; ++x) speed[static_cast<std::size_t>(x)] = u(rng);
  // Unit cost 1 / f of the cell entered (α = 0, β = 1).
  FieldParams fp;
  fp.alpha = 0;
  fp.beta = 1;
  fp.gamma = 0;
  for (int x = 0; x < n; ++x) {
    if (x + 1 < n) cost[4 * static_cast<std::size_t>(x) + kEast] = unitCost(fp, speed[static_cast<std::size_t>(x + 1)], 0);
    if (x > 0) cost[4 * static_cast<std::size_t>(x) + kWest] = unitCost(fp, speed[static_cast<std::size_t>(x - 1)], 0);
  }
  const Solved s = solve(g, cost, blocked, {0});
  // Walking west from cell x enters x - 1: φ_x = φ_{x-1} + h / f_{x-1}.
  float sum = 0;
  for (int x = 1; x < n; ++x) {
    sum += h * (1.0f / speed[static_cast<std::size_t>(x - 1)]);
    REQUIRE(s.phi[static_cast<std::size_t>(x)] == sum);
  }
}

TEST_CASE("eikonal: the tiled solve is a fixed point, the same on 1 and 2 threads, fast marching agrees to rounding") {
  std::mt19937 rng(11);
  ThreadPool two(2);
  std::size_t cellsCompared = 0, cellsEqual = 0;
  double worstUlpsRel = 0;
  for (int trial = 0; trial < 6; ++trial) {
    const int cols = 40 + 17 * trial, rows = 33 + 9 * trial;
    const FieldGridView g = gridOf(cols, rows, 0.5f);
    const std::size_t n = static_cast<std::size_t>(cols) * rows;
    std::vector<std::uint8_t> blocked(n, 0);
    std::uniform_int_distribution<int> cellPick(0, static_cast<int>(n) - 1);
    for (int k = 0; k < static_cast<int>(n / 8); ++k) blocked[static_cast<std::size_t>(cellPick(rng))] = 1;
    // Random obstacles: a few blocked rectangles.
    for (int k = 0; k < 4; ++k) {
      const int x0 = cellPick(rng) % cols, y0 = cellPick(rng) % rows;
      for (int y = y0; y < std::min(rows, y0 + 6); ++y)
        for (int x = x0; x < std::min(cols, x0 + 3); ++x) blocked[static_cast<std::size_t>(y * cols + x)] = 1;
    }
    std::vector<float> cost = uniformCost(g, blocked);
    std::uniform_real_distribution<float> c(0.3f, 5.0f);
    for (std::size_t k = 0; k < cost.size(); ++k)
      if (cost[k] < fieldInfinity()) cost[k] = c(rng);
    std::vector<std::int32_t> goals;
    for (int k = 0; k < 1 + trial % 3; ++k) {
      const int cell = cellPick(rng);
      if (!blocked[static_cast<std::size_t>(cell)]) goals.push_back(cell);
    }
    if (goals.empty()) continue;
    std::sort(goals.begin(), goals.end());
    const Solved one = solve(g, cost, blocked, goals);
    const Solved again = solve(g, cost, blocked, goals, &two);
    REQUIRE(std::memcmp(one.phi.data(), again.phi.data(), n * sizeof(float)) == 0);
    CHECK(isFixedPoint(g, cost, blocked, goals, one.phi));
    std::vector<float> fmm(n);
    fastMarching(g, cost.data(), blocked.data(), goals.data(), goals.size(), fmm.data());
    for (std::size_t k = 0; k < n; ++k) {
      if (!(one.phi[k] < fieldInfinity())) {
        CHECK(!(fmm[k] < fieldInfinity()));  // the same cells unreachable
        continue;
      }
      ++cellsCompared;
      cellsEqual += fmm[k] == one.phi[k];
      worstUlpsRel = std::max(worstUlpsRel, std::fabs(static_cast<double>(fmm[k]) - one.phi[k]) / std::max(1e-6f, one.phi[k]));
    }
  }
  MESSAGE("fast marching against the tiled solve: " << cellsEqual << " of " << cellsCompared
                                                    << " cells equal bit for bit; worst relative difference "
                                                    << worstUlpsRel);
  // Not the same bits (the two orders round differently in a few cells in
  // a hundred), so the CPU solves by the tiled method too and fast
  // marching is the reference: within a few float roundings of it.
  CHECK(worstUlpsRel < 1e-5);
}

TEST_CASE("density: each walker adds at least (1/2)^λ to its own cell and its four weights as the paper's") {
  const FieldGridView g = gridOf(10, 10, 1.0f);
  const std::int32_t q = latticeExponent(1.5f);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(1.0f, 9.0f);
  for (int k = 0; k < 200; ++k) {
    const Vec2 p{u(rng), u(rng)};
    const Splat s = splatAt(g, p, q);
    const std::int32_t own = fieldCellAt(g, p);
    float ownWeight = -1;
    for (int j = 0; j < 4; ++j)
      if (s.cell[j] == own) ownWeight = s.weight[j];
    CHECK(ownWeight >= std::pow(0.5f, 1.5f) * (1 - 1e-5f));
  }
  // powLattice against pow, to the float's rounding, for λ on the lattice.
  for (float lambda : {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 2.75f}) {
    for (float x : {0.0f, 0.1f, 0.5f, 0.9f, 1.0f})
      CHECK(powLattice(x, latticeExponent(lambda)) == doctest::Approx(std::pow(x, lambda)).epsilon(1e-5));
  }
}

TEST_CASE("speed: the ground, the crowd's flow and their blend, the cost is (αf + β + γg) / f") {
  FieldParams fp;
  fp.fmax = 1.5f;
  fp.densityMin = 0.5f;
  fp.densityMax = 1.5f;
  const Vec2 east{1, 0};
  // Sparse: the ground's speed.
  CHECK(blendedSpeed(fp, 1.2f, 0.2f, Vec2{-1, 0}, east) == 1.2f);
  // Dense: the flow's, never below zero (a crowd walking at us slows us to
  // the floor, never backwards) and never above f_max.
  CHECK(blendedSpeed(fp, 1.2f, 2.0f, Vec2{0.8f, 0}, east) == doctest::Approx(0.8f));
  CHECK(blendedSpeed(fp, 1.2f, 2.0f, Vec2{-1, 0}, east) == doctest::Approx(kSlowestFlow * 1.5f));
  CHECK(blendedSpeed(fp, 1.2f, 2.0f, Vec2{4, 0}, east) == doctest::Approx(1.5f));
  // Halfway: halfway between.
  CHECK(blendedSpeed(fp, 1.2f, 1.0f, Vec2{0.4f, 0}, east) == doctest::Approx(0.8f));
  fp.alpha = 1;
  fp.beta = 2;
  fp.gamma = 3;
  CHECK(unitCost(fp, 0.5f, 1.0f) == doctest::Approx((0.5 + 2 + 3) / 0.5));
  // The slope: full speed up to slopeMin, slopeSpeed from slopeMax.
  const SlopeParams sl{0.1f, 0.5f, 0.2f};
  CHECK(slopeFraction(sl, -1.0f) == 1.0f);
  CHECK(slopeFraction(sl, 0.1f) == 1.0f);
  CHECK(slopeFraction(sl, 0.3f) == doctest::Approx(0.6f));
  CHECK(slopeFraction(sl, 0.9f) == 0.2f);
}

TEST_CASE("fields: discomfortAt reads the painted map bilinearly, 0 off it, and adds the regions' sum") {
  Terrain t;
  // Nodes 2 apart from (-1, 0): 3 columns, 2 rows.
  t.discomfortMap = DiscomfortMap{{-1, 0}, 2, 3, 2, {0, 1, 2, 10, 20, 30}};
  CHECK(t.discomfortAt({-1, 0}) == 0);
  CHECK(t.discomfortAt({3, 0}) == 2);
  CHECK(t.discomfortAt({-1, 2}) == 10);
  CHECK(t.discomfortAt({3, 2}) == 30);                         // the far corner is on the map
  CHECK(t.discomfortAt({0, 0}) == doctest::Approx(0.5));       // along row 0
  CHECK(t.discomfortAt({-1, 1}) == doctest::Approx(5));        // along column 0
  // Inside a cell: at (u, v) = (1.5, 0.75) in nodes, row 0 gives 1.5 and
  // row 1 gives 25, and 1.5 + 0.75 (25 - 1.5) between them.
  CHECK(t.discomfortAt({2, 1.5f}) == doctest::Approx(1.5 + 0.75 * (25 - 1.5)));
  for (const Vec2 off : {Vec2{-1.01f, 1}, Vec2{3.01f, 1}, Vec2{0, -0.01f}, Vec2{0, 2.01f}, Vec2{100, 100}}) {
    INFO(off.x, ", ", off.y);
    CHECK(t.discomfortAt(off) == 0);
  }
  // Regions add to it, and to each other.
  t.discomfort.push_back({{{0, 0}, {1, 0}, {1, 1}, {0, 1}}, 4});
  t.discomfort.push_back({{{0.5f, 0.5f}, {5, 0.5f}, {5, 5}, {0.5f, 5}}, -1});
  // (0.25, 0.25) is (u, v) = (0.625, 0.125): rows 0.625 and 16.25, the map
  // 0.625 + 0.125 (16.25 - 0.625) = 2.578125, and the first region's 4.
  CHECK(t.discomfortAt({0.25f, 0.25f}) == doctest::Approx(2.578125 + 4));
  // (0.75, 0.75) is (0.875, 0.375): rows 0.875 and 18.75, the map 7.578125;
  // both regions hold it: 4 - 1.
  CHECK(t.discomfortAt({0.75f, 0.75f}) == doctest::Approx(7.578125 + 4 - 1));
  CHECK(t.discomfortAt({4, 4}) == -1);  // off the map: the region alone
  // A map of the wrong size reads as 0, never out of bounds.
  Terrain bad;
  bad.discomfortMap = DiscomfortMap{{0, 0}, 1, 3, 3, {1, 2}};
  CHECK(bad.discomfortAt({1, 1}) == 0);
  CHECK_FALSE(bad.empty());
  CHECK(Terrain{}.empty());
}

namespace {

/// A lone walker routed by field toward a strip at x = 20, on `terrain`
/// plus that target, after one step: its fields.
struct Refreshed {
  Crowd crowd;
  FieldView view;
};

Refreshed refreshOver(Terrain terrain) {
  Settings s;
  s.routing = "field";
  s.maxStep = 0.05;
  s.jitter = 0;
  Refreshed r{Crowd(s), {}};
  terrain.targets.push_back({"east", {Rect{20, -2, 2, 4}}, {}, -1});
  r.crowd.setTerrain(terrain);
  r.crowd.add({0, 0}, std::nullopt, 0.25f, 1.3f);
  r.crowd.advance(0.05);
  r.view = r.crowd.fields(0);
  return r;
}

}  // namespace

TEST_CASE("fields: a refresh's cost rises under a painted discomfort map, by γ g / f, and nowhere else") {
  // A band from (8, -3) to (12, 3), nodes a metre apart, growing eastward
  // (column c holds 2 c), with a region of 1 over its north half.
  Terrain painted;
  painted.discomfortMap.origin = {8, -3};
  painted.discomfortMap.cell = 1;
  painted.discomfortMap.cols = 5;
  painted.discomfortMap.rows = 7;
  for (int r = 0; r < 7; ++r)
    for (int c = 0; c < 5; ++c) painted.discomfortMap.values.push_back(2.0f * static_cast<float>(c));
  painted.discomfort.push_back({{{8, 0}, {12, 0}, {12, 3}, {8, 3}}, 1});
  const Refreshed plain = refreshOver({});
  const Refreshed under = refreshOver(painted);
  const FieldView& a = plain.view;
  const FieldView& b = under.view;
  REQUIRE(a.cols > 0);
  REQUIRE(a.potentials == 1);
  REQUIRE(b.potentials == 1);
  // The same grid (the map does not move it) and the same speeds.
  REQUIRE(b.cols == a.cols);
  REQUIRE(b.rows == a.rows);
  CHECK(b.origin == a.origin);
  CHECK(b.cell == a.cell);
  const std::size_t n = static_cast<std::size_t>(a.cols) * static_cast<std::size_t>(a.rows);
  const Terrain& t = under.crowd.terrain();
  const FieldParams fp = fieldParams(under.crowd.settings, 1.3f);
  int raised = 0, paintedCells = 0;
  for (int y = 0; y < a.rows; ++y)
    for (int x = 0; x < a.cols; ++x) {
      const std::size_t c = static_cast<std::size_t>(y) * a.cols + x;
      const Vec2 centre{a.origin.x + (static_cast<float>(x) + 0.5f) * a.cell, a.origin.y + (static_cast<float>(y) + 0.5f) * a.cell};
      // The cell's g is the terrain's at its centre: regions plus the map.
      REQUIRE(b.discomfort[c] == t.discomfortAt(centre));
      REQUIRE(a.discomfort[c] == 0);
      paintedCells += b.discomfort[c] > 0;
      for (int d = 0; d < 4; ++d) {
        const std::size_t k = 4 * c + static_cast<std::size_t>(d);
        REQUIRE(b.speed[k] == a.speed[k]);
        const std::int32_t nb = neighbourCell(FieldGridView{a.origin, a.cell, 1.0f / a.cell, a.cols, a.rows}, x, y, d);
        if (!(a.cost[k] < fieldInfinity())) {
          REQUIRE(!(b.cost[k] < fieldInfinity()));
          continue;
        }
        // The cost reads the cell entered: (α f + β + γ g) / f.
        const float g = b.discomfort[static_cast<std::size_t>(nb)];
        REQUIRE(b.cost[k] == unitCost(fp, b.speed[k], g));
        if (g > 0) {
          REQUIRE(b.cost[k] > a.cost[k]);
          ++raised;
        } else {
          REQUIRE(b.cost[k] == a.cost[k]);
        }
      }
    }
  MESSAGE(paintedCells << " painted cells of " << n << ", " << raised << " faces into them cost more");
  // The band's 4 x 6 cells (the westmost centres sit half a node in, at
  // g = 1), each entered through its four faces.
  CHECK(paintedCells == 24);
  CHECK(raised == 4 * 24);
  // Crossing the band costs more, so the walker's cell lies higher on the
  // potential even though a way round exists.
  const std::size_t start = static_cast<std::size_t>(fieldCellAt(FieldGridView{a.origin, a.cell, 1.0f / a.cell, a.cols, a.rows}, {0, 0}));
  MESSAGE("the walker's potential: " << a.potential[start] << " on plain ground, " << b.potential[start] << " under the map");
  CHECK(b.potential[start] > a.potential[start]);
}

// Unit tests of the per-agent ORCA math (orca.hpp, obstacles.hpp, agent_step.hpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/wish.hpp"
#include "models/orca/solve.hpp"
#include "neighbors/near_lists.hpp"
#include "models/orca/orca.hpp"
#include "core/world.hpp"
#include "orca_access.hpp"

using namespace throng;

namespace {
bool permitted(const Line& l, Vec2 v, float eps = 1e-5f) { return det(l.direction, l.point - v) <= eps; }

/// Agent i on a lattice of `spacing`, at a hashed one of side x side
/// points from `at`: many exact ties in x, y and distance.
Vec2 latticePoint(std::uint64_t& h, float at, float spacing, int side) {
  h = mix64(h);
  return {at + spacing * static_cast<float>(static_cast<int>(h % side)),
          at + spacing * static_cast<float>(static_cast<int>((h >> 20) % side))};
}
}  // namespace

TEST_CASE("linearProgram2 returns the preferred velocity when no line binds") {
  Line lines[1] = {{{-10, 0}, {0, 1}}};
  // det((0,1), (-10,0) - v) = 0*(0 - vy) - 1*(-10 - vx) = 10 + vx <= 0  => vx <= -10 permitted.
  Vec2 r;
  CHECK(linearProgram2(lines, 1, 100, {-20, 5}, false, r) == 1);
  CHECK(r == Vec2{-20, 5});
}

TEST_CASE("linearProgram2 projects onto a binding line and clamps to max speed") {
  // Permitted: vx <= 1 (left of +y through (1,0)).
  Line lines[1] = {{{1, 0}, {0, 1}}};
  Vec2 r;
  CHECK(linearProgram2(lines, 1, 100, {5, 3}, false, r) == 1);
  CHECK(r.x == doctest::Approx(1));
  CHECK(r.y == doctest::Approx(3));
  // Speed circle 2 with a wish outside it: the result stays within the circle.
  CHECK(linearProgram2(lines, 1, 2, {0, 10}, false, r) == 1);
  CHECK(r.length() <= 2.0001f);
  CHECK(r.y == doctest::Approx(2));
}

TEST_CASE("linearProgram2 reports the first unmet line and linearProgram3 minimises penetration") {
  // vx <= -1 and vx >= 1: infeasible.
  Line lines[2] = {{{-1, 0}, {0, 1}}, {{1, 0}, {0, -1}}};
  Vec2 r;
  const int fail = linearProgram2(lines, 2, 10, {0, 0}, false, r);
  CHECK(fail == 1);
  linearProgram3(lines, 2, 0, fail, 10, r);
  // The least-penetrating velocity sits halfway: vx = 0.
  CHECK(r.x == doctest::Approx(0).epsilon(1e-4));
  const float pen0 = det(lines[0].direction, lines[0].point - r);
  const float pen1 = det(lines[1].direction, lines[1].point - r);
  CHECK(pen0 == doctest::Approx(pen1).epsilon(1e-4));
}

TEST_CASE("linearProgram3 never relaxes obstacle lines") {
  // Obstacle line: vx <= -1. Agent line: vx >= 1. The result keeps vx <= -1.
  Line lines[2] = {{{-1, 0}, {0, 1}}, {{1, 0}, {0, -1}}};
  Vec2 r;
  CHECK_FALSE(solveVelocity(lines, 2, 1, 10, {0, 0}, r));
  CHECK(permitted(lines[0], r));
}

TEST_CASE("a jammed walker leans toward its wish, at most kJamSlack of its top speed past the least penetration") {
  // Squeezed from both sides (vx <= -1 and vx >= 1): every velocity with
  // vx = 0 is equally least far past both lines, and linearProgram3 alone
  // picks one end of that segment, full speed up or down.
  const Line lines[2] = {{{-1, 0}, {0, 1}}, {{1, 0}, {0, -1}}};
  const float maxSpeed = 10;
  Vec2 lp3;
  const int fail = linearProgram2(lines, 2, maxSpeed, {0, 5}, false, lp3);
  const float deepest = linearProgram3(lines, 2, 0, fail, maxSpeed, lp3);
  CHECK(deepest == doctest::Approx(1));
  CHECK(std::fabs(lp3.y) == doctest::Approx(maxSpeed));
  Vec2 r;
  SUBCASE("a wish along the squeeze is taken as it is") {
    CHECK_FALSE(solveVelocity(lines, 2, 0, maxSpeed, {0, 5}, r));
    CHECK(r.x == doctest::Approx(0).epsilon(1e-5));
    CHECK(r.y == doctest::Approx(5));
  }
  SUBCASE("a wish across it gains at most the slack in penetration") {
    CHECK_FALSE(solveVelocity(lines, 2, 0, maxSpeed, {8, 0}, r));
    const float past0 = det(lines[0].direction, lines[0].point - r);
    CHECK(past0 == doctest::Approx(deepest + kJamSlack * maxSpeed).epsilon(1e-4));
    CHECK(det(lines[1].direction, lines[1].point - r) <= deepest);
    CHECK((r - Vec2{8, 0}).length() < (lp3 - Vec2{8, 0}).length());
    CHECK(r.length() <= maxSpeed * 1.0001f);
  }
  SUBCASE("an obstacle line is never crossed for the wish") {
    // Line 0 is now an obstacle (vx <= -1): linearProgram3 holds it, and so
    // does the lean, however hard the wish pulls across it.
    CHECK_FALSE(solveVelocity(lines, 2, 1, maxSpeed, {8, 3}, r));
    CHECK(permitted(lines[0], r));
    CHECK(r.y == doctest::Approx(3).epsilon(1e-4));
  }
  SUBCASE("pinned to a wall at full speed, it still slides along it toward the wish") {
    // Obstacle vx <= -a: linearProgram3 leaves the walker on the speed
    // circle, (-a, -sqrt(100 - a^2)), |v| a rounding error either side of
    // 10; the slide up the wall must go ahead whichever side.
    for (float a : {0.1f, 0.25f, 0.5f, 2.0f, 3.0f, 6.0f, 9.0f}) {
      const Line walled[2] = {{{-a, 0}, {0, 1}}, {{1, 0}, {0, -1}}};
      CHECK_FALSE(solveVelocity(walled, 2, 1, maxSpeed, {8, 3}, r));
      INFO("a = " << a << ": " << r.x << ", " << r.y);
      CHECK(permitted(walled[0], r));
      CHECK(r.y == doctest::Approx(std::min(3.0f, std::sqrt(100 - a * a))).epsilon(1e-4));
    }
  }
}

TEST_CASE("agentLine: a pair on a collision course gets reciprocal half lines") {
  const Vec2 pa{0, 0}, pb{10, 0.5f}, va{2, 0}, vb{-2, 0};
  const float invTau = 1.0f / 5, invDt = 60;
  const Line la = agentLine(va, pb - pa, va - vb, 2, invTau, invDt, 0, 1);
  const Line lb = agentLine(vb, pa - pb, vb - va, 2, invTau, invDt, 1, 0);
  // Neither current velocity is permitted (they are on a collision course).
  CHECK_FALSE(permitted(la, va));
  CHECK_FALSE(permitted(lb, vb));
  // Each side's change u/2 is the mirror of the other's: la.point - va == -(lb.point - vb).
  CHECK((la.point - va).x == doctest::Approx(-(lb.point - vb).x));
  CHECK((la.point - va).y == doctest::Approx(-(lb.point - vb).y));
  // Velocities chosen on both lines give a relative velocity outside the VO:
  // simulate the pair with the line-projected velocities for tau seconds.
  Vec2 ra, rb;
  linearProgram2(&la, 1, 3, va, false, ra);
  linearProgram2(&lb, 1, 3, vb, false, rb);
  float minDist = 1e9f;
  for (float t = 0; t <= 5; t += 0.01f) minDist = std::fmin(minDist, ((pa + ra * t) - (pb + rb * t)).length());
  CHECK(minDist >= 2 - 1e-3f);
}

TEST_CASE("agentLine: coincident agents at rest get opposite, finite lines") {
  const Line la = agentLine({0, 0}, {0, 0}, {0, 0}, 2, 1, 60, 3, 7);
  const Line lb = agentLine({0, 0}, {0, 0}, {0, 0}, 2, 1, 60, 7, 3);
  CHECK(std::isfinite(la.point.x));
  CHECK(std::isfinite(la.direction.y));
  CHECK(la.direction.length() == doctest::Approx(1));
  CHECK(la.point.x == doctest::Approx(-lb.point.x));
  CHECK(la.point.y == doctest::Approx(-lb.point.y));
  CHECK(la.point.length() > 1);  // a real push apart
}

TEST_CASE("agentLine: an exact head-on brake is turned so both pass on their right") {
  // Slow and close: the cut-off case on a collision course.
  const Vec2 va{0.5f, 0}, vb{-0.5f, 0};
  const Line la = agentLine(va, {2.4f, 0}, va - vb, 0.6f, 0.5f, 10, 0, 1);
  const Line lb = agentLine(vb, {-2.4f, 0}, vb - va, 0.6f, 0.5f, 10, 1, 0);
  Vec2 ra, rb;
  linearProgram2(&la, 1, 0.5f, va, false, ra);
  linearProgram2(&lb, 1, 0.5f, vb, false, rb);
  CHECK(ra.y < -1e-3f);  // A moves +x, its right is -y
  CHECK(rb.y > 1e-3f);   // B moves -x, its right is +y
  CHECK(ra.y == doctest::Approx(-rb.y));
}

TEST_CASE("selectNeighbors returns the k nearest within range, ties by index") {
  // Agents on a line at x = 0..9, plus two at the same distance as agent 1.
  std::vector<float> xs = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, -1, 0};
  std::vector<float> ys = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  const int n = static_cast<int>(xs.size());
  // A single cell holding all of them, sorted by x then index (the grid's contract).
  std::vector<std::int32_t> cellStart = {0, n}, sorted(n);
  for (int i = 0; i < n; ++i) sorted[i] = i;
  std::stable_sort(sorted.begin(), sorted.end(), [&](int a, int b) { return xs[a] < xs[b]; });
  std::vector<float> sx(n), sy(n);
  for (int i = 0; i < n; ++i) { sx[i] = xs[sorted[i]]; sy[i] = ys[sorted[i]]; }
  xs = sx;
  ys = sy;
  AgentGridView g;
  g.origin = {-100, -100};
  g.invCell = g.invRow = 1.0f / 1000;
  g.cols = g.rows = 1;
  g.cellStart = cellStart.data();
  g.sortedIndex = sorted.data();
  g.sx = xs.data();
  g.sy = ys.data();
  std::int32_t idx[4];
  float d[4];
  const AgentsView none;
  const int c = selectNeighbors(g, none, {0, 0}, 0, 2.5f * 2.5f, 4, idx, d);
  REQUIRE(c == 4);
  CHECK(idx[0] == 1);   // distance 1, lowest index among 1, 10, 11
  CHECK(idx[1] == 10);
  CHECK(idx[2] == 11);
  CHECK(idx[3] == 2);   // distance 2
  // Strictly within range: a radius of exactly 1 admits nobody.
  CHECK(selectNeighbors(g, none, {0, 0}, 0, 1.0f, 4, idx, d) == 0);
}

TEST_CASE("selectNeighbors gives the same answer whatever hint it starts from") {
  // A clumped random crowd over many cells, with exact ties in distance.
  World w;
  const int n = 600;
  w.resize(n);
  std::uint64_t h = 7;
  for (int i = 0; i < n; ++i) {
    // A sparse field and a packed clump (hundreds in range: the scan's
    // buffer fills and is trimmed).
    const Vec2 p = i % 3 == 0 ? latticePoint(h, 0.0f, 0.25f, 160) : latticePoint(h, 30.0f, 0.05f, 160);
    w.px[i] = p.x;
    w.py[i] = p.y;
  }
  Settings s;
  s.perceptionRadius = 6;
  s.maxNeighbors = 4;  // the grid splits its rows for a crowd this dense
  test::buildGrid(w, s);
  const AgentGridView g = w.scratch.grid.view();
  const AgentsView a = w.view();
  REQUIRE(g.rows > 2);
  REQUIRE(g.invRow > g.invCell);
  const float rangeSq = 36;
  for (int k : {1, 4, 10, kMaxNeighbors}) {
    for (int i = 0; i < n; i += 7) {
      const Vec2 p{w.px[i], w.py[i]};
      std::int32_t want[kMaxNeighbors], got[kMaxNeighbors];
      float wantD[kMaxNeighbors], gotD[kMaxNeighbors];
      const int c = selectNeighbors(g, a, p, i, rangeSq, k, want, wantD);
      // By brute force: every agent strictly in range, by (d, index).
      std::vector<std::pair<float, int>> all;
      for (int j = 0; j < n; ++j) {
        const float dx = w.px[j] - p.x, dy = w.py[j] - p.y, d = dx * dx + dy * dy;
        if (j != i && d < rangeSq) all.push_back({d, j});
      }
      std::sort(all.begin(), all.end());
      REQUIRE(c == std::min<int>(k, static_cast<int>(all.size())));
      for (int m = 0; m < c; ++m) CHECK(want[m] == all[m].second);
      // Hints: the answer itself, far agents, too few, invalid ones, the
      // answer backwards (it is then the answer, sorted), and the answer
      // with its farthest swapped for the next nearest (one more to rank).
      std::vector<std::int32_t> far, bad(k, -1), backwards(want, want + c), nextNearest(want, want + c);
      for (int j = n - 1; static_cast<int>(far.size()) < k; --j)
        if (j != i) far.push_back(j);
      std::reverse(backwards.begin(), backwards.end());
      const bool hasNext = c == k && static_cast<int>(all.size()) > k;
      if (hasNext) nextNearest[k - 1] = all[k].second;
      for (int variant = 0; variant < 6; ++variant) {
        const std::int32_t* hint = variant == 0   ? want
                                   : variant == 3 ? bad.data()
                                   : variant == 4 ? backwards.data()
                                   : variant == 5 ? nextNearest.data()
                                                  : far.data();
        if (variant == 5 && !hasNext) continue;
        const int hc = variant == 2 ? k - 1 : (variant == 0 || variant >= 4 ? c : k);
        const int c2 = selectNeighbors(g, a, p, i, rangeSq, k, got, gotD, hint, hc);
        REQUIRE(c2 == c);
        for (int m = 0; m < c; ++m) CHECK(got[m] == want[m]);
      }
      // The walker's grid slot, given right, wrong or out of range.
      const auto& order = w.scratch.grid.sortedIndex;
      const int slot = static_cast<int>(std::find(order.begin(), order.end(), i) - order.begin());
      for (int given : {slot, slot + 1, slot - 1, n + 5, -7}) {
        const int c3 = selectNeighbors(g, a, p, i, rangeSq, k, got, gotD, want, c, given);
        REQUIRE(c3 == c);
        for (int m = 0; m < c; ++m) CHECK(got[m] == want[m]);
      }
      // Asked about a point away from the walker (it is not at its own x
      // there), the scan still leaves the walker out.
      const Vec2 q{p.x + 0.013f, p.y - 0.007f};
      std::vector<std::pair<float, int>> allQ;
      for (int j = 0; j < n; ++j) {
        const float dx = w.px[j] - q.x, dy = w.py[j] - q.y, d = dx * dx + dy * dy;
        if (j != i && d < rangeSq) allQ.push_back({d, j});
      }
      std::sort(allQ.begin(), allQ.end());
      const int cq = selectNeighbors(g, a, q, i, rangeSq, k, got, gotD, want, c);
      REQUIRE(cq == std::min<int>(k, static_cast<int>(allQ.size())));
      for (int m = 0; m < cq; ++m) CHECK(got[m] == allQ[m].second);
    }
  }
}

TEST_CASE("goalWish lands exactly on the last step and eases within slowingRadius") {
  bool landing = false;
  const Vec2 far = goalWish({0, 0}, {100, 0}, 10, 0, 0.1f, landing);
  CHECK_FALSE(landing);
  CHECK(far.x == doctest::Approx(10));
  const Vec2 last = goalWish({0, 0}, {0.5f, 0}, 10, 0, 0.1f, landing);
  CHECK(landing);
  CHECK(last.x == doctest::Approx(5));
  const Vec2 eased = goalWish({0, 0}, {20, 0}, 10, 40, 0.1f, landing);
  CHECK(eased.x == doctest::Approx(5));  // half way into the slowing radius: half speed
  const Vec2 floor = goalWish({0, 0}, {2, 0}, 10, 400, 0.1f, landing);
  CHECK(floor.x == doctest::Approx(10 * kSlowestPace));
}

TEST_CASE("jitter is deterministic, bounded and varies with seed, agent and step") {
  const Vec2 w{10, 0};
  const Vec2 a = jitterWish(w, 10, 0.05f, 1, 2, 3);
  CHECK(a == jitterWish(w, 10, 0.05f, 1, 2, 3));
  CHECK((a - w).length() <= 0.5f + 1e-6f);
  CHECK_FALSE(a == jitterWish(w, 10, 0.05f, 2, 2, 3));
  CHECK_FALSE(a == jitterWish(w, 10, 0.05f, 1, 3, 3));
  CHECK_FALSE(a == jitterWish(w, 10, 0.05f, 1, 2, 4));
  CHECK(jitterWish(w, 10, 0, 1, 2, 3) == w);          // jitter 0: no randomness
  CHECK(jitterWish({0, 0}, 10, 0.05f, 1, 2, 3) == Vec2{});  // standing walkers stay still
  // Roughly centred: the mean shake over many steps is small.
  Vec2 sum;
  for (int s = 0; s < 4000; ++s) sum += jitterWish(w, 10, 0.05f, 1, 2, s) - w;
  CHECK((sum / 4000.0f).length() < 0.03f);
}

TEST_CASE("gates: target lies through the gate, crossing is by the infinite line") {
  const Vec2 a{0, -1}, b{0, 1};
  const Vec2 t = gateTarget(a, b, {-5, 0}, 0.2f);
  CHECK(t.x > 0);  // through to the far side
  CHECK(std::fabs(t.y) <= 1);
  CHECK(crossesGate(a, b, {-0.1f, 0}, {0.1f, 5}));   // beyond the segment still counts
  CHECK_FALSE(crossesGate(a, b, {-0.3f, 0}, {-0.1f, 0}));
}

TEST_CASE("the agent grid sorts each cell by x then index, whatever order it was built from") {
  // Many exact ties in x (a lattice), and a build that starts from last
  // step's order: the arrays must equal a build from index order.
  World w;
  const int n = 500;
  w.resize(n);
  std::uint64_t h = 11;
  for (int i = 0; i < n; ++i) {
    const Vec2 p = latticePoint(h, 0.0f, 0.5f, 40);
    w.px[i] = p.x;
    w.py[i] = p.y;
  }
  Settings s;
  s.perceptionRadius = 3;
  test::buildGrid(w, s);  // from index order
  const AgentGrid fresh = w.scratch.grid;
  // Rebuild from a scrambled "last step" order, twice.
  for (int round = 0; round < 2; ++round) {
    std::vector<std::int32_t>& order = w.scratch.grid.sortedIndex;
    for (int k = n - 1; k > 0; --k) std::swap(order[k], order[static_cast<int>(mix64(h + k) % (k + 1))]);
    test::buildGrid(w, s);
    CHECK(w.scratch.grid.sortedIndex == fresh.sortedIndex);
    CHECK(w.scratch.grid.sx == fresh.sx);
    CHECK(w.scratch.grid.slotOf == fresh.slotOf);
  }
  const AgentGrid& g = w.scratch.grid;
  int unordered = 0, badSlot = 0;
  for (std::size_t c = 0; c + 1 < g.cellStart.size(); ++c)
    for (int a = g.cellStart[c] + 1; a < g.cellStart[c + 1]; ++a)
      unordered += g.sx[a - 1] > g.sx[a] || (g.sx[a - 1] == g.sx[a] && g.sortedIndex[a - 1] > g.sortedIndex[a]);
  for (int i = 0; i < n; ++i) badSlot += g.sortedIndex[g.slotOf[i]] != i;
  CHECK(unordered == 0);
  CHECK(badSlot == 0);
}

TEST_CASE("the agent grid spans every agent and puts each in gridCellOf's cell, NaN positions left out") {
  // The bounds and cells are taken four agents at a time, then the rest one
  // by one: every count from 1 to 11, with the crowd's extremes at each
  // index in turn (so in the lanes, in the last lanes' reduction and in the
  // tail), and a NaN agent among them.
  for (int n = 1; n <= 11; ++n) {
    for (int at = 0; at < n; ++at) {
      World w;
      w.resize(static_cast<std::size_t>(n));
      for (int i = 0; i < n; ++i) {
        w.px[i] = 10.0f + static_cast<float>(i % 3);
        w.py[i] = 20.0f + static_cast<float>(i % 2);
      }
      w.px[at] = -35.5f;  // the least x and the most y
      w.py[at] = 60.25f;
      const int other = (at + n / 2) % n;
      if (other != at) {
        w.px[other] = 71.0f;  // the most x and the least y
        w.py[other] = -3.0f;
      }
      const int nan = n > 2 ? (at + 1) % n : -1;
      if (nan >= 0 && nan != other) w.px[nan] = std::nanf("");
      Settings s;
      s.perceptionRadius = 4;
      test::buildGrid(w, s);
      const float inf = std::numeric_limits<float>::infinity();
      float minX = inf, minY = inf, maxX = -inf, maxY = -inf;
      for (int i = 0; i < n; ++i) {
        if (!std::isnan(w.px[i])) minX = std::min(minX, w.px[i]), maxX = std::max(maxX, w.px[i]);
        minY = std::min(minY, w.py[i]), maxY = std::max(maxY, w.py[i]);
      }
      const GridShape want = gridShapeFromBounds(minX, minY, maxX, maxY, s.perceptionRadius, n, s.maxNeighbors);
      const GridShape& got = w.scratch.grid.shape;
      CAPTURE(n);
      CAPTURE(at);
      CHECK(got.origin.x == want.origin.x);
      CHECK(got.origin.y == want.origin.y);
      CHECK(got.cols == want.cols);
      CHECK(got.rows == want.rows);
      int wrongCell = 0;
      for (int i = 0; i < n; ++i) wrongCell += w.scratch.grid.cellOf[i] != gridCellOf(want, w.px[i], w.py[i]);
      CHECK(wrongCell == 0);
    }
  }
}

TEST_CASE("the edge grid lists every edge where it passes: random segments at every slope, far from the origin too") {
  std::uint64_t h = 11;
  const auto uniform = [&h] {
    h = throng::mix64(h);
    return 0.5f * (throng::unitFromBits(h) + 1.0f);  // [0, 1)
  };
  for (const Vec2 offset : {Vec2{0, 0}, Vec2{-3e4f, 7e4f}}) {
    throng::ObstacleSet set;
    for (int k = 0; k < 40; ++k) {
      const Vec2 a{uniform() * 60.0f, uniform() * 60.0f};
      // long and short, steep, shallow, axis-aligned and diagonal
      const float len = k % 4 == 0 ? 80.0f : 1.0f + uniform() * 15.0f;
      const float t = k % 5 == 0 ? 0.0f : (k % 7 == 0 ? 1.5707964f : uniform() * 6.2831853f);
      const Vec2 b = a + Vec2{len * std::cos(t), len * std::sin(t)};
      const std::vector<Vec2> wall{a + offset, b + offset, a + offset};  // along it and back
      set.addLoop(std::span<const Vec2>(wall.data(), 2));
    }
    for (const float cell : {0.7f, 3.0f}) {
      set.cell = cell;
      set.rebuildGrid();
      const throng::ObstacleView ov = set.view();
      for (int q = 0; q < 300; ++q) {
        const Vec2 p = Vec2{uniform() * 90.0f - 15.0f, uniform() * 90.0f - 15.0f} + offset;
        const float range = 0.3f + uniform() * 4.0f;
        std::vector<std::pair<float, std::int32_t>> expected;
        for (std::int32_t e = 0; e < ov.vertexCount; ++e) {
          const Vec2 a = ov.vertices[e].point, b = ov.vertices[ov.vertices[e].next].point;
          if (throng::leftOf(a, b, p) >= 0.0f) continue;
          const float d = throng::distSqPointSegment(a, b, p);
          if (d < range * range) expected.emplace_back(d, e);
        }
        std::sort(expected.begin(), expected.end());
        std::vector<std::int32_t> out(200);
        std::vector<float> outDistSq(200);
        const int count = throng::selectObstacleEdges(ov, p, range * range, out.data(), outDistSq.data(), 200);
        CAPTURE(cell);
        CAPTURE(q);
        REQUIRE(count == static_cast<int>(expected.size()));
        for (int m = 0; m < count; ++m) CHECK(out[static_cast<std::size_t>(m)] == expected[static_cast<std::size_t>(m)].second);
      }
    }
  }
}

TEST_CASE("a long diagonal wall costs the edge grid cells in proportion to its length, not its bounding box") {
  throng::ObstacleSet set;
  const Vec2 wall[] = {{0, 0}, {1000, 1000}};
  set.addLoop(wall);  // a wall: the loop along it and back, two edges
  set.cell = 1;
  set.rebuildGrid();
  REQUIRE(set.cols >= 1000);
  // Each edge passes through about two cells a row (a bounding box would be a million).
  CHECK(set.cellEdges.size() < static_cast<std::size_t>(2 * 4 * set.rows));
  CHECK(set.cellEdges.size() >= static_cast<std::size_t>(2 * set.rows));
}

TEST_CASE("selectObstacleEdges keeps the nearest front faces in range, by distance then edge, up to its capacity") {
  // Sixty small squares (counter-clockwise) scattered about the walker:
  // more front faces in range than the capacity holds, several cells each.
  throng::ObstacleSet set;
  std::uint64_t h = 7;
  const auto uniform = [&h] {
    h = throng::mix64(h);
    return 0.5f * (throng::unitFromBits(h) + 1.0f);  // [0, 1)
  };
  for (int s = 0; s < 60; ++s) {
    const Vec2 c{uniform() * 40.0f - 20.0f, uniform() * 40.0f - 20.0f};
    const float half = 0.2f + uniform() * 0.8f;
    const std::vector<Vec2> square{
        {c.x - half, c.y - half}, {c.x + half, c.y - half}, {c.x + half, c.y + half}, {c.x - half, c.y + half}};
    set.addLoop(square);
  }
  set.cell = 3;
  set.rebuildGrid();
  const throng::ObstacleView ov = set.view();
  for (const Vec2 p : {Vec2{0, 0}, Vec2{3.5f, -2.25f}, Vec2{-12, 9}}) {
    for (const float range : {4.0f, 9.0f, 30.0f}) {
      std::vector<std::pair<float, std::int32_t>> expected;
      for (std::int32_t e = 0; e < ov.vertexCount; ++e) {
        const Vec2 a = ov.vertices[e].point, b = ov.vertices[ov.vertices[e].next].point;
        if (throng::leftOf(a, b, p) >= 0.0f) continue;
        const float d = throng::distSqPointSegment(a, b, p);
        if (d < range * range) expected.emplace_back(d, e);
      }
      std::sort(expected.begin(), expected.end());
      for (const int capacity : {1, 3, 32, 500}) {
        CAPTURE(p.x);
        CAPTURE(range);
        CAPTURE(capacity);
        std::vector<std::int32_t> out(static_cast<std::size_t>(capacity));
        std::vector<float> outDistSq(static_cast<std::size_t>(capacity));
        const int count = throng::selectObstacleEdges(ov, p, range * range, out.data(), outDistSq.data(), capacity);
        REQUIRE(count == std::min<int>(capacity, static_cast<int>(expected.size())));
        for (int m = 0; m < count; ++m) {
          CHECK(out[static_cast<std::size_t>(m)] == expected[static_cast<std::size_t>(m)].second);
          CHECK(outDistSq[static_cast<std::size_t>(m)] == expected[static_cast<std::size_t>(m)].first);
        }
      }
    }
  }
}

TEST_CASE("obstacle lines: a walker tangent to a wall's line just past its end may not step into the end") {
  // A wall from A = (0, 0) to (10, 0); a walker of radius 0.25 below it at
  // exactly its radius from the wall's line, just past A (as one sliding
  // along the wall leaves it). Seen obliquely from A, the right leg of A's
  // velocity obstacle runs along the wall, so it is "foreign" (it points into
  // the neighbouring edge, here the wall itself). RVO2 then adds no line, and
  // the walker turning up round the end walks into it.
  throng::ObstacleSet set;
  const std::vector<Vec2> wall{{0, 0}, {10, 0}};
  set.addLoop(wall);
  set.cell = 2;
  set.rebuildGrid();
  const throng::ObstacleView ov = set.view();
  const float radius = 0.25f, invTau = 1.0f / 0.5f, dt = 0.05f;
  int cases = 0;
  for (const float x : {-1e-4f, -3e-4f, -1e-3f, -3e-3f, -0.01f, -0.02f, -0.05f}) {
    const Vec2 p{x, -radius};
    for (int degrees = 40; degrees <= 140; degrees += 5) {
      const float a = static_cast<float>(degrees) * 3.14159265f / 180.0f;
      const Vec2 v{1.3f * std::cos(a), 1.3f * std::sin(a)};
      // Only the steps along v that bring the walker's disc into the wall's end.
      const Vec2 next = p + dt * v;
      if (next.lengthSquared() >= radius * radius) continue;
      ++cases;
      CAPTURE(x);
      CAPTURE(degrees);
      std::int32_t edges[8];
      float distSq[8];
      const int edgeCount = throng::selectObstacleEdges(ov, p, 4.0f, edges, distSq, 8);
      REQUIRE(edgeCount == 1);  // the wall's lower face
      throng::Line lines[throng::kMaxObstacleLines];
      const int n = throng::obstacleLines(ov, edges, edgeCount, p, v, radius, invTau, lines);
      bool forbidden = false;
      for (int k = 0; k < n; ++k) forbidden = forbidden || !permitted(lines[k], v);
      CHECK(forbidden);
      // Moving away, or back along the wall, stays permitted.
      for (const Vec2 ok : {Vec2{0, -1}, Vec2{-1, 0}, Vec2{-0.7f, -0.7f}})
        for (int k = 0; k < n; ++k) CHECK(permitted(lines[k], ok));
    }
  }
  CHECK(cases > 60);
}

// BioCrowds (sim/src/models/biocrowds/): the marker field, ownership
// against a brute-force search, a lone walker's motion, a boxed-in walker's
// jam, bodies kept apart, and determinism (replay, threads, edits).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "base/hash.hpp"
#include "core/world.hpp"
#include "models/biocrowds/biocrowds.hpp"
#include "models/biocrowds/biocrowds_model.hpp"
#include "models/biocrowds/markers.hpp"
#include "throng/crowd.hpp"
#include "throng/verify.hpp"

using namespace throng;

namespace {

Settings bioSettings(int threads = 1) {
  Settings s;
  s.model = "biocrowds";
  s.jitter = 0;
  s.threads = threads;
  s.maxStep = 0.05;
  return s;
}

/// Exact (double) test of whether segments a-b and c-d meet.
bool meetExact(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  const auto orient = [](Vec2 p, Vec2 q, Vec2 r) {
    const double v = (static_cast<double>(q.x) - p.x) * (static_cast<double>(r.y) - p.y) -
                     (static_cast<double>(q.y) - p.y) * (static_cast<double>(r.x) - p.x);
    return (v > 0) - (v < 0);
  };
  const int o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
  if (o1 != o2 && o3 != o4) return true;
  const auto on = [](Vec2 p, Vec2 q, Vec2 r) {
    return std::min(p.x, q.x) <= r.x && r.x <= std::max(p.x, q.x) && std::min(p.y, q.y) <= r.y && r.y <= std::max(p.y, q.y);
  };
  return (o1 == 0 && on(a, b, c)) || (o2 == 0 && on(a, b, d)) || (o3 == 0 && on(c, d, a)) || (o4 == 0 && on(c, d, b));
}

/// A random crowd in a 12 m square with walls through it, biocrowds.
Crowd randomCrowd(std::uint64_t seed, int n, std::vector<std::pair<Vec2, Vec2>>& walls, int threads = 1) {
  Crowd c(bioSettings(threads));
  std::uint64_t h = seed;
  const auto u = [&h] {
    h = mix64(h);
    return 0.5f * (unitFromBits(h) + 1.0f);
  };
  walls = {{{2, 2}, {9, 3}}, {{6, 11}, {6, 5}}, {{1, 8}, {4, 10}}};
  for (const auto& w : walls) c.addWall(w.first, w.second);
  for (int i = 0; i < n; ++i) {
    Vec2 p{12 * u(), 12 * u()};
    c.add(p, Vec2{12 * u(), 12 * u()}, 0.2f + 0.1f * u(), 1.3f);
  }
  return c;
}

}  // namespace

TEST_CASE("biocrowds: a lone walker on an even field moves at |M0(R)|, in closed form and by the markers") {
  // The closed form against a fine numerical integration of the same
  // integrals, and its small-R series against the closed form.
  for (double R : {0.01, 0.5, 1.0, 3.0, 32.0}) {
    double num = 0, den = 0;
    const int steps = 200000;
    for (int k = 0; k < steps; ++k) {
      const double r = (k + 0.5) * R / steps;
      num += r * r / (1 + r);
      den += r / (1 + r);
    }
    CHECK(loneWalkerReach(R) == doctest::Approx(num / (2 * den)).epsilon(1e-6));
  }
  CHECK(loneWalkerReach(0.999e-3) == doctest::Approx(loneWalkerReach(1.001e-3)).epsilon(1e-3));
  CHECK(loneWalkerReach(1e-9) == doctest::Approx(1e-9 / 3).epsilon(1e-6));
  // The lab code's factor at R = 1 m: pi, against our 1 / |M0(1)|.
  CHECK(1 / loneWalkerReach(1.0) == doctest::Approx(3.18).epsilon(0.01));

  // The markers' own M for a walker alone, averaged over many spots:
  // within 2% of the closed form, pointing along the wish.
  Crowd c(bioSettings());
  c.add({0, 0}, Vec2{100, 0}, 0.25f, 1.3f);
  double along = 0, across = 0;
  const int spots = 400;
  for (int k = 0; k < spots; ++k) {
    Agent a = c.agent(0);
    a.position = Vec2{0.37f * static_cast<float>(k), 0.11f * static_cast<float>(k)};
    a.goal = Vec2{a.position.x + 100, a.position.y};
    c.setAgent(0, a);
    const AgentExplain e = c.explain(0, 0.05);
    along += e.motion.x;
    across += e.motion.y;
  }
  CHECK(along / spots == doctest::Approx(loneWalkerReach(1.0)).epsilon(0.02));
  CHECK(std::fabs(across / spots) < 0.01);
}

TEST_CASE("biocrowds: markers are stratified, hashed from the seed, and none lies in an outline or on a wall") {
  const MarkerLattice lat = markerLattice(1.0, 16);
  CHECK(lat.spacing == 0.25);
  CHECK(lat.perCell == 4);  // a cell of R
  const MarkerLattice dense = markerLattice(1.0, 1e6);
  CHECK(dense.perCell == kMaxStrataPerCell);  // thinned to 64 across R
  CHECK(dense.cell() >= 1.0);

  Crowd c(bioSettings());
  const Vec2 box[] = {{3, 3}, {6, 3}, {6, 5}, {3, 5}};
  c.addObstacle(box);
  c.addWall(Vec2{-4, -4}, Vec2{-4, 6});
  c.add({0, 0}, Vec2{8, 8}, 0.25f, 1.3f);
  c.add({8, 8}, Vec2{0, 0}, 0.25f, 1.3f);
  c.advance(0.05);
  const MarkerView m = c.markers();
  REQUIRE(m.x.size() > 1000);
  REQUIRE(m.owner.size() == m.x.size());
  std::set<std::pair<std::int64_t, std::int64_t>> strata;
  for (std::size_t k = 0; k < m.x.size(); ++k) {
    const Vec2 p{m.x[k], m.y[k]};
    CHECK_FALSE((p.x > 3 && p.x < 6 && p.y > 3 && p.y < 5));  // not inside the box
    const bool clearOfWall = std::sqrt(distSqPointSegment(Vec2{-4, -4}, Vec2{-4, 6}, p)) >= kMarkerClearance * 1.0f;
    CHECK(clearOfWall);
    // one marker per stratum at most
    const auto key = std::make_pair(static_cast<std::int64_t>(std::floor(p.x / 0.25)), static_cast<std::int64_t>(std::floor(p.y / 0.25)));
    CHECK(strata.insert(key).second);
  }
  // Even: every stratum of a clear square 2 m on a side holds its marker.
  int inSquare = 0;
  for (std::size_t k = 0; k < m.x.size(); ++k) inSquare += m.x[k] >= 0 && m.x[k] < 2 && m.y[k] >= -2 && m.y[k] < 0;
  CHECK(inSquare == 64);
  // The same seed lays the same markers; another seed other ones.
  Crowd same(bioSettings()), other(bioSettings());
  other.settings.seed = 7;
  for (Crowd* k : {&same, &other}) {
    k->addObstacle(box);
    k->addWall(Vec2{-4, -4}, Vec2{-4, 6});
    k->add({0, 0}, Vec2{8, 8}, 0.25f, 1.3f);
    k->add({8, 8}, Vec2{0, 0}, 0.25f, 1.3f);
    k->advance(0.05);
  }
  std::map<std::pair<float, float>, int> at;
  for (std::size_t k = 0; k < m.x.size(); ++k) at[{m.x[k], m.y[k]}] = 1;
  const MarkerView ms = same.markers(), mo = other.markers();
  int sameFound = 0, otherFound = 0;
  for (std::size_t k = 0; k < ms.x.size(); ++k) sameFound += at.count({ms.x[k], ms.y[k]}) ? 1 : 0;
  for (std::size_t k = 0; k < mo.x.size(); ++k) otherFound += at.count({mo.x[k], mo.y[k]}) ? 1 : 0;
  CHECK(sameFound == static_cast<int>(ms.x.size()));
  CHECK(otherFound < static_cast<int>(mo.x.size()) / 100);
}

TEST_CASE("biocrowds: each marker's owner is the brute-force nearest visible walker within R, ties to the lower index") {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    std::vector<std::pair<Vec2, Vec2>> walls;
    Crowd c = randomCrowd(seed, 150, walls);
    for (int k = 0; k < 5; ++k) c.advance(0.05);
    (void)c.explain(0, 0.05);  // the owners for the state as it is now
    const MarkerView m = c.markers();
    const FrameView f = c.frame();
    REQUIRE(m.owner.size() == m.x.size());
    const float R = c.settings.personalSpace, R2 = R * R;
    std::size_t owned = 0, blockedSeen = 0;
    for (std::size_t k = 0; k < m.x.size(); ++k) {
      const Vec2 mk{m.x[k], m.y[k]};
      std::int32_t best = -1;
      float bestD = R2;
      for (std::size_t i = 0; i < f.px.size(); ++i) {
        const float dx = f.px[i] - mk.x, dy = f.py[i] - mk.y;
        const float d = dx * dx + dy * dy;
        if (!(d < bestD)) continue;  // ties: the first (lower) index stays
        bool blocked = false;
        for (const auto& w : walls) blocked |= meetExact(Vec2{f.px[i], f.py[i]}, mk, w.first, w.second);
        if (blocked) {
          ++blockedSeen;
          continue;
        }
        bestD = d;
        best = static_cast<std::int32_t>(i);
      }
      INFO("seed ", seed, " marker ", k, " at ", mk.x, ",", mk.y);
      CHECK(m.owner[k] == best);
      owned += best >= 0;
    }
    CHECK(owned > 1000);
    CHECK(blockedSeen > 10);  // the walls did hide some markers
    // Each walker's own view (explain) lists exactly the markers it owns.
    std::size_t listed = 0;
    for (std::size_t i = 0; i < f.px.size(); ++i) {
      const AgentExplain e = c.explain(i, 0.05);
      listed += e.markers.size();
      for (const Vec2& p : e.markers) {
        const auto d = std::hypot(p.x - f.px[i], p.y - f.py[i]);
        CHECK(d < R);
      }
    }
    CHECK(listed == owned);
  }
}

TEST_CASE("biocrowds: ties go to the lower index whichever order the candidates come in") {
  const float cx[] = {1, -1, 0}, cy[] = {0, 0, 1};
  const std::int32_t forward[] = {4, 9, 7}, backward[] = {9, 4, 7};
  const ObstacleView none;
  CHECK(ownerAmong(cx, cy, forward, 3, Vec2{0, 0}, 4.0f, none, false) == 4);
  CHECK(ownerAmong(cx, cy, backward, 3, Vec2{0, 0}, 4.0f, none, false) == 4);
  // Strictly within R: a walker at exactly R owns nothing.
  CHECK(ownerAmong(cx, cy, forward, 3, Vec2{0, 0}, 1.0f, none, false) == -1);
}

TEST_CASE("biocrowds: a lone walker walks straight to its goal at its preferred speed") {
  Crowd c(bioSettings());
  c.add({0, 0}, Vec2{40, 3}, 0.25f, 1.3f);
  const double straight = std::hypot(40.0, 3.0) / 1.3;
  double worst = 0;
  int steps = 0;
  while (steps < 2000 && c.agent(0).position != Vec2{40, 3}) {
    c.advance(0.05);
    ++steps;
    const Vec2 p = c.agent(0).position;
    worst = std::max(worst, std::fabs(p.x * 3.0 - p.y * 40.0) / std::hypot(40.0, 3.0));
    CHECK_FALSE(c.agent(0).isJammed);
  }
  MESSAGE("arrived in ", steps * 0.05, " s; straight at 1.3 m/s: ", straight, " s; widest swerve ", worst, " m");
  CHECK(c.agent(0).position == Vec2{40, 3});  // it lands exactly
  CHECK(steps * 0.05 < straight * 1.06);
  CHECK(steps * 0.05 >= straight - 0.05);
  CHECK(worst < 0.01 * std::hypot(40.0, 3.0));  // within 1% of the way from the straight line
}

TEST_CASE("biocrowds: a walker with no marker it can use stands and is jammed") {
  // Boxed by walls 0.52 m across: no marker in the box leaves room for a
  // disc of 0.25 m (only a spot 0.01 m about the centre would).
  Crowd c(bioSettings());
  const Vec2 loop[] = {{-0.26f, -0.26f}, {0.26f, -0.26f}, {0.26f, 0.26f}, {-0.26f, 0.26f}, {-0.26f, -0.26f}};
  c.addWall(loop);
  c.add({0, 0}, Vec2{10, 0}, 0.25f, 1.3f);
  // A free walker beside it, for contrast.
  c.add({5, 5}, Vec2{10, 5}, 0.25f, 1.3f);
  for (int k = 0; k < 20; ++k) c.advance(0.05);
  CHECK(c.agent(0).position == Vec2{0, 0});
  CHECK(c.agent(0).isJammed);
  CHECK(c.lastStats().jammed == 1);
  CHECK(c.agent(1).position.x > 5.5f);
  const AgentExplain e = c.explain(0, 0.05);
  CHECK(e.jammed);
  CHECK(std::all_of(e.markerWeights.begin(), e.markerWeights.end(), [](float w) { return w == 0.0f; }));
  // A walker with no goal stands too, but is not stuck.
  Agent a = c.agent(0);
  a.goal.reset();
  c.setAgent(0, a);
  c.advance(0.05);
  CHECK_FALSE(c.agent(0).isJammed);
}

TEST_CASE("biocrowds: discs that start apart never overlap, and no centre crosses a wall, in a dense melee") {
  std::vector<std::pair<Vec2, Vec2>> walls;
  Crowd c = randomCrowd(11, 0, walls);
  // 200 walkers on a jittered grid at 0.55 m (discs of 0.25 m: 0.05 m
  // apart), all heading through the middle.
  std::uint64_t h = 99;
  for (int i = 0; i < 200; ++i) {
    h = mix64(h);
    const Vec2 p{0.3f + 0.55f * static_cast<float>(i % 20), 0.3f + 0.55f * static_cast<float>(i / 20)};
    bool nearWall = false;
    for (const auto& w : walls) nearWall |= std::sqrt(distSqPointSegment(w.first, w.second, p)) < 0.3f;
    if (nearWall) continue;
    c.add(p, Vec2{11 - p.x, 11 - p.y + unitFromBits(h)}, 0.25f, 1.3f);
  }
  GateGeometry geometry;
  std::vector<std::vector<Vec2>> wallLines;
  for (const auto& w : walls) wallLines.push_back({w.first, w.second});
  geometry.walls = wallLines;
  GateReport all;
  std::size_t moved = 0;
  for (int k = 0; k < 300; ++k) {
    const FrameView before = c.frame();
    std::vector<Vec2> from(before.px.size());
    for (std::size_t i = 0; i < from.size(); ++i) from[i] = {before.px[i], before.py[i]};
    std::vector<float> radius(before.radius.begin(), before.radius.end());
    c.advance(0.05);
    const FrameView after = c.frame();
    std::vector<Vec2> to(from.size());
    for (std::size_t i = 0; i < to.size(); ++i) {
      to[i] = {after.px[i], after.py[i]};
      moved += to[i] != from[i];
    }
    std::vector<std::uint8_t> jammed(after.jammed.begin(), after.jammed.end());
    all.merge(checkStep(GateStep{from, to, radius, jammed, {}}, geometry, 1e-5f, overlapPromiseOf("biocrowds")));
  }
  MESSAGE("min gap ", all.minGap, " m; wall intrusion ", all.maxWallIntrusion, " m");
  CHECK(moved > 200 * 100);
  CHECK(all.passed());
  CHECK(all.minGap > -kBioOverlap * 0.5f);  // jammed or not: no overlap beyond the promise
  CHECK(all.maxWallIntrusion < 1e-5f);  // float rounding along a wall only
}

TEST_CASE("biocrowds: a run replays exactly, at 1 and 2 threads, across edits and model switches") {
  const auto run = [](int threads) {
    std::vector<std::pair<Vec2, Vec2>> walls;
    Crowd c = randomCrowd(5, 120, walls, threads);
    std::vector<std::uint64_t> hashes;
    for (int k = 0; k < 120; ++k) {
      if (k == 30) c.add({6, 6}, Vec2{0, 0}, 0.3f, 1.3f);
      if (k == 40) c.setModel("orca");
      if (k == 60) c.setModel("biocrowds");
      if (k == 80) c.settings.markerDensity = 25;
      if (k == 90) c.settings.personalSpace = 1.5f;
      c.advance(0.05);
      hashes.push_back(c.stateHash());
    }
    return hashes;
  };
  const auto one = run(1), again = run(1), two = run(2);
  CHECK(one == again);
  CHECK(one == two);
  CHECK(one.front() != one.back());
}

TEST_CASE("biocrowds: the marker field grows with the walkers and its extent never changes a step") {
  // Two crowds alike but for a far walker that makes one lay a much wider
  // field: the near walkers step alike. They follow a stream east, with no
  // goal for the field to cover in advance.
  const auto make = [](bool far) {
    Crowd c(bioSettings());
    c.setGroupVelocity(1, Vec2{1.3f, 0});
    for (int i = 0; i < 30; ++i)
      c.add({0.7f * static_cast<float>(i % 6), 0.7f * static_cast<float>(i / 6)}, std::nullopt, 0.25f, 1.3f, 1);
    if (far) c.add({300, 300}, std::nullopt, 0.25f, 1.3f);
    return c;
  };
  Crowd near = make(false), wide = make(true);
  std::size_t lays = 0;
  std::uint64_t lastVersion = 0;
  for (int k = 0; k < 400; ++k) {
    near.advance(0.05);
    wide.advance(0.05);
    const auto* bio = near.world().model.get();
    REQUIRE(bio != nullptr);
    const std::uint64_t v = static_cast<const BioCrowdsModel*>(bio)->field.version;
    lays += v != lastVersion;
    lastVersion = v;
  }
  for (std::size_t i = 0; i < 30; ++i) CHECK(near.agent(i).position == wide.agent(i).position);
  CHECK(near.agent(0).position.x > 10);  // they walked out of the first field ...
  CHECK(lays >= 2);                      // ... which grew to follow them
  CHECK(lays < 10);                      // seldom
}

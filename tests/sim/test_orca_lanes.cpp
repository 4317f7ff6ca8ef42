// agentLinesInLanes (orca_lanes.hpp) against agentLine, projectLinesInLanes and
// leanTowardWishInLanes (orca.hpp) against projectLines and leanTowardWish, and
// gatherNearInLanes (agent_step.hpp) against gatherNear, bit for bit, over random
// and edge cases. Its own program: on a CPU without AVX2 it prints SKIP
// and exits 77, which ctest reports as skipped (the crowd then takes the
// scalar loop, and nothing here applies).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <numeric>
#include <vector>

#include "core/wish.hpp"
#include "models/orca/solve.hpp"
#include "neighbors/near_lists.hpp"
#include "neighbors/agents_view.hpp"
#include "models/orca/orca.hpp"
#include "models/orca/fast/lanes.hpp"
#include "core/world.hpp"
#include "orca_access.hpp"

#include "core/integrate.hpp"
#include "neighbors/motion.hpp"

using namespace throng;

namespace {

/// One neighbour, relative to the walker: where it is and how the pair
/// moves relative to each other (the neighbour's velocity is the walker's
/// less relVel).
struct Pair {
  Vec2 relPos, relVel;
  float radius;
};

struct Rng {
  std::uint64_t h;
  float unit() { return unitFromBits(h = mix64(h)); }  // [-1, 1)
};

bool sameBits(const Line& a, const Line& b) { return std::memcmp(&a, &b, sizeof a) == 0; }

/// The walker (agent 0, at p with velocity v and radius r) and the pairs in
/// groups of up to 32 (every count from 1 on, so every partial last group
/// of eight), through agentLinesInLanes and agentLines; returns the lines that
/// differ.
int compare(Vec2 p, Vec2 v, float r, const std::vector<Pair>& pairs, float invTau, float invDt) {
  int mismatches = 0;
  std::size_t at = 0;
  for (int count = 1; at < pairs.size(); count = count % kMaxNeighbors + 1) {
    const int n = static_cast<int>(std::min<std::size_t>(count, pairs.size() - at));
    std::vector<float> px{p.x}, py{p.y}, vx{v.x}, vy{v.y}, radius{r}, speed(n + 1, 1.0f);
    std::vector<std::uint64_t> ids{1000};
    std::vector<std::int32_t> neighbors;
    for (int k = 0; k < n; ++k) {
      const Pair& q = pairs[at + k];
      px.push_back(p.x + q.relPos.x);
      py.push_back(p.y + q.relPos.y);
      vx.push_back(v.x - q.relVel.x);
      vy.push_back(v.y - q.relVel.y);
      radius.push_back(q.radius);
      ids.push_back(at + k);
      neighbors.push_back(k + 1);
    }
    AgentsView a;
    a.px = px.data(); a.py = py.data(); a.vx = vx.data(); a.vy = vy.data();
    a.radius = radius.data(); a.maxSpeed = speed.data(); a.id = ids.data();
    a.count = n + 1;
    // The CPU step's inputs: the same values again as AgentKin records.
    std::vector<AgentKin> kin;
    for (int m = 0; m <= n; ++m) kin.push_back({px[m], py[m], vx[m], vy[m], radius[m]});
    a.kin = kin.data();
    Line lanes[kMaxNeighbors], one[kMaxNeighbors];
    agentLinesInLanes(a, 0, neighbors.data(), n, invTau, invDt, lanes);
    agentLines(a, 0, neighbors.data(), n, invTau, invDt, one);  // what the CUDA kernels build
    for (int k = 0; k < n; ++k) {
      if (!sameBits(one[k], lanes[k]) && ++mismatches <= 5)
        MESSAGE("relPos (" << pairs[at + k].relPos.x << ", " << pairs[at + k].relPos.y << ") relVel ("
                           << pairs[at + k].relVel.x << ", " << pairs[at + k].relVel.y << "): agentLine point ("
                           << one[k].point.x << ", " << one[k].point.y << ") dir (" << one[k].direction.x << ", "
                           << one[k].direction.y << "), lanes point (" << lanes[k].point.x << ", "
                           << lanes[k].point.y << ") dir (" << lanes[k].direction.x << ", " << lanes[k].direction.y
                           << ")");
    }
    at += static_cast<std::size_t>(n);
  }
  return mismatches;
}

/// Pairs in every branch of agentLine, built to land on each (for a walker
/// at the origin, so the offsets are exact).
std::vector<Pair> edgeCases(Rng& rng) {
  std::vector<Pair> out;
  for (int i = 0; i < 400; ++i) {
    const float rB = 0.5f + 0.25f * rng.unit(), cr = 0.5f + rB;  // the walker's radius is 0.5
    const Vec2 axis = hashedDirection(rng.h = mix64(rng.h));
    const Vec2 side = perpLeft(axis);
    const float along = rng.unit(), across = rng.unit();
    // touching to within 0.1% (the contact rule), and exactly touching
    out.push_back({axis * (cr * (0.9995f + 0.0005f * along)), axis * -1.0f + side * across, rB});
    out.push_back({axis * cr, side * across, rB});
    // overlapping, and coincident (exactly, and within 1e-6 of r)
    out.push_back({axis * (cr * (0.5f + 0.4f * along)), axis * across + side, rB});
    out.push_back({Vec2{}, side * across, rB});
    out.push_back({axis * (cr * 1e-7f), side, rB});
    // head-on: on a collision course straight at B (relVel along relPos,
    // hitting within the horizon at invTau 1), far (the turn's floor angle)
    // and near (cos r/d above the floor)
    const float dFar = cr * (3.0f + 2.0f * (along + 1.0f)), dNear = cr * 1.01f;
    out.push_back({axis * dFar, axis * (dFar * (0.9f + 0.05f * across)), rB});
    out.push_back({axis * dNear, axis * (dNear * 0.9f) + side * 0.001f, rB});
    // legs: passing beside, each way; the cut-off circle at speed
    out.push_back({axis * dFar, axis * 2.0f + side * (1.5f + across), rB});
    out.push_back({axis * dFar, axis * 2.0f - side * (1.5f + across), rB});
    out.push_back({axis * dFar, axis * (0.1f * across), rB});
    // exactly along an axis (det ties)
    out.push_back({Vec2{dFar, 0}, Vec2{0.2f, 0}, rB});
    out.push_back({Vec2{0, -dFar}, Vec2{0, -0.2f}, rB});
  }
  out.push_back({Vec2{std::numeric_limits<float>::quiet_NaN(), 1}, Vec2{1, 0}, 1});
  return out;
}

}  // namespace

TEST_CASE("agentLinesInLanes gives agentLine's lines bit for bit: random pairs") {
  Rng rng{42};
  for (float invTau : {0.1f, 0.5f, 1.0f, 2.0f}) {
    for (float invDt : {4.0f, 10.0f, 60.0f}) {
      std::vector<Pair> pairs;
      for (int i = 0; i < 3000; ++i) {
        const float scale = i % 3 == 0 ? 2.0f : (i % 3 == 1 ? 20.0f : 200.0f);
        pairs.push_back({Vec2{scale * rng.unit(), scale * rng.unit()}, Vec2{3 * rng.unit(), 3 * rng.unit()},
                         scale * 0.05f * (rng.unit() + 1.2f)});
      }
      const Vec2 p{100 * rng.unit(), 100 * rng.unit()}, v{2 * rng.unit(), 2 * rng.unit()};
      CAPTURE(invTau);
      CAPTURE(invDt);
      CHECK(compare(p, v, 0.1f * (rng.unit() + 1.5f), pairs, invTau, invDt) == 0);
    }
  }
}

TEST_CASE("agentLinesInLanes gives agentLine's lines bit for bit: every branch") {
  Rng rng{7};
  const std::vector<Pair> pairs = edgeCases(rng);
  for (float invTau : {0.1f, 1.0f}) {
    CAPTURE(invTau);
    // standing (the pair's common motion equals its relative motion: the
    // head-on tie turns), and walking (some pairs move more together)
    CHECK(compare({}, {}, 0.5f, pairs, invTau, 4.0f) == 0);
    CHECK(compare({}, {0.4f, -0.3f}, 0.5f, pairs, invTau, 60.0f) == 0);
    CHECK(compare({}, {-1.5f, 0.2f}, 0.5f, pairs, invTau, 10.0f) == 0);
  }
  // The cases reach what they are meant to: the head-on turn gives a line
  // other than the plain brake, and the coincident split a unit normal.
  const Pair& headOn = pairs[5];
  const float cr = 0.5f + headOn.radius;
  const Line turned = agentLine({}, headOn.relPos, headOn.relVel, cr, 1, 4, 0, 1, 0);
  const Line braked = agentLine({}, headOn.relPos, headOn.relVel, cr, 1, 4, 0, 1, 1e9f);
  CHECK_FALSE(sameBits(turned, braked));
  const Line split = agentLine({}, pairs[3].relPos, pairs[3].relVel, 0.5f + pairs[3].radius, 1, 4, 0, 9, 0);
  CHECK(std::isfinite(split.direction.x));
  CHECK(split.direction.lengthSquared() == doctest::Approx(1));
}

TEST_CASE("agentLinesInLanes with no neighbours writes nothing") {
  const float zero = 0, one = 1;
  const std::uint64_t id = 0;
  AgentsView a;
  a.px = a.py = a.vx = a.vy = &zero;
  a.radius = a.maxSpeed = &one;
  a.id = &id;
  a.count = 1;
  const AgentKin kin{0, 0, 0, 0, 1};
  a.kin = &kin;
  Line out[8];
  const Line marker{{7, 7}, {0, 1}};
  for (Line& l : out) l = marker;
  agentLinesInLanes(a, 0, nullptr, 0, 1, 60, out);
  for (const Line& l : out) CHECK(sameBits(l, marker));
}

TEST_CASE("batchAgentLines gives agentLine's lines bit for bit, for batches of walkers, and whose programs can skip") {
  // Batches of 1-8 walkers, each with its own place and velocity and 0-32
  // neighbours (random pairs and every branch's), queued by queueBatchPairs
  // behind some obstacle lines, as the CPU step does; each walker's lines
  // against agentLines for it alone. Lines outside the agent lines stay.
  // In some batches some walkers queue lists: only their pairs in range
  // count (inRangeFromList's), and the lanes say which.
  Rng rng{99};
  std::vector<Pair> pool = edgeCases(rng);
  for (int i = 0; i < 2000; ++i)
    pool.push_back({Vec2{20 * rng.unit(), 20 * rng.unit()}, Vec2{3 * rng.unit(), 3 * rng.unit()},
                    0.5f + 0.4f * rng.unit()});
  const Line marker{{7, 7}, {0, 1}};
  std::size_t next = 0;
  int mismatches = 0, linesChecked = 0, batches = 0, partial = 0;
  int wrongStarts = 0, wrongFlags = 0, brokenSeen = 0, freeSeen = 0, packedSeen = 0;
  int wrongInRange = 0, listedIn = 0, listedOut = 0, freedByRange = 0;
  while (next < pool.size()) {
    const int walkers = 1 + batches % 8;
    ++batches;
    std::vector<float> px, py, vx, vy, radius;
    std::vector<std::uint64_t> ids;
    std::vector<std::vector<std::int32_t>> neighbors(walkers);
    for (int w = 0; w < walkers; ++w) {
      px.push_back(50 * rng.unit());
      py.push_back(50 * rng.unit());
      vx.push_back(2 * rng.unit());
      vy.push_back(2 * rng.unit());
      radius.push_back(0.5f);
      ids.push_back(ids.size());
    }
    for (int w = 0; w < walkers; ++w) {
      const int count = static_cast<int>((rng.unit() + 1) * 0.5f * (kMaxNeighbors + 1)) % (kMaxNeighbors + 1);
      partial += count % 8 != 0;
      for (int k = 0; k < count && next < pool.size(); ++k, ++next) {
        const Pair& q = pool[next];
        px.push_back(px[w] + q.relPos.x);
        py.push_back(py[w] + q.relPos.y);
        vx.push_back(vx[w] - q.relVel.x);
        vy.push_back(vy[w] - q.relVel.y);
        radius.push_back(q.radius);
        ids.push_back(ids.size());
        neighbors[w].push_back(static_cast<std::int32_t>(px.size() - 1));
      }
    }
    const std::vector<float> speed(px.size(), 1.0f);
    std::vector<AgentKin> kin;
    for (std::size_t m = 0; m < px.size(); ++m) kin.push_back({px[m], py[m], vx[m], vy[m], radius[m]});
    AgentsView a;
    a.px = px.data(); a.py = py.data(); a.vx = vx.data(); a.vy = vy.data();
    a.radius = radius.data(); a.maxSpeed = speed.data(); a.id = ids.data();
    a.count = static_cast<std::int32_t>(px.size());
    a.kin = kin.data();
    // Each walker's lines: obstacle lines first (0-3 markers), then room.
    std::vector<std::vector<Line>> lines(walkers, std::vector<Line>(kMaxLines, marker));
    std::vector<std::int32_t> who, walkerOf(8 * kMaxNeighbors + 8), others(8 * kMaxNeighbors + 8);
    std::vector<Line*> outs(8 * kMaxNeighbors + 8);
    std::vector<int> obstacleLines, counts;
    std::vector<const std::int32_t*> from;
    std::vector<Line*> to;
    for (int w = 0; w < walkers; ++w) {
      who.push_back(w);
      obstacleLines.push_back(w % 4);
      counts.push_back(static_cast<int>(neighbors[w].size()));
      from.push_back(neighbors[w].data());
      to.push_back(lines[w].data() + obstacleLines[w]);
    }
    // Every fourth batch packed: its lines in pair order into one array
    // (queued without outs, which stay untouched), else each to its walker's.
    const bool packedMode = batches % 4 == 1;
    std::vector<Line> packed(8 * kMaxNeighbors + 8, marker);
    std::vector<Line*> untouched(outs.size(), nullptr);
    if (packedMode) outs.assign(outs.size(), nullptr);
    const int pairs = queueBatchPairs(walkers, from.data(), counts.data(), packedMode ? nullptr : to.data(),
                                  walkerOf.data(), others.data(), packedMode ? nullptr : outs.data());
    CHECK(pairs == std::accumulate(counts.begin(), counts.end(), 0));
    Line spare = marker;
    if (!packedMode)
      for (int m = pairs; m % 8 != 0; ++m) outs[m] = &spare;
    packedSeen += packedMode;
    if (packedMode) CHECK(outs == untouched);
    // Wishes near and past the walkers' speeds (1), and at rest, for the
    // programs' starts; odd batches build the lines alone.
    std::vector<Vec2> wishes, starts(walkers, Vec2{-9, -9});
    std::vector<float> speeds(walkers, 1.0f);
    for (int w = 0; w < walkers; ++w)
      wishes.push_back(w == 3 ? Vec2{} : Vec2{1.5f * rng.unit(), 1.5f * rng.unit()});
    const bool withStarts = batches % 3 != 0;
    // Every other batch: the odd walkers' lists, at a range that keeps about
    // a fifth of their pairs (their distances up to 20 and more).
    const unsigned unfiltered = batches % 2 == 0 ? 0xAAu & ((1u << walkers) - 1u) : 0u;
    const float rangeSq = 100.0f;
    std::vector<std::uint8_t> inRange((pairs + 7) / 8, 0x5a);
    const unsigned broken =
        batchAgentLines(a, who.data(), walkers, walkerOf.data(), others.data(), pairs, 0.1f + 0.05f * (batches % 5),
                        batches % 2 ? 4.0f : 60.0f, packedMode ? nullptr : outs.data(),
                        withStarts ? wishes.data() : nullptr, speeds.data(), starts.data(),
                        packedMode ? packed.data() : nullptr, unfiltered, rangeSq, inRange.data());
    for (int w = 0, at = 0; w < walkers; at += static_cast<int>(neighbors[w++].size())) {
      const int count = static_cast<int>(neighbors[w].size());
      Line one[kMaxNeighbors];
      agentLines(a, w, neighbors[w].data(), count, 0.1f + 0.05f * (batches % 5), batches % 2 ? 4.0f : 60.0f, one);
      for (int k = 0; k < kMaxLines; ++k) {
        const int agentLine = k - obstacleLines[w];
        const bool built = agentLine >= 0 && agentLine < count && !packedMode;
        mismatches += !sameBits(lines[w][k], built ? one[agentLine] : marker);
        linesChecked += built;
      }
      for (int k = 0; packedMode && k < count; ++k) {
        mismatches += !sameBits(packed[static_cast<std::size_t>(at + k)], one[k]);
        ++linesChecked;
      }
      // A listing walker's pairs count only in range.
      std::vector<bool> counts(count, true);
      const bool listing = (unfiltered >> w & 1u) != 0;
      for (int m = 0; m < count && unfiltered != 0; ++m) {
        counts[m] = !listing || floatBits(distSqAt(a, Vec2{px[w], py[w]}, neighbors[w][m])) < floatBits(rangeSq);
        const int pair = at + m;
        wrongInRange += ((inRange[pair / 8] >> (pair % 8) & 1) != 0) != counts[m];
        listedIn += listing && counts[m];
        listedOut += listing && !counts[m];
      }
      const bool flagged = (broken >> w & 1u) != 0;
      if (!withStarts) {
        wrongStarts += !flagged;  // every walker's program runs
        continue;
      }
      // The start is linearProgram2's, bit for bit; the walker is flagged
      // when its start breaks one of its agent lines (as the program tests
      // it), and otherwise only for a pair on one spot (built one at a time).
      const Vec2 start = withinSpeed(wishes[w], speeds[w]);
      wrongStarts += std::memcmp(&start, &starts[w], sizeof start) != 0;
      bool breaks = false, sharesSpot = false, breaksOutOfRange = false;
      for (int m = 0; m < count; ++m) {
        const bool breaksThis = det(one[m].direction, one[m].point - start) > 0.0f;
        breaks |= counts[m] && breaksThis;
        breaksOutOfRange |= !counts[m] && breaksThis;
        const float dx = px[neighbors[w][m]] - px[w], dy = py[neighbors[w][m]] - py[w];
        sharesSpot |= counts[m] && dx * dx + dy * dy <= 1e-11f;
      }
      wrongFlags += breaks ? !flagged : flagged && !sharesSpot;
      freedByRange += !breaks && breaksOutOfRange;
      brokenSeen += breaks;
      freeSeen += !flagged;
    }
  }
  CHECK(mismatches == 0);
  CHECK(linesChecked == static_cast<int>(pool.size()));
  CHECK(batches > 50);
  CHECK(partial > 100);
  CHECK(wrongStarts == 0);
  CHECK(packedSeen > 10);
  CHECK(wrongFlags == 0);
  CHECK(brokenSeen > 20);
  CHECK(freeSeen > 20);
  CHECK(wrongInRange == 0);
  CHECK(listedIn > 100);
  CHECK(listedOut > 100);
  CHECK(freedByRange > 5);  // free only because their breaking pairs are out of range
}

TEST_CASE("projectLinesInLanes gives projectLines' lines bit for bit") {
  // Lines through random points with random unit directions, among them
  // copies of line i's direction (parallel, same way: dropped), its
  // reverse (parallel, opposite: the midpoint), near misses of both within
  // kOrcaEpsilon, and line i itself (a zero-length difference).
  Rng rng{99};
  int cases = 0, dropped = 0, mismatches = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const int i = trial % (kMaxLines - 1) + 1;  // 1 .. kMaxLines - 1 lines before it
    Line lines[kMaxLines];
    const Vec2 dirI = hashedDirection(rng.h = mix64(rng.h));
    for (int j = 0; j <= i; ++j) {
      Vec2 dir = hashedDirection(rng.h = mix64(rng.h));
      const float kind = rng.unit();
      if (j == i) dir = dirI;
      else if (kind > 0.8f) dir = dirI;
      else if (kind > 0.6f) dir = -dirI;
      else if (kind > 0.5f) dir = (dirI + perpLeft(dirI) * 4e-6f * rng.unit()).normalized();
      else if (kind > 0.4f) dir = (-dirI + perpLeft(dirI) * 4e-6f * rng.unit()).normalized();
      lines[j] = {{5 * rng.unit(), 5 * rng.unit()}, dir};
    }
    if (trial % 7 == 0) lines[i / 2] = lines[i];
    const int from = trial % 5 == 0 ? i / 3 : 0;
    Line one[kMaxLines + 8], lanes[kMaxLines + 8];
    const int n = projectLines(lines, from, i, lines[i], one);
    const int m = projectLinesInLanes(lines, from, i, lines[i], lanes);
    REQUIRE(m == n);
    ++cases;
    dropped += i - from - n;
    for (int k = 0; k < n; ++k) mismatches += !sameBits(one[k], lanes[k]);
  }
  CHECK(mismatches == 0);
  CHECK(dropped > 100);  // the same-way case was reached
  CHECK(cases == 4000);
}

TEST_CASE("leanTowardWishInLanes gives leanTowardWish's velocity bit for bit") {
  Rng rng{5};
  int mismatches = 0, moved = 0, slid = 0, blocked = 0;
  for (int trial = 0; trial < 6000; ++trial) {
    const int count = trial % kMaxLines + 1;
    const int obstacles = trial % 3 == 0 ? count / 3 : 0;
    Line lines[kMaxLines];
    for (int i = 0; i < count; ++i) {
      lines[i] = {{2 * rng.unit(), 2 * rng.unit()}, hashedDirection(rng.h = mix64(rng.h))};
      // Ties: lines repeated (equal stops; the first must block), and
      // lines through the start (stops of zero, of either sign).
      if (trial % 5 == 0 && i > 0) lines[i] = lines[i - 1];
      if (trial % 7 == 0 && i % 2 == 0) lines[i].point = {};
    }
    const float radius = 2.0f;
    Vec2 start{rng.unit(), rng.unit()};
    if (trial % 7 == 0) start = {};
    const Vec2 wish{3 * rng.unit(), 3 * rng.unit()};
    const float deepest = trial % 4 == 0 ? 0.0f : 0.3f * (rng.unit() + 1);
    Vec2 one = start, eight = start;
    leanTowardWish(lines, count, obstacles, radius, wish, deepest, one);
    leanTowardWishInLanes(lines, count, obstacles, radius, wish, deepest, eight);
    if (std::memcmp(&one, &eight, sizeof one) != 0 && ++mismatches <= 5)
      MESSAGE("trial " << trial << ": (" << one.x << ", " << one.y << ") against (" << eight.x << ", " << eight.y
                       << ")");
    moved += !(one == start);
    blocked += !(one == start) && !(one == withinSpeed(wish, radius));
    // A slide: not on the straight way from the start to the wish.
    const Vec2 to = withinSpeed(wish, radius) - start, got = one - start;
    slid += std::fabs(det(to, got)) > 1e-4f;
  }
  CHECK(mismatches == 0);
  CHECK(moved > 1000);  // the cases lean, are stopped by a line, and slide along it
  CHECK(blocked > 500);
  CHECK(slid > 200);
}

namespace {
/// `count` lines for a walker's linear program, as the lanes tests of the
/// programs draw them (the kinds by trial number): crossing near a speed
/// circle of about 2, repeated, opposite, through the origin, zero, NaN.
void programLines(Rng& rng, int trial, int count, Line* out) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (int i = 0; i < count; ++i) {
    Line& l = out[i];
    l = {{2 * rng.unit(), 2 * rng.unit()}, hashedDirection(rng.h = mix64(rng.h))};
    if (trial % 5 == 0 && i > 0) l = out[i - 1];                                // repeated
    if (trial % 6 == 0 && i > 0) l.direction = -out[i - 1].direction;           // opposite
    if (trial % 7 == 0 && i % 2 == 0) l.point = {};                             // through the origin
    if (trial % 11 == 0 && i % 3 == 0) l = {};                                  // zero
    if (trial % 13 == 0 && i == count / 2) l.point = {3 * rng.unit(), nan};     // NaN
  }
}

/// A batch of up to eight walkers' programs as the programs' lanes tests
/// draw them: the `counted`-th line count in turn, programLines' lines,
/// obstacle lines first in a third of the trials, top speeds from 0 (a
/// standstill) to 2.
struct ProgramBatch {
  Line storage[8][kMaxLines];
  const Line* lines[8];
  int counts[8], obstacles[8];
  float radius[8];

  void draw(Rng& rng, int trial, int& counted, int w) {
    const int count = counted++ % (kMaxLines + 1);
    programLines(rng, trial, count, storage[w]);
    lines[w] = storage[w];
    counts[w] = count;
    obstacles[w] = trial % 3 == 0 ? count / 3 : 0;
    radius[w] = trial % 10 == 0 ? 0.0f : 0.5f + 1.5f * (rng.unit() + 1) / 2;  // 0: a standstill
  }
  /// draw, made mostly feasible in a quarter of the trials (the lines
  /// nearer the origin), then walker w's wish: inside and beyond the speed
  /// limit, and zero.
  Vec2 drawWithWish(Rng& rng, int trial, int& counted, int w) {
    draw(rng, trial, counted, w);
    if (trial % 4 == 0) {
      for (int i = 0; i < counts[w]; ++i) storage[w][i].point = storage[w][i].point * 0.25f;
    }
    return trial % 9 == 0 ? Vec2{} : Vec2{3 * rng.unit(), 3 * rng.unit()};
  }
};
}  // namespace

TEST_CASE("batchLinearPrograms gives each walker linearProgram2's and linearProgram3's results bit for bit") {
  // Batches of one to eight walkers with every line count from none to
  // kMaxLines: lines crossing near the speed circle (so results move onto
  // them, and some programs are infeasible), lines missing the circle,
  // parallel and repeated lines (linearProgram1's excluded and empty
  // cases), lines through the origin, zero lines, and a few NaN points;
  // top speeds from 0 (a standstill) to 2; wishes inside and beyond the
  // speed limit, and zero; some with obstacle lines first. A walker the
  // second stage leaves jammed goes through the third from where it stopped.
  Rng rng{29};
  int mismatches = 0, feasible = 0, infeasible = 0, moved = 0;
  int counted = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const int walkers = trial % 8 + 1;
    ProgramBatch batch;
    const Line* const* lines = batch.lines;
    const int *counts = batch.counts, *obstacles = batch.obstacles;
    const float* radius = batch.radius;
    Vec2 wish[8];
    for (int w = 0; w < walkers; ++w) wish[w] = batch.drawWithWish(rng, trial, counted, w);
    Vec2 eight[8];
    int fails[8];
    float deepest8[8];
    batchLinearPrograms(lines, counts, obstacles, radius, wish, walkers, eight, fails, deepest8);
    for (int w = 0; w < walkers; ++w) {
      Vec2 one;
      const int fail = linearProgram2(lines[w], counts[w], radius[w], wish[w], false, one);
      moved += !(one == withinSpeed(wish[w], radius[w]));
      const float deepest1 =
          fail < counts[w] ? linearProgram3(lines[w], counts[w], obstacles[w], fail, radius[w], one) : 0.0f;
      if ((fail != fails[w] || std::memcmp(&one, &eight[w], sizeof one) != 0 ||
           std::memcmp(&deepest1, &deepest8[w], sizeof deepest1) != 0) &&
          ++mismatches <= 5)
        MESSAGE("trial " << trial << " walker " << w << ": line " << fail << " (" << one.x << ", " << one.y << ") "
                         << deepest1 << " against line " << fails[w] << " (" << eight[w].x << ", " << eight[w].y
                         << ") " << deepest8[w]);
      feasible += fail == counts[w];
      infeasible += fail < counts[w];
    }
  }
  CHECK(mismatches == 0);
  CHECK(feasible > 2000);  // every kind of outcome is reached
  CHECK(infeasible > 2000);
  CHECK(moved > 2000);
}

TEST_CASE("batchSolveVelocities gives each walker solveVelocity's velocity and verdict bit for bit") {
  // Batches of one to eight walkers, as batchLinearPrograms's test draws them,
  // most of them jammed: their lean toward the wish (leanTowardWish) runs
  // eight walkers' lines at a time, each lane blocked by its own line and
  // sliding along it, or not, beside lanes that are not jammed at all.
  Rng rng{41};
  int mismatches = 0, jammed = 0, leaned = 0, slid = 0, free = 0;
  int counted = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const int walkers = trial % 8 + 1;
    ProgramBatch batch;
    Vec2 wish[8];
    for (int w = 0; w < walkers; ++w) wish[w] = batch.drawWithWish(rng, trial, counted, w);
    Vec2 eight[8];
    const unsigned jammed8 = batchSolveVelocities(batch.lines, batch.counts, batch.obstacles, batch.radius, wish, walkers,
                                              eight);
    for (int w = 0; w < walkers; ++w) {
      const Line* lines = batch.lines[w];
      const int count = batch.counts[w], obstacles = batch.obstacles[w];
      const float radius = batch.radius[w];
      Vec2 one;
      const bool feasible = solveVelocity(lines, count, obstacles, radius, wish[w], one);
      const bool feasible8 = (jammed8 >> w & 1u) == 0;
      if ((feasible != feasible8 || std::memcmp(&one, &eight[w], sizeof one) != 0) && ++mismatches <= 5)
        MESSAGE("trial " << trial << " walker " << w << ": " << feasible << " (" << one.x << ", " << one.y
                         << ") against " << feasible8 << " (" << eight[w].x << ", " << eight[w].y << ")");
      free += feasible;
      if (feasible) continue;
      ++jammed;
      // Where linearProgram3 left it, and where the lean took it from there.
      Vec2 least;
      const int fail = linearProgram2(lines, count, radius, wish[w], false, least);
      linearProgram3(lines, count, obstacles, fail, radius, least);
      leaned += !(one == least);
      const Vec2 to = withinSpeed(wish[w], radius) - least, got = one - least;
      slid += std::fabs(det(to, got)) > 1e-4f;  // off the straight way to the wish
    }
  }
  CHECK(mismatches == 0);
  CHECK(free > 2000);  // every kind of outcome is reached
  CHECK(jammed > 2000);
  CHECK(leaned > 1000);
  CHECK(slid > 200);
}

TEST_CASE("batchLinearProgram3 gives each walker linearProgram3's velocity and deepest penetration bit for bit") {
  // Batches of one to eight walkers, as batchLinearPrograms's test draws them,
  // some with obstacle lines first; each starts where linearProgram2 left
  // it (most are infeasible) or, for some, from any line and any velocity
  // (before or among the obstacle lines too), and a few not at all.
  Rng rng{37};
  int mismatches = 0, ran = 0, moved = 0, skipped = 0;
  int counted = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const int walkers = trial % 8 + 1;
    ProgramBatch batch;
    const Line* const* lines = batch.lines;
    const int *counts = batch.counts, *obstacles = batch.obstacles;
    const float* radius = batch.radius;
    int begin[8];
    Vec2 start[8];
    for (int w = 0; w < walkers; ++w) {
      batch.draw(rng, trial, counted, w);
      const int count = counts[w];
      const Vec2 wish{3 * rng.unit(), 3 * rng.unit()};
      begin[w] = linearProgram2(lines[w], count, radius[w], wish, false, start[w]);
      if (trial % 4 == 1 && count > 0) {  // any start
        begin[w] = static_cast<int>((rng.h = mix64(rng.h)) % static_cast<std::uint64_t>(count));
        start[w] = {2 * rng.unit(), 2 * rng.unit()};
      }
      if (trial % 17 == 0) begin[w] = count;  // not jammed: left as it is
    }
    Vec2 eight[8];
    float deepest8[8];
    std::copy(start, start + walkers, eight);
    batchLinearProgram3(lines, counts, obstacles, begin, radius, walkers, eight, deepest8);
    for (int w = 0; w < walkers; ++w) {
      if (begin[w] >= counts[w]) {
        skipped += std::memcmp(&start[w], &eight[w], sizeof(Vec2)) == 0;
        continue;
      }
      Vec2 one = start[w];
      const float deepest1 = linearProgram3(lines[w], counts[w], obstacles[w], begin[w], radius[w], one);
      if ((std::memcmp(&one, &eight[w], sizeof one) != 0 || std::memcmp(&deepest1, &deepest8[w], 4) != 0) &&
          ++mismatches <= 5)
        MESSAGE("trial " << trial << " walker " << w << ": (" << one.x << ", " << one.y << ") " << deepest1
                         << " against (" << eight[w].x << ", " << eight[w].y << ") " << deepest8[w]);
      ++ran;
      moved += !(one == start[w]);
    }
  }
  CHECK(mismatches == 0);
  CHECK(ran > 8000);  // the third stage ran, moved most walkers, and left the rest
  CHECK(moved > 5000);
  CHECK(skipped > 100);
}

TEST_CASE("gatherNearInLanes gives gatherNear's keys, in its order, and overflows where it does") {
  // A lattice clump (ties in x and in distance) in a sparse field, a few
  // agents at NaN (which break a row's order by x) and far out; every
  // walker's window at radii from inside a cell to past the grid, the
  // grid's last slots (read masked) among them.
  Rng rng{17};
  World w;
  const int n = 700;
  w.resize(n);
  for (int i = 0; i < n; ++i) {
    const bool clump = i % 3 != 0;
    w.px[i] = clump ? 30 + 0.5f * std::floor(20 * (rng.unit() + 1)) : 100 * rng.unit();
    w.py[i] = clump ? 30 + 0.5f * std::floor(20 * (rng.unit() + 1)) : 100 * rng.unit();
  }
  w.px[5] = std::numeric_limits<float>::quiet_NaN();
  w.py[8] = std::numeric_limits<float>::quiet_NaN();
  w.px[11] = 1e6f;
  Settings s;
  s.perceptionRadius = 4;
  s.maxNeighbors = 4;
  test::buildGrid(w, s);
  const AgentGridView g = w.scratch.grid.view();
  int mismatches = 0, overflows = 0, found = 0, lastSlots = 0;
  std::uint64_t one[n], eight[n];
  for (float r : {0.3f, 1.0f, 4.0f, 9.0f, 60.0f, INFINITY}) {
    for (int slot = 0; slot < n; ++slot) {
      const std::int32_t i = g.sortedIndex[slot];
      const Vec2 p{w.px[i], w.py[i]};
      for (int capacity : {n, 32, 3}) {
        const int c1 = gatherNear(g, p, i, r, one, capacity);
        const int c8 = gatherNearInLanes(g, p, i, r, eight, capacity);
        const bool same = c1 == c8 && (c1 < 0 || std::equal(one, one + c1, eight));
        mismatches += !same;
        overflows += c1 < 0;
        found += c1 > 0 ? c1 : 0;
        lastSlots += same && slot >= n - 8 && c1 > 0;
      }
    }
  }
  CHECK(mismatches == 0);
  CHECK(overflows > 1000);
  CHECK(found > 100000);
  CHECK(lastSlots > 0);
}

TEST_CASE("goalWishesBatch gives goalWish's wish and landing bit for bit") {
  Rng rng{23};
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  int mismatches = 0, landed = 0, eased = 0, stopped = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    float px[8], py[8], gx[8], gy[8], pref[8], top[8];
    for (int l = 0; l < 8; ++l) {
      const float scale = (trial % 4 == 0) ? 0.01f : (trial % 4 == 1 ? 1.0f : 100.0f);
      px[l] = 50 * rng.unit();
      py[l] = 50 * rng.unit();
      gx[l] = px[l] + scale * rng.unit();
      gy[l] = py[l] + scale * rng.unit();
      top[l] = 2 * (rng.unit() + 1);
      pref[l] = (l % 3 == 0) ? top[l] * (rng.unit() + 1) : top[l] * 0.5f * (rng.unit() + 1);
      // Edge lanes: at the goal, a NaN or infinite goal, a speed of zero,
      // below zero or NaN, a denormal step, the last step just in reach.
      switch ((trial + l) % 13) {
        case 0: gx[l] = px[l]; gy[l] = py[l]; break;
        case 1: gx[l] = nan; break;
        case 2: gy[l] = inf; break;
        case 3: pref[l] = 0; break;
        case 4: pref[l] = -1; break;
        case 5: pref[l] = nan; break;
        case 6: gx[l] = px[l] + 1e-30f; break;
        case 7: gx[l] = px[l] + top[l] * 0.25f; gy[l] = py[l]; pref[l] = top[l]; break;
        default: break;
      }
    }
    const float slowing = trial % 3 == 0 ? 0.0f : 2 * (rng.unit() + 1);
    const float dt = trial % 5 == 0 ? 0.25f : 1.0f / 60;
    float wx[8], wy[8];
    std::uint8_t lands[8];
    goalWishesBatch(px, py, gx, gy, pref, top, slowing, dt, wx, wy, lands);
    for (int l = 0; l < 8; ++l) {
      bool one;
      const Vec2 w = goalWish({px[l], py[l]}, {gx[l], gy[l]}, cruiseSpeed(pref[l], top[l]), slowing, dt, one);
      const bool same = std::memcmp(&w.x, &wx[l], 4) == 0 && std::memcmp(&w.y, &wy[l], 4) == 0 &&
                        lands[l] == (one ? 1 : 0);
      if (!same && ++mismatches <= 5)
        MESSAGE("trial " << trial << " lane " << l << ": (" << w.x << ", " << w.y << ") against (" << wx[l] << ", "
                         << wy[l] << ")");
      landed += one;
      const float dist = (Vec2{gx[l], gy[l]} - Vec2{px[l], py[l]}).length();
      eased += !one && slowing > 0 && dist < slowing;
      stopped += w.x == 0 && w.y == 0;
    }
  }
  CHECK(mismatches == 0);
  CHECK(landed > 1000);  // every branch is reached
  CHECK(eased > 1000);
  CHECK(stopped > 1000);
}

TEST_CASE("trackMotionBatch gives trackMotionOneByOne's records, positions and largest move") {
  Rng rng{31};
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  int mismatches = 0, nans = 0, fromTail = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const std::size_t count = static_cast<std::size_t>(trial % 41);
    std::vector<float> px(count), py(count), vx(count), vy(count), r(count), lx(count), ly(count);
    for (std::size_t i = 0; i < count; ++i) {
      px[i] = 100 * rng.unit();
      py[i] = 100 * rng.unit();
      // Moves of every size, down to those that round off in float squares.
      const float scale = std::ldexp(1.0f, -static_cast<int>(i % 70));
      lx[i] = px[i] - scale * rng.unit();
      ly[i] = py[i] - scale * rng.unit();
      vx[i] = rng.unit();
      vy[i] = rng.unit();
      r[i] = rng.unit() + 1;
    }
    if (count > 0 && trial % 7 == 0) px[trial % count] = nan;
    if (count > 0 && trial % 11 == 0) ly[trial % count] = inf;
    // The largest move in the tail past the last group of eight, sometimes.
    if (count % 8 != 0 && trial % 3 == 0) px[count - 1] += 1000;
    std::vector<float> lx1 = lx, ly1 = ly, lx8 = lx, ly8 = ly;
    std::vector<AgentKin> kin1(count), kin8(count);
    for (auto& k : kin8) k.unused[1] = 7;  // every byte must be written
    const double one = trackMotionOneByOne(px.data(), py.data(), vx.data(), vy.data(), r.data(), lx1.data(),
                                           ly1.data(), kin1.data(), count);
    const double eight = trackMotionBatch(px.data(), py.data(), vx.data(), vy.data(), r.data(), lx8.data(), ly8.data(),
                                      kin8.data(), count);
    const bool same = (one == eight || (one != one && eight != eight)) &&
                      (count == 0 || (std::memcmp(lx1.data(), lx8.data(), count * 4) == 0 &&
                      std::memcmp(ly1.data(), ly8.data(), count * 4) == 0 &&
                      std::memcmp(kin1.data(), kin8.data(), count * sizeof(AgentKin)) == 0));
    if (!same && ++mismatches <= 5) MESSAGE("trial " << trial << ": " << one << " against " << eight);
    nans += one != one;
    fromTail += count % 8 != 0 && trial % 3 == 0 && one == one;
  }
  CHECK(mismatches == 0);
  CHECK(nans > 200);
  CHECK(fromTail > 200);
}

TEST_CASE("trackMotionBatch tiles and boxes the moves as trackMotionOneByOne does") {
  Rng rng{37};
  const float nan = std::numeric_limits<float>::quiet_NaN();
  int mismatches = 0, wrongBoxes = 0, oneTile = 0, mixed = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const std::size_t count = static_cast<std::size_t>(trial % 45);
    // Tiles 10 wide over [0, 100)^2; clustered groups of eight share one
    // (the lanes' shortcut), scattered ones do not, and some start outside.
    float side;
    const TileShape shape = tilesOver(0, 0, 100, 100, 10, side);
    std::vector<float> px(count), py(count), vx(count), vy(count), r(count), lx(count), ly(count);
    const bool clustered = trial % 2 == 0;
    for (std::size_t i = 0; i < count; ++i) {
      const float cx = clustered ? 10.0f * static_cast<float>(i / 8 % 10) + 5 : 50, spread = clustered ? 4.0f : 70.0f;
      lx[i] = cx + spread * rng.unit();
      ly[i] = cx + spread * rng.unit();
      px[i] = lx[i] + rng.unit();
      py[i] = ly[i] + rng.unit();
      vx[i] = rng.unit();
      vy[i] = rng.unit();
      r[i] = rng.unit() + 1;
    }
    if (count > 0 && trial % 13 == 0) lx[trial % count] = nan;  // its tile is the first
    std::vector<float> lx1 = lx, ly1 = ly, lx8 = lx, ly8 = ly;
    std::vector<AgentKin> kin1(count), kin8(count);
    const std::size_t tiles = static_cast<std::size_t>(shape.cols * shape.rows);
    std::vector<float> box1(4 * tiles, -std::numeric_limits<float>::infinity()), box8 = box1, brute = box1;
    const TileBoxes t1{shape, box1.data()}, t8{shape, box8.data()};
    trackMotionOneByOne(px.data(), py.data(), vx.data(), vy.data(), r.data(), lx1.data(), ly1.data(), kin1.data(),
                        count, &t1);
    trackMotionBatch(px.data(), py.data(), vx.data(), vy.data(), r.data(), lx8.data(), ly8.data(), kin8.data(), count,
                 &t8);
    // (A NaN move may leave a box another NaN or none: the step then
    // forgets every list.)
    bool same = trial % 13 == 0 || std::memcmp(box1.data(), box8.data(), box1.size() * 4) == 0;
    for (std::size_t i = 0; i < count; ++i) {
      same = same && std::memcmp(&kin1[i], &kin8[i], sizeof(AgentKin)) == 0;
      // The box of the tile each started in, by brute force.
      const std::int32_t k = tileOf(shape, lx[i], ly[i]);
      const float dx = px[i] - lx[i], dy = py[i] - ly[i];
      float* b = &brute[4 * static_cast<std::size_t>(k)];
      b[0] = std::max(b[0], -dx);
      b[1] = std::max(b[1], dx);
      b[2] = std::max(b[2], -dy);
      b[3] = std::max(b[3], dy);
      wrongBoxes += kin1[i].tile != k;
    }
    if (trial % 13 != 0) wrongBoxes += std::memcmp(box1.data(), brute.data(), box1.size() * 4) != 0;
    for (std::size_t g = 0; g + 8 <= count; g += 8) {
      bool one = true;
      for (std::size_t i = g; i < g + 8; ++i) one = one && kin1[i].tile == kin1[g].tile;
      (one ? oneTile : mixed) += 1;
    }
    if (!same && ++mismatches <= 5) MESSAGE("trial " << trial);
  }
  CHECK(mismatches == 0);
  CHECK(wrongBoxes == 0);
  CHECK(oneTile > 1000);  // both of the lanes' paths
  CHECK(mixed > 1000);
}

TEST_CASE("points nearer than a tiling's side land in tiles at most one apart, in the lanes too") {
  Rng rng{43};
  int far = 0, tried = 0, atEdges = 0, lanesChecked = 0;
  for (int trial = 0; trial < 400; ++trial) {
    // Bounds from a few units to millions, far from the origin or not;
    // widths from a fraction of the bounds to 2^20 columns.
    const float scale = std::ldexp(1.0f, trial % 24);
    const float minX = (trial % 3 == 0 ? 1e7f : 1.0f) * rng.unit(), minY = scale * rng.unit();
    // Many columns and a few rows, or the other way round (tile indices
    // fit an int32).
    const double across = scale * (rng.unit() + 1.5);
    const double width = across / std::ldexp(1.0, trial % 21) * (1 + 0.3 * (rng.unit() + 1));
    const double thin = width * 3 * (rng.unit() + 1);
    const double w = trial % 2 ? across : thin, h = trial % 2 ? thin : across;
    float side;
    const TileShape shape = tilesOver(minX, minY, w, h, width, side);
    REQUIRE(side > 0);
    REQUIRE(side < width);
    REQUIRE(shape.cols <= (1 << 20) + 1);
    REQUIRE(shape.rows <= (1 << 20) + 1);
    std::vector<float> ax(64), ay(64), bx(64), by(64);
    for (int i = 0; i < 64; ++i) {
      // One point at or near a tile edge (or beyond the bounds), the other
      // just under `side` away in x and y, either way.
      const float edgeX = minX + static_cast<float>(width * std::floor((rng.unit() + 1) * 0.6 * shape.cols));
      const float edgeY = minY + static_cast<float>(width * std::floor((rng.unit() + 1) * 0.6 * shape.rows));
      const float jitter = static_cast<float>(width) * std::ldexp(rng.unit(), -(i % 30));
      ax[i] = edgeX + jitter;
      ay[i] = edgeY - jitter;
      const float towards = i % 2 ? 1.0f : -1.0f;
      bx[i] = ax[i] + towards * side * (1 - std::ldexp(1.0f, -23));
      by[i] = ay[i] - towards * side * (1 - std::ldexp(1.0f, -23));
    }
    // Tiles from tileOf and from the lanes (trackMotionBatch's records) where
    // the boxes fit in memory.
    const std::size_t tiles = static_cast<std::size_t>(shape.cols) * static_cast<std::size_t>(shape.rows);
    const bool lanes = tiles < (1u << 22);
    std::vector<AgentKin> ka(64), kb(64);
    std::vector<float> zero(64), box(lanes ? 4 * tiles : 0, -std::numeric_limits<float>::infinity());
    const TileBoxes t{shape, box.data()};
    std::vector<float> a1 = ax, a2 = ay, b1 = bx, b2 = by;
    if (lanes) {
      trackMotionBatch(ax.data(), ay.data(), zero.data(), zero.data(), zero.data(), a1.data(), a2.data(), ka.data(), 64,
                   &t);
      trackMotionBatch(bx.data(), by.data(), zero.data(), zero.data(), zero.data(), b1.data(), b2.data(), kb.data(), 64,
                   &t);
      lanesChecked += 64;
    }
    for (int i = 0; i < 64; ++i) {
      const double apartX = std::fabs(static_cast<double>(bx[i]) - ax[i]);
      const double apartY = std::fabs(static_cast<double>(by[i]) - ay[i]);
      if (!(apartX < side && apartY < side)) continue;  // rounded to `side` or past it
      ++tried;
      const std::int32_t ta = tileOf(shape, ax[i], ay[i]), tb = tileOf(shape, bx[i], by[i]);
      const bool near =
          std::abs(ta % shape.cols - tb % shape.cols) <= 1 && std::abs(ta / shape.cols - tb / shape.cols) <= 1;
      far += !near || (lanes && (ka[i].tile != ta || kb[i].tile != tb));
      atEdges += ta != tb;
    }
  }
  CHECK(far == 0);
  CHECK(tried > 8000);
  CHECK(atEdges > 5000);
  CHECK(lanesChecked > 10000);
}

TEST_CASE("integrateBatch moves, lands and counts as integrateAt does, walker by walker") {
  Rng rng{41};
  const float nan = std::numeric_limits<float>::quiet_NaN();
  int mismatches = 0, landed = 0, arrivedTotal = 0, jammedTotal = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const int n = 24;  // three groups
    std::vector<float> px(n), py(n), gx(n), gy(n), wishX(n), wishY(n), nvx(n), nvy(n);
    std::vector<std::uint8_t> hasGoal(n), landing(n), njammed(n);
    const float dt = trial % 2 ? 0.25f : 1.0f / 60;
    for (int i = 0; i < n; ++i) {
      px[i] = 10 * rng.unit();
      py[i] = 10 * rng.unit();
      gx[i] = 10 * rng.unit();
      gy[i] = 10 * rng.unit();
      hasGoal[i] = (i + trial) % 5 != 0;
      nvx[i] = rng.unit();
      nvy[i] = rng.unit();
      njammed[i] = (i + trial) % 3 == 0;
      wishX[i] = rng.unit();
      wishY[i] = rng.unit();
      landing[i] = (i + trial) % 2;
      switch ((i + trial) % 7) {
        case 0: wishX[i] = nvx[i]; wishY[i] = nvy[i]; break;  // nobody in the way: it lands
        case 1: wishX[i] = nvx[i]; break;                     // half the way: it does not
        case 2: gx[i] = px[i] + nvx[i] * dt; gy[i] = py[i] + nvy[i] * dt; break;  // on the goal by moving
        case 3: nvx[i] = nan; break;
        default: break;
      }
    }
    std::vector<float> px1 = px, py1 = py, vx1(n), vy1(n), px8 = px, py8 = py, vx8(n), vy8(n);
    std::vector<std::uint8_t> jam1(n), jam8(n);
    std::vector<std::int32_t> route(n, -1), gate1(n), gate8(n);
    const std::int32_t routeStart[2] = {0, 0};  // (no route: never read past the first)
    WorldView w;
    w.gx = gx.data(); w.gy = gy.data(); w.hasGoal = hasGoal.data(); w.route = route.data();
    w.routeStart = routeStart;
    const StepOutputs o{wishX.data(), wishY.data(), landing.data(), nvx.data(), nvy.data(), njammed.data()};
    const MutableState one{px1.data(), py1.data(), vx1.data(), vy1.data(), jam1.data(), gate1.data()};
    const MutableState eight{px8.data(), py8.data(), vx8.data(), vy8.data(), jam8.data(), gate8.data()};
    std::size_t jamCount = 0, doneCount = 0;
    for (int i = 0; i < n; ++i) {
      const unsigned r = integrateAt(w, one, o, dt, i);
      jamCount += r & 1u;
      doneCount += r >> 1;
    }
    std::size_t jam8Count = 0, done8Count = 0;
    for (std::size_t first = 0; first < static_cast<std::size_t>(n); first += 8) {
      const unsigned counts = integrateBatch(w, eight, o, first, dt);
      jam8Count += counts & 255u;
      done8Count += counts >> 8;
    }
    const bool same = jamCount == jam8Count && doneCount == done8Count &&
                      std::memcmp(px1.data(), px8.data(), n * 4) == 0 &&
                      std::memcmp(py1.data(), py8.data(), n * 4) == 0 &&
                      std::memcmp(vx1.data(), vx8.data(), n * 4) == 0 &&
                      std::memcmp(vy1.data(), vy8.data(), n * 4) == 0 && jam1 == jam8;
    if (!same && ++mismatches <= 5) MESSAGE("trial " << trial);
    for (int i = 0; i < n; ++i) landed += px1[i] == gx[i] && landing[i];
    arrivedTotal += static_cast<int>(doneCount);
    jammedTotal += static_cast<int>(jamCount);
  }
  CHECK(mismatches == 0);
  CHECK(landed > 3000);
  CHECK(arrivedTotal > 6000);
  CHECK(jammedTotal > 20000);
}

int main(int argc, char** argv) {
  if (!lanesAvailable()) {
    std::printf("SKIP: this CPU has no AVX2, so the crowd builds its lines one at a time (agentLine)\n");
    return 77;
  }
  doctest::Context context(argc, argv);
  return context.run();
}

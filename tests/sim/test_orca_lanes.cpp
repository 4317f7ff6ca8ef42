// agentLines8 (orca_lanes.hpp) against agentLine, bit for bit, over random
// and edge cases. Its own program: on a CPU without AVX2 it prints SKIP
// and exits 77, which ctest reports as skipped (the crowd then takes the
// scalar loop, and nothing here applies).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

#include "throng/orca.hpp"
#include "throng/orca_lanes.hpp"

using namespace throng;

namespace {

/// One neighbour's inputs to agentLine.
struct Pair {
  Vec2 relPos, relVel;
  float combinedRadius, commonSq;
  std::uint64_t id;
};

struct Rng {
  std::uint64_t h;
  float unit() { return unitFromBits(h = mix64(h)); }  // [-1, 1)
};

bool sameBits(const Line& a, const Line& b) { return std::memcmp(&a, &b, sizeof a) == 0; }

/// Runs the pairs through both, in groups of up to 32 (every count from 1
/// on, so every partial last group of eight); returns the mismatches.
int compare(Vec2 velocity, const std::vector<Pair>& pairs, float invTau, float invDt) {
  int mismatches = 0;
  std::size_t at = 0;
  for (int count = 1; at < pairs.size(); count = count % kMaxNeighbors + 1) {
    const int n = static_cast<int>(std::min<std::size_t>(count, pairs.size() - at));
    LineInputs in;
    std::uint64_t ids[kMaxNeighbors];
    std::int32_t neighbors[kMaxNeighbors];
    for (int k = 0; k < n; ++k) {
      const Pair& p = pairs[at + k];
      in.relPosX[k] = p.relPos.x;
      in.relPosY[k] = p.relPos.y;
      in.relVelX[k] = p.relVel.x;
      in.relVelY[k] = p.relVel.y;
      in.combinedRadius[k] = p.combinedRadius;
      in.commonSq[k] = p.commonSq;
      ids[k] = p.id;
      neighbors[k] = k;
    }
    Line lanes[kMaxNeighbors];
    agentLines8(velocity, in, n, invTau, invDt, 17, ids, neighbors, lanes);
    for (int k = 0; k < n; ++k) {
      const Pair& p = pairs[at + k];
      const Line one = agentLine(velocity, p.relPos, p.relVel, p.combinedRadius, invTau, invDt, 17, p.id, p.commonSq);
      if (!sameBits(one, lanes[k])) {
        if (++mismatches <= 5)
          MESSAGE("relPos (" << p.relPos.x << ", " << p.relPos.y << ") relVel (" << p.relVel.x << ", " << p.relVel.y
                             << ") r " << p.combinedRadius << ": agentLine point (" << one.point.x << ", "
                             << one.point.y << ") dir (" << one.direction.x << ", " << one.direction.y
                             << "), lanes point (" << lanes[k].point.x << ", " << lanes[k].point.y << ") dir ("
                             << lanes[k].direction.x << ", " << lanes[k].direction.y << ")");
      }
    }
    at += static_cast<std::size_t>(n);
  }
  return mismatches;
}

/// Pairs in every branch of agentLine, built to land on each.
std::vector<Pair> edgeCases(Rng& rng) {
  std::vector<Pair> out;
  for (int i = 0; i < 400; ++i) {
    const float r = 1.0f + 0.5f * rng.unit();
    const Vec2 axis = hashedDirection(rng.h = mix64(rng.h));
    const Vec2 side = perpLeft(axis);
    const float along = rng.unit(), across = rng.unit();
    const float common = 4.0f * (rng.unit() + 1.0f);
    // touching to within 0.1% (the contact rule), and exactly touching
    out.push_back({axis * (r * (0.9995f + 0.0005f * along)), axis * -1.0f + side * across, r, common, 1});
    out.push_back({axis * r, side * across, r, common, 2});
    // overlapping, and coincident (exactly, and within 1e-6 of r)
    out.push_back({axis * (r * (0.5f + 0.4f * along)), axis * across + side, r, common, 3});
    out.push_back({Vec2{}, side * across, r, common, 4 + static_cast<std::uint64_t>(i)});
    out.push_back({axis * (r * 1e-7f), side, r, common, 5});
    // head-on: on a collision course straight at B (relVel along relPos,
    // hitting within the horizon at invTau 1), far (the turn's floor angle)
    // and near (cos r/d above the floor); moving more against each other
    // than together, more together, and exactly as much (a tie turns)
    const float dFar = r * (3.0f + 2.0f * (along + 1.0f)), dNear = r * 1.01f;
    const Vec2 atFar = axis * (dFar * (0.9f + 0.05f * across)), atNear = axis * (dNear * 0.9f) + side * 0.001f;
    out.push_back({axis * dFar, atFar, r, 0.0f, 6});
    out.push_back({axis * dNear, atNear, r, 0.0f, 7});
    out.push_back({axis * dFar, atFar, r, 1e6f, 8});
    out.push_back({axis * dFar, atFar, r, atFar.lengthSquared(), 9});
    // legs: passing beside, each way; the cut-off circle at speed
    out.push_back({axis * dFar, axis * 2.0f + side * (1.5f + across), r, common, 10});
    out.push_back({axis * dFar, axis * 2.0f - side * (1.5f + across), r, common, 11});
    out.push_back({axis * dFar, axis * (0.1f * across), r, common, 12});
    // exactly along an axis (det ties) and a NaN
    out.push_back({Vec2{dFar, 0}, Vec2{0.2f, 0}, r, 0.0f, 13});
    out.push_back({Vec2{0, -dFar}, Vec2{0, -0.2f}, r, 0.0f, 14});
  }
  out.push_back({Vec2{std::numeric_limits<float>::quiet_NaN(), 1}, Vec2{1, 0}, 1, 0, 15});
  return out;
}

}  // namespace

TEST_CASE("agentLines8 gives agentLine's lines bit for bit: random pairs") {
  Rng rng{42};
  for (float invTau : {0.1f, 0.5f, 1.0f, 2.0f}) {
    for (float invDt : {4.0f, 10.0f, 60.0f}) {
      std::vector<Pair> pairs;
      for (int i = 0; i < 3000; ++i) {
        const float scale = i % 3 == 0 ? 2.0f : (i % 3 == 1 ? 20.0f : 200.0f);
        pairs.push_back({Vec2{scale * rng.unit(), scale * rng.unit()}, Vec2{3 * rng.unit(), 3 * rng.unit()},
                         scale * 0.1f * (rng.unit() + 1.2f), 10 * (rng.unit() + 1), static_cast<std::uint64_t>(i)});
      }
      const Vec2 velocity{2 * rng.unit(), 2 * rng.unit()};
      CAPTURE(invTau);
      CAPTURE(invDt);
      CHECK(compare(velocity, pairs, invTau, invDt) == 0);
    }
  }
}

TEST_CASE("agentLines8 gives agentLine's lines bit for bit: every branch") {
  Rng rng{7};
  const std::vector<Pair> pairs = edgeCases(rng);
  for (float invTau : {0.1f, 1.0f}) {
    CAPTURE(invTau);
    CHECK(compare({0.4f, -0.3f}, pairs, invTau, 4.0f) == 0);
    CHECK(compare({}, pairs, invTau, 60.0f) == 0);
  }
  // The cases reach what they are meant to: the head-on turn, the contact
  // rule and the hashed split each give a line other than RVO2's would.
  const Pair& headOn = pairs[5];
  const Line turned = agentLine({}, headOn.relPos, headOn.relVel, headOn.combinedRadius, 1, 4, 0, 1, 0);
  const Line braked = agentLine({}, headOn.relPos, headOn.relVel, headOn.combinedRadius, 1, 4, 0, 1, 1e9f);
  CHECK_FALSE(sameBits(turned, braked));
  const Line split = agentLine({}, pairs[3].relPos, pairs[3].relVel, pairs[3].combinedRadius, 1, 4, 0, 9, 0);
  CHECK(std::isfinite(split.direction.x));
  CHECK(split.direction.lengthSquared() == doctest::Approx(1));
}

TEST_CASE("agentLines8 with no neighbours writes nothing") {
  LineInputs in;
  Line out[8];
  const Line marker{{7, 7}, {0, 1}};
  for (Line& l : out) l = marker;
  agentLines8({1, 0}, in, 0, 1, 60, 0, nullptr, nullptr, out);
  for (const Line& l : out) CHECK(sameBits(l, marker));
}

int main(int argc, char** argv) {
  if (!lineLanesAvailable()) {
    std::printf("SKIP: this CPU has no AVX2, so the crowd builds its lines one at a time (agentLine)\n");
    return 77;
  }
  doctest::Context context(argc, argv);
  return context.run();
}

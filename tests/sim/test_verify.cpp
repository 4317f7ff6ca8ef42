// The separation gate catches what an endpoint check misses.
#include <doctest/doctest.h>

#include <vector>

#include "throng/verify.hpp"

using namespace throng;

TEST_CASE("the gate catches a tunnelling pair that an endpoint check misses") {
  // Two walkers of radius 0.3 swap sides within one step: apart at both ends.
  const std::vector<Vec2> from = {{-1, 0}, {1, 0}}, to = {{1, 0}, {-1, 0}};
  const std::vector<float> r = {0.3f, 0.3f};
  const std::vector<std::uint8_t> jam = {0, 0};
  // The endpoint check passes...
  CHECK((from[0] - from[1]).length() > 0.6f);
  CHECK((to[0] - to[1]).length() > 0.6f);
  // ...the swept gate does not.
  const GateReport rep = checkStep({from, to, r, jam, {}});
  CHECK(rep.minGap == doctest::Approx(-0.6f));
  CHECK(rep.unjammedOverlaps == 1);
  CHECK_FALSE(rep.passed());
}

TEST_CASE("the gate tells an overlap while jammed from one while not") {
  const std::vector<Vec2> from = {{0, 0}, {1, 0}}, to = {{0.25f, 0}, {0.75f, 0}};
  const std::vector<float> r = {0.3f, 0.3f};
  const std::vector<std::uint8_t> jammed = {1, 0}, free = {0, 0};
  const GateReport a = checkStep({from, to, r, jammed, {}});
  CHECK(a.maxOverlap == doctest::Approx(0.1f));
  CHECK(a.unjammedOverlaps == 0);
  CHECK(a.passed());
  const GateReport b = checkStep({from, to, r, free, {}});
  CHECK(b.unjammedOverlaps == 1);
  CHECK(b.minGapUnjammed == doctest::Approx(-0.1f));
}

TEST_CASE("an overlap inherited from a jam and being undone is not a new violation") {
  const std::vector<Vec2> from = {{0, 0}, {0.5f, 0}}, to = {{-0.05f, 0}, {0.55f, 0}};
  const std::vector<float> r = {0.3f, 0.3f};
  const std::vector<std::uint8_t> free = {0, 0};
  const GateReport rep = checkStep({from, to, r, free, {}});
  CHECK(rep.maxOverlap == doctest::Approx(0.1f));
  CHECK(rep.unjammedOverlaps == 0);
}

TEST_CASE("walkers in contact may close to ORCA's contact overlap and no further, apart stays apart") {
  // r_A + r_B = 16: the contact overlap is 0.101% of it, 0.01616.
  const std::vector<float> r = {8, 8};
  const std::vector<std::uint8_t> free = {0, 0};
  const auto gap = [&](float startGap, float endGap) {
    const std::vector<Vec2> from = {{0, 0}, {16 + startGap, 0}}, to = {{0, 0}, {16 + endGap, 0}};
    return checkStep({from, to, r, free, {}});
  };
  CHECK(gap(-0.0100f, -0.0161f).unjammedOverlaps == 0);  // touching, creeping within the bound
  CHECK(gap(-0.0159f, -0.0162f).unjammedOverlaps == 0);
  CHECK(gap(-0.0100f, -0.0200f).unjammedOverlaps == 1);  // past the contact overlap
  CHECK(gap(0.0100f, -0.0050f).unjammedOverlaps == 1);   // apart must stay apart
  CHECK(gap(-0.5000f, -0.4000f).unjammedOverlaps == 0);  // a jam's overlap being undone
  CHECK(gap(-0.5000f, -0.5100f).unjammedOverlaps == 1);  // ... never deepens
}

TEST_CASE("the gate measures intrusion into walls and obstacles, swept") {
  const std::vector<std::vector<Vec2>> walls = {{{0, -5}, {0, 5}}};
  const std::vector<std::vector<Vec2>> boxes = {{{10, -1}, {12, -1}, {12, 1}, {10, 1}}};
  const std::vector<float> r = {0.3f};
  const std::vector<std::uint8_t> jam = {0};
  GateGeometry g{boxes, walls};
  // Jumps across the wall in one step: both ends clear of it.
  const std::vector<Vec2> a0 = {{-1, 0}}, a1 = {{1, 0}};
  CHECK(checkStep({a0, a1, r, jam, {}}, g).maxWallIntrusion == doctest::Approx(0.3f));
  // Ends inside the box.
  const std::vector<Vec2> b0 = {{9, 0}}, b1 = {{11, 0}};
  CHECK(checkStep({b0, b1, r, jam, {}}, g).maxWallIntrusion >= 1.3f - 1e-4f);
  // Walks alongside, clear.
  const std::vector<Vec2> c0 = {{-1, -2}}, c1 = {{-1, 2}};
  CHECK(checkStep({c0, c1, r, jam, {}}, g).maxWallIntrusion == 0.0f);
}

TEST_CASE("sweptDistance finds the mid-step closest approach") {
  CHECK(sweptDistance({-1, 1}, {1, 1}, {1, 0}, {-1, 0}) == doctest::Approx(1));
  CHECK(sweptDistance({0, 0}, {0, 0}, {3, 4}, {3, 4}) == doctest::Approx(5));
}

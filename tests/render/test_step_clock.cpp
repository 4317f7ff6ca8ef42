// The visualizer's fixed-step accumulator (app/viz/step_clock.hpp) and its cache keys (app/viz/cache_key.hpp): pure.
#include <doctest/doctest.h>

#include "viz/cache_key.hpp"
#include "viz/step_clock.hpp"

using throng::app::StepClock;

TEST_CASE("the step clock takes one step per 60 Hz frame at rate 1 and scales with the rate") {
  const double dt = 1.0 / 60;
  StepClock c;
  int total = 0;
  for (int f = 0; f < 600; ++f) total += c.live(1.0 / 60, dt);
  CHECK(total == doctest::Approx(600).epsilon(0.005));
  c.reset();
  c.setRate(8);
  total = 0;
  for (int f = 0; f < 60; ++f) total += c.live(1.0 / 60, dt);
  CHECK(total == doctest::Approx(480).epsilon(0.01));
  c.reset();
  c.setRate(0.25);
  total = 0;
  for (int f = 0; f < 400; ++f) total += c.live(1.0 / 60, dt);
  CHECK(total == doctest::Approx(100).epsilon(0.02));
  // The same sim time whatever the frame rate (decoupled).
  c.reset();
  c.setRate(1);
  total = 0;
  for (int f = 0; f < 144 * 5; ++f) total += c.live(1.0 / 144, dt);
  CHECK(total == doctest::Approx(300).epsilon(0.01));
}

TEST_CASE("the step clock clamps: a stalled frame does not make the sim spiral") {
  StepClock c;
  c.setRate(8);
  const int n = c.live(3.0, 1.0 / 60);  // a 3 s hiccup at x8
  CHECK(n <= c.maxSteps);
  CHECK(c.accumulator <= 1.0 / 60);
  c.setRate(100);
  CHECK(c.rate == StepClock::kMaxRate);
  c.setRate(0);
  CHECK(c.rate == StepClock::kMinRate);
}

TEST_CASE("recorded frames are fixed slices of sim time") {
  StepClock c;
  const double dt = 0.05;  // a scene's 20 Hz step
  int total = 0;
  for (int f = 0; f < 30; ++f) total += c.recorded(30, dt);  // one second of video
  CHECK(total == 20);
  c.reset();
  c.setRate(2);
  total = 0;
  for (int f = 0; f < 60; ++f) total += c.recorded(30, 1.0 / 60);
  CHECK(total == 240);
}

// The app's cache keys (viz/cache_key.hpp): a thing is made again exactly
// when what it is made from changed, or after it was forgotten.
TEST_CASE("a cache key asks for the thing again only when its key changes or it was forgotten") {
  struct Key {
    int step = 0;
    float zoom = 1;
    bool operator==(const Key&) const = default;
  };
  throng::app::CacheKey<Key> k;
  CHECK_FALSE(k.held());
  CHECK(k.changed({0, 1}));        // nothing made yet
  CHECK_FALSE(k.changed({0, 1}));  // a paused crowd: nothing to make
  CHECK(k.changed({1, 1}));        // a step
  CHECK(k.changed({1, 2}));        // the view
  REQUIRE(k.last() != nullptr);
  CHECK(k.last()->zoom == 2);
  k.forget();
  CHECK_FALSE(k.held());
  CHECK(k.last() == nullptr);
  CHECK(k.changed({1, 2}));  // forgotten: made again from the same key
}

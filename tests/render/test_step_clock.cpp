// The visualizer's fixed-step accumulator (app/viz/step_clock.hpp): pure.
#include <doctest/doctest.h>

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

// The per-walker rules behind walking like people, one at a time: the
// kinematic envelope of the models without a velocity program
// (core/envelope.hpp), the limits kept at braking distance and the step kept
// within both (core/keep_apart.hpp), and ORCA's right of way
// (models/orca/solve.hpp).
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "core/envelope.hpp"
#include "core/keep_apart.hpp"
#include "models/orca/solve.hpp"

using namespace throng;

namespace {

/// The gate's split of a change of velocity (app/cli/trajectory.cpp):
/// braking against u, and the rest.
void gateSplit(Vec2 u, Vec2 v, float& brake, float& rest) {
  const Vec2 d = v - u;
  const float speed = u.length();
  const float along = speed > 0 ? dot(d, u) / speed : 0.0f;
  brake = along < 0 ? -along : 0.0f;
  rest = (speed > 0 && along < 0 ? d - u * (along / speed) : d).length();
}

}  // namespace

TEST_CASE("envelope: a velocity within reach is kept bit for bit, one beyond it is brought within the gate's bounds") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> at(-2, 2);
  const float a = 0.1f, b = 0.2f;  // 2 and 4 m/s² over a step of 0.05 s
  int kept = 0, moved = 0;
  for (int k = 0; k < 20000; ++k) {
    const Vec2 u{at(rng), at(rng)}, want{at(rng), at(rng)};
    const Vec2 v = intoEnvelope(u, want, a, b);
    float brake, rest;
    gateSplit(u, v, brake, rest);
    INFO("u (", u.x, ", ", u.y, "), wanted (", want.x, ", ", want.y, ") -> (", v.x, ", ", v.y, ")");
    CHECK(brake <= b * (1 + 1e-4f) + 1e-6f);
    CHECK(rest <= a * (1 + 1e-4f) + 1e-6f);
    if (v == want) {
      ++kept;
      CHECK(intoEnvelope(u, v, a, b) == v);
    } else {
      ++moved;
      CHECK((intoEnvelope(u, v, a, b) - v).length() < 1e-5f);  // on the rim: it stays
    }
  }
  CHECK(kept > 0);
  CHECK(moved > 0);
  // Braking is kept to |u| + a: from all but standing, reversing is
  // setting off again.
  const Vec2 slow{0.01f, 0};
  CHECK(intoEnvelope(slow, Vec2{-5, 0}, a, b).x == doctest::Approx(0.01f - 0.11f));
  // From a standstill: a disc of a.
  CHECK(intoEnvelope(Vec2{}, Vec2{3, 4}, a, b).length() == doctest::Approx(a));
}

TEST_CASE("envelope: braking room lets a walker stop short of a wall, and is the room itself without an envelope") {
  CHECK(brakingRoom(0.3f, 0.0f) == 0.3f);
  CHECK(stoppingReach(1.3f, 0.05f, 0.0f) == 0.0f);
  const float dt = 0.05f, b = 4, brakeRoom = b * dt * dt;
  for (const float room : {0.001f, 0.02f, 0.1f, 0.5f}) {
    // Stepping s now, then braking at b, covers at most the room.
    const float s = brakingRoom(room, brakeRoom);
    const float v = s / dt;
    CHECK(s <= room);
    CHECK(s + v * v / (2 * b) == doctest::Approx(room).epsilon(1e-4));
  }
  CHECK(stoppingReach(1.3f, dt, brakeRoom) == doctest::Approx(1.3 * 1.3 / 8));
}

TEST_CASE("envelope: a step cut by a limit is kept within the envelope and the limit where both allow one") {
  // A walker at 1.2 m/s east, braking 0.2 m/s a step at most, and a wall
  // limit that lets it move 0.0505 m east this step (1.01 m/s).
  const float dt = 0.05f;
  const float vx[] = {1.2f}, vy[] = {0.0f};
  StepEnvelope e;
  e.accelStep = 0.1f, e.brakeStep = 0.2f, e.dt = dt, e.vx = vx, e.vy = vy;
  const StepLimit wall{Vec2{-1, 0}, 0.0505f};  // s.x <= 0.0505: 1.01 m/s
  const Vec2 s = slideWithinEnvelope(&wall, 1, Vec2{1.2f * dt, 0}, e, 0, dt);
  CHECK(dot(s, wall.normal) >= -wall.room - 1e-7f);
  CHECK(e.into(0, s / dt).x == doctest::Approx(s.x / dt));  // within the envelope
  // One it cannot keep (stop within 0.01 m from 1.2 m/s): the limit wins.
  const StepLimit close{Vec2{-1, 0}, 0.01f};
  const Vec2 t = slideWithinEnvelope(&close, 1, Vec2{1.2f * dt, 0}, e, 0, dt);
  CHECK(t.x <= 0.01f + 1e-7f);
  // Without an envelope: slideWithin's step.
  const Vec2 plain = slideWithinEnvelope(&wall, 1, Vec2{1.2f * dt, 0}, StepEnvelope{}, 0, dt);
  CHECK(plain == slideWithin(&wall, 1, Vec2{1.2f * dt, 0}));
}

TEST_CASE("right of way: the two of a pair take shares that sum to one, the one behind the larger") {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> at(-3, 3);
  int uneven = 0;
  for (int k = 0; k < 20000; ++k) {
    const Vec2 d{at(rng), at(rng)}, wi{at(rng), at(rng)}, wj{at(rng), at(rng)};
    const float si = wayShare(d, wi, wj, 1.0f), sj = wayShare(-d, wj, wi, 1.0f);
    CHECK(si + sj == 1.0f);
    if (si != 0.5f) ++uneven;
    // Without right of way, RVO2's halves.
    CHECK(wayShare(d, wi, wj, 0.0f) == 0.5f);
  }
  CHECK(uneven > 0);
  // Walking one behind the other, east: the one behind takes it all.
  CHECK(wayShare(Vec2{1, 0}, Vec2{1, 0}, Vec2{1, 0}, 1.0f) == 1.0f);
  CHECK(wayShare(Vec2{-1, 0}, Vec2{1, 0}, Vec2{1, 0}, 1.0f) == 0.0f);
  // Head on, and side by side: halves.
  CHECK(wayShare(Vec2{1, 0}, Vec2{1, 0}, Vec2{-1, 0}, 1.0f) == 0.5f);
  CHECK(wayShare(Vec2{0, 1}, Vec2{1, 0}, Vec2{1, 0}, 1.0f) == 0.5f);
  // Walking into one who stands: the walker takes it all.
  CHECK(wayShare(Vec2{1, 0}, Vec2{1, 0}, Vec2{}, 1.0f) == 1.0f);
}

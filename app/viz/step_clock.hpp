#pragma once
// StepClock: how many fixed steps a frame takes. Pure (no SDL, no GL).
//
// Live: every frame adds min(frame time, maxFrame) x rate to an
// accumulator and takes whole steps of dt from it, at most maxSteps; what
// is left over beyond one step after that is dropped (the clamp), so a
// slow step or a stalled frame never makes the sim spiral to catch up.
// Recording: every frame is exactly rate / fps of sim time, whatever the
// wall clock says, so the video plays smoothly.
#include <algorithm>

namespace throng::app {

struct StepClock {
  double rate = 1;        ///< sim seconds per wall second [Limit: 0.25..8]
  double maxFrame = 0.25; ///< longest frame counted, s
  int maxSteps = 32;      ///< most steps one frame takes
  double accumulator = 0; ///< sim seconds owed, s

  static constexpr double kMinRate = 0.25, kMaxRate = 8;
  void setRate(double r) { rate = std::clamp(r, kMinRate, kMaxRate); }
  void reset() { accumulator = 0; }

  /// Steps of `dt` for a live frame that took `frameSeconds`.
  int live(double frameSeconds, double dt) {
    accumulator += std::clamp(frameSeconds, 0.0, maxFrame) * rate;
    int n = 0;
    while (accumulator >= dt && n < maxSteps) {
      accumulator -= dt;
      ++n;
    }
    if (accumulator > dt) accumulator = 0;  // the clamp: dropped, not owed
    return n;
  }

  /// Steps of `dt` for one recorded frame at `fps`.
  int recorded(int fps, double dt) {
    accumulator += rate / std::max(fps, 1);
    int n = 0;
    while (accumulator >= dt * (1 - 1e-9)) {
      accumulator -= dt;
      ++n;
    }
    return n;
  }
};

}  // namespace throng::app

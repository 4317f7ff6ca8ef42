#pragma once
// The fundamental diagram: how fast a crowd walks at a density, measured in
// RiMEA test 4's set-up, and Weidmann's (1993) for people beside it. The
// scene tests assert each model's against Weidmann's (tests/scene/
// test_walking.cpp), and `throng verify --report` draws them.
//
// The set-up: a closed ring corridor 2 m wide between circles of 10 m and
// 12 m (polygons of 128 sides, 4 mm from the true circles at most), every
// walker of radius 0.2 m wishing to walk anticlockwise along it at 1.34 m/s
// (the preferredVelocity closure). The measuring area is a sixth of the
// ring (11.5 m along its middle); the mean speed along the corridor in it
// is taken every 0.5 s from 30 s to 60 s. Metres and seconds throughout.
#include <vector>

#include "throng/crowd.hpp"
#include "throng/settings.hpp"
#include "throng/vec2.hpp"

namespace throng {

/// Weidmann (1993): v(ρ) = 1.34 (1 − exp(−1.913 (1/ρ − 1/5.4))), m/s, at
/// density ρ per m²; 1.34 at ρ <= 0, 0 from the jam density 5.4 on.
double weidmannSpeed(double density);

struct RingCorridor {
  static constexpr double kInner = 10, kOuter = 12;  ///< the corridor's circles, m
  static constexpr double kRadius = 0.2, kSpeed = 1.34;  ///< every walker's, m and m/s
  static constexpr int kSides = 128;                 ///< the circles' polygons
  /// The corridor's area, m².
  static double area();
  /// The walkers' places at `density` per m²: spread at random (a fixed
  /// sequence), each at least 2.05 radii from the others, as far as that
  /// goes; a crowd too dense for it in staggered rows round the ring, as
  /// many rows as keep them furthest apart (so the density is within rows /
  /// area, 0.04 per m², of the one asked for). Empty when even rows cannot
  /// hold the walkers apart (past about 5.5 per m²). Tens of milliseconds
  /// from 4 per m².
  static std::vector<Vec2> layout(double density);
  /// The walkers at `at` (a layout) in the ring under `settings` (its model
  /// and the rest; Settings::pedestrian() is the one the figures use).
  static Crowd crowd(const std::vector<Vec2>& at, const Settings& settings);

  /// One point of the diagram: the density placed, per m², and the mean
  /// speed along the corridor in the measuring area, m/s.
  struct Sample {
    double density = 0, speed = 0;
  };
  /// The crowd of layout(density) under `settings`, measured from 30 s to
  /// 60 s. Throws std::invalid_argument for a density layout() cannot place.
  static Sample measure(double density, const Settings& settings);
};

}  // namespace throng

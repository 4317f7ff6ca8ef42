#pragma once
// Settings: the crowd's tunable parameters, default-initialised as in the
// seed. Each field gives its unit and limits; out-of-limit values are clamped
// at the next step (see sanitized()), so a slider can never break a run.
#include <cstdint>
#include <string>
#include <vector>

namespace throng {

/// The most neighbours and obstacle edges one walker's linear program holds.
/// Fixed so the per-agent solve needs no allocation (and fits a GPU thread).
inline constexpr int kMaxNeighbors = 32;
inline constexpr int kMaxObstacleLines = 32;

struct Settings {
  /// How far ahead a walker looks at other walkers, s. [Limit: > 0]
  float timeHorizon = 1;
  /// The same for obstacles and walls, s. [Limit: > 0]
  float obstacleTimeHorizon = 0.5f;
  /// How far away another walker is still considered, world units. [Limit: >= 0]
  float perceptionRadius = 100;
  /// The most neighbours each walker considers, nearest first. [Limit: 0..kMaxNeighbors]
  int maxNeighbors = 10;
  /// Distance from the goal at which a walker starts to slow, world units;
  /// 0 walks at full speed onto the goal. [Limit: >= 0]
  float slowingRadius = 0;
  /// Shake of each moving walker's wish per step, as a fraction of its top
  /// speed; 0 gives a run with no randomness. [Limit: 0..1]
  float jitter = 0.05f;
  /// The longest single step advance(by) takes, s. [Limit: > 0]
  double maxStep = 1.0 / 60;
  /// Picks the jitter: the same seed replays the same run.
  std::uint64_t seed = 0;
  /// Worker threads for the per-agent phases; 0 uses every core. Results do
  /// not depend on it. [Limit: >= 0]
  int threads = 0;
  /// The model the crowd steps with (pipeline/registry.cpp lists them);
  /// switchable between steps.
  std::string model = "orca";
};

/// The models Settings::model may name, in registration order.
std::vector<std::string> modelNames();

/// The settings with every field clamped into its limits (NaN goes to the default).
Settings sanitized(const Settings& s);

}  // namespace throng

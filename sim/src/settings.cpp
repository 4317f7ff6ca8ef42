#include <algorithm>
#include <cmath>

#include "throng/settings.hpp"

namespace throng {

namespace {
float clampF(float v, float lo, float hi, float fallback) {
  if (!std::isfinite(v)) return std::isnan(v) ? fallback : (v > 0 ? hi : lo);
  return std::clamp(v, lo, hi);
}
}  // namespace

Settings sanitized(const Settings& in) {
  const Settings d;
  Settings s = in;
  constexpr float kBig = 1e30f;
  s.timeHorizon = clampF(s.timeHorizon, 1e-3f, 1e6f, d.timeHorizon);
  s.obstacleTimeHorizon = clampF(s.obstacleTimeHorizon, 1e-3f, 1e6f, d.obstacleTimeHorizon);
  s.perceptionRadius = clampF(s.perceptionRadius, 0, kBig, d.perceptionRadius);
  s.maxNeighbors = std::clamp(s.maxNeighbors, 0, kMaxNeighbors);
  s.slowingRadius = clampF(s.slowingRadius, 0, kBig, d.slowingRadius);
  s.jitter = clampF(s.jitter, 0, 1, d.jitter);
  if (!(s.maxStep > 1e-6 && s.maxStep <= 1e6)) s.maxStep = std::isnan(s.maxStep) ? d.maxStep : std::clamp(s.maxStep, 1e-6, 1e6);
  s.threads = std::max(s.threads, 0);
  return s;
}

}  // namespace throng

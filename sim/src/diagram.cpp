// The fundamental diagram's measurement (throng/diagram.hpp).
#include "throng/diagram.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <stdexcept>
#include <string>

namespace throng {

namespace {
constexpr double kPi = std::numbers::pi;
}  // namespace

double weidmannSpeed(double density) {
  constexpr double v0 = 1.34, gamma = 1.913, jam = 5.4;
  if (!(density > 0)) return v0;
  if (density >= jam) return 0;
  return v0 * (1 - std::exp(-gamma * (1 / density - 1 / jam)));
}

double RingCorridor::area() { return kPi * (kOuter * kOuter - kInner * kInner); }

std::vector<Vec2> RingCorridor::layout(double density) {
  const double n = density * area();
  // Spread at random (a fixed sequence), each at least 2.05 radii from
  // the others, as far as that goes; a crowd too dense for it in rows.
  {
    std::vector<Vec2> at;
    std::uint64_t state = 0x9E3779B97F4A7C15ull;
    const auto uniform = [&state] {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      return static_cast<double>(state >> 11) * 0x1p-53;
    };
    const double lo = kInner + kRadius + 0.01, hi = kOuter - kRadius - 0.01;
    const long want = std::lround(n);
    for (long tries = 0; tries < 200 * want && static_cast<long>(at.size()) < want; ++tries) {
      const double r = std::sqrt(lo * lo + (hi * hi - lo * lo) * uniform()), a = 2 * kPi * uniform();
      const Vec2 p{static_cast<float>(r * std::cos(a)), static_cast<float>(r * std::sin(a))};
      bool free = true;
      for (const Vec2 q : at) free &= (p - q).lengthSquared() >= static_cast<float>(4.2 * kRadius * kRadius);
      if (free) at.push_back(p);
    }
    if (static_cast<long>(at.size()) == want) return at;
  }
  const double lo = kInner + kRadius + 0.01, hi = kOuter - kRadius - 0.01;
  std::vector<Vec2> best;
  double bestGap = -1;
  for (int rows = 1; rows <= 8; ++rows) {
    const int inRow = static_cast<int>(std::lround(n / rows));
    std::vector<Vec2> at;
    for (int k = 0; k < rows; ++k) {
      const double radius = rows == 1 ? 0.5 * (lo + hi) : lo + (hi - lo) * k / (rows - 1);
      for (int m = 0; m < inRow; ++m) {
        const double a = 2 * kPi * (m + 0.5 * (k % 2)) / inRow;
        at.push_back(Vec2{static_cast<float>(radius * std::cos(a)), static_cast<float>(radius * std::sin(a))});
      }
    }
    double gap = 1e9;  // the closest pair, centre to centre
    for (std::size_t i = 0; i < at.size(); ++i)
      for (std::size_t j = i + 1; j < at.size(); ++j)
        gap = std::min(gap, static_cast<double>((at[i] - at[j]).length()));
    if (gap > bestGap) {
      bestGap = gap;
      best = at;
    }
  }
  if (!(bestGap > 2 * kRadius)) return {};
  return best;
}


Crowd RingCorridor::crowd(const std::vector<Vec2>& at, const Settings& settings) {
  Crowd c(settings);
  std::vector<Vec2> inner, outer;
  for (int k = 0; k < kSides; ++k) {
    const double a = 2 * kPi * k / kSides;
    inner.push_back(Vec2{static_cast<float>(kInner * std::cos(a)), static_cast<float>(kInner * std::sin(a))});
    outer.push_back(Vec2{static_cast<float>(kOuter * std::cos(a)), static_cast<float>(kOuter * std::sin(a))});
  }
  outer.push_back(outer.front());
  c.addObstacle(inner);
  c.addWall(outer);
  for (const Vec2 p : at) c.add(p, std::nullopt, static_cast<float>(kRadius), static_cast<float>(kSpeed));
  c.preferredVelocity = [](const Agent& a) {
    const float r = a.position.length();
    return r > 0 ? Vec2{-a.position.y, a.position.x} * static_cast<float>(kSpeed / r) : Vec2{};
  };
  return c;
}

RingCorridor::Sample RingCorridor::measure(double density, const Settings& settings) {
  const std::vector<Vec2> at = layout(density);
  if (at.empty())
    throw std::invalid_argument("RingCorridor::measure: " + std::to_string(density) +
                                " per m² is more than the ring corridor holds apart");
  Crowd c = crowd(at, settings);
  c.advance(30);
  double sum = 0;
  long samples = 0;
  for (int k = 0; k <= 60; ++k) {
    if (k > 0) c.advance(0.5);
    const FrameView f = c.frame();
    for (std::size_t i = 0; i < f.px.size(); ++i) {
      const double angle = std::atan2(f.py[i], f.px[i]);
      if (!(angle >= 0 && angle < kPi / 3)) continue;
      const double r = std::hypot(f.px[i], f.py[i]);
      sum += (-f.py[i] * f.vx[i] + f.px[i] * f.vy[i]) / r;  // along the corridor
      ++samples;
    }
  }
  return {static_cast<double>(at.size()) / area(), samples > 0 ? sum / static_cast<double>(samples) : 0.0};
}

}  // namespace throng

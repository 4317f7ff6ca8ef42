#pragma once
// Benchmark scenarios matching RVO2 2.0's `Circle` example scaled up, and
// a dense crowd, with RVO2's own settings: timeStep 0.25, neighborDist 15,
// maxNeighbors 10, timeHorizon 10, timeHorizonObst 10, radius 1.5,
// maxSpeed 2, and a preferred velocity towards the goal of unit length once
// farther than 1 (here: preferred speed 1 with slowingRadius 1, jitter 0).
#include <cmath>
#include <cstdint>

#include "throng/crowd.hpp"
#include "models/orca/orca.hpp"

namespace throng::bench {

inline constexpr double kStep = 0.25;

inline Settings rvo2Settings(int threads) {
  Settings s;
  s.timeHorizon = 10;
  s.obstacleTimeHorizon = 10;
  s.perceptionRadius = 15;
  s.maxNeighbors = 10;
  s.slowingRadius = 1;
  s.jitter = 0;
  s.maxStep = kStep;
  s.threads = threads;
  return s;
}

inline void addWalker(Crowd& c, Vec2 at, Vec2 goal) {
  const std::size_t i = c.add(at, goal, 1.5f, 2.0f);
  c.setPreferredSpeed(i, 1.0f);
}

/// N walkers on a ring of radius 0.8 N, each crossing to the antipode.
/// Agent k is the ring's walker stride k mod N: in turn around it, or, for
/// a stride coprime to N, jumping about it.
inline Crowd circle(int n, int threads, int stride = 1) {
  Crowd c(rvo2Settings(threads));
  const float r = 0.8f * static_cast<float>(n);
  for (int k = 0; k < n; ++k) {
    const int i = static_cast<int>(static_cast<long long>(stride) * k % n);
    const double a = 2.0 * 3.14159265358979323846 * i / n;
    const Vec2 p{static_cast<float>(r * std::cos(a)), static_cast<float>(r * std::sin(a))};
    addWalker(c, p, -p);
  }
  return c;
}

/// A jittered grid at 2.2 r spacing with random goals in its square.
inline Crowd dense(int n, int threads) {
  Crowd c(rvo2Settings(threads));
  const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(n))));
  const float spacing = 2.2f * 1.5f, extent = spacing * static_cast<float>(side);
  std::uint64_t h = 12345;
  auto uniform = [&h] { h = mix64(h); return 0.5f * (unitFromBits(h) + 1.0f); };  // [0, 1)
  for (int i = 0; i < n; ++i) {
    const float x = (static_cast<float>(i % side) + 0.5f) * spacing + (uniform() - 0.5f) * 0.1f * spacing;
    const float y = (static_cast<float>(i / side) + 0.5f) * spacing + (uniform() - 0.5f) * 0.1f * spacing;
    addWalker(c, {x, y}, {uniform() * extent, uniform() * extent});
  }
  return c;
}

/// BioCrowds' bench: N walkers (radius 0.25 m, 1.3 m/s) at 1 per m² on a
/// jittered 1 m grid, the west half heading east and the east half west
/// across the square, with the default markers (16 per m², R = 1 m) and a
/// step of 0.05 s.
inline constexpr double kBioStep = 0.05;
inline Crowd bioField(int n, int threads) {
  Settings s;
  s.model = "biocrowds";
  s.maxStep = kBioStep;
  s.threads = threads;
  Crowd c(s);
  const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(n))));
  const float extent = static_cast<float>(side);
  std::uint64_t h = 6789;
  auto uniform = [&h] { h = mix64(h); return 0.5f * (unitFromBits(h) + 1.0f); };  // [0, 1)
  for (int i = 0; i < n; ++i) {
    const float x = static_cast<float>(i % side) + 0.5f + (uniform() - 0.5f) * 0.2f;
    const float y = static_cast<float>(i / side) + 0.5f + (uniform() - 0.5f) * 0.2f;
    const Vec2 goal{x < 0.5f * extent ? extent + 2 : -2, y};
    c.add({x, y}, goal, 0.25f, 1.3f);
  }
  return c;
}

/// bioField's crowd under ORCA with Settings::pedestrian(): `human` with
/// its pace and kinematic envelope, else the same settings without them
/// (the cost of walking like people).
inline Crowd pedestrians(int n, int threads, bool human) {
  Crowd c = bioField(n, threads);
  Settings s = Settings::pedestrian();
  s.threads = threads;
  if (!human) {
    s.paceTimeGap = 0;
    s.maxAccel = 0;
  }
  c.settings = s;
  return c;
}

/// Continuum Crowds at 1 walker per m² in a square of side sqrt(n) m: the
/// left half heads for a strip past the right edge (group 0), the right
/// half for one past the left (group 1), two potentials; the field cell
/// chosen so the grid is about cells x cells.
inline Crowd continuumField(int n, int threads, int cells) {
  Crowd c = bioField(n, threads);
  Settings s = c.settings;
  s.model = "continuum";
  const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(n))));
  const float extent = static_cast<float>(side) + 8.0f;  // with the targets' strips
  s.fieldCell = extent / static_cast<float>(cells - 3 * 8);
  c.settings = s;
  Terrain t;
  t.targets.push_back({"east", {Rect{static_cast<float>(side) + 1, 0, 2, static_cast<float>(side)}}, {0}, -1});
  t.targets.push_back({"west", {Rect{-3, 0, 2, static_cast<float>(side)}}, {1}, -1});
  c.setTerrain(t);
  for (std::size_t i = 0; i < c.count(); ++i) {
    Agent a = c.agent(i);
    a.group = a.goal && a.goal->x > 0 ? 0 : 1;
    c.setAgent(i, a);
  }
  return c;
}

}  // namespace throng::bench

#pragma once
// Small crowds built in code for the CPU-vs-CUDA comparisons (host mirror
// test, device test, GPU benchmark). Each exercises a different part of the
// step: a ring (head-on jam at the centre), a room with a door (walls,
// obstacles, slowingRadius), a crossing (goals, group streams, routes
// through gates), a random crowd at pedestrian density, and BioCrowds'
// open ground (with walls through it when asked), and the fields' scenes
// (targets, discomfort, a hill) for Continuum Crowds and field routing.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "throng/crowd.hpp"
#include "throng/fields.hpp"

namespace throng::gpuscenes {

/// A small deterministic generator (no std:: distributions: their output
/// differs between standard libraries).
struct Lcg {
  std::uint64_t s;
  explicit Lcg(std::uint64_t seed) : s(seed * 2862933555777941757ull + 3037000493ull) {}
  /// Uniform in [0, 1).
  float next() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<float>(s >> 40) * (1.0f / 16777216.0f);
  }
};

/// n walkers on a circle crossing to the antipode (the seed's quick start
/// at the defaults; RVO2's Circle when scaled).
inline void ring(Crowd& c, int n, float ringRadius = 440, Vec2 centre = {500, 500}, float radius = 8,
                 float maxSpeed = 120) {
  for (int i = 0; i < n; ++i) {
    const double a = 6.283185307179586 * i / n;
    const Vec2 spot = centre + Vec2{static_cast<float>(std::cos(a)), static_cast<float>(std::sin(a))} * ringRadius;
    c.add(spot, centre - (spot - centre), radius, maxSpeed);
  }
}

/// A walled room with one door in its right wall and a pillar inside; the
/// walkers start in a block and leave through the door to a point outside.
inline void door(Crowd& c, int rows = 8, int cols = 10) {
  c.settings.slowingRadius = 30;
  const Vec2 wall[] = {{400, 100}, {100, 100}, {100, 500}, {400, 500}};  // left, top, bottom
  c.addWall(std::span<const Vec2>(wall, 4));
  c.addWall(Vec2{400, 100}, Vec2{400, 270});   // right wall, above the door
  c.addWall(Vec2{400, 330}, Vec2{400, 500});   // ... and below it
  c.addObstacle(Rect{300, 280, 40, 40});       // a pillar before the door
  const Vec2 pts[] = {{200, 200}, {240, 220}, {220, 260}};  // a clockwise-given triangle
  c.addObstacle(std::span<const Vec2>(pts, 3));
  for (int r = 0; r < rows; ++r)
    for (int k = 0; k < cols; ++k)
      c.add(Vec2{130.0f + 22.0f * k, 130.0f + 40.0f * r}, Vec2{600, 300}, 8, 90);
}

/// Two perpendicular flows through a square: one by goals, one by a group
/// stream; a few walkers follow a route of two gates, then their goal.
inline void crossing(Crowd& c, int perSide = 30) {
  for (int i = 0; i < perSide; ++i) {
    const float t = static_cast<float>(i % 6), u = static_cast<float>(i / 6);
    c.add(Vec2{100 + 20 * u, 400 + 22 * t}, Vec2{900, 400 + 22 * t}, 7, 100, 0);   // west to east by goal
    c.add(Vec2{400 + 22 * t, 100 + 20 * u}, std::nullopt, 7, 100, 1);              // south to north by stream
  }
  c.setGroupVelocity(1, Vec2{0, 80});
  const int route = c.addRoute({Waypoint{{500, 250}, {500, 350}}, Waypoint{{650, 600}, {750, 600}}});
  for (int i = 0; i < 6; ++i) {
    const std::size_t k = c.add(Vec2{300, 200 + 25.0f * i}, Vec2{700, 800}, 7, 110, 2);
    c.setRoute(k, route);
  }
  c.addWall(Vec2{600, 450}, Vec2{640, 520});
}

/// n walkers at about `density` per square metre with random goals in the
/// same square (metres: radius 0.25, 1.4 m/s), sized for pedestrians.
inline void randomCrowd(Crowd& c, int n, std::uint64_t seed = 7, float density = 1.0f) {
  c.settings.perceptionRadius = 3;
  c.settings.maxNeighbors = 10;
  c.settings.timeHorizon = 2;
  c.settings.obstacleTimeHorizon = 1;
  const float side = std::sqrt(static_cast<float>(n) / density);
  Lcg g(seed);
  for (int i = 0; i < n; ++i) {
    const Vec2 p{g.next() * side, g.next() * side};
    const Vec2 goal{g.next() * side, g.next() * side};
    c.add(p, goal, 0.25f, 1.4f);
  }
}

/// n walkers at `density` per square metre as randomCrowd, but spread
/// without overlaps: one to each cell of a square grid, at a random spot at
/// least a radius from the cell's edges, so two walkers start at least a
/// diameter apart (randomCrowd's walkers start overlapping about half of
/// them, and its first steps untangle them).
inline void spreadCrowd(Crowd& c, int n, std::uint64_t seed = 7, float density = 1.0f) {
  c.settings.perceptionRadius = 3;
  c.settings.maxNeighbors = 10;
  c.settings.timeHorizon = 2;
  c.settings.obstacleTimeHorizon = 1;
  const int cols = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(n))));
  const float cell = 1.0f / std::sqrt(density), r = 0.25f, side = cell * static_cast<float>(cols);
  const float room = cell - 2 * r;  // where a walker's centre may be within its cell
  Lcg g(seed);
  for (int i = 0; i < n; ++i) {
    const Vec2 p{cell * static_cast<float>(i % cols) + r + g.next() * room,
                 cell * static_cast<float>(i / cols) + r + g.next() * room};
    const Vec2 goal{g.next() * side, g.next() * side};
    c.add(p, goal, r, 1.4f);
  }
}

/// RVO2's Circle scaled to n (issue 2's benchmark settings, goals on the device).
inline void rvoCircle(Crowd& c, int n) {
  c.settings.perceptionRadius = 15;
  c.settings.maxNeighbors = 10;
  c.settings.timeHorizon = 10;
  c.settings.obstacleTimeHorizon = 10;
  c.settings.maxStep = 0.25;
  ring(c, n, 0.8f * static_cast<float>(n), Vec2{0, 0}, 1.5f, 2.0f);
}

/// Settings for BioCrowds in metres (the scenes' and the bench's step).
inline Settings bioSettings() {
  Settings s;
  s.model = "biocrowds";
  s.maxStep = 0.05;
  s.threads = 2;
  return s;
}

/// n walkers (radius 0.25 m, 1.3 m/s) at about 1 per m² in a square, with
/// random goals in it; with `walls`, three walls (one bent) and a pillar
/// through it, so markers lie near edges and owners are hidden behind them.
inline void bioGround(Crowd& c, int n, bool walls, std::uint64_t seed = 5) {
  const float side = std::sqrt(static_cast<float>(n));
  Lcg g(seed);
  if (walls) {
    c.addWall(Vec2{0.2f * side, 0.3f * side}, Vec2{0.7f * side, 0.35f * side});
    c.addWall(Vec2{0.5f * side, 0.9f * side}, Vec2{0.5f * side, 0.5f * side});
    const Vec2 bend[] = {{0.1f * side, 0.6f * side}, {0.3f * side, 0.8f * side}, {0.3f * side, 0.95f * side}};
    c.addWall(std::span<const Vec2>(bend, 3));
    c.addObstacle(Rect{0.75f * side, 0.6f * side, 1.5f, 2.5f});
  }
  for (int i = 0; i < n; ++i) {
    const Vec2 p{g.next() * side, g.next() * side};
    c.add(p, Vec2{g.next() * side, g.next() * side}, 0.25f, 1.3f);
  }
}

/// Settings for the fields' scenes in metres: `model` (continuum, orca or
/// biocrowds) with routing = field, a step of 0.05 s.
inline Settings fieldSettings(const char* model) {
  Settings s;
  s.model = model;
  s.routing = "field";
  s.maxStep = 0.05;
  s.threads = 2;
  s.perceptionRadius = 3;   // ORCA at pedestrian scale
  s.timeHorizon = 2;
  s.obstacleTimeHorizon = 1;
  return s;
}

/// A walled room 20 x 16 m with a 2 m door in its right wall and a pillar
/// before it; rows x cols walkers (radius 0.25 m, 1.3 m/s) inside take the
/// target beyond the door (group 0, which every walker of the group
/// shares: one potential), a few more (group 1) walk to goals of their own
/// (no target: the straight wish at the field's pace). A strip of
/// discomfort lies along the room's top.
inline void fieldRoom(Crowd& c, int rows = 6, int cols = 8) {
  const Vec2 wall[] = {{20, 0}, {0, 0}, {0, 16}, {20, 16}};
  c.addWall(std::span<const Vec2>(wall, 4));
  c.addWall(Vec2{20, 0}, Vec2{20, 7});
  c.addWall(Vec2{20, 9}, Vec2{20, 16});
  c.addObstacle(Rect{15, 7.2f, 1.5f, 1.6f});
  for (int r = 0; r < rows; ++r)
    for (int k = 0; k < cols; ++k)
      c.add(Vec2{2.0f + 0.9f * static_cast<float>(k), 3.0f + 1.1f * static_cast<float>(r)}, Vec2{27, 8}, 0.25f, 1.3f, 0);
  for (int k = 0; k < 4; ++k) c.add(Vec2{10.0f + k, 13.5f}, Vec2{3.0f + k, 2}, 0.25f, 1.2f, 1);
  Terrain t;
  t.targets.push_back({"outside", {Rect{25, 6, 3, 4}}, {0}, -1});
  t.discomfort.push_back({{{0, 14}, {20, 14}, {20, 16}, {0, 16}}, 2.0f});
  c.setTerrain(t);
}

/// Two groups crossing on open ground with a block in the middle and a
/// hill: group 0 from the west to a strip in the east, group 1 from the
/// south to a strip in the north, each its own potential; the crowds meet
/// in the middle (density slows them, the flow speed too).
inline void fieldCrossing(Crowd& c, int perSide = 40) {
  c.addObstacle(Rect{14, 14, 2, 2});
  for (int i = 0; i < perSide; ++i) {
    const float t = static_cast<float>(i % 8), u = static_cast<float>(i / 8);
    c.add(Vec2{2.0f + 0.8f * u, 11.0f + 0.9f * t}, Vec2{33, 15}, 0.25f, 1.3f, 0);
    c.add(Vec2{11.0f + 0.9f * t, 2.0f + 0.8f * u}, Vec2{15, 33}, 0.25f, 1.4f, 1);
  }
  Terrain t;
  t.targets.push_back({"east", {Rect{31, 8, 2, 14}}, {0}, -1});
  t.targets.push_back({"north", {Rect{8, 31, 14, 2}}, {1}, -1});
  t.hills.push_back({Vec2{22, 10}, 4, 1.5f});
  c.setTerrain(t);
}

}  // namespace throng::gpuscenes

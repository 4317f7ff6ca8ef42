#pragma once
// The ground the fields are built over (Continuum Crowds, and field routing
// for every model): where walkers head (targets), where they would rather
// not walk (discomfort: regions and a painted map), and how the ground rises
// (hills and a height map); and the read-only view of the fields a step
// built, for drawing.
//
// Ground that changes the pace (speed zones and stairs) is read by every
// model's wish and by the fields' cost alike (geometry/ground.hpp).
//
// A target is a set of goal regions that a group of walkers shares: one
// potential is solved per target ("as few groups as possible"). A walker
// takes the first target that names its group (or names none) and its route
// (or none); Scene builds the list from the file's "targets", then one per
// route with a goal region, then one per set of sinks. Walkers that match
// no target keep their straight-line wish.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "throng/vec2.hpp"

namespace throng {

struct Target {
  std::string name;            ///< for people: the file's name for it, or the route's
  std::vector<Rect> regions;   ///< goal cells: those whose centre lies in one (at least the cell of each region's centre)
  std::vector<int> groups;     ///< the walkers' groups it serves; empty: every group
  int route = -1;              ///< only walkers on this route (Crowd::addRoute's number); -1: any
};

/// A painted region walkers would rather avoid (value > 0) or prefer
/// (value < 0: a crosswalk), added where regions overlap. Unitless, as the
/// cost's γ weighs it.
struct Discomfort {
  std::vector<Vec2> outline;   ///< a closed polygon, either winding
  float value = 1;
};

/// A smooth bump of the ground: height * (1 - (d / radius)^2)^2 within
/// radius of `at`, world units.
struct Hill {
  Vec2 at;
  float radius = 1, height = 1;
};

/// A height map: heights at the nodes of a regular lattice, read
/// bilinearly between them, 0 outside it.
struct HeightMap {
  Vec2 origin;                 ///< node (0, 0)
  float cell = 1;              ///< node spacing, world units
  int cols = 0, rows = 0;      ///< nodes
  std::vector<float> heights;  ///< cols * rows, row by row from origin
};

/// A painted discomfort map (the scene editor's brush): values at the nodes
/// of a regular lattice, read bilinearly between them, 0 outside it, as a
/// HeightMap's heights are. Unitless, like Discomfort's value.
struct DiscomfortMap {
  Vec2 origin;                 ///< node (0, 0)
  float cell = 1;              ///< node spacing, world units
  int cols = 0, rows = 0;      ///< nodes
  std::vector<float> values;   ///< cols * rows, row by row from origin
};

/// A speed zone: walkers inside it walk at `factor` times the speed they
/// wish for (slow ground, a crowded platform). Factors of overlapping zones
/// multiply.
struct SpeedZone {
  std::vector<Vec2> outline;   ///< a closed polygon, either winding
  float factor = 1;            ///< in (0, 1]
};

/// Stairs, in their 2-D form (the plan of a flight): inside the outline a
/// walker whose wish points uphill (within 90 degrees of `up`) walks at
/// most upSpeed, any other at most downSpeed, world units per second along
/// the plan. Where flights overlap the slowest holds.
struct Stairs {
  std::vector<Vec2> outline;   ///< a closed polygon, either winding
  Vec2 up{0, 1};               ///< uphill, in the plan; any length but 0
  float upSpeed = 0.61f, downSpeed = 0.694f;  ///< > 0; Weidmann's (1993) means
};

struct Terrain {
  std::vector<Target> targets;
  std::vector<Discomfort> discomfort;
  std::vector<Hill> hills;
  HeightMap heightMap;
  DiscomfortMap discomfortMap;
  std::vector<SpeedZone> speedZones;
  std::vector<Stairs> stairs;
  /// The ground's height at p (hills plus the map), world units.
  float heightAt(Vec2 p) const;
  /// The discomfort at p: the sum of the regions that hold it, plus the
  /// painted map's value there.
  float discomfortAt(Vec2 p) const;
  bool empty() const {
    return targets.empty() && discomfort.empty() && hills.empty() && heightMap.heights.empty() &&
           discomfortMap.values.empty() && speedZones.empty() && stairs.empty();
  }
};

/// The four directions a cell's speed and cost are given for, in this order.
enum FieldDirection : int { kEast = 0, kNorth = 1, kWest = 2, kSouth = 3 };

/// The fields of the last refresh, on a uniform grid: cell (x, y) covers
/// origin + [x, x + 1) * cell by [y, y + 1) * cell; arrays are row by row.
/// (fieldCellCentre, after it, gives a cell's centre.)
/// Empty (cols == 0) when no field was built (a model and routing that use
/// none, or before the first step). The spans stay valid until the crowd is
/// next changed or advanced.
/// The centre of cell `index` of a grid of `cols` columns from `origin`,
/// `h` wide (the teaching view and the field overlay both place a cell so);
/// `origin` for no cell.
inline Vec2 fieldCellCentre(Vec2 origin, float h, int cols, std::int32_t index) {
  if (cols <= 0 || index < 0) return origin;
  return {origin.x + (static_cast<float>(index % cols) + 0.5f) * h, origin.y + (static_cast<float>(index / cols) + 0.5f) * h};
}

struct FieldView {
  Vec2 origin;
  float cell = 0;
  int cols = 0, rows = 0;
  int potentials = 0;                  ///< targets with a potential
  std::span<const std::uint8_t> blocked;  ///< 1: inside an obstacle
  std::span<const float> density;      ///< ρ, walkers per cell
  std::span<const float> velocityX, velocityY;  ///< v̄, units/s (0 where ρ is 0)
  std::span<const float> height;       ///< at cell centres, world units
  std::span<const float> discomfort;   ///< g at cell centres
  std::span<const float> speed;        ///< f, units/s: 4 per cell (FieldDirection), to the neighbour that way
  std::span<const float> cost;         ///< C per cell width: 4 per cell; +inf through a wall or obstacle
  std::span<const float> potential;    ///< φ of the target asked for; +inf where no path reaches it
  std::uint64_t refreshStep = 0;       ///< the step the fields were built at
};

}  // namespace throng

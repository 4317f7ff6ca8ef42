#pragma once
// The fields on the host: the grid over the scene, what is fixed with the
// geometry and the terrain (blocked cells, open faces, heights, discomfort,
// the ground's speed),
// and what a refresh builds from the walkers (density, mean velocity, speed,
// cost, one potential per target in use). The math is field_math.hpp's; the
// CPU refresh runs it on the step's threads (refreshFields), the CUDA
// backend runs the same functions on the device over the same fixed parts
// (it uploads them from here).
//
// The grid. Cell side h = Settings::fieldCell (0: four times the largest
// walker radius). It covers the geometry, the targets' regions and the
// walkers at the refresh, a tile beyond each side, with the origin and the
// size whole tiles (kTile cells) on a lattice of tiles, so a crowd moving
// within it keeps the same grid and its fixed parts. At most kMaxFieldCells
// cells: a larger scene doubles h until it fits.
#include <cstdint>
#include <vector>

#include "fields/field_math.hpp"
#include "geometry/obstacles.hpp"
#include "throng/fields.hpp"
#include "throng/settings.hpp"

namespace throng {

class ThreadPool;

/// The most cells a field grid has (4096 x 4096 / 4).
inline constexpr std::int64_t kMaxFieldCells = std::int64_t{1} << 22;

/// The walkers as a refresh reads them.
struct FieldWalkers {
  const float *px = nullptr, *py = nullptr, *vx = nullptr, *vy = nullptr;
  const float *radius = nullptr, *maxSpeed = nullptr, *prefSpeed = nullptr;
  const std::int32_t *group = nullptr, *route = nullptr;
  std::size_t count = 0;
};

/// The targets in the order walkers take them, as keys (TargetKey).
std::vector<TargetKey> targetKeys(const Terrain& t);

/// The parameters of a refresh for settings s and a top speed fmax.
FieldParams fieldParams(const Settings& s, float fmax);

struct FieldState {
  // The grid and what is fixed with it (rebuilt when the grid, the
  // geometry or the terrain changes).
  FieldGridView grid;
  std::vector<std::uint8_t> blocked;  ///< by cell
  std::vector<std::uint8_t> open;     ///< by cell: bit d, the face that way is open
  std::vector<float> height, discomfort;  ///< by cell, at its centre
  std::vector<float> groundFactor;    ///< by cell: the speed zones' factor at its centre
  std::vector<float> groundLimit;     ///< 4 per cell: the stairs' limit that way, units/s (+inf: none)
  std::vector<std::int32_t> goalStart{0}, goalCells;  ///< by target: its cells (CSR)
  std::vector<TargetKey> keys;
  std::uint64_t geometryVersion = ~std::uint64_t{0}, terrainVersion = ~std::uint64_t{0};

  // What a refresh builds.
  std::vector<float> density, velocityX, velocityY;  ///< by cell
  std::vector<float> speed, cost;     ///< 4 per cell: speed units/s, unit cost
  std::vector<std::int32_t> potentialOf;  ///< by target: its potential, or -1
  std::vector<float> potentials;      ///< potential after potential, cells each
  FieldParams params;
  std::uint64_t refreshStep = 0;
  bool built = false;                 ///< a refresh has run since the last clear

  std::size_t cells() const { return static_cast<std::size_t>(grid.cols) * static_cast<std::size_t>(grid.rows); }
  void clear();
  FieldCells cellsView() const {
    return FieldCells{density.data(),    velocityX.data(), velocityY.data(),    height.data(),
                      discomfort.data(), open.data(),      groundFactor.data(), groundLimit.data()};
  }
  /// What the wish reads (grid.cols == 0 when not built).
  FieldRouting routing() const;
  /// For drawing: the fields with the potential of `target`.
  FieldView view(int target) const;
};

/// The grid for these walkers and this ground (see the design note).
FieldGridView chooseFieldGrid(const Settings& s, const FieldWalkers& w, const ObstacleSet& obstacles,
                              const Terrain& terrain);
/// Makes the fixed parts of `f` fit grid g, the obstacles and the terrain
/// (rebuilt only when one of them changed). The obstacles' edge grid must be
/// built.
void fitFieldStatics(FieldState& f, const FieldGridView& g, const ObstacleSet& obstacles, std::uint64_t terrainVersion,
                     const Terrain& terrain, ThreadPool* pool);
/// The top speed of the field: the fastest cruising speed among the walkers (1 with none).
float fieldTopSpeed(const FieldWalkers& w);
/// Which targets walkers take now (by target: 1 when some walker takes it).
std::vector<std::uint8_t> targetsInUse(const std::vector<TargetKey>& keys, std::size_t targets, const FieldWalkers& w);

/// A refresh on the CPU: grid, fixed parts, density, speed, cost and the
/// potentials of the targets in use, on the pool's threads (null: this one).
void refreshFields(FieldState& f, const Settings& s, const FieldWalkers& w, const ObstacleSet& obstacles,
                   std::uint64_t terrainVersion, const Terrain& terrain, std::uint64_t step, ThreadPool* pool);

/// The density and mean velocity of the walkers into f (its grid fitted).
void splatDensity(FieldState& f, const Settings& s, const FieldWalkers& w, ThreadPool* pool);
/// Speed and unit cost per cell and direction from the density, velocity,
/// heights and discomfort in f.
void buildSpeedAndCost(FieldState& f, const Settings& s, ThreadPool* pool);

/// The potential over grid g with unit costs `cost` (4 per cell; +inf
/// through closed faces), zero on `goals`, +inf on blocked cells, by the
/// exact tiled iterative method (field_math.hpp). Writes cols * rows values
/// into `phi`. Returns the rounds it took.
int solvePotential(const FieldGridView& g, const float* cost, const std::uint8_t* blocked, const std::int32_t* goals,
                   std::size_t goalCount, float* phi, ThreadPool* pool);
/// The same by fast marching (a heap of trial cells, each accepted once,
/// updated from its accepted neighbours): the tests' reference.
void fastMarching(const FieldGridView& g, const float* cost, const std::uint8_t* blocked, const std::int32_t* goals,
                  std::size_t goalCount, float* phi);

}  // namespace throng

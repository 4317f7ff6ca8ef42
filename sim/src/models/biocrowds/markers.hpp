#pragma once
// BioCrowds' markers: points on walkable ground, laid once and kept until
// the geometry, the density, the personal space or the seed changes.
//
// Design note. The ground is the whole plane, cut into square strata h =
// 1/sqrt(markerDensity) wide on a lattice fixed to the origin; stratum
// (ix, iy) holds one marker at ((ix + u) h, (iy + v) h), u and v hashed from
// (seed, ix, iy), and none when that point is inside an obstacle outline or
// within kMarkerClearance R of an edge. So a marker is a function of the
// seed, the density and the geometry alone, never of where the field was
// laid or when: MarkerField stores the part of that infinite field around
// the walkers (their bounds, goals, gates and the geometry, widened by R
// and a slack), and grows before a step whenever a walker's personal space
// reaches its edge, so what every walker sees is the same as on the
// infinite field and a run depends on nothing else.
//
// Stored markers sit in a grid of square cells k strata wide, k h >= R (the
// first such k, so a walker's markers are in the 3 x 3 cells around its
// own, or 4 x 4 where the rounding of a cell index calls for it), row-major
// CSR, each cell's markers by stratum row then column. k is at most
// kMaxStrataPerCell: a denser field is thinned to that (the cost per
// walker stays bounded; 64^2 markers in an R x R square is far beyond the
// 11-64 per m^2 the authors recommend at R = 1 m). Each marker also keeps its
// clearance: the distance to the nearest obstacle edge or wall, INFINITY
// beyond 2 R (a walker uses only markers its disc fits on).
#include <cmath>
#include <cstdint>
#include <vector>

#include "geometry/obstacles.hpp"
#include "throng/settings.hpp"
#include "throng/vec2.hpp"

namespace throng {

class ThreadPool;

/// Markers closer than this fraction of R to an obstacle edge or wall are
/// not laid.
inline constexpr float kMarkerClearance = 0.05f;
/// The most strata along a cell's side (k).
inline constexpr int kMaxStrataPerCell = 64;
/// The most markers a field may hold: 2^24 (270 MB at 16 bytes each), or
/// for a large crowd 32 cells' worth a walker, and 2^28 (4.3 GB) at most.
/// A crowd spread wider at that density gets a field clipped to it
/// (MarkerField::clipped).
inline constexpr std::int64_t kMinMarkerCap = std::int64_t{1} << 24;
inline constexpr std::int64_t kMaxMarkers = std::int64_t{1} << 28;
inline constexpr int kCapCellsPerWalker = 32;

/// The markers' grid, for the THRONG_HD functions in biocrowds.hpp.
struct MarkerGridView {
  Vec2 origin;        ///< corner of cell (0, 0), world units
  float invCell = 1;  ///< 1 / cell side
  std::int32_t cols = 0, rows = 0;
  const std::int32_t* cellStart = nullptr;  ///< cols * rows + 1 offsets
  const float *mx = nullptr, *my = nullptr;
  const float* clear = nullptr;             ///< clearance of each marker, world units
  const std::uint8_t* nearEdges = nullptr;  ///< per cell: an edge lies within R of it
  std::int32_t count = 0;
  float radius = 1;  ///< R the field was laid for (a cell is at least R wide)
};

/// Stratum spacing h and strata per cell side k for personal space R and
/// a density in markers per square unit (kMaxStrataPerCell applied).
struct MarkerLattice {
  double spacing = 1;  ///< h, world units
  int perCell = 1;     ///< k
  double cell() const { return spacing * perCell; }
};
MarkerLattice markerLattice(double radius, double density);

/// The marker of stratum (ix, iy), or false when it is not laid (inside an
/// outline, or nearer an edge than kMarkerClearance R); `clear` takes its
/// clearance (INFINITY beyond 2 R). The grid of `obstacles` must be built.
bool markerOfStratum(const ObstacleView& ov, const MarkerLattice& lat, std::uint64_t seed, float radius,
                     std::int64_t ix, std::int64_t iy, Vec2& at, float& clear);

class MarkerField {
 public:
  /// Fits the field to the step: relaid when the geometry, markerDensity,
  /// personalSpace or seed changed, grown when a walker's personal space
  /// leaves it (a clipped field stays until its inputs change). `lo`,
  /// `hi`: the bounds of the walkerCount walkers; `extent` is called (only
  /// when the field is laid) for more points the ground should cover
  /// (goals, gates). Returns true when it laid the field.
  template <class Extent>
  bool fit(const Settings& s, const ObstacleSet& obstacles, Vec2 lo, Vec2 hi, std::size_t walkerCount,
           const Extent& extent, ThreadPool* pool);

  MarkerGridView view() const;
  std::size_t size() const { return mx.size(); }

  MarkerLattice lattice;
  float radius = 0;             ///< R it was laid for
  std::int64_t cellX0 = 0, cellY0 = 0;  ///< global index of cell (0, 0)
  std::int32_t cols = 0, rows = 0;
  std::vector<std::int32_t> cellStart;
  std::vector<float> mx, my, clear;
  std::vector<std::uint8_t> nearEdges;
  std::uint64_t version = 0;  ///< bumped by every lay (device copies follow it)
  /// The walkers spread wider than kMaxMarkers can cover: the field is a
  /// square about their middle, and those off it own nothing (they stand,
  /// jammed). Results then depend on when the field was laid.
  bool clipped = false;

 private:
  bool covers(Vec2 lo, Vec2 hi) const;
  /// Cells [x0, x1] x [y0, y1], global indices.
  struct CellBox {
    std::int64_t x0, y0, x1, y1;
  };
  /// Lays the ground widened by a slack of a quarter of its extent (at
  /// least two cells) each way, so a crowd on the move grows the field
  /// seldom; when that holds more than kMaxMarkers, the ground alone, then
  /// the walkers' box alone, then the largest square that fits about the
  /// walkers' middle (`clipped`).
  void lay(const ObstacleSet& obstacles, CellBox ground, CellBox walkers, std::size_t walkerCount, ThreadPool* pool);
  double density_ = 0;
  std::uint64_t seed_ = 0, geometry_ = ~std::uint64_t{0};
  bool laid_ = false;
};

template <class Extent>
bool MarkerField::fit(const Settings& s, const ObstacleSet& obstacles, Vec2 lo, Vec2 hi, std::size_t walkerCount,
                      const Extent& extent, ThreadPool* pool) {
  const bool same = laid_ && density_ == s.markerDensity && radius == s.personalSpace && seed_ == s.seed &&
                    geometry_ == obstacles.version;
  if (same && (clipped || covers(lo, hi))) return false;
  // The ground: the walkers, what they head for and the geometry; then
  // what was laid before, when it still holds, and a slack.
  Vec2 a = lo, b = hi;
  const auto take = [&](Vec2 p) {
    if (!(p.x == p.x) || !(p.y == p.y)) return;
    a = {a.x < p.x ? a.x : p.x, a.y < p.y ? a.y : p.y};
    b = {b.x > p.x ? b.x : p.x, b.y > p.y ? b.y : p.y};
  };
  extent(take);
  for (const ObstacleVertex& v : obstacles.vertices) take(v.point);
  density_ = s.markerDensity;
  radius = s.personalSpace;
  seed_ = s.seed;
  geometry_ = obstacles.version;
  lattice = markerLattice(radius, density_);
  const double cell = lattice.cell();
  const double pad = radius + cell;
  // Cell indices, clamped far beyond any field that fits in memory (so they
  // convert, and stay in an int64 once times k).
  const auto index = [cell](double v) {
    const double f = std::floor(v / cell);
    return static_cast<std::int64_t>(f > 0x1p40 ? 0x1p40 : (f < -0x1p40 ? -0x1p40 : (f == f ? f : 0.0)));
  };
  CellBox ground{index(a.x - pad), index(a.y - pad), index(b.x + pad), index(b.y + pad)};
  const CellBox walkers{index(lo.x - pad), index(lo.y - pad), index(hi.x + pad), index(hi.y + pad)};
  if (same) {  // growing: keep what was laid inside the new ground
    ground.x0 = ground.x0 < cellX0 ? ground.x0 : cellX0;
    ground.y0 = ground.y0 < cellY0 ? ground.y0 : cellY0;
    ground.x1 = ground.x1 > cellX0 + cols - 1 ? ground.x1 : cellX0 + cols - 1;
    ground.y1 = ground.y1 > cellY0 + rows - 1 ? ground.y1 : cellY0 + rows - 1;
  }
  lay(obstacles, ground, walkers, walkerCount, pool);
  laid_ = true;
  return true;
}

}  // namespace throng

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
#include <stdexcept>
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
/// The most markers a field may hold (4.3 GB of host memory at 16 bytes
/// each); a crowd spread wider at that density is refused.
inline constexpr std::int64_t kMaxMarkers = std::int64_t{1} << 28;

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
  /// leaves it. `lo`, `hi`: the walkers' bounds; `extent` is called (only
  /// when the field is laid) for more points the ground should cover
  /// (goals, gates). Returns true when it laid the field. Throws
  /// std::length_error when the ground would need more than kMaxMarkers.
  template <class Extent>
  bool fit(const Settings& s, const ObstacleSet& obstacles, Vec2 lo, Vec2 hi, const Extent& extent,
           ThreadPool* pool);

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

 private:
  bool covers(Vec2 lo, Vec2 hi) const;
  /// Lays cells [gx0, gx1] x [gy0, gy1] (global indices) widened by the
  /// slack each way, or without the slack when that is too many markers.
  void lay(const ObstacleSet& obstacles, std::int64_t gx0, std::int64_t gy0, std::int64_t gx1, std::int64_t gy1,
           std::int64_t slackX, std::int64_t slackY, ThreadPool* pool);
  double density_ = 0;
  std::uint64_t seed_ = 0, geometry_ = ~std::uint64_t{0};
  bool laid_ = false;
};

template <class Extent>
bool MarkerField::fit(const Settings& s, const ObstacleSet& obstacles, Vec2 lo, Vec2 hi, const Extent& extent,
                      ThreadPool* pool) {
  const bool same = laid_ && density_ == s.markerDensity && radius == s.personalSpace && seed_ == s.seed &&
                    geometry_ == obstacles.version;
  if (same && covers(lo, hi)) return false;
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
  const double fx0 = std::floor((a.x - pad) / cell), fy0 = std::floor((a.y - pad) / cell);
  const double fx1 = std::floor((b.x + pad) / cell), fy1 = std::floor((b.y + pad) / cell);
  // Cell indices far beyond any field that fits in memory (and beyond an
  // int64 once times k) are refused before they are converted.
  for (const double f : {fx0, fy0, fx1, fy1})
    if (!(std::fabs(f) < 0x1p40)) throw std::length_error("BioCrowds: the walkers or the geometry lie too far out for markers");
  auto gx0 = static_cast<std::int64_t>(fx0), gy0 = static_cast<std::int64_t>(fy0);
  auto gx1 = static_cast<std::int64_t>(fx1), gy1 = static_cast<std::int64_t>(fy1);
  if (same) {  // growing: keep what was laid inside the new ground
    gx0 = gx0 < cellX0 ? gx0 : cellX0;
    gy0 = gy0 < cellY0 ? gy0 : cellY0;
    gx1 = gx1 > cellX0 + cols - 1 ? gx1 : cellX0 + cols - 1;
    gy1 = gy1 > cellY0 + rows - 1 ? gy1 : cellY0 + rows - 1;
  }
  // A slack of a quarter of the extent (at least two cells) each way, so a
  // crowd on the move grows the field seldom.
  lay(obstacles, gx0, gy0, gx1, gy1, (gx1 - gx0) / 4 + 2, (gy1 - gy0) / 4 + 2, pool);
  laid_ = true;
  return true;
}

}  // namespace throng

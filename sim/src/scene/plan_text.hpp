#pragma once
// A floor plan's geometry as text: WKT and GeoJSON read through GEOS (the
// engine under shapely), and WKT written back. Not installed.
//
// Design note. GEOS parses, checks validity (GEOSisValidReason: a
// self-intersecting ring, a hole outside its shell) and computes the
// walkable area of a scene that names none (a difference of polygons).
// Coordinates come out exactly as the text gives them, ring by ring in
// file order, never normalised or reoriented, so a scene that writes its
// walls as WKT reads back to the same floats in the same order and runs
// the same, hash for hash. Writing is ours: the shortest decimal that reads
// back to the same float, so "0.1" stays "0.1". Only the reentrant C API
// is used (a context per call); GEOS's C++ API is not stable between
// releases.
#include <string>
#include <string_view>
#include <vector>

#include "throng/scene.hpp"

namespace throng::detail {

/// What a geometry text holds: polygons (the walkable area) and lines
/// (walls), in the text's order.
struct PlanShapes {
  std::vector<WalkableArea> areas;
  std::vector<std::vector<Vec2>> lines;
};

enum class PlanFormat { Wkt, GeoJson };

/// A plan file's format by its name: .wkt is WKT, .geojson and .json GeoJSON.
inline PlanFormat planFormatOf(std::string_view name) {
  return name.ends_with(".wkt") ? PlanFormat::Wkt : PlanFormat::GeoJson;
}

/// How deep a plan's text may nest (WKT's parentheses, GeoJSON's brackets
/// and braces): a polygon needs 3, a collection of multipolygons 4. GEOS's
/// readers recurse, so deeper text is refused before it reaches them.
inline constexpr std::size_t kMaxPlanDepth = 32;

/// Reads POLYGON, MULTIPOLYGON, LINESTRING, MULTILINESTRING or a
/// GEOMETRYCOLLECTION of them (GeoJSON: those geometries, a Feature or a
/// FeatureCollection). False with *error (GEOS's own words for a parse
/// error or an invalid polygon) on anything else, an empty geometry, text
/// nested deeper than kMaxPlanDepth, a coordinate beyond 1e12 or more than
/// `maxPoints` points in all.
bool readPlan(std::string_view text, PlanFormat format, PlanShapes* out, std::string* error,
              std::size_t maxPoints = 1'000'000);

/// The area of polygon `outline` that lies inside the areas, square units.
double areaOnFloor(const std::vector<WalkableArea>& areas, const std::vector<Vec2>& outline);

/// Whether p lies inside the areas (even-odd over every ring).
bool insideAreas(const std::vector<WalkableArea>& areas, Vec2 p);

/// "x y" in the shortest form that reads back to the same floats.
void appendWktPoint(std::string& out, Vec2 p);

}  // namespace throng::detail

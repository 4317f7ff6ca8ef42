#pragma once
// The scene editor's geometry: what is under the cursor (hit testing) and
// where a click lands (snapping), over the document's shapes
// (throng/scene_doc.hpp's DocShape, evaluated at the knobs' values).
// Pure: no SDL, GL or ImGui, and nothing of the document but its shapes, so
// the tests run it on hand-made shapes.
//
// Positions are world units (the scene's units); tolerances are screen
// pixels, turned into world units by `pixel` (the world size of one pixel,
// Camera2D::pixelSize()), so picking feels the same at every zoom.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "throng/scene_doc.hpp"
#include "throng/vec2.hpp"

namespace throng::app::edit {

/// Distance from p to segment ab; *t (when given) the nearest point's
/// parameter along it, 0 at a and 1 at b.
float distanceToSegment(Vec2 p, Vec2 a, Vec2 b, float* t = nullptr);
/// Whether p lies inside the closed polygon (either winding; even-odd).
bool insidePolygon(Vec2 p, std::span<const Vec2> poly);
/// The rectangle with corners a and b (either order; width, height >= 0).
Rect rectBetween(Vec2 a, Vec2 b);
/// The corners of r, counter-clockwise from (x, y).
std::vector<Vec2> rectCorners(const Rect& r);
/// The box around a shape's points (and its radius, for agents and hills).
Rect boundsOf(const DocShape& s);
/// The part of a pointer after its last '/' ("3" of "/walls/2/3"), and before it.
std::string_view lastSegment(std::string_view pointer);
std::string_view parentPointer(std::string_view pointer);
/// Whether a shape is a lattice's bounds (a height or discomfort map): drawn
/// and painted, never picked by its inside.
bool isMapShape(const DocShape& s);

/// What is under the cursor.
struct Hit {
  enum class Part : std::uint8_t {
    None,
    Body,    ///< inside a closed shape, on a point-like one (an agent, a goal, a hill)
    Vertex,  ///< on a point that moves alone (the shape's vertexPointers[vertex] is set)
    Edge,    ///< on the segment from point `vertex` to the next (the closing one of an outline too)
  };
  Part part = Part::None;
  int shape = -1;    ///< index into the shapes
  int vertex = -1;   ///< Vertex: the point; Edge: the edge's first point
  Vec2 at;           ///< Vertex: the point; Edge: the nearest point on the edge; Body: the cursor
  float distance = 0;  ///< world units from the cursor
};

struct HitOptions {
  float tolerancePx = 7;        ///< how near (pixels) a vertex, an edge or a point counts as under the cursor
  std::string_view preferred;   ///< the selected element: its vertices come first
};

/// The element under world point p. In order: a vertex of the preferred
/// element; a point-like shape (the last drawn wins); the nearest vertex of
/// any element; the nearest edge; the smallest closed shape holding p.
Hit hitTest(const std::vector<DocShape>& shapes, Vec2 p, float pixel, const HitOptions& o = {});

/// Snapping: to the points of the scene within `radiusPx`, else to the grid.
struct SnapOptions {
  bool grid = true;          ///< round to multiples of `step`
  float step = 0.5f;         ///< world units [Limit: > 0]
  bool vertices = true;      ///< snap to the shapes' points first
  float radiusPx = 10;       ///< how near (pixels) a point pulls the cursor
  bool operator==(const SnapOptions&) const = default;
};

struct Snapped {
  enum class Kind : std::uint8_t { None, Grid, Vertex };
  Vec2 at;
  Kind kind = Kind::None;
};

/// Where a click at world point p lands. Points of the element or vertex
/// `skip` (a pointer: an element skips all of its points, a vertex pointer
/// only that one) are not snapped to, nor are map bounds; `extra` are more
/// points to snap to (the polyline being drawn).
Snapped snap(Vec2 p, const std::vector<DocShape>& shapes, float pixel, const SnapOptions& o, std::string_view skip = {},
             std::span<const Vec2> extra = {});
/// p rounded to the grid (when o.grid), ignoring the points.
Vec2 snapToGrid(Vec2 p, const SnapOptions& o);

}  // namespace throng::app::edit

#pragma once
// Overlay geometry: scene outlines, walls, goal and gate marks, and the
// teaching view, as plain triangle lists in world units. Pure (no GL): the
// renderer uploads the vertices as they are; tests inspect them.
//
// Teaching view. A model explains a walker as shapes with roles
// (throng/teaching.hpp); buildTeachingMesh draws each by its kind in its
// role's colour and width, and never asks which model made it. Velocity
// space is drawn over the world with its origin at the selected walker's
// centre and `velocityScale` world units per (world unit per second): at
// the default of 1 s a velocity ends where the walker would be one second
// later. What each built-in model shows is written at the top of its
// teaching code (models/orca/teach.hpp, BioCrowdsModel::teach,
// ContinuumModel::explain; the fields' part in core/teach.hpp).
#include <cstdint>
#include <span>
#include <vector>

#include "render/instance.hpp"
#include "throng/crowd.hpp"
#include "throng/types.hpp"
#include "throng/vec2.hpp"

namespace throng::render {

struct Vertex {
  float x, y;          ///< world units
  std::uint32_t rgba;  ///< R in the lowest byte
};
static_assert(sizeof(Vertex) == 12);

/// A triangle list (three vertices per triangle).
struct Mesh {
  std::vector<Vertex> tris;
  void clear() { tris.clear(); }
  std::size_t triangleCount() const { return tris.size() / 3; }
};

/// The static scene as given to the crowd, plus where walkers are headed.
struct SceneGeometry {
  std::vector<std::vector<Vec2>> obstacles;  ///< closed outlines, either winding
  std::vector<std::vector<Vec2>> walls;      ///< polylines
  std::vector<Vec2> goals;                   ///< distinct goal points
  std::vector<Waypoint> gates;               ///< route gates (waypoints)
  std::vector<Rect> sources, sinks, goalRegions;  ///< outlined regions
  /// Measurement lines (two points: first to second, forward to its right)
  /// and areas (closed outlines).
  std::vector<std::vector<Vec2>> measureLines, measureAreas;
  /// Speed zones (closed outlines) and flights of stairs (only their
  /// outlines and uphill directions are drawn).
  std::vector<std::vector<Vec2>> speedZones;
  std::vector<Stairs> stairs;
};

/// Signed area (> 0 counter-clockwise).
float signedArea(std::span<const Vec2> poly);
/// Fills a simple polygon (either winding, convex or not) by ear clipping.
void addPolygonFill(Mesh& m, std::span<const Vec2> poly, std::uint32_t rgba);
/// A segment as a quad `width` wide (world units).
void addSegment(Mesh& m, Vec2 a, Vec2 b, float width, std::uint32_t rgba);
void addPolyline(Mesh& m, std::span<const Vec2> pts, float width, std::uint32_t rgba, bool closed);
/// A circle outline of `width`, `segments` pieces.
void addCircle(Mesh& m, Vec2 c, float r, float width, std::uint32_t rgba, int segments = 48);
void addDisc(Mesh& m, Vec2 c, float r, std::uint32_t rgba, int segments = 32);
/// An arrow from `from` to `to` with a head `head` long.
void addArrow(Mesh& m, Vec2 from, Vec2 to, float width, float head, std::uint32_t rgba);

/// The ground's colours, the run view's and the editor's alike.
inline constexpr std::uint32_t kSpeedZoneEdge = packRgba(30, 140, 120, 220);
inline constexpr std::uint32_t kSpeedZoneFill = packRgba(30, 140, 120, 40);
inline constexpr std::uint32_t kStairsEdge = packRgba(120, 90, 40, 230);
inline constexpr std::uint32_t kStairsFill = packRgba(120, 90, 40, 45);
/// A speed zone: its outline filled teal and edged.
void addSpeedZone(Mesh& m, std::span<const Vec2> outline, float pixel);
/// A flight of stairs: filled brown, edged, and an arrow uphill through its
/// outline's middle (none when `up` is zero). `pixel`: a screen pixel's world size.
void addStairs(Mesh& m, std::span<const Vec2> outline, Vec2 up, float pixel);
void addCross(Mesh& m, Vec2 c, float size, float width, std::uint32_t rgba);

/// Obstacles filled, walls as lines, goals as crosses, gates as dashed
/// segments, sources (green), sinks (red) and goal regions (faint green)
/// as outlined boxes, measurement lines (purple, a tick on the forward side)
/// and areas (a purple outline). `pixel` is the world size of one screen
/// pixel (line widths).
void buildSceneMesh(const SceneGeometry& g, float pixel, Mesh& out);

using throng::fieldCellCentre;  ///< throng/fields.hpp's: a field cell's centre

/// Colours of the teaching view (tests look for them).
inline constexpr std::uint32_t kPermittedShade = 0x1230A040u;  // translucent green
inline constexpr std::uint32_t kFeasibleShade = 0x5530B030u;   // every line permits
inline constexpr std::uint32_t kOrcaLineColor = 0xFF208020u;
inline constexpr std::uint32_t kObstacleLineColor = 0xFF204080u;
inline constexpr std::uint32_t kVoShade = 0x1C2020D0u;         // translucent red
inline constexpr std::uint32_t kPreferredColor = 0xFFD06020u;  // blue arrow
inline constexpr std::uint32_t kChosenColor = 0xFF101010u;     // black arrow
inline constexpr std::uint32_t kNeighbourColor = 0xFFC0A000u;  // teal ring
inline constexpr std::uint32_t kNeighbourLinkColor = packRgba(0, 160, 192, 110);
inline constexpr std::uint32_t kTopSpeedColor = packRgba(90, 90, 90, 160);
// Markers, a model's pull and push.
inline constexpr std::uint32_t kOwnedMarkerColor = 0xFF8C00E1u;     // magenta dot, sized by weight
inline constexpr std::uint32_t kUnusableMarkerColor = 0xFF6E6E6Eu;  // grey ring: owned, weight 0
inline constexpr std::uint32_t kMotionColor = 0xFF3C9614u;          // green arrow: M (continuum: the push)
inline constexpr std::uint32_t kPersonalSpaceColor = 0xA08C00E1u;   // translucent magenta circle
// The fields' part.
inline constexpr std::uint32_t kFieldCellOutline = 0xE0503C28u;  // dark slate (40, 60, 80)
inline constexpr std::uint32_t kFieldSpeedColor = 0xFF8C3C1Eu;   // dark blue (30, 60, 140)
inline constexpr std::uint32_t kFieldClosedColor = 0xFF2828C8u;  // red (200, 40, 40)
inline constexpr std::uint32_t kFieldFlowColor = 0xFFA09600u;    // teal (0, 150, 160)
// The separation gate's catch: two walkers overlapping in the last step.
inline constexpr std::uint32_t kGateFlagColor = packRgba(220, 30, 30);
// The neighbour grid's query.
inline constexpr std::uint32_t kGridCellColor = packRgba(110, 110, 160);
inline constexpr std::uint32_t kCandidateColor = packRgba(170, 120, 220);
/// Weight dots' radii, pixels: the lightest usable marker's and the
/// heaviest's (both grown by as much as it takes to cover the marker
/// layer's dot).
inline constexpr float kWeightDotMinPx = 1.5f, kWeightDotMaxPx = 4.5f;

/// A model's teaching view (throng/teaching.hpp) as triangles: each shape
/// by its kind, in its role's colour and width, velocity-frame shapes from
/// `origin` (the walker's centre) at `velocityScale` world units per (world
/// unit / s). `pixel`: the world size of a screen pixel (line widths).
/// Which of a view's shapes to draw: all of them; those over the crowd when
/// the velocity plane has an inset of its own (the world frame's, and the
/// wish, the choice and the field's flow as arrows from the walker); or the
/// velocity plane's alone.
enum class TeachLayer { All, World, Velocity };
void buildTeachingMesh(const TeachingView& view, Vec2 origin, float velocityScale, float pixel, Mesh& out,
                       TeachLayer layer = TeachLayer::All);
/// Where a shape's label goes, in its frame: an arrow's tip, a path's
/// middle, a fill's centroid, a ring's north-east point, a dot's centre.
Vec2 teachLabelAnchor(const TeachShape& shape);
/// The colour a role's shapes are drawn in (0 for Text and Legend), for
/// text beside the view.
std::uint32_t teachColour(TeachRole role);

}  // namespace throng::render

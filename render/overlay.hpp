#pragma once
// Overlay geometry: scene outlines, walls, goal and gate marks, and the
// teaching view, as plain triangle lists in world units. Pure (no GL): the
// renderer uploads the vertices as they are; tests inspect them.
//
// Teaching view. Velocity space is drawn over the world with its origin at
// the selected walker's centre and `velocityScale` world units per (world
// unit per second): at the default of 1 s a velocity ends where the walker
// would be one second later. In that frame it shows
//  - the top-speed circle;
//  - each neighbour's velocity obstacle for this walker: the cone of
//    velocities that meet it within timeHorizon, apex at the neighbour's
//    velocity, truncated by the cut-off disc (drawing geometry only);
//  - each ORCA line from Crowd::explain (the solver's own lines) with its
//    permitted side (left of direction) shaded, so the region allowed by
//    every line is the darkest;
//  - the feasible region (permitted by every line, within top speed, as a
//    polygon; empty when the walker is jammed) in a stronger green;
//  - the preferred velocity and the chosen one as arrows.
//
// Under BioCrowds (TeachingInput::model "biocrowds") it shows instead, in
// the world's own units around the walker:
//  - its personal space R, the circle within which it owns markers;
//  - each marker it owns as a dot whose size grows with the marker's weight
//    f_k (how much it pulls the walker: toward the wish and near), and one
//    it owns but cannot use (its disc does not fit there, or a neighbour is
//    too near) as a small grey ring;
//  - the motion vector M, the weighted mean of the owned markers' offsets,
//    as an arrow from the walker to that mean point (true length, world
//    units: it lies within R);
//  - the wish g and the chosen velocity as arrows, velocity-scaled as in
//    ORCA's view, over the top-speed circle.
//
// Under any model that reads the fields (continuum, or routing = field),
// when the walker stands in a field cell (AgentExplain::fieldCell >= 0) and
// the input gives the field grid, it adds:
//  - the cell's outline;
//  - from the cell's centre toward each of its four neighbours an arrow as
//    long as the speed that way (0.45 of the cell at the walker's top speed),
//    and a red bar across a closed face (cost +inf);
//  - the field's flow at the walker (fieldFlow), velocity-scaled, in teal.
//  The costs, as numbers, are the app's to print by the cell.
#include <cstdint>
#include <span>
#include <string_view>
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

/// The part of convex polygon `poly` on the permitted side of `line`
/// (det(direction, point - v) <= 0); empty when none is.
std::vector<Vec2> clipToPermitted(std::span<const Vec2> poly, const HalfPlane& line);

/// The truncated velocity-obstacle cone (a convex polygon in velocity
/// space) for relative position relPos = pB - pA, combined radius, time
/// horizon tau, apex at the neighbour's velocity, legs `legLength` long.
/// Overlapping pairs (|relPos| <= combinedRadius) get the cut-off disc only.
std::vector<Vec2> velocityObstacle(Vec2 relPos, float combinedRadius, float tau, Vec2 apex, float legLength,
                                   int arcSegments = 16);

/// Obstacles filled, walls as lines, goals as crosses, gates as dashed
/// segments, sources (green), sinks (red) and goal regions (faint green)
/// as outlined boxes, measurement lines (purple, a tick on the forward side)
/// and areas (a purple outline). `pixel` is the world size of one screen
/// pixel (line widths).
void buildSceneMesh(const SceneGeometry& g, float pixel, Mesh& out);

struct TeachingInput {
  Vec2 position, velocity;
  float radius = 8, maxSpeed = 120, timeHorizon = 1;
  float velocityScale = 1;  ///< world units per (world unit / s)
  const AgentExplain* explain = nullptr;
  /// Neighbour states in explain->neighbours order.
  std::span<const Vec2> neighbourPos, neighbourVel;
  std::span<const float> neighbourRadius;
  /// The model that explains (Settings::model): "biocrowds" draws its
  /// markers and motion; "continuum" its wish, choice and push
  /// (explain->motion); any other, ORCA's velocity space.
  std::string_view model = "orca";
  float personalSpace = 1;  ///< BioCrowds' R, world units
  /// BioCrowds' marker spacing, world units (throng::markerSpacing); the
  /// weight dots stay smaller than it. 0: unknown.
  float markerSpacing = 0;
  /// The field grid explain->fieldCell counts in (FieldView's origin, cell
  /// and cols); fieldCellSize 0: no field part.
  Vec2 fieldOrigin;
  float fieldCellSize = 0;
  int fieldCols = 0;
};

/// The centre of cell `index` of a grid of `cols` columns from `origin`, side `h`.
Vec2 fieldCellCentre(Vec2 origin, float h, int cols, std::int32_t index);

/// Colours of the teaching view (tests look for them).
inline constexpr std::uint32_t kPermittedShade = 0x1230A040u;  // translucent green
inline constexpr std::uint32_t kFeasibleShade = 0x5530B030u;   // every line permits
inline constexpr std::uint32_t kOrcaLineColor = 0xFF208020u;
inline constexpr std::uint32_t kObstacleLineColor = 0xFF204080u;
inline constexpr std::uint32_t kVoShade = 0x1C2020D0u;         // translucent red
inline constexpr std::uint32_t kPreferredColor = 0xFFD06020u;  // blue arrow
inline constexpr std::uint32_t kChosenColor = 0xFF101010u;     // black arrow
inline constexpr std::uint32_t kNeighbourColor = 0xFFC0A000u;  // teal ring
// BioCrowds' view.
inline constexpr std::uint32_t kOwnedMarkerColor = 0xFF8C00E1u;     // magenta dot, sized by weight
inline constexpr std::uint32_t kUnusableMarkerColor = 0xFF6E6E6Eu;  // grey ring: owned, weight 0
inline constexpr std::uint32_t kMotionColor = 0xFF3C9614u;          // green arrow: M (continuum: the push)
inline constexpr std::uint32_t kPersonalSpaceColor = 0xA08C00E1u;   // translucent magenta circle
// The fields' part.
inline constexpr std::uint32_t kFieldCellOutline = 0xE0503C28u;  // dark slate (40, 60, 80)
inline constexpr std::uint32_t kFieldSpeedColor = 0xFF8C3C1Eu;   // dark blue (30, 60, 140)
inline constexpr std::uint32_t kFieldClosedColor = 0xFF2828C8u;  // red (200, 40, 40)
inline constexpr std::uint32_t kFieldFlowColor = 0xFFA09600u;    // teal (0, 150, 160)
/// Weight dots' radii, pixels: the lightest usable marker's and the
/// heaviest's (both grown by as much as it takes to cover the marker
/// layer's dot).
inline constexpr float kWeightDotMinPx = 1.5f, kWeightDotMaxPx = 4.5f;

/// The teaching view of `in.explain` for `in.model` (nothing without an
/// explain). `pixel`: the world size of a screen pixel (line widths).
void buildTeachingMesh(const TeachingInput& in, float pixel, Mesh& out);

}  // namespace throng::render

#pragma once
// A model's teaching view as data: the shapes that show why a walker picks
// the velocity it picks, each with a role, and lines of text for the panel
// beside it. The model that explains a walker produces them
// (Model::explain); one renderer (render/overlay.hpp) draws every shape by
// its kind and role, so it never asks which model made it, and a new model
// brings its own view without touching the renderer.
//
// Shapes are in one of two frames:
//  - World: points in world units;
//  - Velocity: velocities in world units per second, drawn with their
//    origin at the walker's centre and scaled by the view's velocity scale
//    (at 1 s a velocity ends where the walker would be a second later).
// A shape's size (a ring's or a dot's radius) is in its frame's units. Line
// widths, arrow heads and colours are the role's, set by the renderer.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "throng/vec2.hpp"

namespace throng {

/// What a shape shows; the renderer gives each role its colour and width.
enum class TeachRole : std::uint8_t {
  Forbidden,       ///< velocities that meet a neighbour (a velocity obstacle)
  Permitted,       ///< the permitted side of one constraint
  ObstacleLine,    ///< a constraint from a wall or an obstacle
  AgentLine,       ///< a constraint from a neighbour
  Feasible,        ///< velocities every constraint permits, within top speed
  TopSpeed,        ///< the walker's top-speed circle
  Reach,           ///< how far the model looks around the walker (BioCrowds' R)
  Neighbour,       ///< a ring round a neighbour the model reads
  NeighbourLink,   ///< from the walker to such a neighbour
  Marker,          ///< a point the walker uses, sized by its weight
  MarkerUnusable,  ///< a point the walker owns but cannot use
  Preferred,       ///< the wish
  Chosen,          ///< the velocity the model picks
  Motion,          ///< the model's own pull (BioCrowds' M), true length
  Push,            ///< a displacement the model adds (Continuum's push)
  FieldCell,       ///< the field cell under the walker
  FieldSpeed,      ///< the field's speed out of that cell, one way
  FieldClosed,     ///< a face of that cell no walker may cross
  FieldFlow,       ///< the field's velocity at the walker
  GridCell,        ///< a cell of the neighbour grid the walker's query visits
  Candidate,       ///< a walker found in those cells, read or not
  Text,            ///< for notes: plain text
  Legend,          ///< for notes: what the colours mean, drawn dimmed
};

enum class TeachFrame : std::uint8_t { World, Velocity };

enum class TeachKind : std::uint8_t {
  Fill,   ///< a convex polygon, filled
  Path,   ///< an open polyline
  Loop,   ///< a closed polyline
  Arrow,  ///< points[0] to points[1], a head at points[1]
  Ring,   ///< a circle's outline round points[0], radius `size`
  Dot,    ///< a filled disc round points[0]; see TeachShape::size, weight
};

struct TeachShape {
  TeachKind kind = TeachKind::Path;
  TeachRole role = TeachRole::Preferred;
  TeachFrame frame = TeachFrame::World;
  std::vector<Vec2> points;
  /// A ring's radius. A Marker dot's: the spacing of the points it stands
  /// among (it is drawn no wider than half of it; 0: unknown).
  float size = 0;
  /// A Marker dot's weight against the heaviest, in [0, 1]: the dot grows
  /// with it.
  float weight = 0;
  /// What to call it beside the shape (a hash and the index for a neighbour's line); empty:
  /// no label.
  std::string label;
  /// The walker it is about (a neighbour's line, its cone, its ring), by
  /// index; -1: none. The app highlights that walker when the shape is hovered.
  std::int64_t walker = -1;
};

/// A line for the panel beside the view, coloured as its role's shapes
/// (Text: plain; Legend: dimmed and wrapped).
struct TeachNote {
  TeachRole role = TeachRole::Text;
  std::string text;
};

/// Shapes in drawing order (later over earlier), and notes in reading order.
struct TeachingView {
  std::vector<TeachShape> shapes;
  std::vector<TeachNote> notes;

  void add(TeachKind kind, TeachRole role, TeachFrame frame, std::vector<Vec2> points, float size = 0,
           float weight = 0, std::string label = {}) {
    shapes.push_back(TeachShape{kind, role, frame, std::move(points), size, weight, std::move(label)});
  }
  void arrow(TeachRole role, TeachFrame frame, Vec2 from, Vec2 to, std::string label = {}) {
    add(TeachKind::Arrow, role, frame, {from, to}, 0, 0, std::move(label));
  }
  void ring(TeachRole role, TeachFrame frame, Vec2 centre, float radius, std::string label = {}) {
    add(TeachKind::Ring, role, frame, {centre}, radius, 0, std::move(label));
  }
  void note(TeachRole role, std::string text) { notes.push_back(TeachNote{role, std::move(text)}); }
};

}  // namespace throng
